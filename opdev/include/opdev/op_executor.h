/* opdev/op_executor.h: UniqueExecutor, CommonOpExecutorRun, and the launch macro
   ADD_TO_LAUNCHER_LIST_AICORE with OP_INPUT/OP_OUTPUT/OP_ATTR. The executor is
   libnnopbase's (its plan, workspace and stream); this is its C++ face. The AI-core launch
   itself is opbuild's (the glue CANN's build generates): opbuild installs it with
   op::mg::SetAiCoreLauncher, so opdev does not depend on the layer above it. */
#ifndef MG_OPDEV_OP_EXECUTOR_H_
#define MG_OPDEV_OP_EXECUTOR_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/format_utils.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"
#include "opdev/platform.h"
#include "opdev/shape_utils.h"
#include "opdev/tensor_view_utils.h"
#include "optiling/mg_optiling.h"

class UniqueExecutor {
public:
    explicit UniqueExecutor(const char *func);
    ~UniqueExecutor();
    UniqueExecutor(const UniqueExecutor &) = delete;
    UniqueExecutor &operator=(const UniqueExecutor &) = delete;
    UniqueExecutor(UniqueExecutor &&o) noexcept : executor_(o.executor_) { o.executor_ = nullptr; }
    aclOpExecutor *get() const { return executor_; }
    aclOpExecutor *operator->() const { return executor_; }
    /* Hands the executor to the caller (phase 2 runs and releases it). */
    void ReleaseTo(aclOpExecutor **out)
    {
        *out = executor_;
        executor_ = nullptr;
    }

private:
    aclOpExecutor *executor_;
};

/* Phase 2 of every operator: libnnopbase's checks, then the plan queued on the stream. */
aclnnStatus CommonOpExecutorRun(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

namespace op {
namespace mg {
struct InputArgs {
    std::vector<const aclTensor *> tensors;
};
struct OutputArgs {
    std::vector<const aclTensor *> tensors;
};
struct AttrArgs {
    std::vector<mg_attr> values;
};
inline mg_attr MakeAttr(float v) { return mg_attr{MG_ATTR_FLOAT, 0, v, 0}; }
inline mg_attr MakeAttr(double v) { return mg_attr{MG_ATTR_FLOAT, 0, static_cast<float>(v), 0}; }
inline mg_attr MakeAttr(bool v) { return mg_attr{MG_ATTR_BOOL, 0, 0.0f, static_cast<uint8_t>(v)}; }
template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>> mg_attr MakeAttr(T v)
{
    return mg_attr{MG_ATTR_INT, static_cast<int64_t>(v), 0.0f, 0};
}
template <typename... A> AttrArgs MakeAttrs(A... a) { return AttrArgs{{MakeAttr(a)...}}; }
struct IgnoredArgs {};
template <typename... A> IgnoredArgs Ignore(A &&...) { return {}; }

/* The launch opbuild provides: runs the registered tiling for `op_type` on the tensors,
   plans the kernel into the executor, and returns an aclnn status (message set). */
using AiCoreLauncher = aclnnStatus (*)(const char *op_type, aclOpExecutor *executor, const InputArgs &in,
                                       const OutputArgs &out, const AttrArgs &attrs);
void SetAiCoreLauncher(AiCoreLauncher launcher);
aclnnStatus LaunchAiCore(const char *op_type, aclOpExecutor *executor, const InputArgs &in, const OutputArgs &out,
                         const AttrArgs &attrs);

struct LaunchCall {
    InputArgs in;
    OutputArgs out;
    AttrArgs attrs;
    void Add(const InputArgs &a) { in = a; }
    void Add(const OutputArgs &a) { out = a; }
    void Add(const AttrArgs &a) { attrs = a; }
    void Add(const IgnoredArgs &) {}
};
template <typename... A> aclnnStatus AddAiCore(const char *op_type, aclOpExecutor *executor, const A &...args)
{
    LaunchCall call;
    (call.Add(args), ...);
    return LaunchAiCore(op_type, executor, call.in, call.out, call.attrs);
}
} // namespace mg
} // namespace op

#define OP_INPUT(...) (op::mg::InputArgs{{__VA_ARGS__}})
#define OP_OUTPUT(...) (op::mg::OutputArgs{{__VA_ARGS__}})
#define OP_ATTR(...) (op::mg::MakeAttrs(__VA_ARGS__))
#define OP_OPTION(...) (op::mg::Ignore(__VA_ARGS__))
#define OP_WORKSPACE(...) (op::mg::Ignore(__VA_ARGS__))
#define OP_OUTSHAPE(...) (op::mg::Ignore(__VA_ARGS__))
#define OP_MODE(...) (op::mg::Ignore(__VA_ARGS__))
#define OP_EMPTY_ARG (op::mg::IgnoredArgs{})
/* (CANN's op_executor.h brings CREATE_EXECUTOR along; make_op_executor.h names it too.) */
#define CREATE_EXECUTOR() UniqueExecutor(__func__)
/* As CANN's: the l0 function's parameter `executor` is the plan launched into. */
#define ADD_TO_LAUNCHER_LIST_AICORE(op_type, ...) op::mg::AddAiCore(#op_type, executor, __VA_ARGS__)

#endif
