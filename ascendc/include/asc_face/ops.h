/*
 * asc_face/ops.h: data movement and the vector instructions, count forms (the level-2 API:
 * dst, src..., calCount). Each is one call into the core (asc_twin/vec.h), which checks the
 * operands, reports a broken rule and computes; nothing here loops over elements.
 * Level-0 forms (mask, repeat, strides): the elementwise float ones and the reductions.
 */
#ifndef ASC_FACE_OPS_H_
#define ASC_FACE_OPS_H_

#include "asc_face/tensor.h"

namespace AscendC {

// ---- data movement parameters (CANN's field names and widths) ------------------------
// DataCopyParams: lengths and strides in 32-byte blocks (DataCopy); DataCopyPad reads
// blockLen in bytes, as its reference says.
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};
// DataCopyExtParams: blockLen in bytes; the GM side's stride in bytes, the UB side's in
// 32-byte blocks.
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

inline asc_twin_copy_params TwinCopy(const DataCopyParams &p, uint32_t unit)
{
    return asc_twin_copy_params{p.blockCount, p.blockLen, p.srcStride, p.dstStride, unit};
}
inline asc_twin_copy_params TwinCopy(const DataCopyExtParams &p)
{
    return asc_twin_copy_params{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 1};
}

// ---- DataCopy ---------------------------------------------------------------------------
template <typename T> void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count)
{
    asc_twin_copy_gm_to_ub(dst.TwinRef(), src.TwinRef(), count);
}
template <typename T> void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    asc_twin_copy_ub_to_gm(dst.TwinRef(), src.TwinRef(), count);
}
template <typename T> void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    asc_twin_copy_ub_to_ub(dst.TwinRef(), src.TwinRef(), count);
}
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &params)
{
    const asc_twin_copy_params p = TwinCopy(params, 32);
    asc_twin_copy_gm_to_ub_params("DataCopy", dst.TwinRef(), src.TwinRef(), &p, nullptr);
}
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params)
{
    const asc_twin_copy_params p = TwinCopy(params, 32);
    asc_twin_copy_ub_to_gm_params("DataCopy", dst.TwinRef(), src.TwinRef(), &p);
}

