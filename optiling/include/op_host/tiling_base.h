/* op_host/tiling_base.h: ops-nn's tiling base class (its own header; ops-nn's pulls in its
   whole tiling framework), written here as far as its tilings use it: DoTiling runs the
   steps a derived tiling overrides, in ops-nn's order, and stops at the first that fails;
   a tiling that is not capable gives GRAPH_PARAM_INVALID (ops-nn's "try the next template"). */
#ifndef MG_OP_HOST_TILING_BASE_H_
#define MG_OP_HOST_TILING_BASE_H_

#include <cstdint>

#include "exe_graph/runtime/tiling_context.h"
#include "log/log.h"
#include "platform/soc_spec.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace NN {
namespace Optiling {
class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext *context) : context_(context) {}
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling()
    {
        ge::graphStatus ret = GetShapeAttrsInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = GetPlatformInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        ret = DoOpTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = DoLibApiTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = GetWorkspaceSize();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = PostTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        context_->SetTilingKey(GetTilingKey());
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext *context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    [[nodiscard]] virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}

    gert::TilingContext *context_ = nullptr;
    uint64_t aicoreNum_ = 0;
    uint64_t aivCoreNum_ = 0;
    uint64_t ubSize_ = 0;
    uint64_t workspaceSize_ = 0;
};
} // namespace Optiling
} // namespace NN
} // namespace Ops

namespace optiling {
using Ops::NN::Optiling::TilingBaseClass;
} // namespace optiling

#endif
