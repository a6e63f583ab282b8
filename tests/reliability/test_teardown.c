/*
 * tests/reliability/test_teardown.c: the runtime ended (aclFinalize) or a stream destroyed
 * while other threads still call in, wait, or run work: the end returns (never starves or
 * hangs); a late caller gets a status and a message, never freed memory; nothing the end
 * drops is reported complete before the work that ran is done; a worker made in the
 * window is joined. One process per case (CTest reliability_teardown_<case>):
 *
 *   finalize_starve                       aclFinalize under six callers that fail anyway (issue 25.1)
 *   report_waiter                         a thread inside aclrtProcessReport(-1) at aclFinalize (25.2)
 *   force_destroy_record                  aclrtDestroyStreamForce while its task runs (25.7)
 *   finalize_racing_stream_creation       aclFinalize racing aclrtCreateStream/aclrtDestroyStream
 *   finalize_racing_the_null_stream       aclFinalize racing the first use of the NULL stream
 *   stream_created_during_finalize_joined a stream made while aclFinalize runs: its worker joined (25.12)
 *   force_destroy_drops_a_blocked_wait    aclrtDestroyStreamForce of a stream waiting on an event whose
 *                                         record never comes: returns, and what it dropped never runs
 *   finalize_with_a_lone_blocked_stream   aclFinalize with one stream held at a callback nobody runs
 *   finalize_with_a_stream_blocked_on_an_event  aclFinalize with a stream waiting on a record that
 *                                         never comes (it sits behind such a callback)
 *   finalize_with_a_synchronizer_on_a_blocked_stream  ... and another thread synchronizing that
 *                                         stream: its wait ends (the dropped nodes count as
 *                                         finished) with a failure, and aclFinalize returns
 *   force_destroy_fails_a_waiting_synchronizer  aclrtDestroyStreamForce of such a stream while
 *                                         another thread synchronizes it: that wait fails, said
 *   finalize_during_phase_one_keeps_no_executor  aclFinalize racing phase 1: once both are done, no
 *                                         handle of any kind is left live for the next session
 *   finalize_frees_the_work_it_drops      sessions of work held behind a record that never comes:
 *                                         what aclFinalize drops is freed (the heap measured)
 *   late_calls_meet_finalize              a callback, a record, an async set, a stream creation and a
 *                                         thread's first NULL-stream use, each held past its entry
 *                                         checks until aclFinalize closes the streams: 100001, said
 */
#define _POSIX_C_SOURCE 200809L
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sched.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"
#include "mgrt_handle.h"
#include "rel_setup.h"
#include "mg_heap.h"

/* ---- 1. aclFinalize is not starved by callers that fail anyway ------------------------------ */

static atomic_int stop_callers;

static void *malloc_caller(void *arg) {
    (void)arg;
    aclrtSetDevice(0);
    while (!atomic_load(&stop_callers)) {
        void *p = NULL;
        if (aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) aclrtFree(p);
        char host[64], dev_bytes[64];
        memset(host, 1, sizeof host);
        (void)aclrtMemcpy(dev_bytes, sizeof dev_bytes, host, sizeof host, ACL_MEMCPY_HOST_TO_HOST);
        (void)aclGetRecentErrMsg();
    }
    return NULL;
}

MG_TEST(finalize_starve) {
    rel_start_runtime();
    enum { CALLERS = 6 };
    pthread_t callers[CALLERS];
    for (int i = 0; i < CALLERS; i++) pthread_create(&callers[i], NULL, malloc_caller, NULL);
    rel_sleep_ms(100);
    REL_WATCHDOG(20); /* it starved without bound (60 s, three times of three) */
    const double t0 = rel_now_s();
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
    const double took = rel_now_s() - t0;
    alarm(0);
    atomic_store(&stop_callers, 1);
    for (int i = 0; i < CALLERS; i++) pthread_join(callers[i], NULL);
    REL_CHECK(took < 10.0, "aclFinalize took %.1f s under %d failing callers", took, CALLERS);
    printf("aclFinalize under %d callers: %.3f s\n", CALLERS, took);
}

/* ---- 2. a thread waiting in aclrtProcessReport when aclFinalize runs -------------------------- */

static atomic_int waiter_status = -1;
static atomic_int waiter_message_ok;
static atomic_int waiter_ready;

static atomic_int waiter_subscribed;

static void *report_waiter(void *arg) {
    (void)arg;
    while (!atomic_load(&waiter_subscribed)) rel_sleep_ms(1);
    atomic_store(&waiter_ready, 1);
    const aclError r = aclrtProcessReport(-1);
    atomic_store(&waiter_message_ok, rel_message_has("aclFinalize"));
    atomic_store(&waiter_status, (int)r);
    return NULL;
}

