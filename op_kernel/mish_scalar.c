/* op_kernel/mish_scalar.c: the Mish forward kernel, the portable one-lane path (any CPU). */
#include "simd/mg_simd_scalar.h"

#define MG_ISA_NAME scalar
#include "mish_body.h"
#include "mish_isa.h"

const mish_kernels mish_kernels_scalar = MISH_KERNEL_TABLE("scalar");
