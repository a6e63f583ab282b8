/*
 * op_kernel/simd/mg_simd_avx2.h: the SIMD vocabulary on AVX2 + FMA + F16C, 8 lanes.
 * Each function is the vector twin of the one in mg_simd_scalar.h, rounding identically.
 */
#ifndef MG_SIMD_AVX2_H_
#define MG_SIMD_AVX2_H_

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "mg_simd_partial.h"
#include "mg_simd_memory.h"
#include "mg_simd_pair.h"

#define MG_LANES 8

typedef __m256 mg_vf;
typedef __m256i mg_vi;
typedef __m256 mg_vm; /* all-ones / all-zeros lanes, as the compares produce */

static inline mg_vf mg_set(float value) { return _mm256_set1_ps(value); }
static inline mg_vf mg_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline void mg_storeu(float *p, mg_vf v) { _mm256_storeu_ps(p, v); }
/* Streaming stores, see mg_simd_avx512.h */
#define MG_STREAM_ALIGN 32
static inline void mg_stream(float *p, mg_vf v) { _mm256_stream_ps(p, v); }
static inline void mg_stream_fence(void) { _mm_sfence(); }

static inline mg_vf mg_add(mg_vf a, mg_vf b) { return _mm256_add_ps(a, b); }
static inline mg_vf mg_sub(mg_vf a, mg_vf b) { return _mm256_sub_ps(a, b); }
static inline mg_vf mg_mul(mg_vf a, mg_vf b) { return _mm256_mul_ps(a, b); }
static inline mg_vf mg_div(mg_vf a, mg_vf b) { return _mm256_div_ps(a, b); }
static inline mg_vf mg_fma(mg_vf a, mg_vf b, mg_vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline mg_vf mg_fnma(mg_vf a, mg_vf b, mg_vf c) { return _mm256_fnmadd_ps(a, b, c); }

static inline mg_vf mg_abs(mg_vf a) {
    return _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
}
static inline mg_vf mg_min(mg_vf a, mg_vf b) { return _mm256_min_ps(a, b); }
static inline mg_vf mg_max(mg_vf a, mg_vf b) { return _mm256_max_ps(a, b); }

static inline mg_vm mg_lt(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline mg_vm mg_le(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline mg_vm mg_ne(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
static inline mg_vm mg_ordered(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_ORD_Q); }
static inline mg_vm mg_mask_and(mg_vm a, mg_vm b) { return _mm256_and_ps(a, b); }
static inline mg_vf mg_select(mg_vm m, mg_vf if_true, mg_vf if_false) {
    return _mm256_blendv_ps(if_false, if_true, m);
}

static inline mg_vf mg_pow2(mg_vi k) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}
static inline mg_vi mg_set_i(int32_t value) { return _mm256_set1_epi32(value); }

static inline mg_vi mg_max_i(mg_vi a, mg_vi b) { return _mm256_max_epi32(a, b); }
static inline mg_vi mg_keep_i(mg_vm m, mg_vi k) { return _mm256_and_si256(_mm256_castps_si256(m), k); }
static inline int mg_all(mg_vm m) { return _mm256_movemask_ps(m) == 0xFF; }

/* Integer lanes, see mg_simd_scalar.h. The lookup is two 8-entry permutes (each reads the
   low 3 bits of the index), chosen by bit 3 (moved to the sign bit for blendv). */
static inline mg_vi mg_as_vi(mg_vf v) { return _mm256_castps_si256(v); }
static inline mg_vf mg_as_vf(mg_vi v) { return _mm256_castsi256_ps(v); }
static inline mg_vi mg_add_i(mg_vi a, mg_vi b) { return _mm256_add_epi32(a, b); }
static inline mg_vi mg_sub_i(mg_vi a, mg_vi b) { return _mm256_sub_epi32(a, b); }
#define mg_shl_i(a, count) _mm256_slli_epi32((a), (count))
#define mg_shr_i(a, count) _mm256_srli_epi32((a), (count))
static inline mg_vf mg_lookup16(const float table[16], mg_vi index) {
    const __m256 low8 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), index);
    const __m256 high8 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 8), index);
    return _mm256_blendv_ps(low8, high8, _mm256_castsi256_ps(_mm256_slli_epi32(index, 28)));
}
/* RN(t * g * 2^k): exact in double, one rounding back to float (as mg_simd_scalar.h) */
static inline __m128 mg_scaled_half_(__m128 t, __m128 g, __m128i k) {
    const __m256i bits = _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(k), _mm256_set1_epi64x(1023)), 52);
    const __m256d prod = _mm256_mul_pd(_mm256_cvtps_pd(t), _mm256_mul_pd(_mm256_cvtps_pd(g), _mm256_castsi256_pd(bits)));
    return _mm256_cvtpd_ps(prod);
}
static inline mg_vf mg_mul_scaled_round_once(mg_vf t, mg_vf g, mg_vi k) {
    const __m128 lo = mg_scaled_half_(_mm256_castps256_ps128(t), _mm256_castps256_ps128(g), _mm256_castsi256_si128(k));
    const __m128 hi = mg_scaled_half_(_mm256_extractf128_ps(t, 1), _mm256_extractf128_ps(g, 1), _mm256_extracti128_si256(k, 1));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}


