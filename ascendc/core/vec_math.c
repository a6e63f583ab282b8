/*
 * ascendc/core/vec_math.c: the numbers of one vector instruction: element formats (half,
 * bfloat16, integers) and the float32 kernels each instruction runs over a UB tile. Every
 * result is an IEEE float32 per instruction; half and bfloat16 instructions compute in float
 * and round once to their format (nearest even).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "vec_internal.h"

/* Both conversions are selects over straight-line integer and float arithmetic, so that the
   tile loops of half instructions vectorize. */
float twin_f16_to_f32(uint16_t h) {
    /* exponent and mantissa moved to float's places, then scaled by 2^112: exact for normal
       and subnormal halves alike; infinities and NaNs get float's all-ones exponent */
    uint32_t em = (uint32_t)(h & 0x7fffu) << 13;
    float v = twin_bits_to_f32(em) * 0x1p112f;
    uint32_t bits = (h & 0x7c00u) == 0x7c00u ? em | 0x7f800000u : twin_f32_to_bits(v);
    return twin_bits_to_f32(bits | (uint32_t)(h & 0x8000u) << 16);
}

static inline __attribute__((always_inline)) uint16_t f32_to_f16(float f) {
    uint32_t u = twin_f32_to_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    /* below 2^-14: adding 0.5 (2^-1) puts the value's multiple of 2^-24 in the low mantissa
       bits, rounded to nearest even by the float addition itself */
    uint32_t sub = twin_f32_to_bits(twin_bits_to_f32(a) + 0.5f) - 0x3f000000u;
    /* normal: rebias 127 -> 15, nearest even on the 13 dropped bits (a carry into the
       exponent is right, up to infinity at 65520) */
    uint32_t norm = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
    uint32_t r = a < 0x38800000u ? sub : norm;
    r = a >= 0x47800000u ? 0x7c00u : r;                       /* 65536 and up: infinity */
    r = a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : r; /* NaN stays NaN, quiet */
    return (uint16_t)(sign | r);
}

uint16_t twin_f32_to_f16(float f) { return f32_to_f16(f); }

const char *twin_dtype_name(asc_twin_dtype d) {
    static const char *names[] = {"float", "half", "bfloat16_t", "int8_t", "uint8_t", "int16_t",
                                  "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"};
    return (unsigned)d < ASC_TWIN_DTYPE_COUNT ? names[d] : "unknown";
}

uint32_t asc_twin_dtype_size(asc_twin_dtype d) {
    static const uint32_t sizes[] = {4, 2, 2, 1, 1, 2, 2, 4, 4, 8, 8};
    return (unsigned)d < ASC_TWIN_DTYPE_COUNT ? sizes[d] : 0;
}

void twin_load_f32(float *out, const uint8_t *src, asc_twin_dtype dtype, size_t n) {
    if (dtype == ASC_TWIN_F32) {
        memcpy(out, src, n * 4);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint16_t h;
        memcpy(&h, src + 2 * i, 2);
        out[i] = dtype == ASC_TWIN_F16 ? twin_f16_to_f32(h) : twin_bf16_to_f32(h);
    }
}

void twin_store_f32(uint8_t *dst, asc_twin_dtype dtype, const float *in, size_t n) {
    if (dtype == ASC_TWIN_F32) {
        memmove(dst, in, n * 4);
        return;
    }
    /* one loop per format: each vectorizes */
    if (dtype == ASC_TWIN_F16) {
        for (size_t i = 0; i < n; i++) {
            uint16_t h = f32_to_f16(in[i]);
            memcpy(dst + 2 * i, &h, 2);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint16_t h = twin_f32_to_bf16(in[i]);
            memcpy(dst + 2 * i, &h, 2);
        }
    }
}

/* ---- Cast's conversions to and from float ------------------------------------------ */

TWIN_CLONES void twin_widen_to_f32(uint8_t *d, const uint8_t *s, asc_twin_dtype sdt, size_t n) {
    if (sdt == ASC_TWIN_F16) {
        for (size_t i = 0; i < n; i++) {
            uint16_t h;
            memcpy(&h, s + 2 * i, 2);
            float f = twin_f16_to_f32(h);
            memcpy(d + 4 * i, &f, 4);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint16_t h;
            memcpy(&h, s + 2 * i, 2);
            uint32_t u = (uint32_t)h << 16;
            memcpy(d + 4 * i, &u, 4);
        }
    }
}

/* Straight-line integer arithmetic and selects (each case computed, the right one picked)
   so that the loops vectorize; every shift amount stays within [0, 31]. */
