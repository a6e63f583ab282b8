/*
 * ascendc/core/vec_cast.c: Cast, exactly as CANN's Cast documentation states it for the Atlas
 * A2 parts (the default profile's SoC): the conversions and round modes its table lists, each
 * value rounded once from its exact value:
 *   CAST_RINT  nearest, ties to even      CAST_ROUND nearest, ties away from zero
 *   CAST_FLOOR toward -inf                CAST_CEIL  toward +inf
 *   CAST_TRUNC toward zero                CAST_ODD   toward zero, then the last bit set when
 *                                                    anything was dropped (round to odd)
 *   CAST_NONE  CAST_RINT where the conversion loses precision, exact where it cannot.
 * Overflow saturates ("溢出默认按照饱和处理"): to the integer type's limits, to the largest finite
 * half / bfloat16 / float. Undocumented, the twin's choice: NaN stays NaN in a float type and
 * becomes 0 in an integer one; an infinity stays infinite in a float type and saturates in an
 * integer one. A negative value cast to uint8_t, which the docs call an exception, is reported.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt.h"
#include "twin_block.h"
#include "vec_internal.h"

enum { M_NONE = 1 << ASC_TWIN_CAST_NONE, M_RINT = 1 << ASC_TWIN_CAST_RINT, M_FLOOR = 1 << ASC_TWIN_CAST_FLOOR,
       M_CEIL = 1 << ASC_TWIN_CAST_CEIL, M_ROUND = 1 << ASC_TWIN_CAST_ROUND, M_TRUNC = 1 << ASC_TWIN_CAST_TRUNC,
       M_ODD = 1 << ASC_TWIN_CAST_ODD, M_FIVE = M_RINT | M_FLOOR | M_CEIL | M_ROUND | M_TRUNC };

/* The Atlas A2 table of CANN's Cast documentation: source, destination, modes. */
static const struct cast_pair {
    asc_twin_dtype src, dst;
    int modes;
} pairs[] = {
    {ASC_TWIN_F16, ASC_TWIN_I32, M_FIVE},          {ASC_TWIN_F16, ASC_TWIN_I16, M_FIVE},
    {ASC_TWIN_F16, ASC_TWIN_F32, M_NONE},          {ASC_TWIN_F16, ASC_TWIN_I8, M_FIVE | M_NONE},
    {ASC_TWIN_F16, ASC_TWIN_U8, M_FIVE | M_NONE},  {ASC_TWIN_F32, ASC_TWIN_F32, M_FIVE},
    {ASC_TWIN_F32, ASC_TWIN_I32, M_FIVE},          {ASC_TWIN_F32, ASC_TWIN_F16, M_FIVE | M_ODD | M_NONE},
    {ASC_TWIN_F32, ASC_TWIN_I64, M_FIVE},          {ASC_TWIN_F32, ASC_TWIN_I16, M_FIVE},
    {ASC_TWIN_F32, ASC_TWIN_BF16, M_FIVE},         {ASC_TWIN_BF16, ASC_TWIN_F32, M_NONE},
    {ASC_TWIN_BF16, ASC_TWIN_I32, M_FIVE},         {ASC_TWIN_U8, ASC_TWIN_F16, M_NONE},
    {ASC_TWIN_I8, ASC_TWIN_F16, M_NONE},           {ASC_TWIN_I16, ASC_TWIN_F16, M_FIVE | M_NONE},
    {ASC_TWIN_I16, ASC_TWIN_F32, M_NONE},          {ASC_TWIN_I32, ASC_TWIN_F32, M_FIVE | M_NONE},
    {ASC_TWIN_I32, ASC_TWIN_I16, M_NONE},          {ASC_TWIN_I32, ASC_TWIN_I64, M_NONE},
    {ASC_TWIN_I64, ASC_TWIN_I32, M_NONE},          {ASC_TWIN_I64, ASC_TWIN_F32, M_FIVE},
};

static const char *mode_name(asc_twin_round_mode m) {
    static const char *names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL",
                                  "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    return (unsigned)m <= ASC_TWIN_CAST_ODD ? names[m] : "an unknown round mode";
}

