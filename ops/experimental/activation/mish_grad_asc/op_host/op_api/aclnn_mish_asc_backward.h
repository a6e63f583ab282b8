/* aclnn_mish_asc_backward.h: aclnnMishAscBackward, gradInput = gradOutput * mish'(self)
   (float32, float16, bfloat16; equal shapes and dtypes; rank <= 8), on the AscendC kernel
   mish_grad_asc. */
#ifndef ACLNN_MISH_ASC_BACKWARD_H_
#define ACLNN_MISH_ASC_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMishAscBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                           aclTensor *gradInput, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMishAscBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
