/*
 * op_kernel/simd/mg_simd_scalar.h: the SIMD vocabulary with one lane, in portable C11.
 *
 * Every operation is one IEEE operation (or an exact bit manipulation) so that the scalar
 * path rounds exactly where the vector paths do; fmaf is a true fused multiply-add.
 * The kernel files are compiled with -ffp-contract=off so the compiler adds no fusion.
 */
#ifndef MG_SIMD_SCALAR_H_
#define MG_SIMD_SCALAR_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mg_simd_memory.h"
#include "mg_simd_pair.h"

#define MG_LANES 1

typedef float mg_vf;    /* float32 lanes */
typedef int32_t mg_vi;  /* int32 lanes */
typedef int mg_vm;      /* lane mask */

static inline mg_vf mg_set(float value) { return value; }
static inline mg_vf mg_loadu(const float *p) { return *p; }
static inline void mg_storeu(float *p, mg_vf v) { *p = v; }
/* No streaming stores on this path: the streaming tiles store as the others do */
#define MG_STREAM_ALIGN 1
static inline void mg_stream(float *p, mg_vf v) { mg_storeu(p, v); }
static inline void mg_stream_fence(void) {}

static inline mg_vf mg_add(mg_vf a, mg_vf b) { return a + b; }
static inline mg_vf mg_sub(mg_vf a, mg_vf b) { return a - b; }
static inline mg_vf mg_mul(mg_vf a, mg_vf b) { return a * b; }
static inline mg_vf mg_div(mg_vf a, mg_vf b) { return a / b; }
/* a * b + c with one rounding */
static inline mg_vf mg_fma(mg_vf a, mg_vf b, mg_vf c) { return fmaf(a, b, c); }
/* c - a * b with one rounding (the product negated exactly, so -(+0) is -0) */
static inline mg_vf mg_fnma(mg_vf a, mg_vf b, mg_vf c) { return fmaf(-a, b, c); }

