/*
 * aclnnop/aclnn_mish_backward.h: the gradient of Mish, CANN's two-phase ACLNN interface.
 *
 *   gradInput = gradOutput * (t + self * (1 - t^2) * sigmoid(self)),
 *   t = tanh(softplus(self)),  softplus(x) = relu(x) + log(1 + exp(-|x|))
 *
 * dtypes FLOAT, FLOAT16, BFLOAT16, all three tensors alike; shapes equal (no broadcast);
 * rank 0..8; any format. Computed in float32, 16-bit results rounded to nearest-even.
 * See docs/aclnnMishBackward.md for every parameter rule and return code.
 */
#ifndef ACLNNOP_ACLNN_MISH_BACKWARD_H_
#define ACLNNOP_ACLNN_MISH_BACKWARD_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: checks the three tensors, plans the work and returns its executor and the
   workspace (bytes) that phase 2 needs: 0 when every tensor is contiguous, else the size
   of the dense copies of the non-contiguous ones. Writes nothing to the tensors. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor *gradOutput,
                                                                  const aclTensor *self,
                                                                  aclTensor *gradInput,
                                                                  uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);

/* Phase 2: queues the planned work on `stream` (NULL: the default stream) and returns.
   Results, and errors found while running, come with aclrtSynchronizeStream. Workspace and
   tensors must stay alive until then. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMishBackward(void *workspace, uint64_t workspaceSize,
                                                  aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_MISH_BACKWARD_H_ */
