/* op_kernel/mish_neon.c: the Mish forward kernel, the AArch64 Advanced SIMD path (built on AArch64 only). */
#include "simd/mg_simd_neon.h"

#define MG_ISA_NAME neon
#include "mish_body.h"
#include "mish_isa.h"

const mish_kernels mish_kernels_neon = MISH_KERNEL_TABLE("neon");
