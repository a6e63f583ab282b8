/* opdev/shape_utils.h: shape helpers (printing, broadcasting by numpy's rule). */
#ifndef MG_OPDEV_SHAPE_UTILS_H_
#define MG_OPDEV_SHAPE_UTILS_H_

#include <string>

#include "opdev/data_type_utils.h"

namespace op {
inline MgString ToString(const Shape &s)
{
    std::string r = "[";
    for (size_t i = 0; i < s.GetDimNum(); i++) r += (i ? "," : "") + std::to_string(s.GetDim(i));
    return MgString(r + "]");
}
inline void ToShape(const int64_t *dims, uint64_t n, Shape &s)
{
    s.SetDimNum(0);
    for (uint64_t i = 0; i < n; i++) s.AppendDim(dims[i]);
}
/* numpy broadcasting: aligned from the last dim, each pair equal or one of them 1. */
inline bool BroadcastInferShape(const Shape &a, const Shape &b, Shape &out)
{
    size_t n = a.GetDimNum() > b.GetDimNum() ? a.GetDimNum() : b.GetDimNum();
    out.SetDimNum(n);
    for (size_t i = 0; i < n; i++) {
        int64_t da = i < n - a.GetDimNum() ? 1 : a.GetDim(i - (n - a.GetDimNum()));
        int64_t db = i < n - b.GetDimNum() ? 1 : b.GetDim(i - (n - b.GetDimNum()));
        if (da != db && da != 1 && db != 1) return false;
        out.SetDim(i, da == 1 ? db : da);
    }
    return true;
}
inline bool CheckBroadcastShape(const Shape &a, const Shape &b)
{
    Shape out;
    return BroadcastInferShape(a, b, out);
}
} // namespace op

#endif
