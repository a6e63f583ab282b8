/*
 * tests/kernel/test_kernel_bitexact.c: every ISA path this CPU runs gives the scalar path's
 * bits, for all three dtypes: every 16-bit pattern (as x and as g), a few million float32
 * patterns (a stride through the whole bit space, dense windows around the hard points,
 * special values), with gradients of every kind.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test_util.h"
#include "kt_cpu.h"
#include "mg_test.h"

/* With MISHGRAD_ISA=<isa> only that ISA is compared, skipped where the CPU lacks it */
KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

/* Runs f on (g, x) with every table and compares with the scalar table's output. */
static void expect_same_bits(int dtype, const void *g, const void *x, size_t n, const char *what) {
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const size_t bytes = n * kt_dtype_size(dtype);
    unsigned char *want = malloc(bytes), *got = malloc(bytes);
    MG_CHECK(want != NULL && got != NULL);
    if (want == NULL || got == NULL) goto done;
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    kt_fn(scalar, dtype)(g, x, want, n);
    for (size_t t = 0; t < count; t++) {
        if (tables[t] == scalar) continue;
        kt_fn(tables[t], dtype)(g, x, got, n);
        mg_checks_done++;
        if (memcmp(want, got, bytes) == 0) continue;
        const size_t es = kt_dtype_size(dtype);
        for (size_t i = 0; i < n; i++) {
            if (memcmp(want + i * es, got + i * es, es) == 0) continue;
            uint32_t gw = 0, xw = 0, ww = 0, hw = 0;
            memcpy(&gw, (const unsigned char *)g + i * es, es);
            memcpy(&xw, (const unsigned char *)x + i * es, es);
            memcpy(&ww, want + i * es, es);
            memcpy(&hw, got + i * es, es);
            MG_FAIL("%s %s %s[%zu]: g=0x%08x x=0x%08x scalar 0x%08x, %s 0x%08x", tables[t]->isa,
                    kt_dtype_name(dtype), what, i, gw, xw, ww, tables[t]->isa, hw);
            break;
        }
    }
done:
    free(want);
    free(got);
}

static const uint16_t f16_grads[] = {0x3C00, 0xC100, 0x2E66, 0x7BFF, 0x0001, 0x8400, 0x7C00, 0xFC00, 0x7E00, 0x0000};
static const uint16_t bf16_grads[] = {0x3F80, 0xC020, 0x3DCD, 0x7F7F, 0x0001, 0x8080, 0x7F80, 0xFF80, 0x7FC0, 0x8000};

static void all_16bit_patterns(int dtype, const uint16_t *grads, size_t grad_count) {
    enum { N = 65536 };
    uint16_t *x = malloc(N * 2), *g = malloc(N * 2);
    MG_CHECK(x != NULL && g != NULL);
    if (x == NULL || g == NULL) { free(x); free(g); return; }
    for (size_t gi = 0; gi < grad_count; gi++) {
        /* every x with a fixed g ... */
        for (uint32_t i = 0; i < N; i++) { x[i] = (uint16_t)i; g[i] = grads[gi]; }
        expect_same_bits(dtype, g, x, N, "x sweep");
        /* ... and every g with a fixed x (taken from the gradient list as an input) */
        for (uint32_t i = 0; i < N; i++) { g[i] = (uint16_t)i; x[i] = grads[gi]; }
        expect_same_bits(dtype, g, x, N, "g sweep");
    }
    free(x);
    free(g);
}

MG_TEST(f16_every_pattern_matches_scalar) { all_16bit_patterns(1, f16_grads, sizeof f16_grads / 2); }
MG_TEST(bf16_every_pattern_matches_scalar) { all_16bit_patterns(2, bf16_grads, sizeof bf16_grads / 2); }

/* x values: every 1021st bit pattern (all signs, exponents, NaN and inf encodings), with
   g = 1 and with pseudo-random gradients of any exponent. */
MG_TEST(f32_strided_bit_space_matches_scalar) {
    const size_t n = (size_t)(((uint64_t)1 << 32) / 1021) + 1;
    float *x = malloc(n * 4), *g = malloc(n * 4);
    MG_CHECK(x != NULL && g != NULL);
    if (x == NULL || g == NULL) { free(x); free(g); return; }
    for (size_t i = 0; i < n; i++) { x[i] = kt_float((uint32_t)(i * 1021u)); g[i] = 1.0f; }
    expect_same_bits(0, g, x, n, "stride 1021, g=1");
    uint32_t state = 0x9E3779B9u;
    for (size_t i = 0; i < n; i++) g[i] = kt_float(kt_next(&state));
    expect_same_bits(0, g, x, n, "stride 1021, random g");
    free(x);
    free(g);
}

/* 2^17 consecutive floats centred on each point where the math changes character. */
MG_TEST(f32_dense_windows_match_scalar) {
    static const float centres[] = {-1.19243f, -87.3f, -103.0f, 0.0f, 9.0f, 16.0f, 20.0f,
                                    -0.5f, 0.5f, -110.0f, -108.7f, 1e-30f, -1e-30f};
    enum { HALF = 65536 };
    float *x = malloc(2 * HALF * 4), *g = malloc(2 * HALF * 4);
    MG_CHECK(x != NULL && g != NULL);
    if (x == NULL || g == NULL) { free(x); free(g); return; }
    uint32_t state = 12345u;
    for (size_t c = 0; c < sizeof centres / sizeof centres[0]; c++) {
        /* walk the float line through the centre (the sign-magnitude encoding walks down
           for negatives, and crosses zero from -0 to +0) */
        int64_t ordinal = (int64_t)(kt_bits(centres[c]) & 0x7FFFFFFFu);
        if (kt_bits(centres[c]) >> 31) ordinal = -ordinal;
        for (int64_t i = 0; i < 2 * HALF; i++) {
            const int64_t o = ordinal - HALF + i;
            x[i] = o < 0 ? kt_float(0x80000000u | (uint32_t)(-o)) : kt_float((uint32_t)o);
            g[i] = (i & 1) ? 1.0f : kt_float((kt_next(&state) & 0x807FFFFFu) | 0x3F000000u) * 3.0f;
        }
        expect_same_bits(0, g, x, 2 * HALF, "dense window");
    }
    free(x);
    free(g);
}

MG_TEST(f32_special_values_match_scalar) {
    static const float specials[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN,
                                     FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f,
                                     0.5f, -0.5f, 20.0f, -110.0f, 88.7f, -88.7f, 1e-7f, -1.19243f};
    enum { S = sizeof specials / sizeof specials[0] };
    float x[S * S], g[S * S];
    for (size_t i = 0; i < S; i++)
        for (size_t j = 0; j < S; j++) { x[i * S + j] = specials[i]; g[i * S + j] = specials[j]; }
    expect_same_bits(0, g, x, S * S, "specials");
    /* signalling NaNs too: the output NaN must not depend on the path either */
    const float snan = kt_float(0x7F800001u), nsnan = kt_float(0xFFA00000u);
    float x2[4] = {snan, 1.0f, nsnan, snan}, g2[4] = {1.0f, snan, 2.0f, nsnan};
    expect_same_bits(0, g2, x2, 4, "signalling NaN");
}

MG_TEST_MAIN()
