/*
 * nnopbase/op_executor.c: aclOpExecutor, the plan phase 1 builds and phase 2 queues.
 *
 * Phase 2 copies the plan into a task with every buffer resolved to an address, so the
 * queued work never looks at the executor again: a repeatable executor may be refreshed
 * or destroyed while its earlier runs wait on the stream, and a single-use one is freed at
 * once. Live executors are kept in a table, so a stale handle (a single-use executor run a
 * second time) is recognised without touching freed memory.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <string.h>

#include "mgrt.h"
#include "nnop.h"

#define MAX_SLOTS 4
#define MAX_STEPS 8
#define WORKSPACE_ALIGNMENT 64

typedef struct plan_step {
    nnop_step_fn fn;
    const char *name;
    uint32_t buffer_count;
    uint32_t params_size;
    nnop_buffer buffers[NNOP_MAX_STEP_BUFFERS];
    alignas(16) unsigned char params[NNOP_MAX_STEP_PARAMS];
} plan_step;

typedef struct slot {
    const char *name;
    aclTensor *tensor;
    void *data;
    nnop_view view;
    int has_view;
    int direct;
} slot;

struct aclOpExecutor {
    const char *op_name;
    int repeatable;
    atomic_int launched; /* it has run: too late to make it repeatable */
    uint32_t input_count, output_count;
    slot inputs[MAX_SLOTS];
    slot outputs[MAX_SLOTS];
    uint64_t workspace_size;
    uint64_t work_elements;   /* summed over the steps: the plan's cost */
    uint32_t step_count;
    plan_step steps[MAX_STEPS];
};

/* What phase 2 queues: the steps with their buffers resolved. */
typedef struct launch_task {
    uint32_t step_count;
    void *resolved[MAX_STEPS][NNOP_MAX_STEP_BUFFERS];
    plan_step steps[];
} launch_task;