// ---- DataCopyPad --------------------------------------------------------------------------
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &params,
                 const DataCopyPadExtParams<T> &padParams)
{
    const asc_twin_copy_params p = TwinCopy(params);
    const asc_twin_pad_params pad{padParams.isPad ? 1 : 0, padParams.leftPadding, padParams.rightPadding,
                                  TwinScalar<T>(padParams.paddingValue)};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", dst.TwinRef(), src.TwinRef(), &p, &pad);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &params)
{
    const asc_twin_copy_params p = TwinCopy(params);
    asc_twin_copy_ub_to_gm_params("DataCopyPad", dst.TwinRef(), src.TwinRef(), &p);
}
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &params,
                 const DataCopyPadParams &padParams)
{
    const asc_twin_copy_params p = TwinCopy(params, 1);
    // paddingValue carries T's bits in its low bytes
    T value;
    std::memcpy(static_cast<void *>(&value), &padParams.paddingValue, sizeof(T));
    const asc_twin_pad_params pad{padParams.isPad ? 1 : 0, padParams.leftPadding, padParams.rightPadding,
                                  TwinScalar<T>(value)};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", dst.TwinRef(), src.TwinRef(), &p, &pad);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &params)
{
    const asc_twin_copy_params p = TwinCopy(params, 1);
    asc_twin_copy_ub_to_gm_params("DataCopyPad", dst.TwinRef(), src.TwinRef(), &p);
}

// Level-0 forms: the mask is the block's (isSetMask = false, MASK_PLACEHOLDER), contiguous
// (an int32 count of lanes) or bitwise (mask[0] lanes 0..63, mask[1] lanes 64..127).
inline asc_twin_repeat TwinRepeat(bool setMask, int32_t mask, int32_t repeat, int32_t dstRep, int32_t srcBlk,
                                  int32_t srcRep)
{
    asc_twin_repeat r{};
    r.mask_kind = setMask ? 1 : 0;
    r.mask_count = mask < 0 ? 0 : static_cast<uint64_t>(mask);
    r.repeat_times = repeat;
    r.dst_rep_stride = dstRep;
    r.src_blk_stride = srcBlk;
    r.src_rep_stride = srcRep;
    return r;
}
inline asc_twin_repeat TwinRepeat(bool setMask, const uint64_t mask[], int32_t repeat, int32_t dstRep,
                                  int32_t srcBlk, int32_t srcRep)
{
    asc_twin_repeat r = TwinRepeat(false, 0, repeat, dstRep, srcBlk, srcRep);
    r.mask_kind = setMask ? 2 : 0;
    if (setMask) {
        r.mask_lo = mask[0];
        r.mask_hi = mask[1];
    }
    return r;
}

inline asc_twin_l0_strides TwinStrides(const BinaryRepeatParams &p)
{
    return asc_twin_l0_strides{{p.dstBlkStride, p.src0BlkStride, p.src1BlkStride},
                               {p.dstRepStride, p.src0RepStride, p.src1RepStride}};
}
inline asc_twin_l0_strides TwinStrides(const UnaryRepeatParams &p)
{
    return asc_twin_l0_strides{{p.dstBlkStride, p.srcBlkStride, 0}, {p.dstRepStride, p.srcRepStride, 0}};
}
// A level-0 elementwise call: mask (MASK_PLACEHOLDER, a lane count or mask[2]) and repeats.
template <typename M, typename P>
inline void TwinLevel0(const char *api, int kind, int op, bool setMask, const M &mask, uint8_t repeatTime,
                       const P &params, asc_twin_ub_ref dst, asc_twin_ub_ref src0, asc_twin_ub_ref src1,
                       double scalar)
{
    const asc_twin_repeat r = TwinRepeat(setMask, mask, repeatTime, 0, 0, 0);
    const asc_twin_l0_strides st = TwinStrides(params);
    asc_twin_level0(api, kind, op, dst, src0, src1, scalar, &r, &st);
}

// ---- compute --------------------------------------------------------------------------
#define ASC_FACE_BINARY(Name, OP)                                                                                 \
    template <typename T, bool isSetMask = true>                                                                  \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,                  \
              const int32_t &calCount)                                                                            \
    {                                                                                                             \
        asc_twin_binary(#Name, OP, dst.TwinRef(), src0.TwinRef(), src1.TwinRef(),                                 \
                        static_cast<uint64_t>(static_cast<uint32_t>(calCount)));                                  \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename M>                                                      \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const M &mask,   \
              const uint8_t repeatTime, const BinaryRepeatParams &repeatParams)                                   \
    {                                                                                                             \
        TwinLevel0(#Name, 1, OP, isSetMask, mask, repeatTime, repeatParams, dst.TwinRef(), src0.TwinRef(),        \
                   src1.TwinRef(), 0.0);                                                                          \
    }
ASC_FACE_BINARY(Add, ASC_TWIN_ADD)
ASC_FACE_BINARY(Sub, ASC_TWIN_SUB)
ASC_FACE_BINARY(Mul, ASC_TWIN_MUL)
ASC_FACE_BINARY(Div, ASC_TWIN_DIV)
ASC_FACE_BINARY(Max, ASC_TWIN_MAX)
ASC_FACE_BINARY(Min, ASC_TWIN_MIN)
ASC_FACE_BINARY(And, ASC_TWIN_AND)
ASC_FACE_BINARY(Or, ASC_TWIN_OR)
#undef ASC_FACE_BINARY

