/*
 * tests/reliability/test_contexts.c: contexts against device resets. aclrtResetDevice
 * releases the default context, its default stream and the streams made in it (CANN's
 * documentation of aclrtResetDevice); a context the program made with aclrtCreateContext is
 * not among them, so a thread whose current context it is keeps it and can still make
 * streams in it (issue 25.11: the reset cleared the wrong thread's current context).
 * CTest reliability_contexts_<case>.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "acl/acl.h"
#include "rel_setup.h"

MG_TEST(reset_device_keeps_a_created_context_current) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext created = NULL;
    MG_CHECK_EQ_INT(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    MG_CHECK(created != NULL);
    /* the last reset: the default context goes, the created one (current here) stays */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    aclrtContext current = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    MG_CHECK(current == created);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_SUCCESS);
    if (s != NULL) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyContext(created), ACL_SUCCESS);
    /* the default context is gone with the reset: a thread on it would have none now */
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

/* aclrtDestroyContext releases the context's default stream once the work queued on it is
   done, also work that is waiting for another stream (seed 60: the wait given a timeout of
   0, the default stream was stopped at once and its waiting work dropped). The default
   stream of a created context waits for an event that a stream of the device's default
   context records behind a blocking callback, which the report thread processes 100 ms
   later; then a memset. The destroy returns after that memset. */
enum { CTX_BYTES = 4096 };
static atomic_int ctx_callback_ran;
static void ctx_callback(void *user) {
    (void)user;
    atomic_fetch_add(&ctx_callback_ran, 1);
}
static void *ctx_reporter(void *arg) {
    (void)arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) return NULL;
    rel_sleep_ms(100);
    (void)aclrtProcessReport(5000);
    return NULL;
}

MG_TEST(destroy_context_waits_for_its_default_stream) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream holder = NULL;
    aclrtEvent ev = NULL;
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&holder), ACL_SUCCESS); /* in the default context */
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, CTX_BYTES, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(dev, CTX_BYTES, 0, CTX_BYTES), ACL_SUCCESS);
    pthread_t reporter;
    MG_CHECK(pthread_create(&reporter, NULL, ctx_reporter, NULL) == 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)reporter, holder), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(ctx_callback, NULL, ACL_CALLBACK_BLOCK, holder), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, holder), ACL_SUCCESS);
    aclrtContext created = NULL;
    MG_CHECK_EQ_INT(aclrtCreateContext(&created, 0), ACL_SUCCESS); /* current now */
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, ev), ACL_SUCCESS);  /* the created context's default stream */
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, CTX_BYTES, 0x5A, CTX_BYTES, NULL), ACL_SUCCESS);
    REL_WATCHDOG(20);
    const double t0 = rel_now_s();
    MG_CHECK_EQ_INT(aclrtDestroyContext(created), ACL_SUCCESS);
    const double took = rel_now_s() - t0;
    alarm(0);
    MG_CHECK(atomic_load(&ctx_callback_ran) == 1);
    MG_CHECK(took >= 0.05); /* it waited for the reporter */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS); /* back on the default context */
    unsigned char back[CTX_BYTES];
    memset(back, 0, sizeof back);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, sizeof back, dev, CTX_BYTES, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    int set = 0;
    for (int i = 0; i < CTX_BYTES; i++) set += back[i] == 0x5A;
    MG_CHECK_EQ_INT(set, CTX_BYTES);
    pthread_join(reporter, NULL);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)reporter, holder), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(holder), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST_MAIN()
