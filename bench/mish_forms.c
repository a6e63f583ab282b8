/*
 * bench/mish_forms.c: why the float32 forward costs what it costs (docs/performance.md).
 *
 *   build/bench/mish_forms [STRIDE]      (STRIDE: the accuracy sweep takes every STRIDE-th
 *                                         float of [-80, 30]; default 61)
 *
 * Times, side by side on one thread (best of 41 passes over 1e5 floats in L2), the library's
 * float32 forward tile, three cheaper ways and one dearer way of writing mish(x) = x n / (n + 2),
 * n = e^x (e^x + 2) (the cheaper ones with the library's exp, math/mg_exp.h, and the same
 * AVX-512 vocabulary; the dearer one in double), and measures each one's worst error against the project's reference
 * (reference/mish_reference.c) over the sweep. The float32 bound is 2 ulp; a
 * form that would reach 1.5x oneDNN needs about the textbook form's cost.
 *
 *   textbook   e, n = e (e + 2), y = x (n / (n + 2)): five roundings after the exp
 *   two-form   n = fma(e, e, 2e); x >= 0 takes y = x - x (2 / d) (its rounding errors shrink
 *              with 2 / d), x < 0 takes y = x (n / d): one division, one select pair
 *   anchored   t = P (1 + W) with exact P (e's table part for x < -0.5, 1/2 on [-0.5, 0.5),
 *              1 above), W one division of a fused numerator, y = fma(x P, W, x P)
 *   lean-2     two regions: x < 0 takes y = x E (1 + W) with x E a two-product and
 *              W = s - h (1 + s), h = e (e + 1) / d; x >= 0 takes W = -2 / d (P = 1)
 *   lean-3     lean-2 with a third region, [-0.5, 0.5) anchored on c0 = 0.59999996
 *              (t = c0 + W, W = ((1 - c0) n - 2 c0) / d): within 2 ulp on the default sweep,
 *              2.19 ulp over every float (STRIDE 1)
 *   double     the textbook form in double lanes after widening, one rounding to float
 *   library    op_kernel/mish_body.h: the table form (t a degree-7 polynomial on 16 intervals
 *              of [-8.5, 9.5], no exp, no division) wherever a pair of vectors lies in
 *              [-8.5, +inf), and the exp form below it for the others (<= 2 ulp)
 * The sweep's input, uniform in [-20, 10], puts about 38% of lanes below the table, so
 * nearly every pair takes both forms there; the library (and its AVX2 path) is also timed
 * by input range: uniform [-8, 8) (the benchmark's and a typical activation's range: the
 * table alone), [-12, -8.6) (below the table only) and [-20, 10) (both).
 *
 * Then the cost model: the textbook form with two more fmas, adds or compare-and-selects, or
 * without its division, so the price of each kind of operation per vector can be read off.
 * And the price of a table-driven evaluation (no exp, no division): a degree-7 polynomial per
 * interval of 32, nine 32-entry lookups per vector, timed with placeholder coefficients.
 *
 * Last, the 16-bit question: a bfloat16 input has only 65536 values, so the library's
 * 16-bit tiles look their results up in a table that the evaluated tile fills
 * (op_kernel/mish_body.h). Timed side by side: the evaluated tile, the library's tile
 * (AVX-512 gathers, with its prefetch), and this file's own gather and scalar-load lookups
 * of the same table without a prefetch (every one checked equal to the evaluated tile).
 * AVX-512 only (the cost of the operations is the question); elsewhere it reports a skip.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mish_kernel.h"
#include "mish_reference.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512BW__)
#include "simd/mg_simd_avx512.h"
#include "math/mg_exp.h"

#define FORM_INLINE static inline __attribute__((always_inline))

FORM_INLINE mg_vf exp_parts(mg_vf x, mg_vf *big_e, mg_vf *s) {
    mg_vi kbits;
    *s = mg_exp_rr2_lut16_p3_parts(mg_min(x, mg_set(20.0f)), &kbits);
    *big_e = mg_exp_lut16_scaled(kbits);
    return mg_fma(*big_e, *s, *big_e);
}

FORM_INLINE mg_vf form_textbook(mg_vf x) {
    mg_vf big_e, s;
    const mg_vf e = exp_parts(x, &big_e, &s);
    const mg_vf n = mg_mul(e, mg_add(e, mg_set(2.0f)));
    return mg_mul(x, mg_div(n, mg_add(n, mg_set(2.0f))));
}

FORM_INLINE mg_vf form_two(mg_vf x) {
    mg_vf big_e, s;
    const mg_vf e = exp_parts(x, &big_e, &s);
    const mg_vf n = mg_fma(e, e, mg_add(e, e));
    const mg_vf d = mg_add(n, mg_set(2.0f));
    const mg_vm high = mg_le(mg_set(0.0f), x);
    const mg_vf q = mg_div(mg_select(high, mg_set(-2.0f), n), d);
    return mg_fma(x, q, mg_select(high, x, mg_set(0.0f)));
}

FORM_INLINE mg_vf form_anchored(mg_vf x) {
    mg_vf big_e, s_all;
    const mg_vf e = exp_parts(x, &big_e, &s_all);
    const mg_vf n = mg_fma(e, e, mg_add(e, e));
    const mg_vf d = mg_add(n, mg_set(2.0f));
    const mg_vm low = mg_lt(x, mg_set(-0.5f));
    const mg_vm high = mg_le(mg_set(0.5f), x);
    /* W0 = (a n + b) / d: low -e (e + 1) / d, middle (n - 2) / d, high -2 / d */
    const mg_vf a = mg_select(low, mg_set(-1.0f), mg_select(high, mg_set(0.0f), mg_set(1.0f)));
    const mg_vf b = mg_select(low, e, mg_set(-2.0f));
    const mg_vf w0 = mg_div(mg_fma(n, a, b), d);
    const mg_vf s = mg_select(low, s_all, mg_set(0.0f));
    const mg_vf w = mg_fma(s, w0, mg_add(s, w0)); /* (1 + s)(1 + W0) - 1 */
    const mg_vf xp = mg_mul(x, mg_select(low, big_e, mg_select(high, mg_set(1.0f), mg_set(0.5f))));
    return mg_fma(xp, w, xp);
}


