/*
 * runtime/acl_stream.c: streams (in-order queues), events, host callbacks.
 *
 * A stream is a queue of nodes run in order: tasks (a launch's steps, async copies and
 * memsets), event records, event waits, event resets and host callbacks. Each stream has a
 * worker thread. aclrtSynchronizeStream does not just wait: when the worker has not picked up
 * the next task yet, the waiting thread runs it itself, so a short launch-then-synchronize
 * costs no thread hand-off. A lone task is not handed to the worker unless it is very large
 * (a cross-core wake-up costs tens of microseconds on a virtual machine); the worker is woken
 * once work piles up, for a large task, and for every event, wait and callback node (so
 * events complete, and other streams waiting on them progress, without a synchronize).
 *
 * One mutex (`sched`) guards every stream, event and subscription; `progress` is broadcast
 * whenever a node finishes, an event completes or a callback returns. Tasks run outside it.
 *
 * Events. A record captures the work queued on its stream so far: its node completes (and
 * takes the event's time stamp) when that work is done. aclrtStreamWaitEvent queues a wait
 * for the event's latest record at the time of the call; the waiting stream does not pass it
 * until that record has completed. Nodes hold a reference to their event, so an event
 * destroyed with work outstanding lives until the work is done (as CANN documents).
 *
 * Callbacks. aclrtSubscribeReport binds a thread id to a stream; when the stream reaches a
 * callback node the callback is posted to that thread, which runs it inside
 * aclrtProcessReport. ACL_CALLBACK_BLOCK keeps the stream at the node until the callback has
 * returned; ACL_CALLBACK_NO_BLOCK lets it go on at once.
 *
 * Races between streams. Every task may declare the byte ranges it reads and writes. At
 * queueing, a task whose ranges overlap (one side writing) those of an unfinished task on
 * another stream, with no event wait ordering the two (tracked with a vector clock per
 * stream), is refused with a message naming both streams: on a device the two would race.
 *
 * Handles. User streams and events are registry handles (mgrt_handle.h); the NULL stream is
 * the current context's default stream. A stream in use is pinned (`pins`, under sched); a
 * destroyed one is freed (its worker joined) once the last pin is gone.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

#define STREAM_MESSAGE_CAPACITY 1024
/* A task of this many elements or more wakes the worker at once: ~1 ms of kernel time, next
   to which the wake-ups are a few percent. */
#define WAKE_WORKER_ELEMENTS (UINT64_C(1) << 22)
/* Unfinished nodes on the stream at which the worker is woken (the one just queued counts). */
#define WAKE_WORKER_QUEUE_LENGTH 2
/* CANN's limit on threads subscribed with aclrtSubscribeReport. */
#define MAX_SUBSCRIBED_THREADS 1024

typedef enum node_kind { NODE_TASK, NODE_RECORD, NODE_WAIT, NODE_RESET, NODE_CALLBACK } node_kind;

/* Which streams' work is known to be finished before a point of a stream: pairs of
   (stream id, sequence), sorted by id. */
typedef struct clock_entry {
    uint64_t stream_id;
    uint64_t sequence;
} clock_entry;
typedef struct vclock {
    clock_entry *entries;
    size_t count, capacity;
} vclock;

typedef struct event event;
typedef struct report report;

typedef struct task_node {
    node_kind kind;
    uint64_t sequence;
    struct task_node *next;
    /* NODE_TASK */
    mgrt_task_run_fn run;
    mgrt_task_release_fn release;
    void *task;
    long injected_fault;        /* MISHGRAD_FAULT_STEP's N when this step is to fail, else 0 */
    mgrt_access *accesses;      /* byte ranges read and written (owned), for race checks */
    size_t access_count;
    uintptr_t *holds;           /* pins on the memory blocks of those ranges (rt_memory_hold), */
    size_t hold_count;          /* dropped when the node is done: a freed block outlives them */
    /* NODE_RECORD / NODE_WAIT / NODE_RESET */
    event *ev;
    uint64_t generation;        /* record: the record's number; wait: the record waited for */
    /* NODE_CALLBACK */
    report *rep;
} task_node;

typedef struct subscriber {
    uint64_t thread_id;
    report *head, *tail;        /* callbacks posted, not yet run */
    int streams;                /* streams subscribed to it */
    int waiters;                /* threads waiting in aclrtProcessReport on it */
    int closed;                 /* aclFinalize: waiters leave, then it is freed */
    struct subscriber *next;
} subscriber;

struct report {
    aclrtCallback fn;
    void *user_data;
    int block;
    int done;                   /* the callback has returned */
    int abandoned;              /* BLOCK: its node was dropped; ProcessReport frees it */
    uint64_t thread_id;         /* the subscribed thread it was posted to */
    report *next;
};

typedef struct stream {
    void *token;                /* registry handle; NULL for a context's default stream */
    uint64_t id;                /* never reused; names the stream in vector clocks */
    rt_context *owner;          /* the context whose default stream this is, else NULL */
    const void *context_token;  /* the context that created it (its registry handle: never
                                   valid twice, so a destroyed context matches no current one) */
    pthread_cond_t work_ready;  /* worker: a node was queued, or stop */
    task_node *head, *tail;
    task_node *current;         /* the task running now (running == 1), for race checks */
    uint64_t queued;            /* sequence number of the last node queued */
    uint64_t finished;          /* ... and of the last one finished (they finish in order) */
    int running;
    int stopping;
    int released;               /* destroyed: free when unpinned */
    int retiring;
    int pins;
    pthread_t worker;
    int32_t first_error;        /* first failure not yet reported by a synchronize */
    uint64_t first_error_sequence;
    char first_error_message[STREAM_MESSAGE_CAPACITY];
    uint32_t flags, priority;
    subscriber *sub;            /* aclrtSubscribeReport */
    vclock known;               /* other streams' work ordered before this stream's tail */
    struct stream *next_live, *prev_live;
} stream;

struct event {
    void *token;
    uint32_t flags;
    int made_by;                /* 0 aclrtCreateEvent, 1 ...WithFlag, 2 ...ExWithFlag */
    uint64_t records;           /* records queued */
    uint64_t completed;         /* number of the latest record completed */
    uint64_t stamp_ns;          /* CLOCK_MONOTONIC time of that completion */
    uint64_t waits_queued, waits_done;
    stream *record_stream;      /* where the latest record is queued (valid while pending) */
    uint64_t record_sequence;
    vclock record_known;        /* what the latest record orders after (its stream's clock) */
    int refs;                   /* the handle + nodes naming it */
};

static pthread_mutex_t sched = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER;
static stream *live_streams;
static size_t live_stream_count;
static uint64_t next_stream_id = 1;
static int accepting_work;      /* between aclInit and aclFinalize */

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- vector clocks ------------------------------------------------------------------------ */

static uint64_t vclock_get(const vclock *c, uint64_t id) {
    for (size_t i = 0; i < c->count; i++)
        if (c->entries[i].stream_id == id) return c->entries[i].sequence;
    return 0;
}

