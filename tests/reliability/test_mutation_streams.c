/*
 * tests/reliability/test_mutation_streams.c: stream and event behaviour the other tests pass
 * through, against written expectations (docs/runtime.md, acl_rt.h's comments):
 *
 *   - every event flag value 0..0x7f for aclrtCreateEventWithFlag and
 *     aclrtCreateEventExWithFlag: the exact status of each (a rule written out below);
 *   - asynchronous calls return while earlier work on their stream is still running (a task
 *     that blocks until the test lets it go): aclrtMemcpyAsync, aclrtMemsetAsync,
 *     aclrtRecordEvent, aclrtStreamWaitEvent, aclrtLaunchCallback; their results are right
 *     once the stream is synchronized;
 *   - two threads subscribed to two streams each get their own stream's callbacks;
 *   - MISHGRAD_FAULT_STEP lists: up to 8 steps fail, each exactly once, the rest run;
 *     malformed values plant nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "aclnnop/aclnn_mish.h"
#include "mg_test.h"
#include "mgrt.h"

static void pause_us(long us) {
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static void session(const char *step_fault) {
    (void)aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    if (step_fault) setenv("MISHGRAD_FAULT_STEP", step_fault, 1); else unsetenv("MISHGRAD_FAULT_STEP");
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    unsetenv("MISHGRAD_FAULT_STEP");
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    (void)aclGetRecentErrMsg();
}

/* ---- event flags ----------------------------------------------------------------------- */

/* The rule, for a creator with flags (ex: 1 for the Ex form), from CANN's api_error.cc
   EventCreate / EventCreateEx. Plain: (flags & 0x3F) == 0 or flags > 0x3F: 107000; then
   DEVICE_USE_ONLY (0x10) or EXTERNAL (0x20) with any other flag: 107000. Ex: DEVICE_USE_ONLY,
   EXTERNAL or IPC (0x40) with any other flag: 107000; then (flags & 0x4F) == 0 or
   flags > 0x4F: 107000. What CANN takes: 207000 when it has DEVICE_USE_ONLY, EXTERNAL, IPC or
   0x4 (RT_EVENT_DDSYNC; not implemented on a CPU), else success. */
static aclError expected_event_status(uint32_t flags, int ex) {
    const uint32_t all = ex ? 0x4Fu : 0x3Fu;
    if (!ex && ((flags & all) == 0 || flags > all)) return ACL_ERROR_RT_PARAM_INVALID;
    const uint32_t alone[3] = {0x10u, 0x20u, 0x40u};
    for (int i = 0; i < 3; i++)
        if ((flags & alone[i]) && flags != alone[i]) return ACL_ERROR_RT_PARAM_INVALID;
    if (ex && ((flags & all) == 0 || flags > all)) return ACL_ERROR_RT_PARAM_INVALID;
    if (flags & (0x04 | 0x10 | 0x20 | 0x40)) return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    return ACL_SUCCESS;
}

MG_TEST(event_flags_every_value) {
    session(NULL);
    int wrong = 0;
    for (int ex = 0; ex < 2; ex++)
        for (uint32_t flags = 0; flags <= 0x80; flags++) {
            aclrtEvent ev = NULL;
            aclError st = ex ? aclrtCreateEventExWithFlag(&ev, flags) : aclrtCreateEventWithFlag(&ev, flags);
            aclError want = expected_event_status(flags, ex);
            if (st != want) {
                if (wrong++ < 8) MG_FAIL("%s(0x%x) = %d, expected %d", ex ? "aclrtCreateEventExWithFlag" : "aclrtCreateEventWithFlag",
                                        flags, (int)st, (int)want);
            } else if (st != ACL_SUCCESS) {
                const char *m = aclGetRecentErrMsg();
                if (m == NULL || strstr(m, ex ? "aclrtCreateEventExWithFlag" : "aclrtCreateEventWithFlag") == NULL) {
                    if (wrong++ < 8) MG_FAIL("flag 0x%x: message \"%s\" does not name the call", flags, m ? m : "(null)");
                }
            }
            if (st == ACL_SUCCESS) {
                MG_CHECK(ev != NULL);
                MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
            }
        }
    MG_CHECK_EQ_INT(wrong, 0);
    /* the plain creator takes no flags at all */
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(NULL, 1), ACL_ERROR_INVALID_PARAM);
}

