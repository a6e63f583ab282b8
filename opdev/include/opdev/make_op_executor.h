/* opdev/make_op_executor.h: CREATE_EXECUTOR, an empty plan on libnnopbase's executor. */
#ifndef MG_OPDEV_MAKE_OP_EXECUTOR_H_
#define MG_OPDEV_MAKE_OP_EXECUTOR_H_

#include "opdev/op_executor.h"


#endif
