// opdev/src/tensor.cpp: aclTensor's members, answered by libnnopbase from the token (a
// stale or NULL handle reads as an empty float tensor; the checks name it first).
#include <cstring>

#include "nnop.h"
#include "opdev/common_types.h"

namespace {
bool Snap(const aclTensor *t, nnop_tensor_snapshot *s)
{
    std::memset(s, 0, sizeof *s);
    return t != nullptr && nnop_tensor_snapshot_of(t, "aclTensor", "tensor", s) == ACLNN_SUCCESS;
}
} // namespace

op::DataType aclTensor::GetDataType() const
{
    nnop_tensor_snapshot s;
    return Snap(this, &s) ? static_cast<op::DataType>(s.dtype) : ge::DT_UNDEFINED;
}

op::Format aclTensor::GetStorageFormat() const
{
    nnop_tensor_snapshot s;
    return Snap(this, &s) ? static_cast<op::Format>(s.format) : ge::FORMAT_ND;
}

op::Shape aclTensor::GetViewShape() const
{
    op::Shape shape;
    nnop_tensor_snapshot s;
    if (!Snap(this, &s)) return shape;
    for (uint64_t i = 0; i < s.rank && i < NNOP_MAX_RANK; i++) shape.AppendDim(s.dims[i]);
    // a rank beyond what a plan keeps still reports its rank (checks refuse it)
    for (uint64_t i = NNOP_MAX_RANK; i < s.rank; i++) shape.AppendDim(1);
    return shape;
}

op::Shape aclTensor::GetStorageShape() const
{
    op::Shape shape;
    int64_t *dims = nullptr;
    uint64_t n = 0;
    if (aclGetStorageShape(this, &dims, &n) == ACLNN_SUCCESS) {
        for (uint64_t i = 0; i < n; i++) shape.AppendDim(dims[i]);
        std::free(dims);
    }
    return shape;
}

op::Strides aclTensor::GetViewStrides() const
{
    op::Strides strides;
    nnop_tensor_snapshot s;
    if (Snap(this, &s))
        for (uint64_t i = 0; i < s.rank && i < NNOP_MAX_RANK; i++) strides.push_back(s.strides[i]);
    return strides;
}

int64_t aclTensor::GetViewOffset() const
{
    nnop_tensor_snapshot s;
    return Snap(this, &s) ? s.offset : 0;
}

int64_t aclTensor::Size() const { return GetViewShape().GetShapeSize(); }

void *aclTensor::GetData() const
{
    nnop_tensor_snapshot s;
    return Snap(this, &s) ? s.data : nullptr;
}

bool op::IsContiguous(const aclTensor *t)
{
    nnop_tensor_snapshot s;
    if (!Snap(t, &s)) return false;
    int64_t expected = 1;
    for (uint64_t i = s.rank; i-- > 0;) {
        if (i >= NNOP_MAX_RANK) return false;
        if (s.dims[i] == 1) continue;
        if (s.strides[i] != expected) return false;
        expected *= s.dims[i];
    }
    return true;
}

op::DataType aclScalar::GetDataType() const
{
    aclDataType t = ACL_DT_UNDEFINED;
    unsigned char bytes[16];
    return nnop_scalar_value(this, &t, bytes, sizeof bytes) == ACLNN_SUCCESS ? static_cast<op::DataType>(t)
                                                                            : ge::DT_UNDEFINED;
}

std::vector<int64_t> aclIntArray::ToVector() const
{
    uint64_t n = 0;
    if (aclGetIntArraySize(this, &n) != ACLNN_SUCCESS || n == 0) return {};
    std::vector<int64_t> values(n);
    if (nnop_int_array_values(this, values.data(), n, &n) != ACLNN_SUCCESS) return {};
    values.resize(n);
    return values;
}

uint64_t aclIntArray::Size() const
{
    uint64_t n = 0;
    return aclGetIntArraySize(this, &n) == ACLNN_SUCCESS ? n : 0;
}

int64_t aclIntArray::operator[](size_t i) const
{
    const std::vector<int64_t> values = ToVector();
    return i < values.size() ? values[i] : 0;
}

double aclScalar::ToDouble() const
{
    aclDataType t = ACL_DT_UNDEFINED;
    alignas(16) unsigned char b[16] = {0};
    if (nnop_scalar_value(this, &t, b, sizeof b) != ACLNN_SUCCESS) return 0.0;
    switch (t) {
    case ACL_FLOAT: { float v; std::memcpy(&v, b, 4); return v; }
    case ACL_DOUBLE: { double v; std::memcpy(&v, b, 8); return v; }
    case ACL_FLOAT16: { aclFloat16 v; std::memcpy(&v, b, 2); return aclFloat16ToFloat(v); }
    case ACL_BF16: { uint16_t h; std::memcpy(&h, b, 2); uint32_t w = static_cast<uint32_t>(h) << 16; float v;
                     std::memcpy(&v, &w, 4); return v; }
    case ACL_INT8: return static_cast<int8_t>(b[0]);
    case ACL_UINT8: case ACL_BOOL: return b[0];
    case ACL_INT16: { int16_t v; std::memcpy(&v, b, 2); return v; }
    case ACL_INT32: { int32_t v; std::memcpy(&v, b, 4); return v; }
    case ACL_INT64: { int64_t v; std::memcpy(&v, b, 8); return static_cast<double>(v); }
    default: return 0.0;
    }
}
