/*
 * nnopbase/op_executor.c: aclOpExecutor, the plan phase 1 builds and phase 2 queues.
 *
 * A program holds a registry token (runtime/mgrt_handle.h), never the executor's address,
 * so a stale handle is recognised whatever the allocator reuses (issue 10, defect 1), and
 * each call pins the executor while it uses it, so a destroy racing a launch waits for the
 * launch to let go (defect 2). Phase 2 copies the plan into a task with every buffer
 * resolved to the addresses it checked (a snapshot taken under the executor's lock, so a
 * racing aclSetOutputTensorAddr cannot slip a new address in between), and holds a pin on
 * each memory block from its checks until the task is queued (defect 3): the queued work
 * never looks at the executor again. A single-use executor is released by its phase 2.
 */
#include <pthread.h>
#include <stdalign.h>
#include <string.h>

#include "mg_strided.h"
#include "mgrt.h"
#include "nnop.h"
#include "nnop_internal.h"

_Static_assert(NNOP_MAX_RANK <= MGRT_ACCESS_MAX_RANK, "a view's dims must fit a runtime access");

/* opdev's l0 ops (Contiguous per input, Cast, the kernel, ViewCopy) need more room than the
   built-in operators: 8 slots a side, 16 steps. */
#define MAX_SLOTS 8
#define MAX_STEPS 16
#define WORKSPACE_ALIGNMENT 64

typedef struct plan_step {
    nnop_step_fn fn;
    const char *name;
    uint32_t buffer_count;
    uint32_t params_size;
    nnop_buffer buffers[NNOP_MAX_STEP_BUFFERS];
    alignas(16) unsigned char params[NNOP_MAX_STEP_PARAMS];
} plan_step;

/* What phase 2 queues: the steps with their buffers resolved. */
typedef struct launch_task {
    uint32_t step_count;
    void *resolved[MAX_STEPS][NNOP_MAX_STEP_BUFFERS];
    plan_step steps[];
} launch_task;

typedef struct slot {
    const char *name;
    const aclTensor *tensor;    /* the handle phase 1 bound */
    void *data;                 /* the address phase 2 uses (executor lock) */
    nnop_view view;
    int has_view;
    int direct;
} slot;

typedef struct executor {
    nnop_lock lock;             /* slots' data, repeatable, launched */
    const char *op_name;
    int repeatable;
    int launched;               /* it has run: too late to make it repeatable */
    uint32_t input_count, output_count;
    slot inputs[MAX_SLOTS];
    slot outputs[MAX_SLOTS];
    uint64_t workspace_size;
    uint64_t work_elements;     /* summed over the steps: the plan's cost */
    uint32_t step_count;
    plan_step steps[MAX_STEPS];
    void *attachment;           /* opdev's per-executor state, freed with the executor */
    void (*attachment_free)(void *);
} executor;

static void destroy_executor(void *object) {
    executor *e = object;
    if (e->attachment_free != NULL) e->attachment_free(e->attachment);
    nnop_lock_destroy(&e->lock);
    mgrt_free(e);
}

static executor *pin(const aclOpExecutor *handle) { return mgrt_handle_pin(handle, MGRT_HANDLE_EXECUTOR); }
static void unpin(const aclOpExecutor *handle) { mgrt_handle_unpin(handle); }

/* 161002 for an executor handle that does not resolve, naming why. */
/* `hint` explains how an executor goes stale, so it follows only a stale one: a handle of
   another kind, or none at all, is a different mistake. */
static aclnnStatus not_live(const char *api, const aclOpExecutor *handle, const char *stale_hint) {
    const int stale = mgrt_handle_state_of(handle, MGRT_HANDLE_EXECUTOR) == MGRT_HANDLE_STALE;
    return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: executor (aclOpExecutor %p) %s%s", api,
                        (const void *)handle, mgrt_handle_describe(handle, MGRT_HANDLE_EXECUTOR),
                        stale ? stale_hint : "");
}

