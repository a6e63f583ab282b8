// The l0 op comes from another operator directory, by a path relative to this file (the
// way ops-nn's directories reach one another); the build must find and link its source.
#include "aclnn_mish_via_l0.h"

#include "../../../../../activation/mish_asc/op_host/op_api/mish_asc.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"

using namespace op;

extern "C" aclnnStatus aclnnMishViaL0GetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor)
{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1(aclnnMishViaL0, DFX_IN(self), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_SHAPE_NOT_EQUAL(out, self, return ACLNN_ERR_PARAM_INVALID);
    const aclTensor *dense = l0op::Contiguous(self, unique.get());
    CHECK_RET(dense != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *y = l0op::MishAsc(dense, unique.get());
    CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(y, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnMishViaL0(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnMishViaL0);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
