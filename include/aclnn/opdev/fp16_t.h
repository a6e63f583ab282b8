/*
 * aclnn/opdev/fp16_t.h: op::fp16_t, IEEE binary16 for host code, at the path CANN's
 * tensor base installs its helper of that name (hicann/opbase include/nnopbase/opdev/).
 *
 * Header-only C++ (C++11 and later); included from C it declares nothing. MishGradV2's own
 * implementation of the interface CANN documents. Invariants: `val` holds the bit pattern and
 * fp16_t(uint16_t) takes a BIT PATTERN, as CANN's does; every conversion in and every
 * arithmetic result is rounded to nearest-even exactly once (through double, wide enough that
 * rounding twice equals rounding once). The whole interface: docs/runtime.md, "opdev helpers".
 */
#ifndef MISHGRAD_ACLNN_OPDEV_FP16_T_H_
#define MISHGRAD_ACLNN_OPDEV_FP16_T_H_

/* In C the header declares nothing else; this keeps it a valid translation unit alone. */
#include <stddef.h>

#ifdef __cplusplus

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace op {

namespace fp16_detail {

/* The binary16 pattern nearest to `value` (ties to even). */
inline uint16_t FromDouble(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    if (value != value) return static_cast<uint16_t>(sign | 0x7e00u);
    const double magnitude = std::fabs(value);
    const double min_normal = 6.103515625e-05;  /* 2^-14, exactly */
    /* 65520 is halfway between 65504 (odd mantissa) and 65536: ties go to even, infinity. */
    if (magnitude >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00u);
    int exponent = 0;
    double scaled = 0.0;
    if (magnitude < min_normal) {
        exponent = -14;                       /* subnormal: the unit is 2^-24 */
        scaled = std::ldexp(magnitude, 24);   /* exact */
    } else {
        int e2 = 0;
        (void)std::frexp(magnitude, &e2);     /* magnitude = f * 2^e2, f in [0.5, 1) */
        exponent = e2 - 1;                    /* magnitude in [2^exponent, 2^(exponent+1)) */
        scaled = std::ldexp(magnitude, 10 - exponent);  /* in [1024, 2048), exact */
    }
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole;   /* exact */
    uint32_t mantissa = static_cast<uint32_t>(whole);
    if (fraction > 0.5 || (fraction == 0.5 && (mantissa & 1u))) mantissa++;
    if (magnitude < min_normal) return static_cast<uint16_t>(sign | mantissa);  /* 1024: smallest normal */
    if (mantissa == 2048u) {
        mantissa = 1024u;
        exponent++;
    }
    if (exponent > 15) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(exponent + 15) << 10 | (mantissa - 1024u));
}

/* The value of a binary16 pattern, exactly. */
inline double ToDouble(uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    double magnitude;
    if (exponent == 0x1f)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (exponent == 0)
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    else
        magnitude = std::ldexp(static_cast<double>(mantissa + 1024), exponent - 25);
    return (h & 0x8000u) ? -magnitude : magnitude;
}

/* Truncation toward zero, saturating; NaN gives 0. */
template <typename I>
inline I ToInteger(double value) {
    if (value != value) return 0;
    const double t = std::trunc(value);
    if (t <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (t >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(t);
}

}  // namespace fp16_detail

typedef enum tagFp16RoundMode {
    ROUND_TO_NEAREST = 0,
    ROUND_BY_TRUNCATED,
    ROUND_MODE_RESERVED,
} fp16RoundMode_t;

typedef struct tagFp16 {
    uint16_t val;

    tagFp16() : val(0) {}
    /* A bit pattern, as CANN's constructor from uint16_t. */
    constexpr tagFp16(const uint16_t &bits) : val(bits) {}
    /* A value of any other arithmetic type, rounded to nearest-even. */
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value && !std::is_same<T, uint16_t>::value,
                                                  int>::type = 0>
    tagFp16(const T &value) : val(fp16_detail::FromDouble(static_cast<double>(value))) {}

    tagFp16 operator+(const tagFp16 other) const { return tagFp16(toDouble() + other.toDouble()); }
    tagFp16 operator-(const tagFp16 other) const { return tagFp16(toDouble() - other.toDouble()); }
    tagFp16 operator*(const tagFp16 other) const { return tagFp16(toDouble() * other.toDouble()); }
    tagFp16 operator/(const tagFp16 other) const { return tagFp16(toDouble() / other.toDouble()); }
    tagFp16 operator+=(const tagFp16 other) { return *this = *this + other; }
    tagFp16 operator-=(const tagFp16 other) { return *this = *this - other; }
    tagFp16 operator*=(const tagFp16 other) { return *this = *this * other; }
    tagFp16 operator/=(const tagFp16 other) { return *this = *this / other; }

    bool operator==(const tagFp16 &other) const { return toDouble() == other.toDouble(); }
    bool operator!=(const tagFp16 &other) const { return toDouble() != other.toDouble(); }
    bool operator>(const tagFp16 &other) const { return toDouble() > other.toDouble(); }
    bool operator>=(const tagFp16 &other) const { return toDouble() >= other.toDouble(); }
    bool operator<(const tagFp16 &other) const { return toDouble() < other.toDouble(); }
    bool operator<=(const tagFp16 &other) const { return toDouble() <= other.toDouble(); }

    operator float() const { return static_cast<float>(toDouble()); }
    operator double() const { return toDouble(); }
    operator int8_t() const { return fp16_detail::ToInteger<int8_t>(toDouble()); }
    operator uint8_t() const { return fp16_detail::ToInteger<uint8_t>(toDouble()); }
    operator int16_t() const { return fp16_detail::ToInteger<int16_t>(toDouble()); }
    operator uint16_t() const { return fp16_detail::ToInteger<uint16_t>(toDouble()); }
    operator int32_t() const { return fp16_detail::ToInteger<int32_t>(toDouble()); }
    operator uint32_t() const { return fp16_detail::ToInteger<uint32_t>(toDouble()); }
    operator int64_t() const { return fp16_detail::ToInteger<int64_t>(toDouble()); }
    operator uint64_t() const { return fp16_detail::ToInteger<uint64_t>(toDouble()); }
    operator bool() const { return (val & 0x7fffu) != 0; }

    int IsInf() const { return (val & 0x7fffu) == 0x7c00u ? ((val & 0x8000u) ? -1 : 1) : 0; }
    float toFloat() const { return static_cast<float>(toDouble()); }
    double toDouble() const { return fp16_detail::ToDouble(val); }
    int8_t toInt8() const { return fp16_detail::ToInteger<int8_t>(toDouble()); }
    uint8_t toUInt8() const { return fp16_detail::ToInteger<uint8_t>(toDouble()); }
    int16_t toInt16() const { return fp16_detail::ToInteger<int16_t>(toDouble()); }
    uint16_t toUInt16() const { return fp16_detail::ToInteger<uint16_t>(toDouble()); }
    int32_t toInt32() const { return fp16_detail::ToInteger<int32_t>(toDouble()); }
    uint32_t toUInt32() const { return fp16_detail::ToInteger<uint32_t>(toDouble()); }
} fp16_t;

inline bool isnan(fp16_t value) { return (value.val & 0x7c00u) == 0x7c00u && (value.val & 0x3ffu) != 0; }

}  // namespace op

#endif /* __cplusplus */

#endif /* MISHGRAD_ACLNN_OPDEV_FP16_T_H_ */
