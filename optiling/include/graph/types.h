/* graph/types.h: ge's data types, formats and status (values as metadef's
   inc/external/graph/types.h and ge_error_codes.h give them; they equal aclDataType and
   aclFormat, which is what lets opbuild hand an aclTensor's dtype to a tiling function). */
#ifndef MG_GRAPH_TYPES_H_
#define MG_GRAPH_TYPES_H_

#include <cstdint>

#include "optiling/mg_optiling.h"

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;

enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_COMPLEX32 = 33, DT_MAX
};

enum Format {
    FORMAT_NCHW = 0, FORMAT_NHWC, FORMAT_ND, FORMAT_NC1HWC0, FORMAT_FRACTAL_Z, FORMAT_NC1C0HWPAD, FORMAT_NHWC1C0,
    FORMAT_FSR_NCHW, FORMAT_FRACTAL_DECONV, FORMAT_C1HWNC0, FORMAT_FRACTAL_DECONV_TRANSPOSE,
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS, FORMAT_NC1HWC0_C04, FORMAT_FRACTAL_Z_C04, FORMAT_CHWN,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS, FORMAT_HWCN, FORMAT_NC1KHKWHWC0, FORMAT_BN_WEIGHT, FORMAT_FILTER_HWCK,
    FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20, FORMAT_HASHTABLE_LOOKUP_KEYS, FORMAT_HASHTABLE_LOOKUP_VALUE,
    FORMAT_HASHTABLE_LOOKUP_OUTPUT, FORMAT_HASHTABLE_LOOKUP_HITS = 24, FORMAT_C1HWNCoC0, FORMAT_MD, FORMAT_NDHWC,
    FORMAT_FRACTAL_ZZ, FORMAT_FRACTAL_NZ, FORMAT_NCDHW, FORMAT_DHWCN, FORMAT_NDC1HWC0, FORMAT_FRACTAL_Z_3D,
    FORMAT_CN, FORMAT_NC, FORMAT_DHWNC, FORMAT_FRACTAL_Z_3D_TRANSPOSE, FORMAT_FRACTAL_ZN_LSTM, FORMAT_FRACTAL_Z_G,
    FORMAT_RESERVED, FORMAT_ALL, FORMAT_NULL, FORMAT_ND_RNN_BIAS, FORMAT_FRACTAL_ZN_RNN, FORMAT_NYUV,
    FORMAT_NYUV_A, FORMAT_NCL, FORMAT_MAX = 0xff
};
/* Bytes of one element, -1 for a type without a whole-byte size (metadef's helper). */
inline int GetSizeByDataType(DataType t)
{
    int size = mg_dtype_size(static_cast<int>(t));
    return size > 0 ? size : -1;
}
/* A format value's primary format (its low 8 bits) and sub-format (the 16 above). */
inline int32_t GetPrimaryFormat(int32_t format) { return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xFFu); }
inline int32_t GetSubFormat(int32_t format)
{
    return static_cast<int32_t>((static_cast<uint32_t>(format) >> 8) & 0xFFFFu);
}
/* Bytes of `count` elements of `t`, -1 for a type without a whole-byte size or a negative count. */
inline int64_t GetSizeInBytes(int64_t count, DataType t)
{
    const int size = GetSizeByDataType(t);
    return size > 0 && count >= 0 ? count * size : -1;
}
} // namespace ge

#endif
