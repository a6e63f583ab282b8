/*
 * ascendc/core/vec_internal.h: what the vector core's files share (internal to the twin):
 * element conversions, the operand rules (vec_rules.c) and the float kernels (vec_math.c).
 * The rules run before any byte is written; each returns 0, or -1 after its report.
 */
#ifndef ASC_TWIN_VEC_INTERNAL_H_
#define ASC_TWIN_VEC_INTERNAL_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "asc_twin/vec.h"

/* ---- per-ISA clones ---------------------------------------------------------------- */

/* The float kernels (and the written-bytes scan) are compiled for AVX-512, AVX2 and the baseline where the compiler can pick one
   at load time (x86-64 ELF with ifunc): the loops are the same C, so every version computes
   the same bits (no fma contraction: vec_math.c's compile options), only with wider lanes.
   gcc only: clang's clones of a hidden-visibility function fail to link; not under the
   sanitizers, whose runtimes may not be ready when an ifunc resolver runs. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__has_attribute) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__) && !defined(__clang__)
#if __has_attribute(target_clones)
#define TWIN_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef TWIN_CLONES
#define TWIN_CLONES
#endif

/* ---- element formats ------------------------------------------------------------- */

static inline float twin_bits_to_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t twin_f32_to_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
/* half and bfloat16 <-> float: widening is exact; narrowing rounds to nearest even with
   IEEE overflow to infinity (what one vector instruction's result does; Cast has its own). */
float twin_f16_to_f32(uint16_t h);
uint16_t twin_f32_to_f16(float f);
static inline float twin_bf16_to_f32(uint16_t b) { return twin_bits_to_f32((uint32_t)b << 16); }
static inline uint16_t twin_f32_to_bf16(float f) {
    uint32_t u = twin_f32_to_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
const char *twin_dtype_name(asc_twin_dtype dtype);
/* A double scalar as float (nearest) and as int64 (toward zero), defined for every input:
   beyond float's range an infinity, beyond int64's its limit, NaN as 0. */
static inline float twin_scalar_f32(double v) {
    return v > 3.4028235677973366e38 ? INFINITY : v < -3.4028235677973366e38 ? -INFINITY : (float)v;
}
static inline int64_t twin_scalar_i64(double v) {
    return v != v ? 0 : v >= 9.2233720368547758e18 ? INT64_MAX : v <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)v;
}
static inline int twin_is_float(asc_twin_dtype d) { return d == ASC_TWIN_F32 || d == ASC_TWIN_F16 || d == ASC_TWIN_BF16; }

/* Element i of a float-typed buffer as float, and the store back (rounded per dtype). */
void twin_load_f32(float *out, const uint8_t *src, asc_twin_dtype dtype, size_t n);
void twin_store_f32(uint8_t *dst, asc_twin_dtype dtype, const float *in, size_t n);
/* Integer elements as int64 and back (wrapping to the dtype's width, as the device's
   integer lanes do). */
int64_t twin_load_int(const uint8_t *src, asc_twin_dtype dtype, size_t i);
void twin_store_int(uint8_t *dst, asc_twin_dtype dtype, size_t i, int64_t v);
/* A scalar (given as double) in an element format: float types round to nearest even,
   integers truncate toward zero and wrap to the width (NaN gives 0). */
void twin_scalar_bytes(asc_twin_dtype dtype, double v, uint8_t out[8]);

/* ---- rules (vec_rules.c) ------------------------------------------------------------ */

/* One UB operand of an instruction: the tensor, its role in messages ("destination",
   "source", "source 0", ...), the bytes the instruction touches, and whether the API needs
   a 32-byte aligned start. */
typedef struct twin_operand {
    asc_twin_ub_ref ref;
    const char *role;
    uint64_t bytes;
    int aligned;
} twin_operand;
/* Count within capacity, inside the block's UB, aligned where required, for each operand;
   `count` is named in the capacity message. */
int twin_check_ub(const char *api, uint64_t count, const twin_operand *ops, int n);
/* Whether the calling block runs with a UB (inside a launch, not aborted): twin_check_ub's
   first rule, for a copy that learns its operands' byte counts only after its other checks. */
int twin_block_runs(void);
/* The GM range [t.addr + offset, + bytes) within SetGlobalBuffer's size and within one
   real allocation (GmAlloc, aclrtMalloc, the launch's own buffers). */
