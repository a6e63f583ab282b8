/*
 * tests/kernel/kt_mish.h: the forward's kernel tables for the kernel tests (each operator's
 * kernel tests have a header like this of their own; kernel_test_util.h has what they share).
 */
#ifndef KT_MISH_H_
#define KT_MISH_H_

#include "kernel_test_util.h"
#include "mish_kernel.h"
#define MG_KERNEL_OP mish
#include "kernel_tables.h"
#undef MG_KERNEL_OP

/* Every forward table this machine can run (see KT_DEFINE_TABLES) */
KT_DEFINE_TABLES(kt_mish_tables, mish_kernels, mish_kernels_for, &mish_kernels_avx512)
static inline mish_tile_fn kt_mish_fn(const mish_kernels *t, int dtype) {
    return dtype == 0 ? t->f32 : dtype == 1 ? t->f16 : t->bf16;
}
static inline mish_tile_fn kt_mish_fn_stream(const mish_kernels *t, int dtype) {
    return dtype == 0 ? t->f32_stream : dtype == 1 ? t->f16_stream : t->bf16_stream;
}

#endif /* KT_MISH_H_ */
