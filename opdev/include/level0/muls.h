/* level0/muls.h: l0op::Muls, self * alpha elementwise into a new tensor of self's shape and
   dtype: float32, float16 and bfloat16, the product formed in float and rounded once to the
   dtype (a float32 product is the IEEE one). Other dtypes fail phase 1 with a message. */
#ifndef MG_LEVEL0_MULS_H_
#define MG_LEVEL0_MULS_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *Muls(const aclTensor *self, float alpha, aclOpExecutor *executor);
} // namespace l0op

#endif
