/*
 * asc_face/types.h: the qualifiers, scalar types and enums of CANN's kernel API
 * (kernel_operator.h), as the twin compiles them for the CPU. Names and enum values are
 * CANN's (asc-devkit's headers and the Ascend C API reference); the code is the project's.
 */
#ifndef ASC_FACE_TYPES_H_
#define ASC_FACE_TYPES_H_

#include <cmath> // the scalar math a kernel calls unqualified (sqrt, exp: the CCE compiler's builtins)
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/vec.h"

// Qualifiers: on the CPU a kernel is an ordinary function and GM an ordinary address.
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif
// branch hints, as the device toolchain offers them
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
// The kernel's core type (AIV only, mixed, ...): the twin models one vector core per block.
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)

// IEEE binary16, stored as its 16 bits; arithmetic goes through float as on a scalar unit.
// The conversions round to nearest even, the float->half rule of a scalar assignment; they
// are constexpr (__builtin_bit_cast, gcc 11 and clang 9 on), as kernels declare constexpr
// half constants.
struct half {
    uint16_t bits = 0;
    half() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
    constexpr half(U v) : bits(FromFloat(static_cast<float>(v))) {}
    constexpr operator float() const { return ToFloat(bits); }
    static constexpr half FromBits(uint16_t b)
    {
        half h;
        h.bits = b;
        return h;
    }

    static constexpr uint16_t FromFloat(float f)
    {
        const uint32_t x = __builtin_bit_cast(uint32_t, f);
        const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
        const uint32_t absx = x & 0x7fffffffu;
        if (absx > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);  // NaN stays a quiet NaN
        if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // rounds past 65504: inf
        if (absx < 0x38800000u) {                                             // a half subnormal (or 0)
            if (absx < 0x33000000u) return sign;                               // below half the least one
            const uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
            const int shift = 126 - static_cast<int>(absx >> 23);              // 14..24
            uint32_t r = mant >> shift;
            const uint32_t rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
            if (rem > halfway || (rem == halfway && (r & 1u))) r++;
            return static_cast<uint16_t>(sign | r);
        }
        uint32_t r = ((absx >> 13) - (112u << 10));
        const uint32_t rem = absx & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;
        return static_cast<uint16_t>(sign | r);
    }
    static constexpr float ToFloat(uint16_t h)
    {
        const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
        if (e == 0) { // m * 2^-24, exact
            const float mag = static_cast<float>(m) * (1.0f / 16777216.0f);
            return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, mag) | sign);
        }
        const uint32_t b = sign | (e == 31 ? (0xffu << 23) | (m << 13) : ((e + 112u) << 23) | (m << 13));
        return __builtin_bit_cast(float, b);
    }
};

// bfloat16: the upper 16 bits of a float; float->bfloat16 rounds to nearest even.
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
    constexpr bfloat16_t(U v) : bits(FromFloat(static_cast<float>(v))) {}
    constexpr operator float() const { return __builtin_bit_cast(float, static_cast<uint32_t>(bits) << 16); }
    static constexpr uint16_t FromFloat(float f)
    {
        uint32_t x = __builtin_bit_cast(uint32_t, f);
        if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
        x += 0x7fffu + ((x >> 16) & 1u);
        return static_cast<uint16_t>(x >> 16);
    }
};

namespace AscendC {

// Where a tensor lives (CANN's order: the values match asc-devkit's TPosition).
enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC,
    LCM = VECCALC, SPM, SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;

enum class RoundMode : uint8_t {
    CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
    CAST_HYBRID, CAST_EVEN, CAST_ZERO, UNKNOWN = 0xFF,
};
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

// Pipes and the events between them: the twin runs each instruction to completion in
// program order, so barriers and flags order nothing that is not already ordered.
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3,
    MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX,
};
using TEventID = int8_t;

// Level-0 masks, reductions' result order, the data cache (CANN's names and values).
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// The vector unit's geometry: a 32-byte block, a 256-byte repeat of 8 blocks.
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
// the mask argument of a level-0 call made with isSetMask = false (the mask set before rules)
constexpr uint64_t MASK_PLACEHOLDER = 0;

