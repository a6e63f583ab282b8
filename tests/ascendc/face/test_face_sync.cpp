// SyncAll and the atomic GM writes of the twin (face_sync/face_sync.cpp): values against
// written expectations, and the broken uses reported, not hung (ctest's timeout would fail a
// hang). Run twice by ctest: with the pool's threads, and with MISHGRAD_NUM_THREADS=1, where
// every block but the barrier's helpers runs on the caller one after another (a barrier that
// did not wait would leave the neighbour's chunk zero there).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "acl/acl_rt.h"
#include "asc_twin/gm.h"
#include "asc_twin/launch.h"

namespace {
struct Tiling {
    int32_t n;
    int32_t reps;
};

struct Buffers {
    float *scratch, *out;
    int32_t *iout;
    uint16_t *hout;
    int32_t *ws;
};

constexpr int N = 64;

Buffers Alloc(int nb)
{
    Buffers b{static_cast<float *>(asc_twin_gm_alloc(static_cast<size_t>(nb) * N * 4)),
              static_cast<float *>(asc_twin_gm_alloc(static_cast<size_t>(2 + nb) * N * 4)),
              static_cast<int32_t *>(asc_twin_gm_alloc(N * 4)), static_cast<uint16_t *>(asc_twin_gm_alloc(N * 2)),
              static_cast<int32_t *>(asc_twin_gm_alloc(static_cast<size_t>(nb) * 32))};
    return b;
}

void Free(Buffers &b)
{
    asc_twin_gm_free(b.scratch);
    asc_twin_gm_free(b.out);
    asc_twin_gm_free(b.iout);
    asc_twin_gm_free(b.hout);
    asc_twin_gm_free(b.ws);
}

// Runs face_sync under `key` on nb blocks; returns the status, the message in *msg.
int RunSync(uint64_t key, uint32_t nb, Buffers &b, int32_t reps, std::string *msg)
{
    const Tiling t{N, reps};
    uint8_t *args[] = {reinterpret_cast<uint8_t *>(b.scratch), reinterpret_cast<uint8_t *>(b.out),
                       reinterpret_cast<uint8_t *>(b.iout),    reinterpret_cast<uint8_t *>(b.hout),
                       reinterpret_cast<uint8_t *>(b.ws),      nullptr,
                       nullptr};
    asc_twin_launch_args a = {};
    a.kernel = asc_twin_find("face_sync", key);
    EXPECT_NE(a.kernel, nullptr) << key;
    if (a.kernel == nullptr) return -1;
    a.block_dim = nb;
    a.gm_args = args;
    a.nargs = 7;
    a.tiling = &t;
    a.tiling_size = sizeof t;
    const int status = asc_twin_run_sync(&a);
    *msg = status != 0 ? aclGetRecentErrMsg() : "";
    return status;
}

void ExpectExchanged(const Buffers &b, int nb)
{
    for (int i = 0; i < nb; i++) {
        const int j = (i + 1) % nb;
        for (int k = 0; k < N; k++)
            ASSERT_EQ(b.out[i * N + k], 1000.0f * static_cast<float>(j + 1) + static_cast<float>(k))
                << "block " << i << " element " << k << " (block " << j << "'s chunk)";
    }
}

bool EndsWith(const std::string &s, const std::string &tail)
{
    return s.rfind("face_sync block ", 0) == 0 && s.size() >= tail.size() &&
           s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

float Half(uint16_t h)
{
    // exact for the normal values this test uses (no subnormals, no infinities)
    const int e = (h >> 10) & 31;
    const float m = 1.0f + static_cast<float>(h & 1023) / 1024.0f;
    return ((h & 0x8000) ? -1.0f : 1.0f) * std::ldexp(m, e - 15);
}
} // namespace

TEST(FaceSync, BarrierOrdersNeighbourReads)
{
    for (uint32_t nb : {2u, 8u, 48u}) {
        Buffers b = Alloc(static_cast<int>(nb));
        std::string msg;
        ASSERT_EQ(RunSync(1, nb, b, 0, &msg), 0) << msg;
        ExpectExchanged(b, static_cast<int>(nb));
        Free(b);
    }
}

TEST(FaceSync, SoftFormOrdersNeighbourReads)
{
    Buffers b = Alloc(8);
    std::string msg;
    ASSERT_EQ(RunSync(2, 8, b, 0, &msg), 0) << msg;
    ExpectExchanged(b, 8);
    Free(b);
}

TEST(FaceSync, OneBlockSyncAllPasses)
{
    Buffers b = Alloc(1);
    std::string msg;
    ASSERT_EQ(RunSync(1, 1, b, 0, &msg), 0) << msg;
    ExpectExchanged(b, 1);
    Free(b);
}

TEST(FaceSync, AtomicWritesAccumulate)
{
    for (int nb : {1, 7, 48}) {
        const int reps = 8;
        Buffers b = Alloc(nb);
        for (int k = 0; k < N; k++) {
            b.out[k] = 3.0f;                                   // the sum starts from GM's value
            b.out[N + k] = (k % 2 == 0) ? 150.0f : 0.0f;      // the max too
            b.iout[k] = 1000;
            for (int i = 0; i < nb; i++) b.out[(2 + i) * N + k] = 7.0f; // overwritten after SetAtomicNone
        }
        for (int k = 0; k < N; k++) b.hout[k] = 0x3E00; // half 1.5
        std::string msg;
        ASSERT_EQ(RunSync(4, static_cast<uint32_t>(nb), b, reps, &msg), 0) << msg;
        const int64_t tri = static_cast<int64_t>(nb) * (nb + 1) / 2; // sum of (i + 1) over the blocks
        for (int k = 0; k < N; k++) {
            // every partial sum is a multiple of 0.5 below 2^24: exact in float in any order
            EXPECT_EQ(b.out[k], 3.0f + static_cast<float>(reps * tri) * 0.5f * static_cast<float>(k + 1)) << k;
            EXPECT_EQ(b.iout[k], 1000 + static_cast<int32_t>(reps * tri * (k - 20))) << k;
            // 0.5 per block and repetition: exact in half below 256
            EXPECT_EQ(Half(b.hout[k]), 1.5f + 0.5f * static_cast<float>(nb * reps)) << k;
            // block k % nb offers 100 + k, the others -k; GM held 150 (even k) or 0
            EXPECT_EQ(b.out[N + k], std::fmax((k % 2 == 0) ? 150.0f : 0.0f, 100.0f + static_cast<float>(k))) << k;
            for (int i = 0; i < nb; i++)
                EXPECT_EQ(b.out[(2 + i) * N + k], k % nb == i ? 100.0f + static_cast<float>(k) : -static_cast<float>(k))
                    << "block " << i << " element " << k;
        }
        Free(b);
    }
}

TEST(FaceSync, RulesReported)
{
    Buffers b = Alloc(8);
    std::string msg;
    EXPECT_EQ(RunSync(3, 8, b, 0, &msg), 507015);
    // every block breaks the rule: whichever reports first names itself
    EXPECT_TRUE(EndsWith(msg, ": SyncAll: the GM workspace holds 252 bytes, 8 cores need 256")) << msg;
    EXPECT_EQ(RunSync(5, 1, b, 0, &msg), 507015);
    EXPECT_EQ(msg, "face_sync block 0: DataCopy: moves float to GM while SetAtomicAdd<half> is set (the atomic "
                   "type must be the moved one)");
    EXPECT_EQ(RunSync(9, 1, b, 0, &msg), 507015);
    EXPECT_EQ(msg, "face_sync block 0: SetAtomicAdd: type int64_t is not one of float, half, bfloat16_t, int8_t, "
                   "int16_t, int32_t");
    Free(b);
    Buffers big = Alloc(49);
    EXPECT_EQ(RunSync(1, 49, big, 0, &msg), 507015);
    EXPECT_TRUE(EndsWith(msg, ": SyncAll: blockDim 49 exceeds the 48 vector cores of MishGradV2-CPU: the blocks "
                              "cannot all be resident (the device would hang)"))
        << msg;
    Free(big);
}

TEST(FaceSync, EarlyReturnReportedNotHung)
{
    Buffers b = Alloc(8);
    std::string msg;
    for (uint64_t key : {6u, 8u}) {
        EXPECT_EQ(RunSync(key, 8, b, 0, &msg), 507015) << key;
        EXPECT_NE(msg.find(": SyncAll: "), std::string::npos) << msg;
        EXPECT_NE(msg.find("wait forever"), std::string::npos) << msg;
    }
    // a rule break in one block releases the others waiting for it: its report is the launch's
    EXPECT_EQ(RunSync(7, 8, b, 0, &msg), 507015);
    EXPECT_EQ(msg, "face_sync block 7: ASSERT: assertion failed: GetBlockIdx() + 1 < GetBlockNum()");
    // the launch after a failed one runs normally
    EXPECT_EQ(RunSync(1, 8, b, 0, &msg), 0) << msg;
    ExpectExchanged(b, 8);
    Free(b);
}
