// opdev/src/l0_ops.cpp: the helper l0 ops operators call most (Contiguous, ViewCopy, Cast,
// Muls, Reshape, BroadcastTo, Fill), each planned as steps of libnnopbase's executor: its copy steps
// (view_copy.c) where they exist, opdev's CPU kernels (l0_kernels.c) otherwise.
#include <cstring>

#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/reshape.h"
#include "l0_kernels.h"
#include "level0/broadcast_to.h"
#include "level0/fill.h"
#include "level0/muls.h"
#include "mgrt.h"
#include "opdev_internal.h"

using op::mg::Place;

namespace {
// A step's buffer count, from its array: a count written beside the array could disagree.
template <size_t N>
uint32_t BufferCount(const nnop_buffer (&)[N])
{
    return static_cast<uint32_t>(N);
}

// `x` dense (copying it into the workspace first when it is a strided view of the caller's).
const aclTensor *Dense(const aclTensor *x, aclOpExecutor *executor, Place *place)
{
    if (op::mg::Locate(executor, x, false, place) != ACLNN_SUCCESS) return nullptr;
    if (place->dense) return x;
    const aclTensor *y = l0op::Contiguous(x, executor);
    if (y == nullptr || op::mg::Locate(executor, y, false, place) != ACLNN_SUCCESS) return nullptr;
    return y;
}
bool IntArrayShape(const aclIntArray *array, op::Shape *shape)
{
    int64_t values[op::Shape::kMaxDimNum];
    uint64_t n = 0;
    if (nnop_int_array_values(array, values, op::Shape::kMaxDimNum, &n) != ACLNN_SUCCESS) return false;
    if (n > op::Shape::kMaxDimNum) {
        mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: a shape of %llu dims", op::mg::CurrentApi(),
                  static_cast<unsigned long long>(n));
        return false;
    }
    for (uint64_t i = 0; i < n; i++) shape->AppendDim(values[i]);
    return true;
}
// When `dims` is a host tensor (ConvertToTensor), its values must name `shape`: the callers
// pass the same dims twice, and a mismatch is their bug, not something to pick a side in.
bool HostDimsMatch(aclOpExecutor *executor, const aclTensor *dims, const op::Shape &shape, const char *op)
{
    const std::vector<unsigned char> *bytes = op::mg::HostValues(executor, dims);
    if (bytes == nullptr) return true;
    const int dtype = static_cast<int>(dims->GetDataType());
    const int elem = mg_cast_elem_size(dtype);
    std::vector<int64_t> values(elem > 0 ? bytes->size() / static_cast<size_t>(elem) : 0);
    op::Shape got;
    if (elem > 0 && mg_convert_values(dtype, bytes->data(), static_cast<int>(ge::DT_INT64), values.data(),
                                      static_cast<int64_t>(values.size())) == 0 &&
        values.size() <= op::Shape::kMaxDimNum) {
        for (int64_t v : values) got.AppendDim(v);
        if (got == shape) return true;
    }
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s's dims tensor (%zu values) does not name the shape %s",
              op::mg::CurrentApi(), op, values.size(), op::ToString(shape).GetString());
    return false;
}
} // namespace

namespace l0op {
const aclTensor *Contiguous(const aclTensor *x, aclOpExecutor *executor)
{
    Place px;
    if (x == nullptr || op::mg::Locate(executor, x, false, &px) != ACLNN_SUCCESS) return nullptr;
    if (px.dense) return x;
    aclTensor *y = op::mg::NewTensor(executor, x->GetViewShape(), x->GetDataType(), ge::FORMAT_ND, nullptr);
    Place py;
    if (y == nullptr || op::mg::Locate(executor, y, false, &py) != ACLNN_SUCCESS) return nullptr;
    if (nnop_add_contiguous(executor, &px.view, px.buffer, py.buffer) != ACLNN_SUCCESS) return nullptr;
    return y;
}

const aclTensor *ViewCopy(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor)
{
    Place px, py;
    if (x == nullptr || y == nullptr) return nullptr;
    if (Dense(x, executor, &px) == nullptr || op::mg::Locate(executor, y, true, &py) != ACLNN_SUCCESS) return nullptr;
    if (px.view.numel != py.view.numel || px.view.elem_size != py.view.elem_size) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: ViewCopy of %lld %lld-byte elements into %lld %lld-byte elements",
                  op::mg::CurrentApi(), static_cast<long long>(px.view.numel),
                  static_cast<long long>(px.view.elem_size), static_cast<long long>(py.view.numel),
                  static_cast<long long>(py.view.elem_size));
        return nullptr;
    }
    if (py.view.numel == 0) return y;
    if (nnop_add_view_copy(executor, &py.view, px.DenseData(), py.buffer) != ACLNN_SUCCESS) return nullptr;
    return y;
}

