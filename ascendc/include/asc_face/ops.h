/*
 * asc_face/ops.h: data movement and the vector instructions, count forms (the level-2 API:
 * dst, src..., calCount). Each is one call into the core (asc_twin/vec.h), which checks the
 * operands, reports a broken rule and computes; nothing here loops over elements.
 * The level-0 forms (mask, repeat, strides) are not modelled.
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
    std::memcpy(&value, &padParams.paddingValue, sizeof(T));
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

// ---- compute --------------------------------------------------------------------------
#define ASC_FACE_BINARY(Name, OP)                                                                                 \
    template <typename T, bool isSetMask = true>                                                                  \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,                  \
              const int32_t &calCount)                                                                            \
    {                                                                                                             \
        asc_twin_binary(#Name, OP, dst.TwinRef(), src0.TwinRef(), src1.TwinRef(),                                 \
                        static_cast<uint64_t>(static_cast<uint32_t>(calCount)));                                  \
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
    }
ASC_FACE_SCALAR(Adds, ASC_TWIN_ADDS)
ASC_FACE_SCALAR(Muls, ASC_TWIN_MULS)
ASC_FACE_SCALAR(Maxs, ASC_TWIN_MAXS)
ASC_FACE_SCALAR(Mins, ASC_TWIN_MINS)
ASC_FACE_SCALAR(ShiftLeft, ASC_TWIN_SHIFT_LEFT)
ASC_FACE_SCALAR(ShiftRight, ASC_TWIN_SHIFT_RIGHT)
ASC_FACE_SCALAR(LeakyRelu, ASC_TWIN_LEAKY_RELU)
#undef ASC_FACE_SCALAR

#define ASC_FACE_UNARY(Name, OP)                                                                                  \
    template <typename T, bool isSetMask = true>                                                                  \
    void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &calCount)                      \
    {                                                                                                             \
        asc_twin_unary(#Name, OP, dst.TwinRef(), src.TwinRef(), static_cast<uint64_t>(static_cast<uint32_t>(calCount))); \
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
#undef ASC_FACE_ADVANCED

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
