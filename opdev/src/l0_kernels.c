/* opdev/src/l0_kernels.c: CPU kernels of the helper l0 ops Cast, Muls, BroadcastTo and Fill,
   and the conversion of ConvertToTensor's host values. Cast goes through double: exact for
   every source but (u)int64 beyond 2^53. Float targets are IEEE, as the Cast kernel of an
   Atlas A2/A3 in its default Inf/NaN overflow mode: rounded to nearest even once, from the
   double (float16 and bfloat16 too), overflow to infinity, NaN kept; float16 sources read as
   IEEE binary16 (0x7c00 is infinity, not the runtime's saturating aclFloat16ToFloat), both
   ways by op::fp16_t's own conversions (fp16_bridge.cpp) so the project rounds float16 in one
   place. Integer targets truncate and saturate (NaN gives 0) instead of C's undefined
   out-of-range conversion. */
#include <math.h>
#include <string.h>

#include "acl/acl_base.h"
#include "l0_kernels.h"

enum { F32 = 0, F16 = 1, I8 = 2, I32 = 3, U8 = 4, I16 = 6, U16 = 7, U32 = 8, I64 = 9, U64 = 10, F64 = 11, BOOL = 12,
       BF16 = 27 };

int mg_cast_supported(int t) {
    switch (t) {
    case F32: case F16: case I8: case I32: case U8: case I16: case U16: case U32: case I64: case U64: case F64:
    case BOOL: case BF16: return 1;
    default: return 0;
    }
}

static double load(int t, const unsigned char *p) {
    switch (t) {
    case F32: { float v; memcpy(&v, p, 4); return v; }
    case F16: { uint16_t h; memcpy(&h, p, 2); return mg_half_to_double(h); }
    case BF16: { uint16_t h; memcpy(&h, p, 2); uint32_t w = (uint32_t)h << 16; float v; memcpy(&v, &w, 4); return v; }
    case F64: { double v; memcpy(&v, p, 8); return v; }
    case I8: return (int8_t)p[0];
    case U8: return p[0];
    case BOOL: return p[0] != 0;
    case I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    default: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    }
}

static double clamp(double v, double lo, double hi) {
    if (isnan(v)) return 0.0;
    return v < lo ? lo : v > hi ? hi : v;
}

/* Round to nearest, ties to even, of a non-negative x below 2^53 (exact in double). */
static double nearest_even(double x) {
    double whole = floor(x), part = x - whole;
    if (part > 0.5 || (part == 0.5 && fmod(whole, 2.0) != 0.0)) whole += 1.0;
    return whole;
}

/* `v` as bfloat16 (8 exponent bits, 7 fraction bits), rounded once: NaN stays a (quiet) NaN,
   beyond the largest finite is infinity. float16 has its one implementation in op::fp16_t
   (mg_half_from_double). */
static uint16_t to_bfloat16(double v) {
    enum { MANT = 7, EBITS = 8, BIAS = 127 };
    const uint16_t sign = signbit(v) ? 0x8000u : 0u, inf = (uint16_t)(((1u << EBITS) - 1u) << MANT);
    if (isnan(v)) return (uint16_t)(sign | inf | (1u << (MANT - 1)));
    const double a = fabs(v);
    if (isinf(a)) return (uint16_t)(sign | inf);
    if (a == 0.0) return sign;
    int e;
    (void)frexp(a, &e); /* a = m * 2^e, m in [0.5, 1): its binary exponent is e - 1 */
    int biased = e - 1 + BIAS;
    if (biased <= 0) /* subnormal: units of 2^(1 - BIAS - MANT); the top one is the least normal */
        return (uint16_t)(sign | (uint16_t)nearest_even(ldexp(a, BIAS - 1 + MANT)));
    double q = nearest_even(ldexp(a, MANT - (e - 1))); /* in [2^MANT, 2^(MANT+1)] */
    if (q == ldexp(1.0, MANT + 1)) {
        q = ldexp(1.0, MANT);
        biased++;
    }
    if (biased >= (1 << EBITS) - 1) return (uint16_t)(sign | inf);
    return (uint16_t)(sign | (uint16_t)(biased << MANT) | (uint16_t)(q - ldexp(1.0, MANT)));
}

/* The narrow integer targets convert the clamped value to int64_t first, where every bound
   fits: a bound written one past the type's range then wraps visibly instead of being an
   undefined conversion that a compiler may happen to saturate. */
