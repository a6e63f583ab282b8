/*
 * runtime/acl_stream.c: the stream API (create, destroy, synchronize, query, synchronize the
 * device) and submission of tasks (mgrt_stream_submit*, the runtime's own async copies and
 * sets through rt_stream_submit_acl).
 */
#include "stream_internal.h"

/* ---- streams: the public calls -------------------------------------------------------------------- */

static aclError create_stream(const char *api, aclrtStream *handle, uint32_t priority, uint32_t flags) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream is NULL", api);
    rt_context *ctx = rt_context_enter(api, &status);
    if (ctx == NULL) return status;
    const void *context_token = ctx->token;
    rt_context_leave(ctx);
    stream *s = NULL;
    if ((status = stream_new(api, NULL, &s)) != ACL_SUCCESS) return status;
    /* The stream is in the live list already (aclFinalize reads it): set it up under stream_lock */
    RT_LOCK(&stream_lock);
    s->context_token = context_token;
    s->priority = priority;
    s->flags = flags;
    RT_UNLOCK(&stream_lock);
    void *token = mgrt_handle_register(MGRT_HANDLE_STREAM, s, stream_handle_destroyed);
    if (token == NULL) {
        RT_LOCK(&stream_lock);
        s->released = 1;
        RT_UNLOCK(&stream_lock);
        stream_unpin(s);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory registering a stream", api);
    }
    stream_hold_if_late(api);
    RT_LOCK(&stream_lock);
    const int late = !stream_accepting_work || s->released; /* aclFinalize began: hand nothing out */
    if (!late) s->token = token;
    RT_UNLOCK(&stream_lock);
    if (late) {
        mgrt_handle_release(token, MGRT_HANDLE_STREAM); /* marks it released; our pin defers */
        stream_unpin(s);
        return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (aclFinalize ran during the call)",
                            api);
    }
    stream_unpin(s);
    *handle = token;
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *handle) { return create_stream("aclrtCreateStream", handle, 0, 0); }

/* `priority` is reserved in CANN (unused) and `flag` bits CANN does not define give an
   ordinary stream, as CANN documents. FAST_LAUNCH, FAST_SYNC and HUGE change only speed or
   capacity on a device and are accepted. PERSISTENT (model binding), CPU_SCHEDULE (AI CPU
   model scheduling) and DEVICE_USE_ONLY (a stream the host never drives) are created, as
   CANN creates them, and synchronizing one returns at once, as CANN documents; work queued
   on one is refused with 207000 at the queueing call (stream_hold_own). */
aclError aclrtCreateStreamWithConfig(aclrtStream *handle, uint32_t priority, uint32_t flag) {
    static const char api[] = "aclrtCreateStreamWithConfig";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    return create_stream(api, handle, priority, flag);
}

/* Drops the nodes of `s` that have not started (stream_lock held); returns how many. They are
   taken off the stream first, so nothing more starts, but discarded only once the task
   running now has finished: a dropped event record counts as completed, and a stream
   waiting on it must not pass before the output of that task is written (issue 25: it
   read stale results). */
static size_t drop_queued_locked(stream *s) {
    task_node *dropped_head = s->head;
    s->head = s->tail = NULL;
    while (s->running) RT_WAIT(&stream_progress, &stream_lock);
    size_t dropped = 0;
    while (dropped_head != NULL) {
        task_node *node = dropped_head;
        dropped_head = node->next;
        stream_drop_node_locked(s, node, "aclrtDestroyStreamForce", ACL_ERROR_INVALID_PARAM);
        dropped++;
    }
    pthread_cond_broadcast(&stream_progress);
    return dropped;
}

static aclError destroy_stream(const char *api, aclrtStream handle, int force) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream is NULL (the default stream cannot be destroyed)",
                            api);
    held_stream h;
    if ((status = stream_hold_to_destroy(api, handle, &h)) != ACL_SUCCESS) return status;
    RT_LOCK(&stream_lock);
    if (force) {
        size_t dropped = drop_queued_locked(h.s);
        if (dropped > 0)
            mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "%s: dropped %zu queued node(s) that had not started", api, dropped);
    } else if (stream_wait_locked(h.s, h.s->queued, -1) == EDEADLK) {
        RT_UNLOCK(&stream_lock);
        stream_release_held(&h);
        char name[64];
        return stream_waits_for_own_callback(api, stream_name(handle, name, sizeof name));
    }
    RT_UNLOCK(&stream_lock);
    int won = mgrt_handle_release(handle, MGRT_HANDLE_STREAM);
    stream_release_held(&h); /* the last pin: the stream retires here (or with a racing user's pin) */
    if (!won)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream %p %s", api, handle,
                            mgrt_handle_describe(handle, MGRT_HANDLE_STREAM));
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream handle) { return destroy_stream("aclrtDestroyStream", handle, 0); }

