/*
 * tests/kernel/test_mish_kernel.c: the Mish forward kernel (mish_kernels_get(), the ISA
 * MISHGRAD_ISA asks for; skipped when the CPU lacks it) against the one reference of
 * reference/mish_reference.h, with its one tolerance rule:
 *   float32: at most 2 ulp (goal 1) on a sample of every binade and dense windows around
 *            every point where the kernel changes formula (the exhaustive run over every
 *            float32 is tools/mishgrad_sweep --op mish, recorded in docs/accuracy.md);
 *   float16, bfloat16: every input within 1 ulp of the correctly rounded result, and at
 *            least 99.9% of them correctly rounded;
 *   special values as PyTorch's F.mish gives them, bit for bit.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kt_mish.h"
#include "kt_cpu.h"
#include "mg_test.h"
#include "mish_ranges.h"
#include "mish_reference.h"

KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

static const mish_kernels *kernels(void) { return mish_kernels_get(); }

typedef struct {
    double worst;
    float worst_x;
    long checked, over_one;
} f32_stats;

static void check_f32(const float *x, size_t n, f32_stats *st, const char *what) {
    float *y = malloc(n * sizeof *y);
    MG_CHECK(y != NULL);
    if (y == NULL) return;
    kernels()->f32(x, y, n);
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double err = mish_ref_fwd_ulp_err_ld(y[i], x[i]);
        st->checked++;
        st->over_one += err > 1.0;
        if (!(err <= st->worst)) { st->worst = err; st->worst_x = x[i]; }
        if (!(err <= 2.0) && bad++ < 5)
            MG_FAIL("%s (%s): x=%a gave %a, exact %.12Lg: %.3f ulp", what, kernels()->isa, (double)x[i],
                    (double)y[i], mish_ref_fwd_ld(x[i]), err);
    }
    mg_checks_done++;
    free(y);
}

static float from_key(int64_t key) {
    return kt_float(key >= 0 ? (uint32_t)key : (0x80000000u | (uint32_t)(-key - 1)));
}
static int64_t key_of(float f) {
    const uint32_t b = kt_bits(f);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7FFFFFFFu) - 1 : (int64_t)b;
}

MG_TEST(f32_sample_of_every_binade_within_two_ulp) {
    const size_t cap = (size_t)(0x100000000ull / 509) + 2;
    float *x = malloc(cap * sizeof *x);
    MG_CHECK(x != NULL);
    if (x == NULL) return;
    size_t n = 0;
    for (uint64_t u = 3; u < 0x100000000ull; u += 509) {
        const float v = kt_float((uint32_t)u);
        if (isfinite(v)) x[n++] = v;
    }
    f32_stats st = {0};
    check_f32(x, n, &st, "every 509th float32");
    printf("  every 509th float32 (%ld): worst %.3f ulp at x=%a, %ld over 1 ulp\n", st.checked, st.worst,
           (double)st.worst_x, st.over_one);
    MG_CHECK(st.checked > 8000000);
    free(x);
}

/* 2^15 consecutive floats around each point where the kernel changes formula or the
   float32 arithmetic changes character */
MG_TEST(f32_windows_within_two_ulp) {
    static const float centres[] = {-110.0f, -108.7f, -103.97f, -87.34f, -80.0f, -20.0f, -2.0f, -1.1924f,
                                    -0.3f,   -0.0f,   0.0f,     0.625f,  1.0f,   9.0f,   20.0f, 88.7f};
    enum { HALF = 16384 };
    static float x[2 * HALF];
    f32_stats st = {0};
    const size_t own = sizeof centres / sizeof centres[0];
    for (size_t c = 0; c < own + MISH_FWD_TABLE_EDGE_COUNT; c++) {
        const int64_t k = key_of(c < own ? centres[c] : mish_fwd_table_edges[c - own]);
        for (int64_t i = 0; i < 2 * HALF; i++) x[i] = from_key(k - HALF + i);
        check_f32(x, 2 * HALF, &st, "window");
    }
    printf("  windows (%ld): worst %.3f ulp at x=%a, %ld over 1 ulp\n", st.checked, st.worst, (double)st.worst_x,
           st.over_one);
}

/* PyTorch's x * tanh(log1p(exp(x))) for the special values, bit for bit where it defines
   the bits; NaN results are the canonical quiet NaN */
