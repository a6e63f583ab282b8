// opdev/src/platform.cpp: op::PlatformInfo from the runtime's SoC profile.
#include "mgrt.h"
#include "opdev/platform.h"

namespace op {
SocVersion PlatformInfo::GetSocVersion() const
{
    switch (mgrt_soc()->generation) {
    case MGRT_SOC_ASCEND910: return SocVersion::ASCEND910;
    case MGRT_SOC_ASCEND310P: return SocVersion::ASCEND310P;
    case MGRT_SOC_ASCEND310B: return SocVersion::ASCEND310B;
    case MGRT_SOC_ASCEND910_93: return SocVersion::ASCEND910_93;
    case MGRT_SOC_ASCEND950: return SocVersion::ASCEND950;
    default: return SocVersion::ASCEND910B; // the CPU profile models an Ascend910B
    }
}

NpuArch PlatformInfo::GetCurNpuArch() const
{
    switch (GetSocVersion()) {
    case SocVersion::ASCEND910: return NpuArch::DAV_1001;
    case SocVersion::ASCEND310P: return NpuArch::DAV_2002;
    case SocVersion::ASCEND310B: return NpuArch::DAV_3002;
    case SocVersion::ASCEND950: return NpuArch::DAV_3510;
    default: return NpuArch::DAV_2201;
    }
}

uint32_t PlatformInfo::GetCubeCoreNum() const { return mgrt_soc()->aiv_core_num / 2; }
uint32_t PlatformInfo::GetVectorCoreNum() const { return mgrt_soc()->aiv_core_num; }

const PlatformInfo &GetCurrentPlatformInfo()
{
    static const PlatformInfo info;
    return info;
}
} // namespace op
