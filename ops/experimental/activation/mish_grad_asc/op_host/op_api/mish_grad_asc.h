// l0op::MishGradAsc: the AI-core kernel mish_grad_asc on dense tensors.
#ifndef MISH_GRAD_ASC_L0_H_
#define MISH_GRAD_ASC_L0_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *MishGradAsc(const aclTensor *grad, const aclTensor *x, aclOpExecutor *executor);
}

#endif
