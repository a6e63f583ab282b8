// The MishGradAsc kernel's UT in ops-nn's kernel-UT style (tikicpulib.h: GmAlloc, ICPU_RUN_KF),
// run on the AscendC twin: every dtype, several blocks with a short last block and a tail
// tile shorter than 32 bytes, the values against the project's reference (reference/
// mish_reference.h) within the bounds docs/ops_nn_directories.md states:
//   float32: the error measure |y - g mish'(x)| / (2^-23 |g| (|T1| + |T2|)) at most 16 where
//   expf(x) is a normal float (x >= -87.34); below, e = exp(x) is subnormal or 0 and only
//   absolutely accurate, and so is the result: |y - g mish'(x)| <= |g| 2^-140 there;
//   float16, bfloat16: within one 16-bit ulp of the exact value plus that float32 bound
//   (the kernel computes in float32 and rounds once).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"

#include "../../../op_kernel/mish_grad_asc.cpp"
#include "mish_reference.h"

namespace {
constexpr double F32_BOUND = 16.0;
constexpr float EXP_SUBNORMAL_BELOW = -87.33654f; // expf(x) is subnormal (or 0) below this

// The host tiling's split (op_host/mish_grad_asc_tiling.cpp), written out for a UT that
// chooses its own block count and tile length: blocks of blockLength, the last one shorter.
MishGradAscTilingData Tiling(int64_t total, int64_t blockLength, int64_t tileLength)
{
    MishGradAscTilingData t{};
    t.totalLength = total;
    t.blockLength = blockLength;
    t.tileLength = tileLength;
    return t;
}

// Inputs: x over [-30, 30] and the points that matter (0, the root of mish' near -1.1924,
// the clamp at 20, where expf underflows), g over [-3, 3] with exact 1 and 0 among them.
bool g_sweep = false; // g = 1 and x over the float32 bit patterns of [-104, 104] instead

void Inputs(size_t n, std::vector<float> &g, std::vector<float> &x)
{
    if (g_sweep) {
        g.assign(n, 1.0f);
        x.resize(n);
        const uint32_t top = 0x42D00000u; // 104.0f
        for (size_t i = 0; i < n; i++) {
            const uint32_t bits =
                static_cast<uint32_t>((static_cast<uint64_t>(i / 2) * 2 * top / n)) | (i % 2 ? 0x80000000u : 0);
            std::memcpy(&x[i], &bits, 4);
        }
        return;
    }
    static const float special[] = {0.0f, -0.0f, -1.1924f, -1.19243f, 20.0f, 19.99f, 20.01f, -87.4f, -104.0f, 1e-30f};
    g.resize(n);
    x.resize(n);
    for (size_t i = 0; i < n; i++) {
        x[i] = i < sizeof special / sizeof special[0] ? special[i]
                                                      : -30.0f + 60.0f * static_cast<float>((i * 7919u) % n) / n;
        g[i] = i % 5 == 0 ? 1.0f : (i % 17 == 0 ? 0.0f : -3.0f + 6.0f * static_cast<float>((i * 104729u) % n) / n);
    }
}

double Spacing16(long double v, bool bf16)
{
    const int mant = bf16 ? 7 : 10, emin = bf16 ? -126 : -14;
    int e = 0;
    std::frexp(static_cast<double>(std::fabs(v)), &e); // |v| in [2^(e-1), 2^e)
    return std::ldexp(1.0, (e - 1 < emin ? emin : e - 1) - mant);
}

uint16_t ToBits16(float v, bool bf16) // the exact 16-bit value of a float that holds one
{
    return bf16 ? mish_ref_round_bf16(v, nullptr) : mish_ref_round_f16(v, nullptr);
}

template <typename T>
void RunKernel(uint32_t blockDim, int64_t total, int64_t blockLength, int64_t tileLength, uint64_t key)
{
    const bool is16 = sizeof(T) == 2, bf16 = std::is_same<T, bfloat16_t>::value;
    std::vector<float> g, x;
    Inputs(static_cast<size_t>(total), g, x);
    const size_t bytes = static_cast<size_t>(total) * sizeof(T);
    uint8_t *gradGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *xGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *outGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(16 * 1024 * 1024));
    uint8_t *tiling = static_cast<uint8_t *>(AscendC::GmAlloc(sizeof(MishGradAscTilingData)));
    ASSERT_NE(gradGm, nullptr);
    ASSERT_NE(tiling, nullptr);
    for (int64_t i = 0; i < total; i++) {
        if (is16) {
            // the 16-bit inputs are the floats rounded; the reference sees the rounded values
            const uint16_t gb = ToBits16(g[i], bf16), xb = ToBits16(x[i], bf16);
            std::memcpy(gradGm + 2 * i, &gb, 2);
            std::memcpy(xGm + 2 * i, &xb, 2);
            g[i] = bf16 ? mish_ref_bf16_to_f32(gb) : mish_ref_f16_to_f32(gb);
            x[i] = bf16 ? mish_ref_bf16_to_f32(xb) : mish_ref_f16_to_f32(xb);
        } else {
            std::memcpy(gradGm + 4 * i, &g[i], 4);
            std::memcpy(xGm + 4 * i, &x[i], 4);
        }
    }
    const MishGradAscTilingData t = Tiling(total, blockLength, tileLength);
    std::memcpy(tiling, &t, sizeof t);