/* ---- the table of live executors (sorted addresses) ---------------------------------- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *live_executors;
static size_t live_count, live_capacity;

static size_t registry_lower_bound(uintptr_t key) {
    size_t lo = 0, hi = live_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (live_executors[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int registry_add(aclOpExecutor *e) {
    pthread_mutex_lock(&registry_lock);
    int ok = 1;
    if (live_count == live_capacity) {
        size_t capacity = live_capacity ? live_capacity * 2 : 64;
        uintptr_t *grown = mgrt_malloc(capacity * sizeof *grown);
        if (grown == NULL) {
            ok = 0;
        } else {
            if (live_count > 0) memcpy(grown, live_executors, live_count * sizeof *grown);
            mgrt_free(live_executors);
            live_executors = grown;
            live_capacity = capacity;
        }
    }
    if (ok) {
        uintptr_t key = (uintptr_t)e;
        size_t at = registry_lower_bound(key);
        memmove(&live_executors[at + 1], &live_executors[at], (live_count - at) * sizeof *live_executors);
        live_executors[at] = key;
        live_count++;
    }
    pthread_mutex_unlock(&registry_lock);
    return ok;
}

/* Removes e if it is live; returns whether it was. */
static int registry_take(const aclOpExecutor *e) {
    uintptr_t key = (uintptr_t)e;
    pthread_mutex_lock(&registry_lock);
    size_t at = registry_lower_bound(key);
    int found = at < live_count && live_executors[at] == key;
    if (found) {
        memmove(&live_executors[at], &live_executors[at + 1], (live_count - at - 1) * sizeof *live_executors);
        live_count--;
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* In one step: is e live, is it repeatable, and take it out when its repeatability is
   `take_when_repeatable` (phase 2 takes single-use executors, aclDestroyAclOpExecutor
   repeatable ones), so two threads can never both own one executor. */
static int registry_claim(aclOpExecutor *e, int take_when_repeatable, int *repeatable) {
    uintptr_t key = (uintptr_t)e;
    pthread_mutex_lock(&registry_lock);
    size_t at = registry_lower_bound(key);
    int found = at < live_count && live_executors[at] == key;
    if (found) {
        *repeatable = e->repeatable;
        if (*repeatable == take_when_repeatable) {
            memmove(&live_executors[at], &live_executors[at + 1], (live_count - at - 1) * sizeof *live_executors);
            live_count--;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

static int registry_contains(const aclOpExecutor *e) {
    uintptr_t key = (uintptr_t)e;
    pthread_mutex_lock(&registry_lock);
    size_t at = registry_lower_bound(key);
    int found = at < live_count && live_executors[at] == key;
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* ---- phase 1: building the plan --------------------------------------------------- */

aclOpExecutor *nnop_executor_create(const char *op_name, const aclTensor *const *inputs, uint32_t input_count,
                                    aclTensor *const *outputs, uint32_t output_count, const char *const *names) {
    if (input_count > MAX_SLOTS || output_count > MAX_SLOTS) {
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: too many tensors for one executor", op_name);
        return NULL;
    }
    aclOpExecutor *e = mgrt_calloc(1, sizeof *e);
    if (e == NULL) {
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory creating the executor", op_name);
        return NULL;
    }
    e->op_name = op_name;
    e->input_count = input_count;
    e->output_count = output_count;
    for (uint32_t i = 0; i < input_count; i++) {
        e->inputs[i].name = names[i];
        e->inputs[i].tensor = (aclTensor *)inputs[i];
        e->inputs[i].data = inputs[i]->data;
    }
    for (uint32_t i = 0; i < output_count; i++) {
        e->outputs[i].name = names[input_count + i];
        e->outputs[i].tensor = outputs[i];
        e->outputs[i].data = outputs[i]->data;
    }
    if (!registry_add(e)) {
        mgrt_free(e);
        mgrt_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory registering the executor", op_name);
        return NULL;
    }
    return e;
}

void nnop_executor_abandon(aclOpExecutor *e) {
    if (e != NULL && registry_take(e)) mgrt_free(e);
}

void nnop_executor_set_view(aclOpExecutor *e, nnop_buffer_kind kind, uint32_t index, const nnop_view *view,
                            int direct) {
    slot *s = kind == NNOP_BUFFER_INPUT ? &e->inputs[index] : &e->outputs[index];
    s->view = *view;
    s->has_view = 1;
    s->direct = direct;
}

nnop_buffer nnop_executor_reserve_workspace(aclOpExecutor *e, uint64_t bytes) {
    nnop_buffer buffer = {NNOP_BUFFER_WORKSPACE, 0, e->workspace_size};
    e->workspace_size += (bytes + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT * WORKSPACE_ALIGNMENT;
    return buffer;
}

aclnnStatus nnop_executor_add_step(aclOpExecutor *e, const char *step_name, nnop_step_fn fn, const void *params,
                                   uint32_t params_size, const nnop_buffer *buffers, uint32_t buffer_count,
                                   uint64_t elements) {
    if (e->step_count == MAX_STEPS || params_size > NNOP_MAX_STEP_PARAMS || buffer_count > NNOP_MAX_STEP_BUFFERS)
        return mgrt_fail(ACLNN_ERR_INNER, "%s: step %s does not fit the executor", e->op_name, step_name);
    plan_step *step = &e->steps[e->step_count++];
    step->fn = fn;
    step->name = step_name;
    step->params_size = params_size;
    step->buffer_count = buffer_count;
    if (params_size > 0) memcpy(step->params, params, params_size);
    if (buffer_count > 0) memcpy(step->buffers, buffers, buffer_count * sizeof *buffers);
    e->work_elements += elements;
    return ACLNN_SUCCESS;
}

uint64_t nnop_executor_workspace_size(const aclOpExecutor *e) { return e->workspace_size; }

/* ---- the public executor calls ------------------------------------------------------ */

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    static const char api[] = "aclSetAclOpExecutorRepeatable";
    if (executor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
    if (!registry_contains(executor))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p is not live (already run, destroyed, or never created)", api,
                            (void *)executor);
    if (atomic_load(&executor->launched))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p has already run; call it right after the first phase", api,
                            (void *)executor);
    pthread_mutex_lock(&registry_lock); /* registry_claim reads it under this lock */
    executor->repeatable = 1;
    pthread_mutex_unlock(&registry_lock);
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    static const char api[] = "aclDestroyAclOpExecutor";
    if (executor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
    int repeatable = 0;
    if (!registry_claim(executor, 1, &repeatable))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: executor %p is not live (destroyed twice, or a "
                            "single-use executor its second phase already released)", api, (void *)executor);
    if (!repeatable)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p is single-use: its second phase releases it (call "
                            "aclSetAclOpExecutorRepeatable after the first phase to own it)",
                            api, (void *)executor);
    mgrt_free(executor);
    return ACLNN_SUCCESS;
}

static aclnnStatus set_address(const char *api, aclOpExecutor *executor, int output, size_t index,
                               aclTensor *tensor, void *addr) {
    if (executor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
    if (!registry_contains(executor))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: executor %p is not live", api, (void *)executor);
    uint32_t count = output ? executor->output_count : executor->input_count;
    if (index >= count)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range; %s has %u %s", api, index,
                            executor->op_name, count, output ? "outputs" : "inputs");
    slot *s = output ? &executor->outputs[index] : &executor->inputs[index];
    s->data = addr;
    if (tensor != NULL) tensor->data = addr;
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("aclSetInputTensorAddr", executor, 0, index, tensor, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
    return set_address("aclSetOutputTensorAddr", executor, 1, index, tensor, addr);
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

static const char *slot_name(const aclOpExecutor *e, int output, uint32_t index) {
    return output ? e->outputs[index].name : e->inputs[index].name;
}

static uint64_t storage_bytes(const nnop_view *view) { return (uint64_t)view->storage_elems * (uint64_t)view->elem_size; }

/* Re-checks addresses that aclSet*TensorAddr may have changed since phase 1. */
static aclnnStatus check_addresses(const char *api, const aclOpExecutor *e) {
    for (int output = 0; output <= 1; output++) {
        uint32_t count = output ? e->output_count : e->input_count;
        for (uint32_t i = 0; i < count; i++) {
            const slot *s = output ? &e->outputs[i] : &e->inputs[i];
            if (!s->has_view || s->view.numel == 0) continue;
            if (!mgrt_range_is_live(s->data, storage_bytes(&s->view)))
                return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                                    "%s: %s (%s) at %p is not inside one live aclrtMalloc block (freed, or a "
                                    "refreshed address that is too small)",
                                    api, slot_name(e, output, i), e->op_name, s->data);
        }
    }
    for (uint32_t o = 0; o < e->output_count; o++) {
        const slot *out = &e->outputs[o];
        if (!out->has_view || !out->direct) continue;
        for (uint32_t i = 0; i < e->input_count; i++) {
            const slot *in = &e->inputs[i];
            if (!in->has_view || !in->direct) continue;
            if (nnop_views_conflict(&in->view, in->data, &out->view, out->data))
                return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                                    "%s: refreshed addresses make %s overlap %s partially; only exact in-place "
                                    "is allowed for a planned executor (run the first phase again)",
                                    api, slot_name(e, 0, i), slot_name(e, 1, o));
        }
    }
    return ACLNN_SUCCESS;
}

static void *resolve(const aclOpExecutor *e, nnop_buffer buffer, void *workspace) {
    unsigned char *base;
    switch (buffer.kind) {
    case NNOP_BUFFER_INPUT: base = e->inputs[buffer.index].data; break;
    case NNOP_BUFFER_OUTPUT: base = e->outputs[buffer.index].data; break;
    default: base = workspace; break;
    }
    return base == NULL ? NULL : base + buffer.byte_offset;
}

aclnnStatus nnop_executor_launch(const char *api, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                                 aclrtStream stream) {
    if (!mgrt_initialized())
        return mgrt_fail_at(api, ACLNN_ERR_RUNTIME_ERROR, "%s: aclInit has not been called", api);
    if (executor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
    /* A single-use executor leaves the table here, whatever happens next: this call owns it.
       (A stream that is not live is reported by mgrt_stream_submit, after the copy.) */
    int repeatable = 0;
    if (!registry_claim(executor, 0, &repeatable))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: executor %p is not live: a single-use executor runs once (its second phase "
                            "releases it), or it was destroyed",
                            api, (void *)executor);
    int single_use = !repeatable;
    atomic_store(&executor->launched, 1);

    aclnnStatus status = ACLNN_SUCCESS;
    uint64_t needed = executor->workspace_size;
    if (needed > 0 && workspace == NULL)
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: workspace is NULL but %llu bytes are needed", api,
                              (unsigned long long)needed);
    else if (needed > 0 && workspace_size < needed)
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                              "%s: workspaceSize %llu is smaller than the %llu bytes the first phase reported", api,
                              (unsigned long long)workspace_size, (unsigned long long)needed);
    else if (needed > 0 && !mgrt_range_is_live(workspace, needed))
        status = mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                              "%s: workspace [%p, +%llu bytes) is not inside one live aclrtMalloc block", api,
                              workspace, (unsigned long long)needed);
    else
        status = check_addresses(api, executor);

    launch_task *task = NULL;
    uint64_t work_elements = 0;
    if (status == ACLNN_SUCCESS) {
        task = mgrt_malloc(sizeof *task + executor->step_count * sizeof(plan_step));
        if (task == NULL) status = mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory queueing the work", api);
    }
    if (status == ACLNN_SUCCESS) {
        task->step_count = executor->step_count;
        work_elements = executor->work_elements;
        for (uint32_t i = 0; i < executor->step_count; i++) {
            const plan_step *step = &executor->steps[i];
            /* Copy only the bytes a step uses: most carry far fewer than NNOP_MAX_STEP_PARAMS. */
            task->steps[i].fn = step->fn;
            task->steps[i].name = step->name;
            task->steps[i].buffer_count = step->buffer_count;
            task->steps[i].params_size = step->params_size;
            memcpy(task->steps[i].params, step->params, step->params_size);
            for (uint32_t b = 0; b < step->buffer_count; b++)
                task->resolved[i][b] = resolve(executor, step->buffers[b], workspace);
        }
    }
    if (single_use) mgrt_free(executor);
    if (status != ACLNN_SUCCESS) return status;
    if (task->step_count == 0) { /* nothing to do (an empty tensor), but the stream must be real */
        release_task(task);
        if (!mgrt_stream_is_valid(stream))
            return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: stream %p is not a live stream", api, stream);
        return ACLNN_SUCCESS;
    }
    return mgrt_stream_submit(api, stream, run_task, release_task, task, work_elements);
}
