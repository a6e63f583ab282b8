/*
 * tests/ascendc/test_twin_cast_sweep.c: Cast over every conversion and round mode of CANN's
 * Atlas A2 table against a reference computed here another way: the exact source value in long
 * double, divided by its destination quantum (a power of two: exact), rounded by C's own
 * nearbyintl / roundl / floorl / ceill / truncl (round to odd by hand), scaled back and
 * saturated. Every half and bfloat16 bit pattern is a source; float and integer sources are a
 * fixed pseudo-random sample weighted to the edges (the least normal binades, the
 * subnormals, the overflow thresholds, the integer limits). Also: the conversions and modes
 * the table lacks are refused with their message and -1, and a negative value to uint8_t is
 * reported with its element.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

enum { NONE = ASC_TWIN_CAST_NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD };
enum { CHUNK = 8192 };

#define F32 ASC_TWIN_F32
#define F16 ASC_TWIN_F16
#define BF16 ASC_TWIN_BF16
#define I8 ASC_TWIN_I8
#define U8 ASC_TWIN_U8
#define I16 ASC_TWIN_I16
#define I32 ASC_TWIN_I32
#define I64 ASC_TWIN_I64

/* CANN's table for the A2 parts, as its documentation lists it (the modes each pair takes) */
#define FIVE ((1 << RINT) | (1 << FLOOR) | (1 << CEIL) | (1 << ROUND) | (1 << TRUNC))
static const struct {
    asc_twin_dtype src, dst;
    int modes;
} TABLE[] = {
    {F16, I32, FIVE},  {F16, I16, FIVE},       {F16, F32, 1 << NONE}, {F16, I8, FIVE | 1 << NONE},
    {F16, U8, FIVE | 1 << NONE},  {F32, F32, FIVE},  {F32, I32, FIVE}, {F32, F16, FIVE | 1 << ODD | 1 << NONE},
    {F32, I64, FIVE},  {F32, I16, FIVE},       {F32, BF16, FIVE},     {BF16, F32, 1 << NONE},
    {BF16, I32, FIVE}, {U8, F16, 1 << NONE},   {I8, F16, 1 << NONE},  {I16, F16, FIVE | 1 << NONE},
    {I16, F32, 1 << NONE}, {I32, F32, FIVE | 1 << NONE}, {I32, I16, 1 << NONE}, {I32, I64, 1 << NONE},
    {I64, I32, 1 << NONE}, {I64, F32, FIVE},
};

/* ---- the reference ------------------------------------------------------------------------ */

static int is_float(asc_twin_dtype d) { return d == F32 || d == F16 || d == BF16; }

/* the value of element i of a buffer of type dt (NaN for any NaN) */
static long double value_of(const uint8_t *p, asc_twin_dtype dt, size_t i) {
    uint64_t u = 0;
    uint32_t es = asc_twin_dtype_size(dt);
    for (uint32_t k = 0; k < es; k++) u |= (uint64_t)p[i * es + k] << (8 * k);
    int mbits, ebits;
    switch (dt) {
    case F32: mbits = 23, ebits = 8; break;
    case F16: mbits = 10, ebits = 5; break;
    case BF16: mbits = 7, ebits = 8; break;
    case I8: return (int8_t)u;
    case U8: return (uint8_t)u;
    case I16: return (int16_t)u;
    case I32: return (int32_t)u;
    default: return (int64_t)u;
    }
    int bias = (1 << (ebits - 1)) - 1;
    uint64_t man = u & ((1u << mbits) - 1), ex = (u >> mbits) & ((1u << ebits) - 1);
    int neg = (int)(u >> (mbits + ebits)) & 1;
    long double v;
    if (ex == (uint64_t)(1 << ebits) - 1) v = man ? NAN : INFINITY;
    else if (ex == 0) v = ldexpl((long double)man, 1 - bias - mbits);
    else v = ldexpl((long double)(man | (1ull << mbits)), (int)ex - bias - mbits);
    return neg ? -v : v;
}

static long double round_mode(long double k, int mode) {
    switch (mode) {
    case FLOOR: return floorl(k);
    case CEIL: return ceill(k);
    case ROUND: return roundl(k);
    case TRUNC: return truncl(k);
    case ODD: {
        long double t = truncl(k);
        if (t != k && fmodl(fabsl(t), 2.0L) == 0.0L) t += k < 0 ? -1.0L : 1.0L; /* toward zero, last bit set */
        return t;
    }
    default: return nearbyintl(k); /* the default rounding: nearest, ties to even */
    }
}