/* ---- asynchronous calls do not wait ---------------------------------------------------- */

static atomic_int gate_open, task_started;
static int32_t blocking_task(void *task) {
    (void)task;
    atomic_store(&task_started, 1);
    while (!atomic_load(&gate_open)) pause_us(200);
    return 0;
}
static void no_release(void *task) { (void)task; }

static atomic_int calls_done, watchdog_fired;
static void *watchdog(void *arg) {
    (void)arg;
    for (int i = 0; i < 3000 && !atomic_load(&calls_done); i++) pause_us(1000);
    if (!atomic_load(&calls_done)) {
        atomic_store(&watchdog_fired, 1);
        atomic_store(&gate_open, 1);
    }
    return NULL;
}

static atomic_int callback_runs;
static void count_callback(void *data) {
    (void)data;
    atomic_fetch_add(&callback_runs, 1);
}

typedef struct reporter {
    atomic_int stop;
    atomic_int processed;
    pthread_t thread;
} reporter;
static void *report_loop(void *arg) {
    reporter *r = arg;
    (void)aclrtSetDevice(0);
    while (!atomic_load(&r->stop)) {
        if (aclrtProcessReport(20) == ACL_SUCCESS) atomic_fetch_add(&r->processed, 1);
    }
    return NULL;
}

MG_TEST(async_calls_return_while_earlier_work_runs) {
    session(NULL);
    aclrtStream s = NULL, other = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&other), 0);
    reporter rep = {0};
    MG_CHECK_EQ_INT(pthread_create(&rep.thread, NULL, report_loop, &rep), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)rep.thread, s), 0);
    /* page-locked host memory: a copy from pageable memory waits, as CANN's does */
    unsigned char *dev = NULL, *host = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMallocHost((void **)&host, 256), 0);
    memset(dev, 0, 256);
    for (int i = 0; i < 256; i++) host[i] = (unsigned char)i;
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);

    atomic_store(&gate_open, 0);
    atomic_store(&task_started, 0);
    atomic_store(&calls_done, 0);
    atomic_store(&watchdog_fired, 0);
    atomic_store(&callback_runs, 0);
    /* a task large enough to be started at once, which blocks the stream until released */
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, blocking_task, no_release, NULL, (uint64_t)1 << 40), 0);
    for (int i = 0; i < 2000 && !atomic_load(&task_started); i++) pause_us(1000);
    MG_CHECK(atomic_load(&task_started));
    pthread_t dog;
    MG_CHECK_EQ_INT(pthread_create(&dog, NULL, watchdog, NULL), 0);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev, 256, host, 128, ACL_MEMCPY_HOST_TO_DEVICE, s), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 128, 128, 0x77, 64, s), 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s), 0);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(other, ev), 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, s), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 192, 64, 0x99, 64, s), 0);
    /* none of them ran yet: the stream is held */
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(ev, &recorded), 0);
    MG_CHECK_EQ_INT(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    MG_CHECK_EQ_INT(dev[0], 0);
    atomic_store(&calls_done, 1);
    pthread_join(dog, NULL);
    MG_CHECK(!atomic_load(&watchdog_fired)); /* no call waited for the held stream */
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(other), 0);
    MG_CHECK_EQ_INT(atomic_load(&callback_runs), 1);
    int wrong = 0;
    for (int i = 0; i < 256; i++) wrong += dev[i] != (i < 128 ? i : i < 192 ? 0x77 : 0x99);
    MG_CHECK_EQ_INT(wrong, 0);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(ev, &recorded), 0);
    MG_CHECK_EQ_INT(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)rep.thread, s), 0);
    atomic_store(&rep.stop, 1);
    pthread_join(rep.thread, NULL);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(other), 0);
    aclrtFree(dev);
    aclrtFreeHost(host);
}

/* ---- several subscribed threads --------------------------------------------------------- */

static atomic_int runs_on[3];
static void which_callback(void *data) { atomic_fetch_add(&runs_on[(intptr_t)data], 1); }