/* CANN: destroys at once, without waiting for the queued work. A task already running
   finishes (a CPU cannot stop it halfway); the nodes that have not started are dropped. */
aclError aclrtDestroyStreamForce(aclrtStream handle) { return destroy_stream("aclrtDestroyStreamForce", handle, 1); }

static aclError synchronize_stream(const char *api, aclrtStream handle, int32_t timeout) {
    aclError status = stream_check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    held_stream h;
    if ((status = stream_hold(api, handle, &h)) != ACL_SUCCESS) return status;
    status = stream_synchronize_held(api, h.s, handle, timeout);
    stream_release_held(&h);
    return status;
}

aclError aclrtSynchronizeStream(aclrtStream handle) {
    return synchronize_stream("aclrtSynchronizeStream", handle, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream handle, int32_t timeout) {
    return synchronize_stream("aclrtSynchronizeStreamWithTimeout", handle, timeout);
}

aclError aclrtStreamQuery(aclrtStream handle, aclrtStreamStatus *status_out) {
    static const char api[] = "aclrtStreamQuery";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (status_out == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status is NULL");
    held_stream h;
    if ((status = stream_hold(api, handle, &h)) != ACL_SUCCESS) return status;
    RT_LOCK(&stream_lock);
    int done = h.s->finished == h.s->queued;
    /* A lone task may be waiting for a synchronize to run it: a program polling this call
       must see it finish, so hand the work to the worker. */
    if (!done) stream_wake_worker_locked(h.s);
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    *status_out = done ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}


size_t rt_streams_release_of_context(const void *context_token) {
    long count = 0;
    stream **pinned = streams_pin_all(&count);
    if (count < 0) {
        /* They stay usable and are reclaimed by aclFinalize: a leak, never a crash. */
        mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "out of memory listing the streams of context %p; they stay alive",
                 context_token);
        return 0;
    }
    size_t released = 0;
    for (long i = 0; i < count; i++) {
        stream *s = pinned[i];
        RT_LOCK(&stream_lock);
        int mine = s->token != NULL && !s->released && s->context_token == context_token;
        if (mine) stream_wait_locked(s, s->queued, -1);
        void *token = s->token;
        RT_UNLOCK(&stream_lock);
        /* The handle goes stale now; the stream retires with its last pin (ours, or a
           racing call's), its worker finishing whatever that call still queued. */
        if (mine && mgrt_handle_release(token, MGRT_HANDLE_STREAM)) released++;
        stream_unpin(s);
    }
    free(pinned);
    return released;
}

static aclError synchronize_device(const char *api, int32_t timeout) {
    aclError status = stream_check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    if ((status = rt_require_context(api)) != ACL_SUCCESS) return status;
    long count = 0;
    stream **pinned = streams_pin_all(&count);
    if (count < 0) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    aclError first = ACL_SUCCESS;
    struct timespec deadline = stream_deadline_after(timeout > 0 ? timeout : 0);
    for (long i = 0; i < count; i++) {
        int32_t left = timeout;
        if (timeout > 0) { /* what remains of the limit */
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now); /* stream_deadline_after's clock */
            int64_t ms = (int64_t)(deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1000000;
            left = ms > 0 ? (int32_t)ms : 0;
        }
        if (first == ACL_SUCCESS || first != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
            aclError each = stream_synchronize_held(api, pinned[i], pinned[i]->token, left);
            if (first == ACL_SUCCESS) first = each;
        }
        stream_unpin(pinned[i]);
    }
    free(pinned);
    return first;
}

aclError aclrtSynchronizeDevice(void) { return synchronize_device("aclrtSynchronizeDevice", -1); }

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    return synchronize_device("aclrtSynchronizeDeviceWithTimeout", timeout);
}


/* Queues a task; on failure its release runs and nothing was queued. Acl status. wake_worker:
   the stream's worker is woken for it now (large work, or a caller that waits for it) rather
   than when a thread synchronizes. */
