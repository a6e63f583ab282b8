/* exe_graph/runtime/tensor.h: gert::Tensor (metadef's name), what TilingContext::
   GetInputTensor gives: the input's dtype, formats and shapes. Its values are not here: a
   tiling runs at phase 1 on descriptions, so a value-dependent input's data (GetData) is
   NULL and such a tiling fails as it would on a missing tensor. */
#ifndef MG_GERT_TENSOR_H_
#define MG_GERT_TENSOR_H_

#include <cstddef>
#include <cstdint>

#include "exe_graph/runtime/storage_shape.h"
#include "graph/types.h"

namespace gert {
class Tensor {
public:
    Tensor() = default;
    const Shape &GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape &GetStorageShape() const { return shape_.GetStorageShape(); }
    StorageShape &MutableShape() { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_; }
    void SetDataType(ge::DataType t) { dtype_ = t; }
    void SetFormat(ge::Format f) { format_ = f; }
    /* the values are not modelled at tiling time (see above) */
    template <typename T> const T *GetData() const { return nullptr; }
    const void *GetAddr() const { return nullptr; }
    size_t GetSize() const
    {
        const int64_t bytes = ge::GetSizeInBytes(GetShapeSize(), dtype_);
        return bytes > 0 ? static_cast<size_t>(bytes) : 0;
    }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_FLOAT;
    ge::Format format_ = ge::FORMAT_ND;
};
} // namespace gert

#endif
