// aclnnMishAscBackward: checks, then Contiguous x2 -> l0op::MishGradAsc -> ViewCopy.
#include "aclnn_mish_asc_backward.h"

#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "mish_grad_asc.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"

using namespace op;

namespace {
constexpr size_t MAX_RANK = 8;
const std::initializer_list<DataType> SUPPORTED = {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16};

aclnnStatus Check(const aclTensor *gradOutput, const aclTensor *self, const aclTensor *gradInput)
{
    OP_CHECK_NULL(gradOutput, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(gradInput, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(gradOutput, SUPPORTED, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(self, gradOutput->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(gradInput, gradOutput->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(gradOutput, MAX_RANK, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL(self, gradOutput, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL(gradInput, gradOutput, return ACLNN_ERR_PARAM_INVALID);
    return ACLNN_SUCCESS;
}
} // namespace

extern "C" aclnnStatus aclnnMishAscBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                            aclTensor *gradInput, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor)
{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1(aclnnMishAscBackward, DFX_IN(gradOutput, self), DFX_OUT(gradInput));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    aclnnStatus status = Check(gradOutput, self, gradInput);
    CHECK_RET(status == ACLNN_SUCCESS, status);
    if (gradOutput->IsEmpty()) {
        *workspaceSize = 0;
        unique.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    const aclTensor *grad = l0op::Contiguous(gradOutput, unique.get());
    CHECK_RET(grad != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *x = l0op::Contiguous(self, unique.get());
    CHECK_RET(x != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *result = l0op::MishGradAsc(grad, x, unique.get());
    CHECK_RET(result != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(result, gradInput, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnMishAscBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnMishAscBackward);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