static void store(int t, unsigned char *p, double v) {
    switch (t) {
    case F32: { float f = (float)v; memcpy(p, &f, 4); break; }
    case F16: { uint16_t h = mg_half_from_double(v); memcpy(p, &h, 2); break; }
    case BF16: { uint16_t h = to_bfloat16(v); memcpy(p, &h, 2); break; }
    case F64: memcpy(p, &v, 8); break;
    case BOOL: p[0] = v != 0.0; break;
    case I8: p[0] = (unsigned char)(int8_t)(int64_t)clamp(trunc(v), -128, 127); break;
    case U8: p[0] = (unsigned char)(int64_t)clamp(trunc(v), 0, 255); break;
    case I16: { int16_t x = (int16_t)(int64_t)clamp(trunc(v), -32768, 32767); memcpy(p, &x, 2); break; }
    case U16: { uint16_t x = (uint16_t)(int64_t)clamp(trunc(v), 0, 65535); memcpy(p, &x, 2); break; }
    case I32: { int32_t x = (int32_t)(int64_t)clamp(trunc(v), -2147483648.0, 2147483647.0); memcpy(p, &x, 4); break; }
    case U32: { uint32_t x = (uint32_t)(int64_t)clamp(trunc(v), 0, 4294967295.0); memcpy(p, &x, 4); break; }
    /* 2^63 itself is out of range: the largest double below it is the bound */
    case I64: { int64_t x = (int64_t)clamp(trunc(v), -9223372036854775808.0, 9223372036854774784.0); memcpy(p, &x, 8); break; }
    default: { uint64_t x = (uint64_t)clamp(trunc(v), 0, 18446744073709549568.0); memcpy(p, &x, 8); break; }
    }
}

static int size_of(int t) {
    switch (t) {
    case F32: case I32: case U32: return 4;
    case F16: case BF16: case I16: case U16: return 2;
    case F64: case I64: case U64: return 8;
    default: return 1;
    }
}

int32_t mg_cast_step(const void *params, void *const *buffers) {
    const mg_cast_params *c = params;
    const unsigned char *src = buffers[0];
    unsigned char *dst = buffers[1];
    const int ss = size_of(c->src), ds = size_of(c->dst);
    for (int64_t i = 0; i < c->n; i++) store(c->dst, dst + i * ds, load(c->src, src + i * ss));
    return 0;
}

int mg_muls_supported(int t) { return t == F32 || t == F16 || t == BF16; }

/* The product in float (a float times a float is exact in double, so rounding it to float is
   float's own multiply), then to the dtype. */
int32_t mg_muls_step(const void *params, void *const *buffers) {
    const mg_muls_params *m = params;
    const unsigned char *src = buffers[0];
    unsigned char *dst = buffers[1];
    const int es = size_of(m->dtype);
    for (int64_t i = 0; i < m->n; i++) {
        float product = (float)(load(m->dtype, src + i * es) * (double)m->alpha);
        store(m->dtype, dst + i * es, product);
    }
    return 0;
}

int32_t mg_broadcast_step(const void *params, void *const *buffers) {
    const mg_broadcast_params *b = params;
    const unsigned char *src = buffers[0];
    unsigned char *dst = buffers[1];
    int64_t index[MG_BROADCAST_MAX_RANK] = {0};
    int64_t in = 0;
    for (int64_t i = 0; i < b->numel; i++) {
        memcpy(dst + i * b->elem_size, src + in * b->elem_size, (size_t)b->elem_size);
        for (int d = b->rank; d-- > 0;) { /* odometer over the output's index */
            in += b->in_strides[d];
            if (++index[d] < b->dims[d]) break;
            in -= b->in_strides[d] * b->dims[d];
            index[d] = 0;
        }
    }
    return 0;
}

int32_t mg_fill_step(const void *params, void *const *buffers) {
    const mg_fill_params *f = params;
    const unsigned char *value = f->from_buffer ? buffers[0] : f->value;
    unsigned char *dst = buffers[f->from_buffer ? 1 : 0];
    for (int64_t i = 0; i < f->n; i++) memcpy(dst + i * f->elem_size, value, (size_t)f->elem_size);
    return 0;
}

int32_t mg_const_step(const void *params, void *const *buffers) {
    const mg_const_params *c = params;
    memcpy(buffers[0], c->bytes, c->nbytes);
    return 0;
}

int mg_cast_elem_size(int dtype) { return mg_cast_supported(dtype) ? size_of(dtype) : 0; }

int mg_convert_values(int src, const void *from, int dst, void *to, int64_t n) {
    if (!mg_cast_supported(src) || !mg_cast_supported(dst)) return -1;
    if (n <= 0) return 0;
    /* through double loses (u)int64 above 2^53: the same dtype is copied instead */
    if (src == dst) {
        memcpy(to, from, (size_t)(n * size_of(src)));
        return 0;
    }
    mg_cast_params c = {n, src, dst};
    void *buffers[2] = {(void *)(uintptr_t)from, to};
    return mg_cast_step(&c, buffers);
}