static inline __attribute__((always_inline)) uint16_t narrow_f16(uint32_t u, int away) {
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    /* below 2^-14: the significand shifted right by 14 to 24 places, rounded */
    uint32_t man = (a & 0x7fffffu) | 0x800000u;
    int32_t sh = 126 - (int32_t)(a >> 23);
    sh = sh < 1 ? 1 : sh > 31 ? 31 : sh;
    uint32_t keep = man >> sh, rem = man & ((1u << sh) - 1u), half = 1u << (sh - 1);
    uint32_t up = rem > half || (rem == half && (away || (keep & 1u)));
    uint32_t sub = keep + up;
    /* normal: rebias 127 -> 15 and round the 13 dropped bits */
    uint32_t r = a - 0x38000000u;
    uint32_t norm = away ? (r + 0x1000u) >> 13 : (r + 0xfffu + ((r >> 13) & 1u)) >> 13;
    uint32_t v = a < 0x38800000u ? sub : norm;
    v = a < 0x33000000u ? 0u : v;                              /* below 2^-25: 0 in both */
    v = a >= 0x477ff000u ? 0x7bffu : v;                        /* rounds past 65504: saturate */
    v = a == 0x7f800000u ? 0x7c00u : v;                        /* infinity */
    v = a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : v; /* NaN, quiet */
    return (uint16_t)(sign | v);
}

