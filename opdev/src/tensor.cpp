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
