// opdev/src/executor.cpp: UniqueExecutor and the plan's bookkeeping over libnnopbase's
// executor: which tensor lives where (a caller's slot or a workspace region), the
// intermediates opdev created (destroyed with the executor), the host tensors'
// values (ConvertToTensor), the DFX names, phase 2.
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "l0_kernels.h"
#include "mgrt.h"
#include "opdev_internal.h"

namespace op {
namespace mg {
namespace {
struct HostTensor {
    const aclTensor *tensor;
    std::vector<unsigned char> bytes; // the values in the tensor's dtype
    bool planned;                     // the step writing them into the workspace is added
};
struct ExecState {
    std::vector<std::pair<std::pair<const aclTensor *, bool>, Place>> places;
    std::vector<HostTensor> hosts;
    std::vector<aclTensor *> owned;
    std::vector<aclIntArray *> arrays; // AllocIntArray's, destroyed with the executor
    std::deque<std::string> names; // slot names must outlive the executor's use of them
};

void FreeState(void *p)
{
    auto *state = static_cast<ExecState *>(p);
    for (aclTensor *t : state->owned) aclDestroyTensor(t);
    for (aclIntArray *a : state->arrays) aclDestroyIntArray(a);
    delete state;
}

ExecState *StateOf(aclOpExecutor *executor)
{
    return static_cast<ExecState *>(nnop_executor_attachment(executor));
}

// The state of a live executor; nullptr, with the message set, for one that is not.
ExecState *LiveState(aclOpExecutor *executor)
{
    ExecState *state = StateOf(executor);
    if (state == nullptr) mgrt_fail(ACLNN_ERR_INNER_NULLPTR, "%s: the executor is not live", CurrentApi());
    return state;
}

thread_local const char *current_api = "aclnn";
thread_local std::vector<std::pair<const aclTensor *, std::string>> dfx_names;
AiCoreLauncher launcher = nullptr;

void FillDenseView(nnop_view *v, const Shape &in, DataType dtype)
{
    // dense: more dims than a view holds read as one dim of all the elements
    Shape shape = in;
    if (in.GetDimNum() > NNOP_MAX_RANK) shape = Shape{in.GetShapeSize()};
    std::memset(v, 0, sizeof *v);
    v->rank = static_cast<int>(shape.GetDimNum());
    v->dtype = static_cast<aclDataType>(dtype);
    v->elem_size = mg_dtype_size(dtype);
    v->numel = shape.GetShapeSize();
    int64_t stride = 1;
    for (int i = v->rank; i-- > 0;) {
        v->dims[i] = shape.GetDim(static_cast<size_t>(i));
        v->strides[i] = stride;
        stride *= v->dims[i];
    }
    v->min_elem = 0;
    v->max_elem = v->numel > 0 ? v->numel - 1 : 0;
    v->storage_elems = v->numel;
    v->contiguous = 1;
}
} // namespace

void DfxBegin(const char *api)
{
    current_api = api;
    dfx_names.clear();
}
const char *CurrentApi() { return current_api; }
void DfxName(const aclTensor *t, const char *name, size_t length)
{
    if (t != nullptr) dfx_names.emplace_back(t, std::string(name, length));
}
const char *NameOf(const aclTensor *t)
{
    for (auto &n : dfx_names)
        if (n.first == t) return n.second.c_str();
    return "tensor";
}

void SetAiCoreLauncher(AiCoreLauncher l) { launcher = l; }

aclnnStatus LaunchAiCore(const char *op_type, aclOpExecutor *executor, const InputArgs &in, const OutputArgs &out,
                         const AttrArgs &attrs)
{
    if (launcher == nullptr)
        return mgrt_fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                         "%s: no AI-core launcher is linked for %s (opbuild's library is missing)", CurrentApi(),
                         op_type);
    return launcher(op_type, executor, in, out, attrs);
}

aclnnStatus Locate(aclOpExecutor *executor, const aclTensor *t, bool written, Place *place)
{
    ExecState *state = LiveState(executor);
    if (state == nullptr) return ACLNN_ERR_INNER_NULLPTR;
    for (auto &p : state->places)
        if (p.first.first == t && (p.first.second == written || p.second.buffer.kind == NNOP_BUFFER_WORKSPACE)) {
            *place = p.second;
            // A host tensor read by a step: its values are written into its workspace place
            // at phase 2, before that step (once; steps run in the order added).
            // Its values are the host's: no step may write it, before or after it was read.
            for (auto &h : state->hosts) {
                if (h.tensor != t) continue;
                if (written) {
                    return mgrt_fail(ACLNN_ERR_INNER, "%s: a host tensor (ConvertToTensor) is written by a step",
                                     CurrentApi());
                }
                if (!h.planned) {
                    mg_const_params c;
                    std::memset(&c, 0, sizeof c);
                    c.nbytes = static_cast<uint32_t>(h.bytes.size());
                    if (!h.bytes.empty()) std::memcpy(c.bytes, h.bytes.data(), h.bytes.size());
                    nnop_buffer b = p.second.buffer;
                    const aclnnStatus added =
                        nnop_executor_add_step(executor, "ConvertToTensor", mg_const_step, &c,
                                               static_cast<uint32_t>(sizeof c.nbytes + c.nbytes), &b, 1, c.nbytes);
                    if (added != ACLNN_SUCCESS) return added;
                    h.planned = true;
                }
            }
            return ACLNN_SUCCESS;
        }
    state->names.emplace_back(NameOf(t));
    const char *name = state->names.back().c_str();
    nnop_view view;
    nnop_tensor_snapshot snap;
    aclnnStatus status = nnop_tensor_snapshot_of(t, CurrentApi(), name, &snap);
    if (status != ACLNN_SUCCESS) return status;
    if (snap.rank > NNOP_MAX_RANK) {
        // More dims than a plan's view holds (ops-nn's op_apis take up to 25 and flatten them
        // for their kernels): the same elements in fewer dims when they collapse to that many;
        // otherwise validation refuses the rank as before.
        std::vector<int64_t> dims, strides;
        if (FullView(t, &dims, &strides) && CollapseView(&dims, &strides)) {
            snap.rank = dims.size();
            for (size_t i = 0; i < dims.size(); i++) {
                snap.dims[i] = dims[i];
                snap.strides[i] = strides[i];
            }
        }
    }
    status = nnop_view_from_snapshot(&snap, CurrentApi(), name, &view);
    if (status != ACLNN_SUCCESS) return status;
    nnop_buffer_kind kind = written ? NNOP_BUFFER_OUTPUT : NNOP_BUFFER_INPUT;
    int index = nnop_executor_bind(executor, kind, t, name);
    if (index < 0) return ACLNN_ERR_INNER;
    nnop_executor_set_view(executor, kind, static_cast<uint32_t>(index), &view, view.contiguous);
    Place p;
    p.buffer = nnop_buffer{kind, static_cast<uint32_t>(index), 0};
    p.view = view;
    p.dense = view.contiguous != 0;
    state->places.push_back({{t, written}, p});
    *place = p;
    return ACLNN_SUCCESS;
}

aclTensor *NewTensor(aclOpExecutor *executor, const Shape &shape, DataType dtype, Format format, const Place *alias)
{
    ExecState *state = LiveState(executor);
    if (state == nullptr) return nullptr;
    if (shape.GetShapeSize() < 0 || mg_dtype_size(dtype) <= 0) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: cannot plan a %s tensor of shape %s (no element count or size)",
                  CurrentApi(), mg_dtype_name(dtype), ToString(shape).GetString());
        return nullptr;
    }
    size_t n = shape.GetDimNum();
    std::vector<int64_t> dims(n ? n : 1), strides(n ? n : 1);
    int64_t stride = 1;
    for (size_t i = n; i-- > 0;) {
        dims[i] = shape.GetDim(i);
        strides[i] = stride;
        stride *= dims[i];
    }
    aclTensor *t = aclCreateTensor(dims.data(), n, static_cast<aclDataType>(dtype), strides.data(), 0,
                                   static_cast<aclFormat>(format), dims.data(), n, nullptr);
    if (t == nullptr) return nullptr;
    state->owned.push_back(t);
    Place p;
    FillDenseView(&p.view, shape, dtype);
    p.dense = true;
    if (alias != nullptr) {
        p.buffer = alias->DenseData();
    } else {
        p.buffer = nnop_executor_reserve_workspace(executor,
                                                   static_cast<uint64_t>(p.view.numel * p.view.elem_size));
    }
    state->places.push_back({{t, false}, p});
    return t;
}

