/*
 * tests/kernel/kt_cpu.h: what this CPU can run, asked of the CPU directly by the test
 * (the compiler's __builtin_cpu_supports, plus CPUID where clang's builtin lacks a name),
 * independent of the runtime's detection that the kernels' dispatch uses. A test that needs
 * an ISA the CPU lacks exits with KT_SKIP (77), which CTest reports as skipped.
 */
#ifndef KT_CPU_H_
#define KT_CPU_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define KT_SKIP 77

/* 1 when the CPU (and the OS) can run the kernels of `isa` */
static inline int kt_cpu_has_isa(const char *isa) {
    if (strcmp(isa, "scalar") == 0) return 1;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    unsigned a = 0, b = 0, c = 0, d = 0;
    const int f16c = __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1);
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
    if (strcmp(isa, "avx2") == 0) return avx2;
    const int avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    if (strcmp(isa, "avx512") == 0) return avx512;
    if (strcmp(isa, "avx512bf16") == 0)
        return avx512 && __get_cpuid_count(7, 1, &a, &b, &c, &d) && ((a >> 5) & 1);
    return 0;
#elif defined(__aarch64__)
    return strcmp(isa, "neon") == 0;
#else
    return 0;
#endif
}

/* The ISA the dispatch must pick by itself: the best one the CPU has */
static inline const char *kt_cpu_best_isa(void) {
    /* the ISA list (runtime/mgrt_isa_list.inc) is worst first: the last one the CPU has */
    static const char *const listed[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) #name,
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
    };
    for (size_t i = sizeof listed / sizeof listed[0]; i-- > 0;)
        if (kt_cpu_has_isa(listed[i])) return listed[i];
    return "scalar";
}

/* Ends the test as skipped when MISHGRAD_ISA names an ISA this CPU lacks (a test run "for
   avx512" on a CPU without it must not pass silently on another ISA). */
static inline void kt_skip_unless_cpu_has_requested_isa(void) {
    const char *wanted = getenv("MISHGRAD_ISA");
    if (wanted == NULL || wanted[0] == '\0' || strcmp(wanted, "auto") == 0) return;
    if (!kt_cpu_has_isa(wanted)) {
        printf("SKIP: MISHGRAD_ISA=%s, and this CPU lacks it\n", wanted);
        exit(KT_SKIP);
    }
}


/* In a test file: skip the whole program (before any test runs) when MISHGRAD_ISA names
   an ISA this CPU lacks. */
#define KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()                                            \
    __attribute__((constructor)) static void kt_skip_check_(void) {                     \
        kt_skip_unless_cpu_has_requested_isa();                                          \
    }

#endif /* KT_CPU_H_ */
