/*
 * runtime/stream_queue.c: the queue and its worker: nodes and how each kind runs (one step at a
 * time, under stream_lock, a task outside it), the worker thread, stream creation, pins and
 * retirement, and resolving a stream handle for a call. Everything above it in the stream
 * layer queues, waits or inspects through these.
 */
#include "stream_internal.h"

pthread_mutex_t stream_lock = RT_MUTEX_INITIALIZER;
pthread_cond_t stream_progress = PTHREAD_COND_INITIALIZER;

/* The runtime's timed waits (a synchronize or aclrtProcessReport with a timeout) all wait on
   stream_progress, against deadlines on CLOCK_MONOTONIC: a step of the wall clock (NTP, a
   machine resumed) must neither end a wait early nor stretch it (CI saw a 600 ms
   aclrtProcessReport return after less). The clock is set when the library loads, before
   any thread can wait. */
__attribute__((constructor)) static void stream_progress_on_the_monotonic_clock(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&stream_progress, &attr);
    pthread_condattr_destroy(&attr);
}
stream *stream_live_list;
size_t stream_live_count;
static uint64_t next_stream_id = 1;
int stream_accepting_work;      /* between aclInit and aclFinalize */

uint64_t stream_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- vector clocks ------------------------------------------------------------------------ */

uint64_t vclock_get(const vclock *c, uint64_t id) {
    for (size_t i = 0; i < c->count; i++)
        if (c->entries[i].stream_id == id) return c->entries[i].sequence;
    return 0;
}

/* Raises the entry of `id` to at least `sequence`; 0 when memory runs out. */
int vclock_raise(vclock *c, uint64_t id, uint64_t sequence) {
    for (size_t i = 0; i < c->count; i++) {
        if (c->entries[i].stream_id == id) {
            if (c->entries[i].sequence < sequence) c->entries[i].sequence = sequence;
            return 1;
        }
    }
    if (c->count == c->capacity) {
        size_t capacity = c->capacity ? c->capacity * 2 : 4;
        clock_entry *grown = realloc(c->entries, capacity * sizeof *grown);
        if (grown == NULL) return 0;
        c->entries = grown;
        c->capacity = capacity;
    }
    c->entries[c->count].stream_id = id;
    c->entries[c->count].sequence = sequence;
    c->count++;
    return 1;
}

static int vclock_merge(vclock *into, const vclock *from) {
    for (size_t i = 0; i < from->count; i++)
        if (!vclock_raise(into, from->entries[i].stream_id, from->entries[i].sequence)) return 0;
    return 1;
}

int vclock_copy(vclock *into, const vclock *from) {
    into->count = 0;
    return vclock_merge(into, from);
}

/* Drops the entry of `id` (a stream that retired): nothing can race it any more. */
void vclock_forget(vclock *c, uint64_t id) {
    for (size_t i = 0; i < c->count; i++) {
        if (c->entries[i].stream_id == id) {
            memmove(&c->entries[i], &c->entries[i + 1], (c->count - i - 1) * sizeof *c->entries);
            c->count--;
            return;
        }
    }
}

void vclock_free(vclock *c) {
    free(c->entries);
    memset(c, 0, sizeof *c);
}

/* ---- events: references ------------------------------------------------------------------ */

void stream_event_unref_locked(event *ev) {
    if (--ev->refs == 0) {
        vclock_free(&ev->record_known);
        mgrt_free(ev);
    }
}

/* ---- nodes ---------------------------------------------------------------------------------- */

/* Frees a node and its ranges, dropping its pins on memory blocks (a block freed while the
   node was queued is freed here). */
void stream_node_free(task_node *node) {
    for (size_t i = 0; i < node->hold_count; i++) rt_memory_drop(node->holds[i]);
    mgrt_free(node->holds);
    mgrt_free(node->accesses);
    mgrt_free(node);
}

static task_node *pop_node(stream *s) {
    task_node *node = s->head;
    s->head = node->next;
    if (s->head == NULL) s->tail = NULL;
    return node;
}

