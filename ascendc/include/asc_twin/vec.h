/*
 * asc_twin/vec.h: the vector core's instructions and data moves, in C (docs/ascendc_twin.md).
 * The C++ face (kernel_operator.h) is a thin mapping onto these calls: every rule, every
 * element loop and every number lives here. Each call runs inside a block (launch.h); outside
 * one, or once the block is aborted, it does nothing and returns -1.
 *
 * Every call checks its operands before touching any byte: a broken rule is reported through
 * asc_twin_report (the launch fails with the message) and nothing is written. Returns 0, or -1
 * after a report (the face then does nothing more: the block is aborted).
 */
#ifndef ASC_TWIN_VEC_H_
#define ASC_TWIN_VEC_H_

#include <stddef.h>
#include <stdint.h>

#include "asc_twin/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element types a LocalTensor / GlobalTensor can hold. */
typedef enum asc_twin_dtype {
    ASC_TWIN_F32 = 0, ASC_TWIN_F16, ASC_TWIN_BF16,
    ASC_TWIN_I8, ASC_TWIN_U8, ASC_TWIN_I16, ASC_TWIN_U16,
    ASC_TWIN_I32, ASC_TWIN_U32, ASC_TWIN_I64, ASC_TWIN_U64,
    ASC_TWIN_DTYPE_COUNT
} asc_twin_dtype;

/* A LocalTensor as the core sees it: where it starts in the block's UB and how many bytes
   lie between that start and the end of the buffer it was cut from (a slice t[i] keeps its
   buffer's end; counts beyond it break the "count within the tensor" rule). */
typedef struct asc_twin_ub_ref {
    uint8_t *addr;
    uint64_t capacity_bytes;
    asc_twin_dtype dtype;
} asc_twin_ub_ref;

/* A GlobalTensor: its address and the size SetGlobalBuffer gave (bytes; UINT64_MAX when
   SetGlobalBuffer was given no size: then only the real allocation bounds it). */
typedef struct asc_twin_gm_ref {
    uint8_t *addr;
    uint64_t size_bytes;
    asc_twin_dtype dtype;
} asc_twin_gm_ref;

/* ---- compute, count-based forms (dst, src..., count) -------------------------------- */
typedef enum asc_twin_unary_op {
    ASC_TWIN_EXP, ASC_TWIN_LN, ASC_TWIN_ABS, ASC_TWIN_RELU, ASC_TWIN_SQRT, ASC_TWIN_RSQRT,
    ASC_TWIN_RECIPROCAL, ASC_TWIN_TANH, ASC_TWIN_SIGMOID, ASC_TWIN_NOT, ASC_TWIN_SIGN, ASC_TWIN_FLOOR,
    ASC_TWIN_UNARY_COUNT
} asc_twin_unary_op;
typedef enum asc_twin_binary_op {
    ASC_TWIN_ADD, ASC_TWIN_SUB, ASC_TWIN_MUL, ASC_TWIN_DIV, ASC_TWIN_MAX, ASC_TWIN_MIN,
    ASC_TWIN_AND, ASC_TWIN_OR, ASC_TWIN_POWER, ASC_TWIN_BINARY_COUNT
} asc_twin_binary_op;
typedef enum asc_twin_scalar_op {
    ASC_TWIN_ADDS, ASC_TWIN_MULS, ASC_TWIN_MAXS, ASC_TWIN_MINS, ASC_TWIN_SHIFT_LEFT, ASC_TWIN_SHIFT_RIGHT,
    ASC_TWIN_LEAKY_RELU, ASC_TWIN_DIVS, ASC_TWIN_POWER_TS /* x^s */, ASC_TWIN_POWER_ST /* s^x */,
    ASC_TWIN_SCALAR_COUNT
} asc_twin_scalar_op;

/* `api` is the AscendC name used in reports ("Exp", "Tanh", ...). The scalar is given as a
   double (exact for every half, bfloat16, float and 32-bit integer scalar). */
ASC_TWIN_API int asc_twin_unary(const char *api, asc_twin_unary_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                                uint64_t count);
ASC_TWIN_API int asc_twin_binary(const char *api, asc_twin_binary_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src0,
                                 asc_twin_ub_ref src1, uint64_t count);
