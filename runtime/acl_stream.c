/*
 * runtime/acl_stream.c: streams, in-order queues of work.
 *
 * Each stream has a worker thread that runs its tasks in order. aclrtSynchronizeStream
 * does not just wait: when the worker has not picked up the next task yet, the waiting
 * thread runs it itself. Order is kept (one task runs at a time per stream), and a short
 * launch-then-synchronize costs no thread hand-off at all.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "runtime_internal.h"

#define STREAM_MESSAGE_CAPACITY 1024

typedef struct task_node {
    mgrt_task_run_fn run;
    mgrt_task_release_fn release;
    void *task;
    struct task_node *next;
} task_node;

typedef struct stream {
    pthread_mutex_t lock;
    pthread_cond_t work_ready;   /* worker: a task was queued, or stop */
    pthread_cond_t progress;     /* waiters: a task finished */
    task_node *head, *tail;
    int running;                 /* a task of this stream is running now */
    int stopping;
    pthread_t worker;
    int32_t first_error;         /* of the work since the last synchronize */
    char first_error_message[STREAM_MESSAGE_CAPACITY];
    struct stream *next_live;    /* the list of live streams */
} stream;

/* Live streams, so a handle can be checked before it is touched. */
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static stream *live_streams;
static stream *default_stream;

/* Runs one task outside the lock and records its failure; lock held on entry and exit,
   with s->running set by the caller. */
static void run_task_unlocked(stream *s, task_node *node) {
    pthread_mutex_unlock(&s->lock);
    mgrt_set_recent_error("");
    int32_t status = node->run(node->task);
    char message[STREAM_MESSAGE_CAPACITY] = "";
    if (status != 0) snprintf(message, sizeof message, "%s", aclGetRecentErrMsg());
    node->release(node->task);
    mgrt_free(node);
    pthread_mutex_lock(&s->lock);
    if (status != 0 && s->first_error == 0) {
        s->first_error = status;
        memcpy(s->first_error_message, message, sizeof message);
    }
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
        if (s->head == NULL && s->stopping) break;
        if (s->running) { /* stopping while a synchronizer runs a task: wait for it */
            pthread_cond_wait(&s->progress, &s->lock);
            continue;
        }
        s->running = 1;
        run_task_unlocked(s, pop_task(s));
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Creates a stream and links it into the live list unless it is the default one. */
static aclError stream_create(const char *api, stream **out, int is_default) {
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
    if (!is_default) {
        s->next_live = live_streams;
        live_streams = s;
    }
    *out = s;
    return ACL_SUCCESS;
}

/* Waits for all queued work, running tasks itself while the worker is idle. Returns the
   first error since the last synchronize (and clears it), its message in `message`. */
static int32_t stream_drain(stream *s, char *message, size_t capacity) {
    pthread_mutex_lock(&s->lock);
    while (s->head != NULL || s->running) {
        if (!s->running) {
            s->running = 1;
            run_task_unlocked(s, pop_task(s));
        } else {
            pthread_cond_wait(&s->progress, &s->lock);
        }
    }
    int32_t status = s->first_error;
    snprintf(message, capacity, "%s", s->first_error_message);
    s->first_error = 0;
    s->first_error_message[0] = '\0';
    pthread_mutex_unlock(&s->lock);
    return status;
}

static void stream_destroy(stream *s) {
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

/* Lock held. The stream behind `handle` (the default one for NULL, created on first use),
   or NULL with the message set. */
static stream *resolve_locked(const char *api, aclrtStream handle, aclError *status) {
    if (handle == NULL) {
        if (default_stream == NULL) {
            *status = stream_create(api, &default_stream, 1);
            if (*status != ACL_SUCCESS) return NULL;
        }
        return default_stream;
    }
    for (stream *s = live_streams; s != NULL; s = s->next_live)
        if (s == handle) return s;
    *status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                           "%s: stream %p is not a live stream (destroyed, or not from aclrtCreateStream)",
                           api, handle);
    return NULL;
}

int mgrt_stream_is_valid(aclrtStream handle) {
    if (handle == NULL) return 1;
    pthread_mutex_lock(&streams_lock);
    int found = 0;
    for (stream *s = live_streams; s != NULL && !found; s = s->next_live) found = (s == handle);
    pthread_mutex_unlock(&streams_lock);
    return found;
}

aclError aclrtCreateStream(aclrtStream *handle) {
    aclError status = rt_require_init("aclrtCreateStream");
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL)
        return mgrt_fail_at("aclrtCreateStream", ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    stream *s = NULL;
    pthread_mutex_lock(&streams_lock);
    status = stream_create("aclrtCreateStream", &s, 0);
    pthread_mutex_unlock(&streams_lock);
    if (status == ACL_SUCCESS) *handle = s;
    return status;
}

aclError aclrtDestroyStream(aclrtStream handle) {
    aclError status = rt_require_init("aclrtDestroyStream");
    if (status != ACL_SUCCESS) return status;
    if (handle == NULL)
        return mgrt_fail_at("aclrtDestroyStream", ACL_ERROR_INVALID_PARAM,
                            "aclrtDestroyStream: stream is NULL (the default stream cannot be destroyed)");
    pthread_mutex_lock(&streams_lock);
    stream **link = &live_streams;
    while (*link != NULL && *link != handle) link = &(*link)->next_live;
    stream *s = *link;
    if (s != NULL) *link = s->next_live; /* unlinked: no new work can reach it */
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL)
        return mgrt_fail_at("aclrtDestroyStream", ACL_ERROR_INVALID_PARAM,
                            "aclrtDestroyStream: stream %p is not a live stream", handle);
    stream_destroy(s);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream handle) {
    aclError status = rt_require_init("aclrtSynchronizeStream");
    if (status != ACL_SUCCESS) return status;
    /* The stream stays valid while we wait: destroying a stream that another thread is
       synchronizing is a use-after-free in CANN too, and the caller's to avoid. */
    pthread_mutex_lock(&streams_lock);
    stream *s = resolve_locked("aclrtSynchronizeStream", handle, &status);
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL) return status;
    char message[STREAM_MESSAGE_CAPACITY];
    int32_t first_error = stream_drain(s, message, sizeof message);
    if (first_error != 0) {
        mgrt_set_recent_error(message);
        mgrt_log(MGRT_LOG_ERROR, "RUNTIME", "aclrtSynchronizeStream: queued work failed, error code %d: %s",
                 (int)first_error, message);
    }
    return first_error;
}

