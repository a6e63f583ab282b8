/*
 * runtime/stream_internal.h: what the stream layer's files share: streams (in-order queues of
 * nodes -- tasks, event records, waits and resets, host callbacks -- each served by a worker
 * thread), events, subscriptions, and the one lock that guards them all.
 *
 * Invariants: one mutex (`stream_lock`) guards every stream, event and subscription, and
 * `progress` is broadcast whenever a node finishes, an event completes or a callback returns;
 * tasks run outside the lock. A stream in use is pinned (`pins`, under stream_lock) and freed
 * (its worker joined) only once the last pin is gone; a node holds a reference to its event.
 * The files call bottom up only (tools/check_layers.py): stream_queue.c, stream_wait.c,
 * stream_race.c, acl_stream.c, acl_event.c / acl_callback.c, stream_finalize.c.
 * What streams, events, callbacks and the race check do: docs/runtime.md, "Streams" to
 * "Races between streams", and "Inside the runtime".
 */
#ifndef STREAM_INTERNAL_H_
#define STREAM_INTERNAL_H_

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mg_strided.h"
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

/* An access as the race check keeps it (stream_access_of). */
typedef struct stream_access {
    mg_strided where;
    int write;
} stream_access;

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
    stream_access *accesses;    /* byte ranges read and written (owned), for race checks */
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
    uint64_t first_dropped;     /* sequence of the first node dropped unrun, 0 none: a
                                   synchronize waiting for it fails instead of passing */
    const char *dropped_by;     /* the call that dropped it (aclFinalize, ...Force) */
    aclError dropped_status;    /* and what that synchronize returns */
    int32_t first_error;        /* first failure not yet reported by a synchronize */
    uint64_t first_error_sequence;
    char first_error_message[STREAM_MESSAGE_CAPACITY];
    uint32_t flags, priority;
    subscriber *sub;            /* aclrtSubscribeReport */
    vclock known;               /* other streams' work ordered before this stream's tail */
    struct stream *next_live, *prev_live;
} stream;

struct event {
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

/* A resolved stream: pinned, plus the context pin when it is a default stream. */
typedef struct held_stream {
    stream *s;
    rt_context *ctx;
} held_stream;

/* ---- stream_queue.c ------------------------------------------------------------------------ */

extern pthread_mutex_t stream_lock;
extern pthread_cond_t stream_progress; /* broadcast when a node finishes, an event completes,
                                          a callback returns */
extern stream *stream_live_list;
extern size_t stream_live_count;
extern int stream_accepting_work;      /* between aclInit and aclFinalize */
extern subscriber *stream_subscribers;
extern int stream_subscriber_count;

uint64_t stream_now_ns(void);
uint64_t vclock_get(const vclock *c, uint64_t id);
int vclock_raise(vclock *c, uint64_t id, uint64_t sequence);
int vclock_copy(vclock *into, const vclock *from);
void vclock_free(vclock *c);
void vclock_forget(vclock *c, uint64_t id);
int vclock_merge_live_locked(vclock *into, const vclock *from);
void stream_event_unref_locked(event *ev);
task_node *stream_node_new(node_kind kind);
void stream_node_free(task_node *node);
/* Drops a node of `s` that will never run (stream_lock held), `by` the call that drops it:
   counted finished, so a wait for it ends, and remembered, so that wait fails with `status`. */
void stream_drop_node_locked(stream *s, task_node *node, const char *by, aclError status);
void stream_forget_subscriber_locked(subscriber *sub);
int stream_blocked_by_my_callback_locked(const stream *s);
int stream_step_locked(stream *s);
void stream_wake_worker_locked(stream *s);
struct timespec stream_deadline_after(int32_t ms);
void stream_hold_if_late(const char *api);
aclError stream_new(const char *api, rt_context *owner, stream **out);
void stream_retire(stream *s);
void stream_pin_locked(stream *s);
void stream_unpin(stream *s);
void stream_handle_destroyed(void *object);
void stream_release_held(held_stream *h);
const char *stream_name(aclrtStream handle, char *buffer, size_t capacity);
aclError stream_hold(const char *api, aclrtStream handle, held_stream *out);
aclError stream_hold_own(const char *api, aclrtStream handle, held_stream *out);
aclError stream_hold_to_destroy(const char *api, aclrtStream handle, held_stream *out);
stream **streams_pin_all(long *count);

/* ---- stream_wait.c ------------------------------------------------------------------------- */

int stream_wait_locked(stream *s, uint64_t target, int32_t timeout_ms);
aclError stream_waits_for_own_callback(const char *api, const char *what);
aclError stream_synchronize_held(const char *api, stream *s, aclrtStream handle, int32_t timeout_ms);
aclError stream_check_timeout(const char *api, int32_t timeout);

/* ---- stream_race.c ------------------------------------------------------------------------- */

aclError stream_append_locked(const char *api, stream *s, aclrtStream handle, task_node *node, int wake_now);
void stream_access_of(const mgrt_access *x, stream_access *out);

#endif /* STREAM_INTERNAL_H_ */