/* Raises the entry of `id` to at least `sequence`; 0 when memory runs out. */
static int vclock_raise(vclock *c, uint64_t id, uint64_t sequence) {
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

static int vclock_copy(vclock *into, const vclock *from) {
    into->count = 0;
    return vclock_merge(into, from);
}

/* Drops the entry of `id` (a stream that retired): nothing can race it any more. */
static void vclock_forget(vclock *c, uint64_t id) {
    for (size_t i = 0; i < c->count; i++) {
        if (c->entries[i].stream_id == id) {
            memmove(&c->entries[i], &c->entries[i + 1], (c->count - i - 1) * sizeof *c->entries);
            c->count--;
            return;
        }
    }
}

static void vclock_free(vclock *c) {
    free(c->entries);
    memset(c, 0, sizeof *c);
}

/* ---- events: references ------------------------------------------------------------------ */

static void event_unref_locked(event *ev) {
    if (--ev->refs == 0) {
        vclock_free(&ev->record_known);
        mgrt_free(ev);
    }
}

/* ---- nodes ---------------------------------------------------------------------------------- */

/* Frees a node and its ranges, dropping its pins on memory blocks (a block freed while the
   node was queued is freed here). */
static void free_node(task_node *node) {
    for (size_t i = 0; i < node->hold_count; i++) rt_memory_drop(node->holds[i]);
    free(node->holds);
    free(node->accesses);
    mgrt_free(node);
}

static task_node *pop_node(stream *s) {
    task_node *node = s->head;
    s->head = node->next;
    if (s->head == NULL) s->tail = NULL;
    return node;
}

/* Frees a node that did not run (sched held). A task's release runs; a record counts as
   completed, so nobody waits for it for ever. */
static void discard_node_locked(task_node *node) {
    switch (node->kind) {
    case NODE_TASK:
        node->release(node->task);
        break;
    case NODE_RECORD:
        if (node->ev->completed < node->generation) {
            node->ev->completed = node->generation;
            node->ev->stamp_ns = now_ns();
        }
        event_unref_locked(node->ev);
        break;
    case NODE_WAIT:
        node->ev->waits_done++;
        event_unref_locked(node->ev);
        break;
    case NODE_RESET:
        event_unref_locked(node->ev);
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
    free_node(node);
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
    free_node(node);
    pthread_cond_broadcast(&progress);
}

/* Frees a subscriber nothing refers to any more (sched held): no stream subscribed to it, no
   callback posted to it and not yet taken, no thread waiting on it. The table holds only
   live subscriptions, so 1024 threads that each subscribed and unsubscribed do not fill it
   for good (issue 25). */
static subscriber *subscribers;
static int subscriber_count;
static void forget_subscriber_locked(subscriber *sub) {
    if (sub->streams > 0 || sub->head != NULL || sub->waiters > 0) return;
    for (subscriber **at = &subscribers; *at != NULL; at = &(*at)->next) {
        if (*at == sub) {
            *at = sub->next;
            subscriber_count--;
            mgrt_free(sub);
            return;
        }
    }
}

/* 1 when the head of `s` is a blocking callback posted to the calling thread and not yet
   returned (sched held): work queued on `s` after it cannot run until this thread has
   finished that callback, so this thread must never wait for it. */
static int blocked_by_my_callback_locked(const stream *s) {
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
    pthread_cond_broadcast(&progress);
    return 1;
}

/* Runs the head node of `s` if it can run now (sched held, !s->running, s->head != NULL).
   Returns 1 when a node finished (the lock may have been dropped meanwhile) or a blocking
   callback was just handed to the calling thread, 0 when the head is blocked (an event wait
   not satisfied, a blocking callback not yet returned). */
static int step_locked(stream *s) {
    task_node *node = s->head;
    switch (node->kind) {
    case NODE_TASK: {
        pop_node(s);
        s->running = 1;
        s->current = node;
        pthread_mutex_unlock(&sched);
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
        pthread_mutex_lock(&sched);
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
            ev->stamp_ns = now_ns();
        }
        event_unref_locked(ev);
        finish_node_locked(s, node);
        return 1;
    }
    case NODE_WAIT:
        if (node->ev->completed < node->generation) return 0;
        pop_node(s);
        node->ev->waits_done++;
        event_unref_locked(node->ev);
        finish_node_locked(s, node);
        return 1;
    case NODE_RESET:
        pop_node(s);
        /* Back to the state of a new event: no record to wait for, nothing pending. */
        node->ev->completed = node->ev->records;
        event_unref_locked(node->ev);
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
    pthread_mutex_lock(&sched);
    for (;;) {
        if (s->head == NULL) {
            if (s->stopping) break;
            pthread_cond_wait(&s->work_ready, &sched);
        } else if (s->running) {
            pthread_cond_wait(&progress, &sched);
        } else if (!step_locked(s)) {
            if (s->stopping) { /* blocked at stop (finalize, forced destroy): drop the rest */
                while (s->head != NULL) {
                    task_node *node = pop_node(s);
                    s->finished = node->sequence;
                    discard_node_locked(node);
                }
                pthread_cond_broadcast(&progress);
                continue;
            }
            pthread_cond_wait(&progress, &sched);
        }
    }
    pthread_mutex_unlock(&sched);
    return NULL;
}

static void wake_worker_locked(stream *s) { pthread_cond_signal(&s->work_ready); }

/* ---- creation, pins, retirement ------------------------------------------------------------- */

static aclError stream_new(const char *api, rt_context *owner, stream **out) {
    stream *s = mgrt_calloc(1, sizeof *s);
    if (s == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a stream", api);
    pthread_cond_init(&s->work_ready, NULL);
    s->owner = owner;
    if (pthread_create(&s->worker, NULL, stream_worker, s) != 0) {
        pthread_cond_destroy(&s->work_ready);
        mgrt_free(s);
        return mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "%s: cannot start the stream's worker thread", api);
    }
    pthread_mutex_lock(&sched);
    if (!accepting_work) {
        /* aclFinalize began after the caller's check: its list of live streams is taken
           already, so a stream linked now would never be stopped, and aclFinalize would
           wait for it forever. Give the stream up instead. */
        s->stopping = 1;
        wake_worker_locked(s);
        pthread_mutex_unlock(&sched);
        pthread_join(s->worker, NULL);
        pthread_cond_destroy(&s->work_ready);
        mgrt_free(s);
        return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (aclFinalize ran during the call)",
                            api);
    }
    s->id = next_stream_id++;
    s->pins = 1; /* the creator's, dropped by unpin() once it has set the stream up: until
                    then a racing aclFinalize can stop the stream but not free it */
    s->next_live = live_streams;
    if (live_streams) live_streams->prev_live = s;
    live_streams = s;
    live_stream_count++;
    pthread_mutex_unlock(&sched);
    *out = s;
    return ACL_SUCCESS;
}

/* 1 when a stream with this id is still in the live list (sched held). */
static int stream_id_live_locked(uint64_t id) {
    for (const stream *o = live_streams; o != NULL; o = o->next_live)
        if (o->id == id) return 1;
    return 0;
}

/* vclock_merge, keeping only the streams still live (sched held): an event recorded on a
   stream that has since retired must not bring its id back into a clock that was cleaned of
   it (round-3 attack: a long-lived stream waiting on events of short-lived ones kept an
   entry per dead stream, and every queueing walked them all). */
static int vclock_merge_live_locked(vclock *into, const vclock *from) {
    for (size_t i = 0; i < from->count; i++)
        if (stream_id_live_locked(from->entries[i].stream_id) &&
            !vclock_raise(into, from->entries[i].stream_id, from->entries[i].sequence))
            return 0;
    return 1;
}

/* Stops the worker (it finishes what is queued first) and frees; sched not held. */
static void stream_retire(stream *s) {
    pthread_mutex_lock(&sched);
    s->stopping = 1;
    wake_worker_locked(s);
    pthread_cond_broadcast(&progress);
    pthread_mutex_unlock(&sched);
    pthread_join(s->worker, NULL);
    pthread_mutex_lock(&sched);
    if (s->first_error != 0)
        mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "a destroyed stream's last work failed (%d): %s", (int)s->first_error,
                 s->first_error_message);
    if (s->sub != NULL) {
        s->sub->streams--;
        forget_subscriber_locked(s->sub);
        s->sub = NULL;
    }
    if (s->prev_live) s->prev_live->next_live = s->next_live; else live_streams = s->next_live;
    if (s->next_live) s->next_live->prev_live = s->prev_live;
    live_stream_count--;
    for (stream *o = live_streams; o != NULL; o = o->next_live) vclock_forget(&o->known, s->id);
    vclock_free(&s->known);
    pthread_cond_broadcast(&progress);
    pthread_mutex_unlock(&sched);
    pthread_cond_destroy(&s->work_ready);
    mgrt_free(s);
}

