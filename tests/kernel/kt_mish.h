/*
 * tests/kernel/kt_mish.h: the forward's kernel tables for the kernel tests (each operator's
 * kernel tests have a header like this of their own; kernel_test_util.h has what they share).
 */
#ifndef KT_MISH_H_
#define KT_MISH_H_

#include "kernel_test_util.h"
#include "mish_isa.h"
#include "mish_kernel.h"

/* Every forward table this machine can run (as kt_tables), the plain AVX-512 one included
   where the dispatcher would pick its BF16 sibling */
static inline size_t kt_mish_tables(const mish_kernels **tables, size_t capacity) {
    size_t count = 0;
    for (size_t i = 0; i < sizeof kt_isa_names / sizeof kt_isa_names[0] && count < capacity; i++) {
        if (!kt_isa_listed(kt_isa_names[i])) continue;
        const mish_kernels *t = mish_kernels_for(kt_isa_names[i]);
        if (t != NULL) tables[count++] = t;
    }
#if defined(MG_HAVE_AVX512) && defined(MG_HAVE_AVX512_BF16)
    const mish_kernels *avx512 = mish_kernels_for("avx512");
    if (kt_isa_listed("avx512") && avx512 != NULL && avx512 != &mish_kernels_avx512 && count < capacity) tables[count++] = &mish_kernels_avx512;
#endif
    return count;
}
static inline mish_tile_fn kt_mish_fn(const mish_kernels *t, int dtype) {
    return dtype == 0 ? t->f32 : dtype == 1 ? t->f16 : t->bf16;
}
static inline mish_tile_fn kt_mish_fn_stream(const mish_kernels *t, int dtype) {
    return dtype == 0 ? t->f32_stream : dtype == 1 ? t->f16_stream : t->bf16_stream;
}

#endif /* KT_MISH_H_ */