    ICPU_SET_TILING_KEY(key);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(mish_grad_asc<T>, blockDim, gradGm, xGm, outGm, workspace, tiling);

    int bad = 0;
    double worst = 0;
    for (int64_t i = 0; i < total && bad < 10; i++) {
        long double t1 = 0, t2 = 0;
        mish_ref_terms_ld(x[i], &t1, &t2);
        const long double scale = std::fabs(static_cast<long double>(g[i])) * (std::fabs(t1) + std::fabs(t2));
        if (!is16) {
            float y;
            std::memcpy(&y, outGm + 4 * i, 4);
            double err = mish_ref_err_ld(y, g[i], t1, t2);
            if (x[i] < EXP_SUBNORMAL_BELOW) // the underflow tail: an absolute bound
                err = std::fabs(static_cast<long double>(y) - g[i] * (t1 + t2)) <= std::ldexp(std::fabs(g[i]), -140) ? 0 : err;
            worst = err > worst ? err : worst;
            if (!(err <= F32_BOUND)) {
                ADD_FAILURE() << "x=" << x[i] << " g=" << g[i] << " y=" << y << " err=" << err;
                bad++;
            }
        } else {
            uint16_t yb;
            std::memcpy(&yb, outGm + 2 * i, 2);
            const float y = bf16 ? mish_ref_bf16_to_f32(yb) : mish_ref_f16_to_f32(yb);
            const long double exact = g[i] * (t1 + t2);
            const double tol = Spacing16(exact, bf16) + F32_BOUND * std::ldexp(1.0, -23) * static_cast<double>(scale);
            if (!(std::fabs(static_cast<long double>(y) - exact) <= tol)) {
                ADD_FAILURE() << "x=" << x[i] << " g=" << g[i] << " y=" << y << " exact=" << static_cast<double>(exact);
                bad++;
            }
        }
    }
    EXPECT_EQ(bad, 0);
    if (!is16) std::printf("float32: worst error measure %.3g (bound %g)\n", worst, F32_BOUND);
    AscendC::GmFree(gradGm);
    AscendC::GmFree(xGm);
    AscendC::GmFree(outGm);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
}
} // namespace

class mish_grad_asc_test : public testing::Test {};

// keys: the ge dtype of grad (mish_grad_asc_tiling_key.h): float 0, float16 1, bfloat16 27.
// 3 blocks of 1024 and one of 907 (907 * 4 bytes is not a multiple of 32), tiles of 256.
TEST_F(mish_grad_asc_test, float32_blocks_and_tails) { RunKernel<float>(4, 3 * 1024 + 907, 1024, 256, 0); }
TEST_F(mish_grad_asc_test, float16_blocks_and_tails) { RunKernel<half>(4, 3 * 1024 + 907, 1024, 256, 1); }
TEST_F(mish_grad_asc_test, bfloat16_blocks_and_tails) { RunKernel<bfloat16_t>(4, 3 * 1024 + 907, 1024, 256, 27); }
// one block, one tile shorter than 32 bytes
TEST_F(mish_grad_asc_test, float32_short) { RunKernel<float>(1, 5, 64, 64, 0); }
TEST_F(mish_grad_asc_test, float16_short) { RunKernel<half>(1, 13, 128, 128, 1); }
// the tile length the host tiling gives on the default SoC profile (192 KiB UB / 36 bytes)
TEST_F(mish_grad_asc_test, float32_full_tile) { RunKernel<float>(2, 2 * 5456 + 3, 5456 + 8, 5456, 0); }
TEST_F(mish_grad_asc_test, bfloat16_full_tile) { RunKernel<bfloat16_t>(2, 2 * 5456 + 3, 5456 + 16, 5456, 27); }
// float32 over the whole range with g = 1, 2^20 inputs in 48 blocks (the measured worst is printed)
TEST_F(mish_grad_asc_test, float32_sweep)
{
    g_sweep = true;
    RunKernel<float>(48, 1 << 20, (1 << 20) / 48 / 64 * 64 + 64, 5456, 0);
    g_sweep = false;
}