/* A task's release runs; a record counts as completed, so nobody waits for it for ever. */
void stream_drop_node_locked(stream *s, task_node *node, const char *by, aclError status) {
    s->finished = node->sequence;
    if (s->first_dropped == 0) {
        s->first_dropped = node->sequence;
        s->dropped_by = by;
        s->dropped_status = status;
    }
    switch (node->kind) {
    case NODE_TASK:
        node->release(node->task);
        break;
    case NODE_RECORD:
        if (node->ev->completed < node->generation) {
            node->ev->completed = node->generation;
            node->ev->stamp_ns = stream_now_ns();
        }
        stream_event_unref_locked(node->ev);
        break;
    case NODE_WAIT:
        node->ev->waits_done++;
        stream_event_unref_locked(node->ev);
        break;
    case NODE_RESET:
        stream_event_unref_locked(node->ev);
        break;
    case NODE_CALLBACK:
        /* Not posted yet: free the report. Posted (BLOCK, still waiting): ProcessReport will
           run it and free it. */
        if (node->rep != NULL) {
            if (node->rep->block && !node->rep->done && node->generation)
                node->rep->abandoned = 1;
            else if (!node->generation || node->rep->done)
                mgrt_free(node->rep);
        }
        break;
    }
    stream_node_free(node);
}

static void record_failure_locked(stream *s, uint64_t sequence, int32_t status, const char *message) {
    if (status != 0 && s->first_error == 0) {
        s->first_error = status;
        s->first_error_sequence = sequence;
        snprintf(s->first_error_message, sizeof s->first_error_message, "%s", message);
    }
}

static void finish_node_locked(stream *s, task_node *node) {
    s->finished = node->sequence;
    stream_node_free(node);
    pthread_cond_broadcast(&stream_progress);
}

/* Frees a subscriber nothing refers to any more (stream_lock held): no stream subscribed to it, no
   callback posted to it and not yet taken, no thread waiting on it. The table holds only
   live subscriptions, so 1024 threads that each subscribed and unsubscribed do not fill it
   for good (issue 25). */
subscriber *stream_subscribers;
int stream_subscriber_count;
void stream_forget_subscriber_locked(subscriber *sub) {
    if (sub->streams > 0 || sub->head != NULL || sub->waiters > 0) return;
    for (subscriber **at = &stream_subscribers; *at != NULL; at = &(*at)->next) {
        if (*at == sub) {
            *at = sub->next;
            stream_subscriber_count--;
            mgrt_free(sub);
            return;
        }
    }
}

/* 1 when the head of `s` is a blocking callback posted to the calling thread and not yet
   returned (stream_lock held): work queued on `s` after it cannot run until this thread has
   finished that callback, so this thread must never wait for it. */
int stream_blocked_by_my_callback_locked(const stream *s) {
    const task_node *head = s->head;
    return head != NULL && head->kind == NODE_CALLBACK && head->generation != 0 && head->rep != NULL &&
           head->rep->block && !head->rep->done && head->rep->thread_id == (uint64_t)pthread_self();
}

/* Posts a callback to the stream's subscriber; 0 when the stream has none any more. */
static int post_report_locked(stream *s, report *rep) {
    subscriber *sub = s->sub;
    if (sub == NULL) return 0;
    rep->thread_id = sub->thread_id;
    rep->next = NULL;
    if (sub->tail) sub->tail->next = rep; else sub->head = rep;
    sub->tail = rep;
    pthread_cond_broadcast(&stream_progress);
    return 1;
}

/* Runs the head node of `s` if it can run now (stream_lock held, !s->running, s->head != NULL).
   Returns 1 when a node finished (the lock may have been dropped meanwhile) or a blocking
   callback was just handed to the calling thread, 0 when the head is blocked (an event wait
   not satisfied, a blocking callback not yet returned). */
