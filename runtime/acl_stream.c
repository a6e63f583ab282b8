/*
 * runtime/acl_stream.c: streams, in-order queues of work.
 *
 * Each stream has a worker thread that runs its tasks in order. aclrtSynchronizeStream
 * does not just wait: when the worker has not picked up the next task yet, the waiting
 * thread runs it itself. Order is kept (one task runs at a time per stream), and a short
 * launch-then-synchronize costs no thread hand-off at all.
 *
 * A single task is not handed to the worker unless it is very large: a cross-core wake-up
 * costs tens of microseconds on a virtual machine, twice on the critical path (waking the
 * worker, then waking the synchronizer when it is done), while a synchronizer that runs the
 * task itself pays neither. The worker is woken once work piles up (a second task queued
 * behind an unfinished one: the host is pipelining launches, and overlap pays) or for a task
 * so large that the wake-up is noise. Results are only defined after a synchronize, in CANN
 * as here, so this choice shows only in time.
 *
 * Every task gets a sequence number. A synchronize waits for the tasks queued before it
 * was called, not for work others keep adding, and reports the first error among those.
 * A thread that looks a stream up pins it; aclrtDestroyStream unlinks the stream at once
 * (no new work reaches it) but frees it only when the last pin is gone, so a synchronize
 * racing a destroy on another thread never touches freed memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

#define STREAM_MESSAGE_CAPACITY 1024
/* A task of this many elements or more wakes the worker at once: ~1 ms of kernel time, next
   to which the wake-ups are a few percent. */
#define WAKE_WORKER_ELEMENTS (UINT64_C(1) << 22)
/* Unfinished tasks on the stream at which the worker is woken (the one just queued counts). */
#define WAKE_WORKER_QUEUE_LENGTH 2

typedef struct task_node {
    mgrt_task_run_fn run;
    mgrt_task_release_fn release;
    void *task;
    uint64_t sequence;
    long injected_fault;        /* MISHGRAD_FAULT_STEP's N when this step is to fail, else 0 */
    struct task_node *next;
} task_node;

typedef struct stream {
    pthread_mutex_t lock;
    pthread_cond_t work_ready;   /* worker: a task was queued, or stop */
    pthread_cond_t progress;     /* synchronizers: a task finished */
    task_node *head, *tail;
    uint64_t queued;             /* sequence number of the last task queued */
    uint64_t finished;           /* ... and of the last one finished (they finish in order) */
    int running;                 /* a task of this stream is running now */
    int stopping;
    pthread_t worker;
    int32_t first_error;         /* first failure not yet reported by a synchronize */
    uint64_t first_error_sequence;
    char first_error_message[STREAM_MESSAGE_CAPACITY];
    /* guarded by streams_lock */
    int pins;                    /* threads using the stream outside streams_lock */
    struct stream *next_live;
} stream;

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stream_unpinned = PTHREAD_COND_INITIALIZER;
static stream *live_streams;
static stream *default_stream;
/* Between aclInit and aclFinalize; a launch racing aclFinalize must not revive a stream. */
static int accepting_work;

/* Runs one task outside the lock and records its failure; lock held on entry and exit,
   with s->running set by the caller. */
static void run_task_unlocked(stream *s, task_node *node) {
    pthread_mutex_unlock(&s->lock);
    /* A planted fault (MISHGRAD_FAULT_STEP) stands for a step that failed on the device:
       it does not run, and the stream's error path takes over. */
    int32_t status = node->injected_fault
                         ? mgrt_fail(ACLNN_ERR_INNER,
                                     "queued step %ld failed: fault injected by MISHGRAD_FAULT_STEP (the step "
                                     "did not run)",
                                     node->injected_fault)
                         : node->run(node->task);
    char message[STREAM_MESSAGE_CAPACITY] = "";
    if (status != 0) snprintf(message, sizeof message, "%s", aclGetRecentErrMsg());
    uint64_t sequence = node->sequence;
    node->release(node->task);
    mgrt_free(node);
    pthread_mutex_lock(&s->lock);
    if (status != 0 && s->first_error == 0) {
        s->first_error = status;
        s->first_error_sequence = sequence;
        memcpy(s->first_error_message, message, sizeof message);
    }
    s->finished = sequence;
    s->running = 0;
    pthread_cond_broadcast(&s->progress);
    if (s->head != NULL) pthread_cond_signal(&s->work_ready);
}

static task_node *pop_task(stream *s) {
    task_node *node = s->head;
    s->head = node->next;
    if (s->head == NULL) s->tail = NULL;
    return node;
}