/* A source element's exact value: (-1)^neg * mag * 2^exp, or NaN / infinity. */
typedef struct exact {
    int neg, nan, inf;
    uint64_t mag;
    int exp;
} exact;

static exact decode(const uint8_t *src, asc_twin_dtype dt, size_t i) {
    exact e = {0, 0, 0, 0, 0};
    if (twin_is_float(dt)) {
        int mbits, ebias, ebits;
        uint32_t u;
        if (dt == ASC_TWIN_F32) {
            memcpy(&u, src + 4 * i, 4);
            mbits = 23, ebits = 8, ebias = 127;
        } else {
            uint16_t h;
            memcpy(&h, src + 2 * i, 2);
            u = h;
            if (dt == ASC_TWIN_F16) mbits = 10, ebits = 5, ebias = 15;
            else mbits = 7, ebits = 8, ebias = 127;
        }
        uint32_t man = u & ((1u << mbits) - 1), ex = (u >> mbits) & ((1u << ebits) - 1);
        e.neg = (int)(u >> (mbits + ebits)) & 1;
        if (ex == (1u << ebits) - 1) {
            e.nan = man != 0;
            e.inf = man == 0;
            return e;
        }
        e.mag = ex == 0 ? man : man | (1u << mbits);
        e.exp = (ex == 0 ? 1 : (int)ex) - ebias - mbits;
        return e;
    }
    int64_t v = twin_load_int(src, dt, i);
    e.neg = v < 0;
    e.mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return e;
}

/* mag * 2^exp rounded to a multiple of 2^k (k > exp) by `mode`: the multiple's count. */
static uint64_t round_to(uint64_t mag, int exp, int k, int neg, asc_twin_round_mode mode) {
    int shift = k - exp;
    uint64_t keep = shift >= 64 ? 0 : mag >> shift;
    uint64_t rem = shift >= 64 ? mag : mag & ((((uint64_t)1) << shift) - 1);
    if (rem == 0) return keep;
    /* rem against half a quantum: -1 below, 0 at, 1 above */
    int cmp = shift > 64 ? -1 : shift == 64 ? (rem > ((uint64_t)1 << 63)) - (rem < ((uint64_t)1 << 63))
                                            : (rem > ((uint64_t)1 << (shift - 1))) - (rem < ((uint64_t)1 << (shift - 1)));
    switch (mode) {
    case ASC_TWIN_CAST_NONE:
    case ASC_TWIN_CAST_RINT: return keep + (cmp > 0 || (cmp == 0 && (keep & 1)));
    case ASC_TWIN_CAST_ROUND: return keep + (cmp >= 0);
    case ASC_TWIN_CAST_FLOOR: return keep + (neg != 0);
    case ASC_TWIN_CAST_CEIL: return keep + (neg == 0);
    case ASC_TWIN_CAST_ODD: return keep | 1;
    default: return keep;
    }
}

static int top_bit(uint64_t v) { return 63 - __builtin_clzll(v); }

/* Float formats: precision p (with the hidden bit), least normal exponent, largest finite. */
static void float_format(asc_twin_dtype dt, int *p, int *emin, double *max) {
    if (dt == ASC_TWIN_F16) *p = 11, *emin = -14, *max = 65504.0;
    else if (dt == ASC_TWIN_BF16) *p = 8, *emin = -126, *max = 0x1.fep127;
    else *p = 24, *emin = -126, *max = 0x1.fffffep127;
}

static void store_float(uint8_t *dst, asc_twin_dtype dt, size_t i, double v) {
    float f = (float)v; /* exact: v is representable in dt, hence in float */
    if (dt == ASC_TWIN_F32) memcpy(dst + 4 * i, &f, 4);
    else {
        uint16_t h = dt == ASC_TWIN_F16 ? twin_f32_to_f16(f) : twin_f32_to_bf16(f);
        memcpy(dst + 2 * i, &h, 2);
    }
}

