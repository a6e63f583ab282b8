/* op_kernel/mish_grad_v2_neon.c: the AArch64 Advanced SIMD path (built on AArch64 only). */
#include "simd/mg_simd_neon.h"

#define MG_ISA_NAME neon
#include "mish_grad_v2_body.h"
#include "mish_grad_v2_isa.h"

const mish_grad_v2_kernels mish_grad_v2_kernels_neon = MG_KERNEL_TABLE("neon");