// The scalar takes its own template parameter (a float literal for a half tensor is
// accepted) and is converted to T first, as the device converts it.
#define ASC_FACE_SCALAR(Name, OP)                                                                                 \
    template <typename T, bool isSetMask = true, typename U>                                                      \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalarValue, const int32_t &calCount) \
    {                                                                                                             \
        asc_twin_scalar(#Name, OP, dst.TwinRef(), src.TwinRef(), TwinScalar<T>(scalarValue),                      \
                        static_cast<uint64_t>(static_cast<uint32_t>(calCount)));                                  \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename U, typename M>                                          \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalarValue, const M &mask,          \
              const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)                                    \
    {                                                                                                             \
        TwinLevel0(#Name, 2, OP, isSetMask, mask, repeatTime, repeatParams, dst.TwinRef(), src.TwinRef(),         \
                   src.TwinRef(), TwinScalar<T>(scalarValue));                                                    \
    }
ASC_FACE_SCALAR(Adds, ASC_TWIN_ADDS)
ASC_FACE_SCALAR(Muls, ASC_TWIN_MULS)
ASC_FACE_SCALAR(Maxs, ASC_TWIN_MAXS)
ASC_FACE_SCALAR(Mins, ASC_TWIN_MINS)
ASC_FACE_SCALAR(ShiftLeft, ASC_TWIN_SHIFT_LEFT)
ASC_FACE_SCALAR(ShiftRight, ASC_TWIN_SHIFT_RIGHT)
ASC_FACE_SCALAR(LeakyRelu, ASC_TWIN_LEAKY_RELU)
ASC_FACE_SCALAR(Divs, ASC_TWIN_DIVS)
#undef ASC_FACE_SCALAR

#define ASC_FACE_UNARY(Name, OP)                                                                                  \
    template <typename T, bool isSetMask = true>                                                                  \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &calCount)                      \
    {                                                                                                             \
        asc_twin_unary(#Name, OP, dst.TwinRef(), src.TwinRef(), static_cast<uint64_t>(static_cast<uint32_t>(calCount))); \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename M>                                                      \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const M &mask, const uint8_t repeatTime,      \
              const UnaryRepeatParams &repeatParams)                                                              \
    {                                                                                                             \
        TwinLevel0(#Name, 0, OP, isSetMask, mask, repeatTime, repeatParams, dst.TwinRef(), src.TwinRef(),         \
                   src.TwinRef(), 0.0);                                                                           \
    }
ASC_FACE_UNARY(Exp, ASC_TWIN_EXP)
ASC_FACE_UNARY(Ln, ASC_TWIN_LN)
ASC_FACE_UNARY(Abs, ASC_TWIN_ABS)
ASC_FACE_UNARY(Relu, ASC_TWIN_RELU)
ASC_FACE_UNARY(Sqrt, ASC_TWIN_SQRT)
ASC_FACE_UNARY(Rsqrt, ASC_TWIN_RSQRT)
ASC_FACE_UNARY(Reciprocal, ASC_TWIN_RECIPROCAL)
ASC_FACE_UNARY(Not, ASC_TWIN_NOT)
#undef ASC_FACE_UNARY

// Advanced API (Tanh, Sigmoid): the sharedTmpBuffer overloads take the caller's scratch,
// which the core's IEEE form does not need; the tensor is accepted and not touched.
#define ASC_FACE_ADVANCED(Name, OP)                                                                               \
    template <typename T, bool isReuseSource = false>                                                             \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount)                      \
    {                                                                                                             \
        asc_twin_unary(#Name, OP, dst.TwinRef(), src.TwinRef(), calCount);                                       \
    }                                                                                                             \
    template <typename T, bool isReuseSource = false>                                                             \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,  \
              const uint32_t calCount)                                                                            \
    {                                                                                                             \
        (void)sharedTmpBuffer;                                                                                    \
        asc_twin_unary(#Name, OP, dst.TwinRef(), src.TwinRef(), calCount);                                       \
    }
ASC_FACE_ADVANCED(Tanh, ASC_TWIN_TANH)
ASC_FACE_ADVANCED(Sigmoid, ASC_TWIN_SIGMOID)
ASC_FACE_ADVANCED(Log, ASC_TWIN_LN) // the advanced API's natural logarithm (Ln's numbers)
ASC_FACE_ADVANCED(Sign, ASC_TWIN_SIGN)
ASC_FACE_ADVANCED(Floor, ASC_TWIN_FLOOR)
#undef ASC_FACE_ADVANCED

// MulAddDst: dst = src0 * src1 + dst
template <typename T, typename U = T, bool isSetMask = true>
void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
               const int32_t &calCount)
{
    asc_twin_mul_add_dst(dst.TwinRef(), src0.TwinRef(), src1.TwinRef(),
                         static_cast<uint64_t>(static_cast<uint32_t>(calCount)));
}

