/* level0/fill.h: l0op::Fill, a new tensor of shape `outShape` whose every element is the
   one element of `value` (its dtype is value's). `dims` names the same shape as a 1-D
   integer tensor (ConvertToTensor of the dims, as the callers write it); when it is a host
   tensor its values must equal outShape. `value` is usually a host tensor (its value is
   then known at phase 1); a tensor of the plan works too (its first element is read at
   phase 2). A CPU step of opdev (l0_kernels.c). */
#ifndef MG_LEVEL0_FILL_H_
#define MG_LEVEL0_FILL_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *Fill(const aclTensor *dims, const aclTensor *value, const aclIntArray *outShape,
                      aclOpExecutor *executor);
} // namespace l0op

#endif