static void *stream_worker(void *arg) {
    stream *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while ((s->head == NULL || s->running) && !s->stopping) pthread_cond_wait(&s->work_ready, &s->lock);
        if (s->head == NULL) break; /* stopping, and nothing left */
        if (s->running) {           /* stopping while a synchronizer runs a task */
            pthread_cond_wait(&s->progress, &s->lock);
            continue;
        }
        s->running = 1;
        run_task_unlocked(s, pop_task(s));
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static aclError stream_create(const char *api, stream **out) {
    stream *s = mgrt_calloc(1, sizeof *s);
    if (s == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a stream", api);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work_ready, NULL);
    pthread_cond_init(&s->progress, NULL);
    if (pthread_create(&s->worker, NULL, stream_worker, s) != 0) {
        pthread_cond_destroy(&s->progress);
        pthread_cond_destroy(&s->work_ready);
        pthread_mutex_destroy(&s->lock);
        mgrt_free(s);
        return mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "%s: cannot start the stream's worker thread", api);
    }
    *out = s;
    return ACL_SUCCESS;
}

/* Waits for the tasks queued up to now, running them itself while the worker is idle.
   Returns the first error among them (clearing it), its message in `message`; with
   message == NULL the error stays for the next synchronize. */
static int32_t stream_drain(stream *s, char *message, size_t capacity) {
    pthread_mutex_lock(&s->lock);
    const uint64_t target = s->queued;
    while (s->finished < target) {
        if (!s->running && s->head != NULL && s->head->sequence <= target) {
            s->running = 1;
            run_task_unlocked(s, pop_task(s));
        } else {
            pthread_cond_wait(&s->progress, &s->lock);
        }
    }
    int32_t status = 0;
    if (message == NULL) {
        pthread_mutex_unlock(&s->lock);
        return 0;
    }
    message[0] = '\0';
    if (s->first_error != 0 && s->first_error_sequence <= target) {
        status = s->first_error;
        snprintf(message, capacity, "%s", s->first_error_message);
        s->first_error = 0;
        s->first_error_message[0] = '\0';
    }
    pthread_mutex_unlock(&s->lock);
    return status;
}

/* Drains, stops the worker and frees; no one else may hold the stream. */
static void stream_free(stream *s) {
    char ignored[STREAM_MESSAGE_CAPACITY];
    int32_t status = stream_drain(s, ignored, sizeof ignored);
    if (status != 0)
        mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "a destroyed stream's last work failed (%d): %s", (int)status, ignored);
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->work_ready);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->worker, NULL);
    pthread_cond_destroy(&s->progress);
    pthread_cond_destroy(&s->work_ready);
    pthread_mutex_destroy(&s->lock);
    mgrt_free(s);
}

/* streams_lock held; the stream is already unlinked. Waits for the pins to go. */
static void wait_unpinned_locked(stream *s) {
    while (s->pins > 0) pthread_cond_wait(&stream_unpinned, &streams_lock);
}

static void unpin(stream *s) {
    pthread_mutex_lock(&streams_lock);
    if (--s->pins == 0) pthread_cond_broadcast(&stream_unpinned);
    pthread_mutex_unlock(&streams_lock);
}

/* streams_lock held. The stream behind `handle` (NULL: the default one, created on first
   use), or NULL with the message set and *status the code. */
static stream *resolve_locked(const char *api, aclrtStream handle, aclError *status) {
    if (!accepting_work) {
        *status = mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called", api);
        return NULL;
    }
    if (handle == NULL) {
        if (default_stream == NULL) {
            *status = stream_create(api, &default_stream);
            if (*status != ACL_SUCCESS) return NULL;
        }
        return default_stream;
    }
    for (stream *s = live_streams; s != NULL; s = s->next_live)
        if (s == handle) return s;
    *status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                           "%s: stream %p is not a live stream (destroyed, or not from aclrtCreateStream)", api,
                           handle);
    return NULL;
}

int mgrt_stream_is_valid(aclrtStream handle) {
    pthread_mutex_lock(&streams_lock);
    int found = accepting_work && handle == NULL;
    for (stream *s = live_streams; s != NULL && !found && accepting_work; s = s->next_live) found = (s == handle);
    pthread_mutex_unlock(&streams_lock);
    return found;
}

