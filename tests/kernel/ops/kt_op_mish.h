/*
 * tests/kernel/ops/kt_op_mish.h: the Mish forward kernel (op_kernel/mish_kernel.h:
 * out = x tanh(softplus(x))) as the kernel tester sees it: its tables, its input (x) and its
 * own tests; the shared suites are kernel_tester.c's.
 *
 * accuracy (on each ISA's table), against the one reference of reference/mish_reference.h,
 * with its one tolerance rule:
 *   float32: at most 2 ulp (goal 1) on a sample of every binade and dense windows around
 *            every point where the kernel changes formula (the exhaustive run over every
 *            float32 is tools/mishgrad_sweep --op mish, recorded in docs/accuracy.md);
 *   float16, bfloat16: every input within 1 ulp of the correctly rounded result, and at
 *            least 99.9% of them correctly rounded;
 *   special values as PyTorch's F.mish gives them, bit for bit.
 * bitexact: special values at every lane position (the rest is shared). loops: lanes that
 * leave the fast path (NaN, infinities, the far tail) at every position of a pipeline pair.
 * Its 16-bit tiles are lookups (kernel_ops.inc: lookup16): the table16 suite runs.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "mish_kernel.h"
#define MG_KERNEL_OP mish
#include "kernel_tables.h"
#undef MG_KERNEL_OP
#include "mish_ranges.h"
#include "mish_reference.h"

KT_OP_FUNCTIONS(mish)
static void kt_mish_run(const void *t, int dtype, int streamed, const void *const *in, void *out, size_t n) {
    KT_OP_TILE_((const mish_kernels *)t, dtype, streamed)(in[0], out, n);
}
static void kf_evaluated(const void *t, int dtype, int streamed, const void *const *in, void *out, size_t n) {
    (void)streamed;
    const mish_kernels *k = t;
    (dtype == 1 ? k->f16_evaluated : k->bf16_evaluated)(in[0], out, n);
}

/* ---- accuracy ------------------------------------------------------------------------ */

static const mish_kernels *kf_kernels(void) { return kt_table(); }

typedef struct {
    double worst;
    float worst_x;
    long checked, over_one;
} kf_f32_stats;

static void kf_check_f32(const float *x, size_t n, kf_f32_stats *st, const char *what) {
    float *y = malloc(n * sizeof *y);
    MG_CHECK(y != NULL);
    if (y == NULL) return;
    kf_kernels()->f32(x, y, n);
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double err = mish_ref_fwd_ulp_err_ld(y[i], x[i]);
        st->checked++;
        st->over_one += err > 1.0;
        if (!(err <= st->worst)) { st->worst = err; st->worst_x = x[i]; }
        if (!(err <= 2.0) && bad++ < 5)
            MG_FAIL("%s (%s): x=%a gave %a, exact %.12Lg: %.3f ulp", what, kf_kernels()->isa, (double)x[i],
                    (double)y[i], mish_ref_fwd_ld(x[i]), err);
    }
    mg_checks_done++;
    free(y);
}

static float kf_from_key(int64_t key) {
    return kt_float(key >= 0 ? (uint32_t)key : (0x80000000u | (uint32_t)(-key - 1)));
}
static int64_t kf_key_of(float f) {
    const uint32_t b = kt_bits(f);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7FFFFFFFu) - 1 : (int64_t)b;
}

static void kf_acc_f32_sample_of_every_binade_within_two_ulp(void) {
    const size_t cap = (size_t)(0x100000000ull / 509) + 2;
    float *x = malloc(cap * sizeof *x);
    MG_CHECK(x != NULL);
    if (x == NULL) return;
    size_t n = 0;
    for (uint64_t u = 3; u < 0x100000000ull; u += 509) {
        const float v = kt_float((uint32_t)u);
        if (isfinite(v)) x[n++] = v;
    }
    kf_f32_stats st = {0};
    kf_check_f32(x, n, &st, "every 509th float32");
    printf("  every 509th float32 (%ld): worst %.3f ulp at x=%a, %ld over 1 ulp\n", st.checked, st.worst,
           (double)st.worst_x, st.over_one);
    MG_CHECK(st.checked > 8000000);
    free(x);
}

/* 2^15 consecutive floats around each point where the kernel changes formula or the
   float32 arithmetic changes character */
