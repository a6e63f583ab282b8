/*
 * op_kernel/simd/mg_simd_avx512.h: the SIMD vocabulary on AVX-512 F/DQ/BW/VL (+ F16C),
 * 16 lanes, with mask registers for selects and partial vectors. bfloat16 is narrowed
 * with integer round-to-nearest-even; where the file is compiled for AVX512_BF16 as well
 * (MG_BF16_NATIVE), a vector with no subnormal and no NaN lane takes vcvtneps2bf16
 * instead. That instruction rounds to nearest-even too, but flushes subnormal inputs to
 * zero, so only vectors without them give the other paths' bits through it.
 */
#ifndef MG_SIMD_AVX512_H_
#define MG_SIMD_AVX512_H_

#include <immintrin.h>
#include <stdint.h>

#include "mg_simd_memory.h"
#include "mg_simd_pair.h"

#define MG_LANES 16

typedef __m512 mg_vf;
typedef __m512i mg_vi;
typedef __mmask16 mg_vm;

static inline mg_vf mg_set(float value) { return _mm512_set1_ps(value); }
static inline mg_vf mg_loadu(const float *p) { return _mm512_loadu_ps(p); }
static inline void mg_storeu(float *p, mg_vf v) { _mm512_storeu_ps(p, v); }
/* Streaming (non-temporal) stores: they skip the read-for-ownership a cached store makes
   and do not fill the cache with output; p must be MG_STREAM_ALIGN-aligned. The writer
   ends with mg_stream_fence so they are ordered before whatever publishes the result. */
#define MG_STREAM_ALIGN 64
static inline void mg_stream(float *p, mg_vf v) { _mm512_stream_ps(p, v); }
static inline void mg_stream_fence(void) { _mm_sfence(); }

static inline mg_vf mg_add(mg_vf a, mg_vf b) { return _mm512_add_ps(a, b); }
static inline mg_vf mg_sub(mg_vf a, mg_vf b) { return _mm512_sub_ps(a, b); }
static inline mg_vf mg_mul(mg_vf a, mg_vf b) { return _mm512_mul_ps(a, b); }
static inline mg_vf mg_div(mg_vf a, mg_vf b) { return _mm512_div_ps(a, b); }
static inline mg_vf mg_fma(mg_vf a, mg_vf b, mg_vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline mg_vf mg_fnma(mg_vf a, mg_vf b, mg_vf c) { return _mm512_fnmadd_ps(a, b, c); }

static inline mg_vf mg_abs(mg_vf a) {
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(0x7FFFFFFF)));
}
static inline mg_vf mg_min(mg_vf a, mg_vf b) { return _mm512_min_ps(a, b); }
static inline mg_vf mg_max(mg_vf a, mg_vf b) { return _mm512_max_ps(a, b); }

static inline mg_vm mg_lt(mg_vf a, mg_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline mg_vm mg_le(mg_vf a, mg_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline mg_vm mg_ne(mg_vf a, mg_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
static inline mg_vm mg_ordered(mg_vf a, mg_vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_ORD_Q); }
static inline mg_vm mg_mask_and(mg_vm a, mg_vm b) { return (mg_vm)(a & b); }
static inline mg_vf mg_select(mg_vm m, mg_vf if_true, mg_vf if_false) {
    return _mm512_mask_blend_ps(m, if_false, if_true);
}

static inline mg_vf mg_pow2(mg_vi k) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(k, _mm512_set1_epi32(127)), 23));
}
static inline mg_vi mg_set_i(int32_t value) { return _mm512_set1_epi32(value); }

static inline mg_vi mg_max_i(mg_vi a, mg_vi b) { return _mm512_max_epi32(a, b); }
static inline mg_vi mg_keep_i(mg_vm m, mg_vi k) { return _mm512_maskz_mov_epi32(m, k); }
static inline int mg_all(mg_vm m) { return m == (mg_vm)0xFFFF; }