const aclTensor *Cast(const aclTensor *x, op::DataType dst, aclOpExecutor *executor)
{
    Place px;
    if (x == nullptr) return nullptr;
    if (x->GetDataType() == dst) return x;
    if (!mg_cast_supported(x->GetDataType()) || !mg_cast_supported(dst)) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: Cast from %s to %s is not modelled", op::mg::CurrentApi(),
                  mg_dtype_name(x->GetDataType()), mg_dtype_name(dst));
        return nullptr;
    }
    const aclTensor *dense = Dense(x, executor, &px);
    if (dense == nullptr) return nullptr;
    aclTensor *y = op::mg::NewTensor(executor, x->GetViewShape(), dst, x->GetStorageFormat(), nullptr);
    Place py;
    if (y == nullptr || op::mg::Locate(executor, y, false, &py) != ACLNN_SUCCESS) return nullptr;
    mg_cast_params params{px.view.numel, static_cast<int>(x->GetDataType()), static_cast<int>(dst)};
    nnop_buffer buffers[2] = {px.DenseData(), py.buffer};
    if (nnop_executor_add_step(executor, "Cast", mg_cast_step, &params, sizeof params, buffers,
                               BufferCount(buffers), static_cast<uint64_t>(params.n)) != ACLNN_SUCCESS)
        return nullptr;
    return y;
}

const aclTensor *CastOnlyForConvBackward(const aclTensor *x, op::DataType dst, aclOpExecutor *executor)
{
    return Cast(x, dst, executor);
}

const aclTensor *Muls(const aclTensor *self, float alpha, aclOpExecutor *executor)
{
    Place px;
    if (self == nullptr) return nullptr;
    if (!mg_muls_supported(self->GetDataType())) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: Muls of %s is not modelled (float32, float16, bfloat16)",
                  op::mg::CurrentApi(), mg_dtype_name(self->GetDataType()));
        return nullptr;
    }
    const aclTensor *dense = Dense(self, executor, &px);
    if (dense == nullptr) return nullptr;
    aclTensor *y = op::mg::NewTensor(executor, self->GetViewShape(), self->GetDataType(), self->GetStorageFormat(),
                                     nullptr);
    Place py;
    if (y == nullptr || op::mg::Locate(executor, y, false, &py) != ACLNN_SUCCESS) return nullptr;
    if (px.view.numel == 0) return y;
    mg_muls_params params{px.view.numel, static_cast<int>(self->GetDataType()), alpha};
    nnop_buffer buffers[2] = {px.DenseData(), py.buffer};
    if (nnop_executor_add_step(executor, "Muls", mg_muls_step, &params, sizeof params, buffers,
                               BufferCount(buffers), static_cast<uint64_t>(params.n)) != ACLNN_SUCCESS)
        return nullptr;
    return y;
}

const aclTensor *Reshape(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor)
{
    Place px;
    if (x == nullptr) return nullptr;
    const aclTensor *dense = Dense(x, executor, &px);
    if (dense == nullptr) return nullptr;
    if (shape.GetShapeSize() != px.view.numel) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: Reshape of %lld elements to %s", op::mg::CurrentApi(),
                  static_cast<long long>(px.view.numel), op::ToString(shape).GetString());
        return nullptr;
    }
    return op::mg::NewTensor(executor, shape, x->GetDataType(), x->GetStorageFormat(), &px);
}

const aclTensor *Reshape(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor)
{
    op::Shape s;
    return IntArrayShape(shape, &s) ? Reshape(x, s, executor) : nullptr;
}