/* the expected value of v cast to d in `mode` (float destinations: rounded to the format, or
   to an integer for float -> float; integer destinations: rounded to an integer, saturated) */
static long double expected(long double v, asc_twin_dtype s, asc_twin_dtype d, int mode) {
    if (is_float(d)) {
        if (isnan(v) || isinf(v)) return v;
        int p = d == F32 ? 24 : d == F16 ? 11 : 8, emin = d == F16 ? -14 : -126;
        long double max = d == F32 ? (long double)FLT_MAX : d == F16 ? 65504.0L : (long double)0x1.fep127;
        int q;
        if (s == F32 && d == F32) q = 0;
        else {
            int e;
            if (v == 0) return v;
            frexpl(v, &e); /* |v| in [2^(e-1), 2^e) */
            q = (e - 1 > emin ? e - 1 : emin) - (p - 1);
        }
        long double r = ldexpl(round_mode(ldexpl(v, -q), mode), q);
        if (r > max) r = max;
        if (r < -max) r = -max;
        return r;
    }
    long double lo = d == I8 ? -128.0L : d == U8 ? 0.0L : d == I16 ? -32768.0L : d == I32 ? -2147483648.0L
                                                                                         : -9223372036854775808.0L;
    long double hi = d == I8 ? 127.0L : d == U8 ? 255.0L : d == I16 ? 32767.0L : d == I32 ? 2147483647.0L
                                                                                         : 9223372036854775807.0L;
    if (isnan(v)) return 0;
    long double r = isinf(v) ? v : round_mode(v, mode);
    return r < lo ? lo : r > hi ? hi : r;
}

/* ---- sources ------------------------------------------------------------------------------ */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return g_rng;
}

/* n source elements of type s into buf */
static size_t sources(asc_twin_dtype s, asc_twin_dtype d, uint8_t *buf, size_t cap) {
    size_t n = 0;
    if (s == F16 || s == BF16) {
        for (uint32_t u = 0; u < 65536 && n < cap; u++) {
            buf[2 * n] = (uint8_t)u, buf[2 * n + 1] = (uint8_t)(u >> 8);
            n++;
        }
    } else if (s == F32) {
        /* exponents around the destination's edges, random mantissas and signs */
        static const int centers[] = {-150, -149, -140, -134, -127, -126, -125, -124, -27, -26, -25, -24, -23,
                                      -16,  -15,  -14,  -13,  -12,  -1,   0,    1,    7,   8,   14,  15,  16,
                                      22,   23,   24,   30,   31,   32,   62,   63,   64,  126, 127};
        for (size_t c = 0; c < sizeof centers / sizeof centers[0]; c++)
            for (int k = 0; k < 200 && n < cap; k++) {
                uint64_t r = next();
                int e = centers[c] + (int)(r % 3) - 1;
                uint32_t man = (uint32_t)(r >> 8) & 0x7fffff;
                if (k < 8) man &= 0x7ff000u >> (k * 2); /* a few with few bits: ties */
                uint32_t bits;
                if (e < -126) { /* a subnormal float */
                    int shift = -126 - e;
                    bits = shift > 23 ? 1u : (0x800000u | man) >> shift;
                } else {
                    bits = (uint32_t)((e > 127 ? 127 : e) + 127) << 23 | man;
                }
                bits |= (uint32_t)(r >> 40) & 0x80000000u;
                memcpy(buf + 4 * n, &bits, 4);
                n++;
            }
        static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, 65504.0f, 65519.99f,
                                        65520.0f, 2147483520.0f, 2147483648.0f, -2147483648.0f, 9.2233715e18f,
                                        9.223372e18f, -9.223372e18f, 32767.5f, -32768.5f, 127.5f, -128.5f, 255.5f,
                                        0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f};
        for (size_t k = 0; k < sizeof special / sizeof special[0] && n < cap; k++) memcpy(buf + 4 * n++, &special[k], 4);
    } else {
        uint32_t es = asc_twin_dtype_size(s);
        for (int k = 0; k < 4000 && n < cap; k++) {
            uint64_t r = next();
            int bits = (int)(r % (8 * es)) + 1; /* magnitudes of every width */
            uint64_t v = (r >> 8) & (bits >= 64 ? UINT64_MAX : ((1ull << bits) - 1));
            if (r & 0x10) v = (uint64_t)0 - v;
            if (k < 4) v = k == 0 ? 0 : k == 1 ? 1ull << (8 * es - 1) : k == 2 ? (1ull << (8 * es - 1)) - 1 : UINT64_MAX;
            for (uint32_t b = 0; b < es; b++) buf[es * n + b] = (uint8_t)(v >> (8 * b));
            n++;
        }
    }
    /* uint8_t takes no negative value (CANN: an exception): leave those out */
    if (d == U8) {
        size_t kept = 0;
        uint32_t es = asc_twin_dtype_size(s);
        for (size_t i = 0; i < n; i++) {
            long double v = value_of(buf, s, i);
            if (v < 0) continue;
            memmove(buf + kept * es, buf + i * es, es);
            kept++;
        }
        n = kept;
    }
    return n;
}

