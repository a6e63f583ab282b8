/* log/log.h: the operator log and check macros host code uses (opbase's op_common log),
   and opdev's op_log.h shares them. The first argument names what is logged: a context
   (its node name), a name, or, in op_api code, an aclnn status code. An error is also the
   thread's recent error (aclGetRecentErrMsg). Formatting and output: optiling/src/log.c. */
#ifndef MG_LOG_LOG_H_
#define MG_LOG_LOG_H_

/* CANN's host headers bring these in with them, and operator code relies on it. */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"
#include "securec.h"

extern "C" void mg_op_log(int level, const char *subject, int code, const char *file, int line, const char *fmt,
                          ...) __attribute__((format(printf, 6, 7)));

namespace mg_log {
enum { DEBUG = 0, INFO = 1, WARNING = 2, ERROR = 3 };
inline const char *Subject(const char *s) { return s != nullptr ? s : ""; }
inline const char *Subject(const std::string &s) { return s.c_str(); }
template <typename T> auto Subject(const T *c) -> decltype(c->GetNodeName(), static_cast<const char *>(nullptr))
{
    return c != nullptr ? c->GetNodeName() : "";
}
template <typename T, typename = std::enable_if_t<std::is_integral<T>::value || std::is_enum<T>::value>>
const char *Subject(T) { return ""; }
template <typename T> int Code(const T &) { return 0; }
inline int Code(int c) { return c; }
inline int Code(unsigned c) { return static_cast<int>(c); }
} // namespace mg_log

namespace Ops {
namespace Base {
inline std::string ToString(const gert::Shape &s)
{
    std::string r = "[";
    for (size_t i = 0; i < s.GetDimNum(); i++) r += (i ? "," : "") + std::to_string(s.GetDim(i));
    return r + "]";
}
inline std::string ToString(ge::DataType t) { return std::to_string(static_cast<int>(t)); }
} // namespace Base
} // namespace Ops

#define MG_OP_LOG(level, subject, ...) \
    mg_op_log(level, mg_log::Subject(subject), mg_log::Code(subject), __FILE__, __LINE__, __VA_ARGS__)
#ifndef OP_LOGE
#define OP_LOGE(subject, ...) MG_OP_LOG(mg_log::ERROR, subject, __VA_ARGS__)
#define OP_LOGW(subject, ...) MG_OP_LOG(mg_log::WARNING, subject, __VA_ARGS__)
#define OP_LOGI(subject, ...) MG_OP_LOG(mg_log::INFO, subject, __VA_ARGS__)
#define OP_LOGD(subject, ...) MG_OP_LOG(mg_log::DEBUG, subject, __VA_ARGS__)
#endif
#define OP_LOGE_IF(cond, ret, subject, ...) \
    do {                                    \
        if (cond) {                         \
            OP_LOGE(subject, __VA_ARGS__);  \
            return ret;                     \
        }                                   \
    } while (0)
#define OP_CHECK_IF(cond, log_func, expr) \
    do {                                  \
        if (cond) {                       \
            log_func;                     \
            expr;                         \
        }                                 \
    } while (0)
#define OP_TILING_CHECK(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                         \
    do {                                                                 \
        if ((ptr) == nullptr) {                                          \
            OP_LOGE(context, "%s is nullptr", #ptr);                     \
            return ge::GRAPH_FAILED;                                     \
        }                                                                \
    } while (0)
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OP_CHECK_NULL_WITH_CONTEXT(context, ptr)
#define VECTOR_INNER_ERR_REPORT_TILIING(subject, ...) OP_LOGE(subject, __VA_ARGS__)
#define OPS_REPORT_VECTOR_INNER_ERR(subject, ...) OP_LOGE(subject, __VA_ARGS__)

#endif