ASC_TWIN_API int asc_twin_scalar(const char *api, asc_twin_scalar_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                                 double scalar, uint64_t count);
ASC_TWIN_API int asc_twin_duplicate(asc_twin_ub_ref dst, double scalar, uint64_t count);
/* MulAddDst: dst[i] = src0[i] * src1[i] + dst[i] (float types: two IEEE roundings, the
   product's and the sum's; int16/int32 wrap). dst is read, so its bytes must be written. */
ASC_TWIN_API int asc_twin_mul_add_dst(asc_twin_ub_ref dst, asc_twin_ub_ref src0, asc_twin_ub_ref src1, uint64_t count);

/* ---- reductions ------------------------------------------------------------------- */
typedef enum asc_twin_reduce_op { ASC_TWIN_REDUCE_SUM, ASC_TWIN_REDUCE_MAX, ASC_TWIN_REDUCE_MIN } asc_twin_reduce_op;
/* ReduceSum / ReduceMax / ReduceMin, count form (half, float): dst[0] = the reduction of
   src[0, count). A sum is taken in double and rounded once to the type (the device adds
   in its own order, in the type: results may differ in the last bits, more for half);
   max/min are exact; a NaN among the elements gives NaN. With `cal_index` (Max/Min) dst[1]
   holds the first index of the result, its integer bits in the element's width (read it
   through a uint16/uint32 view, as CANN's docs say). The shared temporary buffer is not
   used (nor checked). dst may overlap src. */
ASC_TWIN_API int asc_twin_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                                 uint64_t count, int cal_index);

/* ---- level-0 forms: the vector mask and repeats --------------------------------------- */
/* The running block's mask state, set by SetMaskCount / SetMaskNorm / SetVectorMask /
   ResetMask (a block starts in normal mode with every lane on). In normal mode `hi:lo` is
   a lane bitmask over one repeat (lo: lanes 0..63, hi: 64..127); in counter mode lo is the
   number of elements the next instructions process, over as many repeats as that takes
   (their repeat count is then ignored). */
ASC_TWIN_API void asc_twin_set_mask_counter(int counter);
ASC_TWIN_API void asc_twin_set_vector_mask(uint64_t hi, uint64_t lo);
ASC_TWIN_API void asc_twin_reset_mask(void);
/* The state, for the face (and the tests): 0 outside a launch. */
ASC_TWIN_API int asc_twin_mask_counter(void);
ASC_TWIN_API void asc_twin_vector_mask(uint64_t *hi, uint64_t *lo);

/* One level-0 call's lanes and layout. `mask_kind`: 0 the block's mask state (isSetMask =
   false, MASK_PLACEHOLDER), 1 contiguous (`mask_count` first lanes), 2 bitwise (hi:lo).
   Strides in 32-byte blocks (src_blk: between the blocks of one repeat; src_rep: between
   repeats); dst_rep is the API's own unit (WholeReduce: one repeat's result, BlockReduce:
   32 bytes). */
typedef struct asc_twin_repeat {
    int mask_kind;
    uint64_t mask_count, mask_hi, mask_lo;
    int32_t repeat_times;
    int32_t dst_rep_stride, src_blk_stride, src_rep_stride;
} asc_twin_repeat;
/* The level-0 elementwise forms (Add(dst, src0, src1, mask, repeatTime, BinaryRepeatParams),
   Exp(dst, src, mask, repeatTime, UnaryRepeatParams), Adds(dst, src, scalar, mask, ...)):
   per repeat, each active lane of each operand at rep * 32 * r + blk * 32 * (lane / lanes
   per block) + its place in the block (strides in 32-byte blocks; [0] dst, [1] src0, [2]
   src1). Repeats run in order, each reading its lanes before writing (a destination with
   repeat stride 0 accumulates, as kernels use it); inactive lanes are not written. Float
   types (half, float) only; `kind` 0 unary, 1 binary, 2 tensor-scalar, with the count
   forms' ops and numbers. The mask and repeat count come from `rp` (its strides unused). */