/* sched held. */
static void pin_locked(stream *s) { s->pins++; }

/* sched NOT held. The last unpin of a released stream retires it. */
static void unpin(stream *s) {
    pthread_mutex_lock(&sched);
    int retire = --s->pins == 0 && s->released && !s->retiring;
    if (retire) s->retiring = 1;
    pthread_mutex_unlock(&sched);
    if (retire) stream_retire(s);
}

/* The registry's destructor of a user stream: no new pin can reach it any more. */
static void stream_handle_destroyed(void *object) {
    stream *s = object;
    pthread_mutex_lock(&sched);
    s->released = 1;
    int retire = s->pins == 0 && !s->retiring;
    if (retire) s->retiring = 1;
    pthread_mutex_unlock(&sched);
    if (retire) stream_retire(s);
}

/* A resolved stream: pinned, plus the context pin when it is a default stream. */
typedef struct held_stream {
    stream *s;
    rt_context *ctx;
} held_stream;

static void release_held(held_stream *h) {
    if (h->s) unpin(h->s);
    rt_context_leave(h->ctx);
    h->s = NULL;
    h->ctx = NULL;
}

static const char *stream_name(aclrtStream handle, char *buffer, size_t capacity) {
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
        pthread_mutex_lock(&sched);
        stream *s = ctx->default_stream;
        if (s != NULL && accepting_work) pin_locked(s);
        int open = accepting_work;
        pthread_mutex_unlock(&sched);
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
            pthread_mutex_lock(&sched);
            const int late = !accepting_work || made->released; /* aclFinalize began */
            if (!late && ctx->default_stream == NULL) ctx->default_stream = made;
            s = late ? NULL : ctx->default_stream;
            if (s != NULL) pin_locked(s);
            if (s != made) made->released = 1; /* another thread made it first, or too late */
            pthread_mutex_unlock(&sched);
            unpin(made); /* the creator's pin: retires it unless it is the default stream */
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
    pthread_mutex_lock(&sched);
    pin_locked(s);
    pthread_mutex_unlock(&sched);
    mgrt_handle_unpin(handle);
    rt_context_leave(ctx);
    out->s = s;
    return ACL_SUCCESS;
}

static aclError hold_stream(const char *api, aclrtStream handle, held_stream *out) {
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
static aclError hold_own_stream(const char *api, aclrtStream handle, held_stream *out) {
    aclError status = hold_stream_in(api, handle, OWN_CONTEXT, out);
    if (status == ACL_SUCCESS && (out->s->flags & WORKLESS_STREAM_FLAGS)) {
        const char *name = workless_flag_name(out->s->flags);
        release_held(out);
        out->s = NULL;
        out->ctx = NULL;
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: stream %p was created with %s (a model, AI CPU or device-only stream); this CPU "
                            "runtime queues no work on it: use a stream created without that flag",
                            api, handle, name);
    }
    return status;
}

static aclError hold_stream_to_destroy(const char *api, aclrtStream handle, held_stream *out) {
    return hold_stream_in(api, handle, OWN_OR_ORPHANED, out);
}

/* ---- waiting ----------------------------------------------------------------------------------- */

/* Absolute CLOCK_REALTIME deadline `ms` from now (for pthread_cond_timedwait). */
static struct timespec deadline_after(int32_t ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* Waits (sched held) until the nodes of `s` up to `target` have finished. With timeout_ms < 0
   it runs runnable nodes itself when the worker is idle; with a limit it leaves them to the
   worker (a task cannot be stopped halfway) and gives up at the deadline. 0, ETIMEDOUT, or
   EDEADLK when the wait would be for a blocking callback the calling thread is running. */
static int wait_stream_locked(stream *s, uint64_t target, int32_t timeout_ms) {
    struct timespec deadline;
    if (timeout_ms >= 0) {
        deadline = deadline_after(timeout_ms);
        if (s->finished < target) wake_worker_locked(s);
    }
    while (s->finished < target) {
        /* The stream stands at a blocking callback this thread is running: what is behind it
           waits for this very call to return. EDEADLK instead of a hang. */
        if (blocked_by_my_callback_locked(s)) return EDEADLK;
        if (timeout_ms < 0 && !s->running && s->head != NULL && s->head->sequence <= target) {
            if (step_locked(s)) continue;
        }
        if (timeout_ms < 0) {
            pthread_cond_wait(&progress, &sched);
        } else {
            if (timeout_ms == 0) return ETIMEDOUT;
            if (pthread_cond_timedwait(&progress, &sched, &deadline) == ETIMEDOUT && s->finished < target)
                return ETIMEDOUT;
        }
    }
    return 0;
}

/* The refusal of a call that would wait for work behind a blocking callback the calling
   thread is running (issue 25's round-3 attack: it hung). */
static aclError waits_for_own_callback(const char *api, const char *what) {
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

aclError rt_refuse_in_blocking_callback(const char *api) {
    if (!rt_streams_in_blocking_callback()) return ACL_SUCCESS;
    return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: cannot be called inside an ACL_CALLBACK_BLOCK callback: it waits for streams, and the "
                        "callback's stream stands at the callback until it returns",
                        api);
}

/* Takes the first error of the work up to `target` (sched held). */
static int32_t take_error_locked(stream *s, uint64_t target, char *message, size_t capacity) {
    message[0] = '\0';
    if (s->first_error == 0 || s->first_error_sequence > target) return 0;
    int32_t status = s->first_error;
    snprintf(message, capacity, "%s", s->first_error_message);
    s->first_error = 0;
    s->first_error_message[0] = '\0';
    return status;
}

static aclError synchronize_held(const char *api, stream *s, aclrtStream handle, int32_t timeout_ms) {
    char message[STREAM_MESSAGE_CAPACITY];
    pthread_mutex_lock(&sched);
    uint64_t target = s->queued;
    int waited = wait_stream_locked(s, target, timeout_ms);
    int32_t first_error = waited == 0 ? take_error_locked(s, target, message, sizeof message) : 0;
    pthread_mutex_unlock(&sched);
    if (waited == EDEADLK) {
        char name[64];
        return waits_for_own_callback(api, stream_name(handle, name, sizeof name));
    }
    if (waited != 0) {
        char name[64];
        return mgrt_fail_at(api, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                            "%s: %s did not finish its work within %d ms", api,
                            stream_name(handle, name, sizeof name), (int)timeout_ms);
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
static aclError check_timeout(const char *api, int32_t timeout) {
    if (timeout < -1 || timeout == 0)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: timeout %d is invalid; use -1 (wait for ever) or a positive number of "
                            "milliseconds",
                            api, (int)timeout);
    return ACL_SUCCESS;
}

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
    /* The stream is in the live list already (aclFinalize reads it): set it up under sched */
    pthread_mutex_lock(&sched);
    s->context_token = context_token;
    s->priority = priority;
    s->flags = flags;
    pthread_mutex_unlock(&sched);
    void *token = mgrt_handle_register(MGRT_HANDLE_STREAM, s, stream_handle_destroyed);
    if (token == NULL) {
        pthread_mutex_lock(&sched);
        s->released = 1;
        pthread_mutex_unlock(&sched);
        unpin(s);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory registering a stream", api);
    }
    pthread_mutex_lock(&sched);
    const int late = !accepting_work || s->released; /* aclFinalize began: hand nothing out */
    if (!late) s->token = token;
    pthread_mutex_unlock(&sched);
    if (late) {
        mgrt_handle_release(token, MGRT_HANDLE_STREAM); /* marks it released; our pin defers */
        unpin(s);
        return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (aclFinalize ran during the call)",
                            api);
    }
    unpin(s);
    *handle = token;
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *handle) { return create_stream("aclrtCreateStream", handle, 0, 0); }

