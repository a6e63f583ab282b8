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

MG_TEST(callback_copy) {
    rel_start_runtime();
    REL_CHECK(aclrtGetCurrentContext(&cb_context) == ACL_SUCCESS, "aclrtGetCurrentContext");
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtMalloc(&cb_dev, CB_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemset(cb_dev, CB_BYTES, 0x00, CB_BYTES) == ACL_SUCCESS, "aclrtMemset");
    pthread_t t;
    pthread_create(&t, NULL, callback_thread, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtSubscribeReport");
    REL_WATCHDOG(20);
    REL_CHECK(aclrtLaunchCallback(blocking_callback, s, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS, "aclrtLaunchCallback");
    REL_CHECK(aclrtMemsetAsync(cb_dev, CB_BYTES, 0x77, CB_BYTES, s) == ACL_SUCCESS, "aclrtMemsetAsync");
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
    alarm(0);
    REL_CHECK(atomic_load(&cb_ran), "the callback ran");
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
    rel_start_runtime();
    REL_CHECK(aclrtGetCurrentContext(&cb_context) == ACL_SUCCESS, "aclrtGetCurrentContext");
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtMalloc(&cb_dev, CB_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    pthread_t t;
    pthread_create(&t, NULL, callback_thread, NULL);
    REL_CHECK(aclrtSubscribeReport((uint64_t)t, s) == ACL_SUCCESS, "aclrtSubscribeReport");
    REL_WATCHDOG(20);
    REL_CHECK(aclrtLaunchCallback(waiting_callback, s, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS, "aclrtLaunchCallback");
    REL_CHECK(aclrtMemsetAsync(cb_dev, CB_BYTES, 0x77, CB_BYTES, s) == ACL_SUCCESS, "aclrtMemsetAsync");
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
    alarm(0);
    REL_CHECK(atomic_load(&cb_ran), "the callback ran");
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

MG_TEST_MAIN()
