/* op_kernel/mish_avx512bf16.c: the AVX-512 path again, for CPUs that also have AVX512_BF16:
   the same body, with bfloat16 results narrowed by vcvtneps2bf16 where that gives the same
   bits (see simd/mg_simd_avx512.h). The dispatcher hands this table out as "avx512" when
   the CPU has the extension. */
#define MG_BF16_NATIVE 1
#include "simd/mg_simd_avx512.h"

#define MG_ISA_NAME avx512bf16
#include "mish_body.h"
#include "mish_isa.h"

const mish_kernels mish_kernels_avx512bf16 = MISH_KERNEL_TABLE("avx512");