/* `priority` is reserved in CANN (unused) and `flag` bits CANN does not define give an
   ordinary stream, as CANN documents. FAST_LAUNCH, FAST_SYNC and HUGE change only speed or
   capacity on a device and are accepted. PERSISTENT (model binding), CPU_SCHEDULE (AI CPU
   model scheduling) and DEVICE_USE_ONLY (a stream the host never drives) are created, as
   CANN creates them, and synchronizing one returns at once, as CANN documents; work queued
   on one is refused with 207000 at the queueing call (hold_own_stream). */
aclError aclrtCreateStreamWithConfig(aclrtStream *handle, uint32_t priority, uint32_t flag) {
    static const char api[] = "aclrtCreateStreamWithConfig";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    return create_stream(api, handle, priority, flag);
}

/* Drops the nodes of `s` that have not started (sched held); returns how many. They are
   taken off the stream first, so nothing more starts, but discarded only once the task
   running now has finished: a dropped event record counts as completed, and a stream
   waiting on it must not pass before the output of that task is written (issue 25: it
   read stale results). */
static size_t drop_queued_locked(stream *s) {
    task_node *dropped_head = s->head;
    s->head = s->tail = NULL;
    while (s->running) pthread_cond_wait(&progress, &sched);
    size_t dropped = 0;
    while (dropped_head != NULL) {
        task_node *node = dropped_head;
        dropped_head = node->next;
        s->finished = node->sequence;
        discard_node_locked(node);
        dropped++;
    }
    pthread_cond_broadcast(&progress);
    return dropped;
}

static aclError destroy_stream(const char *api, aclrtStream handle, int force) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream is NULL (the default stream cannot be destroyed)",
                            api);
    held_stream h;
    if ((status = hold_stream_to_destroy(api, handle, &h)) != ACL_SUCCESS) return status;
    pthread_mutex_lock(&sched);
    if (force) {
        size_t dropped = drop_queued_locked(h.s);
        if (dropped > 0)
            mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "%s: dropped %zu queued node(s) that had not started", api, dropped);
    } else if (wait_stream_locked(h.s, h.s->queued, -1) == EDEADLK) {
        pthread_mutex_unlock(&sched);
        release_held(&h);
        char name[64];
        return waits_for_own_callback(api, stream_name(handle, name, sizeof name));
    }
    pthread_mutex_unlock(&sched);
    int won = mgrt_handle_release(handle, MGRT_HANDLE_STREAM);
    release_held(&h); /* the last pin: the stream retires here (or with a racing user's pin) */
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
    aclError status = check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    held_stream h;
    if ((status = hold_stream(api, handle, &h)) != ACL_SUCCESS) return status;
    status = synchronize_held(api, h.s, handle, timeout);
    release_held(&h);
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
    if ((status = hold_stream(api, handle, &h)) != ACL_SUCCESS) return status;
    pthread_mutex_lock(&sched);
    int done = h.s->finished == h.s->queued;
    /* A lone task may be waiting for a synchronize to run it: a program polling this call
       must see it finish, so hand the work to the worker. */
    if (!done) wake_worker_locked(h.s);
    pthread_mutex_unlock(&sched);
    release_held(&h);
    *status_out = done ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

/* Pins every live stream (sched not held); *count is how many. NULL with *count 0 when there
   are none, NULL with *count -1 when memory runs out. Plain malloc: memory calls wait through
   this, and MISHGRAD_FAULT_ALLOC's count must not change with them. */
static stream **pin_all(long *count) {
    pthread_mutex_lock(&sched);
    size_t n = 0;
    for (stream *s = live_streams; s != NULL; s = s->next_live)
        if (!s->retiring) n++;
    stream **pinned = n > 0 ? malloc(n * sizeof *pinned) : NULL;
    if (n > 0 && pinned == NULL) {
        pthread_mutex_unlock(&sched);
        *count = -1;
        return NULL;
    }
    size_t at = 0;
    for (stream *s = live_streams; s != NULL; s = s->next_live)
        if (!s->retiring) {
            pinned[at++] = s;
            pin_locked(s);
        }
    pthread_mutex_unlock(&sched);
    *count = (long)n;
    return pinned;
}

void rt_streams_wait_all(void) {
    long count = 0;
    stream **pinned = pin_all(&count);
    for (long i = 0; i < count; i++) {
        pthread_mutex_lock(&sched);
        wait_stream_locked(pinned[i], pinned[i]->queued, -1);
        pthread_mutex_unlock(&sched);
        unpin(pinned[i]);
    }
    free(pinned);
}

size_t rt_streams_release_of_context(const void *context_token) {
    long count = 0;
    stream **pinned = pin_all(&count);
    if (count < 0) {
        /* They stay usable and are reclaimed by aclFinalize: a leak, never a crash. */
        mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "out of memory listing the streams of context %p; they stay alive",
                 context_token);
        return 0;
    }
    size_t released = 0;
    for (long i = 0; i < count; i++) {
        stream *s = pinned[i];
        pthread_mutex_lock(&sched);
        int mine = s->token != NULL && !s->released && s->context_token == context_token;
        if (mine) wait_stream_locked(s, s->queued, -1);
        void *token = s->token;
        pthread_mutex_unlock(&sched);
        /* The handle goes stale now; the stream retires with its last pin (ours, or a
           racing call's), its worker finishing whatever that call still queued. */
        if (mine && mgrt_handle_release(token, MGRT_HANDLE_STREAM)) released++;
        unpin(s);
    }
    free(pinned);
    return released;
}

static aclError synchronize_device(const char *api, int32_t timeout) {
    aclError status = check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    if ((status = rt_require_context(api)) != ACL_SUCCESS) return status;
    long count = 0;
    stream **pinned = pin_all(&count);
    if (count < 0) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    aclError first = ACL_SUCCESS;
    struct timespec deadline = deadline_after(timeout > 0 ? timeout : 0);
    for (long i = 0; i < count; i++) {
        int32_t left = timeout;
        if (timeout > 0) { /* what remains of the limit */
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            int64_t ms = (int64_t)(deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1000000;
            left = ms > 0 ? (int32_t)ms : 0;
        }
        if (first == ACL_SUCCESS || first != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
            aclError each = synchronize_held(api, pinned[i], pinned[i]->token, left);
            if (first == ACL_SUCCESS) first = each;
        }
        unpin(pinned[i]);
    }
    free(pinned);
    return first;
}

aclError aclrtSynchronizeDevice(void) { return synchronize_device("aclrtSynchronizeDevice", -1); }

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    return synchronize_device("aclrtSynchronizeDeviceWithTimeout", timeout);
}

/* ---- queueing, with the race check ----------------------------------------------------------------- */

