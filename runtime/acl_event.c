/*
 * runtime/acl_event.c: events: create, record, reset, wait, query, synchronize, elapsed time. A
 * record completes once the work queued before it on its stream is done; its ordering (a
 * vector clock) tells the race check which work a waiting stream is ordered after.
 */
#include "stream_internal.h"

/* ---- events -------------------------------------------------------------------------------------------- */

static void event_handle_destroyed(void *object) {
    RT_LOCK(&stream_lock);
    stream_event_unref_locked(object);
    RT_UNLOCK(&stream_lock);
}

/* RT_EVENT_DDSYNC: CANN's runtime takes it, acl_rt.h names no ACL_EVENT_* for it. */
#define EVENT_FLAG_DDSYNC 0x4u

/* CANN's EventCreate (aclrtCreateEventWithFlag) and EventCreateEx (aclrtCreateEventExWithFlag)
   checks, in their order: what they refuse is 107000. Of what they take, the flags this CPU
   runtime has no meaning for are 207000. */
static aclError check_event_flag(const char *api, uint32_t flags, int ex) {
    const uint32_t stand_alone[] = {ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL, ACL_EVENT_IPC};
    const uint32_t combinable = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | EVENT_FLAG_DDSYNC | ACL_EVENT_TIME_LINE;
    /* WithFlag: the combinable flags, or DEVICE_USE_ONLY or EXTERNAL alone (IPC is no flag of
       it); Ex: the combinable flags, or IPC alone. */
    const uint32_t all = ex ? combinable | ACL_EVENT_IPC : combinable | ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL;
    if (!ex && ((flags & all) == 0 || flags > all))
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: flag 0x%x is invalid; use an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, "
                            "ACL_EVENT_TIME_LINE (and 0x4), or ACL_EVENT_DEVICE_USE_ONLY or ACL_EVENT_EXTERNAL alone",
                            api, (unsigned)flags);
    for (size_t i = 0; i < sizeof stand_alone / sizeof stand_alone[0]; i++) {
        if ((flags & stand_alone[i]) && flags != stand_alone[i])
            return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                                "%s: flag 0x%x is invalid: 0x%x (%s) cannot be combined with other flags", api,
                                (unsigned)flags, (unsigned)stand_alone[i],
                                i == 0 ? "ACL_EVENT_DEVICE_USE_ONLY" : i == 1 ? "ACL_EVENT_EXTERNAL" : "ACL_EVENT_IPC");
    }
    if (ex && ((flags & all) == 0 || flags > all))
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: flag 0x%x is invalid; use an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, "
                            "ACL_EVENT_TIME_LINE (and 0x4), or ACL_EVENT_IPC alone",
                            api, (unsigned)flags);
    if (flags & (ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC | EVENT_FLAG_DDSYNC))
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: flag 0x%x asks for device-only, graph-capture (external), IPC or RT_EVENT_DDSYNC (0x4) "
                            "events, which this CPU runtime does not support",
                            api, (unsigned)flags);
    return ACL_SUCCESS;
}

static aclError create_event(const char *api, aclrtEvent *handle, uint32_t flags, int made_by) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: event is NULL", api);
    /* CANN checks the flag (api_error.cc) before the context (api_impl.cc). */
    if (made_by != 0 && (status = check_event_flag(api, flags, made_by == 2)) != ACL_SUCCESS) return status;
    if ((status = rt_require_context(api)) != ACL_SUCCESS) return status;
    event *ev = mgrt_calloc(1, sizeof *ev);
    if (ev == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for an event", api);
    ev->flags = flags;
    ev->made_by = made_by;
    ev->refs = 1;
    void *token = mgrt_handle_register(MGRT_HANDLE_EVENT, ev, event_handle_destroyed);
    if (token == NULL) {
        mgrt_free(ev);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory registering an event", api);
    }
    *handle = token;
    return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event) { return create_event("aclrtCreateEvent", event, 0, 0); }
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
    return create_event("aclrtCreateEventWithFlag", event, flag, 1);
}
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
    return create_event("aclrtCreateEventExWithFlag", event, flag, 2);
}

/* The event behind `handle`, pinned in the registry (stream_unpin with mgrt_handle_unpin). */
static event *pin_event(const char *api, aclrtEvent handle, aclError *status) {
    *status = rt_require_init(api);
    if (*status != ACL_SUCCESS) return NULL;
    if (handle == NULL) {
        *status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: event is NULL", api);
        return NULL;
    }
    event *ev = mgrt_handle_pin(handle, MGRT_HANDLE_EVENT);
    if (ev == NULL)
        *status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: event %p %s", api, handle,
                               mgrt_handle_describe(handle, MGRT_HANDLE_EVENT));
    return ev;
}

aclError aclrtDestroyEvent(aclrtEvent handle) {
    static const char api[] = "aclrtDestroyEvent";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is NULL");
    /* Outstanding records and waits keep the object until they are done (CANN: destroying an
       event before it completes does not block). */
    if (!mgrt_handle_release(handle, MGRT_HANDLE_EVENT))
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event %p %s", handle,
                            mgrt_handle_describe(handle, MGRT_HANDLE_EVENT));
    return ACL_SUCCESS;
}

