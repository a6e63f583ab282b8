/*
 * tests/kernel/test_kernel_loops.c: the loop structure of every ISA path (unrolled main
 * loop, one-vector loop, partial tail): every size from 0 to three 16-lane vectors + 1,
 * out-of-place and in-place (out == grad, out == x). Inputs and output end right before
 * an inaccessible page, so touching element n faults; a canary after a second output
 * buffer must survive. The fast path runs pairs of vectors in a software pipeline and
 * hands any pair it cannot take to the general path: sizes up to a few hundred vectors,
 * with inputs mostly on the fast path and single lanes that are not (NaN, infinities, the
 * far tail, a NaN gradient) at chosen places, check that hand-over in every position.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test_util.h"
#include "mg_test.h"

enum { MAX_N = 3 * 16 + 1, CANARY = 64 };

/* Inputs that exercise every region: x over [-120, 30] plus a few specials. */
static void fill_inputs(int dtype, void *g, void *x, size_t n, uint32_t seed) {
    uint32_t state = seed | 1u;
    for (size_t i = 0; i < n; i++) {
        const float xv = -120.0f + 150.0f * (float)(kt_next(&state) % 100000u) / 100000.0f;
        const float gv = 0.25f + (float)(kt_next(&state) % 1000u) / 250.0f;
        if (dtype == 0) {
            ((float *)x)[i] = (i % 11 == 5) ? 0.0f : xv;
            ((float *)g)[i] = gv;
        } else {
            /* 16-bit: top halves of the float (bf16 truncation) or random half patterns */
            const uint16_t xb = dtype == 2 ? (uint16_t)(kt_bits(xv) >> 16) : (uint16_t)(kt_next(&state) & 0xFFFFu);
            ((uint16_t *)x)[i] = xb;
            ((uint16_t *)g)[i] = dtype == 2 ? (uint16_t)(kt_bits(gv) >> 16) : 0x3C00u;
        }
    }
}

static void check_sizes(int in_place) {
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    MG_CHECK(scalar != NULL && count >= 1);
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t n = 0; n <= MAX_N; n++) {
            unsigned char g_ref[MAX_N * 4], x_ref[MAX_N * 4], want[MAX_N * 4];
            fill_inputs(dtype, g_ref, x_ref, n, (uint32_t)(n * 7919u + (unsigned)dtype));
            kt_fn(scalar, dtype)(g_ref, x_ref, want, n);
            for (size_t t = 0; t < count; t++) {
                kt_fenced g, x, out;
                if (kt_fenced_alloc(&g, n * es) || kt_fenced_alloc(&x, n * es) || kt_fenced_alloc(&out, n * es)) {
                    MG_FAIL("mmap failed");
                    return;
                }
                memcpy(g.data, g_ref, n * es);
                memcpy(x.data, x_ref, n * es);
                void *dst = in_place == 1 ? (void *)g.data : in_place == 2 ? (void *)x.data : (void *)out.data;
                kt_fn(tables[t], dtype)(g.data, x.data, dst, n);
                mg_checks_done++;
                if (memcmp(dst, want, n * es) != 0)
                    MG_FAIL("%s %s n=%zu %s: output differs from scalar", tables[t]->isa, kt_dtype_name(dtype), n,
                            in_place == 1 ? "out==grad" : in_place == 2 ? "out==x" : "out-of-place");
                /* the input not overwritten is left as it was */
                if (in_place != 1) MG_CHECK(memcmp(g.data, g_ref, n * es) == 0);
                if (in_place != 2) MG_CHECK(memcmp(x.data, x_ref, n * es) == 0);
                kt_fenced_free(&g);
                kt_fenced_free(&x);
                kt_fenced_free(&out);
            }
        }
    }
}

MG_TEST(sizes_out_of_place) { check_sizes(0); }
MG_TEST(sizes_in_place_out_is_grad) { check_sizes(1); }
MG_TEST(sizes_in_place_out_is_x) { check_sizes(2); }

/* x mostly in [-10, 10] (the fast path), g in [-2, 2]; then the lanes in `special_at`
   get an input the fast path must hand over. */