aclError aclrtSynchronizeDevice(void) {
    aclError status = rt_require_init("aclrtSynchronizeDevice");
    if (status != ACL_SUCCESS) return status;
    /* Snapshot the handles, then synchronize each (a stream destroyed meanwhile is skipped). */
    enum { MAX_SNAPSHOT = 256 };
    aclrtStream handles[MAX_SNAPSHOT];
    size_t count = 0;
    pthread_mutex_lock(&streams_lock);
    for (stream *s = live_streams; s != NULL && count < MAX_SNAPSHOT; s = s->next_live) handles[count++] = s;
    pthread_mutex_unlock(&streams_lock);
    aclError first = aclrtSynchronizeStream(NULL);
    for (size_t i = 0; i < count; i++) {
        if (!mgrt_stream_is_valid(handles[i])) continue;
        aclError each = aclrtSynchronizeStream(handles[i]);
        if (first == ACL_SUCCESS) first = each;
    }
    return first;
}

int32_t mgrt_stream_submit(aclrtStream handle, mgrt_task_run_fn run, mgrt_task_release_fn release, void *task) {
    static const char api[] = "aclnn launch";
    task_node *node = mgrt_malloc(sizeof *node);
    if (node == NULL) {
        release(task);
        return mgrt_fail(ACLNN_ERR_INNER, "out of memory queueing work on stream %p", handle);
    }
    node->run = run;
    node->release = release;
    node->task = task;
    node->next = NULL;
    aclError status = ACL_SUCCESS;
    /* streams_lock is held while queueing so the stream cannot be destroyed meanwhile. */
    pthread_mutex_lock(&streams_lock);
    stream *s = resolve_locked(api, handle, &status);
    if (s != NULL) {
        pthread_mutex_lock(&s->lock);
        if (s->tail != NULL)
            s->tail->next = node;
        else
            s->head = node;
        s->tail = node;
        pthread_cond_signal(&s->work_ready);
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL) {
        mgrt_free(node);
        release(task);
        /* A stranger handle is the caller's mistake; a default stream that cannot start is ours. */
        return handle != NULL ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_INNER;
    }
    return ACL_SUCCESS;
}

size_t rt_streams_destroy_all(void) {
    pthread_mutex_lock(&streams_lock);
    stream *list = live_streams;
    stream *fallback = default_stream;
    live_streams = NULL;
    default_stream = NULL;
    pthread_mutex_unlock(&streams_lock);
    size_t count = 0;
    while (list != NULL) {
        stream *next = list->next_live;
        stream_destroy(list);
        list = next;
        count++;
    }
    if (fallback != NULL) stream_destroy(fallback);
    return count;
}