int stream_step_locked(stream *s) {
    task_node *node = s->head;
    switch (node->kind) {
    case NODE_TASK: {
        pop_node(s);
        s->running = 1;
        s->current = node;
        RT_UNLOCK(&stream_lock);
        /* A planted fault (MISHGRAD_FAULT_STEP) stands for a step that failed on the device:
           it does not run, and the stream's error path takes over. */
        int32_t status = node->injected_fault
                             ? mgrt_fail(ACLNN_ERR_INNER,
                                         "queued step %ld failed: fault injected by MISHGRAD_FAULT_STEP (the "
                                         "step did not run)",
                                         node->injected_fault)
                             : node->run(node->task);
        char message[STREAM_MESSAGE_CAPACITY] = "";
        /* The message is the stream's now, not the running thread's. */
        if (status != 0) rt_error_take_latest(message, sizeof message);
        node->release(node->task);
        RT_LOCK(&stream_lock);
        record_failure_locked(s, node->sequence, status, message);
        s->running = 0;
        s->current = NULL;
        finish_node_locked(s, node);
        return 1;
    }
    case NODE_RECORD: {
        event *ev = node->ev;
        pop_node(s);
        if (ev->completed < node->generation) {
            ev->completed = node->generation;
            ev->stamp_ns = stream_now_ns();
        }
        stream_event_unref_locked(ev);
        finish_node_locked(s, node);
        return 1;
    }
    case NODE_WAIT:
        if (node->ev->completed < node->generation) return 0;
        pop_node(s);
        node->ev->waits_done++;
        stream_event_unref_locked(node->ev);
        finish_node_locked(s, node);
        return 1;
    case NODE_RESET:
        pop_node(s);
        /* Back to the state of a new event: no record to wait for, nothing pending. */
        node->ev->completed = node->ev->records;
        stream_event_unref_locked(node->ev);
        finish_node_locked(s, node);
        return 1;
    case NODE_CALLBACK: {
        report *rep = node->rep;
        if (node->generation == 0) { /* reached: hand it to the subscribed thread */
            if (!post_report_locked(s, rep)) {
                pop_node(s);
                record_failure_locked(s, node->sequence, ACL_ERROR_RT_STREAM_NO_CB_REG,
                                      "aclrtLaunchCallback: the stream reached a callback after its thread "
                                      "was unsubscribed (aclrtUnSubscribeReport); the callback did not run");
                mgrt_free(rep);
                node->rep = NULL;
                finish_node_locked(s, node);
                return 1;
            }
            node->generation = 1; /* posted */
            if (!rep->block) {    /* ProcessReport owns and frees it */
                pop_node(s);
                node->rep = NULL;
                finish_node_locked(s, node);
                return 1;
            }
            /* Handed to the calling thread itself (the stream's subscriber, stepping the stream
               in a wait): the wait must look again (and see the deadlock), or it sleeps through
               the wake-up it just sent itself, for ever (round-3 attack). */
            if (rep->thread_id == (uint64_t)pthread_self()) return 1;
        }
        if (!rep->done) return 0;
        pop_node(s);
        mgrt_free(rep);
        node->rep = NULL;
        finish_node_locked(s, node);
        return 1;
    }
    }
    return 0;
}

/* ---- the worker --------------------------------------------------------------------------- */

static void *stream_worker(void *arg) {
    stream *s = arg;
    RT_LOCK(&stream_lock);
    for (;;) {
        if (s->head == NULL) {
            if (s->stopping) break;
            RT_WAIT(&s->work_ready, &stream_lock);
        } else if (s->running) {
            RT_WAIT(&stream_progress, &stream_lock);
        } else if (!stream_step_locked(s)) {
            if (s->stopping) { /* blocked at stop (finalize, forced destroy): drop the rest */
                const int finalizing = !stream_accepting_work;
                const char *by = finalizing ? "aclFinalize" : "the stream's destruction";
                const aclError status = finalizing ? ACL_ERROR_UNINITIALIZE : ACL_ERROR_INVALID_PARAM;
                while (s->head != NULL) stream_drop_node_locked(s, pop_node(s), by, status);
                pthread_cond_broadcast(&stream_progress);
                continue;
            }
            RT_WAIT(&stream_progress, &stream_lock);
        }
    }
    RT_UNLOCK(&stream_lock);
    return NULL;
}

void stream_wake_worker_locked(stream *s) { pthread_cond_signal(&s->work_ready); }

/* Absolute CLOCK_MONOTONIC deadline `ms` from now (stream_progress's clock). */
struct timespec stream_deadline_after(int32_t ms) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* MISHGRAD_FAULT_LATE=<api> (test builds): that API's next call, already past its entry
   checks, waits here (stream_lock not held) until aclFinalize has closed the streams, at most
   10 s, so that it meets the teardown which a racing call meets only by chance and its late
   refusal can be tested. Polls: aclFinalize broadcasts no condition for this. Once the
   streams are closed it stays 100 ms more, still holding its stream: aclFinalize must wait
   for that stream to retire, so it cannot return while the call is held (the test checks
   that none is when aclFinalize returns). */
