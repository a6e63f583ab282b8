// The kernel API face on a kernel of the project's own (face_demo/, seed style): compiled
// through ascendc_twin_add_kernel, its ASCENDC_TPL_SEL instantiations registered under the
// keys the host computes, run through ICPU_RUN_KF and through asc_twin_launch on an
// aclrtStream, float/half/bfloat16 values against a float64 reference; a kernel that breaks
// the InitBuffer rule fails both ways with the core's message.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "gtest/gtest-spi.h"
#include "tikicpulib.h"
#include "face_ref.h"

#include "acl/acl.h"
#include "asc_twin/launch.h"
#include "face_demo/face_demo_tiling_data.h"
#include "face_demo/face_demo_tiling_key.h"

extern "C" __global__ __aicore__ void face_demo(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);

namespace {

double Reference(double x, double y, double alpha)
{
    const double z = std::fmax(std::tanh(x) * y + alpha * x, -2.0);
    return std::sqrt(std::fabs(z)) + std::fmax(z, 0.0) * std::exp(-std::fabs(x));
}

enum Dt { F32 = C_DT_FLOAT, F16 = C_DT_FLOAT16, BF16 = C_DT_BF16 };

size_t ElemSize(Dt dt) { return dt == F32 ? 4 : 2; }

struct Case {
    Dt dt;
    size_t n;
    std::vector<uint8_t> x, y;  // the inputs, as the kernel's type
    std::vector<double> xd, yd; // and their exact values
};

// Deterministic inputs: x in [-4, 4], y in [-2, 2], stored in the case's type.
Case MakeCase(Dt dt, size_t n)
{
    Case c{dt, n, std::vector<uint8_t>(n * ElemSize(dt)), std::vector<uint8_t>(n * ElemSize(dt)), {}, {}};
    uint32_t s = 12345u;
    auto next = [&s] {
        s = s * 1664525u + 1013904223u;
        return static_cast<double>(s >> 8) / 16777216.0;
    };
    for (size_t i = 0; i < n; i++) {
        const float xv = static_cast<float>(next() * 8.0 - 4.0), yv = static_cast<float>(next() * 4.0 - 2.0);
        if (dt == F32) {
            std::memcpy(&c.x[i * 4], &xv, 4);
            std::memcpy(&c.y[i * 4], &yv, 4);
            c.xd.push_back(xv);
            c.yd.push_back(yv);
        } else {
            const uint16_t xb = dt == F16 ? half(xv).bits : bfloat16_t(xv).bits;
            const uint16_t yb = dt == F16 ? half(yv).bits : bfloat16_t(yv).bits;
            std::memcpy(&c.x[i * 2], &xb, 2);
            std::memcpy(&c.y[i * 2], &yb, 2);
            c.xd.push_back(dt == F16 ? HalfBits(xb) : Bf16Bits(xb));
            c.yd.push_back(dt == F16 ? HalfBits(yb) : Bf16Bits(yb));
        }
    }
    return c;
}

FaceDemoTilingData Tiling(size_t n, uint32_t blocks, int64_t tile)
{
    FaceDemoTilingData t{};
    const int64_t per = static_cast<int64_t>(n) / blocks, extra = static_cast<int64_t>(n) % blocks;
    t.formerNum = extra;
    t.formerLength = per + 1;
    t.tailLength = per;
    t.tileLength = tile;
    t.alpha = 0.375f;
    return t;
}

// Every output against the float64 reference: float within the core's transcendental error,
// half and bfloat16 within their output rounding on top of it.
void Check(const Case &c, const uint8_t *z, const char *how)
{
    const double tol = c.dt == F32 ? 1e-5 : c.dt == F16 ? 1.5e-3 : 8e-3;
    double worst = 0;
    size_t bad = 0;
    for (size_t i = 0; i < c.n; i++) {
        double got;
        if (c.dt == F32) {
            float f;
            std::memcpy(&f, z + i * 4, 4);
            got = f;
        } else {
            uint16_t b;
            std::memcpy(&b, z + i * 2, 2);
            got = c.dt == F16 ? HalfBits(b) : Bf16Bits(b);
        }
        const double want = Reference(c.xd[i], c.yd[i], 0.375);
        const double err = std::fabs(got - want) / std::fmax(1.0, std::fabs(want));
        worst = std::fmax(worst, err);
        if (!(err <= tol) && bad++ < 5) ADD_FAILURE() << how << " dt " << c.dt << " [" << i << "] x=" << c.xd[i]
                                                      << " y=" << c.yd[i] << ": " << got << ", want " << want;
    }
    EXPECT_EQ(bad, 0u) << how;
    std::printf("%s dt %d n %zu: max relative error %.3g (bound %.3g)\n", how, static_cast<int>(c.dt), c.n, worst, tol);
}

struct Gm {
    uint8_t *p;
    explicit Gm(size_t bytes) : p(static_cast<uint8_t *>(AscendC::GmAlloc(bytes))) {}
    ~Gm() { AscendC::GmFree(p); }
};

} // namespace

