/*
 * aclnnop/aclnn_mish.h: the Mish activation, CANN's two-phase ACLNN interface.
 *
 *   out = self * tanh(softplus(self)),  softplus(x) = log(1 + exp(x))
 *
 * aclnnMish writes a new tensor; aclnnInplaceMish overwrites selfRef. dtypes FLOAT,
 * FLOAT16, BFLOAT16 (BFLOAT16 from the Ascend910B generation on; the Atlas training series
 * takes FLOAT and FLOAT16), self and out alike; shapes equal; rank 0..8; format ND;
 * non-contiguous tensors and empty tensors accepted. See docs/aclnnMish.md.
 */
#ifndef ACLNNOP_ACLNN_MISH_H_
#define ACLNNOP_ACLNN_MISH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1 of aclnnMish: checks self and out, plans the work, and returns the workspace
   (bytes) phase 2 needs and the executor holding the plan. Writes nothing to the tensors. */
ACLNN_API aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                aclOpExecutor **executor);

/* Phase 2 of aclnnMish: queues the planned work on `stream` (NULL: the default stream).
   Results, and errors met while running, come with aclrtSynchronizeStream. */
ACLNN_API aclnnStatus aclnnMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* Phase 1 of aclnnInplaceMish: selfRef is both the input and the output (it may be
   non-contiguous). */
ACLNN_API aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                       aclOpExecutor **executor);

/* Phase 2 of aclnnInplaceMish. */
ACLNN_API aclnnStatus aclnnInplaceMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_MISH_H_ */