/* ---- phase 1: building the plan --------------------------------------------------- */

/* A slot starts empty but for its tensor, its name and the tensor's address now: no view
   until nnop_executor_set_view records one (a slot without a view gives the runtime nothing
   to check). */
static void slot_bind(slot *s, const aclTensor *tensor, const char *name) {
    memset(s, 0, sizeof *s);
    s->name = name;
    s->tensor = tensor;
    nnop_tensor *t = nnop_tensor_pin(tensor);
    if (t != NULL) {
        s->data = atomic_load_explicit(&t->data, memory_order_relaxed);
        nnop_tensor_unpin(tensor);
    }
}

aclOpExecutor *nnop_executor_create(const char *op_name, const aclTensor *const *inputs, uint32_t input_count,
                                    aclTensor *const *outputs, uint32_t output_count, const char *const *names) {
    if (input_count > MAX_SLOTS || output_count > MAX_SLOTS) {
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: too many tensors for one executor", op_name);
        return NULL;
    }
    executor *e = mgrt_calloc(1, sizeof *e);
    if (e == NULL) {
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory creating the executor (an allocation failed)",
                  op_name);
        return NULL;
    }
    nnop_lock_init(&e->lock);
    e->op_name = op_name;
    e->input_count = input_count;
    e->output_count = output_count;
    for (uint32_t i = 0; i < input_count + output_count; i++) {
        slot *s = i < input_count ? &e->inputs[i] : &e->outputs[i - input_count];
        slot_bind(s, i < input_count ? inputs[i] : outputs[i - input_count], names[i]);
    }
    aclOpExecutor *handle = mgrt_handle_register(MGRT_HANDLE_EXECUTOR, e, destroy_executor);
    if (handle == NULL) {
        destroy_executor(e);
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory registering the executor (an allocation failed)",
                  op_name);
    }
    return handle;
}

int nnop_executor_bind(aclOpExecutor *handle, nnop_buffer_kind kind, const aclTensor *tensor, const char *name) {
    executor *e = pin(handle);
    if (e == NULL) return -1;
    int index = -1;
    nnop_lock_take(&e->lock);
    uint32_t *count = kind == NNOP_BUFFER_INPUT ? &e->input_count : &e->output_count;
    if (kind != NNOP_BUFFER_WORKSPACE && *count < MAX_SLOTS) {
        slot_bind(kind == NNOP_BUFFER_INPUT ? &e->inputs[*count] : &e->outputs[*count], tensor, name);
        index = (int)(*count)++;
    }
    nnop_lock_give(&e->lock);
    if (index < 0) mgrt_fail(ACLNN_ERR_INNER, "%s: more than %d %s tensors for one executor", e->op_name, MAX_SLOTS,
                             kind == NNOP_BUFFER_INPUT ? "input" : "output");
    unpin(handle);
    return index;
}

void nnop_executor_attach(aclOpExecutor *handle, void *attachment, void (*attachment_free)(void *)) {
    executor *e = pin(handle);
    if (e == NULL) {
        if (attachment_free != NULL) attachment_free(attachment);
        return;
    }
    e->attachment = attachment;
    e->attachment_free = attachment_free;
    unpin(handle);
}

void *nnop_executor_attachment(const aclOpExecutor *handle) {
    executor *e = pin(handle);
    if (e == NULL) return NULL;
    void *attachment = e->attachment;
    unpin(handle);
    return attachment;
}

void nnop_executor_abandon(aclOpExecutor *handle) {
    if (handle != NULL) mgrt_handle_release(handle, MGRT_HANDLE_EXECUTOR);
}

