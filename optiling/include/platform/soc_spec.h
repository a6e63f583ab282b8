/* platform/soc_spec.h: the NPU architecture names a tiling compares against (asc-devkit's
   NpuArch; PlatformAscendC::GetCurNpuArch answers from the runtime's SoC profile). */
#ifndef MG_PLATFORM_SOC_SPEC_H_
#define MG_PLATFORM_SOC_SPEC_H_

#include <cstdint>

enum class NpuArch : uint32_t {
    DAV_1001 = 1001, /* Ascend910 */
    DAV_2002 = 2002, /* Ascend310P */
    DAV_2201 = 2201, /* Ascend910B, Ascend910_93 */
    DAV_3002 = 3002, /* Ascend310B */
    DAV_3510 = 3510, /* Ascend950 */
    DAV_5102 = 5102,
    DAV_RESV = 0xFFFFFFFFu
};

#endif
