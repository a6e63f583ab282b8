/*
 * tests/kernel/test_kernel_dispatch.c: the dispatcher. Run once per MISHGRAD_ISA setting
 * (CTest sets it); the first call races from several threads and all must get one table.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test_util.h"
#include "mg_test.h"

static void *get_kernels(void *unused) {
    (void)unused;
    return (void *)mish_grad_v2_kernels_get();
}

MG_TEST(first_call_from_many_threads_agrees_and_honours_override) {
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    void *results[THREADS];
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_create(&threads[i], NULL, get_kernels, NULL) == 0);
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_join(threads[i], &results[i]) == 0);
    for (int i = 1; i < THREADS; i++) MG_CHECK(results[i] == results[0]);
    const mish_grad_v2_kernels *chosen = mish_grad_v2_kernels_get();
    MG_CHECK(chosen == results[0]);

    const char *wanted = getenv("MISHGRAD_ISA");
    const mish_grad_v2_kernels *best = mish_grad_v2_kernels_for("auto");
    const mish_grad_v2_kernels *named = wanted ? mish_grad_v2_kernels_for(wanted) : NULL;
    /* a known, available ISA is taken as asked; anything else gets the best one */
    const mish_grad_v2_kernels *expected = named != NULL ? named : best;
    printf("  MISHGRAD_ISA=%s -> %s (best here: %s)\n", wanted ? wanted : "(unset)", chosen->isa, best->isa);
    MG_CHECK(chosen == expected);
    if (wanted && strcmp(wanted, "scalar") == 0) MG_CHECK_STR_CONTAINS(chosen->isa, "scalar");
}

MG_TEST(tables_by_name) {
    MG_CHECK(mish_grad_v2_kernels_for(NULL) == NULL);
    MG_CHECK(mish_grad_v2_kernels_for("bogus") == NULL);
    MG_CHECK(mish_grad_v2_kernels_for("") == NULL);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    MG_CHECK(scalar != NULL);
    if (scalar) MG_CHECK(strcmp(scalar->isa, "scalar") == 0);
    for (size_t i = 0; i < sizeof kt_isa_names / sizeof kt_isa_names[0]; i++) {
        const mish_grad_v2_kernels *t = mish_grad_v2_kernels_for(kt_isa_names[i]);
        if (t == NULL) continue;
        MG_CHECK(strcmp(t->isa, kt_isa_names[i]) == 0);
        MG_CHECK(t->f32 != NULL && t->f16 != NULL && t->bf16 != NULL);
    }
#if defined(__x86_64__)
    /* every x86-64 CPU this project targets has AVX2; the test machine has AVX-512 too */
    printf("  avx2: %s, avx512: %s\n", mish_grad_v2_kernels_for("avx2") ? "yes" : "no",
           mish_grad_v2_kernels_for("avx512") ? "yes" : "no");
#endif
}

MG_TEST_MAIN()