// Power (advanced API): tensor^tensor, tensor^scalar, scalar^tensor; the sharedTmpBuffer
// forms take the caller's scratch, which the core does not need.
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, uint32_t calCount)
{
    asc_twin_binary("Power", ASC_TWIN_POWER, dst.TwinRef(), src0.TwinRef(), src1.TwinRef(), calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1)
{
    Power(dst, src0, src1, dst.GetSize());
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
           const LocalTensor<uint8_t> &, uint32_t calCount)
{
    Power(dst, src0, src1, calCount);
}
template <typename T, bool isReuseSource = false, typename U,
          typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, U>>>
void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const U &src1Scalar, uint32_t calCount)
{
    asc_twin_scalar("Power", ASC_TWIN_POWER_TS, dst.TwinRef(), src0.TwinRef(), TwinScalar<T>(src1Scalar), calCount);
}
template <typename T, bool isReuseSource = false, typename U,
          typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, U>>>
void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const U &src1Scalar,
           const LocalTensor<uint8_t> &, uint32_t calCount)
{
    Power(dst, src0, src1Scalar, calCount);
}
template <typename T, bool isReuseSource = false, typename U,
          typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, U>>>
void Power(const LocalTensor<T> &dst, const U &src0Scalar, const LocalTensor<T> &src1, uint32_t calCount)
{
    asc_twin_scalar("Power", ASC_TWIN_POWER_ST, dst.TwinRef(), src1.TwinRef(), TwinScalar<T>(src0Scalar), calCount);
}
template <typename T, bool isReuseSource = false, typename U,
          typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, U>>>
void Power(const LocalTensor<T> &dst, const U &src0Scalar, const LocalTensor<T> &src1,
           const LocalTensor<uint8_t> &, uint32_t calCount)
{
    Power(dst, src0Scalar, src1, calCount);
}

// ---- reductions -------------------------------------------------------------------------
// Count forms: dst[0] (and dst[1], the index, with calIndex) from src[0, count); the
// sharedTmpBuffer is the caller's scratch, not needed by the core.
template <typename T>
void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count)
{
    (void)sharedTmpBuffer;
    asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, dst.TwinRef(), src.TwinRef(),
                    static_cast<uint64_t>(static_cast<uint32_t>(count)), 0);
}
template <typename T>
void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count, bool calIndex = false)
{
    (void)sharedTmpBuffer;
    asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, dst.TwinRef(), src.TwinRef(),
                    static_cast<uint64_t>(static_cast<uint32_t>(count)), calIndex ? 1 : 0);
}
template <typename T>
void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
               const int32_t count, bool calIndex = false)
{
    (void)sharedTmpBuffer;
    asc_twin_reduce("ReduceMin", ASC_TWIN_REDUCE_MIN, dst.TwinRef(), src.TwinRef(),
                    static_cast<uint64_t>(static_cast<uint32_t>(count)), calIndex ? 1 : 0);
}