/* Lean: fewer regions than the library's. Below LEAN_LOW, t = E (1 + s)(1 - h),
   h = e (e + 1) / d, so y = x E (1 + W), W = s - h (1 + s), x E a two-product (W shrinks
   with e); at LEAN_HIGH and above, t = 1 - 2 / d (W = -2 / d, P = 1). The two-region form
   takes LEAN_LOW = LEAN_HIGH = 0; the three-region form anchors [-0.5, 0.5) on c0 (a float
   just below t(0) = 0.6, P = 1): W = ((1 - c0) n - 2 c0) / d. One division either way. */
#define LEAN_C0 0x1.333332p-1f
FORM_INLINE mg_vf lean_form(mg_vf x, float low_below, float high_from, int three) {
    mg_vf big_e, s_all;
    const mg_vf e = exp_parts(x, &big_e, &s_all);
    const mg_vm low = mg_lt(x, mg_set(low_below));
    const mg_vm high = mg_le(mg_set(high_from), x);
    const mg_vf e_plus_2 = mg_add(e, mg_set(2.0f));
    const mg_vf d = mg_fma(e, e_plus_2, mg_set(2.0f));
    mg_vf num_rest = mg_set(2.0f), c = mg_set(1.0f);
    if (three) { /* -W d in the middle, so that W = -h there as in the other regions */
        num_rest = mg_select(high, num_rest, mg_fma(mg_mul(e, e_plus_2), mg_set(LEAN_C0 - 1.0f), mg_set(2.0f * LEAN_C0)));
        c = mg_select(mg_mask_and(mg_lt(x, mg_set(high_from)), mg_le(mg_set(low_below), x)), mg_set(LEAN_C0), c);
    }
    const mg_vf num = mg_select(low, mg_fma(e, e, e), num_rest);
    const mg_vf s = mg_select(low, s_all, mg_set(0.0f));
    const mg_vf p = mg_select(low, big_e, mg_set(1.0f));
    const mg_vf h = mg_div(num, d);
    const mg_vf w = mg_fnma(h, s, mg_sub(s, h));
    const mg_vf hi = mg_mul(x, p);
    const mg_vf nlo = mg_fnma(x, p, hi); /* hi - x p exactly; 0 outside the low region */
    return three ? mg_fma(hi, c, mg_fma(hi, w, mg_mul(nlo, mg_set(-1.0f)))) : mg_sub(hi, mg_fnma(hi, w, nlo));
}
FORM_INLINE mg_vf form_lean2(mg_vf x) { return lean_form(x, 0.0f, 0.0f, 0); }
FORM_INLINE mg_vf form_lean3(mg_vf x) { return lean_form(x, -0.5f, 0.5f, 1); }


