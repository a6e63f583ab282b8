/*
 * runtime/acl_callback.c: host callbacks: aclrtSubscribeReport binds a thread to a stream, a
 * callback node reached by the stream is posted to that thread, which runs it inside
 * aclrtProcessReport. ACL_CALLBACK_BLOCK holds the stream at the node until it returns.
 */
#include "stream_internal.h"

/* ---- host callbacks ------------------------------------------------------------------------------------ */

static subscriber *find_subscriber_locked(uint64_t thread_id) {
    for (subscriber *sub = stream_subscribers; sub != NULL; sub = sub->next)
        if (sub->thread_id == thread_id) return sub;
    return NULL;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream_handle) {
    static const char api[] = "aclrtSubscribeReport";
    held_stream h;
    aclError status = stream_hold(api, stream_handle, &h);
    if (status != ACL_SUCCESS) return status;
    char name[64];
    RT_LOCK(&stream_lock);
    subscriber *sub = find_subscriber_locked(threadId);
    if (h.s->sub != NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_STREAM_SUBSCRIBE,
                              "%s: %s already has a subscribed thread (%llu); one thread per stream", api,
                              stream_name(stream_handle, name, sizeof name), (unsigned long long)h.s->sub->thread_id);
    } else if (sub == NULL && stream_subscriber_count >= MAX_SUBSCRIBED_THREADS) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: %d threads are subscribed already (the limit)",
                              api, MAX_SUBSCRIBED_THREADS);
    } else {
        if (sub == NULL) {
            sub = mgrt_calloc(1, sizeof *sub);
            if (sub == NULL) {
                status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
            } else {
                sub->thread_id = threadId;
                sub->next = stream_subscribers;
                stream_subscribers = sub;
                stream_subscriber_count++;
            }
        }
        if (sub != NULL) {
            sub->streams++;
            h.s->sub = sub;
        }
    }
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    return status;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream_handle) {
    static const char api[] = "aclrtUnSubscribeReport";
    held_stream h;
    aclError status = stream_hold(api, stream_handle, &h);
    if (status != ACL_SUCCESS) return status;
    char name[64];
    RT_LOCK(&stream_lock);
    /* CANN's CbSubscribe::Delete: a stream nobody subscribed to is 107011; one another thread
       subscribed to is 107012. */
    if (h.s->sub == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: %s has no subscribed thread", api,
                              stream_name(stream_handle, name, sizeof name));
    } else if (h.s->sub->thread_id != threadId) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE,
                              "%s: thread %llu is not subscribed to %s (thread %llu is)", api,
                              (unsigned long long)threadId, stream_name(stream_handle, name, sizeof name),
                              (unsigned long long)h.s->sub->thread_id);
    } else {
        h.s->sub->streams--;
        stream_forget_subscriber_locked(h.s->sub);
        h.s->sub = NULL;
        pthread_cond_broadcast(&stream_progress); /* a waiter with no stream left goes (ProcessReport) */
    }
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    return status;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream_handle) {
    static const char api[] = "aclrtLaunchCallback";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    /* CANN's acl layer checks blockType (100000); its runtime then the function (107000). */
    if (blockType != ACL_CALLBACK_BLOCK && blockType != ACL_CALLBACK_NO_BLOCK)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "aclrtLaunchCallback: blockType %d is neither ACL_CALLBACK_BLOCK nor ACL_CALLBACK_NO_BLOCK",
                            (int)blockType);
    if (fn == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID, "aclrtLaunchCallback: fn is NULL");
    held_stream h;
    if ((status = stream_hold_own(api, stream_handle, &h)) != ACL_SUCCESS) return status;
    task_node *node = stream_node_new(NODE_CALLBACK);
    report *rep = mgrt_calloc(1, sizeof *rep);
    char name[64];
    stream_hold_if_late(api);
    RT_LOCK(&stream_lock);
    if (node == NULL || rep == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    } else if (!stream_accepting_work) {
        status = mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclFinalize has been called", api);
    } else if (h.s->sub == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_STREAM_NO_CB_REG,
                              "%s: no thread is subscribed to %s; call aclrtSubscribeReport first", api,
                              stream_name(stream_handle, name, sizeof name));
    } else {
        rep->fn = fn;
        rep->user_data = userData;
        rep->block = blockType == ACL_CALLBACK_BLOCK;
        node->rep = rep;
        status = stream_append_locked(api, h.s, stream_handle, node, 1);
    }
    if (status != ACL_SUCCESS) {
        mgrt_free(node);
        mgrt_free(rep);
    }
    RT_UNLOCK(&stream_lock);
    stream_release_held(&h);
    return status;
}

