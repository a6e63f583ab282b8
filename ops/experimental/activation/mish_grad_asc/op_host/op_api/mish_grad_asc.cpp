// l0op::MishGradAsc: allocates x_grad in the plan and launches the kernel.
#include "mish_grad_asc.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

namespace l0op {
OP_TYPE_REGISTER(MishGradAsc);

const aclTensor *MishGradAsc(const aclTensor *grad, const aclTensor *x, aclOpExecutor *executor)
{
    L0_DFX(MishGradAsc, grad, x);
    aclTensor *xGrad = executor->AllocTensor(grad->GetStorageShape(), grad->GetDataType(), grad->GetStorageFormat());
    CHECK_RET(xGrad != nullptr, nullptr);
    aclnnStatus ret = ADD_TO_LAUNCHER_LIST_AICORE(MishGradAsc, OP_INPUT(grad, x), OP_OUTPUT(xGrad));
    OP_CHECK(ret == ACLNN_SUCCESS, OP_LOGE(ret, "MishGradAsc could not be launched"), return nullptr);
    return xGrad;
}
} // namespace l0op
