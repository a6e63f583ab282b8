/* aclnn_kernels/contiguous.h: l0op::Contiguous (a dense copy in the workspace, or the
   tensor itself when already dense) and l0op::ViewCopy (a dense result scattered into
   the caller's view): libnnopbase's copy steps. */
#ifndef MG_ACLNN_KERNELS_CONTIGUOUS_H_
#define MG_ACLNN_KERNELS_CONTIGUOUS_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *Contiguous(const aclTensor *x, aclOpExecutor *executor);
const aclTensor *ViewCopy(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor);
} // namespace l0op

#endif
