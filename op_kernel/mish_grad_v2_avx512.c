/* op_kernel/mish_grad_v2_avx512.c: the AVX-512 (F/DQ/BW/VL) path; only this file gets those flags. */
#include "simd/mg_simd_avx512.h"

#define MG_ISA_NAME avx512
#include "mish_grad_v2_body.h"
#include "mish_grad_v2_isa.h"

const mish_grad_v2_kernels mish_grad_v2_kernels_avx512 = MG_KERNEL_TABLE("avx512");
