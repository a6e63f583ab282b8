/* aclnn_kernels/common/op_error_check.h: the OP_CHECK_* family op_api files check their
   parameters with. Each failing check sets the thread's recent error (status and message
   naming the argument as written) and runs the caller's `retExpr`. The rules are in
   opdev/src/checks.cpp; a NULL or stale tensor handle is judged by libnnopbase's one rule
   (nnop_tensor_check). */
#ifndef MG_ACLNN_KERNELS_OP_ERROR_CHECK_H_
#define MG_ACLNN_KERNELS_OP_ERROR_CHECK_H_

#include <initializer_list>

#include "aclnn/aclnn_base.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

namespace op {
namespace mg {
bool CheckNull(const aclTensor *t, const char *name);
bool CheckNull(const void *p, const char *name);
bool CheckDtypeSupported(const aclTensor *t, const char *name, std::initializer_list<DataType> list);
bool CheckDtypeMatch(const aclTensor *t, const char *name, DataType expected);
bool CheckDtypeSame(const aclTensor *a, const char *an, const aclTensor *b, const char *bn);
bool CheckMaxDim(const aclTensor *t, const char *name, size_t max);
bool CheckMinDim(const aclTensor *t, const char *name, size_t min);
bool CheckShapeEqual(const aclTensor *a, const char *an, const aclTensor *b, const char *bn);
bool CheckShapeExpected(const aclTensor *a, const char *an, const Shape &expected);
bool CheckBroadcast(const aclTensor *a, const char *an, const aclTensor *b, const char *bn);
/* the broadcast shape of a and b into `out`, or false (message set) when they do not broadcast */
bool CheckBroadcastInfer(const aclTensor *a, const char *an, const aclTensor *b, const char *bn, Shape &out);
bool CheckDimension(const aclTensor *t, const char *name, size_t dims);
bool CheckDtypeSupported(const aclScalar *s, const char *name, std::initializer_list<DataType> list);
bool CheckCommInput(const void *workspaceSize, const void *executor);
} // namespace mg
} // namespace op

#define OP_CHECK_NULL(param, retExpr)                  \
    do {                                               \
        if (!op::mg::CheckNull((param), #param)) {     \
            retExpr;                                   \
        }                                              \
    } while (0)
#define OP_CHECK_DTYPE_NOT_SUPPORT(tensor, supportList, retExpr)             \
    do {                                                                     \
        if (!op::mg::CheckDtypeSupported((tensor), #tensor, (supportList))) { \
            retExpr;                                                         \
        }                                                                    \
    } while (0)
#define OP_CHECK_DTYPE_NOT_MATCH(tensor, expected, retExpr)              \
    do {                                                                 \
        if (!op::mg::CheckDtypeMatch((tensor), #tensor, (expected))) {   \
            retExpr;                                                     \
        }                                                                \
    } while (0)
#define OP_CHECK_DTYPE_NOT_SAME(a, b, retExpr)                    \
    do {                                                          \
        if (!op::mg::CheckDtypeSame((a), #a, (b), #b)) {          \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_MAX_DIM(tensor, maxDim, retExpr)                 \
    do {                                                          \
        if (!op::mg::CheckMaxDim((tensor), #tensor, (maxDim))) {  \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_MIN_DIM(tensor, minDim, retExpr)                 \
    do {                                                          \
        if (!op::mg::CheckMinDim((tensor), #tensor, (minDim))) {  \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_SHAPE_NOT_EQUAL(a, b, retExpr)                   \
    do {                                                          \
        if (!op::mg::CheckShapeEqual((a), #a, (b), #b)) {         \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(tensor, expected, retExpr) \
    do {                                                                     \
        if (!op::mg::CheckShapeExpected((tensor), #tensor, (expected))) {    \
            retExpr;                                                         \
        }                                                                    \
    } while (0)
/* An l0 op's launch or infershape that failed: the status CANN's header gives each and the
   caller's message become the recent error, then retExpr runs. */
#define OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE(cond, retExpr, ...)   \
    do {                                                          \
        if (cond) {                                               \
            OP_LOGE(ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID, __VA_ARGS__); \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_INFERSHAPE(cond, retExpr, ...)                   \
    do {                                                          \
        if (cond) {                                               \
            OP_LOGE(ACLNN_ERR_INNER_INFERSHAPE_ERROR, __VA_ARGS__); \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_BROADCAST(a, b, retExpr)                         \
    do {                                                          \
        if (!op::mg::CheckBroadcast((a), #a, (b), #b)) {          \
            retExpr;                                              \
        }                                                         \
    } while (0)
#define OP_CHECK_BROADCAST_AND_INFER_SHAPE(a, b, shape, retExpr)        \
    do {                                                                 \
        if (!op::mg::CheckBroadcastInfer((a), #a, (b), #b, (shape))) {   \
            retExpr;                                                     \
        }                                                                \
    } while (0)
/* the tensor must have exactly `dims` dims */
#define OP_CHECK_WRONG_DIMENSION(tensor, dims, retExpr)                  \
    do {                                                                 \
        if (!op::mg::CheckDimension((tensor), #tensor, (dims))) {        \
            retExpr;                                                     \
        }                                                                \
    } while (0)
#define OP_CHECK_RESULT_DTYPE_CAST_FAILED(from, to, retExpr)                                            \
    do {                                                                                                \
        if (!op::CanCast((from), (to))) {                                                               \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s: the result dtype %s cannot be cast to %s",            \
                    op::mg::CurrentApi(), op::ToString(from).GetString(), op::ToString(to).GetString()); \
            retExpr;                                                                                    \
        }                                                                                               \
    } while (0)
#define OP_CHECK_COMM_INPUT(workspaceSize, executor)                         \
    do {                                                                     \
        if (!op::mg::CheckCommInput((workspaceSize), (executor))) {          \
            return ACLNN_ERR_PARAM_NULLPTR;                                  \
        }                                                                    \
    } while (0)

#endif