void nnop_executor_set_view(aclOpExecutor *handle, nnop_buffer_kind kind, uint32_t index, const nnop_view *view,
                            int direct) {
    executor *e = pin(handle);
    if (e == NULL) return;
    if (index < (kind == NNOP_BUFFER_INPUT ? e->input_count : e->output_count)) {
        slot *s = kind == NNOP_BUFFER_INPUT ? &e->inputs[index] : &e->outputs[index];
        nnop_lock_take(&e->lock);
        s->view = *view;
        s->data = view->data; /* the address phase 1 validated, not a later read of the tensor */
        s->has_view = 1;
        s->direct = direct;
        nnop_lock_give(&e->lock);
    }
    unpin(handle);
}

nnop_buffer nnop_executor_reserve_workspace(aclOpExecutor *handle, uint64_t bytes) {
    nnop_buffer buffer = {NNOP_BUFFER_WORKSPACE, 0, 0};
    executor *e = pin(handle);
    if (e == NULL) return buffer;
    buffer.byte_offset = e->workspace_size;
    e->workspace_size += (bytes + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT * WORKSPACE_ALIGNMENT;
    unpin(handle);
    return buffer;
}

aclnnStatus nnop_executor_add_step(aclOpExecutor *handle, const char *step_name, nnop_step_fn fn, const void *params,
                                   uint32_t params_size, const nnop_buffer *buffers, uint32_t buffer_count,
                                   uint64_t elements) {
    executor *e = pin(handle);
    if (e == NULL) return mgrt_fail(ACLNN_ERR_INNER, "step %s: the executor is not live", step_name);
    aclnnStatus status = ACLNN_SUCCESS;
    if (e->step_count == MAX_STEPS || params_size > NNOP_MAX_STEP_PARAMS || buffer_count > NNOP_MAX_STEP_BUFFERS) {
        status = mgrt_fail(ACLNN_ERR_INNER, "%s: step %s does not fit the executor", e->op_name, step_name);
    } else {
        plan_step *step = &e->steps[e->step_count++];
        step->fn = fn;
        step->name = step_name;
        step->params_size = params_size;
        step->buffer_count = buffer_count;
        if (params_size > 0) memcpy(step->params, params, params_size);
        if (buffer_count > 0) memcpy(step->buffers, buffers, buffer_count * sizeof *buffers);
        e->work_elements += elements;
    }
    unpin(handle);
    return status;
}

uint64_t nnop_executor_workspace_size(const aclOpExecutor *handle) {
    executor *e = pin(handle);
    if (e == NULL) return 0;
    uint64_t size = e->workspace_size;
    unpin(handle);
    return size;
}

/* ---- the public executor calls ------------------------------------------------------ */

/* NULL executors get CANN's documented ACLNN_ERR_INNER_NULLPTR (561103) in these calls. */

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor_handle) {
    static const char api[] = "aclSetAclOpExecutorRepeatable";
    if (executor_handle == NULL) return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: executor is NULL", api);
    executor *e = pin(executor_handle);
    if (e == NULL) return not_live(api, executor_handle, " (a single-use executor's second phase releases it)");
    nnop_lock_take(&e->lock);
    int launched = e->launched;
    if (!launched) e->repeatable = 1;
    nnop_lock_give(&e->lock);
    unpin(executor_handle);
    if (launched)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p has already run; call it right after the first phase", api,
                            (void *)executor_handle);
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor_handle) {
    static const char api[] = "aclDestroyAclOpExecutor";
    if (executor_handle == NULL) return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: executor is NULL", api);
    executor *e = pin(executor_handle);
    if (e == NULL)
        return not_live(api, executor_handle,
                        " (destroyed twice, or a single-use executor its second phase already released)");
    nnop_lock_take(&e->lock);
    int repeatable = e->repeatable;
    nnop_lock_give(&e->lock);
    /* Released now; freed when the last pin goes (a launch on another thread may hold one). */
    int released = repeatable && mgrt_handle_release(executor_handle, MGRT_HANDLE_EXECUTOR);
    unpin(executor_handle);
    if (!repeatable)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p is single-use: its second phase releases it (call "
                            "aclSetAclOpExecutorRepeatable after the first phase to own it)",
                            api, (void *)executor_handle);
    if (!released) return not_live(api, executor_handle, " (destroyed on another thread meanwhile)");
    return ACLNN_SUCCESS;
}

