/* exe_graph/runtime/infer_datatype_context.h: gert::InferDataTypeContext. Registered
   InferDataType functions are accepted (the graph compiler calls them; aclnn does not). */
#ifndef MG_GERT_INFER_DATATYPE_CONTEXT_H_
#define MG_GERT_INFER_DATATYPE_CONTEXT_H_

#include "exe_graph/runtime/tiling_context.h"

namespace gert {
class InferDataTypeContext {
public:
    explicit InferDataTypeContext(mg_tiling_run *run) : run_(run) {}
    ge::DataType GetInputDataType(size_t i) const
    {
        return i < run_->input_num ? static_cast<ge::DataType>(run_->inputs[i].dtype) : ge::DT_UNDEFINED;
    }
    ge::DataType GetOptionalInputDataType(size_t i) const { return GetInputDataType(i); }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t)
    {
        if (i >= run_->output_num) return ge::GRAPH_FAILED;
        run_->outputs[i].dtype = t;
        return ge::GRAPH_SUCCESS;
    }
    ge::DataType GetOutputDataType(size_t i) const
    {
        return i < run_->output_num ? static_cast<ge::DataType>(run_->outputs[i].dtype) : ge::DT_UNDEFINED;
    }
    const RuntimeAttrs *GetAttrs() const { return nullptr; }
    const char *GetNodeName() const { return run_->op_type; }
    const char *GetNodeType() const { return run_->op_type; }

private:
    mg_tiling_run *run_;
};
} // namespace gert

#endif
