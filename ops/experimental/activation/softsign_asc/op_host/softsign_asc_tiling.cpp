// SoftsignAsc's host tiling: split the elements over the vector cores in 256-byte chunks, and
// size a UB tile for the kernel's buffers (x and y double-buffered, two float32 work
// tensors: at most 24 bytes of UB per element). The kernel is one per dtype (compiled from
// DTYPE_X), so the tiling key is 0.
#include "log/log.h"
#include "op_host/tiling_templates_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/softsign_asc_tiling_data.h"

namespace optiling {
namespace {
constexpr int64_t CHUNK_BYTES = 256;
constexpr int64_t ALIGN_BYTES = 32;
constexpr int64_t UB_BYTES_PER_ELEMENT = 24;

struct SoftsignAscCompileInfo {};

ge::graphStatus SoftsignAscTiling(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    OP_CHECK_IF(cores <= 0 || ub == 0, OP_LOGE(context, "no vector cores or UB"), return ge::GRAPH_FAILED);

    const gert::StorageShape *shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    const gert::CompileTimeTensorDesc *desc = context->GetInputDesc(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, desc);
    const ge::DataType dtype = desc->GetDataType();
    uint32_t size = 0;
    OP_CHECK_IF(dtype != ge::DT_FLOAT && dtype != ge::DT_FLOAT16 && dtype != ge::DT_BF16,
                OP_LOGE(context, "dtype %d is not float32, float16 or bfloat16", static_cast<int>(dtype)),
                return ge::GRAPH_FAILED);
    ge::TypeUtils::GetDataTypeLength(dtype, size);

    auto *tiling = context->GetTilingData<SoftsignAscTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    OP_CHECK_IF(memset_s(tiling, sizeof(*tiling), 0, sizeof(*tiling)) != EOK, OP_LOGE(context, "memset_s"),
                return ge::GRAPH_FAILED);
    const int64_t total = shape->GetStorageShape().GetShapeSize();
    const int64_t chunk = CHUNK_BYTES / size;
    const int64_t perCore = (total + cores - 1) / cores;
    tiling->totalLength = total;
    tiling->blockLength = total == 0 ? chunk : (perCore + chunk - 1) / chunk * chunk;
    const int64_t align = ALIGN_BYTES / size;
    tiling->tileLength = static_cast<int64_t>(ub) / UB_BYTES_PER_ELEMENT / align * align;
    const int64_t used = total == 0 ? 1 : (total + tiling->blockLength - 1) / tiling->blockLength;
    context->SetBlockDim(static_cast<uint32_t>(used));

    size_t *workspaces = context->GetWorkspaceSizes(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspaces);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();
    context->SetTilingKey(0);
    return ge::GRAPH_SUCCESS;
}

ge::graphStatus SoftsignAscTilingParse(gert::TilingParseContext *) { return ge::GRAPH_SUCCESS; }
} // namespace

IMPL_OP_OPTILING(SoftsignAsc).Tiling(SoftsignAscTiling).TilingParse<SoftsignAscCompileInfo>(SoftsignAscTilingParse);
} // namespace optiling