/* which: 0 input `index`, 1 output `index`, 2 tensor `index` counting inputs then outputs.
   Checks everything before writing anything. */
static aclnnStatus set_address(const char *api, aclOpExecutor *executor_handle, int which, size_t index,
                               aclTensor *tensor, void *addr) {
    if (executor_handle == NULL || tensor == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: %s is NULL", api,
                            executor_handle == NULL ? "executor" : "tensor");
    executor *e = pin(executor_handle);
    if (e == NULL) return not_live(api, executor_handle, "");
    nnop_tensor *t = nnop_tensor_pin(tensor);
    if (t == NULL) {
        unpin(executor_handle);
        return nnop_check_handle(tensor, MGRT_HANDLE_TENSOR, api, "tensor", ACLNN_ERR_INNER_NULLPTR);
    }
    uint32_t count = which == 0 ? e->input_count : which == 1 ? e->output_count : e->input_count + e->output_count;
    aclnnStatus status = ACLNN_SUCCESS;
    if (index >= count) {
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range; %s has %u %s", api, index,
                              e->op_name, count, which == 0 ? "inputs" : which == 1 ? "outputs" : "tensors");
    } else {
        int output = which == 1 || (which == 2 && index >= e->input_count);
        size_t at = which == 2 && output ? index - e->input_count : index;
        slot *s = output ? &e->outputs[at] : &e->inputs[at];
        nnop_lock_take(&e->lock);
        s->data = addr;
        nnop_lock_give(&e->lock);
        atomic_store_explicit(&t->data, addr, memory_order_relaxed);
    }
    nnop_tensor_unpin(tensor);
    unpin(executor_handle);
    return status;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("aclSetInputTensorAddr", executor, 0, index, tensor, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("aclSetOutputTensorAddr", executor, 1, index, tensor, addr);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("aclSetTensorAddr", executor, 2, index, tensor, addr);
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("AclSetInputTensorAddr", executor, 0, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("AclSetOutputTensorAddr", executor, 1, index, tensor, addr);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("AclSetTensorAddr", executor, 2, index, tensor, addr);
}

/* The dynamic forms address a tensor inside an aclTensorList parameter. No operator here
   takes an aclTensorList, so after checking the handles and relativeIndex (CANN's checks)
   every irIndex is refused: it cannot name a list parameter. Nothing is written. */
static aclnnStatus set_dynamic_address(const char *api, aclOpExecutor *executor_handle, int which, size_t irIndex,
                                       size_t relativeIndex, aclTensorList *tensors, void *addr) {
    (void)addr;
    if (executor_handle == NULL || tensors == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: %s is NULL", api,
                            executor_handle == NULL ? "executor" : "tensors");
    executor *e = pin(executor_handle);
    if (e == NULL) return not_live(api, executor_handle, "");
    uint64_t size = 0;
    aclnnStatus status = nnop_tensor_list_size(tensors, api, "tensors", &size);
    if (status == ACLNN_SUCCESS && relativeIndex >= size)
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                              "%s: relativeIndex %zu is out of range; tensors holds %llu tensor(s)", api, relativeIndex,
                              (unsigned long long)size);
    /* CANN looks at the element before the executor's parameters: a NULL one is 561103 */
    if (status == ACLNN_SUCCESS && nnop_tensor_list_null_at(tensors, relativeIndex) == 1)
        status = mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: tensors[%zu] is NULL", api, relativeIndex);
    if (status == ACLNN_SUCCESS) {
        uint32_t count = which == 0 ? e->input_count : which == 1 ? e->output_count : e->input_count + e->output_count;
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                              "%s: irIndex %zu names no aclTensorList parameter: %s has %u %s, all aclTensor (use "
                              "the aclTensor forms, e.g. aclSetInputTensorAddr)",
                              api, irIndex, e->op_name, count,
                              which == 0 ? "input(s)" : which == 1 ? "output(s)" : "parameter(s)");
    }
    unpin(executor_handle);
    return status;
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
    return set_dynamic_address("aclSetDynamicInputTensorAddr", executor, 0, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
    return set_dynamic_address("aclSetDynamicOutputTensorAddr", executor, 1, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr) {
    return set_dynamic_address("aclSetDynamicTensorAddr", executor, 2, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
    return set_dynamic_address("AclSetDynamicInputTensorAddr", executor, 0, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
    return set_dynamic_address("AclSetDynamicOutputTensorAddr", executor, 1, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr) {
    return set_dynamic_address("AclSetDynamicTensorAddr", executor, 2, irIndex, relativeIndex, tensors, addr);
}

/* ---- phase 2 ----------------------------------------------------------------------- */

static int32_t run_task(void *opaque) {
    launch_task *task = opaque;
    for (uint32_t i = 0; i < task->step_count; i++) {
        int32_t status = task->steps[i].fn(task->steps[i].params, task->resolved[i]);
        if (status != 0) return status;
    }
    return 0;
}

static void release_task(void *opaque) { mgrt_free(opaque); }

/* The slots' addresses phase 2 uses, read at one instant. */
typedef struct launch_state {
    void *inputs[MAX_SLOTS], *outputs[MAX_SLOTS];
} launch_state;

static uint64_t storage_bytes(const nnop_view *view) { return (uint64_t)view->storage_elems * (uint64_t)view->elem_size; }

static void *resolve(const launch_state *state, nnop_buffer buffer, void *workspace) {
    unsigned char *base;
    switch (buffer.kind) {
    case NNOP_BUFFER_INPUT: base = state->inputs[buffer.index]; break;
    case NNOP_BUFFER_OUTPUT: base = state->outputs[buffer.index]; break;
    default: base = workspace; break;
    }
    return base == NULL ? NULL : base + buffer.byte_offset;
}

/* What the runtime's fill callback needs to write the task */
typedef struct task_source {
    const executor *e;
    const launch_state *state;
    void *workspace;
} task_source;

static void fill_task(void *opaque, void *ctx) {
    launch_task *task = opaque;
    const task_source *src = ctx;
    const executor *e = src->e;
    task->step_count = e->step_count;
    for (uint32_t i = 0; i < e->step_count; i++) {
        const plan_step *step = &e->steps[i];
        /* run_task reads a step's function and parameters only. Copy only the bytes a step
           uses: most carry far fewer than NNOP_MAX_STEP_PARAMS. */
        task->steps[i].fn = step->fn;
        memcpy(task->steps[i].params, step->params, step->params_size);
        for (uint32_t b = 0; b < step->buffer_count; b++)
            task->resolved[i][b] = resolve(src->state, step->buffers[b], src->workspace);
    }
}

/* The tensors of a launch as the runtime checks and queues them: every slot with elements,
   inputs then outputs, at the addresses this launch uses: its storage (pinned, checked),
   and the elements it touches (a strided view only its elements, not its whole extent, so
   that a launch on another stream over the elements in its gaps is not taken for a race;
   the geometry leaf builds it, size-1 dims left out before the byte multiplication). */
static size_t launch_tensors(const executor *e, const launch_state *state, mgrt_launch_tensor *tensors) {
    size_t count = 0;
    for (int output = 0; output <= 1; output++) {
        uint32_t n = output ? e->output_count : e->input_count;
        for (uint32_t i = 0; i < n; i++) {
            const slot *sl = output ? &e->outputs[i] : &e->inputs[i];
            void *data = output ? state->outputs[i] : state->inputs[i];
            if (!sl->has_view || sl->view.numel == 0) continue;
            mgrt_launch_tensor *t = &tensors[count++]; /* every field set below; dims past rank unread */
            t->name = sl->name;
            t->storage = data;
            t->storage_bytes = storage_bytes(&sl->view);
            t->elem_bytes = (uint64_t)sl->view.elem_size;
            t->direct = sl->direct;
            mg_strided g;
            mg_strided_of_view(&g, data, sl->view.elem_size, sl->view.rank, sl->view.dims, sl->view.strides,
                               sl->view.min_elem, sl->view.max_elem, sl->view.numel, sl->view.contiguous);
            t->access.ptr = (const void *)g.base;
            t->access.bytes = g.bytes;
            t->access.write = output;
            t->access.rank = g.rank;
            t->access.elem_bytes = g.rank != 0 ? g.elem_bytes : 0;
            for (int d = 0; d < g.rank; d++) {
                t->access.dims[d] = g.dims[d];
                t->access.strides[d] = g.strides[d];
            }
        }
    }
    return count;
}

aclnnStatus nnop_executor_launch(const char *api, void *workspace, uint64_t workspace_size,
                                 aclOpExecutor *executor_handle, aclrtStream stream) {
    if (!mgrt_initialized())
        return mgrt_fail_at(api, ACLNN_ERR_RUNTIME_ERROR, "%s: aclInit has not been called", api);
    if (executor_handle == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
    executor *e = pin(executor_handle);
    if (e == NULL)
        return not_live(api, executor_handle,
                        ": a single-use executor runs once (its second phase releases it), or it was destroyed");
    launch_state state;
    memset(&state, 0, sizeof state);
    nnop_lock_take(&e->lock);
    int single_use = !e->repeatable;
    e->launched = 1;
    for (uint32_t i = 0; i < e->input_count; i++) state.inputs[i] = e->inputs[i].data;
    for (uint32_t i = 0; i < e->output_count; i++) state.outputs[i] = e->outputs[i].data;
    nnop_lock_give(&e->lock);
    /* A single-use executor leaves the registry here, whatever happens next: this call
       owns it, and a second launch racing this one finds it gone. */
    if (single_use && !mgrt_handle_release(executor_handle, MGRT_HANDLE_EXECUTOR)) {
        unpin(executor_handle);
        return not_live(api, executor_handle, ": a single-use executor runs once (launched on another thread)");
    }

    /* One trip down: the runtime pins and checks the workspace and every tensor (liveness,
       alignment, the in-place rule, the workspace apart), makes the task, and queues it with
       the race check; the pins drop once it is queued or refused. */
    /* The workspace's dense buffers hold elements of up to 8 bytes: aligned to the widest. A
       slot phase 1 gave no view is zeros (the executor is calloc'd): elem_size 0 adds nothing. */
    int64_t widest = 1;
    for (uint32_t i = 0; i < e->input_count + e->output_count; i++) {
        const slot *sl = i < e->input_count ? &e->inputs[i] : &e->outputs[i - e->input_count];
        if (sl->view.elem_size > widest) widest = sl->view.elem_size;
    }
    mgrt_launch_tensor tensors[2 * MAX_SLOTS];
    task_source source = {e, &state, workspace};
    const mgrt_launch launch = {
        .api = api,
        .op_name = e->op_name,
        .stream = stream,
        .workspace = workspace,
        .workspace_size = workspace_size,
        .workspace_needed = e->workspace_size,
        .workspace_align = (uint64_t)widest,
        .tensors = tensors,
        .tensor_count = launch_tensors(e, &state, tensors),
        .task_bytes = sizeof(launch_task) + e->step_count * sizeof(plan_step),
        .fill = fill_task,
        .ctx = &source,
        .steps = e->step_count,
        .run = run_task,
        .release = release_task,
        .work_elements = e->work_elements,
    };
    aclnnStatus status = mgrt_launch_submit(&launch);
    unpin(executor_handle); /* a released executor (single-use, or destroyed meanwhile) goes here */
    return status;
}
