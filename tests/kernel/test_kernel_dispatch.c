/*
 * tests/kernel/test_kernel_dispatch.c: the kernels' dispatch, run once per MISHGRAD_ISA
 * setting (CTest sets it). The expected ISA comes from the CPU itself (kt_cpu.h:
 * __builtin_cpu_supports / CPUID), not from the runtime's detection under test: a named
 * ISA the CPU has is taken as asked; unset or "auto" gives the best the CPU has; an ISA
 * the CPU lacks, or an unknown name, gives the best one and a warning printed at the
 * default log level. Both operators get the same ISA. The first call races from several
 * threads and all must get one table.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kt_mish.h"
#include "kt_cpu.h"
#include "mg_log_file.h"
#include "mg_test.h"
#include "mgrt.h"

static void *get_kernels(void *unused) {
    (void)unused;
    return (void *)mish_grad_v2_kernels_get();
}

static const char *wanted_isa(void) {
    const char *w = getenv("MISHGRAD_ISA");
    return (w == NULL || w[0] == '\0') ? "auto" : w;
}

static const char *expected_isa(void) {
    const char *w = wanted_isa();
    if (strcmp(w, "auto") != 0 && kt_cpu_has_isa(w)) return w;
    return kt_cpu_best_isa();
}

/* Runs first: the first kernel request, from 8 threads; the warning (or its absence) is read
   from the process's log file, where the runtime logs as CANN does. */
MG_TEST(first_call_from_many_threads_agrees_with_the_cpu) {
    const long log_start = mg_log_size();
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    void *results[THREADS];
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_create(&threads[i], NULL, get_kernels, NULL) == 0);
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_join(threads[i], &results[i]) == 0);
    const mish_kernels *forward = mish_kernels_get();
    char *log = mg_log_text_since(log_start);
    MG_CHECK(log != NULL);
    if (log == NULL) return;
    for (int i = 1; i < THREADS; i++) MG_CHECK(results[i] == results[0]);
    const mish_grad_v2_kernels *backward = mish_grad_v2_kernels_get();
    MG_CHECK(backward == results[0]);
    const char *w = wanted_isa(), *expect = expected_isa();
    printf("  MISHGRAD_ISA=%s -> backward %s, forward %s (the CPU's best: %s; runtime says %s)\n", w, backward->isa,
           forward->isa, kt_cpu_best_isa(), mgrt_cpu_isa());
    MG_CHECK(strcmp(backward->isa, expect) == 0);
    MG_CHECK(strcmp(forward->isa, expect) == 0);
    MG_CHECK(strcmp(mgrt_cpu_isa(), expect) == 0);
    const int should_warn = strcmp(w, "auto") != 0 && !kt_cpu_has_isa(w);
    if (should_warn) {
        MG_CHECK_STR_CONTAINS(log, "WARNING");
        MG_CHECK_STR_CONTAINS(log, "MISHGRAD_ISA=");
        MG_CHECK_STR_CONTAINS(log, w);
        char using_best[64];
        snprintf(using_best, sizeof using_best, "using %s", expect);
        MG_CHECK_STR_CONTAINS(log, using_best);
    } else {
        MG_CHECK(strstr(log, "MISHGRAD_ISA") == NULL);
    }
    free(log);
#if defined(MG_HAVE_AVX512BF16)
    /* "avx512" is the AVX512_BF16 build of the path exactly where the CPU has it */
    if (strcmp(expect, "avx512") == 0)
        MG_CHECK((backward == &mish_grad_v2_kernels_avx512bf16) == kt_cpu_has_isa("avx512bf16"));
#endif
}

MG_TEST(cpu_features_match_the_cpu) {
    const unsigned f = mgrt_cpu_features();
    MG_CHECK(((f & MGRT_CPU_AVX2) != 0) == kt_cpu_has_isa("avx2"));
    MG_CHECK(((f & MGRT_CPU_AVX512) != 0) == kt_cpu_has_isa("avx512"));
    MG_CHECK(((f & MGRT_CPU_AVX512_BF16) != 0) == kt_cpu_has_isa("avx512bf16"));
    MG_CHECK(((f & MGRT_CPU_NEON) != 0) == kt_cpu_has_isa("neon"));
    for (size_t i = 0; i < sizeof kt_isa_names / sizeof kt_isa_names[0]; i++)
        MG_CHECK_EQ_INT(mgrt_cpu_supports_isa(kt_isa_names[i]), kt_cpu_has_isa(kt_isa_names[i]));
    MG_CHECK(strcmp(mgrt_cpu_best_isa(), kt_cpu_best_isa()) == 0);
    MG_CHECK_EQ_INT(mgrt_cpu_supports_isa("bogus"), 0);
    MG_CHECK_EQ_INT(mgrt_cpu_supports_isa(NULL), 0);
}

MG_TEST(tables_by_name) {
    MG_CHECK(mish_grad_v2_kernels_for(NULL) == NULL);
    MG_CHECK(mish_grad_v2_kernels_for("bogus") == NULL);
    MG_CHECK(mish_grad_v2_kernels_for("") == NULL);
    MG_CHECK(mish_kernels_for(NULL) == NULL);
    MG_CHECK(mish_kernels_for("bogus") == NULL);
    for (size_t i = 0; i < sizeof kt_isa_names / sizeof kt_isa_names[0]; i++) {
        const char *name = kt_isa_names[i];
        const mish_grad_v2_kernels *b = mish_grad_v2_kernels_for(name);
        const mish_kernels *f = mish_kernels_for(name);
        /* a table exactly where the CPU has the ISA */
        MG_CHECK((b != NULL) == kt_cpu_has_isa(name));
        MG_CHECK((f != NULL) == kt_cpu_has_isa(name));
        if (b) {
            MG_CHECK(strcmp(b->isa, name) == 0);
            MG_CHECK(b->f32 && b->f16 && b->bf16 && b->f32_stream && b->f16_stream && b->bf16_stream);
        }
        if (f) {
            MG_CHECK(strcmp(f->isa, name) == 0);
            MG_CHECK(f->f32 && f->f16 && f->bf16 && f->f32_stream && f->f16_stream && f->bf16_stream);
        }
    }
    MG_CHECK(strcmp(mish_kernels_for("auto")->isa, kt_cpu_best_isa()) == 0);
}

MG_TEST_MAIN()
