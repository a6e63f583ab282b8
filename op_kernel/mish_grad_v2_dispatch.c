/* op_kernel/mish_grad_v2_dispatch.c: mish_grad_v2_kernels_get / _for (see kernel_dispatch.h). */
#include "mish_grad_v2_isa.h"

#define MG_DISPATCH_TABLE_TYPE mish_grad_v2_kernels
#define MG_DISPATCH_PREFIX mish_grad_v2_kernels
#include "kernel_dispatch.h"
