/* opdev/make_op_executor.h: CREATE_EXECUTOR, an empty plan on libnnopbase's executor. */
#ifndef MG_OPDEV_MAKE_OP_EXECUTOR_H_
#define MG_OPDEV_MAKE_OP_EXECUTOR_H_

#include "opdev/op_executor.h"

/* CANN's make_op_executor.h opens namespace std for its includers, and ops-nn's common headers
   rely on it (level2_base_caculation.h writes `bitset` unqualified): kept for them. */
using namespace std;


#endif
