// mg_optiling_run and mg_optiling_infer_shape (optiling/src/run.cpp), each outcome against
// its written message: the results reset before a tiling runs (whatever the caller left in
// them), the compile info created once and destroyed once on every path (success, failure,
// a failed TilingParse, a throw), a failed TilingParse keeping the tiling from running, the
// tiling's own last error quoted after the status, a throw named, a missing block dim, an
// unregistered type, and the infershape's outcomes.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "opapi_check.h"

#include "log/log.h"
#include "optiling/mg_optiling.h"
#include "register/op_impl_registry.h"

extern "C" int aclInit(const char *);
extern "C" int aclFinalize(void);
extern "C" const char *aclGetRecentErrMsg(void);

namespace {
int created, destroyed, tilings_run;
struct UnitsInfo {
    int parsed = 0;
    UnitsInfo() { created++; }
    ~UnitsInfo() { destroyed++; }
};
} // namespace

namespace optiling {
static ge::graphStatus UnitsParseOk(gert::TilingParseContext *c)
{
    c->GetCompiledInfo<UnitsInfo>()->parsed = 11;
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus UnitsParseFail(gert::TilingParseContext *) { return ge::GRAPH_FAILED; }
// sets only the block dim, after checking the parse ran: the other results stay as reset
static ge::graphStatus UnitsMinimal(gert::TilingContext *c)
{
    tilings_run++;
    const auto *info = c->GetCompileInfo<UnitsInfo>();
    if (info == nullptr || info->parsed != 11) return ge::GRAPH_FAILED;
    c->SetBlockDim(3);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus UnitsLogged(gert::TilingContext *c)
{
    tilings_run++;
    OP_LOGE(c, "the input is %d dims short", 2);
    return ge::GRAPH_FAILED;
}
static ge::graphStatus UnitsThrows(gert::TilingContext *)
{
    tilings_run++;
    throw std::runtime_error("out of sorts");
}
IMPL_OP_OPTILING(UnitsMinimal).Tiling(UnitsMinimal).TilingParse<UnitsInfo>(UnitsParseOk);
IMPL_OP_OPTILING(UnitsParseFails).Tiling(UnitsMinimal).TilingParse<UnitsInfo>(UnitsParseFail);
IMPL_OP_OPTILING(UnitsLogged).Tiling(UnitsLogged).TilingParse<UnitsInfo>(UnitsParseOk);
IMPL_OP_OPTILING(UnitsThrows).Tiling(UnitsThrows).TilingParse<UnitsInfo>(UnitsParseOk);
// without a TilingParse: no compile info at all
static ge::graphStatus UnitsNoInfo(gert::TilingContext *c)
{
    tilings_run++;
    c->SetBlockDim(c->GetCompileInfo<UnitsInfo>() == nullptr ? 1 : 0);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(UnitsNoInfo).Tiling(UnitsNoInfo);
} // namespace optiling

namespace ops {
static ge::graphStatus UnitsInferFails(gert::InferShapeContext *) { return ge::GRAPH_FAILED; }
IMPL_OP_INFERSHAPE(UnitsInferOnly).InferShape(UnitsInferFails);
} // namespace ops

static mg_tiling_run run;

static void Dirty()
{
    std::memset(&run, 0x5a, sizeof run);
    run.input_num = run.output_num = run.attr_num = 0;
}

int main()
{
    CHECK(aclInit(nullptr) == 0);
    char msg[256];
    const std::string failed = std::to_string(static_cast<unsigned>(ge::GRAPH_FAILED));

    // success: every result reset first, the platform filled, one info made and freed
    Dirty();
    run.op_type = "UnitsMinimal";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 0);
    CHECK(run.block_dim == 3 && run.tiling_key == 0 && run.schedule_mode == 0 && run.workspace_num == 0 &&
          run.tiling_size == 0);
    bool zero = true;
    for (size_t i = 0; i < MG_MAX_WORKSPACES; i++) zero = zero && run.workspaces[i] == 0;
    for (size_t i = 0; i < MG_TILING_CAPACITY; i++) zero = zero && run.tiling[i] == 0;
    CHECK(zero);
    CHECK(run.platform.aiv_core_num == 48 && run.platform.aic_core_num == 24);
    CHECK(created == 1 && destroyed == 1 && tilings_run == 1);

    // a failed TilingParse: the tiling does not run, the info is freed
    Dirty();
    run.op_type = "UnitsParseFails";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    CHECK(std::string(msg) == "the tiling of UnitsParseFails returned failure " + failed);
    CHECK(created == 2 && destroyed == 2 && tilings_run == 1);

    // the tiling's own error follows the status
    Dirty();
    run.op_type = "UnitsLogged";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    const std::string want = "the tiling of UnitsLogged returned failure " + failed +
                             ": the input is 2 dims short (test_optiling_units.cpp:";
    CHECK(std::string(msg).compare(0, want.size(), want) == 0);
    CHECK(created == 3 && destroyed == 3 && tilings_run == 2);
    aclGetRecentErrMsg();
    // the next failure does not quote it (each run starts with no last error)
    Dirty();
    run.op_type = "UnitsParseFails";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    CHECK(std::string(msg) == "the tiling of UnitsParseFails returned failure " + failed);
    CHECK(created == 4 && destroyed == 4 && tilings_run == 2);

    // a throw: named, the info freed once
    Dirty();
    run.op_type = "UnitsThrows";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 1);
    CHECK(std::string(msg) == "the tiling of UnitsThrows threw: out of sorts");
    CHECK(created == 5 && destroyed == 5 && tilings_run == 3);

    // no TilingParse: no compile info
    Dirty();
    run.op_type = "UnitsNoInfo";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == 0 && run.block_dim == 1);
    CHECK(created == 5 && destroyed == 5 && tilings_run == 4);

    // unregistered, and registered without a tiling
    run.op_type = "UnitsNothing";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == -1);
    CHECK(std::string(msg) == "no tiling registered for operator type UnitsNothing "
                              "(IMPL_OP_OPTILING(UnitsNothing).Tiling)");
    run.op_type = "UnitsInferOnly";
    CHECK(mg_optiling_run(&run, msg, sizeof msg) == -1);
    CHECK(!mg_optiling_has("UnitsInferOnly") && mg_optiling_has("UnitsMinimal") && !mg_optiling_has("UnitsNothing"));
    // the message is cut to the caller's capacity
    char small[12];
    run.op_type = "UnitsNothing";
    CHECK(mg_optiling_run(&run, small, sizeof small) == -1 && std::string(small) == "no tiling r");

    // the infershape: failure, none registered
    std::memset(&run, 0, sizeof run);
    run.op_type = "UnitsInferOnly";
    CHECK(mg_optiling_infer_shape(&run, msg, sizeof msg) == 1);
    CHECK(std::string(msg) == "the infershape of UnitsInferOnly returned failure");
    run.op_type = "UnitsMinimal";
    CHECK(mg_optiling_infer_shape(&run, msg, sizeof msg) == -1);
    CHECK(std::string(msg) == "no infershape registered for operator type UnitsMinimal");
    run.op_type = "UnitsNothing";
    CHECK(mg_optiling_infer_shape(&run, msg, sizeof msg) == -1);
    CHECK(std::string(msg) == "no infershape registered for operator type UnitsNothing");

    CHECK(aclFinalize() == 0);
    return Finish();
}