// Level-0 repeat parameters (strides in 32-byte blocks), CANN's field names.
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false, halfBlock = false;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
};
struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                       uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
          src0RepStride(src0Rep), src1RepStride(src1Rep) {}
};

enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };

// AscendC::Std: the kernel-side subset of <type_traits>/<algorithm> CANN offers.
namespace Std {
using std::conditional;
using std::enable_if;
using std::integral_constant;
using std::is_same;
template <typename A, typename B> inline constexpr bool is_same_v = std::is_same_v<A, B>;
template <typename T> constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <typename T> constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
} // namespace Std

template <typename A, typename B> struct IsSameType {
    static constexpr bool value = std::is_same_v<A, B>;
};
// bfloat16 and half to float (the scalar helpers kernels call)
inline float ToFloat(const bfloat16_t &v) { return static_cast<float>(v); }
inline float ToFloat(const half &v) { return static_cast<float>(v); }

// float to bfloat16, nearest even (the scalar unit's conversion; Cast's CAST_RINT)
inline bfloat16_t ToBfloat16(const float &v) { return bfloat16_t(v); }

// The element type of a tensor, as the vector core model names it.
template <typename T> struct TwinDtype;
template <> struct TwinDtype<float> { static constexpr asc_twin_dtype value = ASC_TWIN_F32; };
template <> struct TwinDtype<half> { static constexpr asc_twin_dtype value = ASC_TWIN_F16; };
template <> struct TwinDtype<bfloat16_t> { static constexpr asc_twin_dtype value = ASC_TWIN_BF16; };
template <> struct TwinDtype<int8_t> { static constexpr asc_twin_dtype value = ASC_TWIN_I8; };
template <> struct TwinDtype<uint8_t> { static constexpr asc_twin_dtype value = ASC_TWIN_U8; };
template <> struct TwinDtype<bool> { static constexpr asc_twin_dtype value = ASC_TWIN_U8; };
template <> struct TwinDtype<int16_t> { static constexpr asc_twin_dtype value = ASC_TWIN_I16; };
template <> struct TwinDtype<uint16_t> { static constexpr asc_twin_dtype value = ASC_TWIN_U16; };
template <> struct TwinDtype<int32_t> { static constexpr asc_twin_dtype value = ASC_TWIN_I32; };
template <> struct TwinDtype<uint32_t> { static constexpr asc_twin_dtype value = ASC_TWIN_U32; };
template <> struct TwinDtype<int64_t> { static constexpr asc_twin_dtype value = ASC_TWIN_I64; };
template <> struct TwinDtype<uint64_t> { static constexpr asc_twin_dtype value = ASC_TWIN_U64; };

// A scalar operand as the core takes it: first converted to the tensor's type (as the
// device does), then to double (exact for every such value).
template <typename T, typename U> inline double TwinScalar(const U &v)
{
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return static_cast<double>(static_cast<float>(static_cast<T>(v)));
    } else {
        return static_cast<double>(static_cast<T>(v));
    }
}
// And back: a value the core read, as T (exact: the core returns a value of T's type).
template <typename T> inline T TwinFromDouble(double d)
{
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return T(static_cast<float>(d));
    } else {
        return static_cast<T>(d);
    }
}

} // namespace AscendC

// CANN's bfloat16_t is the compiler's __bf16: kernels test is_same<T, __bf16> for it (gcc 12
// has no __bf16 in C++, and gcc 13's and clang's are other types than the twin's bfloat16_t)
#define __bf16 bfloat16_t

// the CCE C names of the floating types
using float16_t = half;
using float32_t = float;

// event_t: the CCE builtins' event ids, global as in CANN
enum event_t : int8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

// pipe_t is a global enum in CANN (the CCE builtins' type)
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
                        PIPE_V2, PIPE_FIX };

#endif // ASC_FACE_TYPES_H_
