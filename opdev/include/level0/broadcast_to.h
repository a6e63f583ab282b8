/* level0/broadcast_to.h: l0op::BroadcastTo, a CPU step repeating a dense tensor along its
   size-1 (or missing leading) dims, numpy's rule. */
#ifndef MG_LEVEL0_BROADCAST_TO_H_
#define MG_LEVEL0_BROADCAST_TO_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor);
const aclTensor *BroadcastTo(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor);
} // namespace l0op

#endif