/* Queues an event node on `stream`. */
static aclError queue_event_node(const char *api, aclrtEvent handle, aclrtStream stream_handle, node_kind kind) {
    aclError status;
    event *ev = pin_event(api, handle, &status);
    if (ev == NULL) return status;
    /* CANN's IsEventWithoutWaitTask: only ACL_EVENT_SYNC (RT_EVENT_DDSYNC_NS) among the flags
       this runtime takes gives an event a wait task; aclrtCreateEvent's (RT_EVENT_DEFAULT)
       has one too. Without it, waits and resets are 207000; Ex events are never reset
       (api_impl.cc EventReset: new mode). */
    const int has_wait_task = ev->made_by == 0 || (ev->flags & ACL_EVENT_SYNC);
    if ((kind == NODE_WAIT || kind == NODE_RESET) && !has_wait_task) {
        mgrt_handle_unpin(handle);
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: event %p was created with flag 0x%x, without ACL_EVENT_SYNC: it has no wait task, "
                            "so there is nothing to %s",
                            api, handle, (unsigned)ev->flags, kind == NODE_WAIT ? "wait for" : "reset");
    }
    if (kind == NODE_RESET && ev->made_by == 2) {
        mgrt_handle_unpin(handle);
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: event %p comes from aclrtCreateEventExWithFlag, which cannot be reset", api, handle);
    }
    if (kind == NODE_RESET && ev->made_by != 1) {
        mgrt_handle_unpin(handle);
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "%s: event %p was not created by aclrtCreateEventWithFlag with ACL_EVENT_SYNC; only "
                            "such events can be reset",
                            api, handle);
    }
    held_stream h;
    if ((status = stream_hold_own(api, stream_handle, &h)) != ACL_SUCCESS) {
        mgrt_handle_unpin(handle);
        return status;
    }
    task_node *node = stream_node_new(kind);
    stream_hold_if_late(api);
    RT_LOCK(&stream_lock);
    if (node == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    } else if (!stream_accepting_work) {
        status = mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclFinalize has been called", api);
        mgrt_free(node); /* a node it never queued (leaked until the late-call switch met it) */
        node = NULL;
    } else if (kind == NODE_WAIT && ev->made_by == 0 && ev->records == 0) {
        /* CANN's Event::Wait: an event of aclrtCreateEvent (no ACL_EVENT_SYNC) that has no
           record cannot be waited for. */
        status = mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                              "%s: event %p has never been recorded; call aclrtRecordEvent first", api, handle);
        mgrt_free(node);
        node = NULL;
    } else if (kind == NODE_WAIT && ev->records == ev->completed) {
        /* Nothing pending to wait for (never recorded, or already complete): no node. The
           ordering still counts for the race check. */
        if (ev->records > 0 && !vclock_merge_live_locked(&h.s->known, &ev->record_known))
            status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
        mgrt_free(node);
        node = NULL;
    } else {
        node->ev = ev;
        ev->refs++;
        if (kind == NODE_RECORD) {
            node->generation = ++ev->records;
        } else if (kind == NODE_WAIT) {
            node->generation = ev->records;
            ev->waits_queued++;
        }
        status = stream_append_locked(api, h.s, stream_handle, node, 1);
        if (status == ACL_SUCCESS && kind == NODE_RECORD) {
            ev->record_stream = h.s;
            ev->record_sequence = node->sequence;
            /* The record orders everything queued before it on its stream, and what that
               stream had itself waited for. */
            if (!vclock_copy(&ev->record_known, &h.s->known) ||
                !vclock_raise(&ev->record_known, h.s->id, node->sequence))
                ev->record_known.count = 0; /* out of memory: ordering unknown, checks stay safe */
        } else if (status == ACL_SUCCESS && kind == NODE_WAIT) {
            (void)vclock_merge_live_locked(&h.s->known, &ev->record_known); /* out of memory: fewer orderings known */
        }
        if (status != ACL_SUCCESS) {
            ev->refs--;
            mgrt_free(node);
        }
    }
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    mgrt_handle_unpin(handle);
    return status;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    return queue_event_node("aclrtRecordEvent", event, stream, NODE_RECORD);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    return queue_event_node("aclrtResetEvent", event, stream, NODE_RESET);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    return queue_event_node("aclrtStreamWaitEvent", event, stream, NODE_WAIT);
}

typedef enum event_query { QUERY_RECORDED, QUERY_WAITS, QUERY_DEPRECATED } event_query;