/* Integer lanes, see mg_simd_scalar.h. vpermps reads only the low 4 bits of each index. */
static inline mg_vi mg_as_vi(mg_vf v) { return _mm512_castps_si512(v); }
static inline mg_vf mg_as_vf(mg_vi v) { return _mm512_castsi512_ps(v); }
static inline mg_vi mg_add_i(mg_vi a, mg_vi b) { return _mm512_add_epi32(a, b); }
static inline mg_vi mg_sub_i(mg_vi a, mg_vi b) { return _mm512_sub_epi32(a, b); }
#define mg_shl_i(a, count) _mm512_slli_epi32((a), (count))
#define mg_shr_i(a, count) _mm512_srli_epi32((a), (count))
static inline mg_vf mg_lookup16(const float table[16], mg_vi index) {
    return _mm512_permutexvar_ps(index, _mm512_loadu_ps(table));
}
/* RN(t * g * 2^k): exact in double, one rounding back to float (as mg_simd_scalar.h) */
static inline __m256 mg_scaled_half_(__m256 t, __m256 g, __m256i k) {
    const __m512i bits = _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(k), _mm512_set1_epi64(1023)), 52);
    const __m512d prod = _mm512_mul_pd(_mm512_cvtps_pd(t), _mm512_mul_pd(_mm512_cvtps_pd(g), _mm512_castsi512_pd(bits)));
    return _mm512_cvtpd_ps(prod);
}
static inline mg_vf mg_mul_scaled_round_once(mg_vf t, mg_vf g, mg_vi k) {
    const __m256 lo = mg_scaled_half_(_mm512_castps512_ps256(t), _mm512_castps512_ps256(g), _mm512_castsi512_si256(k));
    const __m256 hi = mg_scaled_half_(_mm512_extractf32x8_ps(t, 1), _mm512_extractf32x8_ps(g, 1), _mm512_extracti64x4_epi64(k, 1));
    return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
}


/* RN((a * b + c) 2^k) through double, as mg_simd_scalar.h */
static inline __m256 mg_fma_scaled_half_(__m256 a, __m256 b, __m256 c, __m256i k) {
    const __m512i bits = _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(k), _mm512_set1_epi64(1023)), 52);
    const __m512d sum = _mm512_add_pd(_mm512_mul_pd(_mm512_cvtps_pd(a), _mm512_cvtps_pd(b)), _mm512_cvtps_pd(c));
    return _mm512_cvtpd_ps(_mm512_mul_pd(sum, _mm512_castsi512_pd(bits)));
}
static inline mg_vf mg_fma_scaled_round_once(mg_vf a, mg_vf b, mg_vf c, mg_vi k) {
    const __m256 lo = mg_fma_scaled_half_(_mm512_castps512_ps256(a), _mm512_castps512_ps256(b),
                                          _mm512_castps512_ps256(c), _mm512_castsi512_si256(k));
    const __m256 hi = mg_fma_scaled_half_(_mm512_extractf32x8_ps(a, 1), _mm512_extractf32x8_ps(b, 1),
                                          _mm512_extractf32x8_ps(c, 1), _mm512_extracti64x4_epi64(k, 1));
    return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
}


/* ---- 16-bit formats ------------------------------------------------------------------- */

static inline mg_vf mg_load_f16(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}
static inline __m256i mg_f16_bits_(mg_vf v) {
    return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline void mg_store_f16(uint16_t *p, mg_vf v) { _mm256_storeu_si256((__m256i *)p, mg_f16_bits_(v)); }
static inline void mg_stream_f16(uint16_t *p, mg_vf v) { _mm256_stream_si256((__m256i *)p, mg_f16_bits_(v)); }
static inline mg_vf mg_load_bf16(const uint16_t *p) {
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
#if defined(MG_BF16_NATIVE)
/* The lanes vcvtneps2bf16 would narrow differently from the integer rounding below.
   vfpclassps classes: 0x01 quiet NaN, 0x20 subnormal, 0x80 signalling NaN. A normal input
   rounds to a normal bfloat16 or to inf either way. */
static inline __mmask16 mg_bf16_not_native_(mg_vf v) { return _mm512_fpclass_ps_mask(v, 0x01 | 0x20 | 0x80); }
#endif
static inline __m256i mg_bf16_bits_(mg_vf v) {
#if defined(MG_BF16_NATIVE)
    if (mg_bf16_not_native_(v) == 0) return (__m256i)_mm512_cvtneps_pbh(v);
#endif
    const __m512i u = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i rounded =
        _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7FFF)), lsb), 16);
    return _mm512_cvtepi32_epi16(rounded);
}
static inline void mg_store_bf16(uint16_t *p, mg_vf v) { _mm256_storeu_si256((__m256i *)p, mg_bf16_bits_(v)); }
static inline void mg_stream_bf16(uint16_t *p, mg_vf v) { _mm256_stream_si256((__m256i *)p, mg_bf16_bits_(v)); }

/* ---- partial vectors: masked loads and stores, n < 16 ---------------------------------- */