static void int_limits(asc_twin_dtype dt, int64_t *lo, int64_t *hi) {
    switch (dt) {
    case ASC_TWIN_I8: *lo = INT8_MIN, *hi = INT8_MAX; break;
    case ASC_TWIN_U8: *lo = 0, *hi = UINT8_MAX; break;
    case ASC_TWIN_I16: *lo = INT16_MIN, *hi = INT16_MAX; break;
    case ASC_TWIN_I32: *lo = INT32_MIN, *hi = INT32_MAX; break;
    default: *lo = INT64_MIN, *hi = INT64_MAX; break;
    }
}

static void cast_one(uint8_t *dst, asc_twin_dtype ddt, const uint8_t *src, asc_twin_dtype sdt, size_t i,
                     asc_twin_round_mode mode) {
    exact e = decode(src, sdt, i);
    if (twin_is_float(ddt)) {
        if (e.nan || e.inf) {
            store_float(dst, ddt, i, e.nan ? (double)NAN : e.neg ? -(double)INFINITY : (double)INFINITY);
            return;
        }
        int p, emin;
        double max;
        float_format(ddt, &p, &emin, &max);
        /* float -> float rounds to an integer (CANN: "按照roundMode取整"); otherwise to dt's grid */
        int k;
        if (ddt == ASC_TWIN_F32 && sdt == ASC_TWIN_F32) k = 0;
        else k = e.mag == 0 ? e.exp : (top_bit(e.mag) + e.exp - p + 1 > emin - p + 1 ? top_bit(e.mag) + e.exp - p + 1
                                                                                  : emin - p + 1);
        double v;
        if (k <= e.exp) v = ldexp((double)e.mag, e.exp); /* exact already */
        else v = ldexp((double)round_to(e.mag, e.exp, k, e.neg, mode), k);
        if (v > max) v = max; /* saturation */
        store_float(dst, ddt, i, e.neg ? -v : v);
        return;
    }
    int64_t lo, hi, r;
    int_limits(ddt, &lo, &hi);
    if (e.nan) {
        r = 0;
    } else if (e.inf || (e.mag != 0 && top_bit(e.mag) + e.exp >= 63)) {
        r = e.neg ? lo : hi;
    } else {
        uint64_t m = e.exp >= 0 ? e.mag << e.exp : round_to(e.mag, e.exp, 0, e.neg, mode);
        /* m < 2^63 + 1 here; saturate against the limits */
        if (e.neg) r = m > (uint64_t)0 - (uint64_t)lo ? lo : (int64_t)((uint64_t)0 - m);
        else r = m > (uint64_t)hi ? hi : (int64_t)m;
        if (e.neg && lo == 0) r = 0;
    }
    twin_store_int(dst, ddt, i, r);
}

/* The conversions kernels use most run as loops over whole tiles that vectorize (vec_math.c):
   widening half/bfloat16 to float (exact), and float to half/bfloat16 rounding to nearest,
   ties to even (CAST_RINT, CAST_NONE) or away from zero (CAST_ROUND), saturating. They give
   the bits cast_one gives (the Cast test checks both against values computed outside the
   twin). 1 when the conversion ran there. */
static int cast_fast(uint8_t *d, asc_twin_dtype ddt, const uint8_t *s, asc_twin_dtype sdt, asc_twin_round_mode mode,
                     size_t n) {
    if (ddt == ASC_TWIN_F32 && (sdt == ASC_TWIN_F16 || sdt == ASC_TWIN_BF16)) {
        twin_widen_to_f32(d, s, sdt, n);
        return 1;
    }
    int nearest = mode == ASC_TWIN_CAST_NONE || mode == ASC_TWIN_CAST_RINT || mode == ASC_TWIN_CAST_ROUND;
    if (sdt == ASC_TWIN_F32 && (ddt == ASC_TWIN_F16 || ddt == ASC_TWIN_BF16) && nearest) {
        twin_narrow_nearest(d, ddt, s, mode == ASC_TWIN_CAST_ROUND, n);
        return 1;
    }
    return 0;
}

