/* graph/utils/type_utils.h: ge::TypeUtils, the element sizes (optiling/src/types.c). */
#ifndef MG_GRAPH_TYPE_UTILS_H_
#define MG_GRAPH_TYPE_UTILS_H_

#include <string>

#include "graph/types.h"
#include "optiling/mg_optiling.h"

namespace ge {
class TypeUtils {
public:
    /* false (and length untouched) for a type without a whole-byte size. */
    static bool GetDataTypeLength(DataType type, uint32_t &length)
    {
        int size = mg_dtype_size(static_cast<int>(type));
        if (size <= 0) return false;
        length = static_cast<uint32_t>(size);
        return true;
    }
    static std::string DataTypeToSerialString(DataType type) { return mg_dtype_name(static_cast<int>(type)); }
    static std::string FormatToSerialString(Format format) { return "FORMAT_" + std::to_string(static_cast<int>(format)); }
};
} // namespace ge

#endif
