// The seed's own kernel (ops-nn experimental/activation/mish_grad_v2/op_kernel), compiled
// unchanged from the checkout MISHGRAD_OPS_NN names, run through ICPU_RUN_KF for float,
// half and bfloat16, with and without tanhx, against a float64 Mish' written here.
// Without a checkout the test is a reported skip (77).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

#if MISHGRAD_SEED_BUILT
#include "tikicpulib.h"
#include "face_ref.h"
#include "mish_grad_v2_tiling_data.h"

extern "C" __global__ __aicore__ void mish_grad_v2(GM_ADDR grad, GM_ADDR x, GM_ADDR tanhx, GM_ADDR x_grad,
                                                   GM_ADDR workspace, GM_ADDR tiling);

namespace {


// d/dx [x tanh(softplus(x))] * grad, with tanh(softplus(x)) = t given or computed.
double MishGrad(double grad, double x, double t)
{
    const double sigmoid = 1.0 / (1.0 + std::exp(-x));
    return grad * (t + x * (1.0 - t * t) * sigmoid);
}
double TanhSoftplus(double x) { return std::tanh(x > 30 ? x : std::log1p(std::exp(x))); }

enum Dt { F32 = 0, F16 = 1, BF16 = 27 };

struct Buf {
    uint8_t *p;
    explicit Buf(size_t n) : p(static_cast<uint8_t *>(AscendC::GmAlloc(n))) {}
    ~Buf() { AscendC::GmFree(p); }
};

void Store(Dt dt, uint8_t *p, size_t i, float v, double *exact)
{
    if (dt == F32) {
        std::memcpy(p + 4 * i, &v, 4);
        *exact = v;
    } else {
        const uint16_t b = dt == F16 ? half(v).bits : bfloat16_t(v).bits;
        std::memcpy(p + 2 * i, &b, 2);
        *exact = dt == F16 ? HalfBits(b) : Bf16Bits(b);
    }
}
double Load(Dt dt, const uint8_t *p, size_t i)
{
    if (dt == F32) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        return f;
    }
    uint16_t b;
    std::memcpy(&b, p + 2 * i, 2);
    return dt == F16 ? HalfBits(b) : Bf16Bits(b);
}

void RunSeed(Dt dt, bool haveTanhx)
{
    const size_t n = 5003, es = dt == F32 ? 4 : 2;
    const uint32_t blocks = 4;
    Buf grad(n * es), x(n * es), tanhx(n * es), y(n * es), ws(32), tiling(sizeof(MishGradV2TilingData));
    std::vector<double> g(n), xv(n), tv(n);
    uint32_t s = 777u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        const float xf = static_cast<float>((s >> 8) / 16777216.0 * 16.0 - 8.0);
        s = s * 1664525u + 1013904223u;
        const float gf = static_cast<float>((s >> 8) / 16777216.0 * 4.0 - 2.0);
        Store(dt, x.p, i, xf, &xv[i]);
        Store(dt, grad.p, i, gf, &g[i]);
        Store(dt, tanhx.p, i, static_cast<float>(TanhSoftplus(xv[i])), &tv[i]);
        if (!haveTanhx) tv[i] = TanhSoftplus(xv[i]);
    }
    // the seed's tiling shape: blocks [0, formerNum) take formerLength, the rest tailLength
    MishGradV2TilingData t{};
    t.formerNum = static_cast<int64_t>(n % blocks);
    t.formerLength = static_cast<int64_t>(n / blocks + 1);
    t.tailLength = static_cast<int64_t>(n / blocks);
    t.tileLength = 1024;
    t.haveTanhx = haveTanhx ? 1 : 0;
    std::memcpy(tiling.p, &t, sizeof t);
    ICPU_SET_TILING_KEY(static_cast<uint64_t>(dt));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ASSERT_EQ(ICPU_RUN_KF(mish_grad_v2, blocks, grad.p, x.p, haveTanhx ? tanhx.p : nullptr, y.p, ws.p, tiling.p), 0);
    const double tol = dt == F32 ? 2e-5 : dt == F16 ? 2e-3 : 1e-2;
    double worst = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double want = MishGrad(g[i], xv[i], tv[i]), got = Load(dt, y.p, i);
        const double err = std::fabs(got - want) / std::fmax(1.0, std::fabs(want));
        worst = std::fmax(worst, err);
        if (!(err <= tol) && bad++ < 5)
            ADD_FAILURE() << "dt " << dt << " [" << i << "] x=" << xv[i] << " grad=" << g[i] << ": " << got
                          << ", want " << want;
    }
    EXPECT_EQ(bad, 0u);
    std::printf("seed mish_grad_v2 dt %d tanhx %d n %zu: max relative error %.3g (bound %.3g)\n", static_cast<int>(dt),
                haveTanhx ? 1 : 0, n, worst, tol);
}

} // namespace

// float 0, float16 1, bf16 27: the type code in bits 0-7, the seed's only parameter
TEST(FaceSeed, RegisteredUnderCannKeys)
{
    for (uint64_t key : {0u, 1u, 27u}) {
        const asc_twin_kernel *k = asc_twin_find("mish_grad_v2", key);
        ASSERT_NE(k, nullptr) << key;
        EXPECT_EQ(k->nargs, 6);
    }
}
TEST(FaceSeed, Float) { RunSeed(F32, false); RunSeed(F32, true); }
TEST(FaceSeed, Half) { RunSeed(F16, false); RunSeed(F16, true); }
TEST(FaceSeed, Bfloat16) { RunSeed(BF16, false); RunSeed(BF16, true); }

int main(int argc, char **argv)
{
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
#else
int main()
{
    std::printf("[SKIP] twin_face_seed: set MISHGRAD_OPS_NN to an ops-nn checkout when configuring\n");
    return 77;
}
#endif
