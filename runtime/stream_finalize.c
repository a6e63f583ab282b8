/*
 * runtime/stream_finalize.c: the stream layer's life: opening at aclInit, a context's default stream
 * going with its context, and aclFinalize's drain (every stream, every subscriber).
 */
#include "stream_internal.h"

/* ---- initialisation and finalisation ---------------------------------------------------------------- */

static const rt_context_stream_hooks context_hooks = {rt_stream_release_default, rt_streams_release_of_context};

void rt_streams_open(void) {
    rt_context_set_stream_hooks(&context_hooks);
    RT_LOCK(&stream_lock);
    stream_accepting_work = 1;
    RT_UNLOCK(&stream_lock);
}

void rt_stream_release_default(rt_context *ctx) {
    RT_LOCK(&stream_lock);
    stream *s = ctx->default_stream;
    ctx->default_stream = NULL;
    int retire = 0;
    if (s != NULL) {
        stream_wait_locked(s, s->queued, -1);
        s->released = 1;
        retire = s->pins == 0 && !s->retiring;
        if (retire) s->retiring = 1;
    }
    RT_UNLOCK(&stream_lock);
    if (retire) stream_retire(s);
}

size_t rt_streams_destroy_all(void) {
    RT_LOCK(&stream_lock);
    stream_accepting_work = 0;
    /* Finish what can finish; a node that can never run (a blocking callback nobody processes,
       say) is dropped by its worker once it is told to stop. */
    size_t user_streams = 0;
    for (stream *s = stream_live_list; s != NULL; s = s->next_live) {
        if (s->token != NULL && !s->released) user_streams++;
        stream_wake_worker_locked(s);
    }
    RT_UNLOCK(&stream_lock);
    /* User streams: release their handles (a racing call's pin defers the retirement). */
    long count = 0;
    stream **all = streams_pin_all(&count);
    for (long i = 0; i < count; i++) {
        RT_LOCK(&stream_lock);
        stream *s = all[i];
        s->stopping = 1; /* the worker drains, dropping what is blocked */
        stream_wake_worker_locked(s);
        pthread_cond_broadcast(&stream_progress);
        while (s->head != NULL || s->running) RT_WAIT(&stream_progress, &stream_lock);
        void *token = s->token;
        RT_UNLOCK(&stream_lock);
        if (token != NULL) mgrt_handle_release(token, MGRT_HANDLE_STREAM);
        RT_LOCK(&stream_lock);
        if (s->owner != NULL && s->owner->default_stream == s) s->owner->default_stream = NULL;
        /* A user stream is released by its handle's destructor (stream_handle_destroyed),
           now or at the last stream_unpin of a racing call's handle pin: marking it here as well
           let our stream_unpin below retire and free it while that call, between its handle pin
           and its stream pin, still had to touch it (a use after free TSan caught, with
           aclrtDestroyStream racing aclFinalize). A stream without a handle (a default
           stream, or one still being created) has no destructor to wait for. */
        if (token == NULL) s->released = 1;
        RT_UNLOCK(&stream_lock);
        stream_unpin(s);
    }
    free(all);
    /* Every stream is retired once its last racing pin is dropped: wait for that, so that
       nothing queued can touch the memory aclFinalize releases next. */
    RT_LOCK(&stream_lock);
    while (stream_live_count > 0) RT_WAIT(&stream_progress, &stream_lock);
    /* Threads waiting in aclrtProcessReport: woken, and gone from the stream_subscribers, before
       those are freed. */
    for (;;) {
        int waiting = 0;
        for (subscriber *sub = stream_subscribers; sub != NULL; sub = sub->next) {
            sub->closed = 1;
            waiting += sub->waiters;
        }
        if (waiting == 0) break;
        pthread_cond_broadcast(&stream_progress);
        RT_WAIT(&stream_progress, &stream_lock);
    }
    /* Callbacks posted and never processed. */
    while (stream_subscribers != NULL) {
        subscriber *sub = stream_subscribers;
        stream_subscribers = sub->next;
        while (sub->head != NULL) {
            report *rep = sub->head;
            sub->head = rep->next;
            mgrt_free(rep);
        }
        mgrt_free(sub);
    }
    stream_subscriber_count = 0;
    RT_UNLOCK(&stream_lock);
    return user_streams;
}
