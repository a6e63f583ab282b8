// The face tests' own decoders (written here, not taken from the face under test):
// binary16 and bfloat16 bit patterns to their exact double values.
#ifndef FACE_REF_H_
#define FACE_REF_H_
#include <cmath>
#include <cstdint>

inline double HalfBits(uint16_t h)
{
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0) return s * std::ldexp(m, -24);
    if (e == 31) return m ? NAN : s * INFINITY;
    return s * std::ldexp(1024 + m, e - 25);
}
inline double Bf16Bits(uint16_t b)
{
    const int e = (b >> 7) & 0xff, m = b & 0x7f;
    const double s = (b & 0x8000) ? -1.0 : 1.0;
    if (e == 0) return s * std::ldexp(m, -133);
    if (e == 255) return m ? NAN : s * INFINITY;
    return s * std::ldexp(128 + m, e - 134);
}
#endif
