// l0op::MishAsc: allocates y in the plan and launches the kernel through the AI-core list.
#include "mish_asc.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

namespace l0op {
OP_TYPE_REGISTER(MishAsc);

const aclTensor *MishAsc(const aclTensor *x, aclOpExecutor *executor)
{
    L0_DFX(MishAsc, x);
    aclTensor *y = executor->AllocTensor(x->GetStorageShape(), x->GetDataType(), x->GetStorageFormat());
    CHECK_RET(y != nullptr, nullptr);
    aclnnStatus ret = ADD_TO_LAUNCHER_LIST_AICORE(MishAsc, OP_INPUT(x), OP_OUTPUT(y));
    OP_CHECK(ret == ACLNN_SUCCESS, OP_LOGE(ret, "MishAsc could not be launched"), return nullptr);
    return y;
}
} // namespace l0op
