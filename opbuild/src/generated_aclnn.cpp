// opbuild/src/generated_aclnn.cpp: the body of every aclnn entry opbuild generates from an
// OpDef (opbuild/generated_aclnn.h). Phase 1 refuses what the definition does not allow,
// then plans Contiguous -> the operator's kernel (the AI-core launcher) -> ViewCopy; phase 2
// is the common executor run.
#include "opbuild/generated_aclnn.h"

#include <cstring>
#include <string>
#include <vector>

#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "optiling/mg_optiling.h"

namespace opbuild {
namespace {
std::string ShapeText(const op::Shape &s)
{
    std::string r = "[";
    for (size_t i = 0; i < s.GetDimNum(); i++) r += (i ? "," : "") + std::to_string(s.GetDim(i));
    return r + "]";
}

std::string ShapeText(const mg_shape &s)
{
    std::string r = "[";
    for (size_t i = 0; i < s.dim_num; i++) r += (i ? "," : "") + std::to_string(s.dims[i]);
    return r + "]";
}

// The first dtype combination of the definition every present tensor matches, or -1.
long Combination(const GenOp &op, const aclTensor *const *inputs, const aclTensor *const *outputs)
{
    for (size_t c = 0; c < op.combinations; c++) {
        bool ok = true;
        for (size_t i = 0; ok && i < op.input_num; i++)
            ok = inputs[i] == nullptr || static_cast<int>(inputs[i]->GetDataType()) == op.inputs[i].dtypes[c];
        for (size_t i = 0; ok && i < op.output_num; i++)
            ok = static_cast<int>(outputs[i]->GetDataType()) == op.outputs[i].dtypes[c];
        if (ok) return static_cast<long>(c);
    }
    return -1;
}

std::string DtypeText(const GenOp &op, const aclTensor *const *inputs, const aclTensor *const *outputs)
{
    std::string r;
    for (size_t i = 0; i < op.input_num; i++)
        if (inputs[i] != nullptr)
            r += std::string(r.empty() ? "" : ", ") + op.inputs[i].name + " " +
                 mg_dtype_name(static_cast<int>(inputs[i]->GetDataType()));
    for (size_t i = 0; i < op.output_num; i++)
        r += std::string(", ") + op.outputs[i].name + " " + mg_dtype_name(static_cast<int>(outputs[i]->GetDataType()));
    return r;
}

void Describe(const aclTensor *t, mg_tensor_info *info)
{
    info->present = t != nullptr;
    if (t == nullptr) return;
    info->dtype = static_cast<int>(t->GetDataType());
    info->format = static_cast<int>(t->GetStorageFormat());
    const op::Shape s = t->GetViewShape();
    info->origin.dim_num = s.GetDimNum();
    for (size_t d = 0; d < s.GetDimNum() && d < MG_MAX_DIMS; d++) info->origin.dims[d] = s.GetDim(d);
    info->storage = info->origin;
}

// The definition's infershape (when it registered one) on the inputs: each output must
// have the shape it gives.
aclnnStatus CheckShapes(const GenOp &op, const aclTensor *const *inputs, const aclTensor *const *outputs)
{
    if (op.input_num > MG_MAX_IO || op.output_num > MG_MAX_IO) return ACLNN_SUCCESS;
    std::vector<unsigned char> raw(sizeof(mg_tiling_run), 0);
    auto *run = reinterpret_cast<mg_tiling_run *>(raw.data());
    run->op_type = op.type;
    run->input_num = op.input_num;
    run->output_num = op.output_num;
    for (size_t i = 0; i < op.input_num; i++) Describe(inputs[i], &run->inputs[i]);
    for (size_t i = 0; i < op.output_num; i++) Describe(outputs[i], &run->outputs[i]);
    char message[256];
    const int rc = mg_optiling_infer_shape(run, message, sizeof message);
    if (rc < 0) return ACLNN_SUCCESS; // no infershape registered: the tiling sees the outputs as given
    if (rc > 0) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s: %s", op.api, message);
        return ACLNN_ERR_PARAM_INVALID;
    }
    for (size_t i = 0; i < op.output_num; i++) {
        const op::Shape given = outputs[i]->GetViewShape();
        const mg_shape &want = run->outputs[i].storage;
        bool same = given.GetDimNum() == want.dim_num;
        for (size_t d = 0; same && d < want.dim_num; d++) same = given.GetDim(d) == want.dims[d];
        if (!same) {
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, but %s's infershape gives %s", op.api,
                    op.outputs[i].name, ShapeText(given).c_str(), op.type, ShapeText(want).c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    return ACLNN_SUCCESS;
}
} // namespace

aclnnStatus GeneratedPhase1(const GenOp &op, const aclTensor *const *inputs, const aclTensor *const *outputs,
                            const GenValue *attrs, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    op::mg::DfxBegin(op.api);
    for (size_t i = 0; i < op.input_num; i++)
        if (inputs[i] != nullptr) op::mg::DfxName(inputs[i], op.inputs[i].name, std::strlen(op.inputs[i].name));
    for (size_t i = 0; i < op.output_num; i++)
        if (outputs[i] != nullptr) op::mg::DfxName(outputs[i], op.outputs[i].name, std::strlen(op.outputs[i].name));
    UniqueExecutor unique(op.api);
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    for (size_t i = 0; i < op.input_num; i++)
        if (inputs[i] == nullptr && !op.inputs[i].optional) {
            OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is nullptr (a required input of %s)", op.api, op.inputs[i].name,
                    op.type);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    for (size_t i = 0; i < op.output_num; i++)
        if (outputs[i] == nullptr) {
            OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is nullptr", op.api, op.outputs[i].name);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    for (size_t i = 0; i < op.attr_num; i++)
        if (op.attrs[i].kind == GEN_UNSUPPORTED) {
            // string and list attributes do not reach a tiling here (mg_attr holds numbers)
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s: attribute %s of %s is a string or list attribute, which the "
                    "launcher does not model", op.api, op.attrs[i].name, op.type);
            return ACLNN_ERR_PARAM_INVALID;
        }
    if (Combination(op, inputs, outputs) < 0) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s: the dtypes (%s) are not a combination %s's definition lists", op.api,
                DtypeText(op, inputs, outputs).c_str(), op.type);
        return ACLNN_ERR_PARAM_INVALID;
    }
    aclnnStatus status = CheckShapes(op, inputs, outputs);
    CHECK_RET(status == ACLNN_SUCCESS, status);
    bool empty = false;
    for (size_t i = 0; i < op.output_num; i++) empty = empty || outputs[i]->IsEmpty();
    for (size_t i = 0; i < op.input_num; i++) empty = empty || (inputs[i] != nullptr && inputs[i]->IsEmpty());
    if (empty) { // nothing to compute (the outputs, if not empty, are left as they are, as in CANN)
        *workspaceSize = 0;
        unique.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    op::mg::InputArgs in;
    for (size_t i = 0; i < op.input_num; i++) {
        const aclTensor *dense = inputs[i] == nullptr ? nullptr : l0op::Contiguous(inputs[i], unique.get());
        CHECK_RET(inputs[i] == nullptr || dense != nullptr, ACLNN_ERR_INNER_NULLPTR);
        in.tensors.push_back(dense);
    }
    op::mg::OutputArgs out;
    for (size_t i = 0; i < op.output_num; i++) {
        aclTensor *y = unique->AllocTensor(outputs[i]->GetViewShape(), outputs[i]->GetDataType(),
                                           outputs[i]->GetStorageFormat());
        CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
        out.tensors.push_back(y);
    }
    op::mg::AttrArgs values;
    for (size_t i = 0; i < op.attr_num; i++) {
        switch (op.attrs[i].kind) {
        case GEN_FLOAT: values.values.push_back(op::mg::MakeAttr(attrs[i].f)); break;
        case GEN_INT: values.values.push_back(op::mg::MakeAttr(attrs[i].i)); break;
        default: values.values.push_back(op::mg::MakeAttr(attrs[i].b)); break;
        }
    }
    status = op::mg::LaunchAiCore(op.type, unique.get(), in, out, values);
    CHECK_RET(status == ACLNN_SUCCESS, status);
    for (size_t i = 0; i < op.output_num; i++)
        CHECK_RET(l0op::ViewCopy(out.tensors[i], outputs[i], unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus GeneratedPhase2(const GenOp &op, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                            aclrtStream stream)
{
    op::mg::DfxBegin(op.api);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
} // namespace opbuild