static aclError create_stream(const char *api, aclrtStream *handle) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream is NULL", api);
    stream *s = NULL;
    status = stream_create(api, &s);
    if (status != ACL_SUCCESS) return status;
    pthread_mutex_lock(&streams_lock);
    s->next_live = live_streams;
    live_streams = s;
    pthread_mutex_unlock(&streams_lock);
    *handle = s;
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *handle) { return create_stream("aclrtCreateStream", handle); }

/* `priority` is reserved in CANN (unused) and `flag` bits CANN does not define give an
   ordinary stream, as CANN documents. FAST_LAUNCH, FAST_SYNC and HUGE change only speed or
   capacity on a device and are accepted; PERSISTENT (model binding), CPU_SCHEDULE (AI CPU
   model scheduling) and DEVICE_USE_ONLY (a stream the host never drives) have no meaning for
   a host program on this CPU and are refused. */
aclError aclrtCreateStreamWithConfig(aclrtStream *handle, uint32_t priority, uint32_t flag) {
    static const char api[] = "aclrtCreateStreamWithConfig";
    (void)priority;
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    const uint32_t refused = ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
    if (flag & refused)
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: flag 0x%x asks for %s, which this CPU runtime does not support (model and "
                            "device-side streams)",
                            api, (unsigned)flag,
                            (flag & ACL_STREAM_PERSISTENT)     ? "ACL_STREAM_PERSISTENT"
                            : (flag & ACL_STREAM_CPU_SCHEDULE) ? "ACL_STREAM_CPU_SCHEDULE"
                                                               : "ACL_STREAM_DEVICE_USE_ONLY");
    return create_stream(api, handle);
}

/* Drops the tasks of `s` that have not started (their release runs, their work does not). */
static size_t stream_drop_queued(stream *s) {
    pthread_mutex_lock(&s->lock);
    task_node *list = s->head;
    s->head = s->tail = NULL;
    uint64_t last = s->finished;
    size_t dropped = 0;
    for (task_node *n = list; n != NULL; n = n->next) last = n->sequence;
    pthread_mutex_unlock(&s->lock);
    while (list != NULL) {
        task_node *next = list->next;
        list->release(list->task);
        mgrt_free(list);
        list = next;
        dropped++;
    }
    pthread_mutex_lock(&s->lock);
    /* A task already running finishes first: wait for it, then count the dropped as done. */
    while (s->running) pthread_cond_wait(&s->progress, &s->lock);
    if (s->finished < last) s->finished = last;
    pthread_cond_broadcast(&s->progress);
    pthread_mutex_unlock(&s->lock);
    return dropped;
}

static aclError destroy_stream(const char *api, aclrtStream handle, int force) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "%s: stream is NULL (the default stream cannot be destroyed)", api);
    pthread_mutex_lock(&streams_lock);
    stream **link = &live_streams;
    while (*link != NULL && *link != handle) link = &(*link)->next_live;
    stream *s = *link;
    if (s != NULL) {
        *link = s->next_live; /* unlinked: no new work and no new pin can reach it */
        wait_unpinned_locked(s);
    }
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: stream %p is not a live stream", api, handle);
    if (force) {
        size_t dropped = stream_drop_queued(s);
        if (dropped > 0)
            mgrt_log(MGRT_LOG_WARNING, "RUNTIME", "%s: dropped %zu task(s) that had not started", api, dropped);
    }
    stream_free(s);
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream handle) { return destroy_stream("aclrtDestroyStream", handle, 0); }

/* CANN: destroys at once, without waiting for the queued work. A task already running
   finishes (a CPU cannot stop it halfway); the ones that have not started are dropped. */
aclError aclrtDestroyStreamForce(aclrtStream handle) { return destroy_stream("aclrtDestroyStreamForce", handle, 1); }

static aclError synchronize_pinned(stream *s) {
    char message[STREAM_MESSAGE_CAPACITY];
    int32_t first_error = stream_drain(s, message, sizeof message);
    unpin(s);
    if (first_error != 0) {
        mgrt_set_recent_error(message);
        mgrt_log(MGRT_LOG_ERROR, "RUNTIME", "aclrtSynchronizeStream: queued work failed, error code %d: %s",
                 (int)first_error, message);
    }
    return first_error;
}

aclError aclrtSynchronizeStream(aclrtStream handle) {
    aclError status = rt_require_init("aclrtSynchronizeStream");
    if (status != ACL_SUCCESS) return status;
    pthread_mutex_lock(&streams_lock);
    stream *s = resolve_locked("aclrtSynchronizeStream", handle, &status);
    if (s != NULL) s->pins++;
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL) return status;
    return synchronize_pinned(s);
}

