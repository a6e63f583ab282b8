// Each face mapping on its own (face_ops/face_ops.cpp, a plain kernel registered under each
// key its TILING_KEY_IS tests): one API call per output row against float64, and the calls
// the twin reports (SetAtomicAdd of a type it does not take, a false ASSERT, a GM write past SetGlobalBuffer's size).
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "asc_twin/gm.h"
#include "asc_twin/launch.h"
#include "acl/acl_rt.h"

namespace {
constexpr int N = 64;
struct Tiling {
    int32_t n;
    int32_t pad;
};

struct Launch {
    float *x, *y, *out;
    uint8_t *ws;
    int status;
    std::string msg;
};

Launch RunOps(uint64_t key)
{
    Launch l{static_cast<float *>(asc_twin_gm_alloc(N * 4)), static_cast<float *>(asc_twin_gm_alloc(N * 4)),
             static_cast<float *>(asc_twin_gm_alloc(27 * N * 4)), static_cast<uint8_t *>(asc_twin_gm_alloc(32)), 0, ""};
    for (int i = 0; i < N; i++) {
        l.x[i] = static_cast<float>(i - 31) * 0.375f; // includes 0 and a tie with y
        l.y[i] = static_cast<float>((i * 7) % 13) - 5.5f;
    }
    l.y[40] = l.x[40];
    const Tiling t{N, 0};
    uint8_t *args[] = {reinterpret_cast<uint8_t *>(l.x), reinterpret_cast<uint8_t *>(l.y),
                       reinterpret_cast<uint8_t *>(l.out), l.ws, nullptr};
    asc_twin_launch_args a = {};
    a.kernel = asc_twin_find("face_ops", key);
    EXPECT_NE(a.kernel, nullptr) << key;
    if (a.kernel == nullptr) return l;
    a.block_dim = 1;
    a.gm_args = args;
    a.nargs = 5;
    a.tiling = &t;
    a.tiling_size = sizeof t;
    l.status = asc_twin_run_sync(&a);
    if (l.status != 0) l.msg = aclGetRecentErrMsg();
    return l;
}
void Free(Launch &l)
{
    asc_twin_gm_free(l.x);
    asc_twin_gm_free(l.y);
    asc_twin_gm_free(l.out);
    asc_twin_gm_free(l.ws);
}
} // namespace

TEST(FaceOps, EachCallAgainstFloat64)
{
    Launch l = RunOps(1);
    ASSERT_EQ(l.status, 0) << l.msg;
    const double ws = 16.0 * 1024 * 1024; // the cpu profile's (Ascend910B's) library workspace
    const std::vector<std::pair<const char *, std::function<double(double, double, int)>>> rows = {
        {"Sub", [](double x, double y, int) { return x - y; }},
        {"Div", [](double x, double y, int) { return x / y; }},
        {"Min", [](double x, double y, int) { return std::fmin(x, y); }},
        {"Max", [](double x, double y, int) { return std::fmax(x, y); }},
        {"Adds", [](double x, double, int) { return x + 2.5; }},
        {"Mins", [](double x, double, int) { return std::fmin(x, 0.25); }},
        {"Abs+Sqrt", [](double x, double, int) { return std::sqrt(std::fabs(x)); }},
        {"Rsqrt", [](double, double y, int) { return 1.0 / std::sqrt(std::fabs(y) + 1.0); }},
        {"Reciprocal", [](double, double y, int) { return 1.0 / y; }},
        {"Ln", [](double x, double, int) { return std::log(std::fabs(x) + 1.0); }},
        {"Sigmoid", [](double x, double, int) { return 1.0 / (1.0 + std::exp(-x)); }},
        {"Duplicate", [](double, double, int) { return 3.0; }},
        {"CompareScalar GT + Select tensors", [](double x, double y, int) { return x > 0 ? x : y; }},
        {"Compare LT + Select scalar", [](double x, double y, int) { return x < y ? x : -1.0; }},
        {"LocalTensor GetValue/SetValue", [](double x, double, int) { return 2 * x; }},
        {"GlobalTensor GetValue/SetValue", [](double x, double, int) { return x + 1; }},
        {"DataCopy UB->UB + Muls", [](double x, double, int) { return 3 * x; }},
        {"slice/ReinterpretCast | GetUserWorkspace", [ws, &l](double, double, int i) {
             return i < N / 2 ? static_cast<double>(l.x[N / 2 + i]) : ws; }},
    };
    const std::vector<std::pair<const char *, std::function<double(double)>>> after = {
        {"LeakyRelu", [](double x) { return x > 0 ? x : 0.125 * x; }},
        {"Cast CAST_FLOOR", [](double x) { return std::floor(x); }},
        {"Cast CAST_CEIL", [](double x) { return std::ceil(x); }},
        {"Cast CAST_ROUND (ties away)", [](double x) { return std::round(x); }},
        {"Cast CAST_TRUNC", [](double x) { return std::trunc(x); }},
        {"Cast CAST_RINT (ties even)", [](double x) { return std::nearbyint(x); }},
    };
    for (size_t r = 0; r < after.size(); r++)
        for (int i = 0; i < N; i++)
            EXPECT_EQ(l.out[(21 + r) * N + i], after[r].second(l.x[i])) << after[r].first << " [" << i << "] x=" << l.x[i];
    // the bitwise rows, bit for bit (an OR of two floats' bits may be a NaN pattern)
    auto bits = [](float f) {
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return b;
    };
    for (int i = 0; i < N; i++) {
        const uint32_t x = bits(l.x[i]), y = bits(l.y[i]);
        EXPECT_EQ(bits(l.out[18 * N + i]), x & y) << "And [" << i << "]";
        EXPECT_EQ(bits(l.out[19 * N + i]), x | y) << "Or [" << i << "]";
        EXPECT_EQ(bits(l.out[20 * N + i]), ~x) << "Not [" << i << "]";
    }
    for (size_t r = 0; r < rows.size(); r++) {
        for (int i = 0; i < N; i++) {
            const double want = rows[r].second(l.x[i], l.y[i], i), got = l.out[r * N + i];
            const double tol = 4e-7 * std::fmax(1.0, std::fabs(want)) * (r >= 6 && r <= 10 ? 8 : 1);
            if (std::isinf(want)) EXPECT_EQ(got, want) << rows[r].first << " [" << i << "]";
            else EXPECT_NEAR(got, want, tol) << rows[r].first << " [" << i << "] x=" << l.x[i] << " y=" << l.y[i];
        }
    }
    Free(l);
}