aclError aclrtProcessReport(int32_t timeout) {
    static const char api[] = "aclrtProcessReport";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (timeout < -1 || timeout == 0)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "aclrtProcessReport: timeout %d is invalid; use -1 (wait for ever) or a number of "
                            "milliseconds > 0",
                            (int)timeout);
    uint64_t me = (uint64_t)pthread_self();
    RT_LOCK(&stream_lock);
    subscriber *sub = find_subscriber_locked(me);
    if (sub == NULL || sub->closed || (sub->streams == 0 && sub->head == NULL)) {
        RT_UNLOCK(&stream_lock);
        return mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE,
                            "aclrtProcessReport: the calling thread (%llu) is not subscribed to any stream "
                            "(aclrtSubscribeReport)",
                            (unsigned long long)me);
    }
    struct timespec deadline = stream_deadline_after(timeout > 0 ? timeout : 0);
    /* Counted while it waits: aclFinalize closes the subscriber, wakes this thread and frees
       the subscriber only once every waiter has left (it was freed under a waiter: issue 25). */
    sub->waiters++;
    int timed_out = 0;
    /* Also left when the thread's last stream was unsubscribed (or destroyed) meanwhile:
       nothing can come any more, and a wait without limit hung for good (round-3 attack). */
    while (sub->head == NULL && !sub->closed && sub->streams > 0 && !timed_out) {
        if (timeout < 0)
            RT_WAIT(&stream_progress, &stream_lock);
        else
            timed_out = RT_TIMEDWAIT(&stream_progress, &stream_lock, &deadline) == ETIMEDOUT && sub->head == NULL;
    }
    sub->waiters--;
    if (sub->closed || timed_out || sub->head == NULL) {
        /* aclFinalize retires the streams (orphaning the waiter) before it closes it */
        const int closed = sub->closed || !stream_accepting_work, orphaned = !closed && !timed_out;
        if (closed) pthread_cond_broadcast(&stream_progress); /* aclFinalize waits for the waiters */
        if (orphaned) stream_forget_subscriber_locked(sub);
        RT_UNLOCK(&stream_lock);
        if (closed)
            return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE,
                                "aclrtProcessReport: aclFinalize ran while the thread waited for callbacks; the "
                                "subscription is gone (end the callback thread's loop)");
        if (orphaned)
            return mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE,
                                "aclrtProcessReport: the calling thread (%llu) was unsubscribed from its last stream "
                                "while it waited (aclrtUnSubscribeReport, or the stream was destroyed)",
                                (unsigned long long)me);
        return mgrt_fail_at(api, ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport: no callback came within %d ms",
                            (int)timeout);
    }
    /* Run every callback posted so far, in order, outside the lock. */
    report *list = sub->head;
    sub->head = sub->tail = NULL;
    stream_forget_subscriber_locked(sub); /* unsubscribed from every stream meanwhile */
    RT_UNLOCK(&stream_lock);
    while (list != NULL) {
        report *next = list->next;
        if (list->block) rt_blocking_callback_enter();
        list->fn(list->user_data);
        if (list->block) rt_blocking_callback_leave();
        RT_LOCK(&stream_lock);
        if (!list->block || list->abandoned)
            mgrt_free(list);
        else
            list->done = 1; /* the stream frees it as it moves on */
        pthread_cond_broadcast(&stream_progress);
        RT_UNLOCK(&stream_lock);
        list = next;
    }
    return ACL_SUCCESS;
}
