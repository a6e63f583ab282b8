// The host-tiling face: a tiling written in ops-nn's seed style (my own: split N elements
// over the vector cores in 256-byte-aligned chunks, key = dtype) runs through a
// TilingContext built from shapes and dtypes by mg_optiling_run; the written expectations
// below are worked out by hand from the 910B profile (48 cores, 192 KiB UB, 16 MiB lib
// workspace), not computed by the code under test.
#include <cstdio>

#include "opapi_check.h"
#include <cstring>

#include "log/log.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "securec.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

extern "C" int aclInit(const char *);
extern "C" int aclFinalize(void);
extern "C" const char *aclGetRecentErrMsg(void);

namespace optiling {
struct ScaleTilingData {
    int64_t perCore;
    int64_t lastCore;
    int64_t tile;
};
struct ScaleCompileInfo {
    int parsed;
};

static ge::graphStatus ScaleTiling(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    auto *shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    auto *desc = context->GetInputDesc(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, desc);
    const auto *info = context->GetCompileInfo<ScaleCompileInfo>();
    OP_CHECK_IF(info == nullptr || info->parsed != 7, OP_LOGE(context, "TilingParse did not run"),
                return ge::GRAPH_FAILED);
    uint32_t size = 0;
    OP_CHECK_IF(!ge::TypeUtils::GetDataTypeLength(desc->GetDataType(), size), OP_LOGE(context, "bad dtype"),
                return ge::GRAPH_FAILED);
    int64_t n = shape->GetStorageShape().GetShapeSize();
    int64_t chunk = 256 / size;
    int64_t per = ((n + cores - 1) / cores + chunk - 1) / chunk * chunk;
    int64_t used = (n + per - 1) / per;
    auto *t = context->GetTilingData<ScaleTilingData>();
    OP_CHECK_IF(memset_s(t, sizeof *t, 0, sizeof *t) != EOK, OP_LOGE(context, "memset_s"), return ge::GRAPH_FAILED);
    t->perCore = per;
    t->lastCore = n - (used - 1) * per;
    t->tile = static_cast<int64_t>(ub) / 8 / size;
    context->SetBlockDim(static_cast<uint32_t>(used));
    context->SetTilingKey(static_cast<uint64_t>(desc->GetDataType()));
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus ScaleParse(gert::TilingParseContext *context)
{
    context->GetCompiledInfo<ScaleCompileInfo>()->parsed = 7;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ScaleDemo).Tiling(ScaleTiling).TilingParse<ScaleCompileInfo>(ScaleParse);
} // namespace optiling

namespace ops {
static ge::graphStatus InferScale(gert::InferShapeContext *context)
{
    const gert::Shape *in = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, in);
    *context->GetOutputShape(0) = *in;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(ScaleDemo).InferShape(InferScale);
class ScaleDemo : public OpDef {
public:
    explicit ScaleDemo(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND,
                                                                                            ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        OpAICoreConfig cfg;
        cfg.DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "scale_demo");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(ScaleDemo);
} // namespace ops


static void set_input(mg_tiling_run &run, std::initializer_list<int64_t> dims, int dtype)
{
    gert::Shape s(dims);
    run.input_num = 1;
    run.output_num = 1;
    run.inputs[0].present = 1;
    run.inputs[0].dtype = dtype;
    run.inputs[0].format = ge::FORMAT_ND;
    run.inputs[0].origin = run.inputs[0].storage = s.c();
    run.outputs[0] = run.inputs[0];
}

int main()
{
    CHECK(aclInit(nullptr) == 0);
    static mg_tiling_run run;
    char msg[256];
    // float32, 1000 x 100 = 100000 elements over 48 cores in 64-element chunks:
    // ceil(100000/48) = 2084 -> 2112 per core; ceil(100000/2112) = 48 cores; last 100000-47*2112 = 736.
    std::memset(&run, 0, sizeof run);
    run.op_type = "ScaleDemo";
    set_input(run, {1000, 100}, ge::DT_FLOAT);
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 0);
    auto *t = reinterpret_cast<const optiling::ScaleTilingData *>(run.tiling);
    CHECK(run.tiling_size == sizeof(optiling::ScaleTilingData));
    CHECK(t->perCore == 2112);
    CHECK(t->lastCore == 736);
    CHECK(t->tile == 196608 / 8 / 4);
    CHECK(run.block_dim == 48);
    CHECK(run.tiling_key == 0);
    CHECK(run.workspace_num == 1 && run.workspaces[0] == 16u * 1024 * 1024);
    // float16, 300 elements: chunk 128; ceil(300/48) = 7 -> 128 per core; 3 cores; last 44; key 1.
    std::memset(&run, 0, sizeof run);
    run.op_type = "ScaleDemo";
    set_input(run, {3, 100}, ge::DT_FLOAT16);
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 0);
    CHECK(t->perCore == 128 && t->lastCore == 44 && run.block_dim == 3 && run.tiling_key == 1);
    // A dtype without a size fails the tiling, with the tiling's message as the recent error.
    set_input(run, {3, 100}, ge::DT_STRING);
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "bad dtype") != nullptr);
    // An unregistered type is named.
    run.op_type = "NoSuchOp";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == -1 && std::strstr(msg, "NoSuchOp") != nullptr);
    // Infershape copies the input shape; the OpDef named its kernel file.
    std::memset(&run, 0, sizeof run);
    run.op_type = "ScaleDemo";
    set_input(run, {5, 6, 7}, ge::DT_FLOAT);
    run.outputs[0].storage.dim_num = 0;
    CHECK(mg_optiling_infer_shape(&run, msg, sizeof msg) == 0);
    CHECK(run.outputs[0].storage.dim_num == 3 && run.outputs[0].storage.dims[2] == 7);
    CHECK(mg_opdef_kernel_file("ScaleDemo") != nullptr &&
          std::strcmp(mg_opdef_kernel_file("ScaleDemo"), "scale_demo") == 0);
    // securec: a count over the destination fails and writes nothing.
    char buf[4] = {1, 2, 3, 4};
    CHECK(memset_s(buf, 2, 0, 4) != EOK && buf[0] == 1);
    CHECK(aclFinalize() == 0);
    return Finish();
}