MG_TEST(each_subscribed_thread_gets_its_streams_callbacks) {
    session(NULL);
    aclrtStream s[3];
    reporter rep[3];
    memset(rep, 0, sizeof rep);
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtCreateStream(&s[i]), 0);
        atomic_store(&runs_on[i], 0);
        MG_CHECK_EQ_INT(pthread_create(&rep[i].thread, NULL, report_loop, &rep[i]), 0);
        MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)rep[i].thread, s[i]), 0);
    }
    /* a second thread for a stream: refused */
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)rep[1].thread, s[0]), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k <= i; k++)
            MG_CHECK_EQ_INT(aclrtLaunchCallback(which_callback, (void *)(intptr_t)i,
                                                k % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s[i]), 0);
    for (int i = 0; i < 3; i++) MG_CHECK_EQ_INT(aclrtSynchronizeStream(s[i]), 0);
    /* A callback runs inside aclrtProcessReport, so its count moves before that call
       returns and the reporter counts it: wait for both. */
    for (int t = 0; t < 2000; t++) {
        int all = 1;
        for (int i = 0; i < 3; i++) all &= atomic_load(&runs_on[i]) == i + 1 && atomic_load(&rep[i].processed) >= 1;
        if (all) break;
        pause_us(1000);
    }
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(atomic_load(&runs_on[i]), i + 1);
        MG_CHECK(atomic_load(&rep[i].processed) >= 1);
    }
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)rep[i].thread, s[i]), 0);
        atomic_store(&rep[i].stop, 1);
        pthread_join(rep[i].thread, NULL);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s[i]), 0);
    }
}

/* A callback the stream reaches after its thread unsubscribed does not run: the stream
   records 107xxx ACL_ERROR_RT_STREAM_NO_CB_REG for it, reports it at the synchronize, and
   goes on with the work behind it. */
MG_TEST(callback_reached_after_unsubscribe_fails_and_the_stream_goes_on) {
    session(NULL);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    memset(dev, 0, 64);
    reporter rep = {0};
    MG_CHECK_EQ_INT(pthread_create(&rep.thread, NULL, report_loop, &rep), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)rep.thread, s), 0);
    atomic_store(&gate_open, 0);
    atomic_store(&task_started, 0);
    atomic_store(&callback_runs, 0);
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, blocking_task, no_release, NULL, (uint64_t)1 << 40), 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, s), 0);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)rep.thread, s), 0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL); /* forget any earlier runtime failure */
    atomic_store(&gate_open, 1);
    /* the callback is the last node: the synchronize must see it finished (failed) */
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_ERROR_RT_STREAM_NO_CB_REG);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "the callback did not run");
    /* a runtime code reported by the synchronize is this thread's last error, read once */
    MG_CHECK_EQ_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_NO_CB_REG);
    MG_CHECK_EQ_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(atomic_load(&callback_runs), 0);
    /* the stream goes on */
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 0x42, 64, s), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(s, 5000), 0);
    MG_CHECK_EQ_INT(dev[0], 0x42);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0); /* reported once */
    atomic_store(&rep.stop, 1);
    pthread_join(rep.thread, NULL);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    aclrtFree(dev);
}

/* Work progresses without a synchronize: a program that polls an event recorded behind a
   small task (which the runtime leaves for a synchronizing thread) sees it complete, because
   the query wakes the stream's worker. Likewise aclrtStreamQuery. */
MG_TEST(polling_an_event_or_a_stream_sees_it_complete) {
    session(NULL);
    aclrtStream s = NULL;
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    for (int round = 0; round < 3; round++) {
        memset(dev, 0, 64);
        MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 0x30 + round, 16, s), 0);
        MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s), 0);
        aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        int polls = 0;
        while (polls < 4000) {
            MG_CHECK_EQ_INT(aclrtQueryEventStatus(ev, &st), 0);
            if (st == ACL_EVENT_RECORDED_STATUS_COMPLETE) break;
            polls++;
            pause_us(500);
        }
        MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
        MG_CHECK_EQ_INT(dev[0], 0x30 + round);
        /* the same through the stream */
        MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 32, 32, 0x60 + round, 16, s), 0);
        aclrtStreamStatus ss = ACL_STREAM_STATUS_NOT_READY;
        for (polls = 0; polls < 4000; polls++) {
            MG_CHECK_EQ_INT(aclrtStreamQuery(s, &ss), 0);
            if (ss == ACL_STREAM_STATUS_COMPLETE) break;
            pause_us(500);
        }
        MG_CHECK_EQ_INT(ss, ACL_STREAM_STATUS_COMPLETE);
        MG_CHECK_EQ_INT(dev[32], 0x60 + round);
    }
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    aclrtFree(dev);
}