/* ---- the kernel ---------------------------------------------------------------------------- */

static asc_twin_dtype g_s, g_d;
static int g_mode;
static size_t g_n;
static const uint8_t *g_src;
static uint8_t *g_dst;
static int g_rc;

static int g_in_place; /* the destination at the source's address */

static void kernel(uint8_t *const *args) {
    (void)args;
    uint32_t ses = asc_twin_dtype_size(g_s), des = asc_twin_dtype_size(g_d);
    asc_twin_ub_ref s = tt_ub(0, (uint64_t)CHUNK * 8, g_s),
                    d = tt_ub(g_in_place ? 0 : (uint64_t)CHUNK * 8, (uint64_t)CHUNK * 8, g_d);
    if (!g_in_place) memset(d.addr, 0x77, (g_n + 8) * des);
    memcpy(s.addr, g_src, g_n * ses);
    g_rc = asc_twin_cast(d, s, (asc_twin_round_mode)g_mode, g_n);
    memcpy(g_dst, d.addr, g_n * des);
    if (g_in_place) return;
    for (size_t b = g_n * des; b < (g_n + 8) * des; b++)
        if (d.addr[b] != 0x77) g_rc = 1000; /* a byte past the count written */
}
static const asc_twin_kernel k_sweep = {"twin_sweep", 0, 1, kernel};
static char g_msg[512];

static int run_cast(asc_twin_dtype s, asc_twin_dtype d, int mode, const uint8_t *src, uint8_t *dst, size_t n) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    }
    g_s = s, g_d = d, g_mode = mode, g_src = src, g_dst = dst, g_n = n;
    g_rc = 99;
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    return tt_run(&k_sweep, 1, args, 1, g_msg, sizeof g_msg);
}

static uint8_t g_in[65536 * 8], g_out[65536 * 8];

static void sweep_every_conversion(void) {
    size_t compared = 0;
    for (size_t t = 0; t < sizeof TABLE / sizeof TABLE[0]; t++) {
        asc_twin_dtype s = TABLE[t].src, d = TABLE[t].dst;
        size_t n = sources(s, d, g_in, 65536);
        uint32_t ses = asc_twin_dtype_size(s), des = asc_twin_dtype_size(d);
        for (int mode = NONE; mode <= ODD; mode++) {
            if (!(TABLE[t].modes & (1 << mode))) continue;
            int bad = 0;
            for (size_t at = 0; at < n && !bad; at += CHUNK) {
                size_t m = n - at < CHUNK ? n - at : CHUNK;
                int status = run_cast(s, d, mode, g_in + at * ses, g_out, m);
                if (status != 0 || g_rc != 0) {
                    MG_FAIL("%d -> %d mode %d: %d \"%s\"", s, d, mode, status, g_msg);
                    break;
                }
                for (size_t i = 0; i < m; i++) {
                    long double v = value_of(g_in + at * ses, s, i), got = value_of(g_out, d, i);
                    long double want = expected(v, s, d, mode);
                    compared++;
                    int same = isnan(want) ? isnan(got) : got == want && (!is_float(d) || signbit(got) == signbit(want));
                    if (!same) {
                        uint64_t sb = 0, db = 0;
                        memcpy(&sb, g_in + (at + i) * ses, ses);
                        memcpy(&db, g_out + i * des, des);
                        MG_FAIL("%d -> %d mode %d: source 0x%llx (%.12Lg) gave 0x%llx (%.12Lg), expected %.12Lg", s, d,
                                mode, (unsigned long long)sb, v, (unsigned long long)db, got, want);
                        bad = 1;
                        break;
                    }
                }
            }
        }
    }
    MG_CHECK(compared > 0);
}

MG_TEST(every_conversion_and_mode_against_an_exact_reference) { sweep_every_conversion(); }