/* An access as the byte runs it touches: `run` bytes at base + sum(i[k] * strides[k]) for
   each i[k] < dims[k]. Dims whose stride is 0 (a broadcast input reading one element many
   times) or that step within the run so far (a dense inner dim: x[:, :h]'s columns) are
   folded into the run, so x[:, :h] is one run per row and a contiguous view one run. */
typedef struct run_shape {
    uintptr_t base;
    uint64_t run;
    int rank;
    uint64_t dims[MGRT_ACCESS_MAX_RANK], strides[MGRT_ACCESS_MAX_RANK]; /* ascending strides, > 0 */
} run_shape;

static void shape_of(const mgrt_access *x, run_shape *s) {
    s->base = (uintptr_t)x->ptr;
    s->rank = 0;
    if (x->rank == 0) {
        s->run = x->bytes;
        return;
    }
    /* The moving dims, by ascending stride (insertion sort: at most 8). */
    for (int d = 0; d < x->rank; d++) {
        if (x->dims[d] <= 1 || x->strides[d] == 0) continue;
        int k = s->rank++;
        for (; k > 0 && s->strides[k - 1] > (uint64_t)x->strides[d]; k--) {
            s->dims[k] = s->dims[k - 1];
            s->strides[k] = s->strides[k - 1];
        }
        s->dims[k] = (uint64_t)x->dims[d];
        s->strides[k] = (uint64_t)x->strides[d];
    }
    /* Fold the smallest dim while its steps stay within the run: the copies of the run it
       makes then cover one interval. No overflow: every element lies inside the access's
       range (checked when it was queued), and the folded run ends at its last byte. */
    s->run = x->elem_bytes;
    int folded = 0;
    while (folded < s->rank && s->strides[folded] <= s->run) {
        s->run += (s->dims[folded] - 1) * s->strides[folded];
        folded++;
    }
    for (int k = folded; k < s->rank; k++) {
        s->dims[k - folded] = s->dims[k];
        s->strides[k - folded] = s->strides[k];
    }
    s->rank -= folded;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b != 0) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* 1 when a proof by residues shows that `a` and `b` share no byte: every stride of both is
   a multiple of p (their gcd), so each byte of `a` lies at base_a + r (mod p) with r < run_a,
   each of `b` likewise, and if those two arcs of the circle of p are apart, no byte is
   shared whatever the dims. The proof is exact when it succeeds, costs O(rank), and covers
   the layouts programs split work by: x[:, :h] and x[:, h:] (p is the row pitch), x[0::2] and x[1::2] (p is two
   elements), every other row, slices of 3-D and 4-D tensors, a transposed view, and a copy or
   set of bytes in another view's gaps. 0: no proof (the bytes may or may not be shared). */
static int residues_apart(const run_shape *a, const run_shape *b) {
    uint64_t p = 0;
    for (int k = 0; k < a->rank; k++) p = gcd_u64(p, a->strides[k]);
    for (int k = 0; k < b->rank; k++) p = gcd_u64(p, b->strides[k]);
    if (p == 0 || a->run >= p || b->run >= p) return 0; /* single runs, or an arc covers it all */
    uint64_t ra = (uint64_t)(a->base % p), rb = (uint64_t)(b->base % p);
    uint64_t delta = rb >= ra ? rb - ra : p - (ra - rb); /* where b's arc starts, from a's */
    return delta >= a->run && b->run <= p - delta;
}

/* Runs and blocks the comparisons below visit, at most, for one task being queued (all its
   accesses against all unfinished work): past that (interleavings no residue proof
   separates, over millions of runs) the accesses compared are taken to conflict. A shared
   byte usually turns up within a few visits, and a visit costs nanoseconds: this bounds the
   time a launch spends on the check, under the lock, to about 10 ms. */
#define MAX_VISITS (UINT64_C(1) << 22)

/* Walks the runs of `s` that meet [lo, hi), calling fn(ctx, from, to) with each one's part
   inside it; stops at fn's first nonzero value and returns it, or -1 when the visits ran out. */
typedef int (*run_fn)(void *ctx, uintptr_t from, uintptr_t to);

typedef struct run_walk {
    const run_shape *s;
    uintptr_t lo, hi;
    run_fn fn;
    void *ctx;
    uint64_t *visits_left;                /* shared by the nested walks of one comparison */
    uint64_t reach[MGRT_ACCESS_MAX_RANK]; /* reach[k]: the bytes one index of dim k spans */
} run_walk;

/* The runs under dims 0..top, the outer indices giving `start`: only the indices whose
   block [start + i * stride, + reach) meets the window are visited, so a small window in
   a large view costs a visit or two per dim. No overflow: the blocks lie inside the
   access's range (checked at queueing), and the window inside it too. */
static int walk_runs(const run_walk *w, int top, uintptr_t start) {
    if (*w->visits_left == 0) return -1;
    --*w->visits_left;
    if (top < 0) {
        uintptr_t end = start + w->s->run;
        uintptr_t from = start > w->lo ? start : w->lo, to = end < w->hi ? end : w->hi;
        return from < to ? w->fn(w->ctx, from, to) : 0;
    }
    if (start >= w->hi) return 0;
    uint64_t stride = w->s->strides[top], reach = w->reach[top];
    uint64_t first = w->lo > start && w->lo - start >= reach ? (w->lo - start - reach) / stride + 1 : 0;
    uint64_t last = (w->hi - start - 1) / stride;
    if (last > w->s->dims[top] - 1) last = w->s->dims[top] - 1;
    for (uint64_t i = first; i <= last; i++) {
        int stop = walk_runs(w, top - 1, start + i * stride);
        if (stop) return stop;
    }
    return 0;
}

static int for_each_run(const run_shape *s, uintptr_t lo, uintptr_t hi, run_fn fn, void *ctx,
                        uint64_t *visits_left) {
    run_walk w = {.s = s, .lo = lo, .hi = hi, .fn = fn, .ctx = ctx, .visits_left = visits_left};
    uint64_t below = s->run; /* what the run and the dims below k span */
    for (int k = 0; k < s->rank; k++) {
        w.reach[k] = below;
        below += (s->dims[k] - 1) * s->strides[k];
    }
    return walk_runs(&w, s->rank - 1, s->base);
}

static int found_a_run(void *ctx, uintptr_t from, uintptr_t to) {
    (void)ctx;
    return from < to;
}

/* For each run of the outer access: does the other have a byte in it? */
typedef struct run_query {
    const run_shape *other;
    uint64_t *visits_left;
} run_query;

static int other_meets_run(void *ctx, uintptr_t from, uintptr_t to) {
    const run_query *q = ctx;
    return for_each_run(q->other, from, to, found_a_run, NULL, q->visits_left);
}

/* About how many runs of `s` meet a window of `bytes` bytes (saturating): the walk over
   the access with fewer goes outside, each of its runs a query into the other. */
static uint64_t runs_in_window(const run_shape *s, uint64_t bytes) {
    uint64_t n = 1;
    for (int k = 0; k < s->rank; k++) {
        uint64_t each = bytes / s->strides[k] + 1;
        if (each > s->dims[k]) each = s->dims[k];
        n = n > UINT64_MAX / each ? UINT64_MAX : n * each;
    }
    return n;
}

/* 1 when `a` and `b` share a byte. The ranges decide unless one is a strided view and the
   ranges meet. Then a residue proof (above) separates the common interleaved layouts at any
   size, in O(rank). Failing that, the runs of one in the window where the ranges meet are
   walked, and for each, whether the other has a byte in it (a walk that visits only the
   runs near it): exact, no memory needed, and stopping at the first shared byte. More than
   `*visits_left` visits: taken to conflict. */