static aclError query_event(const char *api, aclrtEvent handle, int *complete, event_query what) {
    aclError status;
    event *ev = pin_event(api, handle, &status);
    if (ev == NULL) return status;
    const int waits = what == QUERY_WAITS;
    /* CANN: EventQuery refuses new-mode (Ex) events, and so does the wait-status query. */
    if (what != QUERY_RECORDED && ev->made_by == 2) {
        mgrt_handle_unpin(handle);
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: event %p comes from aclrtCreateEventExWithFlag, which this query does not support",
                            api, handle);
    }
    RT_LOCK(&stream_lock);
    *complete = waits ? ev->waits_done == ev->waits_queued : ev->completed == ev->records;
    /* Event::QueryEventStatus with no record: RECORDED for Ex events, INIT (not ready) for
       the others. */
    if (what == QUERY_RECORDED && ev->records == 0 && ev->made_by != 2) *complete = 0;
    /* A record still pending behind a lone task: let the worker run it, so polling ends. */
    if (!*complete && !waits && ev->record_stream != NULL) stream_wake_worker_locked(ev->record_stream);
    RT_UNLOCK(&stream_lock);
    mgrt_handle_unpin(handle);
    return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
    static const char api[] = "aclrtQueryEventStatus";
    aclError rc = rt_require_init(api);
    if (rc != ACL_SUCCESS) return rc;
    if (status == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is NULL");
    int complete = 0;
    if ((rc = query_event(api, event, &complete, QUERY_RECORDED)) != ACL_SUCCESS) return rc;
    *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
    static const char api[] = "aclrtQueryEvent";
    aclError rc = rt_require_init(api);
    if (rc != ACL_SUCCESS) return rc;
    if (status == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent: status is NULL");
    int complete = 0;
    if ((rc = query_event(api, event, &complete, QUERY_DEPRECATED)) != ACL_SUCCESS) return rc;
    *status = complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
    static const char api[] = "aclrtQueryEventWaitStatus";
    aclError rc = rt_require_init(api);
    if (rc != ACL_SUCCESS) return rc;
    if (status == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtQueryEventWaitStatus: status is NULL");
    int complete = 0;
    if ((rc = query_event(api, event, &complete, QUERY_WAITS)) != ACL_SUCCESS) return rc;
    *status = complete ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

static aclError synchronize_event(const char *api, aclrtEvent handle, int32_t timeout) {
    aclError status = stream_check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    event *ev = pin_event(api, handle, &status);
    if (ev == NULL) return status;
    RT_LOCK(&stream_lock);
    const uint64_t target = ev->records;
    struct timespec deadline = stream_deadline_after(timeout > 0 ? timeout : 0);
    int timed_out = 0, deadlocked = 0;
    while (ev->completed < target && !timed_out && !deadlocked) {
        stream *s = ev->record_stream; /* alive while the record is pending (it is queued) */
        if (stream_blocked_by_my_callback_locked(s)) { /* the record is behind this thread's callback */
            deadlocked = 1;
            break;
        }
        if (timeout < 0 && !s->running && s->head != NULL && s->head->sequence <= ev->record_sequence) {
            if (stream_step_locked(s)) continue;
        }
        if (timeout >= 0) stream_wake_worker_locked(s);
        if (timeout < 0)
            RT_WAIT(&stream_progress, &stream_lock);
        else if (timeout == 0 ||
                 (RT_TIMEDWAIT(&stream_progress, &stream_lock, &deadline) == ETIMEDOUT && ev->completed < target))
            timed_out = 1;
    }
    RT_UNLOCK(&stream_lock);
    mgrt_handle_unpin(handle);
    if (deadlocked) return stream_waits_for_own_callback(api, "the stream of the event's record");
    if (timed_out)
        return mgrt_fail_at(api, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "%s: event %p did not complete within %d ms", api,
                            handle, (int)timeout);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return synchronize_event("aclrtSynchronizeEvent", event, -1); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    return synchronize_event("aclrtSynchronizeEventWithTimeout", event, timeout);
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    static const char api[] = "aclrtEventElapsedTime";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (ms == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is NULL");
    event *start = pin_event(api, startEvent, &status);
    if (start == NULL) return status;
    event *end = pin_event(api, endEvent, &status);
    if (end == NULL) {
        mgrt_handle_unpin(startEvent);
        return status;
    }
    RT_LOCK(&stream_lock);
    const char *which = NULL;
    int never = 0;
    if (start->records == 0 || end->records == 0) {
        which = start->records == 0 ? "startEvent" : "endEvent";
        never = 1;
    } else if (start->completed != start->records || end->completed != end->records) {
        which = start->completed != start->records ? "startEvent" : "endEvent";
    }
    uint64_t t0 = start->stamp_ns, t1 = end->stamp_ns;
    RT_UNLOCK(&stream_lock);
    mgrt_handle_unpin(startEvent);
    mgrt_handle_unpin(endEvent);
    if (which != NULL && never) /* CANN: "event recorder null" */
        return mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "aclrtEventElapsedTime: %s has never been recorded",
                            which);
    if (which != NULL) /* CANN: an unfinished record has no valid time stamp */
        return mgrt_fail_at(api, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                            "aclrtEventElapsedTime: %s's latest record has not completed yet; synchronize its "
                            "stream or the event first",
                            which);
    *ms = (float)(((double)t1 - (double)t0) / 1e6);
    return ACL_SUCCESS;
}
