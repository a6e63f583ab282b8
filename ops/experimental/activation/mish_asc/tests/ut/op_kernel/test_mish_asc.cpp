// The MishAsc kernel's UT in ops-nn's kernel-UT style (tikicpulib.h: GmAlloc, ICPU_RUN_KF),
// run on the AscendC twin: every dtype, several blocks with a short last block and a tail
// tile shorter than 32 bytes, the values against the project's reference (reference/
// mish_reference.h) within the bounds docs/ops_nn_directories.md states: float32 within 6
// ulp of the exact mish(x) where expf(x) is a normal float (x >= -87.34; below, e = exp(x) is
// subnormal or 0 and only absolutely accurate, and so is the result: |y - mish(x)| <= 2^-140
// there); float16 and
// bfloat16 within one ulp of the correctly rounded value.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"

#include "../../../op_kernel/mish_asc.cpp"
#include "mish_reference.h"

namespace {
// n float32 values spread over the bit patterns of [-104, 104] (both signs, every exponent)
std::vector<float> SweepInputs(size_t n)
{
    std::vector<float> x(n);
    const uint32_t top = 0x42D00000u; // 104.0f
    for (size_t i = 0; i < n; i++) {
        const uint32_t bits = static_cast<uint32_t>((static_cast<uint64_t>(i / 2) * 2 * top / n)) | (i % 2 ? 0x80000000u : 0);
        std::memcpy(&x[i], &bits, 4);
    }
    return x;
}

constexpr double F32_ULP_BOUND = 6.0; // Exp within 1.5 ulp (the twin's stated bound) and six roundings
constexpr float EXP_SUBNORMAL_BELOW = -87.33654f; // expf(x) is subnormal (or 0) below this

bool g_sweep = false; // x every 4099th float32 bit pattern from -104 to +104 instead

std::vector<float> Inputs(size_t n)
{
    if (g_sweep) return SweepInputs(n);
    static const float special[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 20.0f, 19.99f, 20.01f, -87.4f, -104.0f, 1e30f};
    std::vector<float> x(n);
    for (size_t i = 0; i < n; i++)
        x[i] = i < sizeof special / sizeof special[0] ? special[i]
                                                      : -30.0f + 60.0f * static_cast<float>((i * 7919u) % n) / n;
    return x;
}

template <typename T>
void RunKernel(uint32_t blockDim, int64_t total, int64_t blockLength, int64_t tileLength, uint64_t key)
{
    const bool is16 = sizeof(T) == 2, bf16 = std::is_same<T, bfloat16_t>::value;
    std::vector<float> x = Inputs(static_cast<size_t>(total));
    const size_t bytes = static_cast<size_t>(total) * sizeof(T);
    uint8_t *xGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *yGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(16 * 1024 * 1024));
    uint8_t *tiling = static_cast<uint8_t *>(AscendC::GmAlloc(sizeof(MishAscTilingData)));
    ASSERT_NE(xGm, nullptr);
    ASSERT_NE(tiling, nullptr);
    for (int64_t i = 0; i < total; i++) {
        if (is16) {
            const uint16_t b = bf16 ? mish_ref_round_bf16(x[i], nullptr) : mish_ref_round_f16(x[i], nullptr);
            std::memcpy(xGm + 2 * i, &b, 2);
            x[i] = bf16 ? mish_ref_bf16_to_f32(b) : mish_ref_f16_to_f32(b);
        } else {
            std::memcpy(xGm + 4 * i, &x[i], 4);
        }
    }
    MishAscTilingData t{};
    t.totalLength = total;
    t.blockLength = blockLength;
    t.tileLength = tileLength;
    std::memcpy(tiling, &t, sizeof t);

    ICPU_SET_TILING_KEY(key);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(mish_asc<T>, blockDim, xGm, yGm, workspace, tiling);

    int bad = 0;
    double worst = 0;
    for (int64_t i = 0; i < total && bad < 10; i++) {
        if (!is16) {
            float y;
            std::memcpy(&y, yGm + 4 * i, 4);
            double err = mish_ref_fwd_ulp_err_ld(y, x[i]);
            if (x[i] < EXP_SUBNORMAL_BELOW) // the underflow tail: an absolute bound
                err = std::fabs(static_cast<long double>(y) - mish_ref_fwd_ld(x[i])) <= std::ldexp(1.0, -140) ? 0 : err;
            worst = err > worst ? err : worst;
            if (!(err <= F32_ULP_BOUND)) {
                ADD_FAILURE() << "x=" << x[i] << " y=" << y << " ulp=" << err;
                bad++;
            }
        } else {
            uint16_t yb;
            std::memcpy(&yb, yGm + 2 * i, 2);
            const long double exact = mish_ref_fwd_ld(x[i]);
            const uint16_t want = bf16 ? mish_ref_round_bf16(exact, nullptr) : mish_ref_round_f16(exact, nullptr);
            const int32_t d = mish_ref_bits16_distance(yb, want, bf16 ? 0x7F80 : 0x7C00);
            if (d > 1) {
                ADD_FAILURE() << "x=" << x[i] << " y bits=" << yb << " want bits=" << want;
                bad++;
            }
        }
    }
    EXPECT_EQ(bad, 0);
    if (!is16) std::printf("float32: worst %.3g ulp (bound %g)\n", worst, F32_ULP_BOUND);
    AscendC::GmFree(xGm);
    AscendC::GmFree(yGm);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
}
} // namespace

class mish_asc_test : public testing::Test {};

// keys: the ge dtype of x (mish_asc_tiling_key.h): float 0, float16 1, bfloat16 27.
// 3 blocks of 1024 and one of 907 (907 * 4 bytes is not a multiple of 32), tiles of 256.
TEST_F(mish_asc_test, float32_blocks_and_tails) { RunKernel<float>(4, 3 * 1024 + 907, 1024, 256, 0); }
TEST_F(mish_asc_test, float16_blocks_and_tails) { RunKernel<half>(4, 3 * 1024 + 907, 1024, 256, 1); }
TEST_F(mish_asc_test, bfloat16_blocks_and_tails) { RunKernel<bfloat16_t>(4, 3 * 1024 + 907, 1024, 256, 27); }
TEST_F(mish_asc_test, float32_short) { RunKernel<float>(1, 5, 64, 64, 0); }
// the tile length the host tiling gives on the default SoC profile (192 KiB UB / 24 bytes):
// the kernel's buffers fill the UB exactly
TEST_F(mish_asc_test, float32_full_tile) { RunKernel<float>(2, 2 * 8192 + 3, 8192 + 8, 8192, 0); }
TEST_F(mish_asc_test, float16_full_tile) { RunKernel<half>(2, 2 * 8192 + 3, 8192 + 16, 8192, 1); }
// float32 over the whole range, 2^20 inputs in 48 blocks (the measured worst is printed)
TEST_F(mish_asc_test, float32_sweep)
{
    g_sweep = true;
    RunKernel<float>(48, 1 << 20, (1 << 20) / 48 / 64 * 64 + 64, 8192, 0);
    g_sweep = false;
}