static void fill_mostly_fast(int dtype, void *g, void *x, size_t n, uint32_t seed, const size_t *special_at,
                             size_t special_count) {
    static const float special_x[] = {NAN, INFINITY, -INFINITY, -60.0f, -100.0f, 25.0f, -40.5f};
    uint32_t state = seed | 1u;
    for (size_t i = 0; i < n; i++) {
        float xv = -10.0f + 20.0f * (float)(kt_next(&state) % 100000u) / 100000.0f;
        float gv = -2.0f + 4.0f * (float)(kt_next(&state) % 100000u) / 100000.0f;
        for (size_t s = 0; s < special_count; s++) {
            if (special_at[s] != i) continue;
            if (s % 8 == 7) gv = NAN; /* a NaN gradient with an ordinary x */
            else xv = special_x[s % 7];
        }
        if (dtype == 0) {
            ((float *)x)[i] = xv;
            ((float *)g)[i] = gv;
        } else {
            /* bfloat16 patterns are the top halves; float16 ones are within range of half */
            const uint16_t xh = dtype == 2 ? (uint16_t)(kt_bits(xv) >> 16)
                                           : (uint16_t)((kt_bits(xv) >> 16 & 0x8000u) | (isnan(xv) ? 0x7E00u : isinf(xv) ? 0x7C00u
                                              : (uint16_t)(kt_next(&state) % 0x4C00u)));
            const uint16_t gh = dtype == 2 ? (uint16_t)(kt_bits(gv) >> 16) : (isnan(gv) ? 0x7E00u : 0xBC00u);
            ((uint16_t *)x)[i] = xh;
            ((uint16_t *)g)[i] = gh;
        }
    }
}

static void check_pipeline(int in_place) {
    static const size_t sizes[] = {64, 65, 96, 127, 128, 129, 160, 200, 257, 1000, 4099};
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            const size_t n = sizes[si];
            /* no special lane; one in the first, a middle and the last pair; one in the
               tail; several in a row; a pseudo-random scatter */
            for (int pattern = 0; pattern < 6; pattern++) {
                size_t at[12];
                size_t count_at = 0;
                if (pattern == 1) { at[0] = 3; count_at = 1; }
                if (pattern == 2) { at[0] = n / 2; count_at = 1; }
                if (pattern == 3) { at[0] = n - 1; at[1] = n - 40 < n ? n - 40 : 0; count_at = 2; }
                if (pattern == 4) for (; count_at < 8; count_at++) at[count_at] = n / 3 + 16 * count_at;
                if (pattern == 5) {
                    uint32_t st = (uint32_t)(n * 31u + (unsigned)dtype) | 1u;
                    for (; count_at < 12; count_at++) at[count_at] = kt_next(&st) % n;
                }
                unsigned char *g_ref = malloc(n * es), *x_ref = malloc(n * es), *want = malloc(n * es);
                MG_CHECK(g_ref && x_ref && want);
                if (!(g_ref && x_ref && want)) { free(g_ref); free(x_ref); free(want); return; }
                fill_mostly_fast(dtype, g_ref, x_ref, n, (uint32_t)(n + 1000u * (unsigned)pattern), at, count_at);
                kt_fn(scalar, dtype)(g_ref, x_ref, want, n);
                for (size_t t = 0; t < count; t++) {
                    kt_fenced g, x, out;
                    if (kt_fenced_alloc(&g, n * es) || kt_fenced_alloc(&x, n * es) || kt_fenced_alloc(&out, n * es)) {
                        MG_FAIL("mmap failed");
                        break;
                    }
                    memcpy(g.data, g_ref, n * es);
                    memcpy(x.data, x_ref, n * es);
                    void *dst = in_place == 1 ? (void *)g.data : in_place == 2 ? (void *)x.data : (void *)out.data;
                    kt_fn(tables[t], dtype)(g.data, x.data, dst, n);
                    mg_checks_done++;
                    if (memcmp(dst, want, n * es) != 0) {
                        size_t i = 0;
                        while (memcmp((unsigned char *)dst + i * es, want + i * es, es) == 0) i++;
                        MG_FAIL("%s %s n=%zu pattern %d %s: element %zu differs from scalar", tables[t]->isa,
                                kt_dtype_name(dtype), n, pattern,
                                in_place == 1 ? "out==grad" : in_place == 2 ? "out==x" : "out-of-place", i);
                    }
                    kt_fenced_free(&g);
                    kt_fenced_free(&x);
                    kt_fenced_free(&out);
                }
                free(g_ref);
                free(x_ref);
                free(want);
            }
        }
    }
}