/* ---- the cross-stream race check -------------------------------------------------------- */

/* Work still RUNNING on another stream (not only queued) is checked too; and the ranges of an
   operator's launch are its views' own (a tensor at an element offset covers
   [data + offset, + n elements)), not the storage's start. */
MG_TEST(races_with_running_work_and_offset_views) {
    session(NULL);
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), 0);
    float *buf = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&buf, 1024 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    for (int i = 0; i < 1024; i++) buf[i] = 0.5f;
    atomic_store(&gate_open, 0);
    atomic_store(&task_started, 0);
    /* a running task on a writing elements [256, 512) */
    mgrt_access w = {.ptr = buf + 256, .bytes = 256 * sizeof(float), .write = 1};
    MG_CHECK_EQ_INT(mgrt_stream_submit_access("test", a, blocking_task, no_release, NULL, (uint64_t)1 << 40, &w, 1), 0);
    for (int i = 0; i < 2000 && !atomic_load(&task_started); i++) pause_us(1000);
    MG_CHECK(atomic_load(&task_started));
    /* b touching [300, 301): refused although the task is running, not queued */
    MG_CHECK_EQ_INT(aclrtMemsetAsync(buf + 300, 4, 0, 4, b), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
    /* aclnnMish on b: self = elements [256, 320) through an offset of 256 -> refused;
       self = elements [0, 64) with out = [640, 704) (offset 640) -> accepted */
    int64_t dims[1] = {64}, storage[1] = {1024};
    struct {
        int64_t in_offset, out_offset;
        aclnnStatus want;
    } cases[] = {{256, 640, ACLNN_ERR_PARAM_INVALID}, {0, 640, 0}, {0, 448, ACLNN_ERR_PARAM_INVALID}, {512, 704, 0},
                 {192, 768, 0}, {193, 768, ACLNN_ERR_PARAM_INVALID}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        aclTensor *x = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, cases[c].in_offset, ACL_FORMAT_ND, storage, 1, buf);
        aclTensor *y = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, cases[c].out_offset, ACL_FORMAT_ND, storage, 1, buf);
        uint64_t ws = 0;
        aclOpExecutor *e = NULL;
        MG_CHECK_EQ_INT(aclnnMishGetWorkspaceSize(x, y, &ws, &e), 0);
        aclnnStatus st = aclnnMish(NULL, ws, e, b);
        if (st != cases[c].want)
            MG_FAIL("self at %lld, out at %lld: launch %d, expected %d (%s)", (long long)cases[c].in_offset,
                    (long long)cases[c].out_offset, (int)st, (int)cases[c].want, aclGetRecentErrMsg());
        else
            MG_CHECK(1);
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), 0);
        aclDestroyTensor(x);
        aclDestroyTensor(y);
    }
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), 0);
    /* finished: no conflict any more */
    MG_CHECK_EQ_INT(aclrtMemsetAsync(buf + 300, 4, 0, 4, b), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), 0);
    aclrtFree(buf);
}

/* A stream that waited for events of several streams is ordered after each of them: its
   vector clock keeps an entry per stream, and every entry is found. */
MG_TEST(waits_on_several_streams_order_after_each) {
    session(NULL);
    enum { N = 5 };
    aclrtStream s[N], sink = NULL;
    aclrtEvent ev[N];
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 64 * N, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&sink), 0);
    atomic_store(&gate_open, 0);
    for (int i = 0; i < N; i++) {
        MG_CHECK_EQ_INT(aclrtCreateStream(&s[i]), 0);
        MG_CHECK_EQ_INT(aclrtCreateEvent(&ev[i]), 0);
        /* each stream: held by a blocking task, then a write of its own 64 bytes */
        MG_CHECK_EQ_INT(mgrt_stream_submit("test", s[i], blocking_task, no_release, NULL, (uint64_t)1 << 40), 0);
        MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 64 * i, 64, 0x10 + i, 64, s[i]), 0);
        MG_CHECK_EQ_INT(aclrtRecordEvent(ev[i], s[i]), 0);
    }
    /* the sink waits for all but the last: writing their ranges is ordered, the last's races */
    for (int i = 0; i < N - 1; i++) MG_CHECK_EQ_INT(aclrtStreamWaitEvent(sink, ev[i]), 0);
    for (int i = 0; i < N; i++) {
        aclError st = aclrtMemsetAsync(dev + 64 * i, 64, 0x80 + i, 64, sink);
        if (st != (i < N - 1 ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID))
            MG_FAIL("write of stream %d's range after waiting for streams 0..%d: %d", i, N - 2, (int)st);
        else
            MG_CHECK(1);
        (void)aclGetRecentErrMsg();
    }
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(sink), 0);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s[i]), 0);
        wrong += dev[64 * i] != (i < N - 1 ? 0x80 + i : 0x10 + i);
        MG_CHECK_EQ_INT(aclrtDestroyEvent(ev[i]), 0);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s[i]), 0);
    }
    MG_CHECK_EQ_INT(wrong, 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(sink), 0);
    aclrtFree(dev);
}

