/*
 * op_host/op_api/mish_grad_v2.h: L0, the MishGradV2 kernel launch (CANN's
 * l0op::MishGradV2): picks the kernel for the dtype and adds it to the plan through the
 * elementwise layer's tiling and block runner.
 */
#ifndef MISH_GRAD_V2_L0_H_
#define MISH_GRAD_V2_L0_H_

#include "nnop.h"

/* Adds out = grad * mish'(x) over `numel` dense elements of `dtype` (FLOAT, FLOAT16 or
   BF16). `out` may be the same memory as `grad` or `x`. */
aclnnStatus l0op_MishGradV2(aclOpExecutor *executor, nnop_buffer grad, nnop_buffer x, nnop_buffer out,
                            int64_t numel, aclDataType dtype);

#endif /* MISH_GRAD_V2_L0_H_ */
