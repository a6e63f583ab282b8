/* op_api_ut_common/scalar_desc.h: ops-nn's UTs include ScalarDesc from here; in this harness
   it lives with TensorDesc. */
#ifndef MG_OP_API_UT_SCALAR_DESC_H_
#define MG_OP_API_UT_SCALAR_DESC_H_

#include "op_api_ut_common/tensor_desc.h"

#endif