MG_TEST(pipeline_hand_over_out_of_place) { check_pipeline(0); }
MG_TEST(pipeline_hand_over_out_is_grad) { check_pipeline(1); }
MG_TEST(pipeline_hand_over_out_is_x) { check_pipeline(2); }

/* Canary words after the output (and before it) stay as they were, at every offset. */
MG_TEST(canaries_around_output_untouched) {
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    for (size_t t = 0; t < count; t++) {
        for (int dtype = 0; dtype < 3; dtype++) {
            const size_t es = kt_dtype_size(dtype);
            for (size_t offset = 0; offset < 4; offset++) {
                for (size_t n = 0; n <= MAX_N; n++) {
                    unsigned char g[MAX_N * 4], x[MAX_N * 4];
                    unsigned char out[(CANARY * 2 + MAX_N + 4) * 4];
                    memset(out, 0xA5, sizeof out);
                    fill_inputs(dtype, g, x, n, (uint32_t)n + 17u);
                    unsigned char *dst = out + (CANARY + offset) * es;
                    kt_fn(tables[t], dtype)(g, x, dst, n);
                    int intact = 1;
                    for (unsigned char *p = out; p < dst; p++) intact &= *p == 0xA5;
                    for (unsigned char *p = dst + n * es; p < out + sizeof out; p++) intact &= *p == 0xA5;
                    mg_checks_done++;
                    if (!intact) MG_FAIL("%s %s n=%zu offset=%zu: canary overwritten", tables[t]->isa,
                                         kt_dtype_name(dtype), n, offset);
                }
            }
        }
    }
}

/* The streaming tiles give the scalar path's bits: `out` on a 64-byte boundary (streamed
   stores) and one element off it (the cached fallback), out-of-place and in place, sizes
   around every loop boundary, with lanes the fast path hands over; the words after the
   output stay as they were. */
MG_TEST(streaming_tiles_match_scalar) {
    static const size_t sizes[] = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 65, 127, 128, 129, 257, 1000, 4099};
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            const size_t n = sizes[si];
            const size_t bytes = ((n + CANARY) * es + 64 + 63) / 64 * 64; /* aligned_alloc: a multiple of 64 */
            unsigned char *g_ref = malloc(n * es + 1), *x_ref = malloc(n * es + 1), *want = malloc(n * es + 1);
            unsigned char *g = aligned_alloc(64, bytes), *x = aligned_alloc(64, bytes), *out = aligned_alloc(64, bytes);
            MG_CHECK(g_ref && x_ref && want && g && x && out);
            if (g_ref && x_ref && want && g && x && out) {
                size_t at[6];
                uint32_t st = (uint32_t)(n * 13u + (unsigned)dtype) | 1u;
                for (size_t k = 0; k < 6; k++) at[k] = n ? kt_next(&st) % n : 0;
                fill_mostly_fast(dtype, g_ref, x_ref, n, (uint32_t)n + 5u, at, n > 100 ? 6 : 0);
                kt_fn(scalar, dtype)(g_ref, x_ref, want, n);
                for (size_t t = 0; t < count; t++) {
                    for (int mode = 0; mode < 4; mode++) { /* 0 aligned, 1 misaligned, 2 out==g, 3 out==x */
                        memset(out, 0xA5, bytes);
                        memcpy(g, g_ref, n * es);
                        memcpy(x, x_ref, n * es);
                        unsigned char *dst = mode == 0 ? out : mode == 1 ? out + es : mode == 2 ? g : x;
                        kt_fn_stream(tables[t], dtype)(g, x, dst, n);
                        mg_checks_done++;
                        if (memcmp(dst, want, n * es) != 0)
                            MG_FAIL("%s %s n=%zu mode %d: streaming tile differs from scalar", tables[t]->isa,
                                    kt_dtype_name(dtype), n, mode);
                        if (mode <= 1) {
                            int intact = 1;
                            for (unsigned char *q = dst + n * es; q < out + bytes; q++) intact &= *q == 0xA5;
                            if (mode == 1) intact &= out[0] == 0xA5;
                            mg_checks_done++;
                            if (!intact)
                                MG_FAIL("%s %s n=%zu mode %d: bytes outside the output changed", tables[t]->isa,
                                        kt_dtype_name(dtype), n, mode);
                        }
                    }
                }
            }
            free(g_ref); free(x_ref); free(want);
            free(g); free(x); free(out);
        }
    }
}

