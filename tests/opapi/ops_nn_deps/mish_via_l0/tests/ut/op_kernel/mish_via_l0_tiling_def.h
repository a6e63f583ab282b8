// Force-included into this folder's kernel UTs by the build (as CANN's kernel-UT build
// force-includes <op>_tiling_def.h): the UT uses this struct without including this file.
#ifndef MISH_VIA_L0_TILING_DEF_H_
#define MISH_VIA_L0_TILING_DEF_H_
#include <cstdint>

struct MishViaL0UtTiling {
    uint32_t totalLength;
    uint32_t tileLength;
};
#endif