MG_TEST(report_waiter) {
    rel_start_runtime();
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    pthread_t t;
    atomic_store(&waiter_ready, 0);
    pthread_create(&t, NULL, report_waiter, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtSubscribeReport");
    atomic_store(&waiter_subscribed, 1);
    while (!atomic_load(&waiter_ready)) rel_sleep_ms(1);
    rel_sleep_ms(50); /* inside the wait */
    REL_WATCHDOG(20);
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
    pthread_join(t, NULL); /* it must have been woken */
    alarm(0);
    REL_CHECK(atomic_load(&waiter_status) == ACL_ERROR_UNINITIALIZE, "aclrtProcessReport returned %d, want 100001",
          atomic_load(&waiter_status));
    REL_CHECK(atomic_load(&waiter_message_ok), "the waiter's message names aclFinalize");
}
/* ---- 7. aclrtDestroyStreamForce completes a dropped record only after the running task ------ */

MG_TEST(force_destroy_record) {
    rel_start_runtime();
    enum { BYTES = 64 << 20, TAIL = 4096, ROUNDS = 8 };
    void *dev = NULL, *host = NULL;
    REL_CHECK(aclrtMalloc(&dev, BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMallocHost(&host, TAIL) == ACL_SUCCESS, "aclrtMallocHost");
    aclrtStream reader = NULL;
    REL_CHECK(aclrtCreateStream(&reader) == ACL_SUCCESS, "aclrtCreateStream");
    aclrtEvent ev = NULL;
    REL_CHECK(aclrtCreateEvent(&ev) == ACL_SUCCESS, "aclrtCreateEvent");
    int ran = 0, stale = 0;
    REL_WATCHDOG(60);
    for (int round = 0; round < ROUNDS; round++) {
        const unsigned char old_value = (unsigned char)(2 * round), new_value = (unsigned char)(2 * round + 1);
        REL_CHECK(aclrtMemset(dev, BYTES, old_value, BYTES) == ACL_SUCCESS, "aclrtMemset");
        aclrtStream writer = NULL;
        REL_CHECK(aclrtCreateStream(&writer) == ACL_SUCCESS, "aclrtCreateStream");
        REL_CHECK(aclrtMemsetAsync(dev, BYTES, new_value, BYTES, writer) == ACL_SUCCESS, "aclrtMemsetAsync");
        REL_CHECK(aclrtRecordEvent(ev, writer) == ACL_SUCCESS, "aclrtRecordEvent"); /* wakes the worker */
        /* The reader waits for the record before the writer goes (its worker is parked at the
           wait when the record is dropped), then copies the bytes the memset writes last. */
        REL_CHECK(aclrtStreamWaitEvent(reader, ev) == ACL_SUCCESS, "aclrtStreamWaitEvent");
        REL_CHECK(aclrtMemcpyAsync(host, TAIL, (char *)dev + BYTES - TAIL, TAIL, ACL_MEMCPY_DEVICE_TO_HOST, reader) ==
                  ACL_SUCCESS,
              "aclrtMemcpyAsync");
        rel_sleep_ms(1); /* the memset is running (usually) */
        REL_CHECK(aclrtDestroyStreamForce(writer) == ACL_SUCCESS, "aclrtDestroyStreamForce");
        REL_CHECK(aclrtSynchronizeStream(reader) == ACL_SUCCESS, "aclrtSynchronizeStream");
        /* The memset either ran (it had started; a task cannot stop halfway) or was dropped
           before it started. If it ran, the reader, ordered after its record, must see its
           bytes. */
        unsigned char first = 0;
        REL_CHECK(aclrtMemcpy(&first, 1, dev, 1, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
        const unsigned char *h = host;
        int saw_new = 1;
        for (int i = 0; i < TAIL; i++) saw_new &= h[i] == new_value;
        if (first == new_value) {
            ran++;
            stale += !saw_new;
        }
    }
    alarm(0);
    printf("force destroy: the running memset ran in %d of %d rounds; the reader saw stale bytes in %d\n", ran, ROUNDS,
           stale);
    REL_CHECK(stale == 0, "%d round(s) read bytes the running task had not written yet, after waiting on its record",
          stale);
    REL_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS, "aclrtDestroyEvent");
    REL_CHECK(aclrtDestroyStream(reader) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFreeHost(host) == ACL_SUCCESS, "aclrtFreeHost");
    REL_CHECK(aclrtFree(dev) == ACL_SUCCESS, "aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- aclFinalize racing a thread that makes streams or first uses the NULL stream ------------ */

/* The late call gets an error (100001) or finishes before the runtime goes; aclFinalize
   returns, whatever the timing (it used to wait for ever for a stream created between its
   snapshot of the live streams and the end of that stream's creation). Each round: aclInit,
   a thread that creates and destroys streams (or queues work on the NULL stream, whose
   default stream is made on first use), aclFinalize after a random delay. */

enum { RACE_ROUNDS = 400, CALLS_PER_ROUND = 40 };

static atomic_int finalize_done;
static atomic_int race_bad_status;
static pthread_barrier_t start_line;

static void pause_us(unsigned max_us, unsigned *seed) {
    const struct timespec t = {0, (long)(rand_r(seed) % max_us) * 1000L};
    nanosleep(&t, NULL);
}

typedef struct worker_args {
    int queue_on_null_stream; /* 0: create and destroy streams; 1: synchronize the NULL stream */
    unsigned seed;
} worker_args;

static void *worker(void *arg) {
    worker_args *w = arg;
    aclrtSetDevice(0);
    pthread_barrier_wait(&start_line);
    pause_us(120, &w->seed);
    for (int i = 0; i < CALLS_PER_ROUND; i++) {
        if (w->queue_on_null_stream) {
            const aclError r = aclrtSynchronizeStream(NULL);
            /* 0 before aclFinalize, 100001 after; 107002 if the context went first */
            if (r != ACL_SUCCESS && r != ACL_ERROR_UNINITIALIZE && r != ACL_ERROR_RT_CONTEXT_NULL)
                atomic_store(&race_bad_status, (int)r);
        } else {
            aclrtStream s = NULL;
            const aclError created = aclrtCreateStream(&s);
            if (created == ACL_SUCCESS) {
                const aclError destroyed = aclrtDestroyStream(s);
                /* 100001 once aclFinalize is over; 107002 while it runs, once it has reclaimed
                   this thread's context; 100000 if it has already released the stream */
                if (destroyed != ACL_SUCCESS && destroyed != ACL_ERROR_UNINITIALIZE &&
                    destroyed != ACL_ERROR_RT_CONTEXT_NULL && destroyed != ACL_ERROR_INVALID_PARAM)
                    atomic_store(&race_bad_status, (int)destroyed);
            } else if (created != ACL_ERROR_UNINITIALIZE && created != ACL_ERROR_RT_CONTEXT_NULL) {
                atomic_store(&race_bad_status, (int)created);
            }
        }
        (void)aclGetRecentErrMsg();
    }
    return NULL;
}

static void run_rounds(int queue_on_null_stream) {
    atomic_store(&race_bad_status, 0); /* each test judges its own rounds */
    unsigned seed = 12345u + (unsigned)queue_on_null_stream;
    for (int round = 0; round < RACE_ROUNDS; round++) {
        MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
        worker_args args = {queue_on_null_stream, seed + (unsigned)round};
        pthread_barrier_init(&start_line, NULL, 2);
        pthread_t thread;
        MG_CHECK_EQ_INT(pthread_create(&thread, NULL, worker, &args), 0);
        pthread_barrier_wait(&start_line);
        pause_us(100, &seed);
        REL_WATCHDOG(20); /* it used to wait for ever for a stream made in the window */
        const aclError finalized = aclFinalize();
        alarm(0);
        atomic_store(&finalize_done, 1);
        pthread_join(thread, NULL);
        pthread_barrier_destroy(&start_line);
        MG_CHECK_EQ_INT(finalized, ACL_SUCCESS);
        (void)aclGetRecentErrMsg();
    }
    MG_CHECK_EQ_INT(atomic_load(&race_bad_status), 0);
}

MG_TEST(finalize_racing_stream_creation) { run_rounds(0); }
MG_TEST(finalize_racing_the_null_stream) { run_rounds(1); }

/* ---- a stream made while aclFinalize runs has its worker joined (issue 25.12) ---------------- */

/* A stream whose creation meets aclFinalize gives its worker thread up (joined) and fails
   with 100001. Threads create streams while aclFinalize runs, many rounds; the worker threads
   still alive afterwards are counted. */

enum { CREATORS = 4, WINDOW_ROUNDS = 300 };

static atomic_int window_hits;  /* creations refused because aclFinalize ran during them */
static atomic_int window_bad_status;
static pthread_barrier_t window_start;

static void *creator(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    aclrtSetDevice(0);
    pthread_barrier_wait(&window_start);
    for (int i = 0; i < 200; i++) {
        aclrtStream s = NULL;
        const aclError r = aclrtCreateStream(&s);
        if (r == ACL_SUCCESS) {
            aclrtDestroyStream(s); /* 0, or 100001 once aclFinalize took it */
            if ((rand_r(&seed) & 3) == 0) sched_yield();
            continue;
        }
        if (r == ACL_ERROR_UNINITIALIZE) {
            if (strstr(rel_message(), "aclFinalize ran during the call") != NULL) atomic_fetch_add(&window_hits, 1);
        } else if (r != ACL_ERROR_RT_CONTEXT_NULL) {
            atomic_store(&window_bad_status, (int)r);
        }
        break;
    }
    return NULL;
}

/* Threads of this process (/proc/self/task). */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A thread that ends without being joined leaves its stack mapped (glibc frees or caches a
   stack only at the join), so each stream worker given up without its join is one more
   mapping for good: the count of /proc/self/maps lines grows with the leaked threads. A
   joined thread's stack goes to glibc's cache (bounded) and is reused. */
static int mapping_count(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) return -1;
    int n = 0;
    for (int c; (c = fgetc(f)) != EOF;)
        if (c == '\n') n++;
    fclose(f);
    return n;
}

static void run_round(unsigned round) {
    if (aclInit(NULL) != ACL_SUCCESS) {
        atomic_store(&window_bad_status, -1);
        return;
    }
    pthread_t t[CREATORS];
    pthread_barrier_init(&window_start, NULL, CREATORS + 1);
    for (uintptr_t i = 0; i < CREATORS; i++) pthread_create(&t[i], NULL, creator, (void *)(round * 31u + i + 1));
    pthread_barrier_wait(&window_start);
    const struct timespec pause = {0, (long)(round % 7) * 20000L};
    nanosleep(&pause, NULL);
    if (aclFinalize() != ACL_SUCCESS) atomic_store(&window_bad_status, -2);
    for (int i = 0; i < CREATORS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&window_start);
}

MG_TEST(stream_created_during_finalize_joined) {
    /* warm-up rounds: glibc's malloc arenas and its stack cache reach their size (and a
       sanitizer's own background thread is started: counted before, it would differ after) */
    for (unsigned r = 0; r < 20; r++) run_round(r);
    const int threads_before = thread_count();
    const int maps_before = mapping_count();
    const long long heap_before = mg_heap_in_use();
    const int hits_before = atomic_load(&window_hits);
    for (unsigned r = 20; r < WINDOW_ROUNDS; r++) run_round(r);
    const int hits = atomic_load(&window_hits) - hits_before;
    const int maps_after = mapping_count();
    const long long heap_after = mg_heap_in_use();
    printf("  heap %lld -> %lld\n", heap_before, heap_after);
    MG_CHECK_EQ_INT(atomic_load(&window_bad_status), 0);
    printf("  %d creation(s) met aclFinalize in %d rounds; mappings %d -> %d\n", hits, WINDOW_ROUNDS - 20, maps_before,
           maps_after);
    if (hits == 0) {
        MG_SKIP("no stream creation met aclFinalize in %d rounds on this machine", WINDOW_ROUNDS - 20);
        return;
    }
    /* joined workers: no mapping left behind (a few for the allocator's own bookkeeping) */
    if (REL_PLAIN_BUILD) MG_CHECK(maps_after - maps_before < 8 + hits / 2);
    /* and no thread left: the creators are joined, every worker of a finalized runtime too */
    MG_CHECK_EQ_INT(thread_count(), threads_before);
    /* and no stream kept: one given up in stream_new is freed there (seed 59's
       stream_queue.c: its free deleted, the heap grew by a stream a hit). glibc's count with
       its thread cache off (CMakeLists.txt); LeakSanitizer judges under a sanitizer. */
    if (heap_before >= 0 && mg_heap_thread_cache_off())
        MG_CHECK(heap_after - heap_before < 1024);
    else
        printf("  the heap is not judged here (a sanitizer, or glibc's thread cache on)\n");
}

/* ---- work dropped while it is blocked for good ---------------------------------------------- */

/* A blocking callback whose subscribed thread (the test's own) does not process it: its
   stream holds there, and whatever is queued behind it (an event record) does not happen
   until that thread calls aclrtProcessReport. */
static atomic_int held_callback_ran;
static void held_callback(void *user) {
    (void)user;
    atomic_fetch_add(&held_callback_ran, 1);
}

enum { DROP_BYTES = 4096 };

/* 1 when every byte of the device block is `value` (read with a blocking copy). */
static int device_bytes_are(void *dev, unsigned char value) {
    unsigned char back[DROP_BYTES];
    if (aclrtMemcpy(back, sizeof back, dev, DROP_BYTES, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 0;
    for (int i = 0; i < DROP_BYTES; i++)
        if (back[i] != value) return 0;
    return 1;
}

/* `holder` gets a BLOCK callback (this thread subscribed, not processing it) and then a record
   of `ev`; `blocked` waits for that record, then memsets `dev` to 0x5A. Nothing can run
   on `blocked` until this thread processes the callback. */
static void queue_blocked_work(aclrtStream holder, aclrtStream blocked, aclrtEvent ev, void *dev) {
    REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), holder) == ACL_SUCCESS, "aclrtSubscribeReport");
    REL_CHECK(aclrtLaunchCallback(held_callback, NULL, ACL_CALLBACK_BLOCK, holder) == ACL_SUCCESS,
              "aclrtLaunchCallback");
    REL_CHECK(aclrtRecordEvent(ev, holder) == ACL_SUCCESS, "aclrtRecordEvent");
    REL_CHECK(aclrtStreamWaitEvent(blocked, ev) == ACL_SUCCESS, "aclrtStreamWaitEvent");
    REL_CHECK(aclrtMemsetAsync(dev, DROP_BYTES, 0x5A, DROP_BYTES, blocked) == ACL_SUCCESS, "aclrtMemsetAsync");
    rel_sleep_ms(50); /* every worker reached the point where it is held */
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    REL_CHECK(aclrtQueryEventStatus(ev, &recorded) == ACL_SUCCESS, "aclrtQueryEventStatus");
    REL_CHECK(recorded == ACL_EVENT_RECORDED_STATUS_NOT_READY, "the record behind the unprocessed callback happened");
}

/* Two streams, an event and a zeroed device block, with queue_blocked_work's work on them. */
typedef struct blocked_pair {
    aclrtStream holder, blocked;
    aclrtEvent ev;
    void *dev;
} blocked_pair;

static void make_blocked_pair(blocked_pair *p) {
    memset(p, 0, sizeof *p);
    REL_CHECK(aclrtCreateStream(&p->holder) == ACL_SUCCESS && aclrtCreateStream(&p->blocked) == ACL_SUCCESS,
              "aclrtCreateStream");
    REL_CHECK(aclrtCreateEvent(&p->ev) == ACL_SUCCESS, "aclrtCreateEvent");
    REL_CHECK(aclrtMalloc(&p->dev, DROP_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemset(p->dev, DROP_BYTES, 0, DROP_BYTES) == ACL_SUCCESS, "aclrtMemset");
    queue_blocked_work(p->holder, p->blocked, p->ev, p->dev);
}

MG_TEST(force_destroy_drops_a_blocked_wait) {
    rel_start_runtime();
    blocked_pair p;
    make_blocked_pair(&p);
    aclrtStream holder = p.holder, blocked = p.blocked;
    aclrtEvent ev = p.ev;
    void *dev = p.dev;
    REL_WATCHDOG(20);
    const double t0 = rel_now_s();
    REL_CHECK(aclrtDestroyStreamForce(blocked) == ACL_SUCCESS, "aclrtDestroyStreamForce: %s", rel_message());
    const double took = rel_now_s() - t0;
    alarm(0);
    /* CANN's forced destroy does not wait for queued work: a wait that can never end is no
       reason to stay. */
    REL_CHECK(took < 5.0, "aclrtDestroyStreamForce took %.1f s over a wait that cannot end", took);
    REL_CHECK(aclrtSynchronizeStream(blocked) != ACL_SUCCESS && rel_message_has("stale"),
              "the destroyed stream is refused as stale: %s", rel_message());
    /* The memset behind the dropped wait never ran, and does not run when the record comes. */
    REL_CHECK(device_bytes_are(dev, 0), "the dropped memset wrote the block");
    REL_WATCHDOG(20);
    REL_CHECK(aclrtProcessReport(2000) == ACL_SUCCESS, "aclrtProcessReport: %s", rel_message());
    REL_CHECK(atomic_load(&held_callback_ran) == 1, "the held callback ran once");
    REL_CHECK(aclrtSynchronizeStream(holder) == ACL_SUCCESS, "aclrtSynchronizeStream(holder): %s", rel_message());
    alarm(0);
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    REL_CHECK(aclrtQueryEventStatus(ev, &recorded) == ACL_SUCCESS && recorded == ACL_EVENT_RECORDED_STATUS_COMPLETE,
              "the record ran once the callback returned");
    REL_CHECK(device_bytes_are(dev, 0), "the dropped memset ran after the record");
    REL_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS, "aclrtDestroyEvent");
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)pthread_self(), holder) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyStream(holder) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFree(dev) == ACL_SUCCESS, "aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* A thread synchronizing a stream whose work aclFinalize drops: the dropped nodes count as
   finished (the worker marks each), so the synchronizer's wait ends and its pin goes, which
   aclFinalize waits for. The work never ran, so the synchronize does not report success. */
typedef struct {
    aclrtStream stream;
    atomic_int started;
    aclError status;
    char message[2048];
} synchronizer;

static void *synchronize_blocked(void *arg) {
    synchronizer *sync = arg;
    (void)aclrtSetDevice(0);
    atomic_store(&sync->started, 1);
    sync->status = aclrtSynchronizeStream(sync->stream);
    const char *m = aclGetRecentErrMsg();
    snprintf(sync->message, sizeof sync->message, "%.2000s", m != NULL ? m : "");
    return NULL;
}

/* Starts a thread synchronizing `stream` and returns once it is inside its wait (nothing on
   the stream can finish). */
static void start_synchronizer(synchronizer *sync, aclrtStream stream, pthread_t *thread) {
    memset(sync, 0, sizeof *sync);
    sync->stream = stream;
    REL_CHECK(pthread_create(thread, NULL, synchronize_blocked, sync) == 0, "pthread_create");
    while (!atomic_load(&sync->started)) rel_sleep_ms(1);
    rel_sleep_ms(100);
}

MG_TEST(finalize_with_a_synchronizer_on_a_blocked_stream) {
    rel_start_runtime();
    blocked_pair p;
    make_blocked_pair(&p);
    synchronizer sync;
    pthread_t thread;
    start_synchronizer(&sync, p.blocked, &thread);
    REL_WATCHDOG(20);
    const double t0 = rel_now_s();
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize: %s", rel_message());
    REL_CHECK(pthread_join(thread, NULL) == 0, "pthread_join");
    const double took = rel_now_s() - t0;
    alarm(0);
    REL_CHECK(took < 5.0, "aclFinalize and the synchronizer took %.1f s over work that cannot run", took);
    REL_CHECK(sync.status == ACL_ERROR_UNINITIALIZE, "aclrtSynchronizeStream over work aclFinalize dropped: %d %s",
              (int)sync.status, sync.message);
    REL_CHECK(strstr(sync.message, "aclFinalize ran while this call waited") != NULL &&
                  strstr(sync.message, "dropped, not run") != NULL,
              "the synchronizer's message: %s", sync.message);
    REL_CHECK(atomic_load(&held_callback_ran) == 0, "the dropped callback ran");
}

/* The same under aclrtDestroyStreamForce: the synchronizer's wait ends with a failure that
   says so (its handle is stale from then on), and the record's own stream goes on. The
   blocked stream holds one node, the wait: the last node the synchronizer waits for is the
   first one dropped. */
MG_TEST(force_destroy_fails_a_waiting_synchronizer) {
    rel_start_runtime();
    aclrtStream holder = NULL, blocked = NULL;
    REL_CHECK(aclrtCreateStream(&holder) == ACL_SUCCESS && aclrtCreateStream(&blocked) == ACL_SUCCESS,
              "aclrtCreateStream");
    aclrtEvent ev = NULL;
    REL_CHECK(aclrtCreateEvent(&ev) == ACL_SUCCESS, "aclrtCreateEvent");
    REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), holder) == ACL_SUCCESS, "aclrtSubscribeReport");
    REL_CHECK(aclrtLaunchCallback(held_callback, NULL, ACL_CALLBACK_BLOCK, holder) == ACL_SUCCESS,
              "aclrtLaunchCallback");
    REL_CHECK(aclrtRecordEvent(ev, holder) == ACL_SUCCESS, "aclrtRecordEvent");
    REL_CHECK(aclrtStreamWaitEvent(blocked, ev) == ACL_SUCCESS, "aclrtStreamWaitEvent");
    synchronizer sync;
    pthread_t thread;
    start_synchronizer(&sync, blocked, &thread);
    REL_WATCHDOG(20);
    REL_CHECK(aclrtDestroyStreamForce(blocked) == ACL_SUCCESS, "aclrtDestroyStreamForce: %s", rel_message());
    REL_CHECK(pthread_join(thread, NULL) == 0, "pthread_join");
    alarm(0);
    REL_CHECK(sync.status == ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream over dropped work: %d %s",
              (int)sync.status, sync.message);
    REL_CHECK(strstr(sync.message, "aclrtDestroyStreamForce ran while this call waited") != NULL,
              "the synchronizer's message: %s", sync.message);
    REL_WATCHDOG(20);
    REL_CHECK(aclrtProcessReport(2000) == ACL_SUCCESS, "aclrtProcessReport: %s", rel_message());
    REL_CHECK(aclrtSynchronizeStream(holder) == ACL_SUCCESS, "aclrtSynchronizeStream(holder): %s", rel_message());
    alarm(0);
    REL_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS, "aclrtDestroyEvent");
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)pthread_self(), holder) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyStream(holder) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* aclFinalize drops what can never run; the callback it dropped is never run afterwards (its
   thread's aclrtProcessReport is told the runtime is gone), and the memory the dropped work
   named is freed with nothing left to write it (ASan would see a late write). */
static void finalize_over_held_work(int with_event) {
    rel_start_runtime();
    if (with_event) {
        blocked_pair p;
        make_blocked_pair(&p);
    } else {
        /* the lone stream: held at its own callback, a memset behind it */
        aclrtStream holder = NULL;
        REL_CHECK(aclrtCreateStream(&holder) == ACL_SUCCESS, "aclrtCreateStream");
        void *dev = NULL;
        REL_CHECK(aclrtMalloc(&dev, DROP_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), holder) == ACL_SUCCESS, "aclrtSubscribeReport");
        REL_CHECK(aclrtLaunchCallback(held_callback, NULL, ACL_CALLBACK_BLOCK, holder) == ACL_SUCCESS,
                  "aclrtLaunchCallback");
        REL_CHECK(aclrtMemsetAsync(dev, DROP_BYTES, 0x5A, DROP_BYTES, holder) == ACL_SUCCESS, "aclrtMemsetAsync");
        rel_sleep_ms(50);
    }
    REL_WATCHDOG(20);
    const double t0 = rel_now_s();
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize: %s", rel_message());
    const double took = rel_now_s() - t0;
    alarm(0);
    REL_CHECK(took < 5.0, "aclFinalize took %.1f s over work that cannot run", took);
    REL_CHECK(aclrtProcessReport(100) == ACL_ERROR_UNINITIALIZE, "aclrtProcessReport after aclFinalize: %s",
              rel_message());
    REL_CHECK(atomic_load(&held_callback_ran) == 0, "the dropped callback ran");
    /* the runtime again: nothing of the old session is live */
    REL_CHECK(aclInit(NULL) == ACL_SUCCESS, "aclInit again");
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++)
        REL_CHECK(mgrt_handle_live_count((mgrt_handle_kind)k) == 0, "%zu %s handle(s) live in the new session",
                  mgrt_handle_live_count((mgrt_handle_kind)k), mgrt_handle_kind_name((mgrt_handle_kind)k));
    REL_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS && aclrtSynchronizeStream(s) == ACL_SUCCESS &&
                  aclrtDestroyStream(s) == ACL_SUCCESS,
              "a stream in the new session: %s", rel_message());
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize again");
}