static int ranges_overlap(const mgrt_access *a, const mgrt_access *b, uint64_t *visits_left) {
    if (a->bytes == 0 || b->bytes == 0) return 0;
    uintptr_t a0 = (uintptr_t)a->ptr, b0 = (uintptr_t)b->ptr;
    if (!(a0 < b0 + b->bytes && b0 < a0 + a->bytes)) return 0;
    if (a->rank == 0 && b->rank == 0) return 1;
    run_shape sa, sb;
    shape_of(a, &sa);
    shape_of(b, &sb);
    if (residues_apart(&sa, &sb)) return 0;
    uintptr_t lo = a0 > b0 ? a0 : b0, hi = a0 + a->bytes < b0 + b->bytes ? a0 + a->bytes : b0 + b->bytes;
    int a_outside = runs_in_window(&sa, hi - lo) <= runs_in_window(&sb, hi - lo);
    run_query q = {a_outside ? &sb : &sa, visits_left};
    return for_each_run(a_outside ? &sa : &sb, lo, hi, other_meets_run, &q, visits_left) != 0;
}

/* The first task of `s` after sequence `ordered` (those up to it are ordered before `node`
   by event waits) that conflicts with `node`'s accesses. The ordered ones are skipped here,
   not after: the first conflicting task may be ordered while a later one is not (A writes,
   records an event, writes again; B waits for the event and writes), and that later one is
   the race. */
static const task_node *conflicting_task(const stream *s, const task_node *node, uint64_t ordered,
                                         uint64_t *visits_left, const mgrt_access **mine,
                                         const mgrt_access **theirs) {
    const task_node *candidates[1] = {s->current};
    for (int pass = 0; pass < 2; pass++) {
        const task_node *t = pass == 0 ? candidates[0] : s->head;
        for (; t != NULL; t = pass == 0 ? NULL : t->next) {
            if (t->kind != NODE_TASK || t->access_count == 0 || t->sequence <= ordered) continue;
            for (size_t i = 0; i < node->access_count; i++)
                for (size_t j = 0; j < t->access_count; j++)
                    if ((node->accesses[i].write || t->accesses[j].write) &&
                        ranges_overlap(&node->accesses[i], &t->accesses[j], visits_left)) {
                        *mine = &node->accesses[i];
                        *theirs = &t->accesses[j];
                        return t;
                    }
        }
    }
    return NULL;
}

/* Appends `node` to `s` (sched held). Returns 0, or a race status with the message set. */
static aclError append_locked(const char *api, stream *s, aclrtStream handle, task_node *node, int wake_now) {
    if (node->access_count > 0) {
        uint64_t visits_left = MAX_VISITS;
        for (stream *other = live_streams; other != NULL; other = other->next_live) {
            if (other == s || other->finished == other->queued) continue;
            const mgrt_access *mine = NULL, *theirs = NULL;
            const task_node *t = conflicting_task(other, node, vclock_get(&s->known, other->id), &visits_left, &mine,
                                                  &theirs);
            if (t == NULL) continue;
            char here[64], there[64];
            stream_name(handle, here, sizeof here);
            if (other->token != NULL)
                snprintf(there, sizeof there, "stream %p", other->token);
            else
                snprintf(there, sizeof there, "a default stream");
            return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                                "%s: cross-stream race: work queued on %s %s [%p, +%llu bytes), which unfinished "
                                "work on %s %s [%p, +%llu bytes), and no event orders the two; record an event "
                                "on %s and call aclrtStreamWaitEvent on %s first (or synchronize %s)%s",
                                api, here, mine->write ? "writes" : "reads", mine->ptr,
                                (unsigned long long)mine->bytes, there, theirs->write ? "writes" : "reads",
                                theirs->ptr, (unsigned long long)theirs->bytes, there, here, there,
                                visits_left == 0 ? "; the two strided layouts interleave over more runs than "
                                                   "are compared (2^22), so they are taken to share bytes"
                                                 : "");
        }
    }
    node->sequence = ++s->queued;
    node->next = NULL;
    if (s->tail != NULL) s->tail->next = node; else s->head = node;
    s->tail = node;
    if (wake_now || s->queued - s->finished >= WAKE_WORKER_QUEUE_LENGTH) wake_worker_locked(s);
    return ACL_SUCCESS;
}

void rt_streams_wait_overlapping(const mgrt_access *accesses, size_t access_count) {
    task_node probe;
    memset(&probe, 0, sizeof probe);
    probe.kind = NODE_TASK;
    probe.accesses = (mgrt_access *)accesses;
    probe.access_count = access_count;
    pthread_mutex_lock(&sched);
    for (;;) {
        stream *found = NULL;
        uint64_t target = 0, visits_left = MAX_VISITS; /* out of visits: wait for that work */
        for (stream *other = live_streams; other != NULL && found == NULL; other = other->next_live) {
            /* A stream held at a blocking callback this thread runs: the work behind it
               waits for this very call (issue 25: a copy in the callback deadlocked). */
            if (other->retiring || other->finished == other->queued || blocked_by_my_callback_locked(other)) continue;
            const mgrt_access *mine = NULL, *theirs = NULL;
            const task_node *t = conflicting_task(other, &probe, 0, &visits_left, &mine, &theirs);
            if (t != NULL) {
                found = other;
                target = t->sequence;
            }
        }
        if (found == NULL) break;
        /* Tasks finish in order: one step towards that one (run here when its stream is
           idle), or a wait for progress, then look again: the stream may meanwhile have
           stopped at a blocking callback of this thread's. Errors stay for the stream's next
           synchronize. */
        pin_locked(found);
        if (found->running || found->head == NULL || found->head->sequence > target || !step_locked(found))
            pthread_cond_wait(&progress, &sched);
        pthread_mutex_unlock(&sched);
        unpin(found);
        pthread_mutex_lock(&sched);
    }
    pthread_mutex_unlock(&sched);
}

/* 1 when a strided access keeps mgrt_access's promise: dims >= 1, strides >= 0, and every
   element inside [ptr, ptr + bytes). The race check's walks rely on it (no overflow, no
   index past MGRT_ACCESS_MAX_RANK); one that does not is checked as its whole range. */
static int access_is_sound(const mgrt_access *x) {
    if (x->rank < 1 || x->rank > MGRT_ACCESS_MAX_RANK || x->elem_bytes == 0 || x->elem_bytes > x->bytes) return 0;
    uint64_t reach = x->elem_bytes;
    for (int d = 0; d < x->rank; d++) {
        if (x->dims[d] < 1 || x->strides[d] < 0) return 0;
        uint64_t steps = (uint64_t)x->dims[d] - 1, stride = (uint64_t)x->strides[d];
        if (stride != 0 && steps > (x->bytes - reach) / stride) return 0;
        reach += steps * stride;
    }
    return 1;
}

static task_node *new_node(node_kind kind) {
    task_node *node = mgrt_calloc(1, sizeof *node);
    if (node != NULL) node->kind = kind;
    return node;
}

