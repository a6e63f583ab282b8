/*
 * op_kernel/mish_grad_v2_isa.h: the per-ISA kernel tables, internal to op_kernel/.
 * Each table exists only where its file is compiled (MG_HAVE_* set by CMake).
 */
#ifndef MISH_GRAD_V2_ISA_H_
#define MISH_GRAD_V2_ISA_H_

#include "kernel_dispatch.h" /* MG_HIDDEN */
#include "mish_grad_v2_kernel.h"

MG_HIDDEN extern const mish_grad_v2_kernels mish_grad_v2_kernels_scalar;
#ifdef MG_HAVE_AVX2
MG_HIDDEN extern const mish_grad_v2_kernels mish_grad_v2_kernels_avx2;
#endif
#ifdef MG_HAVE_AVX512
MG_HIDDEN extern const mish_grad_v2_kernels mish_grad_v2_kernels_avx512;
#endif
#ifdef MG_HAVE_AVX512_BF16
/* the "avx512" table for CPUs with AVX512_BF16 too */
MG_HIDDEN extern const mish_grad_v2_kernels mish_grad_v2_kernels_avx512bf16;
#endif
#ifdef MG_HAVE_NEON
MG_HIDDEN extern const mish_grad_v2_kernels mish_grad_v2_kernels_neon;
#endif

#endif /* MISH_GRAD_V2_ISA_H_ */