/* RN((a * b + c) 2^k) through double, as mg_simd_scalar.h */
static inline __m128 mg_fma_scaled_half_(__m128 a, __m128 b, __m128 c, __m128i k) {
    const __m256i bits = _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(k), _mm256_set1_epi64x(1023)), 52);
    const __m256d sum = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(a), _mm256_cvtps_pd(b)), _mm256_cvtps_pd(c));
    return _mm256_cvtpd_ps(_mm256_mul_pd(sum, _mm256_castsi256_pd(bits)));
}
static inline mg_vf mg_fma_scaled_round_once(mg_vf a, mg_vf b, mg_vf c, mg_vi k) {
    const __m128 lo = mg_fma_scaled_half_(_mm256_castps256_ps128(a), _mm256_castps256_ps128(b),
                                          _mm256_castps256_ps128(c), _mm256_castsi256_si128(k));
    const __m128 hi = mg_fma_scaled_half_(_mm256_extractf128_ps(a, 1), _mm256_extractf128_ps(b, 1),
                                          _mm256_extractf128_ps(c, 1), _mm256_extracti128_si256(k, 1));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}


/* ---- 16-bit formats ------------------------------------------------------------------- */

static inline mg_vf mg_load_f16(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}
static inline __m128i mg_f16_bits_(mg_vf v) { return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
static inline void mg_store_f16(uint16_t *p, mg_vf v) { _mm_storeu_si128((__m128i *)p, mg_f16_bits_(v)); }
static inline void mg_stream_f16(uint16_t *p, mg_vf v) { _mm_stream_si128((__m128i *)p, mg_f16_bits_(v)); }
static inline mg_vf mg_load_bf16(const uint16_t *p) {
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
/* Round to nearest-even on the 16 dropped bits (the kernel's NaN is already the canonical
   quiet one, which this keeps quiet). */
static inline __m128i mg_bf16_bits_(mg_vf v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)), lsb), 16);
    return _mm_packus_epi32(_mm256_castsi256_si128(rounded), _mm256_extracti128_si256(rounded, 1));
}
static inline void mg_store_bf16(uint16_t *p, mg_vf v) { _mm_storeu_si128((__m128i *)p, mg_bf16_bits_(v)); }
static inline void mg_stream_bf16(uint16_t *p, mg_vf v) { _mm_stream_si128((__m128i *)p, mg_bf16_bits_(v)); }

/* ---- partial vectors: n < 8 lanes, nothing read or written past them ----------------- */

static inline __m256i mg_lane_mask_(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline mg_vf mg_load_f32_n(const float *p, size_t n) { return _mm256_maskload_ps(p, mg_lane_mask_(n)); }
static inline void mg_store_f32_n(float *p, mg_vf v, size_t n) { _mm256_maskstore_ps(p, mg_lane_mask_(n), v); }
/* AVX2 has no 16-bit masked load: go through a zeroed 8-lane buffer */
MG_DEFINE_PARTIAL_VIA_BUFFER(uint16_t, f16, mg_load_f16, mg_store_f16)
MG_DEFINE_PARTIAL_VIA_BUFFER(uint16_t, bf16, mg_load_bf16, mg_store_bf16)

/* ---- pairs of vectors ------------------------------------------------------------------ */

MG_DEFINE_PAIR_VIA_SINGLE(float, f32, mg_loadu, mg_storeu, mg_stream)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, f16, mg_load_f16, mg_store_f16, mg_stream_f16)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, bf16, mg_load_bf16, mg_store_bf16, mg_stream_bf16)

/* ---- 16-bit table lookups (mg_simd_memory.h): two 8-lane gathers of 32 bits, each lane's
   low word kept ------------------------------------------------------------------------- */

#define MG_LOOKUP_WORDS 16
static inline __m256i mg_lookup_words_(const uint16_t *table, const uint16_t *index) {
    const __m256i words = _mm256_loadu_si256((const __m256i *)index);
    const __m256i low_word = _mm256_set1_epi32(0xFFFF);
    const __m256i first = _mm256_and_si256(
        _mm256_i32gather_epi32((const int *)table, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(words)), 2), low_word);
    const __m256i second = _mm256_and_si256(
        _mm256_i32gather_epi32((const int *)table, _mm256_cvtepu16_epi32(_mm256_extracti128_si256(words, 1)), 2),
        low_word);
    /* packus interleaves the 128-bit halves; the permute puts them back in order */
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(first, second), 0xD8);
}
static inline void mg_lookup_words(const uint16_t *table, const uint16_t *index, uint16_t *out) {
    _mm256_storeu_si256((__m256i *)out, mg_lookup_words_(table, index));
}
static inline void mg_lookup_words_stream(const uint16_t *table, const uint16_t *index, uint16_t *out) {
    _mm256_stream_si256((__m256i *)out, mg_lookup_words_(table, index));
}

#endif /* MG_SIMD_AVX2_H_ */