// The key each combination gets: written out from CANN's encoding (the type code in bits
// 0-7, ROUND_OUT in bit 8), and the host side's GET_TPL_TILING_KEY agrees.
TEST(FaceDemo, TilingKeysAndRegistry)
{
    EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, 0), 0u);
    EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, 0), 1u);
    EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, 1), 257u);
    EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_BF16, 0), 27u);
    EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_BF16, 1), 283u);
    for (uint64_t key : {0u, 1u, 257u, 27u, 283u}) {
        const asc_twin_kernel *k = asc_twin_find("face_demo", key);
        ASSERT_NE(k, nullptr) << key;
        EXPECT_EQ(k->nargs, 5);
    }
    EXPECT_EQ(asc_twin_find("face_demo", 256), nullptr); // float with ROUND_OUT: not selected
    struct FakeContext {
        uint64_t key = 0;
        int SetTilingKey(uint64_t k) { key = k; return 0; }
    } ctx;
    ASCENDC_TPL_SEL_PARAM(&ctx, C_DT_BF16, true);
    EXPECT_EQ(ctx.key, 283u);
}

TEST(FaceDemo, IcpuRunKfEveryDtype)
{
    for (auto [dt, round] : {std::pair{F32, 0}, {F16, 0}, {F16, 1}, {BF16, 0}, {BF16, 1}}) {
        const size_t n = 4099;
        Case c = MakeCase(dt, n);
        const size_t bytes = n * ElemSize(dt);
        Gm x(bytes), y(bytes), z(bytes), ws(32), tiling(sizeof(FaceDemoTilingData));
        std::memcpy(x.p, c.x.data(), bytes);
        std::memcpy(y.p, c.y.data(), bytes);
        const FaceDemoTilingData t = Tiling(n, 3, 512);
        std::memcpy(tiling.p, &t, sizeof t);
        ICPU_SET_TILING_KEY(GET_TPL_TILING_KEY(dt, round));
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        EXPECT_EQ(ICPU_RUN_KF(face_demo, 3, x.p, y.p, z.p, ws.p, tiling.p), 0);
        Check(c, z.p, round ? "ICPU_RUN_KF CAST_ROUND" : "ICPU_RUN_KF");
    }
}