MG_TEST(finalize_with_a_lone_blocked_stream) { finalize_over_held_work(0); }
MG_TEST(finalize_with_a_stream_blocked_on_an_event) { finalize_over_held_work(1); }

/* ---- aclFinalize racing phase 1 leaves no executor behind ------------------------------------ */

/* A phase 1 that aclFinalize overtakes fails (361001, test_regress_audit7's F3); the executor
   it was building must not outlive the session: one registered after aclFinalize reclaimed
   the handles would stay live in the registry for good (handed to nobody, or handed out from
   a dead session). After each round, before the next aclInit, no handle of any kind is live. */
static void *finalize_after(void *arg) {
    const struct timespec pause = {0, (long)(uintptr_t)arg * 1000L};
    nanosleep(&pause, NULL);
    (void)aclFinalize();
    return NULL;
}

MG_TEST(finalize_during_phase_one_keeps_no_executor) {
    enum { ROUNDS = 200, SIDE = 48 };
    int rounds_left_live = 0, during = 0;
    REL_WATCHDOG(120);
    for (int round = 0; round < ROUNDS; round++) {
        REL_CHECK(aclInit(NULL) == ACL_SUCCESS, "aclInit (round %d)", round);
        REL_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
        void *in = NULL, *out = NULL;
        REL_CHECK(aclrtMalloc(&in, SIDE * SIDE * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                      aclrtMalloc(&out, SIDE * SIDE * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                  "aclrtMalloc");
        const int64_t dims[2] = {SIDE, SIDE}, transposed[2] = {1, SIDE}, storage[1] = {SIDE * SIDE};
        aclTensor *self = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, in);
        aclTensor *result = aclCreateTensor(dims, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, storage, 1, out);
        REL_CHECK(self != NULL && result != NULL, "aclCreateTensor");
        pthread_t finalizer;
        pthread_create(&finalizer, NULL, finalize_after, (void *)(uintptr_t)(round % 150));
        for (long calls = 0;; calls++) { /* executors left unlaunched are aclFinalize's to reclaim */
            uint64_t ws = 0;
            aclOpExecutor *ex = NULL;
            const aclnnStatus r = (calls & 1) ? aclnnMishGetWorkspaceSize(self, result, &ws, &ex)
                                              : aclnnInplaceMishGetWorkspaceSize(self, &ws, &ex);
            if (r == ACLNN_SUCCESS) continue;
            if (strstr(rel_message(), "ran during") != NULL) during++;
            break;
        }
        pthread_join(finalizer, NULL);
        size_t live = 0;
        for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) live += mgrt_handle_live_count((mgrt_handle_kind)k);
        if (live > 0 && rounds_left_live++ == 0)
            fprintf(stderr, "  round %d: %zu handle(s) (%zu executor(s)) live after aclFinalize and phase 1 ended\n",
                    round, live, mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR));
    }
    alarm(0);
    printf("  %d rounds, %d phase-1 calls saw aclFinalize run during them\n", ROUNDS, during);
    REL_CHECK(rounds_left_live == 0, "%d round(s) left handles live after aclFinalize", rounds_left_live);
}

