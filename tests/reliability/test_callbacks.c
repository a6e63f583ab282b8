/*
 * tests/reliability/test_callbacks.c: re-entrancy from callbacks (aclrtLaunchCallback with
 * ACL_CALLBACK_BLOCK, run by a thread in aclrtProcessReport). A copy or memset inside the
 * callback never waits for work queued behind it (issue 25.4); every call that would wait
 * for that work is refused at once, 207000 with a message; a report waiter whose only stream
 * is unsubscribed is told so (107012) instead of waiting for ever. One process per case
 * (CTest reliability_callbacks_<case>).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "rel_setup.h"

/* ---- 4. copies inside a blocking callback never wait for work queued behind it --------------- */

enum { CB_BYTES = 1 << 16 };
static aclrtContext cb_context;
static atomic_int cb_stop;
static atomic_int cb_ran;
/* Set once the memset behind the callback is queued: the callback's own async copy must be
   queued after it (the callback thread can start before the test thread queues the memset). */
static atomic_int cb_memset_queued;
static aclError cb_copy, cb_set, cb_async;
static unsigned char cb_seen[CB_BYTES];
static void *cb_dev;

static void *callback_thread(void *arg) {
    (void)arg;
    aclrtSetCurrentContext(cb_context);
    while (!atomic_load(&cb_stop)) (void)aclrtProcessReport(20);
    (void)aclGetRecentErrMsg();
    return NULL;
}

