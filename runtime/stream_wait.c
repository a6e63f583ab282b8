/*
 * runtime/stream_wait.c: waiting for a stream: the synchronizing thread runs runnable nodes itself
 * (no hand-off for a short launch-then-synchronize), with or without a time limit, never for
 * work behind a blocking callback it is running itself; and a stream's first error handed to
 * its synchronizer.
 */
#include "stream_internal.h"

/* ---- waiting ----------------------------------------------------------------------------------- */

/* Waits (stream_lock held) until the nodes of `s` up to `target` have finished. With timeout_ms < 0
   it runs runnable nodes itself when the worker is idle; with a limit it leaves them to the
   worker (a task cannot be stopped halfway) and gives up at the deadline. 0, ETIMEDOUT, or
   EDEADLK when the wait would be for a blocking callback the calling thread is running. */
int stream_wait_locked(stream *s, uint64_t target, int32_t timeout_ms) {
    struct timespec deadline;
    if (timeout_ms >= 0) {
        deadline = stream_deadline_after(timeout_ms);
        if (s->finished < target) stream_wake_worker_locked(s);
    }
    while (s->finished < target) {
        /* The stream stands at a blocking callback this thread is running: what is behind it
           waits for this very call to return. EDEADLK instead of a hang. */
        if (stream_blocked_by_my_callback_locked(s)) return EDEADLK;
        if (timeout_ms < 0 && !s->running && s->head != NULL && s->head->sequence <= target) {
            if (stream_step_locked(s)) continue;
        }
        if (timeout_ms < 0) {
            RT_WAIT(&stream_progress, &stream_lock);
        } else {
            if (timeout_ms == 0) return ETIMEDOUT;
            if (RT_TIMEDWAIT(&stream_progress, &stream_lock, &deadline) == ETIMEDOUT && s->finished < target)
                return ETIMEDOUT;
        }
    }
    return 0;
}

/* The refusal of a call that would wait for work behind a blocking callback the calling
   thread is running (issue 25's round-3 attack: it hung). */
aclError stream_waits_for_own_callback(const char *api, const char *what) {
    if (!rt_streams_in_blocking_callback()) /* the callback is queued for this thread, not running */
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: %s stands at an ACL_CALLBACK_BLOCK callback that only the calling thread can "
                            "run (the thread subscribed to it with aclrtSubscribeReport): the wait would never "
                            "end. Call aclrtProcessReport on this thread first, or subscribe another thread",
                            api, what);
    return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: called inside an ACL_CALLBACK_BLOCK callback that %s stands at: the work it would "
                        "wait for runs only after the callback returns. Wait after the callback, or launch it "
                        "with ACL_CALLBACK_NO_BLOCK",
                        api, what);
}

/* Takes the first error of the work up to `target` (stream_lock held). */
static int32_t take_error_locked(stream *s, uint64_t target, char *message, size_t capacity) {
    message[0] = '\0';
    if (s->first_error == 0 || s->first_error_sequence > target) return 0;
    int32_t status = s->first_error;
    snprintf(message, capacity, "%s", s->first_error_message);
    s->first_error = 0;
    s->first_error_message[0] = '\0';
    return status;
}

aclError stream_synchronize_held(const char *api, stream *s, aclrtStream handle, int32_t timeout_ms) {
    char message[STREAM_MESSAGE_CAPACITY];
    RT_LOCK(&stream_lock);
    uint64_t target = s->queued;
    int waited = stream_wait_locked(s, target, timeout_ms);
    int32_t first_error = waited == 0 ? take_error_locked(s, target, message, sizeof message) : 0;
    const char *dropped_by = waited == 0 && s->first_dropped != 0 && s->first_dropped <= target ? s->dropped_by : NULL;
    const aclError dropped_status = s->dropped_status;
    RT_UNLOCK(&stream_lock);
    if (waited == EDEADLK) {
        char name[64];
        return stream_waits_for_own_callback(api, stream_name(handle, name, sizeof name));
    }
    if (waited != 0) {
        char name[64];
        return mgrt_fail_at(api, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                            "%s: %s did not finish its work within %d ms", api,
                            stream_name(handle, name, sizeof name), (int)timeout_ms);
    }
    if (dropped_by != NULL) {
        /* The wait ended because the work was thrown away, not done: not a success. */
        char name[64];
        return mgrt_fail_at(api, dropped_status,
                            "%s: %s ran while this call waited: the work queued on %s was dropped, not run", api,
                            dropped_by, stream_name(handle, name, sizeof name));
    }
    if (first_error != 0) {
        mgrt_set_recent_error(message);
        rt_last_error_note(first_error);
        mgrt_log(MGRT_LOG_ERROR, "RUNTIME", "%s: queued work failed, error code %d: %s", api, (int)first_error,
                 message);
    }
    return first_error;
}

/* CANN's StreamSynchronize, DeviceSynchronize and EventSynchronize take -1 or a positive
   number of milliseconds and refuse the rest with 107000, before they look at the handle. */
aclError stream_check_timeout(const char *api, int32_t timeout) {
    if (timeout < -1 || timeout == 0)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: timeout %d is invalid; use -1 (wait for ever) or a positive number of "
                            "milliseconds",
                            api, (int)timeout);
    return ACL_SUCCESS;
}


void rt_streams_wait_all(void) {
    long count = 0;
    stream **pinned = streams_pin_all(&count);
    for (long i = 0; i < count; i++) {
        RT_LOCK(&stream_lock);
        stream_wait_locked(pinned[i], pinned[i]->queued, -1);
        RT_UNLOCK(&stream_lock);
        stream_unpin(pinned[i]);
    }
    free(pinned);
}
