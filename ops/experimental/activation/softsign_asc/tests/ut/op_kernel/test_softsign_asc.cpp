// The SoftsignAsc kernel's UT in ops-nn's kernel-UT style (tikicpulib.h: GmAlloc, ICPU_RUN_KF),
// run on the AscendC twin. The kernel entry is compiled here as the build compiles it for the
// definition's first dtype combination (DTYPE_X = float, defined by the UT build); float16 and
// bfloat16 run the same kernel class through an entry of the UT's own. Several blocks with a
// short last block and a tail tile shorter than 32 bytes; values against x / (1 + |x|) in long
// double: float32 within 1.5 ulp of the exact value, float16 and bfloat16 within one ulp of
// the correctly rounded value.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"

#include "../../../op_kernel/softsign_asc.cpp"
#include "mish_reference.h"

static_assert(std::is_same<DTYPE_X, float>::value, "the UT build gives the first combination's DTYPE_X (float)");

template <typename T>
__global__ __aicore__ void softsign_asc_as(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(SoftsignAscTilingData, tilingData, tiling);
    AscendC::TPipe pipe;
    SoftsignAscKernel::SoftsignAscOp<T> op;
    op.Init(x, y, tilingData, &pipe);
    op.Process();
}

namespace {
constexpr double F32_ULP_BOUND = 1.5;

long double Exact(float x) { return static_cast<long double>(x) / (1.0L + std::fabs(static_cast<long double>(x))); }

// |y - exact| in units of the float32 ulp at the exact value
double UlpError(float y, long double exact)
{
    const long double a = std::fabs(exact);
    const int e = a == 0 ? -126 : std::max(std::ilogb(static_cast<double>(a)), -126);
    return static_cast<double>(std::fabs(static_cast<long double>(y) - exact) / std::ldexp(1.0L, e - 23));
}

std::vector<float> Inputs(size_t n)
{
    static const float special[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1.0f, -1.0f, 16777216.0f, -3e38f, 1e30f, 1e-40f};
    std::vector<float> x(n);
    for (size_t i = 0; i < n; i++)
        x[i] = i < sizeof special / sizeof special[0] ? special[i]
                                                      : -50.0f + 100.0f * static_cast<float>((i * 7919u) % n) / n;
    return x;
}

template <typename T, typename Kernel>
void RunKernel(Kernel kernel, uint32_t blockDim, int64_t total, int64_t blockLength, int64_t tileLength)
{
    const bool is16 = sizeof(T) == 2, bf16 = std::is_same<T, bfloat16_t>::value;
    std::vector<float> x = Inputs(static_cast<size_t>(total));
    const size_t bytes = static_cast<size_t>(total) * sizeof(T);
    uint8_t *xGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *yGm = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(1024));
    uint8_t *tiling = static_cast<uint8_t *>(AscendC::GmAlloc(sizeof(SoftsignAscTilingData)));
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
    const SoftsignAscTilingData t{total, blockLength, tileLength};
    std::memcpy(tiling, &t, sizeof t);

    ICPU_SET_TILING_KEY(0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(kernel, blockDim, xGm, yGm, workspace, tiling);

    int bad = 0;
    for (int64_t i = 0; i < total && bad < 10; i++) {
        const long double exact = Exact(x[i]);
        if (!is16) {
            float y;
            std::memcpy(&y, yGm + 4 * i, 4);
            const double err = UlpError(y, exact);
            if (!(err <= F32_ULP_BOUND)) {
                ADD_FAILURE() << "x=" << x[i] << " y=" << y << " ulp=" << err;
                bad++;
            }
        } else {
            uint16_t yb;
            std::memcpy(&yb, yGm + 2 * i, 2);
            const uint16_t want = bf16 ? mish_ref_round_bf16(exact, nullptr) : mish_ref_round_f16(exact, nullptr);
            if (mish_ref_bits16_distance(yb, want, bf16 ? 0x7F80 : 0x7C00) > 1) {
                ADD_FAILURE() << "x=" << x[i] << " y bits=" << yb << " want bits=" << want;
                bad++;
            }
        }
    }
    EXPECT_EQ(bad, 0);
    AscendC::GmFree(xGm);
    AscendC::GmFree(yGm);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
}
} // namespace

class softsign_asc_test : public testing::Test {};

// 3 blocks of 1024 and one of 907 (907 * 4 bytes is not a multiple of 32), tiles of 256
TEST_F(softsign_asc_test, float32_entry_blocks_and_tails) { RunKernel<float>(softsign_asc, 4, 3 * 1024 + 907, 1024, 256); }
TEST_F(softsign_asc_test, float16_blocks_and_tails) { RunKernel<half>(softsign_asc_as<half>, 4, 3 * 1024 + 907, 1024, 256); }
TEST_F(softsign_asc_test, bfloat16_blocks_and_tails)
{
    RunKernel<bfloat16_t>(softsign_asc_as<bfloat16_t>, 4, 3 * 1024 + 907, 1024, 256);
}
TEST_F(softsign_asc_test, float32_short) { RunKernel<float>(softsign_asc, 1, 5, 64, 64); }
// the tile length the host tiling gives on the default SoC profile (192 KiB UB / 24 bytes)
TEST_F(softsign_asc_test, float32_full_tile) { RunKernel<float>(softsign_asc, 2, 2 * 8192 + 3, 8192 + 8, 8192); }
TEST_F(softsign_asc_test, float16_full_tile) { RunKernel<half>(softsign_asc_as<half>, 2, 2 * 8192 + 3, 8192 + 16, 8192); }