/* The cost of a table-driven evaluation: t as a degree-7 polynomial in x - x_k on 32
   intervals of width 1/2 (x_k = k/2, k = min(round(2x), 15)), y = fma(x, c_k, x p): nine
   32-entry lookups (vpermt2ps) and nine fmas per vector, no exp and no division. Timed only:
   the coefficients are placeholders (the lookups, not the values, cost the time). */
static float lut32_coefficients[9][32];
FORM_INLINE mg_vf lut32_lookup(const float *table, __m512i index) {
    return _mm512_permutex2var_ps(_mm512_loadu_ps(table), index, _mm512_loadu_ps(table + 16));
}
FORM_INLINE mg_vf form_lut32(mg_vf x) {
    const mg_vf magic = mg_set(MG_EXP_MAGIC);
    const mg_vf rounded = mg_min(mg_fma(x, mg_set(2.0f), magic), mg_set(MG_EXP_MAGIC + 15.0f));
    const __m512i index = _mm512_castps_si512(rounded);
    const mg_vf delta = mg_fma(mg_sub(rounded, magic), mg_set(-0.5f), x);
    mg_vf p = lut32_lookup(lut32_coefficients[8], index);
    for (int c = 7; c >= 1; c--) p = mg_fma(p, delta, lut32_lookup(lut32_coefficients[c], index));
    return mg_fma(x, lut32_lookup(lut32_coefficients[0], index), mg_mul(x, p));
}

/* Everything in double after widening: the exp (degree-6 polynomial on |r| <= ln2/2,
   relative error 2^-29) and x n / (n + 2) rounded at 2^-53, then one rounding to float:
   the accurate way, at twice the lanes' cost */
FORM_INLINE __m512d f64_half(__m512d x) {
    const __m512d magic = _mm512_set1_pd(0x1.8p52);
    const __m512d xc = _mm512_max_pd(_mm512_min_pd(x, _mm512_set1_pd(20.0)), _mm512_set1_pd(-200.0));
    const __m512d kd = _mm512_fmadd_pd(xc, _mm512_set1_pd(0x1.71547652b82fep+0), magic);
    const __m512d kf = _mm512_sub_pd(kd, magic);
    const __m512d r = _mm512_fmadd_pd(kf, _mm512_set1_pd(-0x1.62e42fefa39efp-1), xc);
    __m512d p = _mm512_set1_pd(0x1.6a87abacce14cp-10);
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.126cace524c4fp-7));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.5558e160f3352p-5));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.55540b6139e2cp-3));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.fffffa4a83cf5p-2));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.0000009b28d8cp+0));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.000000028aef0p+0));
    /* e = p 2^k: k sits in the low bits of kd, so kd << 52 adds k to p's exponent */
    const __m512d e = _mm512_castsi512_pd(
        _mm512_add_epi64(_mm512_castpd_si512(p), _mm512_slli_epi64(_mm512_castpd_si512(kd), 52)));
    const __m512d n = _mm512_fmadd_pd(e, e, _mm512_add_pd(e, e));
    return _mm512_div_pd(_mm512_mul_pd(x, n), _mm512_add_pd(n, _mm512_set1_pd(2.0)));
}
FORM_INLINE mg_vf form_f64(mg_vf x) {
    const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
    const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
    const __m256 y_lo = _mm512_cvtpd_ps(f64_half(lo)), y_hi = _mm512_cvtpd_ps(f64_half(hi));
    return _mm512_insertf32x8(_mm512_castps256_ps512(y_lo), y_hi, 1);
}

