/*
 * tests/ascendc/test_twin_cast.c: Cast in every round mode against expectations written by
 * hand from CANN's Cast documentation (its worked examples, then ties, signs, subnormals,
 * overflow saturation, NaN and infinity). Each value below was computed on paper from the
 * formats' definitions, not by the code under test.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mg_test.h"
#include "twin_test_util.h"

enum { NONE = ASC_TWIN_CAST_NONE, RINT = ASC_TWIN_CAST_RINT, FLOOR = ASC_TWIN_CAST_FLOOR, CEIL = ASC_TWIN_CAST_CEIL,
       ROUND = ASC_TWIN_CAST_ROUND, TRUNC = ASC_TWIN_CAST_TRUNC, ODD = ASC_TWIN_CAST_ODD };

typedef struct cast_params {
    int64_t n;
    int32_t src, dst, mode;
} cast_params;

/* args: src (GM), dst (GM), params: DataCopyPad in, Cast, DataCopyPad out */
static void cast_kernel(uint8_t *const *args) {
    cast_params p;
    memcpy(&p, args[2], sizeof p);
    asc_twin_dtype s = (asc_twin_dtype)p.src, d = (asc_twin_dtype)p.dst;
    uint32_t ses = asc_twin_dtype_size(s), des = asc_twin_dtype_size(d);
    asc_twin_ub_ref us = tt_ub(0, 4096, s), ud = tt_ub(4096, 4096, d);
    asc_twin_copy_params in = {1, (uint32_t)(p.n * ses), 0, 0, 1}, out = {1, (uint32_t)(p.n * des), 0, 0, 1};
    if (asc_twin_copy_gm_to_ub_params("DataCopyPad", us, tt_gm(args[0], p.n * ses, s), &in, NULL) != 0) return;
    if (asc_twin_cast(ud, us, (asc_twin_round_mode)p.mode, (uint64_t)p.n) != 0) return;
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(args[1], p.n * des, d), ud, &out);
}
static const asc_twin_kernel k_cast = {"twin_cast", 0, 3, cast_kernel};

/* Casts n elements; the result lands in `out` (n * dst size bytes). */
static int cast(asc_twin_dtype s, const void *src, asc_twin_dtype d, int mode, int n, void *out) {
    uint32_t ses = asc_twin_dtype_size(s), des = asc_twin_dtype_size(d);
    uint8_t *gs = asc_twin_gm_alloc((size_t)n * ses), *gd = asc_twin_gm_alloc((size_t)n * des);
    cast_params *p = asc_twin_gm_alloc(sizeof *p);
    memcpy(gs, src, (size_t)n * ses);
    *p = (cast_params){n, (int32_t)s, (int32_t)d, mode};
    uint8_t *args[3] = {gs, gd, (uint8_t *)p};
    char msg[512];
    int status = tt_run(&k_cast, 1, args, 3, msg, sizeof msg);
    if (status != 0) printf("  cast failed: %s\n", msg);
    memcpy(out, gd, (size_t)n * des);
    asc_twin_gm_free(gs);
    asc_twin_gm_free(gd);
    asc_twin_gm_free(p);
    return status;
}

#define CHECK_U16(got, want, n)                                                                         \
    for (int i_ = 0; i_ < (n); i_++)                                                                    \
        if ((got)[i_] != (want)[i_]) MG_FAIL("element %d: 0x%04x, expected 0x%04x", i_, (got)[i_], (want)[i_]); \
    MG_CHECK(memcmp((got), (want), (n) * sizeof (got)[0]) == 0)
#define CHECK_I64(got, want, n)                                                                                    \
    for (int i_ = 0; i_ < (n); i_++)                                                                               \
        if ((int64_t)(got)[i_] != (int64_t)(want)[i_])                                                             \
            MG_FAIL("element %d: %lld, expected %lld", i_, (long long)(got)[i_], (long long)(want)[i_]);           \
    MG_CHECK(memcmp((got), (want), (n) * sizeof (got)[0]) == 0)

