/* opdev/tensor_view_utils.h: view helpers (IsContiguous is common_types.h's). */
#ifndef MG_OPDEV_TENSOR_VIEW_UTILS_H_
#define MG_OPDEV_TENSOR_VIEW_UTILS_H_

#include "opdev/common_types.h"

namespace op {
inline ShapeVector ToShapeVector(const Shape &s)
{
    ShapeVector v;
    for (size_t i = 0; i < s.GetDimNum(); i++) v.push_back(s.GetDim(i));
    return v;
}
} // namespace op

#endif
