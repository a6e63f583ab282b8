/* opdev/platform.h: op::SocVersion (hicann/opbase's order: ASCEND910 = 0, ASCEND910B,
   ASCEND910_93, ASCEND910_95 = ASCEND950, ASCEND910E, ...) and the current platform, from
   the runtime's profile; the CPU profile is an Ascend910B (runtime/mgrt.h). */
#ifndef MG_OPDEV_PLATFORM_H_
#define MG_OPDEV_PLATFORM_H_

#include <cstdint>

#include "opdev/data_type_utils.h"

namespace op {
enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND910_95, ASCEND950 = ASCEND910_95, ASCEND910E, ASCEND310,
    ASCEND310P, ASCEND310B, ASCEND310C, ASCEND610LITE, RESERVED_VERSION = 99999
};
enum class NpuArch { DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3510 = 3510,
                     DAV_RESV = 0 };

class PlatformInfo {
public:
    SocVersion GetSocVersion() const;
    NpuArch GetCurNpuArch() const;
    int64_t GetBlockSize() const { return 32; }
    uint32_t GetCubeCoreNum() const;
    uint32_t GetVectorCoreNum() const;
};
const PlatformInfo &GetCurrentPlatformInfo();
inline NpuArch GetCurNpuArch() { return GetCurrentPlatformInfo().GetCurNpuArch(); }
/* The SoC's name for messages (operators print it when a dtype is not supported there). */
inline MgString ToString(SocVersion v)
{
    switch (v) {
    case SocVersion::ASCEND910: return MgString("Ascend910");
    case SocVersion::ASCEND910B: return MgString("Ascend910B");
    case SocVersion::ASCEND910_93: return MgString("Ascend910_93");
    case SocVersion::ASCEND910_95: return MgString("Ascend950");
    case SocVersion::ASCEND910E: return MgString("Ascend910E");
    case SocVersion::ASCEND310: return MgString("Ascend310");
    case SocVersion::ASCEND310P: return MgString("Ascend310P");
    case SocVersion::ASCEND310B: return MgString("Ascend310B");
    case SocVersion::ASCEND310C: return MgString("Ascend310C");
    case SocVersion::ASCEND610LITE: return MgString("Ascend610Lite");
    default: return MgString("UnknownSoc");
    }
}
} // namespace op

#endif
