/*
 * op_kernel/kernel_dispatch.c: the one dispatcher, compiled once per operator (MG_KERNEL_OP
 * defined by CMake): <op>_kernels_for(isa) and <op>_kernels_get(), over the variants the ISA
 * list (runtime/mgrt_isa_list.inc) names and this build compiled. The ISA is the runtime's
 * choice (mgrt_cpu_isa(): CPU features and MISHGRAD_ISA, parsed there once, with the
 * fallback and its warning), asked once per operator, so every operator runs the same ISA.
 * Of the variants of one ISA, the last in the list whose CPU features this CPU has wins
 * (avx512bf16 over avx512 on a CPU with AVX512_BF16).
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "kernel_tables.h" /* and the operator's <op>_kernel.h */

#define MG_FN_(suffix) MG_KERNEL_CAT_(MG_KERNEL_CAT_(MG_KERNEL_OP, _kernels_), suffix)
typedef MG_KERNEL_TYPE(MG_KERNEL_OP) table_t;

typedef struct variant {
    const char *isa;
    unsigned needs;
    const table_t *table; /* NULL: not compiled in this build */
} variant;

static const variant variants[] = {
#define MGRT_ISA_VARIANT(variant, name, needs, arch, simd, flags) \
    {#name, needs, &MG_KERNEL_TABLE_NAME(MG_KERNEL_OP, variant)},
#define MGRT_ISA(name, needs, arch, simd, flags) MGRT_ISA_VARIANT(name, name, needs, arch, simd, flags)
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
#undef MGRT_ISA_VARIANT
};

/* The kernels of one named ISA ("auto": the best this CPU has), or NULL if it is not
   compiled in or the CPU lacks it. */
const table_t *MG_FN_(for)(const char *isa) {
    if (isa == NULL) return NULL;
    if (strcmp(isa, "auto") == 0) isa = mgrt_cpu_best_isa();
    if (!mgrt_cpu_supports_isa(isa)) return NULL;
    const unsigned features = mgrt_cpu_features();
    for (size_t i = sizeof variants / sizeof variants[0]; i-- > 0;)
        if (variants[i].table != NULL && strcmp(variants[i].isa, isa) == 0 &&
            (features & variants[i].needs) == variants[i].needs)
            return variants[i].table;
    return NULL;
}

static const table_t *chosen;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void choose(void) {
    const table_t *table = MG_FN_(for)(mgrt_cpu_isa());
    /* every ISA the runtime can choose on this architecture is compiled in; scalar is the
       floor should a build leave one out */
    chosen = table != NULL ? table : &MG_KERNEL_TABLE_NAME(MG_KERNEL_OP, scalar);
}

/* The kernels for this process (thread-safe; decided at the first call). */
const table_t *MG_FN_(get)(void) {
    pthread_once(&once, choose);
    return chosen;
}