MG_TEST(float_to_half_every_mode) {
    /* 0.5+2^-12 (the docs' example), 1+2^-11 (tie, even below), 1+3*2^-11 (tie, odd below),
       -(1+2^-11), 70000 (above 65504), 65520 (IEEE's tie to infinity), -70000, inf, 2^-25
       (tie between 0 and the least subnormal), 3*2^-26 */
    const float x[] = {0x1.002p-1f, 0x1.002p0f, 0x1.006p0f, -0x1.002p0f, 70000.0f,
                       65520.0f, -70000.0f, INFINITY, 0x1p-25f, 0x1.8p-25f};
    enum { N = sizeof x / sizeof x[0] };
    static const uint16_t want[7][N] = {
        /* NONE = RINT */ {0x3800, 0x3C00, 0x3C02, 0xBC00, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0000, 0x0001},
        /* RINT  */ {0x3800, 0x3C00, 0x3C02, 0xBC00, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0000, 0x0001},
        /* FLOOR */ {0x3800, 0x3C00, 0x3C01, 0xBC01, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0000, 0x0000},
        /* CEIL  */ {0x3801, 0x3C01, 0x3C02, 0xBC00, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0001, 0x0001},
        /* ROUND */ {0x3801, 0x3C01, 0x3C02, 0xBC01, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0001, 0x0001},
        /* TRUNC */ {0x3800, 0x3C00, 0x3C01, 0xBC00, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0000, 0x0000},
        /* ODD   */ {0x3801, 0x3C01, 0x3C01, 0xBC01, 0x7BFF, 0x7BFF, 0xFBFF, 0x7C00, 0x0001, 0x0001},
    };
    for (int mode = NONE; mode <= ODD; mode++) {
        uint16_t got[N];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, x, ASC_TWIN_F16, mode, N, got), 0);
        CHECK_U16(got, want[mode], N);
    }
    const float nan_in[1] = {NAN};
    uint16_t h[1];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, nan_in, ASC_TWIN_F16, RINT, 1, h), 0);
    MG_CHECK((h[0] & 0x7C00) == 0x7C00 && (h[0] & 0x3FF) != 0);
}

MG_TEST(float_to_bfloat16_every_mode) {
    /* 0.5+2^-9+2^-11 (the docs' example), 1+2^-8 (tie, even below), -(1+2^-8), FLT_MAX */
    const float x[] = {0x1.014p-1f, 0x1.01p0f, -0x1.01p0f, FLT_MAX};
    enum { N = 4 };
    static const uint16_t want[6][N] = {
        {0}, /* CAST_NONE is not documented for float -> bfloat16 */
        /* RINT  */ {0x3F01, 0x3F80, 0xBF80, 0x7F7F},
        /* FLOOR */ {0x3F00, 0x3F80, 0xBF81, 0x7F7F},
        /* CEIL  */ {0x3F01, 0x3F81, 0xBF80, 0x7F7F},
        /* ROUND */ {0x3F01, 0x3F81, 0xBF81, 0x7F7F},
        /* TRUNC */ {0x3F00, 0x3F80, 0xBF80, 0x7F7F},
    };
    for (int mode = RINT; mode <= TRUNC; mode++) {
        uint16_t got[N];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, x, ASC_TWIN_BF16, mode, N, got), 0);
        CHECK_U16(got, want[mode], N);
    }
}

