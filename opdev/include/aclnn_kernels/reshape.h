/* aclnn_kernels/reshape.h: l0op::Reshape, the same dense elements under another shape
   (no step: the result names the same buffer). */
#ifndef MG_ACLNN_KERNELS_RESHAPE_H_
#define MG_ACLNN_KERNELS_RESHAPE_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *Reshape(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor);
const aclTensor *Reshape(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor);
} // namespace l0op

#endif
