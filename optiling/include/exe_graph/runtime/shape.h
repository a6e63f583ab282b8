/* exe_graph/runtime/shape.h: gert::Shape, laid out as the C mg_shape it views (metadef's
   kMaxDimNum = 25 dims). */
#ifndef MG_GERT_SHAPE_H_
#define MG_GERT_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "optiling/mg_optiling.h"

namespace gert {
class Shape {
public:
    static constexpr size_t kMaxDimNum = MG_MAX_DIMS;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;
    Shape() : s_{} {}
    Shape(std::initializer_list<int64_t> dims) : s_{}
    {
        for (int64_t d : dims) {
            if (s_.dim_num == kMaxDimNum) break;
            s_.dims[s_.dim_num++] = d;
        }
    }
    bool operator==(const Shape &o) const
    {
        if (s_.dim_num != o.s_.dim_num) return false;
        for (size_t i = 0; i < s_.dim_num; i++)
            if (s_.dims[i] != o.s_.dims[i]) return false;
        return true;
    }
    bool operator!=(const Shape &o) const { return !(*this == o); }
    /* A scalar (no dims) holds one element. */
    int64_t GetShapeSize() const
    {
        int64_t n = 1;
        for (size_t i = 0; i < s_.dim_num; i++) {
            if (s_.dims[i] < 0) return -1;
            if (s_.dims[i] != 0 && n > INT64_MAX / s_.dims[i]) return -1;
            n *= s_.dims[i];
        }
        return n;
    }
    bool IsScalar() const { return s_.dim_num == 0; }
    void SetScalar() { s_.dim_num = 0; }
    size_t GetDimNum() const { return s_.dim_num; }
    void SetDimNum(size_t n) { s_.dim_num = n > kMaxDimNum ? kMaxDimNum : n; }
    int64_t GetDim(size_t i) const { return i < s_.dim_num ? s_.dims[i] : kInvalidDimValue; }
    void SetDim(size_t i, int64_t v)
    {
        if (i < s_.dim_num) s_.dims[i] = v;
    }
    Shape &AppendDim(int64_t v)
    {
        if (s_.dim_num < kMaxDimNum) s_.dims[s_.dim_num++] = v;
        return *this;
    }
    const int64_t &operator[](size_t i) const { return s_.dims[i]; }
    int64_t &operator[](size_t i) { return s_.dims[i]; }
    const mg_shape &c() const { return s_; }
    mg_shape &c() { return s_; }

private:
    mg_shape s_;
};
} // namespace gert

#endif