MG_TEST(float_to_integers_every_mode) {
    /* 2.5, -2.5, 3.5, -0.4, 2^22+0.5 (the docs' example), 3e9, -3e9, NaN, inf */
    const float x[] = {2.5f, -2.5f, 3.5f, -0.4f, 0x1.000002p22f, 3e9f, -3e9f, NAN, INFINITY};
    enum { N = 9 };
    static const int32_t want[6][N] = {
        {0},
        /* RINT  */ {2, -2, 4, 0, 4194304, INT32_MAX, INT32_MIN, 0, INT32_MAX},
        /* FLOOR */ {2, -3, 3, -1, 4194304, INT32_MAX, INT32_MIN, 0, INT32_MAX},
        /* CEIL  */ {3, -2, 4, 0, 4194305, INT32_MAX, INT32_MIN, 0, INT32_MAX},
        /* ROUND */ {3, -3, 4, 0, 4194305, INT32_MAX, INT32_MIN, 0, INT32_MAX},
        /* TRUNC */ {2, -2, 3, 0, 4194304, INT32_MAX, INT32_MIN, 0, INT32_MAX},
    };
    for (int mode = RINT; mode <= TRUNC; mode++) {
        int32_t got[N];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, x, ASC_TWIN_I32, mode, N, got), 0);
        CHECK_I64(got, want[mode], N);
    }
    /* int16: the docs' 2^22+0.5 saturates in every mode; int64: 1e18f is 999999984306749440 */
    int16_t s[2];
    const float xs[2] = {0x1.000002p22f, -40000.5f};
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, xs, ASC_TWIN_I16, ROUND, 2, s), 0);
    MG_CHECK(s[0] == INT16_MAX && s[1] == INT16_MIN);
    int64_t l[4];
    const float xl[4] = {1e18f, 1e19f, -1e19f, -2.5f};
    const int64_t wl[4] = {999999984306749440LL, INT64_MAX, INT64_MIN, -3};
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, xl, ASC_TWIN_I64, ROUND, 4, l), 0);
    CHECK_I64(l, wl, 4);
}

MG_TEST(float_to_float_rounds_to_integers) {
    const float x[] = {0.5f, -0.5f, 1e10f, -0.3f, 2.5f};
    enum { N = 5 };
    static const float want[6][N] = {
        {0},
        /* RINT  */ {0.0f, -0.0f, 1e10f, -0.0f, 2.0f},
        /* FLOOR */ {0.0f, -1.0f, 1e10f, -1.0f, 2.0f},
        /* CEIL  */ {1.0f, -0.0f, 1e10f, -0.0f, 3.0f},
        /* ROUND */ {1.0f, -1.0f, 1e10f, -0.0f, 3.0f},
        /* TRUNC */ {0.0f, -0.0f, 1e10f, -0.0f, 2.0f},
    };
    for (int mode = RINT; mode <= TRUNC; mode++) {
        float got[N];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_F32, x, ASC_TWIN_F32, mode, N, got), 0);
        for (int i = 0; i < N; i++) MG_CHECK(got[i] == want[mode][i] && signbit(got[i]) == signbit(want[mode][i]));
    }
}

MG_TEST(half_and_bfloat16_sources) {
    /* half: -1.5 (0xBE00, the docs' example), 127.5 (0x57F8), -200 (0xDA40), 2.5 (0x4100) */
    const uint16_t h[] = {0xBE00, 0x57F8, 0xDA40, 0x4100};
    int32_t i32[4];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, h, ASC_TWIN_I32, FLOOR, 4, i32), 0);
    const int32_t w_floor[4] = {-2, 127, -200, 2};
    CHECK_I64(i32, w_floor, 4);
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, h, ASC_TWIN_I32, CEIL, 4, i32), 0);
    const int32_t w_ceil[4] = {-1, 128, -200, 3};
    CHECK_I64(i32, w_ceil, 4);
    int8_t i8[4];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, h, ASC_TWIN_I8, NONE, 4, i8), 0); /* lossy: CAST_RINT */
    const int8_t w_i8[4] = {-2, 127, -128, 2};
    CHECK_I64(i8, w_i8, 4);
    int16_t i16[4];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, h, ASC_TWIN_I16, RINT, 4, i16), 0);
    const int16_t w_i16[4] = {-2, 128, -200, 2};
    CHECK_I64(i16, w_i16, 4);
    /* uint8: 1.75 (0x3F00) in each mode, 300 (0x5CB0) saturates */
    const uint16_t hu[2] = {0x3F00, 0x5CB0};
    uint8_t u8[2];
    const uint8_t w_u8[6][2] = {{0}, {2, 255}, {1, 255}, {2, 255}, {2, 255}, {1, 255}};
    for (int mode = RINT; mode <= TRUNC; mode++) {
        MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, hu, ASC_TWIN_U8, mode, 2, u8), 0);
        CHECK_I64(u8, w_u8[mode], 2);
    }
    /* half 1.5 - 2^-10 (0x3DFF) and bfloat16 1.5 - 2^-6 (0x3FBE) widen exactly */
    float f[1];
    const uint16_t h1[1] = {0x3DFF}, b1[1] = {0x3FBE};
    MG_CHECK_EQ_INT(cast(ASC_TWIN_F16, h1, ASC_TWIN_F32, NONE, 1, f), 0);
    MG_CHECK(f[0] == 1.4990234375f);
    MG_CHECK_EQ_INT(cast(ASC_TWIN_BF16, b1, ASC_TWIN_F32, NONE, 1, f), 0);
    MG_CHECK(f[0] == 1.484375f);
    /* bfloat16 2^6 + 0.5 (0x4281) to int32, the docs' example */
    const uint16_t b2[1] = {0x4281};
    const int32_t w_b[6] = {0, 64, 64, 65, 65, 64};
    for (int mode = RINT; mode <= TRUNC; mode++) {
        MG_CHECK_EQ_INT(cast(ASC_TWIN_BF16, b2, ASC_TWIN_I32, mode, 1, i32), 0);
        MG_CHECK_EQ_INT(i32[0], w_b[mode]);
    }
}