void stream_hold_if_late(const char *api) {
    if (!rt_fault_late_call(api)) return;
    RT_LOCK(&stream_lock);
    for (int waited_ms = 0; stream_accepting_work && waited_ms < 10000; waited_ms += 2) {
        struct timespec step = stream_deadline_after(2);
        RT_TIMEDWAIT(&stream_progress, &stream_lock, &step);
    }
    const int finalizing = !stream_accepting_work;
    RT_UNLOCK(&stream_lock);
    if (finalizing) {
        struct timespec linger = {0, 100 * 1000 * 1000};
        nanosleep(&linger, NULL);
    }
    rt_fault_late_done();
}

/* ---- creation, pins, retirement ------------------------------------------------------------- */

aclError stream_new(const char *api, rt_context *owner, stream **out) {
    stream *s = mgrt_calloc(1, sizeof *s);
    if (s == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a stream", api);
    pthread_cond_init(&s->work_ready, NULL);
    s->owner = owner;
    if (pthread_create(&s->worker, NULL, stream_worker, s) != 0) {
        pthread_cond_destroy(&s->work_ready);
        mgrt_free(s);
        return mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "%s: cannot start the stream's worker thread", api);
    }
    RT_LOCK(&stream_lock);
    if (!stream_accepting_work) {
        /* aclFinalize began after the caller's check: its list of live streams is taken
           already, so a stream linked now would never be stopped, and aclFinalize would
           wait for it forever. Give the stream up instead. */
        s->stopping = 1;
        stream_wake_worker_locked(s);
        RT_UNLOCK(&stream_lock);
        pthread_join(s->worker, NULL);
        pthread_cond_destroy(&s->work_ready);
        mgrt_free(s);
        return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (aclFinalize ran during the call)",
                            api);
    }
    s->id = next_stream_id++;
    s->pins = 1; /* the creator's, dropped by stream_unpin() once it has set the stream up: until
                    then a racing aclFinalize can stop the stream but not free it */
    s->next_live = stream_live_list;
    if (stream_live_list) stream_live_list->prev_live = s;
    stream_live_list = s;
    stream_live_count++;
    RT_UNLOCK(&stream_lock);
    *out = s;
    return ACL_SUCCESS;
}

/* 1 when a stream with this id is still in the live list (stream_lock held). */
static int stream_id_live_locked(uint64_t id) {
    for (const stream *o = stream_live_list; o != NULL; o = o->next_live)
        if (o->id == id) return 1;
    return 0;
}

/* vclock_merge, keeping only the streams still live (stream_lock held): an event recorded on a
   stream that has since retired must not bring its id back into a clock that was cleaned of
   it (round-3 attack: a long-lived stream waiting on events of short-lived ones kept an
   entry per dead stream, and every queueing walked them all). */
int vclock_merge_live_locked(vclock *into, const vclock *from) {
    for (size_t i = 0; i < from->count; i++)
        if (stream_id_live_locked(from->entries[i].stream_id) &&
            !vclock_raise(into, from->entries[i].stream_id, from->entries[i].sequence))
            return 0;
    return 1;
}

/* Stops the worker (it finishes what is queued first) and frees; stream_lock not held. */
void stream_retire(stream *s) {
    RT_LOCK(&stream_lock);
    s->stopping = 1;
    stream_wake_worker_locked(s);
    pthread_cond_broadcast(&stream_progress);
    RT_UNLOCK(&stream_lock);
    pthread_join(s->worker, NULL);
    RT_LOCK(&stream_lock);
    if (s->first_error != 0)
        mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "a destroyed stream's last work failed (%d): %s", (int)s->first_error,
                 s->first_error_message);
    if (s->sub != NULL) {
        s->sub->streams--;
        stream_forget_subscriber_locked(s->sub);
        s->sub = NULL;
    }
    if (s->prev_live) s->prev_live->next_live = s->next_live; else stream_live_list = s->next_live;
    if (s->next_live) s->next_live->prev_live = s->prev_live;
    stream_live_count--;
    for (stream *o = stream_live_list; o != NULL; o = o->next_live) vclock_forget(&o->known, s->id);
    vclock_free(&s->known);
    pthread_cond_broadcast(&stream_progress);
    RT_UNLOCK(&stream_lock);
    pthread_cond_destroy(&s->work_ready);
    mgrt_free(s);
}