static void kf_acc_f32_windows_within_two_ulp(void) {
    static const float centres[] = {-110.0f, -108.7f, -103.97f, -87.34f, -80.0f, -20.0f, -2.0f, -1.1924f,
                                    -0.3f,   -0.0f,   0.0f,     0.625f,  1.0f,   9.0f,   20.0f, 88.7f};
    enum { HALF = 16384 };
    static float x[2 * HALF];
    kf_f32_stats st = {0};
    const size_t own = sizeof centres / sizeof centres[0];
    for (size_t c = 0; c < own + MISH_FWD_TABLE_EDGE_COUNT; c++) {
        const int64_t k = kf_key_of(c < own ? centres[c] : mish_fwd_table_edges[c - own]);
        for (int64_t i = 0; i < 2 * HALF; i++) x[i] = kf_from_key(k - HALF + i);
        kf_check_f32(x, 2 * HALF, &st, "window");
    }
    printf("  windows (%ld): worst %.3f ulp at x=%a, %ld over 1 ulp\n", st.checked, st.worst, (double)st.worst_x,
           st.over_one);
}

/* PyTorch's x * tanh(log1p(exp(x))) for the special values, bit for bit where it defines
   the bits; NaN results are the canonical quiet NaN */
static void kf_acc_special_values_as_pytorch(void) {
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
    kf_kernels()->f32(x, y, N);
    for (size_t i = 0; i < N; i++) {
        mg_checks_done++;
        if (kt_bits(y[i]) != cases[i].want)
            MG_FAIL("mish(%a) gave 0x%08x, want 0x%08x", (double)x[i], kt_bits(y[i]), cases[i].want);
    }
    /* subnormal x: 0.6 x, rounded once */
    float xs[2] = {sub, -sub}, ys[2];
    kf_kernels()->f32(xs, ys, 2);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(ys[0], xs[0]) <= 0.5);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(ys[1], xs[1]) <= 0.5);
    /* the same through the 16-bit tiles */
    const uint16_t hx[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0000, 0x8000, 0x7BFF, 0xFBFF};
    const uint16_t hwant[] = {0x7C00, 0x7E00, 0x7E00, 0x7E00, 0x0000, 0x8000, 0x7BFF, 0x8000};
    const uint16_t bx[] = {0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x0000, 0x8000, 0x7F7F, 0xFF7F};
    const uint16_t bwant[] = {0x7F80, 0x7FC0, 0x7FC0, 0x7FC0, 0x0000, 0x8000, 0x7F7F, 0x8000};
    uint16_t hy[8], by[8];
    kf_kernels()->f16(hx, hy, 8);
    kf_kernels()->bf16(bx, by, 8);
    for (int i = 0; i < 8; i++) {
        MG_CHECK_EQ_INT(hy[i], hwant[i]);
        MG_CHECK_EQ_INT(by[i], bwant[i]);
    }
}

/* The contract's reference values (PyTorch 1.13 F.mish, printed to 6 decimals) */
static void kf_acc_reference_values(void) {
    const float x[8] = {-3, -1, -0.1f, 0, 0.2f, 1.5f, 3, 5};
    const double want[8] = {-0.145647, -0.303401, -0.056789, 0.0, 0.132599, 1.403378, 2.986535, 4.999552};
    float y[8];
    kf_kernels()->f32(x, y, 8);
    for (int i = 0; i < 8; i++) MG_CHECK_NEAR(y[i], want[i], 1e-6);
}

static void kf_check_16bit(int dtype) {
    enum { N = 65536 };
    static uint16_t x[N], y[N];
    for (uint32_t i = 0; i < N; i++) x[i] = (uint16_t)i;
    (dtype == 1 ? kf_kernels()->f16 : kf_kernels()->bf16)(x, y, N);
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
           kt_dtype_name(dtype), kf_kernels()->isa, exact, finite, 100.0 * (double)exact / (double)finite, bad ? "no" : "yes");
    MG_CHECK((double)exact >= 0.999 * (double)finite);
}

static void kf_acc_f16_every_input_within_one_ulp(void) { kf_check_16bit(1); }
static void kf_acc_bf16_every_input_within_one_ulp(void) { kf_check_16bit(2); }

/* ---- bitexact ------------------------------------------------------------------------ */

static void kf_bit_f32_special_values_in_every_lane(void) {
    static const float specials[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MAX, -FLT_MAX,
                                     INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 20.0f, -80.0f, -110.0f, 88.7f};
    enum { S = sizeof specials / sizeof specials[0] };
    /* each special at each position of a run of ordinary values, so every lane of every
       vector width meets the tail path beside fast-path neighbours */
    enum { RUN = 67 };
    static float x[S * RUN];
    for (size_t s = 0; s < S; s++)
        for (size_t i = 0; i < RUN; i++) x[s * RUN + i] = (i % 17 == s % 17) ? specials[s] : -3.0f + 0.1f * (float)i;
    const void *in[1] = {x};
    kt_same_bits(0, in, S * RUN, "specials");
    const float sig[4] = {kt_float(0x7F800001u), 1.0f, kt_float(0xFFA00000u), -2.0f};
    const void *in2[1] = {sig};
    kt_same_bits(0, in2, 4, "signalling NaN");
}

