/*
 * tests/kernel/test_mish_loops.c: the loop structure of every ISA path of the Mish
 * forward, value by value against the scalar path: every size from 0 to three 16-lane
 * vectors + 1, out of place and in place, with inputs and output ending right before an
 * inaccessible page (touching element n faults); lanes that leave the fast path (NaN,
 * infinities, the far tail) at every position of a pipeline pair; the streaming tiles at
 * every element offset 0..15 from a 64-byte boundary (aligned: streamed stores; others: the
 * cached fallback), with canaries on both sides, at sizes around every loop boundary and
 * at 2^20 + 3 elements.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kt_mish.h"
#include "mg_test.h"

enum { MAX_N = 3 * 16 + 1 };

/* x over [-120, 30] (every formula region and the tail), a special value at every 13th */
static void fill(int dtype, void *x, size_t n, uint32_t seed) {
    static const float specials[] = {NAN, INFINITY, -INFINITY, -100.0f, 25.0f, -0.0f, -80.5f};
    uint32_t st = seed | 1u;
    for (size_t i = 0; i < n; i++) {
        float v = -120.0f + 150.0f * (float)(kt_next(&st) % 100000u) / 100000.0f;
        if (i % 13 == 7) v = specials[(i / 13) % 7];
        if (dtype == 0) ((float *)x)[i] = v;
        else if (dtype == 2) ((uint16_t *)x)[i] = (uint16_t)(kt_bits(v) >> 16);
        else ((uint16_t *)x)[i] = (uint16_t)(kt_next(&st) & 0xFFFFu);
    }
}

/* x mostly in [-8, 8] (the fast path), with the lanes in `at` outside it */
static void fill_mostly_fast(int dtype, void *x, size_t n, uint32_t seed, const size_t *at, size_t count) {
    static const float specials[] = {NAN, INFINITY, -INFINITY, -85.0f, -100.0f, -81.0f};
    uint32_t st = seed | 1u;
    for (size_t i = 0; i < n; i++) {
        float v = -8.0f + 16.0f * (float)(kt_next(&st) % 100000u) / 100000.0f;
        for (size_t k = 0; k < count; k++)
            if (at[k] == i) v = specials[k % 6];
        if (dtype == 0) ((float *)x)[i] = v;
        else if (dtype == 2) ((uint16_t *)x)[i] = (uint16_t)(kt_bits(v) >> 16);
        else ((uint16_t *)x)[i] = isnan(v) ? 0x7E00 : isinf(v) ? (v > 0 ? 0x7C00 : 0xFC00) : (uint16_t)(kt_next(&st) % 0x4C00u);
    }
}

static void check_sizes(int in_place) {
    const mish_kernels *tables[6];
    const size_t count = kt_mish_tables(tables, 6);
    const mish_kernels *scalar = mish_kernels_for("scalar");
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t n = 0; n <= MAX_N; n++) {
            unsigned char x_ref[MAX_N * 4], want[MAX_N * 4];
            fill(dtype, x_ref, n, (uint32_t)(n * 7919u + (unsigned)dtype));
            kt_mish_fn(scalar, dtype)(x_ref, want, n);
            for (size_t t = 0; t < count; t++) {
                kt_fenced x, out;
                if (kt_fenced_alloc(&x, n * es) || kt_fenced_alloc(&out, n * es)) {
                    MG_FAIL("mmap failed");
                    return;
                }
                memcpy(x.data, x_ref, n * es);
                void *dst = in_place ? (void *)x.data : (void *)out.data;
                kt_mish_fn(tables[t], dtype)(x.data, dst, n);
                mg_checks_done++;
                if (memcmp(dst, want, n * es) != 0)
                    MG_FAIL("%s %s n=%zu %s: output differs from scalar", tables[t]->isa, kt_dtype_name(dtype), n,
                            in_place ? "in place" : "out of place");
                if (!in_place) MG_CHECK(memcmp(x.data, x_ref, n * es) == 0);
                kt_fenced_free(&x);
                kt_fenced_free(&out);
            }
        }
    }
}

MG_TEST(sizes_out_of_place) { check_sizes(0); }
MG_TEST(sizes_in_place) { check_sizes(1); }

/* one lane outside the fast path at every position 0..63 of a 64-element call (every lane
   of every pair of every vector width), and a few scattered in longer calls */