MG_TEST(special_values_as_pytorch) {
    const float sub = 0x1.234p-130f;
    const struct { float x; uint32_t want; } cases[] = {
        {INFINITY, 0x7F800000u}, {-INFINITY, 0x7FC00000u}, {NAN, 0x7FC00000u}, {-NAN, 0x7FC00000u},
        {kt_float(0x7F800001u), 0x7FC00000u}, /* signalling */
        {0.0f, 0x00000000u}, {-0.0f, 0x80000000u}, {FLT_MAX, 0x7F7FFFFFu}, {-FLT_MAX, 0x80000000u},
        {100.0f, 0x42C80000u}, {20.0f, 0x41A00000u}, {-200.0f, 0x80000000u}, {-1e30f, 0x80000000u},
        {-120.0f, 0x80000000u}, {FLT_TRUE_MIN, 0x00000001u}, {-FLT_TRUE_MIN, 0x80000001u},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    float x[N], y[N];
    for (size_t i = 0; i < N; i++) x[i] = cases[i].x;
    kernels()->f32(x, y, N);
    for (size_t i = 0; i < N; i++) {
        mg_checks_done++;
        if (kt_bits(y[i]) != cases[i].want)
            MG_FAIL("mish(%a) gave 0x%08x, want 0x%08x", (double)x[i], kt_bits(y[i]), cases[i].want);
    }
    /* subnormal x: 0.6 x, rounded once */
    float xs[2] = {sub, -sub}, ys[2];
    kernels()->f32(xs, ys, 2);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(ys[0], xs[0]) <= 0.5);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(ys[1], xs[1]) <= 0.5);
    /* the same through the 16-bit tiles */
    const uint16_t hx[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0000, 0x8000, 0x7BFF, 0xFBFF};
    const uint16_t hwant[] = {0x7C00, 0x7E00, 0x7E00, 0x7E00, 0x0000, 0x8000, 0x7BFF, 0x8000};
    const uint16_t bx[] = {0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x0000, 0x8000, 0x7F7F, 0xFF7F};
    const uint16_t bwant[] = {0x7F80, 0x7FC0, 0x7FC0, 0x7FC0, 0x0000, 0x8000, 0x7F7F, 0x8000};
    uint16_t hy[8], by[8];
    kernels()->f16(hx, hy, 8);
    kernels()->bf16(bx, by, 8);
    for (int i = 0; i < 8; i++) {
        MG_CHECK_EQ_INT(hy[i], hwant[i]);
        MG_CHECK_EQ_INT(by[i], bwant[i]);
    }
}

/* The contract's reference values (PyTorch 1.13 F.mish, printed to 6 decimals) */
MG_TEST(reference_values) {
    const float x[8] = {-3, -1, -0.1f, 0, 0.2f, 1.5f, 3, 5};
    const double want[8] = {-0.145647, -0.303401, -0.056789, 0.0, 0.132599, 1.403378, 2.986535, 4.999552};
    float y[8];
    kernels()->f32(x, y, 8);
    for (int i = 0; i < 8; i++) MG_CHECK_NEAR(y[i], want[i], 1e-6);
}

static void check_16bit(int dtype) {
    enum { N = 65536 };
    static uint16_t x[N], y[N];
    for (uint32_t i = 0; i < N; i++) x[i] = (uint16_t)i;
    (dtype == 1 ? kernels()->f16 : kernels()->bf16)(x, y, N);
    const uint16_t exp_mask = dtype == 1 ? 0x7C00 : 0x7F80, quiet = dtype == 1 ? 0x0200 : 0x0040;
    long finite = 0, exact = 0, bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        const float xv = dtype == 1 ? mish_ref_f16_to_f32(x[i]) : mish_ref_bf16_to_f32(x[i]);
        const long double want = mish_ref_fwd_ld(xv);
        int near_tie = 0;
        const uint16_t want16 = dtype == 1 ? mish_ref_round_f16(want, &near_tie) : mish_ref_round_bf16(want, &near_tie);
        int32_t dist = mish_ref_bits16_distance(y[i], want16, exp_mask);
        const int y_nan = (y[i] & exp_mask) == exp_mask && (y[i] & (0x7FFF & ~exp_mask));
        if (y_nan && !(y[i] & quiet)) dist = INT32_MAX;
        if (isfinite(xv)) {
            finite++;
            exact += dist == 0 || (near_tie && dist == 1);
        }
        mg_checks_done++;
        if (dist > 1 && bad++ < 5)
            MG_FAIL("%s x=0x%04x: got 0x%04x, correctly rounded 0x%04x", kt_dtype_name(dtype), x[i], y[i], want16);
    }
    printf("  %s (%s): %ld of %ld finite inputs correctly rounded (%.4f%%), none more than 1 ulp off: %s\n",
           kt_dtype_name(dtype), kernels()->isa, exact, finite, 100.0 * (double)exact / (double)finite, bad ? "no" : "yes");
    MG_CHECK((double)exact >= 0.999 * (double)finite);
}

MG_TEST(f16_every_input_within_one_ulp) { check_16bit(1); }
MG_TEST(bf16_every_input_within_one_ulp) { check_16bit(2); }

MG_TEST(table_is_the_requested_isa) {
    const char *wanted = getenv("MISHGRAD_ISA");
    const char *expect = (wanted == NULL || wanted[0] == '\0' || strcmp(wanted, "auto") == 0) ? kt_cpu_best_isa() : wanted;
    MG_CHECK_STR_CONTAINS(kernels()->isa, expect);
    MG_CHECK(strcmp(kernels()->isa, expect) == 0);
}

MG_TEST_MAIN()
