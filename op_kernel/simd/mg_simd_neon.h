/*
 * op_kernel/simd/mg_simd_neon.h: the SIMD vocabulary on AArch64 Advanced SIMD, 4 lanes.
 * AArch64 arithmetic is IEEE (round to nearest-even, no flush-to-zero by default), vfmaq
 * is fused, vdivq is a true division; min/max and selects are written as compare + bit
 * select so that they pick exactly the operand the scalar and x86 versions pick.
 */
#ifndef MG_SIMD_NEON_H_
#define MG_SIMD_NEON_H_

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "mg_simd_partial.h"
#include "mg_simd_memory.h"
#include "mg_simd_pair.h"

#define MG_LANES 4

typedef float32x4_t mg_vf;
typedef int32x4_t mg_vi;
typedef uint32x4_t mg_vm;

static inline mg_vf mg_set(float value) { return vdupq_n_f32(value); }
static inline mg_vf mg_loadu(const float *p) { return vld1q_f32(p); }
static inline void mg_storeu(float *p, mg_vf v) { vst1q_f32(p, v); }
/* No streaming stores on this path: the streaming tiles store as the others do */
#define MG_STREAM_ALIGN 1
static inline void mg_stream(float *p, mg_vf v) { mg_storeu(p, v); }
static inline void mg_stream_fence(void) {}

static inline mg_vf mg_add(mg_vf a, mg_vf b) { return vaddq_f32(a, b); }
static inline mg_vf mg_sub(mg_vf a, mg_vf b) { return vsubq_f32(a, b); }
static inline mg_vf mg_mul(mg_vf a, mg_vf b) { return vmulq_f32(a, b); }
static inline mg_vf mg_div(mg_vf a, mg_vf b) { return vdivq_f32(a, b); }
static inline mg_vf mg_fma(mg_vf a, mg_vf b, mg_vf c) { return vfmaq_f32(c, a, b); }
static inline mg_vf mg_fnma(mg_vf a, mg_vf b, mg_vf c) { return vfmsq_f32(c, a, b); }

static inline mg_vf mg_abs(mg_vf a) { return vabsq_f32(a); }
static inline mg_vf mg_min(mg_vf a, mg_vf b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
static inline mg_vf mg_max(mg_vf a, mg_vf b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }

static inline mg_vm mg_lt(mg_vf a, mg_vf b) { return vcltq_f32(a, b); }
static inline mg_vm mg_le(mg_vf a, mg_vf b) { return vcleq_f32(a, b); }
static inline mg_vm mg_ne(mg_vf a, mg_vf b) { return vmvnq_u32(vceqq_f32(a, b)); }
static inline mg_vm mg_ordered(mg_vf a, mg_vf b) { return vandq_u32(vceqq_f32(a, a), vceqq_f32(b, b)); }
static inline mg_vm mg_mask_and(mg_vm a, mg_vm b) { return vandq_u32(a, b); }
static inline mg_vf mg_select(mg_vm m, mg_vf if_true, mg_vf if_false) { return vbslq_f32(m, if_true, if_false); }

static inline mg_vf mg_pow2(mg_vi k) {
    return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k, vdupq_n_s32(127)), 23));
}
static inline mg_vi mg_set_i(int32_t value) { return vdupq_n_s32(value); }

static inline mg_vi mg_max_i(mg_vi a, mg_vi b) { return vmaxq_s32(a, b); }
static inline mg_vi mg_keep_i(mg_vm m, mg_vi k) { return vandq_s32(vreinterpretq_s32_u32(m), k); }
static inline int mg_all(mg_vm m) { return vminvq_u32(m) != 0; }

/* Integer lanes, see mg_simd_scalar.h. The lookup treats the 16 floats as a 64-byte table
   for one tbl: lane bytes 4j .. 4j + 3. */
