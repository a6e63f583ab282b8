/*
 * op_kernel/simd/mg_simd_avx2.h: the SIMD vocabulary on AVX2 + FMA + F16C, 8 lanes.
 * Each function is the vector twin of the one in mg_simd_scalar.h, rounding identically.
 */
#ifndef MG_SIMD_AVX2_H_
#define MG_SIMD_AVX2_H_

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define MG_LANES 8

typedef __m256 mg_vf;
typedef __m256i mg_vi;
typedef __m256 mg_vm; /* all-ones / all-zeros lanes, as the compares produce */

static inline mg_vf mg_set(float value) { return _mm256_set1_ps(value); }
static inline mg_vf mg_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline void mg_storeu(float *p, mg_vf v) { _mm256_storeu_ps(p, v); }

static inline mg_vf mg_add(mg_vf a, mg_vf b) { return _mm256_add_ps(a, b); }
static inline mg_vf mg_sub(mg_vf a, mg_vf b) { return _mm256_sub_ps(a, b); }
static inline mg_vf mg_mul(mg_vf a, mg_vf b) { return _mm256_mul_ps(a, b); }
static inline mg_vf mg_div(mg_vf a, mg_vf b) { return _mm256_div_ps(a, b); }
static inline mg_vf mg_fma(mg_vf a, mg_vf b, mg_vf c) { return _mm256_fmadd_ps(a, b, c); }

static inline mg_vf mg_abs(mg_vf a) {
    return _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
}
static inline mg_vf mg_neg(mg_vf a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline mg_vf mg_min(mg_vf a, mg_vf b) { return _mm256_min_ps(a, b); }
static inline mg_vf mg_max(mg_vf a, mg_vf b) { return _mm256_max_ps(a, b); }

static inline mg_vm mg_lt(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline mg_vm mg_le(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline mg_vm mg_ordered(mg_vf a, mg_vf b) { return _mm256_cmp_ps(a, b, _CMP_ORD_Q); }
static inline mg_vm mg_mask_and(mg_vm a, mg_vm b) { return _mm256_and_ps(a, b); }
static inline mg_vf mg_select(mg_vm m, mg_vf if_true, mg_vf if_false) {
    return _mm256_blendv_ps(if_false, if_true, m);
}

static inline mg_vi mg_to_int(mg_vf a) { return _mm256_cvtps_epi32(a); }
static inline mg_vf mg_pow2(mg_vi k) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}
static inline mg_vi mg_half_floor(mg_vi k) { return _mm256_srai_epi32(k, 1); }
static inline mg_vi mg_sub_i(mg_vi a, mg_vi b) { return _mm256_sub_epi32(a, b); }
static inline mg_vi mg_add_i(mg_vi a, mg_vi b) { return _mm256_add_epi32(a, b); }
static inline mg_vi mg_min_i(mg_vi a, mg_vi b) { return _mm256_min_epi32(a, b); }
static inline mg_vi mg_set_i(int32_t value) { return _mm256_set1_epi32(value); }

static inline mg_vi mg_region(mg_vm past_first, mg_vm past_second) {
    /* compare masks are -1 per true lane */
    return _mm256_sub_epi32(_mm256_setzero_si256(),
                            _mm256_add_epi32(_mm256_castps_si256(past_first), _mm256_castps_si256(past_second)));
}
static inline mg_vf mg_lookup3(mg_vi region, float a, float b, float c) {
    return _mm256_permutevar8x32_ps(_mm256_setr_ps(a, b, c, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f), region);
}

/* ---- 16-bit formats ------------------------------------------------------------------- */

static inline mg_vf mg_load_f16(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}
static inline void mg_store_f16(uint16_t *p, mg_vf v) {
    _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static inline mg_vf mg_load_bf16(const uint16_t *p) {
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
/* Round to nearest-even on the 16 dropped bits (the kernel's NaN is already the canonical
   quiet one, which this keeps quiet). */
static inline void mg_store_bf16(uint16_t *p, mg_vf v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)), lsb), 16);
    const __m128i packed =
        _mm_packus_epi32(_mm256_castsi256_si128(rounded), _mm256_extracti128_si256(rounded, 1));
    _mm_storeu_si128((__m128i *)p, packed);
}

/* ---- partial vectors: n < 8 lanes, nothing read or written past them ----------------- */

static inline __m256i mg_lane_mask_(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline mg_vf mg_load_f32_n(const float *p, size_t n) { return _mm256_maskload_ps(p, mg_lane_mask_(n)); }
static inline void mg_store_f32_n(float *p, mg_vf v, size_t n) { _mm256_maskstore_ps(p, mg_lane_mask_(n), v); }
/* AVX2 has no 16-bit masked load: go through a zeroed 8-lane buffer */
static inline mg_vf mg_load_f16_n(const uint16_t *p, size_t n) {
    uint16_t lanes[MG_LANES] = {0};
    memcpy(lanes, p, n * sizeof *p);
    return mg_load_f16(lanes);
}
static inline void mg_store_f16_n(uint16_t *p, mg_vf v, size_t n) {
    uint16_t lanes[MG_LANES];
    mg_store_f16(lanes, v);
    memcpy(p, lanes, n * sizeof *p);
}
static inline mg_vf mg_load_bf16_n(const uint16_t *p, size_t n) {
    uint16_t lanes[MG_LANES] = {0};
    memcpy(lanes, p, n * sizeof *p);
    return mg_load_bf16(lanes);
}
static inline void mg_store_bf16_n(uint16_t *p, mg_vf v, size_t n) {
    uint16_t lanes[MG_LANES];
    mg_store_bf16(lanes, v);
    memcpy(p, lanes, n * sizeof *p);
}

#endif /* MG_SIMD_AVX2_H_ */
