// opdev/src/tensor.cpp: aclTensor's members, answered by libnnopbase from the token (a
// stale or NULL handle reads as an empty float tensor; the checks name it first).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "nnop.h"
#include "opdev/common_types.h"
#include "opdev_internal.h"

namespace {
bool Snap(const aclTensor *t, nnop_tensor_snapshot *s)
{
    std::memset(s, 0, sizeof *s);
    return t != nullptr && nnop_tensor_snapshot_of(t, "aclTensor", "tensor", s) == ACLNN_SUCCESS;
}
} // namespace

namespace op {
namespace mg {
bool FullView(const aclTensor *t, std::vector<int64_t> *dims, std::vector<int64_t> *strides)
{
    int64_t *d = nullptr, *st = nullptr;
    uint64_t nd = 0, ns = 0;
    const bool ok = aclGetViewShape(t, &d, &nd) == ACLNN_SUCCESS && aclGetViewStrides(t, &st, &ns) == ACLNN_SUCCESS &&
                    nd == ns;
    if (ok) {
        dims->assign(d, d + nd);
        strides->assign(st, st + ns);
    }
    std::free(d);
    std::free(st);
    return ok;
}

bool CollapseView(std::vector<int64_t> *dims, std::vector<int64_t> *strides)
{
    std::vector<int64_t> d, st;
    for (size_t i = 0; i < dims->size(); i++) {
        if ((*dims)[i] == 0) { // empty: one dim of 0 says all
            dims->assign(1, 0);
            strides->assign(1, 1);
            return true;
        }
        if ((*dims)[i] == 1) continue;
        if (!d.empty() && st.back() == (*strides)[i] * (*dims)[i]) {
            // the previous dim steps over this one exactly: one dim of both
            d.back() *= (*dims)[i];
            st.back() = (*strides)[i];
        } else {
            d.push_back((*dims)[i]);
            st.push_back((*strides)[i]);
        }
    }
    if (d.empty()) { // a single element
        d.push_back(1);
        st.push_back(1);
    }
    *dims = d;
    *strides = st;
    return d.size() <= NNOP_MAX_RANK;
}
} // namespace mg
} // namespace op

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
    if (s.rank <= NNOP_MAX_RANK) {
        for (uint64_t i = 0; i < s.rank; i++) shape.AppendDim(s.dims[i]);
        return shape;
    }
    // beyond what a snapshot keeps: the descriptor's own dims (a plan collapses them, Locate)
    std::vector<int64_t> dims, strides;
    if (op::mg::FullView(this, &dims, &strides))
        for (int64_t d : dims) shape.AppendDim(d);
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
    if (!Snap(this, &s)) return strides;
    if (s.rank <= NNOP_MAX_RANK) {
        for (uint64_t i = 0; i < s.rank; i++) strides.push_back(s.strides[i]);
        return strides;
    }
    std::vector<int64_t> dims, all;
    if (op::mg::FullView(this, &dims, &all)) strides.assign(all.begin(), all.end());
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
    std::vector<int64_t> dims(s.dims, s.dims + (s.rank < NNOP_MAX_RANK ? s.rank : NNOP_MAX_RANK));
    std::vector<int64_t> strides(s.strides, s.strides + dims.size());
    if (s.rank > NNOP_MAX_RANK && !op::mg::FullView(t, &dims, &strides)) return false;
    int64_t expected = 1;
    for (size_t i = dims.size(); i-- > 0;) {
        if (dims[i] == 1) continue;
        if (strides[i] != expected) return false;
        expected *= dims[i];
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
