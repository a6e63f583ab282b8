/*
 * op_kernel/mish_isa.h: the Mish forward kernel's per-ISA tables, internal to op_kernel/.
 * Each table exists only where its file is compiled (MG_HAVE_* set by CMake).
 */
#ifndef MISH_ISA_H_
#define MISH_ISA_H_

#include "kernel_dispatch.h" /* MG_HIDDEN */
#include "mish_kernel.h"

MG_HIDDEN extern const mish_kernels mish_kernels_scalar;
#ifdef MG_HAVE_AVX2
MG_HIDDEN extern const mish_kernels mish_kernels_avx2;
#endif
#ifdef MG_HAVE_AVX512
MG_HIDDEN extern const mish_kernels mish_kernels_avx512;
#endif
#ifdef MG_HAVE_AVX512_BF16
MG_HIDDEN extern const mish_kernels mish_kernels_avx512bf16;
#endif
#ifdef MG_HAVE_NEON
MG_HIDDEN extern const mish_kernels mish_kernels_neon;
#endif

#endif /* MISH_ISA_H_ */