// key 9: the APIs ops-nn's kernels need beyond the seed's, each against float64 or the IEEE
// operation it names
TEST(FaceOps, MoreApisAgainstReferences)
{
    Launch l = RunOps(9);
    ASSERT_EQ(l.status, 0) << l.msg;
    auto row = [&l](int r, int i) { return static_cast<double>(l.out[r * N + i]); };
    double sum = 0, best = -1e30;
    int at = -1;
    for (int i = 0; i < N; i++) {
        const double x = l.x[i], y = l.y[i];
        EXPECT_NEAR(row(0, i), std::pow(std::fabs(x), y), 1e-6 * std::fmax(1.0, std::pow(std::fabs(x), y))) << i;
        EXPECT_NEAR(row(1, i), x * x, 1e-6 * std::fmax(1.0, x * x)) << i;
        EXPECT_NEAR(row(2, i), std::exp2(x), 1e-6 * std::exp2(x)) << i;
        EXPECT_EQ(row(3, i), x / 4) << i; // exact: a power of two
        EXPECT_EQ(row(4, i), x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0) << i;
        EXPECT_EQ(row(5, i), std::floor(x)) << i;
        EXPECT_EQ(l.out[6 * N + i], l.x[i] * l.y[i] + 1.0f) << i;
        EXPECT_EQ(row(9, i), static_cast<double>(l.x[i] + l.y[i])) << i;
        EXPECT_EQ(row(10, i), 3 * x) << i;
        EXPECT_EQ(row(11, i), std::round(x)) << i; // CAST_ROUND: ties away from zero
        // bfloat16 of the float x / 3, nearest even, written here on the bits
        const float q = l.x[i] / 3.0f;
        uint32_t b;
        std::memcpy(&b, &q, 4);
        b = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
        float want;
        std::memcpy(&want, &b, 4);
        EXPECT_EQ(l.out[12 * N + i], want) << i;
        EXPECT_EQ(l.out[13 * N + i], 7.5f) << i;
        sum += x;
        if (x > best) best = x, at = i;
    }
    EXPECT_EQ(row(7, 0), static_cast<double>(static_cast<float>(sum)));
    EXPECT_EQ(row(7, 8), best);
    uint32_t idx;
    std::memcpy(&idx, &l.out[7 * N + 9], 4);
    EXPECT_EQ(static_cast<int>(idx), at);
    double blocks = 0;
    for (int b = 0; b < N / 8; b++) {
        double s = 0;
        for (int j = 0; j < 8; j++) s += l.x[8 * b + j];
        EXPECT_EQ(row(8, b), static_cast<double>(static_cast<float>(s))) << "block " << b;
        blocks += static_cast<float>(s);
    }
    EXPECT_EQ(row(8, 16), static_cast<double>(static_cast<float>(blocks)));
    Free(l);
}