/* ---- MISHGRAD_FAULT_STEP lists ---------------------------------------------------------- */

/* Queues ten memsets, each synchronized at once; returns a mask of the ones that failed
   (their synchronize 561000 and their bytes untouched). */
static int failing_steps(void) {
    unsigned char *dev = NULL;
    if (aclrtMalloc((void **)&dev, 640, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return -1;
    memset(dev, 0, 640);
    aclrtStream s = NULL;
    if (aclrtCreateStream(&s) != 0) return -1;
    int mask = 0;
    for (int i = 0; i < 10; i++) {
        if (aclrtMemsetAsync(dev + 64 * i, 64, 1 + i, 64, s) != 0) return -1;
        aclError st = aclrtSynchronizeStream(s);
        int untouched = dev[64 * i] == 0 && dev[64 * i + 63] == 0;
        if (st == ACLNN_ERR_INNER && untouched) mask |= 1 << i;
        else if (st != 0 || untouched) return -2;
    }
    aclrtDestroyStream(s);
    aclrtFree(dev);
    return mask;
}

MG_TEST(step_fault_lists) {
    static const struct {
        const char *value;
        int mask; /* bit i: the (i+1)-th step fails */
    } cases[] = {
        {"3", 1 << 2},
        {"1,2,3,4,5,6,7,8", 0xFF},
        {"2,4,6,8,10,1,3,5", 0x2BF},
        {"9,10", 0x300},
        {"1,2,3,4,5,6,7,8,9", 0}, /* more than 8: the rest is not a number list of up to 8 */
        {",1", 0},
        {"1,x", 0},
        {"1,0", 0}, /* a step of 0 or below after a good one: malformed, nothing planted (seed 62) */
        {"2,-1", 0},
        {"0", 0},
        {"-2", 0},
        {"", 0},
        {"4 ", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session(cases[i].value);
        int got = failing_steps();
        if (got != cases[i].mask)
            MG_FAIL("MISHGRAD_FAULT_STEP=\"%s\": failing steps 0x%x, expected 0x%x", cases[i].value, got, cases[i].mask);
        else
            MG_CHECK(1);
    }
    session(NULL);
}

/* docs/runtime.md, Streams: "the worker is woken for large tasks, when work piles up, and for
   every event, wait and callback". So, with nobody synchronizing or querying, each of these
   finishes by itself (each task sets an atomic flag the test watches): a callback reaches its
   subscribed thread; two queued small tasks (work piled up); one step of 2^22 elements (a
   large task); one small task followed by an event record. A lone small task may wait for a
   synchronize (by design), so it is not asked to. */
static int32_t mark_task(void *task) {
    atomic_store((atomic_int *)task, 1);
    return 0;
}

/* The flag a task sets (an atomic: the test watches it while the worker runs). */
static int flag_becomes_set(atomic_int *flag) {
    for (int t = 0; t < 5000; t++) {
        if (atomic_load(flag)) return 1;
        pause_us(1000);
    }
    return 0;
}

MG_TEST(work_runs_without_a_synchronize) {
    session(NULL);
    aclrtStream s = NULL;
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    /* callbacks, BLOCK and NO_BLOCK */
    reporter rep;
    memset(&rep, 0, sizeof rep);
    atomic_store(&runs_on[0], 0);
    MG_CHECK_EQ_INT(pthread_create(&rep.thread, NULL, report_loop, &rep), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)rep.thread, s), 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(which_callback, (void *)(intptr_t)0, ACL_CALLBACK_NO_BLOCK, s), 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(which_callback, (void *)(intptr_t)0, ACL_CALLBACK_BLOCK, s), 0);
    for (int t = 0; t < 5000 && atomic_load(&runs_on[0]) < 2; t++) pause_us(1000);
    MG_CHECK_EQ_INT(atomic_load(&runs_on[0]), 2);
    /* work piled up: two small tasks */
    atomic_int first_ran = 0, second_ran = 0;
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, mark_task, no_release, &first_ran, 1), 0);
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, mark_task, no_release, &second_ran, 1), 0);
    MG_CHECK(flag_becomes_set(&second_ran));
    /* a large task alone (a kernel step of 2^22 elements and more: mgrt_stream_submit's count) */
    atomic_int large_ran = 0;
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, mark_task, no_release, &large_ran, (uint64_t)1 << 22), 0);
    MG_CHECK(flag_becomes_set(&large_ran));
    /* a small task and an event record behind it */
    atomic_int small_ran = 0;
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, mark_task, no_release, &small_ran, 1), 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s), 0);
    MG_CHECK(flag_becomes_set(&small_ran));
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
    /* an event record alone on an idle stream (a queue of one, under the length that wakes
       the worker) runs at once: another stream waiting on it goes on with no synchronize
       (seed 40, acl_event.c:174: a record queued without waking its worker) */
    aclrtStream other = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&other), 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s), 0);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(other, ev), 0);
    atomic_int behind_the_wait = 0;
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", other, mark_task, no_release, &behind_the_wait, (uint64_t)1 << 22), 0);
    MG_CHECK(flag_becomes_set(&behind_the_wait));
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(other), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(other), 0);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)rep.thread, s), 0);
    atomic_store(&rep.stop, 1);
    pthread_join(rep.thread, NULL);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
}

