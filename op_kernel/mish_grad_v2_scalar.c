/* op_kernel/mish_grad_v2_scalar.c: the portable one-lane path (any CPU). */
#include "simd/mg_simd_scalar.h"

#define MG_ISA_NAME scalar
#include "mish_grad_v2_body.h"
#include "mish_grad_v2_isa.h"

const mish_grad_v2_kernels mish_grad_v2_kernels_scalar = MG_KERNEL_TABLE("scalar");
