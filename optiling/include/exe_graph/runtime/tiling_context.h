/* exe_graph/runtime/tiling_context.h: gert::TilingContext and its parts (metadef's names),
   views over one C mg_tiling_run (optiling/mg_optiling.h) that opbuild fills from the
   tensors of a launch. */
#ifndef MG_GERT_TILING_CONTEXT_H_
#define MG_GERT_TILING_CONTEXT_H_

#include <cstring>
#include <type_traits>

#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/types.h"

namespace fe {
/* The platform handle a tiling passes to platform_ascendc::PlatformAscendC. */
class PlatFormInfos {
public:
    mg_platform p;
};
} // namespace fe

namespace gert {
class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return static_cast<ge::DataType>(info_.dtype); }
    ge::Format GetStorageFormat() const { return static_cast<ge::Format>(info_.format); }
    ge::Format GetOriginFormat() const { return static_cast<ge::Format>(info_.format); }
    void SetDataType(ge::DataType t) { info_.dtype = t; }
    mg_tensor_info info_;
};

/* What a list attribute getter would point to (never handed out here). */
struct MgAbsentList {
    size_t GetSize() const { return 0; }
    const int64_t *GetData() const { return nullptr; }
};

class RuntimeAttrs {
public:
    /* NULL for an index past the attributes or of another type. */
    template <typename T> const T *GetAttrPointer(size_t i) const
    {
        if (i >= run_->attr_num) return nullptr;
        const mg_attr &a = run_->attrs[i];
        if constexpr (std::is_same_v<T, float>) {
            return a.kind == MG_ATTR_FLOAT ? &a.f : nullptr;
        } else if constexpr (std::is_same_v<T, bool>) {
            static_assert(sizeof(bool) == sizeof(uint8_t), "bool attrs are stored as bytes");
            return a.kind == MG_ATTR_BOOL ? reinterpret_cast<const bool *>(&a.b) : nullptr;
        } else {
            static_assert(std::is_same_v<T, int64_t>, "attrs are int64_t, float or bool here");
            return a.kind == MG_ATTR_INT ? &a.i : nullptr;
        }
    }
    /* String and list attributes are not modelled: NULL, which tilings check. */
    const char *GetStr(size_t) const { return nullptr; }
    template <typename T = int64_t> const struct MgAbsentList *GetListInt(size_t) const { return nullptr; }
    template <typename T = float> const struct MgAbsentList *GetListFloat(size_t) const { return nullptr; }
    const int64_t *GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float *GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool *GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    size_t GetAttrNum() const { return run_->attr_num; }
    const mg_tiling_run *run_;
};

class TilingData {
public:
    void *GetData() { return run_->tiling; }
    const void *GetData() const { return run_->tiling; }
    size_t GetCapacity() const { return sizeof run_->tiling; }
    size_t GetDataSize() const { return run_->tiling_size; }
    void SetDataSize(size_t n) { run_->tiling_size = n > sizeof run_->tiling ? sizeof run_->tiling : n; }
    mg_tiling_run *run_;
};

/* A tiling context: input/output descriptions by index, platform, compile info, and the
   results (tiling data, block dim, tiling key, workspace sizes). Built by mg_optiling_run. */
class TilingContext {
public:
    explicit TilingContext(mg_tiling_run *run, const void *compile_info)
        : run_(run), compile_info_(compile_info)
    {
        platform_.p = run->platform;
        attrs_.run_ = run;
        data_.run_ = run;
        for (size_t i = 0; i < MG_MAX_IO; i++) {
            in_desc_[i].info_ = run->inputs[i];
            out_desc_[i].info_ = run->outputs[i];
            Fill(in_shape_[i], run->inputs[i]);
            Fill(out_shape_[i], run->outputs[i]);
            Fill(in_tensor_[i].MutableShape(), run->inputs[i]);
            /* Slots past input_num are not the caller's to fill: their bytes need not be
               enumerators, and loading one as an enum is undefined. */
            if (i >= run->input_num) continue;
            in_tensor_[i].SetDataType(static_cast<ge::DataType>(run->inputs[i].dtype));
            in_tensor_[i].SetFormat(static_cast<ge::Format>(run->inputs[i].format));
        }
    }
    /* An input's description as a tensor (its values are not modelled: exe_graph/runtime/tensor.h). */
    const Tensor *GetInputTensor(size_t i) const { return Present(i, true) ? &in_tensor_[i] : nullptr; }
    const Tensor *GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
    const StorageShape *GetInputShape(size_t i) const { return Present(i, true) ? &in_shape_[i] : nullptr; }
    const StorageShape *GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const StorageShape *GetDynamicInputShape(size_t i, size_t j) const { return GetInputShape(i + j); }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return Present(i, true) ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
    const StorageShape *GetOutputShape(size_t i) const { return Present(i, false) ? &out_shape_[i] : nullptr; }
    const CompileTimeTensorDesc *GetOutputDesc(size_t i) const { return Present(i, false) ? &out_desc_[i] : nullptr; }
    size_t GetComputeNodeInputNum() const { return run_->input_num; }
    size_t GetComputeNodeOutputNum() const { return run_->output_num; }
    const RuntimeAttrs *GetAttrs() const { return &attrs_; }
    fe::PlatFormInfos *GetPlatformInfo() { return &platform_; }
    template <typename T> const T *GetCompileInfo() const { return static_cast<const T *>(compile_info_); }
    TilingData *GetRawTilingData() { return &data_; }
    /* The tiling writes its struct in place; its size is what the kernel copies. */
    template <typename T> T *GetTilingData()
    {
        static_assert(sizeof(T) <= MG_TILING_CAPACITY, "tiling data larger than the modelled capacity");
        run_->tiling_size = sizeof(T);
        return reinterpret_cast<T *>(run_->tiling);
    }
    ge::graphStatus SetBlockDim(uint32_t n)
    {
        run_->block_dim = n;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return run_->block_dim; }
    ge::graphStatus SetTilingKey(uint64_t key)
    {
        run_->tiling_key = key;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return run_->tiling_key; }
    ge::graphStatus SetScheduleMode(uint32_t mode)
    {
        run_->schedule_mode = mode;
        return ge::GRAPH_SUCCESS;
    }
    /* CANN hands out `num` slots; asking for more than modelled gives NULL. */
    size_t *GetWorkspaceSizes(size_t num)
    {
        if (num > MG_MAX_WORKSPACES) return nullptr;
        if (num > run_->workspace_num) run_->workspace_num = num;
        return run_->workspaces;
    }
    size_t GetWorkspaceNum() const { return run_->workspace_num; }
    const char *GetNodeName() const { return run_->op_type; }
    const char *GetNodeType() const { return run_->op_type; }

private:
    bool Present(size_t i, bool input) const
    {
        return input ? i < run_->input_num && run_->inputs[i].present
                     : i < run_->output_num && run_->outputs[i].present;
    }
    static void Fill(StorageShape &s, const mg_tensor_info &t)
    {
        s.MutableOriginShape().c() = t.origin;
        s.MutableStorageShape().c() = t.storage;
    }
    mg_tiling_run *run_;
    const void *compile_info_;
    fe::PlatFormInfos platform_;
    RuntimeAttrs attrs_;
    TilingData data_;
    CompileTimeTensorDesc in_desc_[MG_MAX_IO], out_desc_[MG_MAX_IO];
    StorageShape in_shape_[MG_MAX_IO], out_shape_[MG_MAX_IO];
    Tensor in_tensor_[MG_MAX_IO];
};
} // namespace gert

#endif