MG_TEST(tail_lanes_at_every_position) {
    const mish_kernels *tables[6];
    const size_t count = kt_mish_tables(tables, 6);
    const mish_kernels *scalar = mish_kernels_for("scalar");
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t n = 64; n <= 4099; n = n < 128 ? n + 61 : n * 4 + 3) {
            for (size_t pos = 0; pos < 64; pos++) {
                unsigned char *x = malloc(n * es), *want = malloc(n * es), *got = malloc(n * es);
                MG_CHECK(x && want && got);
                if (x && want && got) {
                    size_t at[3] = {pos, n - 1 - pos, (pos * 977u) % n};
                    fill_mostly_fast(dtype, x, n, (uint32_t)(pos + 31u * n), at, 3);
                    kt_mish_fn(scalar, dtype)(x, want, n);
                    for (size_t t = 0; t < count; t++) {
                        memcpy(got, x, n * es);
                        kt_mish_fn(tables[t], dtype)(got, got, n); /* in place */
                        mg_checks_done++;
                        if (memcmp(got, want, n * es) != 0)
                            MG_FAIL("%s %s n=%zu special lane at %zu: differs from scalar", tables[t]->isa,
                                    kt_dtype_name(dtype), n, pos);
                    }
                }
                free(x); free(want); free(got);
            }
        }
    }
}

/* The streaming tiles: `out` at element offset 0..15 from a 64-byte boundary, out of place
   and in place (x at the same offset), canaries before and after */
static void check_streaming(size_t n, int dtype, uint32_t seed) {
    enum { CANARY = 64 };
    const mish_kernels *tables[6];
    const size_t count = kt_mish_tables(tables, 6);
    const mish_kernels *scalar = mish_kernels_for("scalar");
    const size_t es = kt_dtype_size(dtype);
    const size_t bytes = ((n + 16) * es + 2 * CANARY + 63) / 64 * 64;
    unsigned char *x_ref = malloc(n * es + 1), *want = malloc(n * es + 1);
    unsigned char *x = aligned_alloc(64, bytes), *out = aligned_alloc(64, bytes);
    MG_CHECK(x_ref && want && x && out);
    if (x_ref && want && x && out) {
        size_t at[6];
        uint32_t st = seed | 1u;
        for (size_t k = 0; k < 6; k++) at[k] = n ? kt_next(&st) % n : 0;
        fill_mostly_fast(dtype, x_ref, n, seed, at, n > 100 ? 6 : 0);
        kt_mish_fn(scalar, dtype)(x_ref, want, n);
        for (size_t t = 0; t < count; t++) {
            for (size_t offset = 0; offset < 16; offset++) {
#if defined(KT_EMULATED)
                if (n > 100000 && offset != 0 && offset != 4 && offset != 15) continue;
#endif
                for (int in_place = 0; in_place < 2; in_place++) {
                    unsigned char *buf = in_place ? x : out;
                    memset(out, 0xA5, bytes);
                    memset(x, 0x5A, bytes);
                    unsigned char *src = x + CANARY + offset * es;
                    unsigned char *dst = buf + CANARY + offset * es;
                    memcpy(src, x_ref, n * es);
                    kt_mish_fn_stream(tables[t], dtype)(src, dst, n);
                    mg_checks_done++;
                    if (memcmp(dst, want, n * es) != 0)
                        MG_FAIL("%s %s n=%zu offset %zu %s: streaming tile differs from scalar", tables[t]->isa,
                                kt_dtype_name(dtype), n, offset, in_place ? "in place" : "out of place");
                    const unsigned char fillc = in_place ? 0x5A : 0xA5;
                    int intact = 1;
                    for (unsigned char *q = buf; q < dst; q++) intact &= *q == fillc;
                    for (unsigned char *q = dst + n * es; q < buf + bytes; q++) intact &= *q == fillc;
                    mg_checks_done++;
                    if (!intact)
                        MG_FAIL("%s %s n=%zu offset %zu %s: bytes outside the output changed", tables[t]->isa,
                                kt_dtype_name(dtype), n, offset, in_place ? "in place" : "out of place");
                    if (!in_place) MG_CHECK(memcmp(src, x_ref, n * es) == 0);
                }
            }
        }
    }
    free(x_ref); free(want); free(x); free(out);
}

MG_TEST(streaming_every_offset_small_sizes) {
    static const size_t sizes[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 129, 1000};
    for (int dtype = 0; dtype < 3; dtype++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_streaming(sizes[i], dtype, (uint32_t)(i + 9u));
}

MG_TEST(streaming_every_offset_large) {
    for (int dtype = 0; dtype < 3; dtype++) check_streaming((1u << 20) + 3, dtype, 77u);
}

MG_TEST_MAIN()