/* the windows' centres: the points where the kernel changes formula, and its table's edges */
static size_t kf_window_centres(float *out, size_t capacity) {
    static const float centres[] = {-110.0f, -108.7f, -103.97f, -87.34f, -80.0f, -40.0f, -20.0f, -2.0f, -1.1924f,
                                    -0.3f,   0.0f,    0.625f,   1.0f,    9.0f,   20.0f,  1e-30f, -1e-30f};
    const size_t own = sizeof centres / sizeof centres[0];
    size_t n = 0;
    for (; n < own + MISH_FWD_TABLE_EDGE_COUNT && n < capacity; n++)
        out[n] = n < own ? centres[n] : mish_fwd_table_edges[n - own];
    return n;
}

/* ---- loops ---------------------------------------------------------------------------- */

/* x over [-120, 30] (every formula region and the tail), a special value at every 13th */
static void kf_fill_x(int dtype, void *x, size_t n, uint32_t seed) {
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
static void kf_fill_mostly_fast(int dtype, void *x, size_t n, uint32_t seed, const size_t *at, size_t count) {
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

static void kf_fill(int dtype, void *const *in, size_t n, uint32_t seed) { kf_fill_x(dtype, in[0], n, seed); }
static void kf_fill_at(int dtype, void *const *in, size_t n, uint32_t seed, const size_t *at, size_t count) {
    kf_fill_mostly_fast(dtype, in[0], n, seed, at, count);
}

/* one lane outside the fast path at every position 0..63 of a 64-element call (every lane
   of every pair of every vector width), and a few scattered in longer calls */
static void kf_loop_tail_lanes_at_every_position(void) {
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        for (size_t n = 64; n <= 4099; n = n < 128 ? n + 61 : n * 4 + 3) {
            for (size_t pos = 0; pos < 64; pos++) {
                unsigned char *x = malloc(n * es);
                MG_CHECK(x != NULL);
                if (x != NULL) {
                    size_t at[3] = {pos, n - 1 - pos, (pos * 977u) % n};
                    kf_fill_mostly_fast(dtype, x, n, (uint32_t)(pos + 31u * n), at, 3);
                    char what[48];
                    snprintf(what, sizeof what, "special lane at %zu", pos);
                    const void *in[1] = {x};
                    kt_fenced_against_scalar(dtype, in, n, KT_OUT_IS(0), what); /* in place */
                }
                free(x);
            }
        }
    }
}

static const size_t kf_small_stream_sizes[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 129, 1000};
static void kf_small_stream_seeds(size_t n, int dtype, size_t index, uint32_t *at_seed, uint32_t *fill_seed) {
    (void)n;
    (void)dtype;
    *at_seed = *fill_seed = (uint32_t)(index + 9u);
}
static uint32_t kf_large_stream_seed(size_t n, int which) {
    (void)n;
    (void)which;
    return 77u;
}

static const kt_case kf_accuracy[] = {
    {"f32_sample_of_every_binade_within_two_ulp", kf_acc_f32_sample_of_every_binade_within_two_ulp},
    {"f32_windows_within_two_ulp", kf_acc_f32_windows_within_two_ulp},
    {"special_values_as_pytorch", kf_acc_special_values_as_pytorch},
    {"reference_values", kf_acc_reference_values},
    {"f16_every_input_within_one_ulp", kf_acc_f16_every_input_within_one_ulp},
    {"bf16_every_input_within_one_ulp", kf_acc_bf16_every_input_within_one_ulp}
};
static const kt_case kf_bitexact[] = {
    {"f32_special_values_in_every_lane", kf_bit_f32_special_values_in_every_lane},
};
static const kt_case kf_loops[] = {
    {"tail_lanes_at_every_position", kf_loop_tail_lanes_at_every_position},
};

static const kt_op KT_OP_mish = {
    KT_OP_BASICS(mish, 1),
    .evaluated = kf_evaluated,
    .fill = kf_fill,
    .fill_at = kf_fill_at,
    .window_centres = kf_window_centres,
    .window_half = 32768,
    .small_stream_offsets = 16,
    .small_stream_sizes = kf_small_stream_sizes,
    .small_stream_size_count = sizeof kf_small_stream_sizes / sizeof kf_small_stream_sizes[0],
    .small_stream_seeds = kf_small_stream_seeds,
    .large_stream_seed = kf_large_stream_seed,
    .accuracy = kf_accuracy,
    .accuracy_count = sizeof kf_accuracy / sizeof kf_accuracy[0],
    .bitexact = kf_bitexact,
    .bitexact_count = sizeof kf_bitexact / sizeof kf_bitexact[0],
    .loops = kf_loops,
    .loops_count = sizeof kf_loops / sizeof kf_loops[0],
};