TEST(FaceDemo, StreamLaunchEveryDtype)
{
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    for (Dt dt : {F32, F16, BF16}) {
        const size_t n = 10007;
        Case c = MakeCase(dt, n);
        const size_t bytes = n * ElemSize(dt);
        void *dx = nullptr, *dy = nullptr, *dz = nullptr;
        ASSERT_EQ(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(dx, bytes, c.x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(dy, bytes, c.y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        const FaceDemoTilingData t = Tiling(n, 8, 1024);
        uint8_t *args[] = {static_cast<uint8_t *>(dx), static_cast<uint8_t *>(dy), static_cast<uint8_t *>(dz),
                           nullptr, nullptr};
        asc_twin_launch_args a = {};
        a.kernel = asc_twin_find("face_demo", GET_TPL_TILING_KEY(dt, 0));
        ASSERT_NE(a.kernel, nullptr);
        a.block_dim = 8;
        a.gm_args = args;
        a.nargs = 5;
        a.tiling = &t;
        a.tiling_size = sizeof t;
        ASSERT_EQ(asc_twin_launch(stream, &a), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<uint8_t> z(bytes);
        ASSERT_EQ(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        Check(c, z.data(), "asc_twin_launch");
        aclrtFree(dx);
        aclrtFree(dy);
        aclrtFree(dz);
    }
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    aclrtResetDevice(0);
    aclFinalize();
}

// A tile too large for the UB: 3 queues x 2 x 32 KiB + 3 x 32 KiB of float scratch = 288 KiB
// of a 192 KiB UB. The launch fails with 507015 and the InitBuffer rule's message.
namespace {
uint8_t *g_x, *g_y, *g_z, *g_ws, *g_tiling;
}
TEST(FaceDemo, RuleBreakFailsTheLaunch)
{
    const size_t n = 16384;
    Gm x(n * 4), y(n * 4), z(n * 4), ws(32), tiling(sizeof(FaceDemoTilingData));
    const FaceDemoTilingData t = Tiling(n, 1, 8192);
    std::memcpy(tiling.p, &t, sizeof t);
    g_x = x.p, g_y = y.p, g_z = z.p, g_ws = ws.p, g_tiling = tiling.p;
    uint8_t *args[] = {x.p, y.p, z.p, ws.p, tiling.p};
    asc_twin_launch_args a = {};
    a.kernel = asc_twin_find("face_demo", 0);
    ASSERT_NE(a.kernel, nullptr);
    a.block_dim = 1;
    a.gm_args = args;
    a.nargs = 5;
    EXPECT_EQ(asc_twin_run_sync(&a), 507015);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("face_demo block 0: InitBuffer: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("UB holds 196608"), std::string::npos) << msg;
    // and ICPU_RUN_KF makes the running test fail, naming the rule
    ICPU_SET_TILING_KEY(0);
    EXPECT_NONFATAL_FAILURE(ICPU_RUN_KF(face_demo, 1, g_x, g_y, g_z, g_ws, g_tiling), "InitBuffer");
}

// half and bfloat16_t, every bit pattern: the value against the decoder written here, the
// round trip, and each midpoint between neighbours rounding to the even one; constexpr too.
static_assert(half(65504.0f).bits == 0x7bff && half(65520.0f).bits == 0x7c00, "half: the largest and the overflow");
static_assert(half(1.6732632423543772848170429916717).bits == 0x3eb1, "half: constexpr, as kernels declare constants");
TEST(FaceTypes, HalfAndBfloat16Conversions)
{
    size_t bad = 0;
    for (uint32_t b = 0; b < 0x10000u; b++) {
        const uint16_t h = static_cast<uint16_t>(b);
        const double hv = HalfBits(h), bv = Bf16Bits(h);
        const float hf = half::FromBits(h), bf = bfloat16_t(bv);
        if (std::isnan(hv)) {
            bad += !std::isnan(hf);
            continue;
        }
        bad += static_cast<double>(hf) != hv;
        bad += half(hf).bits != h;
        if (!std::isnan(bv)) bad += bfloat16_t(static_cast<float>(bv)).bits != h || static_cast<double>(bf) != bv;
        // the midpoint to the next larger magnitude: a tie, to the even neighbour
        const uint16_t up = static_cast<uint16_t>(h + 1);
        if ((h & 0x7fffu) < 0x7bffu) {
            const float mid = static_cast<float>((hv + HalfBits(up)) / 2); // exact in float
            bad += half(mid).bits != ((h & 1u) ? up : h);
        }
    }
    EXPECT_EQ(bad, 0u);
}
