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

float twin_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) return twin_bits_to_f32(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        /* subnormal: man * 2^-24, exact in float */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return twin_bits_to_f32(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t twin_f32_to_f16(float f) {
    uint32_t u = twin_f32_to_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to >= 65520: infinity */
    if (a < 0x38800000u) {
        /* below half's smallest normal 2^-14: a multiple of 2^-24, nearest even */
        if (a < 0x33000000u) return sign;       /* below 2^-25: 0 (2^-25 ties to even, 0) */
        uint32_t man = (a & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(a >> 23);       /* 14 + (unbiased exponent - 1) ... as bits */
        uint32_t keep = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (keep & 1u))) keep++;
        return (uint16_t)(sign | keep);
    }
    uint32_t r = a - 0x38000000u;               /* rebias the exponent 127 -> 15 */
    r = (r + 0xfffu + ((r >> 13) & 1u)) >> 13;  /* nearest even on the 13 dropped bits */
    return (uint16_t)(sign | r);
}

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
    for (size_t i = 0; i < n; i++) {
        uint16_t h = dtype == ASC_TWIN_F16 ? twin_f32_to_f16(in[i]) : twin_f32_to_bf16(in[i]);
        memcpy(dst + 2 * i, &h, 2);
    }
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
        float f = (float)v;
        memcpy(out, &f, 4);
    } else if (dt == ASC_TWIN_F16 || dt == ASC_TWIN_BF16) {
        uint16_t h = dt == ASC_TWIN_F16 ? twin_f32_to_f16((float)v) : twin_f32_to_bf16((float)v);
        memcpy(out, &h, 2);
    } else {
        int64_t i = isnan(v) ? 0 : v >= 9.2233720368547758e18 ? INT64_MAX : v <= -9.2233720368547758e18 ? INT64_MIN
                                                                                                         : (int64_t)v;
        twin_store_int(out, dt, 0, i);
    }
}

/* ---- float kernels ----------------------------------------------------------------- */

void twin_f32_unary(asc_twin_unary_op op, float *d, const float *a, size_t n) {
    switch (op) {
    case ASC_TWIN_EXP: for (size_t i = 0; i < n; i++) d[i] = (float)exp((double)a[i]); break;
    case ASC_TWIN_LN: for (size_t i = 0; i < n; i++) d[i] = (float)log((double)a[i]); break;
    case ASC_TWIN_ABS: for (size_t i = 0; i < n; i++) d[i] = fabsf(a[i]); break;
    case ASC_TWIN_RELU: for (size_t i = 0; i < n; i++) d[i] = a[i] > 0.0f ? a[i] : 0.0f; break;
    case ASC_TWIN_SQRT: for (size_t i = 0; i < n; i++) d[i] = sqrtf(a[i]); break;
    case ASC_TWIN_RSQRT: for (size_t i = 0; i < n; i++) d[i] = (float)(1.0 / sqrt((double)a[i])); break;
    case ASC_TWIN_RECIPROCAL: for (size_t i = 0; i < n; i++) d[i] = 1.0f / a[i]; break;
    case ASC_TWIN_TANH: for (size_t i = 0; i < n; i++) d[i] = (float)tanh((double)a[i]); break;
    case ASC_TWIN_SIGMOID: for (size_t i = 0; i < n; i++) d[i] = (float)(1.0 / (1.0 + exp(-(double)a[i]))); break;
    default: break;
    }
}

void twin_f32_binary(asc_twin_binary_op op, float *d, const float *a, const float *b, size_t n) {
    switch (op) {
    case ASC_TWIN_ADD: for (size_t i = 0; i < n; i++) d[i] = a[i] + b[i]; break;
    case ASC_TWIN_SUB: for (size_t i = 0; i < n; i++) d[i] = a[i] - b[i]; break;
    case ASC_TWIN_MUL: for (size_t i = 0; i < n; i++) d[i] = a[i] * b[i]; break;
    case ASC_TWIN_DIV: for (size_t i = 0; i < n; i++) d[i] = a[i] / b[i]; break;
    case ASC_TWIN_MAX: for (size_t i = 0; i < n; i++) d[i] = a[i] > b[i] ? a[i] : b[i]; break;
    case ASC_TWIN_MIN: for (size_t i = 0; i < n; i++) d[i] = a[i] < b[i] ? a[i] : b[i]; break;
    default: break;
    }
}

void twin_f32_scalar(asc_twin_scalar_op op, float *d, const float *a, float s, size_t n) {
    switch (op) {
    case ASC_TWIN_ADDS: for (size_t i = 0; i < n; i++) d[i] = a[i] + s; break;
    case ASC_TWIN_MULS: for (size_t i = 0; i < n; i++) d[i] = a[i] * s; break;
    case ASC_TWIN_MAXS: for (size_t i = 0; i < n; i++) d[i] = a[i] > s ? a[i] : s; break;
    case ASC_TWIN_MINS: for (size_t i = 0; i < n; i++) d[i] = a[i] < s ? a[i] : s; break;
    case ASC_TWIN_LEAKY_RELU: for (size_t i = 0; i < n; i++) d[i] = a[i] >= 0.0f ? a[i] : a[i] * s; break;
    default: break;
    }
}