static inline uint32_t mg_bits_(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float mg_float_(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

static inline mg_vf mg_abs(mg_vf a) { return mg_float_(mg_bits_(a) & 0x7FFFFFFFu); }
/* Same operand rule as x86 minps/maxps (second operand when unordered); the kernel only
   clamps values whose NaN-ness is handled separately, so this choice never shows. */
static inline mg_vf mg_min(mg_vf a, mg_vf b) { return a < b ? a : b; }
static inline mg_vf mg_max(mg_vf a, mg_vf b) { return a > b ? a : b; }

static inline mg_vm mg_lt(mg_vf a, mg_vf b) { return a < b; }
static inline mg_vm mg_le(mg_vf a, mg_vf b) { return a <= b; }
static inline mg_vm mg_ne(mg_vf a, mg_vf b) { return a != b; }
/* true where neither operand is NaN */
static inline mg_vm mg_ordered(mg_vf a, mg_vf b) { return !isnan(a) && !isnan(b); }
static inline mg_vm mg_mask_and(mg_vm a, mg_vm b) { return a && b; }
static inline mg_vf mg_select(mg_vm m, mg_vf if_true, mg_vf if_false) { return m ? if_true : if_false; }

/* 2^k as a float for k in [-126, 127] (exact, built in the exponent field). */
static inline mg_vf mg_pow2(mg_vi k) { return mg_float_((uint32_t)(k + 127) << 23); }
static inline mg_vi mg_set_i(int32_t value) { return value; }

static inline mg_vi mg_max_i(mg_vi a, mg_vi b) { return a > b ? a : b; }
/* k where the mask holds, 0 elsewhere */
static inline mg_vi mg_keep_i(mg_vm m, mg_vi k) { return m ? k : 0; }
/* true when the mask holds in every lane */
static inline int mg_all(mg_vm m) { return m != 0; }

/* Integer lanes: the bits of a float lane and back, wrapping add and subtract, shifts by a
   constant (logical right shift), and a 16-entry table lookup by the low 4 bits of each
   lane. The arithmetic is on uint32_t, so wrapping is defined. */
static inline mg_vi mg_as_vi(mg_vf v) { return (int32_t)mg_bits_(v); }
static inline mg_vf mg_as_vf(mg_vi v) { return mg_float_((uint32_t)v); }
static inline mg_vi mg_add_i(mg_vi a, mg_vi b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline mg_vi mg_sub_i(mg_vi a, mg_vi b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
#define mg_shl_i(a, count) ((mg_vi)((uint32_t)(a) << (count)))
#define mg_shr_i(a, count) ((mg_vi)((uint32_t)(a) >> (count)))
static inline mg_vf mg_lookup16(const float table[16], mg_vi index) { return table[(uint32_t)index & 15u]; }
/* t * g * 2^k rounded once to float (round to nearest-even, into the subnormals too):
   in double the product of two floats is exact (48 significant bits) and, for
   k >= -300, scaling it stays far above double's subnormals, so only the final
   conversion rounds. */
static inline mg_vf mg_mul_scaled_round_once(mg_vf t, mg_vf g, mg_vi k) {
    const uint64_t scale_bits = (uint64_t)(k + 1023) << 52;
    double scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    return (float)((double)t * ((double)g * scale));
}
/* (a * b + c) * 2^k rounded to float (nearest-even, into the subnormals too), through
   double: a * b is exact there, the sum rounds to double (53 bits, a relative 2^-53),
   scaling by 2^k (k >= -300) is exact, and only the final conversion rounds to float. */
static inline mg_vf mg_fma_scaled_round_once(mg_vf a, mg_vf b, mg_vf c, mg_vi k) {
    const uint64_t scale_bits = (uint64_t)(k + 1023) << 52;
    double scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    return (float)(((double)a * (double)b + (double)c) * scale);
}


/* ---- 16-bit formats: exact widening, round-to-nearest-even narrowing ---------------- */

static inline mg_vf mg_f16_to_f32_(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0x1Fu) /* inf or NaN; NaN made quiet as vcvtph2ps does */
        return mg_float_(sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x00400000u : 0u));
    if (exponent == 0) {
        /* zero or subnormal: mantissa * 2^-24 is exact in float32 */
        float magnitude = (float)mantissa * 0x1p-24f;
        return mg_float_(sign | mg_bits_(magnitude));
    }
    return mg_float_(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

static inline uint16_t mg_f32_to_f16_(mg_vf f) {
    uint32_t u = mg_bits_(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) /* NaN: keep it quiet and keep the top payload bits, as vcvtps2ph */
        return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
    if (a >= 0x477FF000u) /* rounds to >= 65520: infinity (also inf itself) */
        return (uint16_t)(sign | 0x7C00u);
    if (a < 0x38800000u) {
        /* below the smallest normal half 2^-14: round to a multiple of 2^-24. Adding 0.5
           moves the value into [0.5, 1) where the float ulp is 2^-24, so the float add
           itself rounds to nearest-even at exactly that grid. */
        float shifted = mg_float_(a) + 0.5f;
        return (uint16_t)(sign | (uint16_t)(mg_bits_(shifted) - 0x3F000000u));
    }
    /* normal: rebias the exponent, then round the 13 dropped bits to nearest-even;
       a carry out of the mantissa correctly bumps the exponent. */
    uint32_t rebased = a - 0x38000000u;
    uint32_t round_bias = 0xFFFu + ((rebased >> 13) & 1u);
    return (uint16_t)(sign | ((rebased + round_bias) >> 13));
}

static inline mg_vf mg_bf16_to_f32_(uint16_t h) { return mg_float_((uint32_t)h << 16); }

static inline uint16_t mg_f32_to_bf16_(mg_vf f) {
    uint32_t u = mg_bits_(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) /* NaN: quiet, sign and top payload kept */
        return (uint16_t)((u >> 16) | 0x0040u);
    /* round to nearest-even on the 16 dropped bits; overflow carries into infinity */
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static inline mg_vf mg_load_f16(const uint16_t *p) { return mg_f16_to_f32_(*p); }
static inline void mg_store_f16(uint16_t *p, mg_vf v) { *p = mg_f32_to_f16_(v); }
static inline mg_vf mg_load_bf16(const uint16_t *p) { return mg_bf16_to_f32_(*p); }
static inline void mg_store_bf16(uint16_t *p, mg_vf v) { *p = mg_f32_to_bf16_(v); }
static inline void mg_stream_f16(uint16_t *p, mg_vf v) { mg_store_f16(p, v); }
static inline void mg_stream_bf16(uint16_t *p, mg_vf v) { mg_store_bf16(p, v); }

/* One lane: a partial vector never occurs (the body's tail count is always 0). */
static inline mg_vf mg_load_f32_n(const float *p, size_t n) { (void)n; return *p; }
static inline void mg_store_f32_n(float *p, mg_vf v, size_t n) { (void)n; *p = v; }
static inline mg_vf mg_load_f16_n(const uint16_t *p, size_t n) { (void)n; return mg_load_f16(p); }
static inline void mg_store_f16_n(uint16_t *p, mg_vf v, size_t n) { (void)n; mg_store_f16(p, v); }
static inline mg_vf mg_load_bf16_n(const uint16_t *p, size_t n) { (void)n; return mg_load_bf16(p); }
static inline void mg_store_bf16_n(uint16_t *p, mg_vf v, size_t n) { (void)n; mg_store_bf16(p, v); }

/* ---- pairs of vectors ------------------------------------------------------------------ */

MG_DEFINE_PAIR_VIA_SINGLE(float, f32, mg_loadu, mg_storeu, mg_stream)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, f16, mg_load_f16, mg_store_f16, mg_stream_f16)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, bf16, mg_load_bf16, mg_store_bf16, mg_stream_bf16)

/* ---- 16-bit table lookups (mg_simd_memory.h): no gather here, plain loads -------------- */

#define MG_LOOKUP_WORDS 8
MG_DEFINE_LOOKUP_WORDS_BY_LOADS()

#endif /* MG_SIMD_SCALAR_H_ */
