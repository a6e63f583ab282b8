// Real ops-nn kernels, compiled unchanged from the checkout MISHGRAD_OPS_NN names (read
// where they lie), run on the twin and compared with float64 formulas written here from each
// operator's documented definition. One executable per operator (OPSNN_OP): each tiling-key
// header defines its own key tables, and this file computes the key from them as the host
// tiling does (GET_TPL_TILING_KEY), so it includes no kernel_operator.h.
//   1 hard_shrink (experimental/activation): y = x where |x| > lambd, else 0
//   2 celu (experimental/activation): y = 3 * alpha3 where x >= 0, else alpha1 * (exp(x / alpha2) - 1)
//   3 soft_margin_loss (experimental/loss): l = log(1 + exp(-t * x)); none, mean, sum
//   4 log_softmax_v2 (experimental/activation), 2-D float: y = x - max - log(sum exp(x - max))
//     per row (its level-0 counter-mode reductions run through the twin's mask model)
//   5 l1_loss_grad (experimental/loss), float: y = grads * sign(predict - label) * scale
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "asc_twin/gm.h"
#include "asc_twin/launch.h"
#include "gtest/gtest.h"

#if OPSNN_OP == 1
#include "hard_shrink_tiling_data.h"
#include "hard_shrink_tiling_key.h"
#define OPSNN_NAME "hard_shrink"
#elif OPSNN_OP == 2
#include "celu_tiling_data.h"
#include "celu_tiling_key.h"
#define OPSNN_NAME "celu"
#elif OPSNN_OP == 4
#include "log_softmax_v2_tiling_data.h"
#include "log_softmax_v2_tiling_key.h"
#define OPSNN_NAME "log_softmax_v2"
#elif OPSNN_OP == 5
#include "l1_loss_grad_tiling_data.h"
#include "l1_loss_grad_tiling_key.h"
#define OPSNN_NAME "l1_loss_grad"
#else
#include "soft_margin_loss_tiling_data.h"
#include "soft_margin_loss_tiling_key.h"
#define OPSNN_NAME "soft_margin_loss"
#endif