static aclError submit_task(const char *api, aclrtStream handle, mgrt_task_run_fn run, mgrt_task_release_fn release,
                            void *task, int wake_worker, const mgrt_access *accesses, size_t access_count,
                            held_stream *keep, uint64_t *sequence) {
    task_node *node = stream_node_new(NODE_TASK);
    /* Counted allocations, like the node: MISHGRAD_FAULT_ALLOC reaches each of the three. */
    stream_access *copy = access_count ? mgrt_malloc(access_count * sizeof *copy) : NULL;
    uintptr_t *holds = access_count ? mgrt_malloc(2 * access_count * sizeof *holds) : NULL;
    if (node == NULL || (access_count && (copy == NULL || holds == NULL))) {
        mgrt_free(node);
        mgrt_free(copy);
        mgrt_free(holds);
        release(task);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory queueing work", api);
    }
    for (size_t i = 0; i < access_count; i++) stream_access_of(&accesses[i], &copy[i]);
    node->run = run;
    node->release = release;
    node->task = task;
    node->accesses = copy;
    node->access_count = access_count;
    /* The caller holds the blocks it checked (a launch's pins, a copy's holds) until this
       returns, so they are still allocated: the node's own pins keep them so until it is done. */
    node->holds = holds;
    for (size_t i = 0; i < access_count; i++)
        node->hold_count += rt_memory_hold(accesses[i].ptr, accesses[i].bytes, 0, &holds[node->hold_count]);
    held_stream h;
    aclError status = stream_hold_own(api, handle, &h);
    if (status == ACL_SUCCESS) {
        stream_hold_if_late(api);
        RT_LOCK(&stream_lock);
        status = stream_accepting_work ? stream_append_locked(api, h.s, handle, node, wake_worker)
                                : mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclFinalize has been called", api);
        if (status == ACL_SUCCESS) {
            node->injected_fault = rt_fault_step_planned();
            if (sequence) *sequence = node->sequence;
        }
        RT_UNLOCK(&stream_lock);
    }
    if (status != ACL_SUCCESS) {
        stream_node_free(node);
        release(task);
    }
    if (status == ACL_SUCCESS && keep != NULL)
        *keep = h;
    else
        stream_release_held(&h);
    return status;
}

int32_t mgrt_stream_submit_access(const char *api, aclrtStream handle, mgrt_task_run_fn run,
                                  mgrt_task_release_fn release, void *task, uint64_t work_elements,
                                  const mgrt_access *accesses, size_t access_count) {
    aclError status =
        submit_task(api, handle, run, release, task, work_elements >= WAKE_WORKER_ELEMENTS, accesses, access_count,
                    NULL, NULL);
    switch (status) {
    case ACL_SUCCESS: return 0;
    case ACL_ERROR_INVALID_PARAM: return ACLNN_ERR_PARAM_INVALID;       /* not a live stream */
    case ACL_ERROR_RT_PARAM_INVALID: return ACLNN_ERR_PARAM_INVALID;    /* a race with another stream */
    case ACL_ERROR_UNINITIALIZE:
    case ACL_ERROR_RT_CONTEXT_NULL:
    case ACL_ERROR_RT_STREAM_CONTEXT: return ACLNN_ERR_RUNTIME_ERROR; /* the stream is another context's */
    default: return ACLNN_ERR_INNER;
    }
}

int32_t mgrt_stream_submit(const char *api, aclrtStream handle, mgrt_task_run_fn run, mgrt_task_release_fn release,
                           void *task, uint64_t work_elements) {
    return mgrt_stream_submit_access(api, handle, run, release, task, work_elements, NULL, 0);
}

aclError rt_stream_submit_acl(const char *api, aclrtStream handle, mgrt_task_run_fn run,
                              mgrt_task_release_fn release, void *task, const mgrt_access *accesses,
                              size_t access_count, int wait_done) {
    held_stream h = {NULL, NULL};
    uint64_t sequence = 0;
    aclError status =
        submit_task(api, handle, run, release, task, wait_done, accesses, access_count, wait_done ? &h : NULL, &sequence);
    if (status != ACL_SUCCESS || !wait_done) return status;
    /* Returns once the task has run (a copy from pageable host memory, as CANN does). Its
       error, if any, stays for the stream's synchronize. */
    /* Not behind a blocking callback this thread runs: the copy would wait for itself (the
       caller staged a pageable source, so the bytes are taken already). */
    RT_LOCK(&stream_lock);
    if (!stream_blocked_by_my_callback_locked(h.s)) stream_wait_locked(h.s, sequence, -1);
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    return ACL_SUCCESS;
}

int mgrt_stream_is_valid(aclrtStream handle) {
    if (!mgrt_initialized()) return 0;
    if (handle == NULL) return 1;
    return mgrt_handle_state_of(handle, MGRT_HANDLE_STREAM) == MGRT_HANDLE_LIVE;
}
