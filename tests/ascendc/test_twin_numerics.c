/*
 * tests/ascendc/test_twin_numerics.c: the vector core's numbers against float64. Each float32
 * instruction's largest error in ulp over a dense sample (every k-th float of its domain in
 * bit order) stays within the bound docs/ascendc_twin.md states; half and bfloat16
 * instructions, computed in float and rounded once, stay within 0.5 ulp of their format plus
 * the float32 error, over every finite input of the format.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg_rng.h"
#include "mg_test.h"
#include "twin_test_util.h"

/* args: x0, x1, y (GM), params {int64 n, int32 kind, int32 op, int32 dtype}. Runs the
   instruction over n elements in tiles of 32 KiB (DataCopyPad in and out). */
typedef struct params {
    int64_t n;
    int32_t kind; /* 0 unary, 1 binary */
    int32_t op;
    int32_t dtype;
} params;

static void tiles(uint8_t *const *args) {
    params p;
    memcpy(&p, args[3], sizeof p);
    asc_twin_dtype dt = (asc_twin_dtype)p.dtype;
    uint32_t es = asc_twin_dtype_size(dt);
    const uint64_t tile = 32768, per = tile / es;
    asc_twin_ub_ref a = tt_ub(0, tile, dt), b = tt_ub(tile, tile, dt), y = tt_ub(2 * tile, tile, dt);
    for (uint64_t at = 0; at < (uint64_t)p.n; at += per) {
        uint64_t m = (uint64_t)p.n - at < per ? (uint64_t)p.n - at : per, aligned = (m * es + 31) / 32 * 32 / es;
        asc_twin_copy_params cp = {1, (uint32_t)(m * es), 0, 0, 1};
        asc_twin_pad_params pad = {1, 0, (uint8_t)(aligned - m), 1.0};
        asc_twin_gm_ref g0 = tt_gm(args[0] + at * es, (uint64_t)m * es, dt), g1 = tt_gm(args[1] + at * es, m * es, dt);
        asc_twin_gm_ref gy = tt_gm(args[2] + at * es, m * es, dt);
        if (asc_twin_copy_gm_to_ub_params("DataCopyPad", a, g0, &cp, &pad) != 0) return;
        if (p.kind == 1) {
            if (asc_twin_copy_gm_to_ub_params("DataCopyPad", b, g1, &cp, &pad) != 0) return;
            if (asc_twin_binary("op", (asc_twin_binary_op)p.op, y, a, b, aligned) != 0) return;
        } else if (asc_twin_unary("op", (asc_twin_unary_op)p.op, y, a, aligned) != 0) {
            return;
        }
        if (asc_twin_copy_ub_to_gm_params("DataCopyPad", gy, y, &cp) != 0) return;
    }
}
static const asc_twin_kernel k_tiles = {"twin_numerics", 0, 4, tiles};

static int run_op(int kind, int op, asc_twin_dtype dt, const void *x0, const void *x1, void *y, int64_t n) {
    params *p = asc_twin_gm_alloc(sizeof *p);
    *p = (params){n, kind, op, (int32_t)dt};
    uint8_t *args[4] = {(uint8_t *)x0, (uint8_t *)x1, (uint8_t *)y, (uint8_t *)p};
    char msg[512];
    int status = tt_run(&k_tiles, 1, args, 4, msg, sizeof msg);
    if (status != 0) printf("  launch failed: %s\n", msg);
    asc_twin_gm_free(p);
    return status;
}

static double ref_unary(int op, double x) {
    switch (op) {
    case ASC_TWIN_EXP: return exp(x);
    case ASC_TWIN_LN: return log(x);
    case ASC_TWIN_SQRT: return sqrt(x);
    case ASC_TWIN_RSQRT: return 1.0 / sqrt(x);
    case ASC_TWIN_RECIPROCAL: return 1.0 / x;
    case ASC_TWIN_TANH: return tanh(x);
    default: return 1.0 / (1.0 + exp(-x)); /* sigmoid */
    }
}

/* ulp error of a float result against the exact value (infinity where the exact value
   rounds to infinity; NaN where it is NaN) */
static double err_ulp(float got, double want) {
    float wf = (float)want;
    if (isinf(wf) || isnan(want)) return (isinf(got) && (got > 0) == (wf > 0)) || (isnan(got) && isnan(want)) ? 0 : 1e30;
    return tt_ulp_f32(got, want);
}

/* every `step`-th float in bit order from lo to hi (same sign) */
static size_t sample(float lo, float hi, uint32_t step, float *out, size_t cap) {
    size_t n = 0;
    uint32_t a, b;
    memcpy(&a, &lo, 4);
    memcpy(&b, &hi, 4);
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    for (uint64_t u = a; u <= b && n < cap; u += step) {
        uint32_t v = (uint32_t)u;
        memcpy(&out[n++], &v, 4);
    }
    return n;
}

/* Largest ulp error of unary op over the given float ranges. */
static double worst_unary(int op, const float (*ranges)[2], int nranges, uint32_t step, float *worst_at) {
    enum { CAP = 1 << 21 };
    float *x = asc_twin_gm_alloc(CAP * 4), *y = asc_twin_gm_alloc(CAP * 4);
    size_t n = 0;
    for (int r = 0; r < nranges; r++) n += sample(ranges[r][0], ranges[r][1], step, x + n, CAP - n);
    double worst = -1;
    if (run_op(0, op, ASC_TWIN_F32, x, x, y, (int64_t)n) == 0) {
        worst = 0;
        for (size_t i = 0; i < n; i++) {
            double e = err_ulp(y[i], ref_unary(op, (double)x[i]));
            if (e > worst) worst = e, *worst_at = x[i];
        }
    }
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
    return worst;
}

