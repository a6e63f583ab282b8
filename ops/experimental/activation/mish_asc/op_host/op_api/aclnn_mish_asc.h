/* aclnn_mish_asc.h: aclnnMishAsc, out = self * tanh(softplus(self)) (float32, float16,
   bfloat16; rank <= 8; out has self's shape and dtype), on the AscendC kernel mish_asc. */
#ifndef ACLNN_MISH_ASC_H_
#define ACLNN_MISH_ASC_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMishAscGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMishAsc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