/* A task that fails with its own message. */
static int32_t failing_task(void *task) {
    (void)task;
    return mgrt_fail(ACL_ERROR_RT_PARAM_INVALID, "the task failed on purpose");
}

/* A small task runs on the thread that synchronizes its stream; its failure message moves
   to the stream and comes back from the synchronize, and a message the thread had not read
   yet stays, whole, behind it (seed 40, acl_error.c:67: taking the newest line left its last
   character in front of the older ones). */
MG_TEST(a_task_failing_on_the_synchronizing_thread_keeps_older_messages) {
    session(NULL);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    (void)aclGetRecentErrMsg();
    MG_CHECK_EQ_INT(aclrtFree((void *)&s), ACL_ERROR_INVALID_PARAM); /* unread: stays pending */
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", s, failing_task, no_release, NULL, 1), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
    const char *text = aclGetRecentErrMsg();
    MG_CHECK(text != NULL);
    if (text != NULL) {
        const char *newline = strchr(text, '\n');
        MG_CHECK(newline != NULL);
        /* the newest line: the task's message, exactly */
        MG_CHECK(newline != NULL && (size_t)(newline - text) == strlen("the task failed on purpose") &&
                 strncmp(text, "the task failed on purpose", strlen("the task failed on purpose")) == 0);
        /* the next: the earlier refusal, whole, and nothing else */
        MG_CHECK(newline != NULL && strncmp(newline + 1, "aclrtFree", 9) == 0 && strchr(newline + 1, '\n') == NULL);
        if (newline == NULL || strncmp(newline + 1, "aclrtFree", 9) != 0) MG_FAIL("got \"%s\"", text);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
}

/* MISHGRAD_FAULT_LATE arms one call of one session: a hold nobody took is disarmed when the
   session ends (aclFinalize) and when the next begins (aclInit reads the switch afresh), so
   the next session's call runs at once (seed 66: with the disarm's reset deleted, that call
   was held for the 10 s the hold waits for an aclFinalize). */
MG_TEST(an_unused_late_hold_ends_with_its_session) {
    (void)aclFinalize();
    setenv("MISHGRAD_FAULT_LATE", "aclrtCreateStream", 1);
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    unsetenv("MISHGRAD_FAULT_LATE");
    MG_CHECK_EQ_INT(aclFinalize(), 0);
    session(NULL);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (ms >= 5000.0) MG_FAIL("aclrtCreateStream took %.0f ms: a hold armed in the last session held it", ms);
    else MG_CHECK(1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    MG_CHECK_EQ_INT(aclFinalize(), 0);
}

MG_TEST_MAIN()