const std::vector<unsigned char> *HostValues(aclOpExecutor *executor, const aclTensor *t)
{
    ExecState *state = StateOf(executor);
    if (state == nullptr) return nullptr;
    for (auto &h : state->hosts)
        if (h.tensor == t) return &h.bytes;
    return nullptr;
}
} // namespace mg
} // namespace op

UniqueExecutor::UniqueExecutor(const char *func)
{
    (void)func; // the API name DFX recorded names the executor, not the inner function
    executor_ = nnop_executor_create(op::mg::CurrentApi(), nullptr, 0, nullptr, 0, nullptr);
    if (executor_ != nullptr) nnop_executor_attach(executor_, new op::mg::ExecState(), op::mg::FreeState);
}

UniqueExecutor::~UniqueExecutor()
{
    if (executor_ != nullptr) nnop_executor_abandon(executor_);
}

aclTensor *aclOpExecutor::AllocTensor(const op::Shape &shape, op::DataType dtype, op::Format format)
{
    return op::mg::NewTensor(this, shape, dtype, format, nullptr);
}

aclTensor *aclOpExecutor::AllocTensor(const op::Shape &storage, const op::Shape &, op::DataType dtype,
                                      op::Format storageFormat, op::Format)
{
    return op::mg::NewTensor(this, storage, dtype, storageFormat, nullptr);
}