/* Queues a task; on failure its release runs and nothing was queued. Acl status. */
static aclError submit_task(const char *api, aclrtStream handle, mgrt_task_run_fn run, mgrt_task_release_fn release,
                            void *task, uint64_t work_elements, const mgrt_access *accesses, size_t access_count,
                            held_stream *keep, uint64_t *sequence) {
    task_node *node = new_node(NODE_TASK);
    mgrt_access *copy = access_count ? malloc(access_count * sizeof *copy) : NULL;
    uintptr_t *holds = access_count ? malloc(2 * access_count * sizeof *holds) : NULL;
    if (node == NULL || (access_count && (copy == NULL || holds == NULL))) {
        mgrt_free(node);
        free(copy);
        free(holds);
        release(task);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory queueing work", api);
    }
    if (access_count) memcpy(copy, accesses, access_count * sizeof *copy);
    for (size_t i = 0; i < access_count; i++)
        if (copy[i].rank != 0 && !access_is_sound(&copy[i])) copy[i].rank = 0;
    node->run = run;
    node->release = release;
    node->task = task;
    node->accesses = copy;
    node->access_count = access_count;
    /* The caller holds the blocks it checked (a launch's pins, a copy's holds) until this
       returns, so they are still allocated: the node's own pins keep them so until it is done. */
    node->holds = holds;
    for (size_t i = 0; i < access_count; i++)
        node->hold_count += rt_memory_hold(copy[i].ptr, copy[i].bytes, 0, &holds[node->hold_count]);
    held_stream h;
    aclError status = hold_own_stream(api, handle, &h);
    if (status == ACL_SUCCESS) {
        pthread_mutex_lock(&sched);
        status = accepting_work ? append_locked(api, h.s, handle, node, work_elements >= WAKE_WORKER_ELEMENTS)
                                : mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclFinalize has been called", api);
        if (status == ACL_SUCCESS) {
            node->injected_fault = rt_fault_step_planned();
            if (sequence) *sequence = node->sequence;
        }
        pthread_mutex_unlock(&sched);
    }
    if (status != ACL_SUCCESS) {
        free_node(node);
        release(task);
    }
    if (status == ACL_SUCCESS && keep != NULL)
        *keep = h;
    else
        release_held(&h);
    return status;
}

int32_t mgrt_stream_submit_access(const char *api, aclrtStream handle, mgrt_task_run_fn run,
                                  mgrt_task_release_fn release, void *task, uint64_t work_elements,
                                  const mgrt_access *accesses, size_t access_count) {
    aclError status =
        submit_task(api, handle, run, release, task, work_elements, accesses, access_count, NULL, NULL);
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
    aclError status = submit_task(api, handle, run, release, task, wait_done ? WAKE_WORKER_ELEMENTS : 0, accesses,
                                  access_count, wait_done ? &h : NULL, &sequence);
    if (status != ACL_SUCCESS || !wait_done) return status;
    /* Returns once the task has run (a copy from pageable host memory, as CANN does). Its
       error, if any, stays for the stream's synchronize. */
    /* Not behind a blocking callback this thread runs: the copy would wait for itself (the
       caller staged a pageable source, so the bytes are taken already). */
    pthread_mutex_lock(&sched);
    if (!blocked_by_my_callback_locked(h.s)) wait_stream_locked(h.s, sequence, -1);
    pthread_mutex_unlock(&sched);
    release_held(&h);
    return ACL_SUCCESS;
}

int mgrt_stream_is_valid(aclrtStream handle) {
    if (!mgrt_initialized()) return 0;
    if (handle == NULL) return 1;
    return mgrt_handle_state_of(handle, MGRT_HANDLE_STREAM) == MGRT_HANDLE_LIVE;
}

/* ---- events -------------------------------------------------------------------------------------------- */

static void event_handle_destroyed(void *object) {
    pthread_mutex_lock(&sched);
    event_unref_locked(object);
    pthread_mutex_unlock(&sched);
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
    ev->token = token;
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

/* The event behind `handle`, pinned in the registry (unpin with mgrt_handle_unpin). */
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
    if ((status = hold_own_stream(api, stream_handle, &h)) != ACL_SUCCESS) {
        mgrt_handle_unpin(handle);
        return status;
    }
    task_node *node = new_node(kind);
    pthread_mutex_lock(&sched);
    if (node == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    } else if (!accepting_work) {
        status = mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclFinalize has been called", api);
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
        status = append_locked(api, h.s, stream_handle, node, 1);
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
    pthread_mutex_unlock(&sched);
    release_held(&h);
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
    pthread_mutex_lock(&sched);
    *complete = waits ? ev->waits_done == ev->waits_queued : ev->completed == ev->records;
    /* Event::QueryEventStatus with no record: RECORDED for Ex events, INIT (not ready) for
       the others. */
    if (what == QUERY_RECORDED && ev->records == 0 && ev->made_by != 2) *complete = 0;
    /* A record still pending behind a lone task: let the worker run it, so polling ends. */
    if (!*complete && !waits && ev->record_stream != NULL) wake_worker_locked(ev->record_stream);
    pthread_mutex_unlock(&sched);
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
    aclError status = check_timeout(api, timeout);
    if (status != ACL_SUCCESS) return status;
    event *ev = pin_event(api, handle, &status);
    if (ev == NULL) return status;
    pthread_mutex_lock(&sched);
    const uint64_t target = ev->records;
    struct timespec deadline = deadline_after(timeout > 0 ? timeout : 0);
    int timed_out = 0, deadlocked = 0;
    while (ev->completed < target && !timed_out && !deadlocked) {
        stream *s = ev->record_stream; /* alive while the record is pending (it is queued) */
        if (blocked_by_my_callback_locked(s)) { /* the record is behind this thread's callback */
            deadlocked = 1;
            break;
        }
        if (timeout < 0 && !s->running && s->head != NULL && s->head->sequence <= ev->record_sequence) {
            if (step_locked(s)) continue;
        }
        if (timeout >= 0) wake_worker_locked(s);
        if (timeout < 0)
            pthread_cond_wait(&progress, &sched);
        else if (timeout == 0 ||
                 (pthread_cond_timedwait(&progress, &sched, &deadline) == ETIMEDOUT && ev->completed < target))
            timed_out = 1;
    }
    pthread_mutex_unlock(&sched);
    mgrt_handle_unpin(handle);
    if (deadlocked) return waits_for_own_callback(api, "the stream of the event's record");
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
    pthread_mutex_lock(&sched);
    const char *which = NULL;
    int never = 0;
    if (start->records == 0 || end->records == 0) {
        which = start->records == 0 ? "startEvent" : "endEvent";
        never = 1;
    } else if (start->completed != start->records || end->completed != end->records) {
        which = start->completed != start->records ? "startEvent" : "endEvent";
    }
    uint64_t t0 = start->stamp_ns, t1 = end->stamp_ns;
    pthread_mutex_unlock(&sched);
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

/* ---- host callbacks ------------------------------------------------------------------------------------ */

static subscriber *find_subscriber_locked(uint64_t thread_id) {
    for (subscriber *sub = subscribers; sub != NULL; sub = sub->next)
        if (sub->thread_id == thread_id) return sub;
    return NULL;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream_handle) {
    static const char api[] = "aclrtSubscribeReport";
    held_stream h;
    aclError status = hold_stream(api, stream_handle, &h);
    if (status != ACL_SUCCESS) return status;
    char name[64];
    pthread_mutex_lock(&sched);
    subscriber *sub = find_subscriber_locked(threadId);
    if (h.s->sub != NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_STREAM_SUBSCRIBE,
                              "%s: %s already has a subscribed thread (%llu); one thread per stream", api,
                              stream_name(stream_handle, name, sizeof name), (unsigned long long)h.s->sub->thread_id);
    } else if (sub == NULL && subscriber_count >= MAX_SUBSCRIBED_THREADS) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: %d threads are subscribed already (the limit)",
                              api, MAX_SUBSCRIBED_THREADS);
    } else {
        if (sub == NULL) {
            sub = mgrt_calloc(1, sizeof *sub);
            if (sub == NULL) {
                status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
            } else {
                sub->thread_id = threadId;
                sub->next = subscribers;
                subscribers = sub;
                subscriber_count++;
            }
        }
        if (sub != NULL) {
            sub->streams++;
            h.s->sub = sub;
        }
    }
    pthread_mutex_unlock(&sched);
    release_held(&h);
    return status;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream_handle) {
    static const char api[] = "aclrtUnSubscribeReport";
    held_stream h;
    aclError status = hold_stream(api, stream_handle, &h);
    if (status != ACL_SUCCESS) return status;
    char name[64];
    pthread_mutex_lock(&sched);
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
        forget_subscriber_locked(h.s->sub);
        h.s->sub = NULL;
        pthread_cond_broadcast(&progress); /* a waiter with no stream left goes (ProcessReport) */
    }
    pthread_mutex_unlock(&sched);
    release_held(&h);
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
    if ((status = hold_own_stream(api, stream_handle, &h)) != ACL_SUCCESS) return status;
    task_node *node = new_node(NODE_CALLBACK);
    report *rep = mgrt_calloc(1, sizeof *rep);
    char name[64];
    pthread_mutex_lock(&sched);
    if (node == NULL || rep == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", api);
    } else if (!accepting_work) {
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
        status = append_locked(api, h.s, stream_handle, node, 1);
    }
    if (status != ACL_SUCCESS) {
        mgrt_free(node);
        mgrt_free(rep);
    }
    pthread_mutex_unlock(&sched);
    release_held(&h);
    return status;
}

