/*
 * op_host/op_api/mish.h: L0, the Mish kernel launch (CANN's l0op::Mish): picks the kernel
 * for the dtype and adds it to the plan through the elementwise layer's tiling and block
 * runner.
 */
#ifndef MISH_L0_H_
#define MISH_L0_H_

#include "nnop.h"

/* Adds out = mish(x) over `numel` dense elements of `dtype` (FLOAT, FLOAT16 or BF16).
   `out` may be the same memory as `x`. */
aclnnStatus l0op_Mish(aclOpExecutor *executor, nnop_buffer x, nnop_buffer out, int64_t numel, aclDataType dtype);

#endif /* MISH_L0_H_ */