static inline mg_vi mg_as_vi(mg_vf v) { return vreinterpretq_s32_f32(v); }
static inline mg_vf mg_as_vf(mg_vi v) { return vreinterpretq_f32_s32(v); }
static inline mg_vi mg_add_i(mg_vi a, mg_vi b) { return vaddq_s32(a, b); }
static inline mg_vi mg_sub_i(mg_vi a, mg_vi b) { return vsubq_s32(a, b); }
#define mg_shl_i(a, count) vshlq_n_s32((a), (count))
#define mg_shr_i(a, count) vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(a), (count)))
static inline mg_vf mg_lookup16(const float table[16], mg_vi index) {
    const uint32x4_t j4 = vshlq_n_u32(vandq_u32(vreinterpretq_u32_s32(index), vdupq_n_u32(15)), 2);
    const uint32x4_t byte_index = vmlaq_u32(vdupq_n_u32(0x03020100u), j4, vdupq_n_u32(0x01010101u));
    uint8x16x4_t bytes;
    bytes.val[0] = vld1q_u8((const uint8_t *)table);
    bytes.val[1] = vld1q_u8((const uint8_t *)(table + 4));
    bytes.val[2] = vld1q_u8((const uint8_t *)(table + 8));
    bytes.val[3] = vld1q_u8((const uint8_t *)(table + 12));
    return vreinterpretq_f32_u8(vqtbl4q_u8(bytes, vreinterpretq_u8_u32(byte_index)));
}
/* RN(t * g * 2^k): exact in double, one rounding back to float (as mg_simd_scalar.h) */
static inline float64x2_t mg_scale_f64_(int32x2_t k) {
    return vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(vmovl_s32(k), vdupq_n_s64(1023)), 52));
}
static inline mg_vf mg_mul_scaled_round_once(mg_vf t, mg_vf g, mg_vi k) {
    const float64x2_t lo = vmulq_f64(vcvt_f64_f32(vget_low_f32(t)),
                                     vmulq_f64(vcvt_f64_f32(vget_low_f32(g)), mg_scale_f64_(vget_low_s32(k))));
    const float64x2_t hi = vmulq_f64(vcvt_high_f64_f32(t),
                                     vmulq_f64(vcvt_high_f64_f32(g), mg_scale_f64_(vget_high_s32(k))));
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}


/* RN((a * b + c) 2^k) through double, as mg_simd_scalar.h */
static inline mg_vf mg_fma_scaled_round_once(mg_vf a, mg_vf b, mg_vf c, mg_vi k) {
    const float64x2_t lo = vmulq_f64(vaddq_f64(vmulq_f64(vcvt_f64_f32(vget_low_f32(a)), vcvt_f64_f32(vget_low_f32(b))),
                                               vcvt_f64_f32(vget_low_f32(c))),
                                     mg_scale_f64_(vget_low_s32(k)));
    const float64x2_t hi = vmulq_f64(vaddq_f64(vmulq_f64(vcvt_high_f64_f32(a), vcvt_high_f64_f32(b)), vcvt_high_f64_f32(c)),
                                     mg_scale_f64_(vget_high_s32(k)));
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}


/* ---- 16-bit formats ------------------------------------------------------------------- */

static inline mg_vf mg_load_f16(const uint16_t *p) { return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p))); }
static inline void mg_store_f16(uint16_t *p, mg_vf v) { vst1_u16(p, vreinterpret_u16_f16(vcvt_f16_f32(v))); }
static inline void mg_stream_f16(uint16_t *p, mg_vf v) { mg_store_f16(p, v); }
static inline mg_vf mg_load_bf16(const uint16_t *p) {
    return vreinterpretq_f32_u32(vshlq_n_u32(vmovl_u16(vld1_u16(p)), 16));
}
static inline void mg_store_bf16(uint16_t *p, mg_vf v) {
    const uint32x4_t u = vreinterpretq_u32_f32(v);
    const uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    const uint32x4_t rounded = vshrq_n_u32(vaddq_u32(vaddq_u32(u, vdupq_n_u32(0x7FFF)), lsb), 16);
    vst1_u16(p, vmovn_u32(rounded));
}
static inline void mg_stream_bf16(uint16_t *p, mg_vf v) { mg_store_bf16(p, v); }

/* ---- partial vectors (n < 4) through a zeroed 4-lane buffer ---------------------------- */

MG_DEFINE_PARTIAL_VIA_BUFFER(float, f32, mg_loadu, mg_storeu)
MG_DEFINE_PARTIAL_VIA_BUFFER(uint16_t, f16, mg_load_f16, mg_store_f16)
MG_DEFINE_PARTIAL_VIA_BUFFER(uint16_t, bf16, mg_load_bf16, mg_store_bf16)

/* ---- pairs of vectors ------------------------------------------------------------------ */

MG_DEFINE_PAIR_VIA_SINGLE(float, f32, mg_loadu, mg_storeu, mg_stream)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, f16, mg_load_f16, mg_store_f16, mg_stream_f16)
MG_DEFINE_PAIR_VIA_SINGLE(uint16_t, bf16, mg_load_bf16, mg_store_bf16, mg_stream_bf16)

/* ---- 16-bit table lookups (mg_simd_memory.h): no gather here, plain loads -------------- */

#define MG_LOOKUP_WORDS 8
MG_DEFINE_LOOKUP_WORDS_BY_LOADS()

#endif /* MG_SIMD_NEON_H_ */
