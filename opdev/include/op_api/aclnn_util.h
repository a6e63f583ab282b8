/* op_api/aclnn_util.h: ops-nn's own op_api helpers (its common/inc/op_api/aclnn_util.h). When
   the checkout being built has that header (searched after this project's folders), it is
   the one used: an op_api file may include it both as "op_api/aclnn_util.h" (found here first)
   and as a plain "aclnn_util.h" (found there), and two different definitions of one function
   would not compile. Without a checkout (the project's own directories), the helpers seed-style
   op_api files use are defined here (IsRegbase: an Ascend950 / DAV_3510 part). */
#if defined(__has_include_next) && __has_include_next("op_api/aclnn_util.h")
#include_next "op_api/aclnn_util.h"
#else
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
#endif