/* ---- aclFinalize frees the work it drops ---------------------------------------------------- */


enum { HELD_NODES = 2000, HELD_CYCLES = 8 };

/* One session: a stream held behind a record that never comes (queue_blocked_work), with
   HELD_NODES more memsets and records queued behind it, then aclFinalize, which drops them
   all (the worker drops what can never run once it is told to stop). */
static void finalize_over_many_held_nodes(void) {
    rel_start_runtime();
    aclrtStream holder = NULL, blocked = NULL;
    REL_CHECK(aclrtCreateStream(&holder) == ACL_SUCCESS && aclrtCreateStream(&blocked) == ACL_SUCCESS,
              "aclrtCreateStream");
    aclrtEvent ev = NULL, later = NULL;
    REL_CHECK(aclrtCreateEvent(&ev) == ACL_SUCCESS && aclrtCreateEvent(&later) == ACL_SUCCESS, "aclrtCreateEvent");
    void *dev = NULL;
    REL_CHECK(aclrtMalloc(&dev, DROP_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    queue_blocked_work(holder, blocked, ev, dev);
    for (int i = 0; i < HELD_NODES; i++) {
        aclError r = (i % 4 == 3) ? aclrtRecordEvent(later, blocked)
                                  : aclrtMemsetAsync(dev, DROP_BYTES, (int32_t)i & 0xFF, 64, blocked);
        REL_CHECK(r == ACL_SUCCESS, "queueing node %d: %s", i, rel_message());
    }
    REL_WATCHDOG(20);
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize: %s", rel_message());
    alarm(0);
}

/* Each dropped node is freed, and what it holds is let go (a task's release, an event's
   reference): a session after session of held work leaves the heap as it found it (seed 31:
   the worker's drop at stop left every node it took off the queue). */
MG_TEST(finalize_frees_the_work_it_drops) {
    finalize_over_many_held_nodes(); /* warm-up: the runtime's first-use allocations */
    const long long before = mg_heap_in_use();
    for (int c = 1; c < HELD_CYCLES; c++) finalize_over_many_held_nodes();
    const long long after = mg_heap_in_use();
    if (before < 0 || after < 0) {
        printf("  heap not measurable in this build (a sanitizer's allocator): LeakSanitizer judges\n");
        return;
    }
    /* 14,000 dropped nodes kept would be well over 1 MB */
    REL_CHECK(after - before < 256 * 1024, "the heap grew by %lld bytes over %d sessions of %d dropped nodes",
              after - before, HELD_CYCLES - 1, HELD_NODES);
}

/* ---- a call past its entry checks when aclFinalize closes the streams ---------------------- */

/* MISHGRAD_FAULT_LATE=<api> holds that API's next call, past its entry checks, until
   aclFinalize has closed the streams (docs/reliability.md, "Fault injection"): the late
   refusals a racing call meets only by chance, each met every time. The call must fail
   with 100001 and say why; nothing it would have queued runs. */
typedef enum { LATE_CALLBACK, LATE_RECORD, LATE_MEMSET, LATE_CREATE, LATE_NULL_STREAM } late_kind;

static aclrtStream late_stream;
static aclrtEvent late_event;
static void *late_dev;
static atomic_int late_callback_ran;
static atomic_int late_status;
static char late_text[512];

static void late_callback(void *user) {
    (void)user;
    atomic_fetch_add(&late_callback_ran, 1);
}

static void *late_caller(void *arg) {
    const late_kind kind = (late_kind)(intptr_t)arg;
    aclrtStream made = NULL;
    aclError st = aclrtSetDevice(0);
    if (st == ACL_SUCCESS) {
        switch (kind) {
        case LATE_CALLBACK: st = aclrtLaunchCallback(late_callback, NULL, ACL_CALLBACK_NO_BLOCK, late_stream); break;
        case LATE_RECORD: st = aclrtRecordEvent(late_event, late_stream); break;
        case LATE_MEMSET: st = aclrtMemsetAsync(late_dev, 64, 0x33, 64, late_stream); break;
        case LATE_CREATE: st = aclrtCreateStreamWithConfig(&made, 0, 0); break; /* the test makes its own with aclrtCreateStream */
        case LATE_NULL_STREAM: st = aclrtMemsetAsync(late_dev, 64, 0x33, 64, NULL); break;
        }
    }
    const char *m = aclGetRecentErrMsg();
    snprintf(late_text, sizeof late_text, "%s", m != NULL ? m : "");
    atomic_store(&late_status, (int)st);
    return NULL;
}

MG_TEST(late_calls_meet_finalize) {
    static const struct {
        late_kind kind;
        const char *api, *message;
    } cases[] = {
        {LATE_CALLBACK, "aclrtLaunchCallback", "aclrtLaunchCallback: aclFinalize has been called"},
        {LATE_RECORD, "aclrtRecordEvent", "aclrtRecordEvent: aclFinalize has been called"},
        {LATE_MEMSET, "aclrtMemsetAsync", "aclrtMemsetAsync: aclFinalize has been called"},
        {LATE_CREATE, "aclrtCreateStreamWithConfig",
         "aclrtCreateStreamWithConfig: aclInit has not been called (aclFinalize ran during the call)"},
        /* the thread's first use of the NULL stream makes the context's default stream */
        {LATE_NULL_STREAM, "aclrtMemsetAsync",
         "aclrtMemsetAsync: aclInit has not been called (aclFinalize ran during the call)"},
    };
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("MISHGRAD_FAULT_LATE", cases[i].api, 1);
        rel_start_runtime();
        unsetenv("MISHGRAD_FAULT_LATE");
        REL_CHECK(aclrtCreateStream(&late_stream) == ACL_SUCCESS, "aclrtCreateStream");
        REL_CHECK(aclrtCreateEvent(&late_event) == ACL_SUCCESS, "aclrtCreateEvent");
        REL_CHECK(aclrtMalloc(&late_dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), late_stream) == ACL_SUCCESS, "aclrtSubscribeReport");
        atomic_store(&late_callback_ran, 0);
        atomic_store(&late_status, -1);
        pthread_t t;
        pthread_create(&t, NULL, late_caller, (void *)(intptr_t)cases[i].kind);
        int waited = 0;
        while (mgrt_late_calls_held() == 0 && waited++ < 5000) rel_sleep_ms(1);
        REL_CHECK(mgrt_late_calls_held() == 1, "%s: the call was not held", cases[i].api);
        REL_WATCHDOG(20);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        REL_CHECK(aclFinalize() == ACL_SUCCESS, "%s: aclFinalize", cases[i].api);
        /* the held call keeps its stream 100 ms after the streams close: aclFinalize waits for
           that stream, so it returns only once the call has gone on */
        REL_CHECK(mgrt_late_calls_held() == 0, "%s: aclFinalize returned while the call still held its stream",
                  cases[i].api);
        pthread_join(t, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        alarm(0);
        /* released as soon as the streams close (the switch's 10 s limit is only a fallback) */
        const double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        REL_CHECK(seconds < 5.0, "%s: the held call came back %.1f s after aclFinalize began", cases[i].api, seconds);
        REL_CHECK(seconds >= 0.1, "%s: aclFinalize and the held call took %.3f s, less than the hold's 100 ms",
                  cases[i].api, seconds);
        REL_CHECK(atomic_load(&late_status) == ACL_ERROR_UNINITIALIZE, "%s: returned %d, want 100001", cases[i].api,
                  atomic_load(&late_status));
        REL_CHECK(strstr(late_text, cases[i].message) != NULL, "%s: message \"%s\", want \"%s\"", cases[i].api,
                  late_text, cases[i].message);
        REL_CHECK(atomic_load(&late_callback_ran) == 0, "%s: the late callback ran", cases[i].api);
        REL_CHECK(mgrt_late_calls_held() == 0, "%s: still held", cases[i].api);
    }
}

/* A stream made while aclFinalize closes the streams is given up whole: its worker joined
   (stream_created_during_finalize_joined) and its memory freed (seed 59: the free deleted,
   every such stream leaked). The late create runs several times, each in a fresh runtime;
   from the second on, the heap in use after each must not grow (a stream is several hundred
   bytes). The heap is glibc's count, run with its thread cache off (CMakeLists.txt: the cache
   counts as in use and grows a little a round); under a sanitizer LeakSanitizer judges. */
MG_TEST(late_stream_creation_gives_back_its_stream) {
    if (MG_UNDER_SANITIZER || mg_heap_in_use() < 0) {
        MG_SKIP("the heap count is not readable here (LeakSanitizer judges under a sanitizer)");
        return;
    }
    REL_CHECK(mg_heap_thread_cache_off(),
              "run with GLIBC_TUNABLES=glibc.malloc.tcache_count=0 (as CTest does): the thread cache moves the count");
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    enum { ROUNDS = 5 };
    long long heap[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        setenv("MISHGRAD_FAULT_LATE", "aclrtCreateStreamWithConfig", 1);
        rel_start_runtime();
        unsetenv("MISHGRAD_FAULT_LATE");
        atomic_store(&late_status, -1);
        pthread_t t;
        pthread_create(&t, NULL, late_caller, (void *)(intptr_t)LATE_CREATE);
        int waited = 0;
        while (mgrt_late_calls_held() == 0 && waited++ < 5000) rel_sleep_ms(1);
        REL_CHECK(mgrt_late_calls_held() == 1, "round %d: the call was not held", round);
        REL_WATCHDOG(20);
        REL_CHECK(aclFinalize() == ACL_SUCCESS, "round %d: aclFinalize", round);
        pthread_join(t, NULL);
        alarm(0);
        REL_CHECK(atomic_load(&late_status) == ACL_ERROR_UNINITIALIZE, "round %d: returned %d, want 100001", round,
                  atomic_load(&late_status));
        heap[round] = mg_heap_in_use();
        printf("round %d: %lld bytes in use\n", round, heap[round]);
    }
    REL_CHECK(heap[ROUNDS - 1] - heap[1] < 64, "the heap grew by %lld bytes over %d late stream creations",
              heap[ROUNDS - 1] - heap[1], ROUNDS - 2);
}

/* The hold is a test switch and must not hang a test that never finalizes: with no
   aclFinalize the held call goes on after 10 s (the switch's limit) and does what it was
   asked. Spends those 10 s. */
MG_TEST(late_call_goes_on_after_ten_seconds) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    setenv("MISHGRAD_FAULT_LATE", "aclrtLaunchCallback", 1);
    rel_start_runtime();
    unsetenv("MISHGRAD_FAULT_LATE");
    REL_CHECK(aclrtCreateStream(&late_stream) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), late_stream) == ACL_SUCCESS, "aclrtSubscribeReport");
    atomic_store(&late_callback_ran, 0);
    atomic_store(&late_status, -1);
    REL_WATCHDOG(40);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t t;
    pthread_create(&t, NULL, late_caller, (void *)(intptr_t)LATE_CALLBACK);
    int waited = 0;
    while (mgrt_late_calls_held() == 0 && waited++ < 5000) rel_sleep_ms(1);
    REL_CHECK(mgrt_late_calls_held() == 1, "the call was not held");
    pthread_join(t, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    REL_CHECK(seconds >= 9.5 && seconds < 30.0, "the held call came back after %.1f s, want about 10", seconds);
    REL_CHECK(atomic_load(&late_status) == ACL_SUCCESS, "the held call returned %d (%s)", atomic_load(&late_status),
              late_text);
    REL_CHECK(mgrt_late_calls_held() == 0, "still held");
    /* the callback was queued: a report of this thread runs it */
    REL_CHECK(aclrtProcessReport(5000) == ACL_SUCCESS, "aclrtProcessReport");
    REL_CHECK(aclrtSynchronizeStream(late_stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    REL_CHECK(atomic_load(&late_callback_ran) == 1, "the callback ran %d times", atomic_load(&late_callback_ran));
    alarm(0);
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)pthread_self(), late_stream) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyStream(late_stream) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

MG_TEST_MAIN()