MG_TEST(integer_sources) {
    /* int32 -> float: 2^25+3 (the docs' example), 2^25+2 (tie), -(2^25+2) */
    const int32_t x[3] = {33554435, 33554434, -33554434};
    static const float want[6][3] = {
        /* NONE  */ {33554436.0f, 33554432.0f, -33554432.0f},
        /* RINT  */ {33554436.0f, 33554432.0f, -33554432.0f},
        /* FLOOR */ {33554432.0f, 33554432.0f, -33554436.0f},
        /* CEIL  */ {33554436.0f, 33554436.0f, -33554432.0f},
        /* ROUND */ {33554436.0f, 33554436.0f, -33554436.0f},
        /* TRUNC */ {33554432.0f, 33554432.0f, -33554432.0f},
    };
    for (int mode = NONE; mode <= TRUNC; mode++) {
        float got[3];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_I32, x, ASC_TWIN_F32, mode, 3, got), 0);
        for (int i = 0; i < 3; i++) MG_CHECK(got[i] == want[mode][i]);
    }
    /* int16 -> half: 2^12+2 (the docs' example): 0x6C00 / 0x6C01 */
    const int16_t s[1] = {4098};
    const uint16_t w_h[6] = {0x6C00, 0x6C00, 0x6C00, 0x6C01, 0x6C01, 0x6C00};
    for (int mode = NONE; mode <= TRUNC; mode++) {
        uint16_t h[1];
        MG_CHECK_EQ_INT(cast(ASC_TWIN_I16, s, ASC_TWIN_F16, mode, 1, h), 0);
        MG_CHECK_EQ_INT(h[0], w_h[mode]);
    }
    /* uint8 255 -> half 0x5BF8, int8 -1 -> 0xBC00 */
    const uint8_t u[1] = {255};
    const int8_t c[1] = {-1};
    uint16_t h[1];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_U8, u, ASC_TWIN_F16, NONE, 1, h), 0);
    MG_CHECK_EQ_INT(h[0], 0x5BF8);
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I8, c, ASC_TWIN_F16, NONE, 1, h), 0);
    MG_CHECK_EQ_INT(h[0], 0xBC00);
    /* int32 -> int16 saturates; int64 -> int32 saturates; int32 -> int64 widens */
    const int32_t wide[2] = {70000, -70000};
    int16_t narrow[2];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I32, wide, ASC_TWIN_I16, NONE, 2, narrow), 0);
    MG_CHECK(narrow[0] == INT16_MAX && narrow[1] == INT16_MIN);
    const int64_t big[2] = {1LL << 40, -5};
    int32_t i32[2];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I64, big, ASC_TWIN_I32, NONE, 2, i32), 0);
    MG_CHECK(i32[0] == INT32_MAX && i32[1] == -5);
    int64_t back[2];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I32, i32, ASC_TWIN_I64, NONE, 2, back), 0);
    MG_CHECK(back[0] == INT32_MAX && back[1] == -5);
    /* int64 -> float: 2^60 + 2^36 + 1 (above the tie), 2^60 + 2^36 (the tie; ulp 2^37) */
    const int64_t l[2] = {(1LL << 60) + (1LL << 36) + 1, (1LL << 60) + (1LL << 36)};
    float f[2];
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I64, l, ASC_TWIN_F32, RINT, 2, f), 0);
    MG_CHECK(f[0] == 0x1.000002p60f && f[1] == 0x1p60f);
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I64, l, ASC_TWIN_F32, ROUND, 2, f), 0);
    MG_CHECK(f[0] == 0x1.000002p60f && f[1] == 0x1.000002p60f);
    MG_CHECK_EQ_INT(cast(ASC_TWIN_I64, l, ASC_TWIN_F32, TRUNC, 2, f), 0);
    MG_CHECK(f[0] == 0x1p60f && f[1] == 0x1p60f);
}

