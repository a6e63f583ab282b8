// optiling/src/run.cpp: runs a registered tiling / infershape on a C mg_tiling_run (the
// C entry points of mg_optiling.h), catching what C++ code throws so nothing crosses into C.
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "optiling/mg_registry.h"

using TilingFn = ge::graphStatus (*)(gert::TilingContext *);
using ParseFn = ge::graphStatus (*)(gert::TilingParseContext *);
using InferFn = ge::graphStatus (*)(gert::InferShapeContext *);

extern "C" int mg_optiling_has(const char *op_type)
{
    const mg_op_entry *e = mg_registry_find(op_type);
    return e != nullptr && e->tiling != nullptr;
}

extern "C" const char *mg_opdef_kernel_file(const char *op_type)
{
    const mg_op_entry *e = mg_registry_find(op_type);
    return e != nullptr && e->kernel_file[0] != '\0' ? e->kernel_file : nullptr;
}

extern "C" int mg_opdef_input_optional(const char *op_type, size_t index)
{
    const mg_op_entry *e = mg_registry_find(op_type);
    return e != nullptr && index < 32 && (e->optional_inputs >> index & 1u) != 0;
}

extern "C" int mg_optiling_run(mg_tiling_run *run, char *message, size_t cap)
{
    const mg_op_entry *e = mg_registry_find(run->op_type);
    if (e == nullptr || e->tiling == nullptr) {
        std::snprintf(message, cap, "no tiling registered for operator type %s (IMPL_OP_OPTILING(%s).Tiling)",
                      run->op_type, run->op_type);
        return -1;
    }
    mg_platform_query(&run->platform);
    run->block_dim = 0;
    run->tiling_key = 0;
    run->schedule_mode = 0;
    run->workspace_num = 0;
    run->tiling_size = 0;
    std::memset(run->workspaces, 0, sizeof run->workspaces);
    std::memset(run->tiling, 0, sizeof run->tiling);
    void *info = nullptr;
    mg_op_clear_last_error();
    try {
        info = e->compile_info_create != nullptr ? e->compile_info_create() : nullptr;
        /* owned, so a tiling that throws does not leak it */
        auto ctx = std::make_unique<gert::TilingContext>(run, info);
        ge::graphStatus status = ge::GRAPH_SUCCESS;
        if (e->parse != nullptr) {
            gert::TilingParseContext parse(info, ctx->GetPlatformInfo(), run->op_type);
            status = reinterpret_cast<ParseFn>(e->parse)(&parse);
        }
        if (status == ge::GRAPH_SUCCESS) status = reinterpret_cast<TilingFn>(e->tiling)(ctx.get());
        ctx.reset();
        if (info != nullptr) e->compile_info_destroy(info);
        if (status != ge::GRAPH_SUCCESS) {
            std::snprintf(message, cap, "the tiling of %s returned failure %u%s%s", run->op_type, status,
                          *mg_op_last_error() ? ": " : "", mg_op_last_error());
            return 1;
        }
    } catch (const std::exception &x) {
        if (info != nullptr) e->compile_info_destroy(info);
        std::snprintf(message, cap, "the tiling of %s threw: %s", run->op_type, x.what());
        return 1;
    }
    if (run->block_dim == 0) {
        std::snprintf(message, cap, "the tiling of %s set no block dim (SetBlockDim)", run->op_type);
        return 1;
    }
    return 0;
}

extern "C" int mg_optiling_infer_shape(mg_tiling_run *run, char *message, size_t cap)
{
    const mg_op_entry *e = mg_registry_find(run->op_type);
    if (e == nullptr || e->infer_shape == nullptr) {
        std::snprintf(message, cap, "no infershape registered for operator type %s", run->op_type);
        return -1;
    }
    gert::InferShapeContext ctx(run);
    if (reinterpret_cast<InferFn>(e->infer_shape)(&ctx) != ge::GRAPH_SUCCESS) {
        std::snprintf(message, cap, "the infershape of %s returned failure", run->op_type);
        return 1;
    }
    ctx.Commit();
    return 0;
}
