// opbuild/src/aicore_launcher.cpp: what CANN's build generates behind
// ADD_TO_LAUNCHER_LIST_AICORE. At phase 1 it runs the tiling registered for the op type on
// the tensors' shapes and dtypes, finds the kernel instantiation the tiling key selects
// (asc_twin_find by the OpDef's kernel file name), reserves the workspace the tiling asked
// for, and appends a step that runs the kernel through the twin when phase 2's plan runs
// on the stream. Installed into opdev at load (this file is linked as an object).
#include <cctype>
#include <cstring>
#include <memory>
#include <string>

#include "launch_step.h"
#include "mgrt.h"
#include "opdev_internal.h"

namespace {
std::string SnakeCase(const char *type)
{
    std::string r;
    for (const char *c = type; *c != '\0'; c++) {
        if (std::isupper(static_cast<unsigned char>(*c))) {
            if (c != type && (std::islower(static_cast<unsigned char>(c[-1])) ||
                              std::isdigit(static_cast<unsigned char>(c[-1]))))
                r += '_';
            r += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
        } else {
            r += *c;
        }
    }
    return r;
}

// A tensor of the kernel: its description for the tiling and its buffer for the step.
bool Describe(aclOpExecutor *executor, const aclTensor *t, bool written, const char *op_type, const char *role,
              size_t index, mg_tensor_info *info, nnop_buffer *buffer, aclnnStatus *status)
{
    op::mg::Place place;
    if ((*status = op::mg::Locate(executor, t, written, &place)) != ACLNN_SUCCESS) return false;
    if (!place.dense) {
        *status = mgrt_fail(ACLNN_ERR_INNER, "%s: %s %zu of %s is not contiguous (an AI-core kernel reads dense "
                            "data: l0op::Contiguous first)", op::mg::CurrentApi(), role, index, op_type);
        return false;
    }
    info->present = 1;
    info->dtype = static_cast<int>(place.view.dtype);
    info->format = static_cast<int>(t->GetStorageFormat());
    info->origin.dim_num = static_cast<size_t>(place.view.rank);
    for (int d = 0; d < place.view.rank; d++) info->origin.dims[d] = place.view.dims[d];
    info->storage = info->origin;
    *buffer = place.DenseData();
    return true;
}

aclnnStatus Launch(const char *op_type, aclOpExecutor *executor, const op::mg::InputArgs &in,
                   const op::mg::OutputArgs &out, const op::mg::AttrArgs &attrs)
{
    const char *api = op::mg::CurrentApi();
    const size_t n_in = in.tensors.size(), n_out = out.tensors.size();
    if (n_in > MG_MAX_IO || n_out > MG_MAX_IO || attrs.values.size() > MG_MAX_ATTRS ||
        n_in + n_out + 2 > MG_LAUNCH_MAX_ARGS)
        return mgrt_fail(ACLNN_ERR_INNER, "%s: %s has more inputs, outputs or attributes than modelled", api, op_type);
    auto run = std::make_unique<mg_tiling_run>();
    std::memset(run.get(), 0, sizeof *run);
    run->op_type = op_type;
    run->input_num = n_in;
    run->output_num = n_out;
    run->attr_num = attrs.values.size();
    for (size_t i = 0; i < attrs.values.size(); i++) run->attrs[i] = attrs.values[i];

    mg_launch_params params;
    std::memset(&params, 0, sizeof params);
    nnop_buffer buffers[NNOP_MAX_STEP_BUFFERS];
    uint32_t buffer_count = 0;
    aclnnStatus status = ACLNN_SUCCESS;
    int arg = 0;
    for (size_t i = 0; i < n_in + n_out; i++, arg++) {
        const bool output = i >= n_in;
        const aclTensor *t = output ? out.tensors[i - n_in] : in.tensors[i];
        mg_tensor_info *info = output ? &run->outputs[i - n_in] : &run->inputs[i];
        params.arg_buffer[arg] = -1;
        if (t == nullptr) continue; // an optional input left out: GetInputShape gives NULL, the kernel NULL
        nnop_buffer b;
        if (!Describe(executor, t, false, op_type, output ? "output" : "input", output ? i - n_in : i, info, &b,
                      &status))
            return status;
        if (buffer_count == NNOP_MAX_STEP_BUFFERS - 1)
            return mgrt_fail(ACLNN_ERR_INNER, "%s: %s has more tensors than a step holds", api, op_type);
        params.arg_buffer[arg] = static_cast<int8_t>(buffer_count);
        buffers[buffer_count++] = b;
    }

    char message[512];
    int rc = mg_optiling_run(run.get(), message, sizeof message);
    if (rc != 0) return mgrt_fail(ACLNN_ERR_INNER_TILING_ERROR, "%s: %s", api, message);
    const char *file = mg_opdef_kernel_file(op_type);
    std::string kernel_name = file != nullptr ? file : SnakeCase(op_type);
    // the kernel of an <op>_apt.cpp file (ops-nn's arch35 kernels) is <op>
    if (kernel_name.size() > 4 && kernel_name.compare(kernel_name.size() - 4, 4, "_apt") == 0)
        kernel_name.resize(kernel_name.size() - 4);
    // a kernel compiled once per dtype combination (DTYPE_<PARAM> macros) is registered as
    // <kernel>__<the ge dtypes of its required inputs and its outputs> (an optional input,
    // which may be left out, is not in the name): that instantiation first
    std::string combination = kernel_name + "_";
    for (size_t i = 0; i < n_in + n_out; i++) {
        if (i < n_in && mg_opdef_input_optional(op_type, i)) continue;
        const mg_tensor_info &t = i < n_in ? run->inputs[i] : run->outputs[i - n_in];
        combination += "_" + (t.present ? std::to_string(t.dtype) : std::string("x"));
    }
    const asc_twin_kernel *kernel = asc_twin_find(combination.c_str(), run->tiling_key);
    if (kernel != nullptr) kernel_name = combination;
    if (kernel == nullptr) kernel = asc_twin_find(kernel_name.c_str(), run->tiling_key);
    if (kernel == nullptr)
        return mgrt_fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                         "%s: no kernel %s for tiling key %llu of %s (is its op_kernel built, and does its "
                         "ASCENDC_TPL_SEL list the key?)",
                         api, kernel_name.c_str(), static_cast<unsigned long long>(run->tiling_key), op_type);
    const int expected = static_cast<int>(n_in + n_out) + 2;
    if (kernel->nargs != expected)
        return mgrt_fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                         "%s: kernel %s takes %d GM arguments, but %s launches it with %zu inputs and %zu outputs "
                         "(+ workspace, tiling = %d)",
                         api, kernel_name.c_str(), kernel->nargs, op_type, n_in, n_out, expected);
    if (run->tiling_size > MG_LAUNCH_TILING_CAPACITY)
        return mgrt_fail(ACLNN_ERR_INNER_TILING_ERROR, "%s: %s's tiling data is %zu bytes, more than the %d modelled",
                         api, op_type, run->tiling_size, MG_LAUNCH_TILING_CAPACITY);

    // the workspace: every size the tiling asked for, one region the kernel's workspace points to
    uint64_t workspace = 0;
    for (size_t i = 0; i < run->workspace_num; i++) workspace += run->workspaces[i];
    params.arg_buffer[arg] = -1;
    if (workspace > 0) {
        params.arg_buffer[arg] = static_cast<int8_t>(buffer_count);
        buffers[buffer_count++] = nnop_executor_reserve_workspace(executor, workspace);
    }
    arg++;
    params.arg_buffer[arg++] = -1; // the tiling: the twin's copy
    params.kernel = kernel;
    params.block_dim = run->block_dim;
    params.nargs = arg;
    params.tiling_size = static_cast<uint32_t>(run->tiling_size);
    std::memcpy(params.tiling, run->tiling, run->tiling_size);
    uint64_t elements = 0;
    for (size_t i = 0; i < n_out; i++) {
        int64_t n = 1;
        for (size_t d = 0; d < run->outputs[i].origin.dim_num; d++) n *= run->outputs[i].origin.dims[d];
        elements += static_cast<uint64_t>(n);
    }
    return nnop_executor_add_step(executor, op_type, mg_launch_step, &params, mg_launch_params_size(&params), buffers,
                                  buffer_count, elements);
}

struct Installer {
    Installer() { op::mg::SetAiCoreLauncher(Launch); }
} installer;
} // namespace