/* float -> half / bfloat16 to nearest, against rounding done here in double: the value
   scaled to the format's grid, rounded by nearbyint (ties to even, the default mode) or round
   (ties away), saturated, then encoded from the formats' definitions. */
static uint16_t ref_narrow(float f, int half, int away) {
    double a = fabs((double)f);
    int p = half ? 10 : 7, emin = half ? -14 : -126;
    double max = half ? 65504.0 : 0x1.fep127;
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    if (isinf(f)) return (uint16_t)(sign | (half ? 0x7C00 : 0x7F80));
    double q = a < ldexp(1.0, emin) ? ldexp(1.0, emin - p) : ldexp(1.0, ilogb(a) - p);
    double r = (away ? round(a / q) : nearbyint(a / q)) * q;
    if (r > max) r = max;
    if (r == 0) return sign;
    int e = ilogb(r);
    if (e < emin) return (uint16_t)(sign | (uint16_t)(r / ldexp(1.0, emin - p)));
    int bias = half ? 15 : 127;
    return (uint16_t)(sign | ((e + bias) << p) | (uint16_t)(r / ldexp(1.0, e - p) - ldexp(1.0, p)));
}

MG_TEST(float_to_half_and_bfloat16_nearest_over_the_float_range) {
    enum { CHUNK = 1024 };
    float x[CHUNK];
    uint16_t got[CHUNK];
    long checked = 0, wrong = 0;
    for (int fmt = 0; fmt < 2; fmt++) {
        for (int mode = RINT; mode <= ROUND; mode += ROUND - RINT) {
            uint32_t u = 0;
            while (u < 0x7F800000u) {
                int n = 0;
                for (; n < CHUNK && u < 0x7F800000u; n++, u += 4093u) {
                    uint32_t bits = u | (n % 2 ? 0x80000000u : 0);
                    memcpy(&x[n], &bits, 4);
                }
                if (cast(ASC_TWIN_F32, x, fmt == 0 ? ASC_TWIN_F16 : ASC_TWIN_BF16, mode, n, got) != 0) {
                    wrong++;
                    break;
                }
                for (int i = 0; i < n; i++, checked++) {
                    uint16_t want = ref_narrow(x[i], fmt == 0, mode == ROUND);
                    if (got[i] != want && wrong++ < 5)
                        MG_FAIL("%s %s of %a: 0x%04x, expected 0x%04x", fmt ? "bf16" : "half", mode == ROUND ? "ROUND" : "RINT",
                                (double)x[i], got[i], want);
                }
            }
        }
    }
    printf("  %ld conversions checked\n", checked);
    MG_CHECK(wrong == 0 && checked > 1000000);
}

MG_TEST_MAIN()
