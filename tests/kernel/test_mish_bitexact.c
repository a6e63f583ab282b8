/*
 * tests/kernel/test_mish_bitexact.c: every ISA path of the Mish forward gives the scalar
 * path's bits, for all three dtypes: every 16-bit pattern, every 1021st float32 pattern
 * (all signs, exponents, NaN and inf encodings), dense windows around each point where
 * the kernel changes formula, special values. With MISHGRAD_ISA=<isa> only that ISA is
 * compared (and the test is skipped where the CPU lacks it).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kt_mish.h"
#include "kt_cpu.h"
#include "mg_test.h"
#include "mish_ranges.h"

KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

static int compared;

static void expect_same_bits(int dtype, const void *x, size_t n, const char *what) {
    const mish_kernels *tables[6];
    const size_t count = kt_mish_tables(tables, 6);
    const size_t es = kt_dtype_size(dtype), bytes = n * es;
    unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    MG_CHECK(want != NULL && got != NULL);
    const mish_kernels *scalar = mish_kernels_for("scalar");
    if (want && got) {
        kt_mish_fn(scalar, dtype)(x, want, n);
        for (size_t t = 0; t < count; t++) {
            if (tables[t] == scalar) continue;
            compared++;
            kt_mish_fn(tables[t], dtype)(x, got, n);
            mg_checks_done++;
            if (memcmp(want, got, bytes) == 0) continue;
            for (size_t i = 0; i < n; i++) {
                if (memcmp(want + i * es, got + i * es, es) == 0) continue;
                uint32_t xw = 0, ww = 0, hw = 0;
                memcpy(&xw, (const unsigned char *)x + i * es, es);
                memcpy(&ww, want + i * es, es);
                memcpy(&hw, got + i * es, es);
                MG_FAIL("%s %s %s[%zu]: x=0x%08x scalar 0x%08x, %s 0x%08x", tables[t]->isa, kt_dtype_name(dtype), what,
                        i, xw, ww, tables[t]->isa, hw);
                break;
            }
        }
    }
    free(want);
    free(got);
}

MG_TEST(every_16bit_pattern) {
    static uint16_t x[65536];
    for (uint32_t i = 0; i < 65536; i++) x[i] = (uint16_t)i;
    expect_same_bits(1, x, 65536, "all f16");
    expect_same_bits(2, x, 65536, "all bf16");
}

MG_TEST(f32_strided_bit_space) {
    const size_t n = (size_t)((1ull << 32) / 1021) + 1;
    float *x = malloc(n * 4);
    MG_CHECK(x != NULL);
    if (x == NULL) return;
    for (size_t i = 0; i < n; i++) x[i] = kt_float((uint32_t)(i * 1021u));
    expect_same_bits(0, x, n, "stride 1021");
    free(x);
}

MG_TEST(f32_dense_windows) {
    static const float centres[] = {-110.0f, -108.7f, -103.97f, -87.34f, -80.0f, -40.0f, -20.0f, -2.0f, -1.1924f,
                                    -0.3f,   0.0f,    0.625f,   1.0f,    9.0f,   20.0f,  1e-30f, -1e-30f};
    enum { HALF = 32768 };
    static float x[2 * HALF];
    const size_t own = sizeof centres / sizeof centres[0];
    for (size_t c = 0; c < own + MISH_FWD_TABLE_EDGE_COUNT; c++) {
        const float centre = c < own ? centres[c] : mish_fwd_table_edges[c - own];
        int64_t o = (int64_t)(kt_bits(centre) & 0x7FFFFFFFu);
        if (kt_bits(centre) >> 31) o = -o;
        for (int64_t i = 0; i < 2 * HALF; i++) {
            const int64_t k = o - HALF + i;
            x[i] = k < 0 ? kt_float(0x80000000u | (uint32_t)(-k)) : kt_float((uint32_t)k);
        }
        expect_same_bits(0, x, 2 * HALF, "dense window");
    }
}

MG_TEST(f32_special_values_in_every_lane) {
    static const float specials[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MAX, -FLT_MAX,
                                     INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 20.0f, -80.0f, -110.0f, 88.7f};
    enum { S = sizeof specials / sizeof specials[0] };
    /* each special at each position of a run of ordinary values, so every lane of every
       vector width meets the tail path beside fast-path neighbours */
    enum { RUN = 67 };
    static float x[S * RUN];
    for (size_t s = 0; s < S; s++)
        for (size_t i = 0; i < RUN; i++) x[s * RUN + i] = (i % 17 == s % 17) ? specials[s] : -3.0f + 0.1f * (float)i;
    expect_same_bits(0, x, S * RUN, "specials");
    const float sig[4] = {kt_float(0x7F800001u), 1.0f, kt_float(0xFFA00000u), -2.0f};
    expect_same_bits(0, sig, 4, "signalling NaN");
}

MG_TEST(something_was_compared) {
    /* with MISHGRAD_ISA=<isa> set, that ISA's table must have been compared */
    const char *wanted = getenv("MISHGRAD_ISA");
    if (wanted != NULL && strcmp(wanted, "scalar") != 0 && strcmp(wanted, "auto") != 0) MG_CHECK(compared > 0);
    printf("  %d comparisons against scalar\n", compared);
}

MG_TEST_MAIN()
