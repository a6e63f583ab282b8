/* opdev/data_type_utils.h: dtype facts (sizes and names from optiling's one table). */
#ifndef MG_OPDEV_DATA_TYPE_UTILS_H_
#define MG_OPDEV_DATA_TYPE_UTILS_H_

#include <initializer_list>
#include <string>

#include "opdev/common_types.h"
#include "optiling/mg_optiling.h"

namespace op {
class MgString {
public:
    explicit MgString(std::string s) : s_(std::move(s)) {}
    const char *GetString() const { return s_.c_str(); }
    operator std::string() const { return s_; }

private:
    std::string s_;
};
inline MgString ToString(DataType t) { return MgString(mg_dtype_name(static_cast<int>(t))); }
/* A supported-dtype list as operators print it in messages: "[DT_FLOAT, DT_FLOAT16]". */
inline MgString ToString(std::initializer_list<DataType> list)
{
    std::string s = "[";
    for (DataType t : list) s += (s.size() > 1 ? ", " : "") + std::string(mg_dtype_name(static_cast<int>(t)));
    return MgString(s + "]");
}
inline size_t TypeSize(DataType t) { return static_cast<size_t>(mg_dtype_size(static_cast<int>(t))); }
inline DataType ToOpDataType(aclDataType t) { return static_cast<DataType>(t); }
inline aclDataType ToAclDataType(DataType t) { return static_cast<aclDataType>(t); }
inline bool IsFloatingType(DataType t)
{
    return t == DataType::DT_FLOAT || t == DataType::DT_FLOAT16 || t == DataType::DT_BF16 || t == DataType::DT_DOUBLE;
}
inline bool IsIntegralType(DataType t)
{
    return t == DataType::DT_INT8 || t == DataType::DT_INT16 || t == DataType::DT_INT32 || t == DataType::DT_INT64 ||
           t == DataType::DT_UINT8 || t == DataType::DT_UINT16 || t == DataType::DT_UINT32 ||
           t == DataType::DT_UINT64;
}
/* The common type of two operands (torch's promotion for the types modelled): equal types
   stay; float16 with bfloat16 is float; a floating type wins over an integer one; the
   wider of two floating or two signed integer types. */
inline DataType PromoteType(DataType a, DataType b)
{
    if (a == b) return a;
    auto rank = [](DataType t) {
        switch (t) {
        case DataType::DT_BOOL: return 0; case DataType::DT_UINT8: return 1; case DataType::DT_INT8: return 2;
        case DataType::DT_INT16: return 3; case DataType::DT_INT32: return 4; case DataType::DT_INT64: return 5;
        case DataType::DT_FLOAT16: case DataType::DT_BF16: return 6; case DataType::DT_FLOAT: return 7;
        case DataType::DT_DOUBLE: return 8; default: return -1;
        }
    };
    if ((a == DataType::DT_FLOAT16 && b == DataType::DT_BF16) || (a == DataType::DT_BF16 && b == DataType::DT_FLOAT16))
        return DataType::DT_FLOAT;
    if (rank(a) < 0 || rank(b) < 0) return DataType::DT_UNDEFINED;
    if ((a == DataType::DT_UINT8 && b == DataType::DT_INT8) || (a == DataType::DT_INT8 && b == DataType::DT_UINT8))
        return DataType::DT_INT16;
    return rank(a) >= rank(b) ? a : b;
}
/* torch's can_cast: a floating value does not go to an integer or bool, nor an integer
   to bool; everything else may be cast. */
inline bool CanCast(DataType from, DataType to)
{
    if (IsFloatingType(from) && (IsIntegralType(to) || to == DataType::DT_BOOL)) return false;
    if (IsIntegralType(from) && to == DataType::DT_BOOL) return false;
    return true;
}
inline bool CheckType(DataType t, std::initializer_list<DataType> valid)
{
    for (DataType v : valid)
        if (v == t) return true;
    return false;
}
inline bool IsComplexType(DataType t) { return t == DataType::DT_COMPLEX64 || t == DataType::DT_COMPLEX128; }
} // namespace op

#endif