/* In place, the destination at the source's address: a narrowing or same-size cast reads each
   element before anything writes over it (no snapshot, no warning), a widening one is
   warned of and reads a snapshot; either way every result is the reference's (seed 49's
   survivor: the fast float -> half/bfloat16 loop reported not run, so the element loop
   converted again from a source the fast loop had already overwritten). */
MG_TEST(every_conversion_and_mode_in_place) {
    g_in_place = 1;
    sweep_every_conversion();
    g_in_place = 0;
}

/* ---- refusals ---------------------------------------------------------------------------- */

static void expect_refused(asc_twin_dtype s, asc_twin_dtype d, int mode, const char *want) {
    memset(g_in, 0, 64);
    MG_CHECK_EQ_INT(run_cast(s, d, mode, g_in, g_out, 8), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("\"%s\", expected \"%s\"", g_msg, want);
    MG_CHECK_EQ_INT(g_rc, -1);
}

MG_TEST(conversions_and_modes_outside_the_table) {
    /* every pair of types: in the table (a mode it takes passes) or refused */
    static const asc_twin_dtype all[] = {F32, F16, BF16, I8, U8, I16, ASC_TWIN_U16, I32, ASC_TWIN_U32, I64, ASC_TWIN_U64};
    static const char *names[] = {"float", "half", "bfloat16_t", "int8_t", "uint8_t", "int16_t", "uint16_t",
                                  "int32_t", "uint32_t", "int64_t", "uint64_t"};
    for (int a = 0; a < 11; a++)
        for (int b = 0; b < 11; b++) {
            int modes = 0;
            for (size_t t = 0; t < sizeof TABLE / sizeof TABLE[0]; t++)
                if (TABLE[t].src == all[a] && TABLE[t].dst == all[b]) modes = TABLE[t].modes;
            for (int mode = NONE; mode <= ODD + 1; mode++) {
                char want[200];
                if (modes == 0)
                    snprintf(want, sizeof want,
                             "twin_sweep block 0: Cast: %s to %s is not a conversion CANN's Cast supports (Atlas A2 table)",
                             names[a], names[b]);
                else if (mode > ODD || !(modes & (1 << mode)))
                    snprintf(want, sizeof want, "twin_sweep block 0: Cast: %s to %s does not take %s", names[a],
                             names[b],
                             mode == NONE    ? "CAST_NONE"
                             : mode == RINT  ? "CAST_RINT"
                             : mode == FLOOR ? "CAST_FLOOR"
                             : mode == CEIL  ? "CAST_CEIL"
                             : mode == ROUND ? "CAST_ROUND"
                             : mode == TRUNC ? "CAST_TRUNC"
                             : mode == ODD   ? "CAST_ODD"
                                             : "an unknown round mode");
                else {
                    memset(g_in, 0, 64);
                    MG_CHECK_EQ_INT(run_cast(all[a], all[b], mode, g_in, g_out, 8), 0);
                    MG_CHECK_EQ_INT(g_rc, 0);
                    continue;
                }
                expect_refused(all[a], all[b], mode, want);
            }
        }
    /* a negative value to uint8_t is CANN's exception: reported with its element */
    const uint16_t h[4] = {0x3c00, 0x8000, 0xc000, 0x3c00}; /* 1, -0 (passes), -2 */
    memcpy(g_in, h, sizeof h);
    MG_CHECK_EQ_INT(run_cast(F16, U8, RINT, g_in, g_out, 4), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "twin_sweep block 0: Cast: element 2 is -2, negative for uint8_t (CANN's Cast treats it "
                                 "as an exception)");
    MG_CHECK_EQ_INT(g_rc, -1);
    const uint16_t inf[2] = {0x0000, 0xfc00}; /* -inf */
    memcpy(g_in, inf, sizeof inf);
    MG_CHECK_EQ_INT(run_cast(F16, U8, FLOOR, g_in, g_out, 2), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "Cast: element 1 is -inf, negative for uint8_t");
    const uint16_t nan[2] = {0xfe00, 0x0000}; /* a negative NaN: 0, not an exception */
    memcpy(g_in, nan, sizeof nan);
    MG_CHECK_EQ_INT(run_cast(F16, U8, FLOOR, g_in, g_out, 2), 0);
    MG_CHECK_EQ_INT(g_out[0], 0);
}

/* ---- ScalarCast: a float to each destination of the float rows ------------------------------ */

static const float SC_VALUES[] = {2.5f, -2.5f, 3.5f, -0.4f, 0x1.002p0f, 0x1.006p0f, 0x1.01p0f, -0x1.01p0f, 70000.0f,
                                  65520.0f, 3e9f, -3e9f, 0x1p-25f, 0x1.8p-25f, 0x1.0008p-13f, 1e20f, -1e20f, 0.0f};
enum { SC_N = sizeof SC_VALUES / sizeof SC_VALUES[0] };
static double g_sc[8][8][SC_N];
static int g_sc_rc[8][8][SC_N];
static asc_twin_dtype g_sc_to;
static int g_sc_refused_rc;
static void scalar_casts(uint8_t *const *args) {
    (void)args;
    static const asc_twin_dtype to[] = {F32, I32, F16, I64, I16, BF16};
    for (int t = 0; t < 6; t++)
        for (int mode = NONE; mode <= ODD; mode++)
            for (int i = 0; i < SC_N; i++) {
                int modes = 0;
                for (size_t k = 0; k < sizeof TABLE / sizeof TABLE[0]; k++)
                    if (TABLE[k].src == F32 && TABLE[k].dst == to[t]) modes = TABLE[k].modes;
                if (!(modes & (1 << mode))) continue;
                g_sc_rc[t][mode][i] = asc_twin_scalar_cast(SC_VALUES[i], to[t], (asc_twin_round_mode)mode, &g_sc[t][mode][i]);
            }
}
static void scalar_cast_refused(uint8_t *const *args) {
    (void)args;
    double v = 12345.0;
    g_sc_refused_rc = asc_twin_scalar_cast(1.5f, g_sc_to, (asc_twin_round_mode)g_mode, &v);
    if (v != 12345.0) g_sc_refused_rc = 100; /* nothing written */
}

MG_TEST(scalar_cast_against_the_reference) {
    static const asc_twin_dtype to[] = {F32, I32, F16, I64, I16, BF16};
    g_s = F32;
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    static const asc_twin_kernel k_sc = {"twin_sweep", 0, 1, scalar_casts};
    run_cast(F32, F32, RINT, g_in, g_out, 1); /* (initialises) */
    MG_CHECK_EQ_INT(tt_run(&k_sc, 1, args, 1, g_msg, sizeof g_msg), 0);
    for (int t = 0; t < 6; t++)
        for (int mode = NONE; mode <= ODD; mode++) {
            int modes = 0;
            for (size_t k = 0; k < sizeof TABLE / sizeof TABLE[0]; k++)
                if (TABLE[k].src == F32 && TABLE[k].dst == to[t]) modes = TABLE[k].modes;
            if (!(modes & (1 << mode))) continue;
            for (int i = 0; i < SC_N; i++) {
                long double want = expected(SC_VALUES[i], F32, to[t], mode);
                if (g_sc_rc[t][mode][i] != 0 || g_sc[t][mode][i] != (double)want) /* the result is a double */
                    MG_FAIL("ScalarCast %.9g to %d mode %d: %d %.12g, expected %.12Lg", (double)SC_VALUES[i], to[t],
                            mode, g_sc_rc[t][mode][i], g_sc[t][mode][i], want);
            }
        }
    /* what the table lacks: refused, -1, nothing written */
    static const struct {
        asc_twin_dtype to;
        int mode;
        const char *want;
    } refused[] = {
        {U8, RINT, "twin_sweep block 0: ScalarCast: float to uint8_t in CAST_RINT is not a conversion CANN's Cast supports"},
        {I32, NONE, "twin_sweep block 0: ScalarCast: float to int32_t in CAST_NONE is not a conversion CANN's Cast supports"},
        {BF16, ODD, "twin_sweep block 0: ScalarCast: float to bfloat16_t in CAST_ODD is not a conversion CANN's Cast "
                    "supports"},
        {F16, ODD + 1, "twin_sweep block 0: ScalarCast: float to half in an unknown round mode is not a conversion "
                       "CANN's Cast supports"},
        {F16, -1, "twin_sweep block 0: ScalarCast: float to half in an unknown round mode is not a conversion CANN's "
                  "Cast supports"},
    };
    static const asc_twin_kernel k_ref = {"twin_sweep", 0, 1, scalar_cast_refused};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        g_sc_to = refused[k].to, g_mode = refused[k].mode;
        MG_CHECK_EQ_INT(tt_run(&k_ref, 1, args, 1, g_msg, sizeof g_msg), ACL_ERROR_RT_AICORE_EXCEPTION);
        if (strcmp(g_msg, refused[k].want) != 0) MG_FAIL("\"%s\", expected \"%s\"", g_msg, refused[k].want);
        MG_CHECK_EQ_INT(g_sc_refused_rc, -1);
    }
}

MG_TEST_MAIN()
