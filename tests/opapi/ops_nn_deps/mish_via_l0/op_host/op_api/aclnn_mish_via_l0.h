// aclnnMishViaL0: a test directory whose op_api calls another directory's l0 op
// (l0op::MishAsc, defined in activation/mish_asc of the test checkout), as ops-nn's
// threshold_grad_v2_d calls activation/relu_grad's l0op::ReluGrad.
#ifndef ACLNN_MISH_VIA_L0_H_
#define ACLNN_MISH_VIA_L0_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif
aclnnStatus aclnnMishViaL0GetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                           aclOpExecutor **executor);
aclnnStatus aclnnMishViaL0(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif

#endif