TEST(FaceOps, ReportedCalls)
{
    Launch a = RunOps(2);
    EXPECT_EQ(a.status, 507015);
    EXPECT_EQ(a.msg, "face_ops block 0: SetAtomicAdd: type int64_t is not one of float, half, bfloat16_t, int8_t, "
                     "int16_t, int32_t");
    Free(a);
    Launch b = RunOps(3);
    EXPECT_EQ(b.status, 507015);
    EXPECT_EQ(b.msg, "face_ops block 0: ASSERT: assertion failed: t.n == 0");
    Free(b);
    Launch c = RunOps(4);
    EXPECT_EQ(c.status, 507015);
    EXPECT_NE(c.msg.find("face_ops block 0: SetValue: GM bytes [256, 260)"), std::string::npos) << c.msg;
    EXPECT_NE(c.msg.find("exceed the 256 bytes SetGlobalBuffer gave"), std::string::npos) << c.msg;
    Free(c);
    Launch d = RunOps(6);
    EXPECT_EQ(d.status, 0) << d.msg;
    Free(d);
    Launch e = RunOps(7);
    EXPECT_EQ(e.status, 507015);
    EXPECT_EQ(e.msg, "face_ops block 0: InitBuffer: 65 buffers in one TPipe, at most 64 (QBUF_MAX_LEN)");
    Free(e);
    Launch f = RunOps(8);
    EXPECT_EQ(f.status, 507015);
    EXPECT_EQ(f.msg, "face_ops block 0: InitBuffer: num 0 outside [1, 64]");
    Free(f);
    EXPECT_EQ(asc_twin_find("face_ops", 5), nullptr); // registered under 0 and the keys it tests only
    EXPECT_NE(asc_twin_find("face_ops", 0), nullptr);
}

// CANN's InitBuffer rounds each buffer's length up to 32 bytes and the tensor AllocTensor or
// TBuf::Get gives spans the rounded length (the InitBuffer reference: a length not 32-byte
// aligned is padded up to 32 bytes). Key 10: a 72-byte queue buffer takes a padded copy
// spanning 96 bytes, a 36-byte TBuf one spanning 64, the data come through, and GetSize
// counts the rounded buffers (24 and 16 floats). Keys 11 and 12: one byte block or one
// element past the rounded length is reported, with the rounded capacity in the message.
TEST(FaceOps, InitBufferRoundsTheTensorUpTo32Bytes)
{
    Launch a = RunOps(10);
    EXPECT_EQ(a.status, 0) << a.msg;
    if (a.status == 0) {
        for (int i = 0; i < 18; i++) EXPECT_EQ(a.out[i], a.x[i]) << i;
        for (int i = 0; i < 9; i++) EXPECT_EQ(a.out[N + i], a.x[18 + i]) << i;
        EXPECT_EQ(a.out[2 * N], 24.0f);
        EXPECT_EQ(a.out[2 * N + 1], 16.0f);
    }
    Free(a);
    Launch b = RunOps(11);
    EXPECT_EQ(b.status, 507015);
    EXPECT_EQ(b.msg, "face_ops block 0: DataCopyPad: 1 blocks of 100 bytes span 128 bytes of UB, beyond the "
                     "destination tensor's 96 bytes");
    Free(b);
    Launch c = RunOps(12);
    EXPECT_EQ(c.status, 507015);
    EXPECT_EQ(c.msg, "face_ops block 0: Duplicate: count 17 elements (68 bytes) exceeds the destination tensor's "
                     "64 bytes");
    Free(c);
}

// Key 13: a TBuf that no InitBuffer placed gives a tensor with no UB buffer; its first use is
// reported as such (not as a count exceeding "0 bytes").
TEST(FaceOps, TensorOfAnUnplacedTBufIsReported)
{
    Launch a = RunOps(13);
    EXPECT_EQ(a.status, 507015);
    EXPECT_EQ(a.msg, "face_ops block 0: Adds: the destination tensor has no UB buffer (count 48 elements): its TBuf "
                     "or queue was never given one by InitBuffer, or the LocalTensor was never assigned");
    Free(a);
}
