/*
 * op_kernel/kernel_dispatch.h: the one dispatcher, instantiated once per operator.
 *
 * An operator's kernels are one table type with an `isa` name, and one table per ISA
 * named <prefix>_scalar, <prefix>_avx2, <prefix>_avx512 (and <prefix>_avx512bf16 for CPUs
 * with AVX512_BF16), <prefix>_neon, each compiled where CMake sets MG_HAVE_<ISA>. Its
 * dispatch file defines the type and the prefix and includes this header:
 *
 *   #define MG_DISPATCH_TABLE_TYPE mish_kernels
 *   #define MG_DISPATCH_PREFIX mish_kernels
 *   #include "kernel_dispatch.h"
 *
 * which defines <prefix>_for(isa) and <prefix>_get(). The ISA is the runtime's choice
 * (mgrt_cpu_isa(): CPU features and MISHGRAD_ISA, parsed there once, with the fallback and
 * its warning), asked once per operator, so every operator runs the same ISA.
 */
#ifndef MG_HIDDEN
#if defined(__GNUC__)
#define MG_HIDDEN __attribute__((visibility("hidden")))
#else
#define MG_HIDDEN
#endif
#endif

#if defined(MG_DISPATCH_TABLE_TYPE) && defined(MG_DISPATCH_PREFIX)

#include <pthread.h>
#include <string.h>

#include "mgrt.h"

#define MG_DISPATCH_CAT2_(a, b) a##b
#define MG_DISPATCH_CAT_(a, b) MG_DISPATCH_CAT2_(a, b)
#define MG_DISPATCH_(suffix) MG_DISPATCH_CAT_(MG_DISPATCH_PREFIX, suffix)

/* The compiled table of a named ISA, whether or not the CPU has it */
static const MG_DISPATCH_TABLE_TYPE *MG_DISPATCH_(_compiled)(const char *isa) {
#if defined(MG_HAVE_AVX512_BF16)
    if (strcmp(isa, "avx512") == 0 && (mgrt_cpu_features() & MGRT_CPU_AVX512_BF16))
        return &MG_DISPATCH_(_avx512bf16);
#endif
#if defined(MG_HAVE_AVX512)
    if (strcmp(isa, "avx512") == 0) return &MG_DISPATCH_(_avx512);
#endif
#if defined(MG_HAVE_AVX2)
    if (strcmp(isa, "avx2") == 0) return &MG_DISPATCH_(_avx2);
#endif
#if defined(MG_HAVE_NEON)
    if (strcmp(isa, "neon") == 0) return &MG_DISPATCH_(_neon);
#endif
    if (strcmp(isa, "scalar") == 0) return &MG_DISPATCH_(_scalar);
    return NULL;
}

/* The kernels of one named ISA ("auto": the best this CPU has), or NULL if it is not
   compiled in or the CPU lacks it. */
const MG_DISPATCH_TABLE_TYPE *MG_DISPATCH_(_for)(const char *isa) {
    if (isa == NULL) return NULL;
    if (strcmp(isa, "auto") == 0) isa = mgrt_cpu_best_isa();
    return mgrt_cpu_supports_isa(isa) ? MG_DISPATCH_(_compiled)(isa) : NULL;
}

static const MG_DISPATCH_TABLE_TYPE *MG_DISPATCH_(_chosen);
static pthread_once_t MG_DISPATCH_(_once) = PTHREAD_ONCE_INIT;

static void MG_DISPATCH_(_choose)(void) {
    const MG_DISPATCH_TABLE_TYPE *table = MG_DISPATCH_(_for)(mgrt_cpu_isa());
    /* every ISA the runtime can choose on this architecture is compiled in; scalar is the
       floor should a build leave one out */
    MG_DISPATCH_(_chosen) = table != NULL ? table : &MG_DISPATCH_(_scalar);
}

/* The kernels for this process (thread-safe; decided at the first call). */
const MG_DISPATCH_TABLE_TYPE *MG_DISPATCH_(_get)(void) {
    pthread_once(&MG_DISPATCH_(_once), MG_DISPATCH_(_choose));
    return MG_DISPATCH_(_chosen);
}

#undef MG_DISPATCH_
#undef MG_DISPATCH_CAT_
#undef MG_DISPATCH_CAT2_
#endif