/* How many blocking callbacks the calling thread is running now (aclrtProcessReport). */
static _Thread_local int in_blocking_callback;

int rt_streams_in_blocking_callback(void) { return in_blocking_callback > 0; }

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
    pthread_mutex_lock(&sched);
    subscriber *sub = find_subscriber_locked(me);
    if (sub == NULL || sub->closed || (sub->streams == 0 && sub->head == NULL)) {
        pthread_mutex_unlock(&sched);
        return mgrt_fail_at(api, ACL_ERROR_RT_THREAD_SUBSCRIBE,
                            "aclrtProcessReport: the calling thread (%llu) is not subscribed to any stream "
                            "(aclrtSubscribeReport)",
                            (unsigned long long)me);
    }
    struct timespec deadline = deadline_after(timeout > 0 ? timeout : 0);
    /* Counted while it waits: aclFinalize closes the subscriber, wakes this thread and frees
       the subscriber only once every waiter has left (it was freed under a waiter: issue 25). */
    sub->waiters++;
    int timed_out = 0;
    /* Also left when the thread's last stream was unsubscribed (or destroyed) meanwhile:
       nothing can come any more, and a wait without limit hung for good (round-3 attack). */
    while (sub->head == NULL && !sub->closed && sub->streams > 0 && !timed_out) {
        if (timeout < 0)
            pthread_cond_wait(&progress, &sched);
        else
            timed_out = pthread_cond_timedwait(&progress, &sched, &deadline) == ETIMEDOUT && sub->head == NULL;
    }
    sub->waiters--;
    if (sub->closed || timed_out || sub->head == NULL) {
        /* aclFinalize retires the streams (orphaning the waiter) before it closes it */
        const int closed = sub->closed || !accepting_work, orphaned = !closed && !timed_out;
        if (closed) pthread_cond_broadcast(&progress); /* aclFinalize waits for the waiters */
        if (orphaned) forget_subscriber_locked(sub);
        pthread_mutex_unlock(&sched);
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
    forget_subscriber_locked(sub); /* unsubscribed from every stream meanwhile */
    pthread_mutex_unlock(&sched);
    while (list != NULL) {
        report *next = list->next;
        in_blocking_callback += list->block;
        list->fn(list->user_data);
        in_blocking_callback -= list->block;
        pthread_mutex_lock(&sched);
        if (!list->block || list->abandoned)
            mgrt_free(list);
        else
            list->done = 1; /* the stream frees it as it moves on */
        pthread_cond_broadcast(&progress);
        pthread_mutex_unlock(&sched);
        list = next;
    }
    return ACL_SUCCESS;
}

/* ---- initialisation and finalisation ---------------------------------------------------------------- */

void rt_streams_open(void) {
    pthread_mutex_lock(&sched);
    accepting_work = 1;
    pthread_mutex_unlock(&sched);
}

void rt_stream_release_default(rt_context *ctx) {
    pthread_mutex_lock(&sched);
    stream *s = ctx->default_stream;
    ctx->default_stream = NULL;
    int retire = 0;
    if (s != NULL) {
        wait_stream_locked(s, s->queued, -1);
        s->released = 1;
        retire = s->pins == 0 && !s->retiring;
        if (retire) s->retiring = 1;
    }
    pthread_mutex_unlock(&sched);
    if (retire) stream_retire(s);
}

size_t rt_streams_destroy_all(void) {
    pthread_mutex_lock(&sched);
    accepting_work = 0;
    /* Finish what can finish; a node that can never run (a blocking callback nobody processes,
       say) is dropped by its worker once it is told to stop. */
    size_t user_streams = 0;
    for (stream *s = live_streams; s != NULL; s = s->next_live) {
        if (s->token != NULL && !s->released) user_streams++;
        wake_worker_locked(s);
    }
    pthread_mutex_unlock(&sched);
    /* User streams: release their handles (a racing call's pin defers the retirement). */
    long count = 0;
    stream **all = pin_all(&count);
    for (long i = 0; i < count; i++) {
        pthread_mutex_lock(&sched);
        stream *s = all[i];
        s->stopping = 1; /* the worker drains, dropping what is blocked */
        wake_worker_locked(s);
        pthread_cond_broadcast(&progress);
        while (s->head != NULL || s->running) pthread_cond_wait(&progress, &sched);
        void *token = s->token;
        pthread_mutex_unlock(&sched);
        if (token != NULL) mgrt_handle_release(token, MGRT_HANDLE_STREAM);
        pthread_mutex_lock(&sched);
        if (s->owner != NULL && s->owner->default_stream == s) s->owner->default_stream = NULL;
        /* A user stream is released by its handle's destructor (stream_handle_destroyed),
           now or at the last unpin of a racing call's handle pin: marking it here as well
           let our unpin below retire and free it while that call, between its handle pin
           and its stream pin, still had to touch it (a use after free TSan caught, with
           aclrtDestroyStream racing aclFinalize). A stream without a handle (a default
           stream, or one still being created) has no destructor to wait for. */
        if (token == NULL) s->released = 1;
        pthread_mutex_unlock(&sched);
        unpin(s);
    }
    free(all);
    /* Every stream is retired once its last racing pin is dropped: wait for that, so that
       nothing queued can touch the memory aclFinalize releases next. */
    pthread_mutex_lock(&sched);
    while (live_stream_count > 0) pthread_cond_wait(&progress, &sched);
    /* Threads waiting in aclrtProcessReport: woken, and gone from the subscribers, before
       those are freed. */
    for (;;) {
        int waiting = 0;
        for (subscriber *sub = subscribers; sub != NULL; sub = sub->next) {
            sub->closed = 1;
            waiting += sub->waiters;
        }
        if (waiting == 0) break;
        pthread_cond_broadcast(&progress);
        pthread_cond_wait(&progress, &sched);
    }
    /* Callbacks posted and never processed. */
    while (subscribers != NULL) {
        subscriber *sub = subscribers;
        subscribers = sub->next;
        while (sub->head != NULL) {
            report *rep = sub->head;
            sub->head = rep->next;
            mgrt_free(rep);
        }
        mgrt_free(sub);
    }
    subscriber_count = 0;
    pthread_mutex_unlock(&sched);
    return user_streams;
}