#define ASC_FACE_WHOLE_REDUCE(Name, OP, ...)                                                                     \
    template <typename T, bool isSetMask = true, typename M>                                                     \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const M &mask, const int32_t repeatTime,     \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__)    \
    {                                                                                                            \
        const asc_twin_repeat r = TwinRepeat(isSetMask, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride); \
        asc_twin_whole_reduce(#Name, OP, dst.TwinRef(), src.TwinRef(), &r, ASC_FACE_ORDER_);                     \
    }
#define ASC_FACE_ORDER_ ASC_TWIN_ORDER_ONLY_VALUE
ASC_FACE_WHOLE_REDUCE(WholeReduceSum, ASC_TWIN_REDUCE_SUM)
#undef ASC_FACE_ORDER_
#define ASC_FACE_ORDER_ static_cast<asc_twin_reduce_order>(order)
ASC_FACE_WHOLE_REDUCE(WholeReduceMax, ASC_TWIN_REDUCE_MAX, , const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
ASC_FACE_WHOLE_REDUCE(WholeReduceMin, ASC_TWIN_REDUCE_MIN, , const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
#undef ASC_FACE_ORDER_
#undef ASC_FACE_WHOLE_REDUCE

#define ASC_FACE_BLOCK_REDUCE(Name, OP)                                                                          \
    template <typename T, bool isSetMask = true, typename M>                                                     \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, const M &mask,     \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)                \
    {                                                                                                            \
        const asc_twin_repeat r = TwinRepeat(isSetMask, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride); \
        asc_twin_block_reduce(#Name, OP, dst.TwinRef(), src.TwinRef(), &r);                                      \
    }
ASC_FACE_BLOCK_REDUCE(BlockReduceSum, ASC_TWIN_REDUCE_SUM)
ASC_FACE_BLOCK_REDUCE(BlockReduceMax, ASC_TWIN_REDUCE_MAX)
ASC_FACE_BLOCK_REDUCE(BlockReduceMin, ASC_TWIN_REDUCE_MIN)
#undef ASC_FACE_BLOCK_REDUCE

template <typename T, bool isSetMask = true, typename U>
void Duplicate(const LocalTensor<T> &dst, const U &scalarValue, const int32_t &calCount)
{
    asc_twin_duplicate(dst.TwinRef(), TwinScalar<T>(scalarValue), static_cast<uint64_t>(static_cast<uint32_t>(calCount)));
}

template <typename T, typename U>
void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode, const uint32_t calCount)
{
    asc_twin_cast(dst.TwinRef(), src.TwinRef(), static_cast<asc_twin_round_mode>(roundMode), calCount);
}

// Compare writes one bit per element into dst (uint8_t or any integer tensor).
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
             uint32_t calCount)
{
    asc_twin_compare(dst.TwinRef(), src0.TwinRef(), src1.TwinRef(), static_cast<asc_twin_cmp_mode>(cmpMode),
                     calCount);
}
template <typename T, typename U, bool isSetMask = true, typename S>
void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
                   uint32_t calCount)
{
    asc_twin_compare_scalar(dst.TwinRef(), src0.TwinRef(), TwinScalar<T>(src1Scalar),
                            static_cast<asc_twin_cmp_mode>(cmpMode), calCount);
}
// Compares: the scalar compare under its newer name
template <typename T, typename U, bool isSetMask = true, typename S, typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, S>>>
void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
              uint32_t calCount)
{
    asc_twin_compare_scalar(dst.TwinRef(), src0.TwinRef(), TwinScalar<T>(src1Scalar),
                            static_cast<asc_twin_cmp_mode>(cmpMode), calCount);
}
template <typename T, typename U>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
            const LocalTensor<T> &src1, SELMODE selMode, uint32_t calCount)
{
    asc_twin_select(dst.TwinRef(), selMask.TwinRef(), src0.TwinRef(), src1.TwinRef(), 0.0,
                    static_cast<asc_twin_sel_mode>(selMode), calCount);
}
template <typename T, typename U, typename S, typename = std::enable_if_t<!std::is_base_of_v<LocalTensor<T>, S>>>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1Scalar,
            SELMODE selMode, uint32_t calCount)
{
    const asc_twin_ub_ref none{nullptr, 0, TwinDtype<T>::value};
    asc_twin_select(dst.TwinRef(), selMask.TwinRef(), src0.TwinRef(), none, TwinScalar<T>(src1Scalar),
                    static_cast<asc_twin_sel_mode>(selMode), calCount);
}

} // namespace AscendC

#endif // ASC_FACE_OPS_H_
