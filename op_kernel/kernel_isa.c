/*
 * op_kernel/kernel_isa.c: one operator's kernels for one ISA variant (SLEEF's way: one
 * source, compiled once per operator and variant). CMake compiles it with that variant's
 * flags (runtime/mgrt_isa_list.inc) and defines MG_KERNEL_OP (the operator), MG_KERNEL_VARIANT
 * and MG_KERNEL_ISA (the variant and the ISA name it answers to), MG_KERNEL_SIMD (its SIMD
 * vocabulary) and MG_KERNEL_TABLE_OF (the table macro of the operator's body). The algorithm
 * is the operator's <op>_body.h; this file only picks the vocabulary and names the table.
 */
#include "kernel_names.h"

#include MG_KERNEL_SIMD_H(MG_KERNEL_SIMD)

#define MG_ISA_NAME MG_KERNEL_VARIANT
#include MG_KERNEL_BODY_H(MG_KERNEL_OP)
#include MG_KERNEL_HEADER(MG_KERNEL_OP)

/* Hidden: the dispatcher (kernel_dispatch.c) hands it out. */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif

const MG_KERNEL_TYPE(MG_KERNEL_OP) MG_KERNEL_TABLE_NAME(MG_KERNEL_OP, MG_KERNEL_VARIANT) =
    MG_KERNEL_TABLE_OF(MG_KERNEL_STR_(MG_KERNEL_ISA));
