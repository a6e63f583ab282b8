// A kernel UT that relies on the build force-including its folder's mish_via_l0_tiling_def.h
// (MishViaL0UtTiling is declared nowhere else): it compiles only if that happens. The
// struct goes through GM as a kernel's tiling argument would, and is read back.
#include <cstring>

#include "gtest/gtest.h"
#include "tikicpulib.h"

TEST(mish_via_l0_kernel_ut, tiling_def_is_force_included)
{
    MishViaL0UtTiling tiling{2000, 96};
    auto *gm = reinterpret_cast<uint8_t *>(AscendC::GmAlloc(sizeof(tiling)));
    ASSERT_NE(gm, nullptr);
    std::memcpy(gm, &tiling, sizeof(tiling));
    MishViaL0UtTiling back{};
    std::memcpy(&back, gm, sizeof(back));
    EXPECT_EQ(back.totalLength, 2000u);
    EXPECT_EQ(back.tileLength, 96u);
    AscendC::GmFree(gm);
}
