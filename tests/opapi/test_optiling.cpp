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
#include "op_host/tiling_base.h"
#include "register/tilingdata_base.h"

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
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.25f);
        this->Attr("steps").AttrType(REQUIRED).Int();
        OpAICoreConfig cfg;
        cfg.DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "scale_demo");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(ScaleDemo);
} // namespace ops


// The older tiling data declaration: its bytes are the plain struct's with the same fields
// (what opbuild generates for the kernel), padding included.
namespace optiling {
BEGIN_TILING_DATA_DEF(OldStyleTilingData)
TILING_DATA_FIELD_DEF(int32_t, count);
TILING_DATA_FIELD_DEF(int64_t, total);
TILING_DATA_FIELD_DEF_ARR(float, 3, scales);
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint32_t, dtypeBytes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OldStyleDemo, OldStyleTilingData)
} // namespace optiling
struct OldStylePlain {
    int32_t count;
    int64_t total;
    float scales[3];
    uint8_t flag;
    uint32_t dtypeBytes;
};

namespace optiling {
// TilingBaseClass runs the steps in ops-nn's order and stops at the first failure; each step
// appends its letter
class OldStyleTiling : public TilingBaseClass {
public:
    explicit OldStyleTiling(gert::TilingContext *context) : TilingBaseClass(context) {}
    char steps[16] = {0};

protected:
    void Step(char c) { steps[std::strlen(steps)] = c; }
    bool IsCapable() override { Step('c'); return true; }
    ge::graphStatus GetPlatformInfo() override { Step('p'); return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override
    {
        Step('s');
        // GetInputTensor: the input's dtype and shapes (its values are not modelled)
        const gert::Tensor *x = context_->GetInputTensor(0);
        return x != nullptr && x->GetData<float>() == nullptr ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
    }
    ge::graphStatus DoOpTiling() override
    {
        Step('o');
        const gert::Tensor *x = context_->GetInputTensor(0);
        OldStyleTilingData data;
        data.set_count(static_cast<int32_t>(x->GetOriginShape().GetDimNum()));
        data.set_total(x->GetShapeSize());
        const float scales[3] = {0.5f, 2.0f, -1.0f};
        data.set_scales(scales);
        data.set_flag(7);
        data.set_dtypeBytes(static_cast<uint32_t>(ge::GetSizeInBytes(1, x->GetDataType())));
        data.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(data.GetDataSize());
        context_->SetBlockDim(2);
        return x->GetSize() == static_cast<size_t>(x->GetShapeSize()) * 2 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
    }
    ge::graphStatus DoLibApiTiling() override { Step('l'); return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 5; }
    ge::graphStatus GetWorkspaceSize() override { Step('w'); return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override { Step('t'); return ge::GRAPH_SUCCESS; }
};
static char old_style_steps[16];
static ge::graphStatus OldStyleTilingFunc(gert::TilingContext *context)
{
    OldStyleTiling tiling(context);
    ge::graphStatus ret = tiling.DoTiling();
    std::memcpy(old_style_steps, tiling.steps, sizeof old_style_steps);
    return ret;
}
IMPL_OP_OPTILING(OldStyleDemo).Tiling(OldStyleTilingFunc);
// A tiling that succeeds but never calls SetBlockDim: nothing could run, so the run fails.
static ge::graphStatus NoBlockDimTiling(gert::TilingContext *context)
{
    context->SetTilingKey(3);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(NoBlockDimDemo).Tiling(NoBlockDimTiling);
// A tiling that fails without a word of its own.
static ge::graphStatus SilentFailTiling(gert::TilingContext *) { return ge::GRAPH_FAILED; }
IMPL_OP_OPTILING(SilentFailDemo).Tiling(SilentFailTiling);
} // namespace optiling

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
    // A later failure that says nothing is not given the earlier tiling's words (each run
    // starts with no last error).
    std::memset(&run, 0, sizeof run);
    run.op_type = "SilentFailDemo";
    set_input(run, {3, 100}, ge::DT_FLOAT);
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    CHECK(std::strstr(msg, "the tiling of SilentFailDemo returned failure") != nullptr);
    CHECK(std::strstr(msg, "bad dtype") == nullptr);
    // ... and nothing at all follows the status: the whole message is the silent one.
    char silent[128];
    std::snprintf(silent, sizeof silent, "the tiling of SilentFailDemo returned failure %u",
                  static_cast<unsigned>(ge::GRAPH_FAILED));
    CHECK(std::strcmp(msg, silent) == 0);
    // An unregistered type is named.
    run.op_type = "NoSuchOp";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == -1 && std::strstr(msg, "NoSuchOp") != nullptr);
    // A tiling that reports success without a block dim is refused, naming what is missing.
    std::memset(&run, 0, sizeof run);
    run.op_type = "NoBlockDimDemo";
    set_input(run, {3, 100}, ge::DT_FLOAT);
    msg[0] = '\0';
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    CHECK(std::strstr(msg, "NoBlockDimDemo set no block dim (SetBlockDim)") != nullptr);
    // Infershape copies the input shape; the OpDef named its kernel file.
    std::memset(&run, 0, sizeof run);
    run.op_type = "ScaleDemo";
    set_input(run, {5, 6, 7}, ge::DT_FLOAT);
    run.outputs[0].storage.dim_num = 0;
    CHECK(mg_optiling_infer_shape(&run, msg, sizeof msg) == 0);
    CHECK(run.outputs[0].storage.dim_num == 3 && run.outputs[0].storage.dims[2] == 7);
    CHECK(mg_opdef_kernel_file("ScaleDemo") != nullptr &&
          std::strcmp(mg_opdef_kernel_file("ScaleDemo"), "scale_demo") == 0);
    // The older tiling data declaration through TilingBaseClass, on a float16 [4, 5] input.
    std::memset(&run, 0, sizeof run);
    run.op_type = "OldStyleDemo";
    set_input(run, {4, 5}, ge::DT_FLOAT16);
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 0);
    CHECK(std::strcmp(optiling::old_style_steps, "spcolwt") == 0);
    CHECK(run.tiling_key == 5 && run.block_dim == 2);
    CHECK(run.tiling_size == sizeof(OldStylePlain));
    OldStylePlain plain;
    std::memcpy(&plain, run.tiling, sizeof plain);
    CHECK(plain.count == 2 && plain.total == 20 && plain.scales[0] == 0.5f && plain.scales[1] == 2.0f &&
          plain.scales[2] == -1.0f && plain.flag == 7 && plain.dtypeBytes == 2);
    CHECK(ge::GetSizeInBytes(3, ge::DT_FLOAT) == 12 && ge::GetSizeInBytes(3, ge::DT_STRING) == -1);
    CHECK(ge::GetPrimaryFormat(0x1234 << 8 | ge::FORMAT_NC1HWC0) == ge::FORMAT_NC1HWC0 &&
          ge::GetSubFormat(0x1234 << 8 | ge::FORMAT_NC1HWC0) == 0x1234);
    CHECK(platform_ascendc::PlatformAscendC().GetCurNpuArch() == NpuArch::DAV_2201);
    // What OP_ADD keeps for opbuild's aclnn generator: parameters, dtype columns, attributes.
    const ops::OpDef *scale = nullptr;
    for (const ops::OpDef &d : ops::mg::OpDefs())
        if (std::strcmp(d.Type(), "ScaleDemo") == 0) scale = &d;
    CHECK(scale != nullptr && scale->Inputs().size() == 1 && scale->Outputs().size() == 1 &&
          scale->Inputs()[0].Name() == "x" && scale->Inputs()[0].GetDataTypes().size() == 2 &&
          scale->Outputs()[0].GetDataTypes()[1] == ge::DT_FLOAT16 && scale->Attrs().size() == 2 &&
          scale->Attrs()[0].GetKind() == ops::MgAttrKind::FLOAT && scale->Attrs()[0].HasDefault() &&
          scale->Attrs()[0].GetDefault() == 0.25 && scale->Attrs()[1].GetKind() == ops::MgAttrKind::INT &&
          !scale->Attrs()[1].HasDefault());
    // securec: a count over the destination fails and writes nothing.
    char buf[4] = {1, 2, 3, 4};
    CHECK(memset_s(buf, 2, 0, 4) != EOK && buf[0] == 1);
    CHECK(aclFinalize() == 0);
    return Finish();
}
