/* op_kernel/mish_avx2.c: the Mish forward kernel, the AVX2+FMA+F16C path; only this file gets those flags. */
#include "simd/mg_simd_avx2.h"

#define MG_ISA_NAME avx2
#include "mish_body.h"
#include "mish_isa.h"

const mish_kernels mish_kernels_avx2 = MISH_KERNEL_TABLE("avx2");