typedef struct bound_case {
    const char *name;
    int op;
    float ranges[4][2];
    int nranges;
    double bound; /* ulp, float32: the stated bound */
} bound_case;

/* The stated bounds (docs/ascendc_twin.md); the domains cover results from the subnormals
   to overflow. */
static const bound_case cases[] = {
    {"Exp", ASC_TWIN_EXP, {{-0.0f, -110.0f}, {0.0f, 90.0f}}, 2, 1.5},
    {"Ln", ASC_TWIN_LN, {{0x1p-149f, FLT_MAX}}, 1, 1.5},
    {"Tanh", ASC_TWIN_TANH, {{-0.0f, -12.0f}, {0.0f, 12.0f}}, 2, 2.0},
    {"Sigmoid", ASC_TWIN_SIGMOID, {{-0.0f, -110.0f}, {0.0f, 110.0f}}, 2, 2.5},
    {"Sqrt", ASC_TWIN_SQRT, {{0.0f, FLT_MAX}}, 1, 0.5},
    {"Rsqrt", ASC_TWIN_RSQRT, {{0x1p-149f, FLT_MAX}}, 1, 1.5},
    {"Reciprocal", ASC_TWIN_RECIPROCAL, {{-0x1p-149f, -FLT_MAX}, {0x1p-149f, FLT_MAX}}, 2, 0.5},
};

MG_TEST(float32_transcendentals_within_their_bounds) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        float at = 0;
        /* ~1M samples per function */
        double w = worst_unary(cases[c].op, cases[c].ranges, cases[c].nranges, 1999, &at);
        printf("  %-10s max error %.3f ulp (at %a), bound %.1f\n", cases[c].name, w, (double)at, cases[c].bound);
        MG_CHECK(w >= 0 && w <= cases[c].bound);
    }
}

MG_TEST(float32_div_is_correctly_rounded) {
    enum { N = 1 << 20 };
    float *a = asc_twin_gm_alloc(N * 4), *b = asc_twin_gm_alloc(N * 4), *y = asc_twin_gm_alloc(N * 4);
    mg_rng rng = {12345};
    for (int i = 0; i < N; i++) {
        a[i] = (float)(mg_rng_uniform(&rng, -1, 1) * pow(2.0, mg_rng_uniform(&rng, -60, 60)));
        b[i] = (float)(mg_rng_uniform(&rng, -1, 1) * pow(2.0, mg_rng_uniform(&rng, -60, 60)));
    }
    MG_CHECK_EQ_INT(run_op(1, ASC_TWIN_DIV, ASC_TWIN_F32, a, b, y, N), 0);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        double e = err_ulp(y[i], (double)a[i] / (double)b[i]);
        if (e > worst) worst = e;
    }
    printf("  Div max error %.3f ulp\n", worst);
    MG_CHECK(worst <= 0.5);
    asc_twin_gm_free(a);
    asc_twin_gm_free(b);
    asc_twin_gm_free(y);
}

/* half / bfloat16 bits <-> double, written here from the formats' definitions */
static double half_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}
static double bf16_value(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* the format's ulp at |v| (the binade's spacing, the least one for subnormals) */
static double format_ulp(double v, int half) {
    int e;
    frexp(fabs(v), &e);
    return half ? ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10) : ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 7);
}

MG_TEST(half_and_bfloat16_round_once_to_their_format) {
    static const int ops[] = {ASC_TWIN_EXP, ASC_TWIN_LN, ASC_TWIN_TANH, ASC_TWIN_SIGMOID,
                              ASC_TWIN_SQRT, ASC_TWIN_RSQRT, ASC_TWIN_RECIPROCAL};
    static const char *names[] = {"Exp", "Ln", "Tanh", "Sigmoid", "Sqrt", "Rsqrt", "Reciprocal"};
    uint16_t *x = asc_twin_gm_alloc(65536 * 2), *y = asc_twin_gm_alloc(65536 * 2);
    for (int fmt = 0; fmt < 2; fmt++) {
        asc_twin_dtype dt = fmt == 0 ? ASC_TWIN_F16 : ASC_TWIN_BF16;
        for (int i = 0; i < 65536; i++) x[i] = (uint16_t)i;
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            MG_CHECK_EQ_INT(run_op(0, ops[o], dt, x, x, y, 65536), 0);
            double worst = 0;
            for (int i = 0; i < 65536; i++) {
                double xv = fmt == 0 ? half_value((uint16_t)i) : bf16_value((uint16_t)i);
                if (isnan(xv)) continue;
                double want = ref_unary(ops[o], xv), got = fmt == 0 ? half_value(y[i]) : bf16_value(y[i]);
                double max = fmt == 0 ? 65504.0 : 0x1.fep127;
                double e;
                if (isnan(want)) e = isnan(got) ? 0 : 1e30;
                else if (fabs(want) >= max + format_ulp(max, fmt == 0) / 2) e = isinf(got) && (got > 0) == (want > 0) ? 0 : 1e30;
                else e = fabs(got - want) / format_ulp(want, fmt == 0);
                if (e > worst) worst = e;
            }
            /* one rounding (0.5) after a float32 result within a few float32 ulp (2^-13 of a
               half ulp, 2^-16 of a bfloat16 one, times the float32 bound) */
            printf("  %s %-10s max error %.4f ulp\n", fmt == 0 ? "half" : "bf16", names[o], worst);
            MG_CHECK(worst <= 0.5 + (fmt == 0 ? 3 * 0x1p-13 : 3 * 0x1p-16));
        }
    }
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
}

MG_TEST_MAIN()