typedef struct asc_twin_l0_strides {
    int32_t blk[3], rep[3];
} asc_twin_l0_strides;
ASC_TWIN_API int asc_twin_level0(const char *api, int kind, int op, asc_twin_ub_ref dst, asc_twin_ub_ref src0,
                                 asc_twin_ub_ref src1, double scalar, const asc_twin_repeat *rp,
                                 const asc_twin_l0_strides *st);
/* ReduceOrder of WholeReduceMax/Min (CANN's values). */
typedef enum asc_twin_reduce_order {
    ASC_TWIN_ORDER_VALUE_INDEX = 0, ASC_TWIN_ORDER_INDEX_VALUE, ASC_TWIN_ORDER_ONLY_VALUE, ASC_TWIN_ORDER_ONLY_INDEX
} asc_twin_reduce_order;
/* WholeReduceSum/Max/Min: per repeat the reduction of its active lanes (sum in double,
   rounded once) into dst[r * dst_rep * result length]; Max/Min write value and/or index
   (the lane's index in the repeat, as integer bits of the element width) in `order`.
   A repeat with no active lane writes nothing. Sources are read before anything is
   written (dst may overlap src). */
ASC_TWIN_API int asc_twin_whole_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst,
                                       asc_twin_ub_ref src, const asc_twin_repeat *rp, asc_twin_reduce_order order);
/* BlockReduceSum/Max/Min: per repeat, each of its 8 32-byte blocks reduced over its active
   lanes into dst[r * dst_rep * (32 / size) + block]; a block with no active lane writes
   nothing. */
ASC_TWIN_API int asc_twin_block_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst,
                                       asc_twin_ub_ref src, const asc_twin_repeat *rp);

/* AscendC::RoundMode (the face maps CANN's enum onto these). */
typedef enum asc_twin_round_mode {
    ASC_TWIN_CAST_NONE = 0, ASC_TWIN_CAST_RINT, ASC_TWIN_CAST_FLOOR, ASC_TWIN_CAST_CEIL, ASC_TWIN_CAST_ROUND,
    ASC_TWIN_CAST_TRUNC, ASC_TWIN_CAST_ODD
} asc_twin_round_mode;
ASC_TWIN_API int asc_twin_cast(asc_twin_ub_ref dst, asc_twin_ub_ref src, asc_twin_round_mode mode, uint64_t count);

/* CMPMODE and SELMODE (the face maps CANN's enums onto these). Compare writes one bit per element (LSB first)
   into dst (a uint8 tensor). */
typedef enum asc_twin_cmp_mode {
    ASC_TWIN_CMP_LT = 0, ASC_TWIN_CMP_GT, ASC_TWIN_CMP_EQ, ASC_TWIN_CMP_LE, ASC_TWIN_CMP_GE, ASC_TWIN_CMP_NE
} asc_twin_cmp_mode;
typedef enum asc_twin_sel_mode {
    ASC_TWIN_SEL_CMPMASK_SPR = 0, ASC_TWIN_SEL_TENSOR_SCALAR_MODE = 1, ASC_TWIN_SEL_TENSOR_TENSOR_MODE = 2
} asc_twin_sel_mode;
ASC_TWIN_API int asc_twin_compare(asc_twin_ub_ref dst_mask, asc_twin_ub_ref src0, asc_twin_ub_ref src1,
                                  asc_twin_cmp_mode mode, uint64_t count);
ASC_TWIN_API int asc_twin_compare_scalar(asc_twin_ub_ref dst_mask, asc_twin_ub_ref src0, double scalar,
                                         asc_twin_cmp_mode mode, uint64_t count);
/* dst[i] = bit i of mask ? src0[i] : (src1 given ? src1[i] : scalar). src1.addr == NULL
   selects the tensor-scalar form. */
ASC_TWIN_API int asc_twin_select(asc_twin_ub_ref dst, asc_twin_ub_ref mask, asc_twin_ub_ref src0,
                                 asc_twin_ub_ref src1, double scalar, asc_twin_sel_mode mode, uint64_t count);

/* ---- data movement ------------------------------------------------------------------ */
/* DataCopyParams (lengths and strides in 32-byte blocks) or DataCopyExtParams (lengths in
   bytes; strides in bytes on the GM side, in 32-byte blocks on the UB side), with CANN's
   field names. `unit_bytes` says which: 32 for DataCopyParams, 1 for the Ext form. */
