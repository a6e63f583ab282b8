/* op_kernel/mish_avx512.c: the Mish forward kernel, the AVX-512 (F/DQ/BW/VL) path; only this file gets those flags. */
#include "simd/mg_simd_avx512.h"

#define MG_ISA_NAME avx512
#include "mish_body.h"
#include "mish_isa.h"

const mish_kernels mish_kernels_avx512 = MISH_KERNEL_TABLE("avx512");
