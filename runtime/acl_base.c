/* runtime/acl_base.c: dtype sizes and the binary16 conversions of acl_base.h. */
#include <string.h>

#include "acl/acl_base.h"

size_t aclDataTypeSize(aclDataType dataType) {
    switch (dataType) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
    }
}

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float aclFloat16ToFloat(aclFloat16 value) {
    uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
    uint32_t exponent = (value >> 10) & 0x1fu;
    uint32_t mantissa = value & 0x3ffu;
    if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
        /* Subnormal binary16: mantissa * 2^-24, exact in float32. */
        float magnitude = (float)mantissa * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

aclFloat16 aclFloatToFloat16(float value) {
    uint32_t u = float_bits(value);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs_bits = u & 0x7fffffffu;
    if (abs_bits > 0x7f800000u) /* NaN: keep it quiet and keep the top payload bits */
        return (aclFloat16)(sign | 0x7e00u | ((abs_bits >> 13) & 0x1ffu));
    if (abs_bits >= 0x477ff000u) return (aclFloat16)(sign | 0x7c00u); /* rounds to inf */
    if (abs_bits < 0x38800000u) {
        /* Result is subnormal (or zero): scale so the binary16 unit is 1.0 and let the FPU
           round to nearest-even; the value is exact in float32 at that scale. */
        float scaled = bits_float(abs_bits) * 0x1p24f;
        uint32_t rounded = (uint32_t)(long)(scaled + 0x1p23f - 0x1p23f);
        return (aclFloat16)(sign | rounded);
    }
    /* Normal: re-bias the exponent, then round the 13 dropped bits to nearest-even. */
    uint32_t half = (abs_bits - 0x38000000u) >> 13;
    uint32_t rest = abs_bits & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
    return (aclFloat16)(sign | half);
}