/* stream_lock held. */
void stream_pin_locked(stream *s) { s->pins++; }

/* stream_lock NOT held. The last stream_unpin of a released stream retires it. */
void stream_unpin(stream *s) {
    RT_LOCK(&stream_lock);
    int retire = --s->pins == 0 && s->released && !s->retiring;
    if (retire) s->retiring = 1;
    RT_UNLOCK(&stream_lock);
    if (retire) stream_retire(s);
}

/* The registry's destructor of a user stream: no new pin can reach it any more. */
void stream_handle_destroyed(void *object) {
    stream *s = object;
    RT_LOCK(&stream_lock);
    s->released = 1;
    int retire = s->pins == 0 && !s->retiring;
    if (retire) s->retiring = 1;
    RT_UNLOCK(&stream_lock);
    if (retire) stream_retire(s);
}


void stream_release_held(held_stream *h) {
    if (h->s) stream_unpin(h->s);
    rt_context_leave(h->ctx);
    h->s = NULL;
    h->ctx = NULL;
}

const char *stream_name(aclrtStream handle, char *buffer, size_t capacity) {
    if (handle == NULL)
        snprintf(buffer, capacity, "the default stream");
    else
        snprintf(buffer, capacity, "stream %p", handle);
    return buffer;
}

/* Which calls need the stream to belong to the calling thread's current context. CANN
   refuses the calls that queue work on a stream or destroy it (kernel launches, async copies
   and sets, event records, resets and waits, callbacks, stream destruction) with 107003
   ACL_ERROR_RT_STREAM_CONTEXT; it lets synchronize switch to the stream's context, and
   query, subscribe and unsubscribe do not check. */
enum { ANY_CONTEXT = 0, OWN_CONTEXT = 1, OWN_OR_ORPHANED = 2 };

/* Resolves `handle` (NULL: the current context's default stream, created on first use).
   Needs an initialized runtime and, for every stream, a current context on this thread;
   with OWN_CONTEXT, a stream the current context created. */
static aclError hold_stream_in(const char *api, aclrtStream handle, int context_rule, held_stream *out) {
    out->s = NULL;
    out->ctx = NULL;
    aclError status;
    rt_context *ctx = rt_context_enter(api, &status);
    if (ctx == NULL) return status;
    if (handle == NULL) {
        RT_LOCK(&stream_lock);
        stream *s = ctx->default_stream;
        if (s != NULL && stream_accepting_work) stream_pin_locked(s);
        int open = stream_accepting_work;
        RT_UNLOCK(&stream_lock);
        if (!open) {
            rt_context_leave(ctx);
            return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called", api);
        }
        if (s == NULL) {
            stream *made = NULL;
            status = stream_new(api, ctx, &made);
            if (status != ACL_SUCCESS) {
                rt_context_leave(ctx);
                return status;
            }
            stream_hold_if_late(api);
            RT_LOCK(&stream_lock);
            const int late = !stream_accepting_work || made->released; /* aclFinalize began */
            if (!late && ctx->default_stream == NULL) ctx->default_stream = made;
            s = late ? NULL : ctx->default_stream;
            if (s != NULL) stream_pin_locked(s);
            if (s != made) made->released = 1; /* another thread made it first, or too late */
            RT_UNLOCK(&stream_lock);
            stream_unpin(made); /* the creator's pin: retires it unless it is the default stream */
            if (s == NULL) {
                rt_context_leave(ctx);
                return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE,
                                    "%s: aclInit has not been called (aclFinalize ran during the call)", api);
            }
        }
        out->s = s;
        out->ctx = ctx; /* keeps the context, and so its default stream, alive */
        return ACL_SUCCESS;
    }
    stream *s = mgrt_handle_pin(handle, MGRT_HANDLE_STREAM);
    if (s == NULL) {
        rt_context_leave(ctx);
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream %p %s", api, handle,
                            mgrt_handle_describe(handle, MGRT_HANDLE_STREAM));
    }
    /* A stream whose context was destroyed belongs to no context: it can only be destroyed
       (OWN_OR_ORPHANED), from any context, so that it need not leak until aclFinalize. */
    int orphaned = mgrt_handle_state_of(s->context_token, MGRT_HANDLE_CONTEXT) != MGRT_HANDLE_LIVE;
    if (context_rule != ANY_CONTEXT && s->context_token != ctx->token && !(context_rule == OWN_OR_ORPHANED && orphaned)) {
        const void *current = ctx->token;
        const void *creator = s->context_token;
        mgrt_handle_unpin(handle);
        rt_context_leave(ctx);
        return mgrt_fail_at(api, ACL_ERROR_RT_STREAM_CONTEXT,
                            "%s: stream %p does not belong to the calling thread's current context %p (it was "
                            "created in context %p%s); call aclrtSetCurrentContext with the stream's context first",
                            api, handle, current, creator, orphaned ? ", since destroyed" : "");
    }
    RT_LOCK(&stream_lock);
    stream_pin_locked(s);
    RT_UNLOCK(&stream_lock);
    mgrt_handle_unpin(handle);
    rt_context_leave(ctx);
    out->s = s;
    return ACL_SUCCESS;
}

