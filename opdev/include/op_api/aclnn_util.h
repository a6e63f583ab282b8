/* op_api/aclnn_util.h: ops-nn's own op_api helpers, as far as seed-style op_api files use
   them (IsRegbase: an Ascend950 / DAV_3510 part). */
#ifndef MG_OP_API_ACLNN_UTIL_H_
#define MG_OP_API_ACLNN_UTIL_H_

#include "aclnnop/aclnn_util.h"
#include "opdev/platform.h"

namespace Ops {
namespace NN {
namespace AclnnUtil {
inline bool IsRegbase() { return op::GetCurNpuArch() == op::NpuArch::DAV_3510; }
inline bool IsRegbase(op::NpuArch arch) { return arch == op::NpuArch::DAV_3510; }
} // namespace AclnnUtil
} // namespace NN
} // namespace Ops

#endif