static inline __mmask16 mg_lane_mask_(size_t n) { return (__mmask16)((1u << n) - 1u); }
static inline mg_vf mg_load_f32_n(const float *p, size_t n) { return _mm512_maskz_loadu_ps(mg_lane_mask_(n), p); }
static inline void mg_store_f32_n(float *p, mg_vf v, size_t n) { _mm512_mask_storeu_ps(p, mg_lane_mask_(n), v); }
static inline mg_vf mg_load_f16_n(const uint16_t *p, size_t n) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mg_lane_mask_(n), p));
}
static inline void mg_store_f16_n(uint16_t *p, mg_vf v, size_t n) {
    _mm256_mask_storeu_epi16(p, mg_lane_mask_(n), mg_f16_bits_(v));
}
static inline mg_vf mg_load_bf16_n(const uint16_t *p, size_t n) {
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(mg_lane_mask_(n), p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
static inline void mg_store_bf16_n(uint16_t *p, mg_vf v, size_t n) {
    _mm256_mask_storeu_epi16(p, mg_lane_mask_(n), mg_bf16_bits_(v));
}

/* ---- pairs of vectors ------------------------------------------------------------------ */

MG_DEFINE_PAIR_VIA_SINGLE(float, f32, mg_loadu, mg_storeu, mg_stream)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, f16, mg_load_f16, mg_store_f16, mg_stream_f16)

/* bfloat16 pairs: 32 words in one load, each half widened by one zero-masking vpermw that
   puts word i in the high half of lane i (mg_load_bf16 takes a zero-extend and a shift);
   stored, where the native conversion gives the integer rounding's bits (no NaN or
   subnormal lane, see mg_bf16_bits_), by one vcvtne2ps2bf16 for all 32. */
static inline void mg_load_bf16_x2(const uint16_t *p, mg_vf *first, mg_vf *second) {
    const __m512i words = _mm512_loadu_si512((const void *)p);
    const __m512i first_words = _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, 7, 0, 6, 0,
                                                 5, 0, 4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
    const __m512i second_words = _mm512_add_epi16(first_words, _mm512_set1_epi16(16));
    const __mmask32 high_halves = 0xAAAAAAAAu;
    *first = _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(high_halves, first_words, words));
    *second = _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(high_halves, second_words, words));
}
#if defined(MG_BF16_NATIVE)
/* A pair's store (WIDE: one 64-byte store of 32 words) or stream (WIDE: its streaming form;
   p is MG_STREAM_ALIGN-aligned, as for mg_stream, so a pair is exactly one 64-byte line) */
#define MG_DEFINE_BF16_PAIR_STORE_(name, WIDE, SINGLE)                                     \
    static inline void name(uint16_t *p, mg_vf first, mg_vf second) {                    \
        if ((mg_bf16_not_native_(first) | mg_bf16_not_native_(second)) == 0) {            \
            WIDE((void *)p, (__m512i)_mm512_cvtne2ps_pbh(second, first));                 \
            return;                                                                       \
        }                                                                                 \
        SINGLE(p, first);                                                                 \
        SINGLE(p + MG_LANES, second);                                                     \
    }
MG_DEFINE_BF16_PAIR_STORE_(mg_store_bf16_x2, _mm512_storeu_si512, mg_store_bf16)
MG_DEFINE_BF16_PAIR_STORE_(mg_stream_bf16_x2, _mm512_stream_si512, mg_stream_bf16)
#undef MG_DEFINE_BF16_PAIR_STORE_
#else
MG_DEFINE_PAIR_STORES_VIA_SINGLE(uint16_t, bf16, mg_store_bf16, mg_stream_bf16)
#endif

/* ---- 16-bit table lookups (mg_simd_memory.h): two 16-lane gathers of 32 bits, each lane
   narrowed to its low word ------------------------------------------------------------- */

#define MG_LOOKUP_WORDS 32
static inline __m512i mg_lookup_words_(const uint16_t *table, const uint16_t *index) {
    const __m512i words = _mm512_loadu_si512((const void *)index);
    const __m512i first =
        _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(words)), (const void *)table, 2);
    const __m512i second =
        _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(words, 1)), (const void *)table, 2);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(first)), _mm512_cvtepi32_epi16(second), 1);
}
static inline void mg_lookup_words(const uint16_t *table, const uint16_t *index, uint16_t *out) {
    _mm512_storeu_si512((void *)out, mg_lookup_words_(table, index));
}
static inline void mg_lookup_words_stream(const uint16_t *table, const uint16_t *index, uint16_t *out) {
    _mm512_stream_si512((void *)out, mg_lookup_words_(table, index));
}

#endif /* MG_SIMD_AVX512_H_ */
