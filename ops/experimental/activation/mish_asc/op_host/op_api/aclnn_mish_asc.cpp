// aclnnMishAsc: checks, then Contiguous -> l0op::MishAsc -> ViewCopy into out.
#include "aclnn_mish_asc.h"

#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "mish_asc.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"

using namespace op;

namespace {
constexpr size_t MAX_RANK = 8;
const std::initializer_list<DataType> SUPPORTED = {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16};

aclnnStatus Check(const aclTensor *self, const aclTensor *out)
{
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, SUPPORTED, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(out, self->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(self, MAX_RANK, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL(out, self, return ACLNN_ERR_PARAM_INVALID);
    return ACLNN_SUCCESS;
}
} // namespace

extern "C" aclnnStatus aclnnMishAscGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                    aclOpExecutor **executor)
{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1(aclnnMishAsc, DFX_IN(self), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    aclnnStatus status = Check(self, out);
    CHECK_RET(status == ACLNN_SUCCESS, status);
    if (self->IsEmpty()) {
        *workspaceSize = 0;
        unique.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    const aclTensor *dense = l0op::Contiguous(self, unique.get());
    CHECK_RET(dense != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *y = l0op::MishAsc(dense, unique.get());
    CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(y, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnMishAsc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                    aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnMishAsc);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
