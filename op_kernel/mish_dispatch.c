/*
 * op_kernel/mish_dispatch.c: the Mish forward kernel's table, for the ISA the backward's
 * dispatcher chose (one choice per process for every operator).
 */
#include <string.h>

#include "mish_isa.h"

static const mish_kernels *table_named(const char *isa) {
    if (strcmp(isa, "avx512") == 0) return &mish_kernels_interim_avx512;
    if (strcmp(isa, "avx2") == 0) return &mish_kernels_interim_avx2;
    if (strcmp(isa, "neon") == 0) return &mish_kernels_interim_neon;
    return &mish_kernels_scalar;
}

const mish_kernels *mish_kernels_for(const char *isa) {
    const mish_grad_v2_kernels *backward = mish_grad_v2_kernels_for(isa);
    return backward == NULL ? NULL : table_named(backward->isa);
}

const mish_kernels *mish_kernels_get(void) { return table_named(mish_grad_v2_kernels_get()->isa); }