static inline __attribute__((always_inline)) uint16_t narrow_bf16(uint32_t u, int away) {
    uint32_t a = u & 0x7fffffffu;
    uint32_t r = away ? (u + 0x8000u) >> 16 : (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    r = (r & 0x7fffu) == 0x7f80u ? (r & 0x8000u) | 0x7f7fu : r; /* rounded to infinity: saturate */
    r = a == 0x7f800000u ? u >> 16 : r;
    r = a > 0x7f800000u ? (u >> 16) | 0x40u : r;
    return (uint16_t)r;
}

TWIN_CLONES void twin_narrow_nearest(uint8_t *d, asc_twin_dtype ddt, const uint8_t *s, int ties_away, size_t n) {
    /* one loop per format and tie rule: each vectorizes with its constants */
#define TWIN_NARROW_LOOP(fn, away)                \
    for (size_t i = 0; i < n; i++) {              \
        uint32_t u;                               \
        memcpy(&u, s + 4 * i, 4);                 \
        uint16_t h = fn(u, away);                 \
        memcpy(d + 2 * i, &h, 2);                 \
    }
    if (ddt == ASC_TWIN_F16) {
        if (ties_away) TWIN_NARROW_LOOP(narrow_f16, 1)
        else TWIN_NARROW_LOOP(narrow_f16, 0)
    } else {
        if (ties_away) TWIN_NARROW_LOOP(narrow_bf16, 1)
        else TWIN_NARROW_LOOP(narrow_bf16, 0)
    }
#undef TWIN_NARROW_LOOP
}

int64_t twin_load_int(const uint8_t *src, asc_twin_dtype dtype, size_t i) {
    switch (dtype) {
    case ASC_TWIN_I8: { int8_t v; memcpy(&v, src + i, 1); return v; }
    case ASC_TWIN_U8: return src[i];
    case ASC_TWIN_I16: { int16_t v; memcpy(&v, src + 2 * i, 2); return v; }
    case ASC_TWIN_U16: { uint16_t v; memcpy(&v, src + 2 * i, 2); return v; }
    case ASC_TWIN_I32: { int32_t v; memcpy(&v, src + 4 * i, 4); return v; }
    case ASC_TWIN_U32: { uint32_t v; memcpy(&v, src + 4 * i, 4); return v; }
    default: { int64_t v; memcpy(&v, src + 8 * i, 8); return v; }
    }
}

void twin_store_int(uint8_t *dst, asc_twin_dtype dtype, size_t i, int64_t v) {
    uint64_t u = (uint64_t)v; /* two's complement truncation: the low bytes */
    uint32_t es = asc_twin_dtype_size(dtype);
    for (uint32_t k = 0; k < es; k++) dst[es * i + k] = (uint8_t)(u >> (8 * k));
}

/* The scalar in the tensor's element format (float types round to nearest even; integers
   take the value truncated toward zero, wrapped to the width). */
void twin_scalar_bytes(asc_twin_dtype dt, double v, uint8_t out[8]) {
    if (dt == ASC_TWIN_F32) {
        float f = twin_scalar_f32(v);
        memcpy(out, &f, 4);
    } else if (dt == ASC_TWIN_F16 || dt == ASC_TWIN_BF16) {
        uint16_t h = dt == ASC_TWIN_F16 ? twin_f32_to_f16(twin_scalar_f32(v)) : twin_f32_to_bf16(twin_scalar_f32(v));
        memcpy(out, &h, 2);
    } else {
        twin_store_int(out, dt, 0, twin_scalar_i64(v));
    }
}

/* ---- float kernels ----------------------------------------------------------------- */

/* The transcendentals, as straight-line float arithmetic and selects (no calls, no
   branches) so that the loops over a tile vectorize. Each is tested against float64 over a
   dense sample (tests/ascendc/test_twin_numerics.c; bounds in docs/ascendc_twin.md). */

static inline float from_bits(uint32_t u) { return twin_bits_to_f32(u); }

/* exp: n = round(x / ln2) by the 1.5 * 2^23 trick (n from the sum's bits: no float-to-int
   conversion of a NaN), r = x - n ln2 in two parts (Cody-Waite; n ln2_hi is exact),
   exp(r) by a degree-7 polynomial (Cephes' expf coefficients), times 2^n as two factors so
   that results down to the subnormals round once. x >= 88.7228394 (exp above FLT_MAX by more
   than half an ulp) is infinity; x <= -104 underflows to 0. */
static inline float exp_f32(float x) {
    float xc = x > 88.72283172607422f ? 88.72283172607422f : x;
    xc = xc < -104.0f ? -104.0f : xc;
    float t = xc * 1.44269504088896341f + 12582912.0f;
    int32_t n = (int32_t)(twin_f32_to_bits(t) - 0x4B400000u);
    float nf = t - 12582912.0f;
    float r = xc - nf * 0.693359375f;
    r = r - nf * -2.12194440e-4f;
    float z = r * r;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * z + r + 1.0f;
    int32_t n1 = n / 2, n2 = n - n1;
    float y = p * from_bits((uint32_t)(n1 + 127) << 23) * from_bits((uint32_t)(n2 + 127) << 23);
    y = x >= 88.72283935546875f ? INFINITY : y;
    return x != x ? x : y;
}

/* ln: x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln(1 + f) = f - f^2/2 + f^3 P(f) (Cephes'
   logf polynomial), e ln2 in two parts; subnormals scaled by 2^23 first. */
static inline float ln_f32(float x) {
    int sub = x < 0x1p-126f;
    float xs = sub ? x * 0x1p23f : x;
    uint32_t u = twin_f32_to_bits(xs);
    int32_t e = (int32_t)((u >> 23) & 0xffu) - 126 - (sub ? 23 : 0);
    float m = from_bits((u & 0x007fffffu) | 0x3f000000u); /* [0.5, 1) */
    int small = m < 0.707106781186547524f;
    e = small ? e - 1 : e;
    float f = small ? m + m - 1.0f : m - 1.0f;
    float z = f * f;
    float y = 7.0376836292e-2f;
    y = y * f - 1.1514610310e-1f;
    y = y * f + 1.1676998740e-1f;
    y = y * f - 1.2420140846e-1f;
    y = y * f + 1.4249322787e-1f;
    y = y * f - 1.6668057665e-1f;
    y = y * f + 2.0000714765e-1f;
    y = y * f - 2.4999993993e-1f;
    y = y * f + 3.3333331174e-1f;
    y = y * f * z;
    float fe = (float)e;
    y += -2.12194440e-4f * fe;
    y += -0.5f * z;
    float r = f + y;
    r += 0.693359375f * fe;
    r = x == INFINITY ? INFINITY : r;
    r = x == 0.0f ? -INFINITY : r;
    r = x < 0.0f ? NAN : r;
    return x != x ? x : r;
}

/* tanh: an odd polynomial below |x| = 0.625 (Cephes' tanhf), 1 - 2 / (e^2|x| + 1) above, the
   sign put back; e^2|x| overflowing gives 1. */
static inline float tanh_f32(float x) {
    float a = x < 0 ? -x : x;
    float z = x * x;
    float p = -5.70498872745e-3f;
    p = p * z + 2.06390887954e-2f;
    p = p * z - 5.37397155531e-2f;
    p = p * z + 1.33314422036e-1f;
    p = p * z - 3.33332819422e-1f;
    float small = x + x * z * p;
    float big = 1.0f - 2.0f / (exp_f32(a + a) + 1.0f);
    big = x < 0 ? -big : big;
    float y = a < 0.625f ? small : big;
    return x != x ? x : y;
}

/* sigmoid: with e = e^-|x|, 1 / (1 + e) for x >= 0 and e / (1 + e) below (so that results
   near the underflow keep their digits instead of 1 / (1 + inf)) */
static inline float sigmoid_f32(float x) {
    float e = exp_f32(x < 0 ? x : -x);
    return (x < 0 ? e : 1.0f) / (1.0f + e);
}

TWIN_CLONES void twin_f32_unary(asc_twin_unary_op op, float *d, const float *a, size_t n) {
    switch (op) {
    case ASC_TWIN_EXP: for (size_t i = 0; i < n; i++) d[i] = exp_f32(a[i]); break;
    case ASC_TWIN_LN: for (size_t i = 0; i < n; i++) d[i] = ln_f32(a[i]); break;
    case ASC_TWIN_ABS: for (size_t i = 0; i < n; i++) d[i] = fabsf(a[i]); break;
    case ASC_TWIN_RELU: for (size_t i = 0; i < n; i++) d[i] = a[i] > 0.0f ? a[i] : 0.0f; break;
    case ASC_TWIN_SQRT: for (size_t i = 0; i < n; i++) d[i] = sqrtf(a[i]); break;
    /* two IEEE roundings: within 1.5 ulp (measured in the numerics test) */
    case ASC_TWIN_RSQRT: for (size_t i = 0; i < n; i++) d[i] = 1.0f / sqrtf(a[i]); break;
    case ASC_TWIN_RECIPROCAL: for (size_t i = 0; i < n; i++) d[i] = 1.0f / a[i]; break;
    case ASC_TWIN_TANH: for (size_t i = 0; i < n; i++) d[i] = tanh_f32(a[i]); break;
    case ASC_TWIN_SIGMOID: for (size_t i = 0; i < n; i++) d[i] = sigmoid_f32(a[i]); break;
    /* Sign: 1, -1, or the zero (or NaN) itself */
    case ASC_TWIN_SIGN:
        for (size_t i = 0; i < n; i++) d[i] = a[i] > 0.0f ? 1.0f : a[i] < 0.0f ? -1.0f : a[i];
        break;
    case ASC_TWIN_FLOOR: for (size_t i = 0; i < n; i++) d[i] = floorf(a[i]); break;
    default: break;
    }
}

TWIN_CLONES void twin_f32_binary(asc_twin_binary_op op, float *d, const float *a, const float *b, size_t n) {
    switch (op) {
    case ASC_TWIN_ADD: for (size_t i = 0; i < n; i++) d[i] = a[i] + b[i]; break;
    case ASC_TWIN_SUB: for (size_t i = 0; i < n; i++) d[i] = a[i] - b[i]; break;
    case ASC_TWIN_MUL: for (size_t i = 0; i < n; i++) d[i] = a[i] * b[i]; break;
    case ASC_TWIN_DIV: for (size_t i = 0; i < n; i++) d[i] = a[i] / b[i]; break;
    case ASC_TWIN_MAX: for (size_t i = 0; i < n; i++) d[i] = a[i] > b[i] ? a[i] : b[i]; break;
    case ASC_TWIN_MIN: for (size_t i = 0; i < n; i++) d[i] = a[i] < b[i] ? a[i] : b[i]; break;
    /* Power: C's pow in double, rounded once to float (within 1 ulp: pow's double result is
       far more accurate than float's half ulp); not vectorized */
    case ASC_TWIN_POWER: for (size_t i = 0; i < n; i++) d[i] = (float)pow((double)a[i], (double)b[i]); break;
    default: break;
    }
}

TWIN_CLONES void twin_f32_scalar(asc_twin_scalar_op op, float *d, const float *a, float s, size_t n) {
    switch (op) {
    case ASC_TWIN_ADDS: for (size_t i = 0; i < n; i++) d[i] = a[i] + s; break;
    case ASC_TWIN_MULS: for (size_t i = 0; i < n; i++) d[i] = a[i] * s; break;
    case ASC_TWIN_MAXS: for (size_t i = 0; i < n; i++) d[i] = a[i] > s ? a[i] : s; break;
    case ASC_TWIN_MINS: for (size_t i = 0; i < n; i++) d[i] = a[i] < s ? a[i] : s; break;
    case ASC_TWIN_LEAKY_RELU: for (size_t i = 0; i < n; i++) d[i] = a[i] >= 0.0f ? a[i] : a[i] * s; break;
    case ASC_TWIN_DIVS: for (size_t i = 0; i < n; i++) d[i] = a[i] / s; break;
    case ASC_TWIN_POWER_TS: for (size_t i = 0; i < n; i++) d[i] = (float)pow((double)a[i], (double)s); break;
    case ASC_TWIN_POWER_ST: for (size_t i = 0; i < n; i++) d[i] = (float)pow((double)s, (double)a[i]); break;
    default: break;
    }
}