/* A large odd size: all three loops in one call, compared with scalar. */
MG_TEST(large_odd_size) {
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    const size_t n = 100003;
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        unsigned char *g = malloc(n * es), *x = malloc(n * es), *want = malloc(n * es), *got = malloc(n * es);
        MG_CHECK(g && x && want && got);
        if (g && x && want && got) {
            fill_inputs(dtype, g, x, n, 99u);
            kt_fn(scalar, dtype)(g, x, want, n);
            for (size_t t = 0; t < count; t++) {
                kt_fn(tables[t], dtype)(g, x, got, n);
                mg_checks_done++;
                if (memcmp(want, got, n * es) != 0) MG_FAIL("%s %s n=%zu differs", tables[t]->isa, kt_dtype_name(dtype), n);
            }
        }
        free(g); free(x); free(want); free(got);
    }
}

/* The streaming tiles with `out` (and, in place, grad or x) at every element offset 0..15
   from a 64-byte boundary, canaries on both sides, at 1000 and 2^20 + 3 elements: an
   alignment fallback that tested 16 bytes instead of 64 streams to a misaligned address
   and faults at offset 4. */
static void streaming_offsets(size_t n, int dtype) {
    enum { CANARY = 64 };
    const mish_grad_v2_kernels *tables[6];
    const size_t count = kt_tables(tables, 6);
    const mish_grad_v2_kernels *scalar = mish_grad_v2_kernels_for("scalar");
    const size_t es = kt_dtype_size(dtype);
    const size_t bytes = ((n + 16) * es + 2 * CANARY + 63) / 64 * 64;
    unsigned char *g_ref = malloc(n * es), *x_ref = malloc(n * es), *want = malloc(n * es);
    unsigned char *g = aligned_alloc(64, bytes), *x = aligned_alloc(64, bytes), *out = aligned_alloc(64, bytes);
    MG_CHECK(g_ref && x_ref && want && g && x && out);
    if (g_ref && x_ref && want && g && x && out) {
        size_t at[6];
        uint32_t st = (uint32_t)n | 1u;
        for (size_t k = 0; k < 6; k++) at[k] = kt_next(&st) % n;
        fill_mostly_fast(dtype, g_ref, x_ref, n, (uint32_t)n + 3u, at, 6);
        kt_fn(scalar, dtype)(g_ref, x_ref, want, n);
        for (size_t t = 0; t < count; t++) {
            for (size_t offset = 0; offset < 16; offset++) {
#if defined(KT_EMULATED)
                if (n > 100000 && offset != 0 && offset != 4 && offset != 15) continue;
#endif
                for (int mode = 0; mode < 2; mode++) { /* 0: out of place, 1: out == grad */
                    memset(out, 0xA5, bytes);
                    memset(g, 0x5A, bytes);
                    unsigned char *gp = g + CANARY + offset * es, *xp = x + CANARY + offset * es;
                    memcpy(gp, g_ref, n * es);
                    memcpy(xp, x_ref, n * es);
                    unsigned char *buf = mode ? g : out, *dst = buf + CANARY + offset * es;
                    kt_fn_stream(tables[t], dtype)(gp, xp, dst, n);
                    mg_checks_done++;
                    if (memcmp(dst, want, n * es) != 0)
                        MG_FAIL("%s %s n=%zu offset %zu mode %d: streaming tile differs from scalar", tables[t]->isa,
                                kt_dtype_name(dtype), n, offset, mode);
                    const unsigned char fillc = mode ? 0x5A : 0xA5;
                    int intact = 1;
                    for (unsigned char *q = buf; q < dst; q++) intact &= *q == fillc;
                    for (unsigned char *q = dst + n * es; q < buf + bytes; q++) intact &= *q == fillc;
                    mg_checks_done++;
                    if (!intact)
                        MG_FAIL("%s %s n=%zu offset %zu mode %d: bytes outside the output changed", tables[t]->isa,
                                kt_dtype_name(dtype), n, offset, mode);
                }
            }
        }
    }
    free(g_ref); free(x_ref); free(want); free(g); free(x); free(out);
}

MG_TEST(streaming_every_offset) {
    for (int dtype = 0; dtype < 3; dtype++) {
        streaming_offsets(1000, dtype);
        streaming_offsets((1u << 20) + 3, dtype);
    }
}

MG_TEST_MAIN()
