/* aclnn_kernels/cast.h: l0op::Cast, a CPU step converting a dense tensor's elements
   (float16/bfloat16 round to nearest even; to integers truncating, as C's conversion). */
#ifndef MG_ACLNN_KERNELS_CAST_H_
#define MG_ACLNN_KERNELS_CAST_H_

#include "opdev/op_executor.h"
/* as CANN's, which brings make_op_executor.h (and its `using namespace std`) along */
#include "opdev/make_op_executor.h"

namespace l0op {
const aclTensor *Cast(const aclTensor *x, op::DataType dstDtype, aclOpExecutor *executor);
const aclTensor *CastOnlyForConvBackward(const aclTensor *x, op::DataType dstDtype, aclOpExecutor *executor);
} // namespace l0op

#endif
