/* opdev/data_type_utils.h: dtype facts (sizes and names from optiling's one table). */
#ifndef MG_OPDEV_DATA_TYPE_UTILS_H_
#define MG_OPDEV_DATA_TYPE_UTILS_H_

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
inline bool IsComplexType(DataType t) { return t == DataType::DT_COMPLEX64 || t == DataType::DT_COMPLEX128; }
} // namespace op

#endif