/* Pins every live stream (the default one first); *count is how many. NULL with *count 0
   when there are none; NULL with *count -1 if memory runs out. streams_lock not held.
   Plain malloc, not mgrt_malloc: memory calls wait through this, and a test that injects
   an allocation fault into an operator call must not have it spent here. */
static stream **pin_all(long *count) {
    pthread_mutex_lock(&streams_lock);
    size_t n = default_stream != NULL;
    for (stream *s = live_streams; s != NULL; s = s->next_live) n++;
    stream **pinned = n > 0 ? malloc(n * sizeof *pinned) : NULL;
    if (n > 0 && pinned == NULL) {
        pthread_mutex_unlock(&streams_lock);
        *count = -1;
        return NULL;
    }
    size_t at = 0;
    if (default_stream != NULL) pinned[at++] = default_stream;
    for (stream *s = live_streams; s != NULL; s = s->next_live) pinned[at++] = s;
    for (size_t i = 0; i < n; i++) pinned[i]->pins++;
    pthread_mutex_unlock(&streams_lock);
    *count = (long)n;
    return pinned;
}

void rt_streams_wait_all(void) {
    long count = 0;
    stream **pinned = pin_all(&count);
    for (long i = 0; i < count; i++) {
        stream_drain(pinned[i], NULL, 0);
        unpin(pinned[i]);
    }
    free(pinned);
}

aclError aclrtSynchronizeDevice(void) {
    aclError status = rt_require_init("aclrtSynchronizeDevice");
    if (status != ACL_SUCCESS) return status;
    /* Pin every live stream at once, then wait for each. */
    long count = 0;
    stream **pinned = pin_all(&count);
    if (count < 0)
        return mgrt_fail_at("aclrtSynchronizeDevice", ACL_ERROR_RT_MEMORY_ALLOCATION,
                            "aclrtSynchronizeDevice: out of memory");
    aclError first = ACL_SUCCESS;
    for (long i = 0; i < count; i++) {
        aclError each = synchronize_pinned(pinned[i]);
        if (first == ACL_SUCCESS) first = each;
    }
    free(pinned);
    return first;
}

int32_t mgrt_stream_submit(const char *api, aclrtStream handle, mgrt_task_run_fn run, mgrt_task_release_fn release,
                           void *task, uint64_t work_elements) {
    task_node *node = mgrt_malloc(sizeof *node);
    if (node == NULL) {
        release(task);
        return mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory queueing work on stream %p", api, handle);
    }
    node->run = run;
    node->release = release;
    node->task = task;
    node->injected_fault = 0;
    node->next = NULL;
    aclError status = ACL_SUCCESS;
    /* streams_lock is held while queueing so the stream cannot be destroyed meanwhile. */
    pthread_mutex_lock(&streams_lock);
    stream *s = resolve_locked(api, handle, &status);
    if (s != NULL) {
        pthread_mutex_lock(&s->lock);
        node->sequence = ++s->queued;
        node->injected_fault = rt_fault_step_planned();
        if (s->tail != NULL)
            s->tail->next = node;
        else
            s->head = node;
        s->tail = node;
        if (work_elements >= WAKE_WORKER_ELEMENTS || s->queued - s->finished >= WAKE_WORKER_QUEUE_LENGTH)
            pthread_cond_signal(&s->work_ready);
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&streams_lock);
    if (s != NULL) return ACL_SUCCESS;
    mgrt_free(node);
    release(task);
    if (status == ACL_ERROR_UNINITIALIZE) return ACLNN_ERR_RUNTIME_ERROR;
    /* A stranger handle is the caller's mistake; a default stream that cannot start is ours. */
    return handle != NULL ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_INNER;
}

void rt_streams_open(void) {
    pthread_mutex_lock(&streams_lock);
    accepting_work = 1;
    pthread_mutex_unlock(&streams_lock);
}

size_t rt_streams_destroy_all(void) {
    pthread_mutex_lock(&streams_lock);
    accepting_work = 0;
    stream *list = live_streams;
    stream *fallback = default_stream;
    live_streams = NULL;
    default_stream = NULL;
    for (stream *s = list; s != NULL; s = s->next_live) wait_unpinned_locked(s);
    if (fallback != NULL) wait_unpinned_locked(fallback);
    pthread_mutex_unlock(&streams_lock);
    size_t count = 0;
    while (list != NULL) {
        stream *next = list->next_live;
        stream_free(list);
        list = next;
        count++;
    }
    if (fallback != NULL) stream_free(fallback);
    return count;
}