aclError stream_hold(const char *api, aclrtStream handle, held_stream *out) {
    return hold_stream_in(api, handle, ANY_CONTEXT, out);
}

/* Streams CANN creates for models, AI CPU scheduling or the device alone: the host queues no
   work on them here (CANN: synchronizing one returns success at once). */
#define WORKLESS_STREAM_FLAGS (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)

static const char *workless_flag_name(uint32_t flags) {
    return (flags & ACL_STREAM_PERSISTENT)     ? "ACL_STREAM_PERSISTENT"
           : (flags & ACL_STREAM_CPU_SCHEDULE) ? "ACL_STREAM_CPU_SCHEDULE"
                                               : "ACL_STREAM_DEVICE_USE_ONLY";
}

/* The stream to queue work on: the caller's context's, and not one of those above. */
aclError stream_hold_own(const char *api, aclrtStream handle, held_stream *out) {
    aclError status = hold_stream_in(api, handle, OWN_CONTEXT, out);
    if (status == ACL_SUCCESS && (out->s->flags & WORKLESS_STREAM_FLAGS)) {
        const char *name = workless_flag_name(out->s->flags);
        stream_release_held(out);
        out->s = NULL;
        out->ctx = NULL;
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: stream %p was created with %s (a model, AI CPU or device-only stream); this CPU "
                            "runtime queues no work on it: use a stream created without that flag",
                            api, handle, name);
    }
    return status;
}

aclError stream_hold_to_destroy(const char *api, aclrtStream handle, held_stream *out) {
    return hold_stream_in(api, handle, OWN_OR_ORPHANED, out);
}


/* Pins every live stream (stream_lock not held); *count is how many. NULL with *count 0 when there
   are none, NULL with *count -1 when memory runs out. Plain malloc: memory calls wait through
   this, and MISHGRAD_FAULT_ALLOC's count must not change with them. */
stream **streams_pin_all(long *count) {
    RT_LOCK(&stream_lock);
    size_t n = 0;
    for (stream *s = stream_live_list; s != NULL; s = s->next_live)
        if (!s->retiring) n++;
    stream **pinned = n > 0 ? malloc(n * sizeof *pinned) : NULL;
    size_t at = 0;
    for (stream *s = stream_live_list; pinned != NULL && s != NULL; s = s->next_live)
        if (!s->retiring) {
            pinned[at++] = s;
            stream_pin_locked(s);
        }
    /* One unlock for both outcomes: the out-of-memory path (plain malloc, which no planted
       fault reaches) has no unlock of its own to lose. */
    RT_UNLOCK(&stream_lock);
    *count = n > 0 && pinned == NULL ? -1 : (long)n;
    return pinned;
}


task_node *stream_node_new(node_kind kind) {
    task_node *node = mgrt_calloc(1, sizeof *node);
    if (node != NULL) node->kind = kind;
    return node;
}