/* The cost model: the textbook form with two more operations of one kind (or without its
   division); the difference from the textbook is that kind's price per vector. The extra
   operations depend on the form's values, so the compiler cannot drop them. */
FORM_INLINE mg_vf form_extra(mg_vf x, int kind) {
    mg_vf big_e, s;
    const mg_vf e = exp_parts(x, &big_e, &s);
    mg_vf n = mg_mul(e, mg_add(e, mg_set(2.0f)));
    const mg_vf d = mg_add(n, mg_set(2.0f));
    if (kind == 1) n = mg_fma(mg_fma(n, mg_set(1.0001f), big_e), mg_set(1.0001f), s);
    if (kind == 2) n = mg_add(mg_add(n, big_e), s);
    if (kind == 3) n = mg_select(mg_lt(s, x), mg_select(mg_lt(x, big_e), n, s), big_e);
    return mg_mul(x, kind == 4 ? mg_mul(n, d) : mg_div(n, d));
}
FORM_INLINE mg_vf form_plus_fma(mg_vf x) { return form_extra(x, 1); }
FORM_INLINE mg_vf form_plus_add(mg_vf x) { return form_extra(x, 2); }
FORM_INLINE mg_vf form_plus_select(mg_vf x) { return form_extra(x, 3); }
FORM_INLINE mg_vf form_no_div(mg_vf x) { return form_extra(x, 4); }

#define FORM_TILE(name)                                                                  \
    static void tile_##name(const void *x_v, void *y_v, size_t n) {                      \
        const float *x = x_v;                                                            \
        float *y = y_v;                                                                  \
        size_t i = 0;                                                                    \
        for (; i + 32 <= n; i += 32) {                                                   \
            const mg_vf a = mg_loadu(x + i), b = mg_loadu(x + i + 16);                   \
            mg_storeu(y + i, form_##name(a));                                            \
            mg_storeu(y + i + 16, form_##name(b));                                       \
        }                                                                                \
        for (; i < n; i += 16) mg_store_f32_n(y + i, form_##name(mg_load_f32_n(x + i, n - i)), n - i); \
    }
FORM_TILE(textbook)
FORM_TILE(two)
FORM_TILE(anchored)
FORM_TILE(lean2)
FORM_TILE(lean3)
FORM_TILE(f64)
FORM_TILE(plus_fma)
FORM_TILE(plus_add)
FORM_TILE(plus_select)
FORM_TILE(no_div)
FORM_TILE(lut32)

/* The 16-bit lookup: table[b] = the library's evaluated bfloat16 result for input bits b, with one
   entry of padding so that the 32-bit gathers at 2-byte offsets stay inside it. */
static uint16_t bf16_table[65536 + 2];

static void tile_bf16_gather(const void *x_v, void *y_v, size_t n) {
    const uint16_t *x = x_v;
    uint16_t *y = y_v;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512i bits = _mm512_loadu_si512(x + i);
        const __m512i lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(bits));
        const __m512i hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(bits, 1));
        const __m256i ylo = _mm512_cvtepi32_epi16(_mm512_i32gather_epi32(lo, (const void *)bf16_table, 2));
        const __m256i yhi = _mm512_cvtepi32_epi16(_mm512_i32gather_epi32(hi, (const void *)bf16_table, 2));
        _mm512_storeu_si512(y + i, _mm512_inserti64x4(_mm512_castsi256_si512(ylo), yhi, 1));
    }
    for (; i < n; i++) y[i] = bf16_table[x[i]];
}

