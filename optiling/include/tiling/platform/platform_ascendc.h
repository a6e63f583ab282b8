/* tiling/platform/platform_ascendc.h: platform_ascendc::PlatformAscendC (asc-devkit's
   names), answering from the runtime's SoC profile (mg_platform_query). */
#ifndef MG_PLATFORM_ASCENDC_H_
#define MG_PLATFORM_ASCENDC_H_

#include <cstdint>

#include "exe_graph/runtime/tiling_context.h"
#include "platform/soc_spec.h"

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND910_95, ASCEND950 = ASCEND910_95, ASCEND910E,
                        ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };

class PlatformAscendC {
public:
    PlatformAscendC() { mg_platform_query(&p_); }
    explicit PlatformAscendC(fe::PlatFormInfos *info)
    {
        if (info != nullptr)
            p_ = info->p;
        else
            mg_platform_query(&p_);
    }
    uint32_t GetCoreNum() const { return p_.aiv_core_num; }
    uint32_t GetCoreNumAiv() const { return p_.aiv_core_num; }
    uint32_t GetCoreNumAic() const { return p_.aic_core_num; }
    uint32_t GetCoreNumVector() const { return 0; }
    void GetCoreMemSize(CoreMemType type, uint64_t &size) const
    {
        size = type == CoreMemType::UB ? p_.ub_bytes : type == CoreMemType::L1 ? p_.l1_bytes : 0;
    }
    uint32_t GetLibApiWorkSpaceSize() const { return p_.lib_workspace_bytes; }
    /* The CPU profile models an Ascend910B (runtime/mgrt.h). */
    SocVersion GetSocVersion() const
    {
        switch (p_.soc_generation) {
        case 1: return SocVersion::ASCEND910;
        case 2: return SocVersion::ASCEND310P;
        case 3: return SocVersion::ASCEND310B;
        case 5: return SocVersion::ASCEND910_93;
        case 6: return SocVersion::ASCEND950;
        default: return SocVersion::ASCEND910B;
        }
    }
    /* The architecture of that SoC (platform/soc_spec.h). */
    NpuArch GetCurNpuArch() const
    {
        switch (GetSocVersion()) {
        case SocVersion::ASCEND910: return NpuArch::DAV_1001;
        case SocVersion::ASCEND310P: return NpuArch::DAV_2002;
        case SocVersion::ASCEND310B: return NpuArch::DAV_3002;
        case SocVersion::ASCEND950: return NpuArch::DAV_3510;
        default: return NpuArch::DAV_2201;
        }
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const
    {
        (void)aicCoreNum;
        return aivCoreNum == 0 ? sliceNum : (sliceNum < aivCoreNum ? sliceNum : aivCoreNum);
    }

private:
    mg_platform p_{};
};

class PlatformAscendCManager {
public:
    static PlatformAscendC *GetInstance()
    {
        static PlatformAscendC instance;
        return &instance;
    }
};
} // namespace platform_ascendc

#endif
