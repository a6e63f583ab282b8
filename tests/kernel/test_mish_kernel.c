/*
 * tests/kernel/test_mish_kernel.c: the Mish forward kernel table: every ISA's table is
 * complete and named, PyTorch's special values, and a sample against a long double
 * reference written from the definition (x * tanh(log1p(exp(x)))).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test_util.h"
#include "mg_test.h"
#include "mish_isa.h"

static long double mish_ld(long double x) { return x * tanhl(log1pl(expl(x))); }

MG_TEST(tables_complete_and_named) {
    const mish_kernels *k = mish_kernels_get();
    MG_CHECK(k != NULL);
    if (k == NULL) return;
    MG_CHECK(k->f32 && k->f16 && k->bf16 && k->f32_stream && k->f16_stream && k->bf16_stream);
    MG_CHECK(mish_kernels_for("scalar") != NULL);
    MG_CHECK(mish_kernels_for("bogus") == NULL);
    MG_CHECK(strcmp(k->isa, mish_grad_v2_kernels_get()->isa) == 0);
}

MG_TEST(special_values_as_pytorch) {
    const float x[] = {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 100.0f, FLT_MAX, -FLT_MAX, -200.0f};
    enum { N = sizeof x / sizeof x[0] };
    float y[N];
    mish_kernels_get()->f32(x, y, N);
    MG_CHECK(y[0] == INFINITY);
    MG_CHECK(isnan(y[1]));
    MG_CHECK(isnan(y[2]));
    MG_CHECK(kt_bits(y[3]) == 0x00000000u);
    MG_CHECK(kt_bits(y[4]) == 0x80000000u);
    MG_CHECK(y[5] == 100.0f);
    MG_CHECK(y[6] == FLT_MAX);
    MG_CHECK(kt_bits(y[7]) == 0x80000000u);
    MG_CHECK(kt_bits(y[8]) == 0x80000000u);
}

MG_TEST(sample_within_two_ulp_in_place) {
    enum { N = 20001 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = y[i] = -100.0f + (float)i * 0.01f;
    mish_kernels_get()->f32(y, y, N);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        const long double want = mish_ld(x[i]);
        const long double ulp = ldexpl(1.0L, (fabsl(want) < 0x1p-126L ? -126 : ilogbl(want)) - 23);
        const double err = (double)(fabsl((long double)y[i] - want) / ulp);
        if (err > worst) worst = err;
    }
    printf("  worst %.3f ulp\n", worst);
    MG_CHECK(worst <= 2.0);
}

MG_TEST_MAIN()
