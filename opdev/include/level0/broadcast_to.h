/* level0/broadcast_to.h: l0op::BroadcastTo, a CPU step repeating a dense tensor along its
   size-1 (or missing leading) dims, numpy's rule. The form with `y` writes into y (a tensor
   the caller allocated, its shape the target; `shape`, the same dims as a 1-D integer tensor,
   is checked against y's when it is a host tensor) and returns it, or x when x already has
   y's shape. */
#ifndef MG_LEVEL0_BROADCAST_TO_H_
#define MG_LEVEL0_BROADCAST_TO_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor);
const aclTensor *BroadcastTo(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor);
const aclTensor *BroadcastTo(const aclTensor *x, const aclTensor *y, const aclTensor *shape, aclOpExecutor *executor);
} // namespace l0op

#endif