namespace {

// half and bfloat16 bits, written here (not the twin's): decoding is exact; encoding is
// used on values exactly representable in the format only (checked)
[[maybe_unused]] double HalfToDouble(uint16_t h)
{
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -mag : mag;
}
[[maybe_unused]] uint16_t ExactHalf(double v)
{
    uint16_t b = std::signbit(v) ? 0x8000 : 0;
    if (v != 0) {
        int e;
        const double m = std::frexp(std::fabs(v), &e); // |v| = 2m * 2^(e-1), 2m in [1, 2)
        b = static_cast<uint16_t>(b | ((e - 1 + 15) << 10) | static_cast<int>((2 * m - 1) * 1024));
    }
    EXPECT_EQ(HalfToDouble(b), v) << v << " is no normal half";
    return b;
}
[[maybe_unused]] double Bf16ToDouble(uint16_t b)
{
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
[[maybe_unused]] uint16_t ExactBf16(double v)
{
    const float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    EXPECT_EQ(u & 0xffffu, 0u) << v << " is no bfloat16";
    return static_cast<uint16_t>(u >> 16);
}

struct KernelRun {
    int status = 0;
    std::string msg;
};

template <typename Tiling> KernelRun Launch(uint64_t key, uint32_t blocks, std::vector<uint8_t *> args, const Tiling &t)
{
    KernelRun r;
    asc_twin_launch_args a = {};
    a.kernel = asc_twin_find(OPSNN_NAME, key);
    EXPECT_NE(a.kernel, nullptr) << OPSNN_NAME << " key " << key;
    if (a.kernel == nullptr) {
        r.status = -1;
        return r;
    }
    args.push_back(nullptr); // the tiling: the launch's own copy
    a.block_dim = blocks;
    a.gm_args = args.data();
    a.nargs = static_cast<int>(args.size());
    a.tiling = &t;
    a.tiling_size = sizeof t;
    r.status = asc_twin_run_sync(&a);
    if (r.status != 0) r.msg = aclGetRecentErrMsg();
    return r;
}

// inputs: k/16 for k in [-96, 96) and a few more (exact in half and bfloat16)
[[maybe_unused]] std::vector<double> Inputs(int n)
{
    std::vector<double> v(n);
    for (int i = 0; i < n; i++) v[i] = static_cast<double>((i * 37) % 192 - 96) / 16.0;
    return v;
}

} // namespace

#if OPSNN_OP == 1
// float32 over 2 blocks with a UB tail; half; bfloat16 (cast to float inside): exact values
TEST(OpsNnKernels, HardShrinkEveryDtypeExact)
{
    const int n = 3001;
    const std::vector<double> x = Inputs(n);
    const double lambd = 0.5;
    HardShrinkTilingData t;
    t.totalNum = n;
    t.blockFactor = (n + 1) / 2;
    t.ubFactor = 512;
    t.lambd = static_cast<float>(lambd);
    for (int dt = 0; dt < 3; dt++) {
        const uint64_t code = dt == 0 ? C_DT_FLOAT : dt == 1 ? C_DT_FLOAT16 : C_DT_BF16;
        const uint64_t key = GET_TPL_TILING_KEY(code, 0, dt == 2 ? 1 : 0);
        const size_t es = dt == 0 ? 4 : 2;
        auto *in = static_cast<uint8_t *>(asc_twin_gm_alloc(n * es));
        auto *out = static_cast<uint8_t *>(asc_twin_gm_alloc(n * es));
        auto *ws = static_cast<uint8_t *>(asc_twin_gm_alloc(32));
        for (int i = 0; i < n; i++) {
            if (dt == 0) {
                const float f = static_cast<float>(x[i]);
                std::memcpy(in + 4 * i, &f, 4);
            } else {
                const uint16_t h = dt == 1 ? ExactHalf(x[i]) : ExactBf16(x[i]);
                std::memcpy(in + 2 * i, &h, 2);
            }
        }
        const KernelRun r = Launch(key, 2, {in, out, ws}, t);
        ASSERT_EQ(r.status, 0) << r.msg;
        int wrong = 0;
        for (int i = 0; i < n; i++) {
            double got;
            if (dt == 0) {
                float f;
                std::memcpy(&f, out + 4 * i, 4);
                got = f;
            } else {
                uint16_t h;
                std::memcpy(&h, out + 2 * i, 2);
                got = dt == 1 ? HalfToDouble(h) : Bf16ToDouble(h);
            }
            const double want = std::fabs(x[i]) > lambd ? x[i] : 0.0;
            wrong += got != want;
        }
        EXPECT_EQ(wrong, 0) << "dtype " << dt;
        asc_twin_gm_free(in);
        asc_twin_gm_free(out);
        asc_twin_gm_free(ws);
    }
}
#elif OPSNN_OP == 2
// float32 (3 blocks) and half against alpha1 * (exp(x / alpha2) - 1) and 3 * alpha3
TEST(OpsNnKernels, CeluFloatAndHalfAgainstFloat64)
{
    const int n = 2500;
    const std::vector<double> x = Inputs(n);
    CeluTilingData t;
    t.totalNum = n;
    t.blockFactor = (n + 2) / 3;
    t.ubFactor = 384;
    t.alpha1 = 1.5f;
    t.alpha2 = 0.75f;
    t.alpha3 = 0.5f;
    for (int dt = 0; dt < 2; dt++) {
        const uint64_t key = GET_TPL_TILING_KEY(dt == 0 ? C_DT_FLOAT : C_DT_FLOAT16);
        const size_t es = dt == 0 ? 4 : 2;
        auto *in = static_cast<uint8_t *>(asc_twin_gm_alloc(n * es));
        auto *out = static_cast<uint8_t *>(asc_twin_gm_alloc(n * es));
        auto *ws = static_cast<uint8_t *>(asc_twin_gm_alloc(32));
        for (int i = 0; i < n; i++) {
            if (dt == 0) {
                const float f = static_cast<float>(x[i]);
                std::memcpy(in + 4 * i, &f, 4);
            } else {
                const uint16_t h = ExactHalf(x[i]);
                std::memcpy(in + 2 * i, &h, 2);
            }
        }
        const KernelRun r = Launch(key, 3, {in, out, ws}, t);
        ASSERT_EQ(r.status, 0) << r.msg;
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double got;
            if (dt == 0) {
                float f;
                std::memcpy(&f, out + 4 * i, 4);
                got = f;
            } else {
                uint16_t h;
                std::memcpy(&h, out + 2 * i, 2);
                got = HalfToDouble(h);
            }
            const double want = x[i] >= 0 ? 3.0 * 0.5 : 1.5 * std::expm1(x[i] / 0.75);
            // each instruction rounds once: Divs, Exp (a few ulp), Adds -1 (cancels near 0:
            // an absolute error of a few ulp of 1), Muls; in units of the type's epsilon
            const double eps = dt == 0 ? 0x1p-23 : 0x1p-10;
            const double e = std::fabs(got - want) / (eps * (1.5 + std::fabs(want)));
            if (e > worst) worst = e;
        }
        EXPECT_LT(worst, 4.0) << "dtype " << dt;
        asc_twin_gm_free(in);
        asc_twin_gm_free(out);
        asc_twin_gm_free(ws);
    }
}
#elif OPSNN_OP == 4
// 2-D float rows of 1024 (whole 32-element blocks) over 3 blocks against float64; rows of
// 1000: the kernel reads each row with DataCopy of the row's length rounded up to 32
// elements, so the last row reads 24 floats past the input, which the twin reports
TEST(OpsNnKernels, LogSoftmaxV2RowsAgainstFloat64AndTheLastRowsOverRead)
{
    for (int pass = 0; pass < 2; pass++) {
        const int m = 7, n = pass == 0 ? 1024 : 1000;
        auto *x = static_cast<float *>(asc_twin_gm_alloc(static_cast<size_t>(m) * n * 4));
        auto *y = static_cast<float *>(asc_twin_gm_alloc(static_cast<size_t>(m) * n * 4));
        auto *ws = static_cast<uint8_t *>(asc_twin_gm_alloc(32));
        for (int i = 0; i < m * n; i++) x[i] = static_cast<float>((i * 53) % 211 - 105) / 16.0f;
        LogSoftmaxV2TilingData t{};
        t.axis = 1;
        t.dims = 2;
        t.shape[0] = m;
        t.shape[1] = n;
        const KernelRun r = Launch(GET_TPL_TILING_KEY(ELEMENTWISE_TPL_SCH_MODE_0), 3,
                                   {reinterpret_cast<uint8_t *>(x), reinterpret_cast<uint8_t *>(y), ws}, t);
        if (pass == 1) {
            EXPECT_EQ(r.status, 507015);
            EXPECT_EQ(r.msg, "log_softmax_v2 block 2: DataCopy: GM bytes [24000, 28096) of the source run 96 bytes "
                             "past the end of its GmAlloc block (28000 bytes)");
        } else {
            ASSERT_EQ(r.status, 0) << r.msg;
            double worst = 0;
            for (int row = 0; row < m; row++) {
                double mx = -1e300, sum = 0;
                for (int j = 0; j < n; j++) mx = std::fmax(mx, x[row * n + j]);
                for (int j = 0; j < n; j++) sum += std::exp(x[row * n + j] - mx);
                for (int j = 0; j < n; j++) {
                    const double want = x[row * n + j] - mx - std::log(sum);
                    const double e = std::fabs(y[row * n + j] - want) / std::fmax(1.0, std::fabs(want));
                    if (e > worst) worst = e;
                }
            }
            EXPECT_LT(worst, 2e-6);
        }
        asc_twin_gm_free(x);
        asc_twin_gm_free(y);
        asc_twin_gm_free(ws);
    }
}
#elif OPSNN_OP == 5
// float over 2 blocks of unequal size (1500 and 1400 elements, tiles of 512 with tails),
// equal predict and label included (Sign of 0): each value is one IEEE product of the
// exact grads * sign by the scale, so the comparison is exact
TEST(OpsNnKernels, L1LossGradFloatExact)
{
    const int big = 1500, small = 1400, n = big + small, tile = 512;
    auto *g = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *p = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *l = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *y = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *ws = static_cast<uint8_t *>(asc_twin_gm_alloc(32));
    for (int i = 0; i < n; i++) {
        g[i] = static_cast<float>((i * 29) % 101 - 50) / 8.0f;
        p[i] = static_cast<float>((i * 7) % 13) * 0.25f;
        l[i] = static_cast<float>((i * 5) % 11) * 0.25f; // equal to p now and then
    }
    L1LossGradTilingData t;
    t.bigCoreDataNum = big;
    t.smallCoreDataNum = small;
    t.tileDataNum = tile;
    t.finalBigTileNum = (big + tile - 1) / tile;
    t.finalSmallTileNum = (small + tile - 1) / tile;
    t.bigTailDataNum = big - (t.finalBigTileNum - 1) * tile;
    t.smallTailDataNum = small - (t.finalSmallTileNum - 1) * tile;
    t.tailBlockNum = 1;
    t.scaleValue = 1.0f / static_cast<float>(n); // reduction mean
    const KernelRun r = Launch(GET_TPL_TILING_KEY(L1LOSSGRAD_TPL_SCH_MODE_0), 2,
                               {reinterpret_cast<uint8_t *>(g), reinterpret_cast<uint8_t *>(p),
                                reinterpret_cast<uint8_t *>(l), reinterpret_cast<uint8_t *>(y), ws}, t);
    ASSERT_EQ(r.status, 0) << r.msg;
    int wrong = 0, zeros = 0;
    for (int i = 0; i < n; i++) {
        const float sgn = p[i] > l[i] ? 1.0f : p[i] < l[i] ? -1.0f : 0.0f;
        zeros += sgn == 0.0f;
        wrong += y[i] != g[i] * sgn * t.scaleValue;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_GT(zeros, 0);
    asc_twin_gm_free(g);
    asc_twin_gm_free(p);
    asc_twin_gm_free(l);
    asc_twin_gm_free(y);
    asc_twin_gm_free(ws);
}
#else
// float32: none over 3 blocks against log1p(exp(-t * x)) in float64. mean and sum (one
// block: the single-core path, no SyncAll) are reported by the twin: the kernel writes its
// scalar result with DataCopyPad of blockLen 32 bytes into an output whose SetGlobalBuffer
// size is one element (soft_margin_loss.h, WriteFinalScalar), 28 bytes past the output on
// the device; the test expects that report and the output's neighbours untouched.
TEST(OpsNnKernels, SoftMarginLossNoneAgainstFloat64AndTheReductionsOutOfBoundsWrite)
{
    const int n = 5000;
    const std::vector<double> x = Inputs(n);
    std::vector<double> tgt(n);
    for (int i = 0; i < n; i++) tgt[i] = (i % 3 == 0) ? -1.0 : 1.0;
    std::vector<double> want(n);
    const float sentinel = -123.0f;
    for (int i = 0; i < n; i++) {
        const double z = -tgt[i] * x[i];
        want[i] = z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
    }
    auto *xs = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *ts = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    auto *out = static_cast<float *>(asc_twin_gm_alloc(n * 4));
    // the host asks for the library's workspace and 32 bytes per core behind it
    auto *ws = static_cast<uint8_t *>(asc_twin_gm_alloc(16 * 1024 * 1024 + 64));
    for (int i = 0; i < n; i++) {
        xs[i] = static_cast<float>(x[i]);
        ts[i] = static_cast<float>(tgt[i]);
    }
    for (int mode = 0; mode < 3; mode++) {
        SoftMarginLossTilingData t;
        t.totalNum = n;
        t.usedCoreNum = mode == 0 ? 3 : 1;
        t.blockFactor = (n + t.usedCoreNum - 1) / t.usedCoreNum;
        t.ubFactor = 1024;
        t.reductionMode = mode;
        t.invNumel = 1.0f / static_cast<float>(n);
        const uint64_t key = GET_TPL_TILING_KEY(mode == 0 ? SML_TPL_SCH_MODE_0 : SML_TPL_SCH_MODE_1);
        const KernelRun r = Launch(key, static_cast<uint32_t>(t.usedCoreNum),
                             {reinterpret_cast<uint8_t *>(xs), reinterpret_cast<uint8_t *>(ts),
                              reinterpret_cast<uint8_t *>(out), ws}, t);
        if (mode != 0) {
            EXPECT_EQ(r.status, 507015) << "mode " << mode;
            EXPECT_EQ(r.msg, "soft_margin_loss block 0: DataCopyPad: GM bytes [0, 32) of the destination exceed the 4 "
                             "bytes SetGlobalBuffer gave") << "mode " << mode;
            EXPECT_EQ(out[1], sentinel); // nothing written past the output's element
            continue;
        }
        ASSERT_EQ(r.status, 0) << "mode " << mode << ": " << r.msg;
        {
            double worst = 0;
            for (int i = 0; i < n; i++) {
                // Mul, Muls, Abs exact; Exp and Log a few ulp; Adds and Add half an ulp
                const double e = std::fabs(out[i] - want[i]) / (0x1p-23 * (1.0 + want[i]));
                if (e > worst) worst = e;
            }
            EXPECT_LT(worst, 8.0);
        }
        for (int i = 0; i < n; i++) out[i] = sentinel;
    }
    asc_twin_gm_free(xs);
    asc_twin_gm_free(ts);
    asc_twin_gm_free(out);
    asc_twin_gm_free(ws);
}
#endif
