// opdev/src/l0_ops.cpp: the helper l0 ops operators call most (Contiguous, ViewCopy, Cast,
// Muls, Reshape, BroadcastTo), each planned as steps of libnnopbase's executor: its copy steps
// (view_copy.c) where they exist, opdev's CPU kernels (l0_kernels.c) otherwise.
#include <cstring>

#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/reshape.h"
#include "l0_kernels.h"
#include "level0/broadcast_to.h"
#include "level0/muls.h"
#include "mgrt.h"
#include "opdev_internal.h"

using op::mg::Place;

namespace {
// `x` dense (copying it into the workspace first when it is a strided view of the caller's).
const aclTensor *Dense(const aclTensor *x, aclOpExecutor *executor, Place *place)
{
    aclnnStatus status;
    if (!op::mg::Locate(executor, x, false, place, &status)) return nullptr;
    if (place->dense) return x;
    const aclTensor *y = l0op::Contiguous(x, executor);
    if (y == nullptr || !op::mg::Locate(executor, y, false, place, &status)) return nullptr;
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
} // namespace

namespace l0op {
const aclTensor *Contiguous(const aclTensor *x, aclOpExecutor *executor)
{
    Place px;
    aclnnStatus status;
    if (x == nullptr || !op::mg::Locate(executor, x, false, &px, &status)) return nullptr;
    if (px.dense) return x;
    aclTensor *y = op::mg::NewTensor(executor, x->GetViewShape(), x->GetDataType(), ge::FORMAT_ND, nullptr);
    Place py;
    if (y == nullptr || !op::mg::Locate(executor, y, false, &py, &status)) return nullptr;
    if (nnop_add_contiguous(executor, &px.view, px.buffer, py.buffer) != ACLNN_SUCCESS) return nullptr;
    return y;
}

const aclTensor *ViewCopy(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor)
{
    Place px, py;
    aclnnStatus status;
    if (x == nullptr || y == nullptr) return nullptr;
    if (Dense(x, executor, &px) == nullptr || !op::mg::Locate(executor, y, true, &py, &status)) return nullptr;
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
    aclnnStatus status;
    if (y == nullptr || !op::mg::Locate(executor, y, false, &py, &status)) return nullptr;
    mg_cast_params params{px.view.numel, static_cast<int>(x->GetDataType()), static_cast<int>(dst)};
    nnop_buffer buffers[2] = {px.DenseData(), py.buffer};
    if (nnop_executor_add_step(executor, "Cast", mg_cast_step, &params, sizeof params, buffers, 2,
                               static_cast<uint64_t>(params.n)) != ACLNN_SUCCESS)
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
    aclnnStatus status;
    if (y == nullptr || !op::mg::Locate(executor, y, false, &py, &status)) return nullptr;
    if (px.view.numel == 0) return y;
    mg_muls_params params{px.view.numel, static_cast<int>(self->GetDataType()), alpha};
    nnop_buffer buffers[2] = {px.DenseData(), py.buffer};
    if (nnop_executor_add_step(executor, "Muls", mg_muls_step, &params, sizeof params, buffers, 2,
                               static_cast<uint64_t>(params.n)) != ACLNN_SUCCESS)
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

const aclTensor *BroadcastTo(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor)
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
    aclTensor *y = op::mg::NewTensor(executor, shape, x->GetDataType(), x->GetStorageFormat(), nullptr);
    Place py;
    aclnnStatus status;
    if (y == nullptr || !op::mg::Locate(executor, y, false, &py, &status)) return nullptr;
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
    nnop_buffer buffers[2] = {px.DenseData(), py.buffer};
    if (params.numel > 0 && nnop_executor_add_step(executor, "BroadcastTo", mg_broadcast_step, &params, sizeof params,
                                                   buffers, 2, static_cast<uint64_t>(params.numel)) != ACLNN_SUCCESS)
        return nullptr;
    return y;
}

const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor)
{
    op::Shape s;
    return IntArrayShape(shape, &s) ? BroadcastTo(x, s, executor) : nullptr;
}
} // namespace l0op