static void blocking_callback(void *user) {
    aclrtStream s = user;
    while (!atomic_load(&cb_memset_queued)) sched_yield();
    /* The memsetAsync queued after this callback writes these bytes: it cannot run until we
       return, so none of these may wait for it. */
    cb_copy = aclrtMemcpy(cb_seen, sizeof cb_seen, cb_dev, CB_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
    cb_set = aclrtMemset(cb_dev, CB_BYTES, 0x33, CB_BYTES / 4);
    unsigned char *pageable = malloc(CB_BYTES / 2);
    memset(pageable, 0x99, CB_BYTES / 2);
    cb_async = aclrtMemcpyAsync(cb_dev, CB_BYTES, pageable, CB_BYTES / 2, ACL_MEMCPY_HOST_TO_DEVICE, s);
    memset(pageable, 0xEE, CB_BYTES / 2); /* the call returned: the source is ours again */
    free(pageable);
    atomic_store(&cb_ran, 1);
}

/* The runtime, a stream, cb_dev (zeroed) and a callback thread subscribed to the stream. */
static pthread_t start_callback_stream(aclrtStream *s) {
    rel_start_runtime();
    REL_CHECK(aclrtGetCurrentContext(&cb_context) == ACL_SUCCESS, "aclrtGetCurrentContext");
    REL_CHECK(aclrtCreateStream(s) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtMalloc(&cb_dev, CB_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemset(cb_dev, CB_BYTES, 0x00, CB_BYTES) == ACL_SUCCESS, "aclrtMemset");
    pthread_t t;
    pthread_create(&t, NULL, callback_thread, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, *s) == ACL_SUCCESS, "aclrtSubscribeReport");
    return t;
}

/* Queues `fn` as a BLOCK callback on `s` and a memset of cb_dev (0x77) behind it, and
   synchronizes: the callback ran, and nothing hung (watchdog). */
static void run_with_a_memset_behind(aclrtCallback fn, aclrtStream s) {
    REL_WATCHDOG(20);
    atomic_store(&cb_memset_queued, 0);
    REL_CHECK(aclrtLaunchCallback(fn, s, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS, "aclrtLaunchCallback");
    REL_CHECK(aclrtMemsetAsync(cb_dev, CB_BYTES, 0x77, CB_BYTES, s) == ACL_SUCCESS, "aclrtMemsetAsync");
    atomic_store(&cb_memset_queued, 1);
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
    alarm(0);
    REL_CHECK(atomic_load(&cb_ran), "the callback ran");
}

MG_TEST(callback_copy) {
    aclrtStream s = NULL;
    const pthread_t t = start_callback_stream(&s);
    run_with_a_memset_behind(blocking_callback, s);
    REL_CHECK(cb_copy == ACL_SUCCESS && cb_set == ACL_SUCCESS && cb_async == ACL_SUCCESS, "copy %d set %d async %d",
          cb_copy, cb_set, cb_async);
    REL_CHECK(cb_seen[0] == 0 && cb_seen[CB_BYTES - 1] == 0, "the copy saw the bytes before the queued memset");
    /* In stream order: the memset (0x77) after the callback, then the staged copy (0x99). */
    unsigned char back[CB_BYTES];
    REL_CHECK(aclrtMemcpy(back, sizeof back, cb_dev, CB_BYTES, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "read back");
    int order_ok = 1;
    for (int i = 0; i < CB_BYTES; i++) order_ok &= back[i] == (i < CB_BYTES / 2 ? 0x99 : 0x77);
    REL_CHECK(order_ok, "device bytes: first half 0x99 (the staged source), second half 0x77");
    atomic_store(&cb_stop, 1);
    pthread_join(t, NULL);
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFree(cb_dev) == ACL_SUCCESS, "aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- round 3's own attack: waits inside a blocking callback ----------------------------- */

/* Each call waits for work queued behind the callback it runs in; it hung for good. Now
   207000 at once, with a message. */
enum { WAIT_CALLS = 8 };
static aclError wait_got[WAIT_CALLS];
static int wait_message_ok[WAIT_CALLS];

static void waiting_callback(void *user) {
    aclrtStream s = user;
    aclrtEvent ev = NULL;
    (void)aclrtCreateEvent(&ev);
    (void)aclrtRecordEvent(ev, s); /* behind this callback */
    void *host = NULL, *mapped = NULL;
    (void)aclrtMallocHost(&host, 4096);
    (void)aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, &mapped);
    aclrtContext other = NULL;
    (void)aclrtCreateContext(&other, 0);
    (void)aclrtSetCurrentContext(cb_context);
    (void)aclGetRecentErrMsg();
    for (int i = 0; i < WAIT_CALLS; i++) {
        switch (i) {
        case 0: wait_got[i] = aclrtSynchronizeStream(s); break;
        case 1: wait_got[i] = aclrtSynchronizeStreamWithTimeout(s, 10000); break;
        case 2: wait_got[i] = aclrtSynchronizeDevice(); break;
        case 3: wait_got[i] = aclrtSynchronizeEvent(ev); break;
        case 4: wait_got[i] = aclrtDestroyStream(s); break;
        case 5: wait_got[i] = aclrtHostUnregister(host); break;
        case 6: wait_got[i] = aclrtDestroyContext(other); break;
        default: wait_got[i] = aclrtResetDevice(0); break;
        }
        wait_message_ok[i] = rel_message_has("ACL_CALLBACK_BLOCK");
    }
    (void)aclrtDestroyEvent(ev);
    atomic_store(&cb_ran, 1);
}

MG_TEST(callback_waits) {
    aclrtStream s = NULL;
    const pthread_t t = start_callback_stream(&s);
    run_with_a_memset_behind(waiting_callback, s);
    for (int i = 0; i < WAIT_CALLS; i++)
        REL_CHECK(wait_got[i] == ACL_ERROR_RT_FEATURE_NOT_SUPPORT && wait_message_ok[i],
              "call %d in the callback returned %d (want 207000 and a message naming ACL_CALLBACK_BLOCK)", i,
              wait_got[i]);
    atomic_store(&cb_stop, 1);
    pthread_join(t, NULL);
    /* Outside the callback, everything works again. */
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFree(cb_dev) == ACL_SUCCESS, "aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- a report waiter whose last stream goes ------------------------------------------------ */

static atomic_int waiter_status = -1;
static atomic_int waiter_message_ok;
static atomic_int waiter_ready;
static atomic_int waiter_subscribed;

static void *late_report_waiter(void *arg) {
    (void)arg;
    while (!atomic_load(&waiter_subscribed)) rel_sleep_ms(1);
    atomic_store(&waiter_ready, 1);
    const aclError r = aclrtProcessReport(-1);
    atomic_store(&waiter_message_ok, rel_message_has("unsubscribed"));
    atomic_store(&waiter_status, (int)r);
    return NULL;
}

/* aclrtProcessReport(-1) while the thread's only stream is unsubscribed: it waited for ever
   (nothing can come any more); now 107012 with a message. */
MG_TEST(report_unsubscribed) {
    rel_start_runtime();
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    pthread_t t;
    pthread_create(&t, NULL, late_report_waiter, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtSubscribeReport");
    atomic_store(&waiter_subscribed, 1);
    while (!atomic_load(&waiter_ready)) rel_sleep_ms(1);
    rel_sleep_ms(50); /* inside the wait */
    REL_WATCHDOG(20);
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    pthread_join(t, NULL);
    alarm(0);
    REL_CHECK(atomic_load(&waiter_status) == ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport returned %d, want 107012",
          atomic_load(&waiter_status));
    REL_CHECK(atomic_load(&waiter_message_ok), "the waiter's message says it was unsubscribed");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- the stream's own subscriber waits on it (round-3 attack, second campaign) ---------------- */

/* A thread subscribed to a stream queues a blocking callback on it, then waits on the stream.
   Only this thread can run the callback (aclrtProcessReport), so the wait can never end: the
   waits stepped the stream themselves, handed the callback to their own thread, and slept
   through the wake-up they had just sent (aclrtSynchronizeStream, aclrtSynchronizeEvent,
   aclrtSynchronizeDevice, aclrtDestroyStream and a copy of the bytes queued behind the
   callback hung for ever; only the timed waits, which do not step, saw the deadlock). Each
   wait is refused at once (207000, a message telling what to do); the copy does not wait
   for the work behind the callback (as in a callback, item 4); once the thread runs the
   callback, the stream finishes. */
static int own_ran;
static void own_callback(void *user) {
    (void)user;
    own_ran++;
}

MG_TEST(own_subscriber_waits) {
    rel_start_runtime();
    aclrtStream s = NULL;
    aclrtEvent ev = NULL;
    void *dev = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtCreateEvent(&ev) == ACL_SUCCESS, "aclrtCreateEvent");
    REL_CHECK(aclrtMalloc(&dev, CB_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemset(dev, CB_BYTES, 0x00, CB_BYTES) == ACL_SUCCESS, "aclrtMemset");
    REL_CHECK(aclrtSubscribeReport((uint64_t)pthread_self(), s) == ACL_SUCCESS, "subscribe this thread");
    REL_WATCHDOG(20);
    /* Each wait meets a fresh callback, which the wait itself reaches (nothing else queued
       wakes the stream's worker, except the event's record), then the thread runs it. */
    static const char *const names[] = {"aclrtSynchronizeStream", "aclrtSynchronizeEvent",
                                        "aclrtSynchronizeDevice", "aclrtDestroyStream",
                                        "aclrtSynchronizeStreamWithTimeout"};
    for (int i = 0; i < 5; i++) {
        REL_CHECK(aclrtLaunchCallback(own_callback, NULL, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS, "aclrtLaunchCallback");
        aclError r = ACL_SUCCESS;
        switch (i) {
        case 0: r = aclrtSynchronizeStream(s); break;
        case 1:
            REL_CHECK(aclrtRecordEvent(ev, s) == ACL_SUCCESS, "aclrtRecordEvent");
            r = aclrtSynchronizeEvent(ev);
            break;
        case 2: r = aclrtSynchronizeDevice(); break;
        case 3: r = aclrtDestroyStream(s); break;
        default: r = aclrtSynchronizeStreamWithTimeout(s, 10000); break;
        }
        const char *said = rel_message();
        REL_CHECK(r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s returned %d, want 207000", names[i], r);
        REL_CHECK(strstr(said, names[i]) != NULL && strstr(said, "only the calling thread can run") != NULL &&
                      strstr(said, "aclrtProcessReport") != NULL,
                  "%s's message: \"%s\"", names[i], said);
        REL_CHECK(aclrtProcessReport(5000) == ACL_SUCCESS, "aclrtProcessReport after %s", names[i]);
        REL_CHECK(own_ran == i + 1, "after %s: the callback ran %d time(s), want %d", names[i], own_ran, i + 1);
        REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream after the callback");
    }
    /* A copy of bytes a memset queued behind the callback writes: it does not wait for work
       that cannot run before this thread runs the callback (as in a callback, item 4). */
    REL_CHECK(aclrtLaunchCallback(own_callback, NULL, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS, "aclrtLaunchCallback");
    REL_CHECK(aclrtMemsetAsync(dev, CB_BYTES, 0x77, CB_BYTES, s) == ACL_SUCCESS, "aclrtMemsetAsync");
    unsigned char seen[64];
    memset(seen, 0xEE, sizeof seen);
    REL_CHECK(aclrtMemcpy(seen, sizeof seen, dev, sizeof seen, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "a copy of the bytes queued behind the callback");
    REL_CHECK(seen[0] == 0x00 && seen[63] == 0x00, "the copy saw the bytes before the queued memset: %#x", seen[0]);
    REL_CHECK(aclrtProcessReport(5000) == ACL_SUCCESS, "aclrtProcessReport");
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream after the callback");
    alarm(0);
    REL_CHECK(own_ran == 6, "the callbacks ran %d time(s), want 6", own_ran);
    REL_CHECK(aclrtMemcpy(seen, sizeof seen, dev, sizeof seen, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "read back");
    REL_CHECK(seen[0] == 0x77 && seen[63] == 0x77, "the memset behind the callback ran: %#x", seen[0]);
    REL_CHECK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s) == ACL_SUCCESS, "aclrtUnSubscribeReport");
    REL_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS, "aclrtDestroyEvent");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFree(dev) == ACL_SUCCESS, "aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* The same from inside a blocking callback on another stream: the callback subscribes its own
   thread to a second stream, queues a blocking callback there and synchronizes it (it hung). */
static aclError nested_sync;
static int nested_message_ok;
static void serving_callback(void *user) {
    aclrtStream *second = user;
    (void)aclrtSubscribeReport((uint64_t)pthread_self(), *second);
    (void)aclrtLaunchCallback(own_callback, NULL, ACL_CALLBACK_BLOCK, *second);
    nested_sync = aclrtSynchronizeStream(*second);
    nested_message_ok = rel_message_has("ACL_CALLBACK_BLOCK");
    atomic_store(&cb_ran, 1);
}

MG_TEST(serving_callback_syncs_its_stream) {
    rel_start_runtime();
    REL_CHECK(aclrtGetCurrentContext(&cb_context) == ACL_SUCCESS, "aclrtGetCurrentContext");
    aclrtStream s = NULL, second = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS && aclrtCreateStream(&second) == ACL_SUCCESS, "aclrtCreateStream");
    pthread_t t;
    pthread_create(&t, NULL, callback_thread, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtSubscribeReport");
    REL_WATCHDOG(20);
    REL_CHECK(aclrtLaunchCallback(serving_callback, &second, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS,
              "aclrtLaunchCallback");
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
    REL_CHECK(atomic_load(&cb_ran), "the callback ran");
    REL_CHECK(nested_sync == ACL_ERROR_RT_FEATURE_NOT_SUPPORT && nested_message_ok,
              "aclrtSynchronizeStream in the callback returned %d (want 207000, a message)", nested_sync);
    /* the callback thread's loop runs the second stream's callback afterwards */
    REL_CHECK(aclrtSynchronizeStream(second) == ACL_SUCCESS, "aclrtSynchronizeStream(second)");
    alarm(0);
    REL_CHECK(own_ran == 1, "the second stream's callback ran once (%d)", own_ran);
    atomic_store(&cb_stop, 1);
    pthread_join(t, NULL);
    REL_CHECK(aclrtDestroyStream(second) == ACL_SUCCESS && aclrtDestroyStream(s) == ACL_SUCCESS,
              "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

MG_TEST_MAIN()
