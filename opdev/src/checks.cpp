// opdev/src/checks.cpp: the rules behind aclnn_kernels/common/op_error_check.h. Each
// failure records its status and a message naming the argument (the thread's recent error).
#include <string>

#include "aclnn_kernels/common/op_error_check.h"
#include "mgrt.h"
#include "nnop.h"
#include "opdev/op_dfx.h"
#include "opdev/shape_utils.h"

namespace op {
namespace mg {
namespace {
std::string List(std::initializer_list<DataType> list)
{
    std::string r = "[";
    for (DataType t : list) r += (r.size() > 1 ? ", " : "") + std::string(mg_dtype_name(t));
    return r + "]";
}
} // namespace

bool CheckNull(const aclTensor *t, const char *name)
{
    return nnop_tensor_check(t, CurrentApi(), name) == ACLNN_SUCCESS;
}

bool CheckNull(const void *p, const char *name)
{
    if (p != nullptr) return true;
    mgrt_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: expected a proper value but got null for argument %s", CurrentApi(),
              name);
    return false;
}

bool CheckDtypeSupported(const aclTensor *t, const char *name, std::initializer_list<DataType> list)
{
    DataType d = t->GetDataType();
    for (DataType s : list)
        if (s == d) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which is not supported; supported: %s", CurrentApi(),
              name, mg_dtype_name(d), List(list).c_str());
    return false;
}

bool CheckDtypeMatch(const aclTensor *t, const char *name, DataType expected)
{
    DataType d = t->GetDataType();
    if (d == expected) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s", CurrentApi(), name, mg_dtype_name(d),
              mg_dtype_name(expected));
    return false;
}

bool CheckDtypeSame(const aclTensor *a, const char *an, const aclTensor *b, const char *bn)
{
    if (a->GetDataType() == b->GetDataType()) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s (%s) and %s (%s) must have the same dtype", CurrentApi(), an,
              mg_dtype_name(a->GetDataType()), bn, mg_dtype_name(b->GetDataType()));
    return false;
}

bool CheckMaxDim(const aclTensor *t, const char *name, size_t max)
{
    int64_t *dims = nullptr;
    uint64_t n = 0;
    if (aclGetViewShape(t, &dims, &n) != ACLNN_SUCCESS) return false;
    std::free(dims);
    if (n <= max) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu dims, more than the %zu supported", CurrentApi(), name,
              static_cast<unsigned long long>(n), max);
    return false;
}

bool CheckMinDim(const aclTensor *t, const char *name, size_t min)
{
    size_t n = t->GetDimNum();
    if (n >= min) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims, fewer than the %zu required", CurrentApi(), name, n, min);
    return false;
}

bool CheckShapeEqual(const aclTensor *a, const char *an, const aclTensor *b, const char *bn)
{
    if (a->GetViewShape() == b->GetViewShape()) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: the shapes of %s %s and %s %s must be equal", CurrentApi(), an,
              ToString(a->GetViewShape()).GetString(), bn, ToString(b->GetViewShape()).GetString());
    return false;
}

bool CheckShapeExpected(const aclTensor *a, const char *an, const Shape &expected)
{
    if (a->GetViewShape() == expected) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: the shape of %s is %s, expected %s", CurrentApi(), an,
              ToString(a->GetViewShape()).GetString(), ToString(expected).GetString());
    return false;
}

bool CheckBroadcast(const aclTensor *a, const char *an, const aclTensor *b, const char *bn)
{
    if (CheckBroadcastShape(a->GetViewShape(), b->GetViewShape())) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s %s and %s %s cannot be broadcast together", CurrentApi(), an,
              ToString(a->GetViewShape()).GetString(), bn, ToString(b->GetViewShape()).GetString());
    return false;
}

bool CheckBroadcastInfer(const aclTensor *a, const char *an, const aclTensor *b, const char *bn, Shape &out)
{
    if (BroadcastInferShape(a->GetViewShape(), b->GetViewShape(), out)) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s %s and %s %s cannot be broadcast together", CurrentApi(), an,
              ToString(a->GetViewShape()).GetString(), bn, ToString(b->GetViewShape()).GetString());
    return false;
}

bool CheckDimension(const aclTensor *t, const char *name, size_t dims)
{
    const size_t n = t->GetDimNum();
    if (n == dims) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims, expected %zu", CurrentApi(), name, n, dims);
    return false;
}

bool CheckDtypeSupported(const aclScalar *s, const char *name, std::initializer_list<DataType> list)
{
    DataType d = s->GetDataType();
    for (DataType x : list)
        if (x == d) return true;
    mgrt_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which is not supported; supported: %s", CurrentApi(),
              name, mg_dtype_name(d), List(list).c_str());
    return false;
}

bool CheckCommInput(const void *workspaceSize, const void *executor)
{
    if (workspaceSize == nullptr) {
        mgrt_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: workspaceSize is NULL", CurrentApi());
        return false;
    }
    if (executor == nullptr) {
        mgrt_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", CurrentApi());
        return false;
    }
    return true;
}
} // namespace mg
} // namespace op
