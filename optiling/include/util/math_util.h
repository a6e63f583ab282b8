/* util/math_util.h: opbase's integer helpers (Ops::Base), used by tilings. A zero divisor
   or alignment is answered, never divided by: FloorDiv/CeilDiv give x, the aligns 0. */
#ifndef MG_UTIL_MATH_UTIL_H_
#define MG_UTIL_MATH_UTIL_H_

#include <cmath>
#include <limits>
#include <type_traits>

namespace Ops {
namespace Base {
template <typename T> std::enable_if_t<std::is_integral<T>::value, T> FloorDiv(T x, T y) { return y == 0 ? x : x / y; }
template <typename T> std::enable_if_t<std::is_integral<T>::value, T> CeilDiv(T x, T y)
{
    if (y == 0) return x;
    T q = x / y;
    // C++ division truncates toward zero: round up only when the exact quotient is positive
    if (x % y != 0 && ((x < 0) == (y < 0))) q += 1;
    return q;
}
template <typename T> std::enable_if_t<std::is_integral<T>::value, T> FloorAlign(T x, T a)
{
    return a == 0 ? 0 : x / a * a;
}
template <typename T> std::enable_if_t<std::is_integral<T>::value, T> CeilAlign(T x, T a)
{
    if (a == 0) return 0;
    T q = CeilDiv(x, a);
    return q > std::numeric_limits<T>::max() / a ? std::numeric_limits<T>::max() : q * a;
}
template <typename T> std::enable_if_t<std::is_floating_point<T>::value, bool> IsFloatEqual(T a, T b)
{
    if (std::isnan(a) || std::isnan(b)) return false;
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(a - b) <= std::numeric_limits<T>::epsilon();
}
} // namespace Base
} // namespace Ops

#endif
