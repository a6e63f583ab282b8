/* exe_graph/runtime/infer_shape_context.h: gert::InferShapeContext over one mg_tiling_run:
   inputs' storage shapes in, outputs' storage shapes out. */
#ifndef MG_GERT_INFER_SHAPE_CONTEXT_H_
#define MG_GERT_INFER_SHAPE_CONTEXT_H_

#include "exe_graph/runtime/tiling_context.h"

namespace gert {
class InferShapeContext {
public:
    explicit InferShapeContext(mg_tiling_run *run) : run_(run)
    {
        attrs_.run_ = run;
        for (size_t i = 0; i < MG_MAX_IO; i++) {
            in_[i].c() = run->inputs[i].storage;
            out_[i].c() = run->outputs[i].storage;
        }
    }
    ~InferShapeContext() = default;
    const Shape *GetInputShape(size_t i) const
    {
        return i < run_->input_num && run_->inputs[i].present ? &in_[i] : nullptr;
    }
    const Shape *GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    Shape *GetOutputShape(size_t i) { return i < run_->output_num ? &out_[i] : nullptr; }
    const RuntimeAttrs *GetAttrs() const { return &attrs_; }
    const char *GetNodeName() const { return run_->op_type; }
    const char *GetNodeType() const { return run_->op_type; }
    /* Copies the outputs back into the run (mg_optiling_infer_shape). */
    void Commit()
    {
        for (size_t i = 0; i < run_->output_num && i < MG_MAX_IO; i++) run_->outputs[i].storage = out_[i].c();
    }

private:
    mg_tiling_run *run_;
    RuntimeAttrs attrs_;
    Shape in_[MG_MAX_IO], out_[MG_MAX_IO];
};
} // namespace gert

#endif
