/* op_kernel/mish_grad_v2_avx2.c: the AVX2+FMA+F16C path; only this file gets those flags. */
#include "simd/mg_simd_avx2.h"

#define MG_ISA_NAME avx2
#include "mish_grad_v2_body.h"
#include "mish_grad_v2_isa.h"

const mish_grad_v2_kernels mish_grad_v2_kernels_avx2 = MG_KERNEL_TABLE("avx2");