aclTensor *aclOpExecutor::AllocTensor(op::DataType dtype, op::Format storageFormat, op::Format)
{
    return op::mg::NewTensor(this, op::Shape{}, dtype, storageFormat, nullptr);
}

aclIntArray *aclOpExecutor::AllocIntArray(const int64_t *value, uint64_t size)
{
    // Owned by the executor: without a live one nobody would destroy it.
    op::mg::ExecState *state = op::mg::LiveState(this);
    if (state == nullptr) return nullptr;
    aclIntArray *a = aclCreateIntArray(value, size);
    if (a != nullptr) state->arrays.push_back(a);
    return a;
}

const aclTensor *aclOpExecutor::ConvertHostValues(const void *values, uint64_t size, op::DataType from,
                                                  op::DataType to, bool scalar)
{
    op::mg::ExecState *state = op::mg::StateOf(this);
    const int elem = mg_cast_elem_size(static_cast<int>(to));
    if (state == nullptr || (values == nullptr && size > 0)) {
        mgrt_fail(ACLNN_ERR_INNER_NULLPTR, "%s: ConvertToTensor without values or a live executor",
                  op::mg::CurrentApi());
        return nullptr;
    }
    if (elem == 0 || mg_cast_elem_size(static_cast<int>(from)) == 0) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: ConvertToTensor from %s to %s is not modelled", op::mg::CurrentApi(),
                  mg_dtype_name(from), mg_dtype_name(to));
        return nullptr;
    }
    if (size > MG_CONST_MAX_BYTES / static_cast<uint64_t>(elem)) {
        mgrt_fail(ACLNN_ERR_INNER, "%s: ConvertToTensor of %llu %s values (more than %d bytes) is not modelled",
                  op::mg::CurrentApi(), static_cast<unsigned long long>(size), mg_dtype_name(to), MG_CONST_MAX_BYTES);
        return nullptr;
    }
    std::vector<unsigned char> bytes(static_cast<size_t>(size) * static_cast<size_t>(elem));
    if (size > 0 && mg_convert_values(static_cast<int>(from), values, static_cast<int>(to), bytes.data(),
                                      static_cast<int64_t>(size)) != 0)
        return nullptr;
    op::Shape shape;
    if (!scalar) shape.AppendDim(static_cast<int64_t>(size));
    aclTensor *t = op::mg::NewTensor(this, shape, to, ge::FORMAT_ND, nullptr);
    if (t == nullptr) return nullptr;
    state->hosts.push_back(op::mg::HostTensor{t, std::move(bytes), false});
    return t;
}

const aclTensor *aclOpExecutor::ConvertToTensor(const aclIntArray *value, op::DataType dataType)
{
    if (value == nullptr) return ConvertHostValues(nullptr, 1, ge::DT_INT64, dataType);
    std::vector<int64_t> v = value->ToVector();
    return ConvertHostValues(v.data(), v.size(), ge::DT_INT64, dataType);
}

const aclTensor *aclOpExecutor::ConvertToTensor(const aclScalar *value, op::DataType dataType)
{
    if (value == nullptr) return ConvertHostValues(nullptr, 1, ge::DT_DOUBLE, dataType, true);
    const double v = value->ToDouble();
    return ConvertHostValues(&v, 1, ge::DT_DOUBLE, dataType, true);
}

uint64_t aclOpExecutor::GetWorkspaceSize() { return nnop_executor_workspace_size(this); }

aclnnStatus CommonOpExecutorRun(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    return nnop_executor_launch(op::mg::CurrentApi(), workspace, workspaceSize, executor, stream);
}
