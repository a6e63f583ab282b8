/* opdev/aicpu/aicpu_task.h: the AI CPU launch (opbase's names). AI CPU kernels are not
   modelled: ADD_TO_LAUNCHER_LIST_AICPU plans nothing and returns ACLNN_ERR_INNER with a
   message naming the operator type, so an operator that takes its AI-core path for the
   dtypes it is given builds and runs, and one that falls back to an AI CPU kernel fails
   at phase 1 saying why. */
#ifndef MG_OPDEV_AICPU_AICPU_TASK_H_
#define MG_OPDEV_AICPU_AICPU_TASK_H_

#include "opdev/op_executor.h"
#include "opdev/op_log.h"

namespace op {
namespace internal {
/* The task space an operator's AI CPU launches share (CANN keeps their kernels' state there);
   nothing to keep here. */
class AicpuTaskSpace {
public:
    template <typename... A> explicit AicpuTaskSpace(const char *, A &&...) {}
};
} // namespace internal
namespace mg {
template <typename... A> aclnnStatus AddAiCpu(const char *op_type, const A &...)
{
    OP_LOGE(ACLNN_ERR_INNER, "%s: the AI CPU kernel of %s is not modelled (only AI-core kernels run here)",
            CurrentApi(), op_type);
    return ACLNN_ERR_INNER;
}
} // namespace mg
} // namespace op

/* the attribute names an AI CPU kernel takes its attributes by (a braced list of names) */
#define OP_ATTR_NAMES(...) (op::mg::IgnoredArgs{})
#define ADD_TO_LAUNCHER_LIST_AICPU(op_type, ...) op::mg::AddAiCpu(#op_type, __VA_ARGS__)

#endif
