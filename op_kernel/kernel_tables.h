/*
 * op_kernel/kernel_tables.h: one operator's per-ISA kernel tables, declared from the ISA
 * list (runtime/mgrt_isa_list.inc), for its dispatcher and the kernel tests. Define
 * MG_KERNEL_OP (the operator's name, e.g. mish) and include it, once per operator (no
 * include guard); it includes the operator's <op>_kernel.h (the table type <op>_kernels).
 *
 * The declarations are weak: a variant this build did not compile (neon on x86, avx512bf16
 * where the compiler lacks the flag) is a NULL table, so no list but the ISA list says which
 * exist. Hidden: the tables never leave the library.
 */
#ifndef MG_KERNEL_OP
#error "define MG_KERNEL_OP before including kernel_tables.h"
#endif

#include "mgrt.h" /* MGRT_CPU_* */

#include "kernel_names.h"

#include MG_KERNEL_HEADER(MG_KERNEL_OP)

#ifdef __cplusplus
extern "C" {
#endif
#define MGRT_ISA_VARIANT(variant, name, needs, arch, simd, flags) \
    extern const MG_KERNEL_TYPE(MG_KERNEL_OP) MG_KERNEL_TABLE_NAME(MG_KERNEL_OP, variant) MG_KERNEL_WEAK_HIDDEN;
#define MGRT_ISA(name, needs, arch, simd, flags) MGRT_ISA_VARIANT(name, name, needs, arch, simd, flags)
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
#undef MGRT_ISA_VARIANT
#ifdef __cplusplus
}
#endif
