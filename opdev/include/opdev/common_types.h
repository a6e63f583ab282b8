/* opdev/common_types.h: op::DataType/Format/Shape and the C++ faces of aclTensor and
   aclOpExecutor (hicann/opbase names). An aclTensor * / aclOpExecutor * is a registry token
   of libnnopbase, never an object address: the classes below have no data members (an
   empty class: any token is suitably aligned and nothing is read through `this`); every
   member asks libnnopbase about the token (opdev/src/tensor.cpp, executor.cpp). */
#ifndef MG_OPDEV_COMMON_TYPES_H_
#define MG_OPDEV_COMMON_TYPES_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"
#include "opdev/fast_vector.h"

namespace op {
using DataType = ge::DataType;
using Format = ge::Format;
using Shape = gert::Shape;
using Strides = FVector<int64_t, 25>;
using ShapeVector = FVector<int64_t, 25>;
/* the most dims an aclnn operator takes (opbase's constant) */
constexpr size_t MAX_DIM_NUM = 8;
} // namespace op

struct aclTensor {
    aclTensor() = delete;
    op::DataType GetDataType() const;
    op::Format GetStorageFormat() const;
    op::Format GetViewFormat() const { return GetStorageFormat(); }
    op::Format GetOriginalFormat() const { return GetStorageFormat(); }
    op::Shape GetViewShape() const;
    op::Shape GetStorageShape() const;
    op::Shape GetOriginalShape() const { return GetViewShape(); }
    op::Strides GetViewStrides() const;
    int64_t GetViewOffset() const;
    int64_t GetStorageOffset() const { return GetViewOffset(); }
    int64_t Size() const;   /* elements of the view */
    int64_t Numel() const { return Size(); }
    bool IsEmpty() const { return Size() == 0; }
    size_t GetDimNum() const { return GetViewShape().GetDimNum(); }
    void *GetData() const;
};

/* An aclScalar token; its value converted from its dtype (opdev/src/tensor.cpp). */
struct aclScalar {
    aclScalar() = delete;
    op::DataType GetDataType() const;
    double ToDouble() const;
    float ToFloat() const { return static_cast<float>(ToDouble()); }
    int64_t ToInt64() const { return static_cast<int64_t>(ToDouble()); }
    int32_t ToInt32() const { return static_cast<int32_t>(ToDouble()); }
    bool ToBool() const { return ToDouble() != 0.0; }
    template <typename T> T ToValue() const { return static_cast<T>(ToDouble()); }
};

/* An aclIntArray token: its length and values (libnnopbase's copy, read on each call). */
struct aclIntArray {
    aclIntArray() = delete;
    uint64_t Size() const;
    /* element i, or 0 past the end */
    int64_t operator[](size_t i) const;
    std::vector<int64_t> ToVector() const;
};

namespace op {
namespace mg {
/* The dtype of a host value type ConvertToTensor takes (CANN's takes these and its fp16_t
   and bfloat16, which this face does not). */
template <typename T> struct HostDtype;
template <> struct HostDtype<bool> { static constexpr DataType value = ge::DT_BOOL; };
template <> struct HostDtype<int8_t> { static constexpr DataType value = ge::DT_INT8; };
template <> struct HostDtype<uint8_t> { static constexpr DataType value = ge::DT_UINT8; };
template <> struct HostDtype<int16_t> { static constexpr DataType value = ge::DT_INT16; };
template <> struct HostDtype<uint16_t> { static constexpr DataType value = ge::DT_UINT16; };
template <> struct HostDtype<int32_t> { static constexpr DataType value = ge::DT_INT32; };
template <> struct HostDtype<uint32_t> { static constexpr DataType value = ge::DT_UINT32; };
template <> struct HostDtype<int64_t> { static constexpr DataType value = ge::DT_INT64; };
template <> struct HostDtype<uint64_t> { static constexpr DataType value = ge::DT_UINT64; };
template <> struct HostDtype<float> { static constexpr DataType value = ge::DT_FLOAT; };
template <> struct HostDtype<double> { static constexpr DataType value = ge::DT_DOUBLE; };
} // namespace mg
} // namespace op

struct aclOpExecutor {
    aclOpExecutor() = delete;
    /* A tensor the plan keeps in the workspace (dense, row-major). */
    aclTensor *AllocTensor(const op::Shape &shape, op::DataType dtype, op::Format format = ge::FORMAT_ND);
    aclTensor *AllocTensor(const op::Shape &storage, const op::Shape &origin, op::DataType dtype,
                           op::Format storageFormat, op::Format originFormat);
    aclTensor *AllocTensor(op::DataType dtype, op::Format storageFormat, op::Format originFormat);
    aclIntArray *AllocIntArray(const int64_t *value, uint64_t size);
    uint64_t GetWorkspaceSize();
    /* A host tensor: `size` values converted to `dataType` (l0_kernels.c's conversion), a
       1-D tensor of `size` elements whose values the l0 ops read at phase 1 (Fill's value,
       BroadcastTo's shape) and which a kernel given it as an input reads from the workspace
       (written there at phase 2). NULL with the message set for a dtype the conversion does
       not know or more than 1000 bytes. */
    template <typename T> const aclTensor *ConvertToTensor(const T *value, uint64_t size, op::DataType dataType)
    {
        return ConvertHostValues(value, size, op::mg::HostDtype<T>::value, dataType);
    }
    const aclTensor *ConvertToTensor(const aclIntArray *value, op::DataType dataType);
    /* a 0-D host tensor: the scalar's value in `dataType` */
    const aclTensor *ConvertToTensor(const aclScalar *value, op::DataType dataType);

private:
    const aclTensor *ConvertHostValues(const void *values, uint64_t size, op::DataType from, op::DataType to,
                                       bool scalar = false);
};

namespace op {
/* Row-major for its view dims (size-1 dims ignored), whatever the offset. */
bool IsContiguous(const aclTensor *tensor);
} // namespace op

#endif