// x broadcast to `shape`, into `dst` (a tensor of that shape the caller allocated) or a new
// tensor when dst is NULL; x itself when it has the shape already.
static const aclTensor *BroadcastInto(const aclTensor *x, const op::Shape &shape, const aclTensor *dst,
                                      aclOpExecutor *executor)
{
    Place px;
    if (x == nullptr) return nullptr;
    op::Shape in = x->GetViewShape(), out;
    if (!op::BroadcastInferShape(in, shape, out) || out != shape || shape.GetDimNum() > MG_BROADCAST_MAX_RANK) {
        mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s cannot be broadcast to %s", op::mg::CurrentApi(),
                  op::ToString(in).GetString(), op::ToString(shape).GetString());
        return nullptr;
    }
    if (in == shape) return x;
    const aclTensor *dense = Dense(x, executor, &px);
    if (dense == nullptr) return nullptr;
    const aclTensor *y = dst;
    if (y == nullptr) y = op::mg::NewTensor(executor, shape, x->GetDataType(), x->GetStorageFormat(), nullptr);
    Place py;
    if (y == nullptr || op::mg::Locate(executor, y, true, &py) != ACLNN_SUCCESS) return nullptr;
    if (!py.dense || py.view.elem_size != px.view.elem_size || py.view.numel != shape.GetShapeSize()) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: BroadcastTo into a tensor that is not a dense %s of the source's dtype",
                  op::mg::CurrentApi(), op::ToString(shape).GetString());
        return nullptr;
    }
    mg_broadcast_params params;
    std::memset(&params, 0, sizeof params);
    params.rank = static_cast<int>(shape.GetDimNum());
    params.elem_size = px.view.elem_size;
    params.numel = shape.GetShapeSize();
    int64_t stride = 1;
    const size_t lead = shape.GetDimNum() - in.GetDimNum();
    for (size_t d = shape.GetDimNum(); d-- > 0;) {
        params.dims[d] = shape.GetDim(d);
        int64_t ind = d < lead ? 1 : in.GetDim(d - lead);
        params.in_strides[d] = ind == 1 ? 0 : stride;
        stride *= ind;
    }
    nnop_buffer buffers[2] = {px.DenseData(), py.DenseData()};
    if (params.numel > 0 && nnop_executor_add_step(executor, "BroadcastTo", mg_broadcast_step, &params, sizeof params,
                                                   buffers, BufferCount(buffers),
                                                   static_cast<uint64_t>(params.numel)) != ACLNN_SUCCESS)
        return nullptr;
    return y;
}

const aclTensor *BroadcastTo(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor)
{
    return BroadcastInto(x, shape, nullptr, executor);
}

const aclTensor *BroadcastTo(const aclTensor *x, const aclTensor *y, const aclTensor *shape, aclOpExecutor *executor)
{
    if (x == nullptr || y == nullptr || shape == nullptr) return nullptr;
    const op::Shape target = y->GetViewShape();
    if (!HostDimsMatch(executor, shape, target, "BroadcastTo")) return nullptr;
    return BroadcastInto(x, target, y, executor);
}

const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor)
{
    op::Shape s;
    return IntArrayShape(shape, &s) ? BroadcastTo(x, s, executor) : nullptr;
}

const aclTensor *Fill(const aclTensor *dims, const aclTensor *value, const aclIntArray *outShape,
                      aclOpExecutor *executor)
{
    op::Shape shape;
    if (dims == nullptr || value == nullptr || outShape == nullptr || !IntArrayShape(outShape, &shape)) return nullptr;
    if (!HostDimsMatch(executor, dims, shape, "Fill")) return nullptr;
    const op::DataType dtype = value->GetDataType();
    const int64_t elem = mg_dtype_size(dtype);
    if (value->Size() != 1 || elem <= 0 || elem > MG_FILL_MAX_ELEM) {
        mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: Fill's value is a %s tensor of %lld elements, not one element",
                  op::mg::CurrentApi(), mg_dtype_name(dtype), static_cast<long long>(value->Size()));
        return nullptr;
    }
    aclTensor *y = op::mg::NewTensor(executor, shape, dtype, ge::FORMAT_ND, nullptr);
    Place py;
    if (y == nullptr || op::mg::Locate(executor, y, false, &py) != ACLNN_SUCCESS) return nullptr;
    if (py.view.numel == 0) return y;
    mg_fill_params params;
    std::memset(&params, 0, sizeof params);
    params.n = py.view.numel;
    params.elem_size = elem;
    nnop_buffer buffers[2];
    uint32_t count = 0;
    const std::vector<unsigned char> *host = op::mg::HostValues(executor, value);
    if (host != nullptr) {
        // known at phase 1: the value travels in the step's parameters
        std::memcpy(params.value, host->data(), static_cast<size_t>(elem));
    } else {
        Place pv;
        if (Dense(value, executor, &pv) == nullptr) return nullptr;
        params.from_buffer = 1;
        buffers[count++] = pv.DenseData();
    }
    buffers[count++] = py.buffer;
    if (nnop_executor_add_step(executor, "Fill", mg_fill_step, &params, sizeof params, buffers, count,
                               static_cast<uint64_t>(params.n)) != ACLNN_SUCCESS)
        return nullptr;
    return y;
}
} // namespace l0op