typedef struct asc_twin_copy_params {
    uint32_t block_count;
    uint32_t block_len;
    int64_t src_stride;
    int64_t dst_stride;
    uint32_t unit_bytes;
} asc_twin_copy_params;
/* DataCopyPadExtParams: when is_pad, left/right padding elements are filled with pad_value. */
typedef struct asc_twin_pad_params {
    int is_pad;
    uint8_t left_padding;
    uint8_t right_padding;
    double pad_value;
} asc_twin_pad_params;

/* DataCopy, count form: `count` elements; count * size must be a multiple of 32 bytes
   (DataCopy's alignment rule) and both addresses 32-byte aligned in the UB. */
ASC_TWIN_API int asc_twin_copy_gm_to_ub(asc_twin_ub_ref dst, asc_twin_gm_ref src, uint64_t count);
ASC_TWIN_API int asc_twin_copy_ub_to_gm(asc_twin_gm_ref dst, asc_twin_ub_ref src, uint64_t count);
ASC_TWIN_API int asc_twin_copy_ub_to_ub(asc_twin_ub_ref dst, asc_twin_ub_ref src, uint64_t count);
/* DataCopy with DataCopyParams and DataCopyPad (pad may be NULL for UB->GM and for no pad). */
ASC_TWIN_API int asc_twin_copy_gm_to_ub_params(const char *api, asc_twin_ub_ref dst, asc_twin_gm_ref src,
                                               const asc_twin_copy_params *p, const asc_twin_pad_params *pad);
ASC_TWIN_API int asc_twin_copy_ub_to_gm_params(const char *api, asc_twin_gm_ref dst, asc_twin_ub_ref src,
                                               const asc_twin_copy_params *p);

/* ---- scalar access and synchronisation -------------------------------------------- */
/* LocalTensor::GetValue / SetValue (a scalar read counts as a read of the bytes). */
ASC_TWIN_API int asc_twin_get_value(asc_twin_ub_ref t, uint64_t index, double *value);
ASC_TWIN_API int asc_twin_set_value(asc_twin_ub_ref t, uint64_t index, double value);
/* GlobalTensor::GetValue / SetValue: bounds-checked. */
ASC_TWIN_API int asc_twin_gm_get_value(asc_twin_gm_ref t, uint64_t index, double *value);
ASC_TWIN_API int asc_twin_gm_set_value(asc_twin_gm_ref t, uint64_t index, double value);
/* InitGlobalMemory: `count` elements of GM set to `value` (bounds as every GM access). */
ASC_TWIN_API int asc_twin_gm_fill(asc_twin_gm_ref t, uint64_t count, double value);
/* ScalarCast / ToBfloat16: a float scalar converted to `to` (F16, BF16, I32) in `mode`,
   bit for bit as Cast converts an element (asc_twin_cast's modes and saturation); the
   result as a double (exact). -1 for a conversion Cast does not list (reported). */
ASC_TWIN_API int asc_twin_scalar_cast(float v, asc_twin_dtype to, asc_twin_round_mode mode, double *out);
/* SetAtomicAdd<T> / SetAtomicMax<T> / SetAtomicMin<T> / SetAtomicNone: the running block's
   atomic mode. While it is not NONE, every UB->GM data move (DataCopy, DataCopyPad) combines
   each element with the one already in GM (sum, larger, smaller) instead of overwriting it,
   in `dtype` (float, half, bfloat16_t, int8_t, int16_t, int32_t; anything else is reported);
   a move of another element type is reported. Writes of concurrent blocks are serialised,
   so no update is lost. Each block starts in NONE. */
typedef enum asc_twin_atomic_op {
    ASC_TWIN_ATOMIC_NONE = 0, ASC_TWIN_ATOMIC_ADD, ASC_TWIN_ATOMIC_MAX, ASC_TWIN_ATOMIC_MIN
} asc_twin_atomic_op;
ASC_TWIN_API void asc_twin_set_atomic(asc_twin_atomic_op op, asc_twin_dtype dtype);
/* Element size of a dtype in bytes. */
ASC_TWIN_API uint32_t asc_twin_dtype_size(asc_twin_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_VEC_H_ */