static void tile_bf16_scalar_lookup(const void *x_v, void *y_v, size_t n) {
    const uint16_t *x = x_v;
    uint16_t *y = y_v;
    for (size_t i = 0; i < n; i++) y[i] = bf16_table[x[i]];
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The sweep: every stride-th float32 bit pattern of [-80, 30] (the fast domain the forms
   share; the library's tile handles the tail below -80 separately) */
static double worst_ulp(mish_tile_fn tile, unsigned stride, float *worst_x) {
    enum { CHUNK = 4096 };
    static float xs[CHUNK], ys[CHUNK];
    double worst = 0.0;
    for (int negative = 0; negative < 2; negative++) {
        const uint32_t limit = negative ? 0x42A00000u : 0x41F00000u; /* 80, 30 */
        uint32_t bits = 0;
        while (bits <= limit) {
            size_t count = 0;
            for (; count < CHUNK && bits <= limit; count++, bits += stride)
                xs[count] = mish_ref_f32_from_bits(bits | (negative ? 0x80000000u : 0u));
            tile(xs, ys, count);
            for (size_t i = 0; i < count; i++) {
                const double err = mish_ref_fwd_ulp_err_d(ys[i], xs[i]);
                if (err > worst) {
                    worst = err;
                    *worst_x = xs[i];
                }
            }
        }
    }
    return worst;
}

typedef struct named_tile {
    const char *name;
    mish_tile_fn tile;
} named_tile;

/* best[f] = the fastest of 41 alternating passes of tile f over x -> y, in ns per element
   (alternating: a disturbance hits every tile alike, and the best pass is kept) */
static void time_best(const named_tile *tiles, int count, const void *x, void *y, size_t n, double *best) {
    for (int f = 0; f < count; f++) best[f] = 1e30;
    for (int pass = 0; pass < 41; pass++)
        for (int f = 0; f < count; f++) {
            const double start = seconds();
            for (int k = 0; k < 10; k++) tiles[f].tile(x, y, n);
            const double ns = (seconds() - start) / (10.0 * (double)n) * 1e9;
            if (ns < best[f]) best[f] = ns;
        }
}

int main(int argc, char **argv) {
    const unsigned stride = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 61u;
    if (stride == 0) {
        fprintf(stderr, "usage: mish_forms [STRIDE >= 1]\n");
        return 2;
    }
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") ||
        !__builtin_cpu_supports("avx512bw")) {
        printf("mish_forms: skipped: this CPU has no AVX-512 F/DQ/BW\n");
        return 77;
    }
    const mish_kernels *library = mish_kernels_get();
    const named_tile forms[] = {{"textbook", tile_textbook}, {"two-form", tile_two}, {"anchored", tile_anchored}, {"lean-2", tile_lean2}, {"lean-3", tile_lean3}, {"double", tile_f64},
                 {"library", library->f32}, {"+2 fma", tile_plus_fma}, {"+2 add", tile_plus_add},
                 {"+2 select", tile_plus_select}, {"no div", tile_no_div}, {"lut32 poly", tile_lut32}};
    enum { ACCURACY_FORMS = 7 }; /* the cost-model variants compute no Mish: timed only */
    enum { FORMS = sizeof forms / sizeof forms[0], N = 100000, LUT32_FORM = FORMS - 1, NO_DIV_FORM = FORMS - 2 };
    float *x = aligned_alloc(64, N * sizeof(float)), *y = aligned_alloc(64, N * sizeof(float));
    if (x == NULL || y == NULL) return 1;
    for (int c = 0; c < 9; c++)
        for (int k = 0; k < 32; k++) lut32_coefficients[c][k] = 0x1p-4f * (float)(c + 1) + 0x1p-10f * (float)k;
    srand(1);
    for (size_t i = 0; i < N; i++) x[i] = -20.0f + 30.0f * (float)rand() / (float)RAND_MAX;
    double best[FORMS];
    time_best(forms, FORMS, x, y, N, best);
    printf("float32 forward forms, 1 thread, AVX-512 (library tile: ISA %s); accuracy over [-80, 30], every %u-th bit pattern\n",
           library->isa, stride);
    printf("%-10s %10s %12s %11s   %s\n", "form", "ns/elem", "vs textbook", "worst ulp", "at x");
    for (int f = 0; f < ACCURACY_FORMS; f++) {
        float at = 0.0f;
        const double worst = worst_ulp(forms[f].tile, stride, &at);
        printf("%-10s %10.3f %11.2fx %11.3f   %a\n", forms[f].name, best[f], best[f] / best[0], worst, at);
    }
    printf("\nwhat one operation costs (the textbook form with two more, or without its division):\n");
    for (int f = ACCURACY_FORMS; f < NO_DIV_FORM + 1; f++) {
        const double per_vector = (best[f] - best[0]) * 16.0;
        printf("%-10s %10.3f  %+.3f ns per 16-lane vector%s\n", forms[f].name, best[f],
               f == NO_DIV_FORM ? per_vector : per_vector / 2.0, f == NO_DIV_FORM ? " (the division)" : " each");
    }
    /* the library on inputs that keep every pair in its table's domain, below it, or both
       (and its AVX2 path, whose 16-entry lookups take three operations each) */
    static const float range_lo[] = {-8.0f, -12.0f, -20.0f}, range_hi[] = {8.0f, -8.6f, 10.0f};
    const mish_kernels *avx2 = mish_kernels_for("avx2");
    printf("\nthe library's tile by input range, ns per element (uniform inputs):\n");
    printf("%-16s %10s %10s %10s\n", "x in", library->isa, avx2 != NULL ? avx2->isa : "-", "textbook");
    for (int r = 0; r < 3; r++) {
        for (size_t i = 0; i < N; i++) x[i] = range_lo[r] + (range_hi[r] - range_lo[r]) * (float)rand() / (float)RAND_MAX;
        const named_tile ranged_tiles[] = {
            {"library", library->f32}, {"textbook", tile_textbook}, {"avx2", avx2 != NULL ? avx2->f32 : library->f32}};
        double ranged[3];
        time_best(ranged_tiles, 3, x, y, N, ranged);
        char range[32];
        snprintf(range, sizeof range, "[%g, %g)", (double)range_lo[r], (double)range_hi[r]);
        printf("%-16s %10.3f %10.3f %10.3f\n", range, ranged[0], ranged[2], ranged[1]);
    }
    for (size_t i = 0; i < N; i++) x[i] = -20.0f + 30.0f * (float)rand() / (float)RAND_MAX;

    printf("\na table instead of the exp and the division (timed only, placeholder coefficients):\n");
    printf("%-10s %10.3f ns/elem %8.2fx the textbook form\n", forms[LUT32_FORM].name, best[LUT32_FORM],
           best[LUT32_FORM] / best[0]);

    /* bfloat16: evaluated against looked up */
    uint16_t *every = malloc(65536 * sizeof(uint16_t));
    uint16_t *bx = malloc(N * sizeof(uint16_t)), *by = malloc(N * sizeof(uint16_t)),
             *by2 = malloc(N * sizeof(uint16_t));
    if (every == NULL || bx == NULL || by == NULL || by2 == NULL) return 1;
    for (uint32_t b = 0; b < 65536; b++) every[b] = (uint16_t)b;
    library->bf16_evaluated(every, bf16_table, 65536);
    for (size_t i = 0; i < N; i++) {
        uint32_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        bx[i] = (uint16_t)(bits >> 16);
    }
    library->bf16_evaluated(bx, by, N);
    const named_tile lookups[] = {{"evaluated", library->bf16_evaluated},
                                  {"library", library->bf16},
                                  {"gather", tile_bf16_gather},
                                  {"scalar", tile_bf16_scalar_lookup}};
    enum { LOOKUPS = sizeof lookups / sizeof lookups[0] };
    for (int f = 1; f < LOOKUPS; f++) {
        lookups[f].tile(bx, by2, N);
        if (memcmp(by, by2, N * sizeof(uint16_t)) != 0) {
            printf("mish_forms: %s differs from the evaluated bfloat16 tile\n", lookups[f].name);
            return 1;
        }
    }
    double best16[LOOKUPS];
    time_best(lookups, LOOKUPS, bx, by, N, best16);
    printf("\nbfloat16: evaluated against looked up in a 65536-entry table of its results (same bits):\n");
    for (int f = 0; f < LOOKUPS; f++)
        printf("%-10s %10.3f ns/elem %8.2fx\n", lookups[f].name, best16[f], best16[f] / best16[0]);
    free(every);
    free(bx);
    free(by);
    free(by2);
    free(x);
    free(y);
    return 0;
}

#else
int main(void) {
    printf("mish_forms: skipped: built without AVX-512 (x86-64 with -mavx512f -mavx512dq -mavx512bw)\n");
    return 77;
}
#endif