int asc_twin_cast(asc_twin_ub_ref dst, asc_twin_ub_ref src, asc_twin_round_mode mode, uint64_t count) {
    const char *api = "Cast";
    uint32_t des = asc_twin_dtype_size(dst.dtype), ses = asc_twin_dtype_size(src.dtype);
    twin_operand ops[2] = {{dst, "destination", count * des, 1}, {src, "source", count * ses, 1}};
    if (twin_check_ub(api, count, ops, 2) != 0) return -1;
    int modes = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        if (pairs[p].src == src.dtype && pairs[p].dst == dst.dtype) modes = pairs[p].modes;
    if (modes == 0) {
        asc_twin_report(api, "%s to %s is not a conversion CANN's Cast supports (Atlas A2 table)",
                        twin_dtype_name(src.dtype), twin_dtype_name(dst.dtype));
        return -1;
    }
    if ((unsigned)mode > ASC_TWIN_CAST_ODD || !(modes & (1 << mode))) {
        asc_twin_report(api, "%s to %s does not take %s", twin_dtype_name(src.dtype), twin_dtype_name(dst.dtype),
                        mode_name(mode));
        return -1;
    }
    size_t n = (size_t)count;
    if (dst.dtype == ASC_TWIN_U8) {
        for (size_t i = 0; i < n; i++) {
            exact e = decode(src.addr, src.dtype, i);
            if (e.neg && (e.mag != 0 || e.inf) && !e.nan) {
                float f;
                twin_load_f32(&f, src.addr + i * ses, src.dtype, 1);
                asc_twin_report(api, "element %zu is %g, negative for uint8_t (CANN's Cast treats it as an exception)",
                                i, (double)f);
                return -1;
            }
        }
    }
    /* same start and a destination element no wider than the source's: a forward loop reads
       each source element before anything overwrites it; any other overlap is a break */
    int inplace = 1;
    const uint8_t *s = src.addr;
    twin_sv ssh = twin_shadow(src.addr);
    uint8_t *owned = NULL;
    uint32_t *owned_shadow = NULL;
    int r = twin_check_overlap(api, &ops[0], &ops[1], inplace, "a wider destination overwrites its source");
    if (r < 0) return -1;
    if (r > 0) {
        owned = mgrt_malloc(n * ses + 1);
        if (owned == NULL || twin_sv_snapshot(ssh, n * ses, &owned_shadow, &ssh) != 0) {
            mgrt_free(owned);
            asc_twin_report(api, "no memory to snapshot %zu overlapping bytes", n * ses);
            return -1;
        }
        memcpy(owned, src.addr, n * ses);
        s = owned;
    }
    twin_propagate(twin_shadow(dst.addr), des, &ssh, ses, NULL, 0, n);
    if (!cast_fast(dst.addr, dst.dtype, s, src.dtype, mode, n))
        for (size_t i = 0; i < n; i++) cast_one(dst.addr, dst.dtype, s, src.dtype, i, mode);
    mgrt_free(owned);
    mgrt_free(owned_shadow);
    return 0;
}

int asc_twin_scalar_cast(float v, asc_twin_dtype to, asc_twin_round_mode mode, double *out) {
    int modes = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        if (pairs[p].src == ASC_TWIN_F32 && pairs[p].dst == to) modes = pairs[p].modes;
    if (modes == 0 || (unsigned)mode > ASC_TWIN_CAST_ODD || !(modes & (1 << mode))) {
        asc_twin_report("ScalarCast", "float to %s in %s is not a conversion CANN's Cast supports",
                        twin_dtype_name(to), mode_name(mode));
        return -1;
    }
    uint8_t src[4], dst[8] = {0};
    memcpy(src, &v, sizeof src);
    cast_one(dst, to, src, ASC_TWIN_F32, 0, mode);
    if (twin_is_float(to)) {
        float f;
        twin_load_f32(&f, dst, to, 1);
        *out = f;
    } else {
        *out = (double)twin_load_int(dst, to, 0);
    }
    return 0;
}
