/* op_kernel/mish_dispatch.c: mish_kernels_get / mish_kernels_for (see kernel_dispatch.h). */
#include "mish_isa.h"

#define MG_DISPATCH_TABLE_TYPE mish_kernels
#define MG_DISPATCH_PREFIX mish_kernels
#include "kernel_dispatch.h"