int twin_check_gm(const char *api, const char *role, asc_twin_gm_ref t, uint64_t offset, uint64_t bytes);
/* twin_check_gm for a data move: bytes past an aclrtMalloc block's end but within CANN's
   padding of it are a warning (an error under MISHGRAD_TWIN_STRICT=1), and *in_block is how
   many of the bytes lie in the block (all of them otherwise). */
int twin_check_gm_copy(const char *api, const char *role, asc_twin_gm_ref t, uint64_t offset, uint64_t bytes,
                       uint64_t *in_block);
/* dst and src overlap: 0 when they do not, or when `inplace_ok` and they start at the same
   address with dst elements no wider than src ones; else the overlap rule (a warning once
   per launch and API, an error under MISHGRAD_TWIN_STRICT=1): returns 1 when the caller
   must read src from a snapshot, -1 after an error report. `why` names the restriction. */
int twin_check_overlap(const char *api, const twin_operand *dst, const twin_operand *src, int inplace_ok,
                       const char *why);

/* The block's written-bytes record, one bit per UB byte (1 once something wrote it; a bit,
   not a byte, so that an instruction's bookkeeping costs an eighth of its data's traffic).
   A view: bit `off + i` of `w` is byte i's. */
typedef struct twin_sv {
    uint32_t *w;
    uint64_t off;
} twin_sv;
/* The view of the running block's record at a UB address ({NULL, 0} outside the UB). */
twin_sv twin_shadow(const uint8_t *ub_addr);
static inline twin_sv twin_sv_at(twin_sv v, uint64_t bytes) {
    v.off += bytes;
    return v;
}
/* 1 when all n bytes are written. */
int twin_sv_all(twin_sv v, uint64_t n);
/* Marks n bytes written (1) or not (0). */
void twin_sv_set(twin_sv v, uint64_t n, int written);
/* Copies n bytes' record from src to dst (they may overlap). */
void twin_sv_copy(twin_sv dst, twin_sv src, uint64_t n);
/* A copy of n bytes' record in *owned (mgrt_free() it), viewed by *out; 0, or -1 without
   memory. The vector core allocates through mgrt_malloc, so that a test's MISHGRAD_FAULT_ALLOC
   reaches its out-of-memory paths too. */
int twin_sv_snapshot(twin_sv v, uint64_t n, uint32_t **owned, twin_sv *out);
/* Reports unwritten bytes of [addr, + bytes) reaching `what` ("to GM", "to a scalar");
   `role` names the bytes ("the source tensor", "element 5"). */
int twin_check_written(const char *api, const char *role, const uint8_t *addr, uint64_t bytes, const char *what);
/* Marks dst's elements written where every byte of the sources' element i was (sources
   may be NULL; element sizes may differ; dst may be a source, element for element). */
void twin_propagate(twin_sv dst, uint32_t dst_es, const twin_sv *src0, uint32_t s0_es, const twin_sv *src1,
                    uint32_t s1_es, size_t n);

/* The running block's atomic mode (asc_twin_set_atomic) and its type (launch.c). */
asc_twin_atomic_op asc_twin_atomic(asc_twin_dtype *dtype);
/* The AscendC call that sets `op` ("SetAtomicAdd", ...), for reports. */
const char *twin_atomic_name(asc_twin_atomic_op op);

/* ---- float kernels (vec_math.c): d[i] = f(a[i]) over float arrays ----------------- */
void twin_f32_unary(asc_twin_unary_op op, float *d, const float *a, size_t n);
void twin_f32_binary(asc_twin_binary_op op, float *d, const float *a, const float *b, size_t n);
void twin_f32_scalar(asc_twin_scalar_op op, float *d, const float *a, float s, size_t n);

/* ---- Cast's common conversions (vec_math.c), loops that vectorize: the bits vec_cast.c's
   exact path gives. Half or bfloat16 to float (exact), and float to half or bfloat16 to
   nearest (ties to even, or away from zero when `ties_away`), saturating at the largest
   finite value, NaN kept quiet. d and s may start at the same address (d no wider). */
void twin_widen_to_f32(uint8_t *d, const uint8_t *s, asc_twin_dtype sdt, size_t n);
void twin_narrow_nearest(uint8_t *d, asc_twin_dtype ddt, const uint8_t *s, int ties_away, size_t n);

#endif /* ASC_TWIN_VEC_INTERNAL_H_ */
