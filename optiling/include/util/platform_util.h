/* util/platform_util.h: opbase's platform helpers tilings call (the 910B profile: 32-byte
   UB blocks, 256-byte vector registers). */
#ifndef MG_UTIL_PLATFORM_UTIL_H_
#define MG_UTIL_PLATFORM_UTIL_H_

#include <cstdint>

#include "log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {
template <typename Ctx> uint32_t GetUbBlockSize(const Ctx *) { return 32; }
template <typename Ctx> uint32_t GetVRegSize(const Ctx *) { return 256; }
} // namespace Base
} // namespace Ops

#endif
