// l0op::MishAsc: the AI-core kernel mish_asc on a dense tensor.
#ifndef MISH_ASC_L0_H_
#define MISH_ASC_L0_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *MishAsc(const aclTensor *x, aclOpExecutor *executor);
}

#endif
