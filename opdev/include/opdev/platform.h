/* opdev/platform.h: op::SocVersion (hicann/opbase's order: ASCEND910 = 0, ASCEND910B,
   ASCEND910_93, ASCEND910_95 = ASCEND950, ASCEND910E, ...) and the current platform, from
   the runtime's profile; the CPU profile is an Ascend910B (runtime/mgrt.h). */
#ifndef MG_OPDEV_PLATFORM_H_
#define MG_OPDEV_PLATFORM_H_

#include <cstdint>

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
} // namespace op

#endif
