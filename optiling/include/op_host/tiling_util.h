/* op_host/tiling_util.h: ops-nn's own header, modelled as far as seed-style tilings use it. */
#ifndef MG_OP_HOST_TILING_UTIL_H_
#define MG_OP_HOST_TILING_UTIL_H_

#include "log/log.h"
#include "platform/platform_ascendc.h"
#include "register/op_impl_registry.h"

namespace Ops {
namespace NN {
namespace OpTiling {
/* IsRegbase: Ascend950 (DAV_3510) tilings; the CPU profile models 910B. */
inline bool IsRegbaseSocVersion(const gert::TilingContext *) { return false; }
} // namespace OpTiling
} // namespace NN
} // namespace Ops

#endif
