/*
 * op_kernel/mish_isa.h: the Mish forward kernel's per-ISA tables, internal to op_kernel/.
 */
#ifndef MISH_ISA_H_
#define MISH_ISA_H_

#include "mish_grad_v2_isa.h" /* MG_HIDDEN */
#include "mish_kernel.h"

MG_HIDDEN extern const mish_kernels mish_kernels_scalar;
MG_HIDDEN extern const mish_kernels mish_kernels_interim_avx2;
MG_HIDDEN extern const mish_kernels mish_kernels_interim_avx512;
MG_HIDDEN extern const mish_kernels mish_kernels_interim_neon;

#endif /* MISH_ISA_H_ */
