/*
 * tests/ut/runtime/test_stream_context.c: a stream belongs to the context that created it.
 * As CANN's runtime does (its api_impl checks), the calls that queue work on a stream or
 * destroy it fail with 107003 ACL_ERROR_RT_STREAM_CONTEXT ("stream not in current context",
 * hicann/runtime docs/zh/api_ref/25-01_aclError.md) when the calling thread's current
 * context is another one; synchronize and query work from any context.
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdint.h>

#include "ut_util.h"

static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

static int callback_runs;
static void count_callback(void *user) {
    (void)user;
    callback_runs++;
}

MG_TEST(a_stream_is_used_in_its_own_context_only) {
    ut_init();
    aclrtContext main_ctx = NULL, other = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&main_ctx), ACL_SUCCESS);
    aclrtStream mine = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&mine), ACL_SUCCESS);
    void *device = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(device, 64, 0x11, 64), ACL_SUCCESS);
    aclrtEvent event = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);

    MG_CHECK_EQ_INT(aclrtCreateContext(&other, 0), ACL_SUCCESS);  /* now current */
    unsigned char host[64];
    memset(host, 0x22, sizeof host);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(device, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, mine),
                    ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtMemcpyAsync: stream");
    MG_CHECK_EQ_INT(aclrtMemsetAsync(device, 64, 0x33, 64, mine), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "does not belong to the calling thread's current context");
    MG_CHECK_EQ_INT(aclrtRecordEvent(event, mine), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtRecordEvent: stream");
    MG_CHECK_EQ_INT(aclrtResetEvent(event, mine), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtResetEvent: stream");
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(mine, event), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtStreamWaitEvent: stream");
    MG_CHECK_EQ_INT(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_NO_BLOCK, mine), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtLaunchCallback: stream");
    MG_CHECK_EQ_INT(aclrtDestroyStream(mine), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), "call aclrtSetCurrentContext with the stream's context first");
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(mine), ACL_ERROR_RT_STREAM_CONTEXT);
    (void)aclGetRecentErrMsg();
    /* Synchronize and query are allowed from another context, as in CANN. */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(mine), ACL_SUCCESS);
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    MG_CHECK_EQ_INT(aclrtStreamQuery(mine, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_STREAM_STATUS_COMPLETE);
    MG_CHECK(aclGetRecentErrMsg() == NULL);

    /* Nothing was queued: the device memory still holds 0x11. */
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(host[i], 0x11);

    /* The current context's own streams (its NULL stream and a new one) work. */
    aclrtStream theirs = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&theirs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(device, 64, 0x44, 64, theirs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(event, theirs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(theirs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(device, 64, 0x45, 64, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    /* ... and, back in the stream's own context, so does `mine`. */
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(device, 64, 0x55, 64, mine), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(mine), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(host[0], 0x55);
    MG_CHECK_EQ_INT(aclrtDestroyStream(theirs), ACL_ERROR_RT_STREAM_CONTEXT);  /* other's stream */
    (void)aclGetRecentErrMsg();
    MG_CHECK_EQ_INT(aclrtDestroyStream(mine), ACL_SUCCESS);

    /* A stream whose context is destroyed belongs to none: work is refused (the message says
       the context is gone), destroying it is allowed from anywhere. */
    MG_CHECK_EQ_INT(aclrtDestroyContext(other), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(device, 64, 0x66, 64, theirs), ACL_ERROR_RT_STREAM_CONTEXT);
    MG_CHECK_STR_CONTAINS(last_message(), ", since destroyed)");
    MG_CHECK_EQ_INT(aclrtDestroyStream(theirs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(callback_runs, 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(event), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(device), ACL_SUCCESS);
}

/* Threads sharing one context (each calls aclrtSetDevice(0): device 0's default context) share
   its streams: the rule is per context, not per thread. */
static aclrtStream shared_stream;
static void *same_context_thread(void *arg) {
    aclError *status = arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        *status = -1;
        return NULL;
    }
    static unsigned char host[16];
    void *device = NULL;
    *status = aclrtMalloc(&device, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    if (*status == ACL_SUCCESS) *status = aclrtMemcpyAsync(device, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, shared_stream);
    if (*status == ACL_SUCCESS) *status = aclrtSynchronizeStream(shared_stream);
    if (device != NULL) (void)aclrtFree(device);
    return NULL;
}

MG_TEST(threads_of_one_context_share_its_streams) {
    ut_init();
    MG_CHECK_EQ_INT(aclrtCreateStream(&shared_stream), ACL_SUCCESS);
    aclError status = -2;
    pthread_t t;
    MG_CHECK_EQ_INT(pthread_create(&t, NULL, same_context_thread, &status), 0);
    pthread_join(t, NULL);
    MG_CHECK_EQ_INT(status, ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(shared_stream), ACL_SUCCESS);
}

/* An operator launched on another context's stream fails in phase 2 and writes nothing. */
MG_TEST(an_operator_launch_on_another_contexts_stream_fails) {
    ut_init();
    aclrtContext main_ctx = NULL, other = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&main_ctx), ACL_SUCCESS);
    aclrtStream mine = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&mine), ACL_SUCCESS);
    const int64_t n = 8;
    void *bufs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&bufs[i], n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMemset(bufs[i], n * sizeof(float), 0, n * sizeof(float)), ACL_SUCCESS);
    }
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = aclCreateTensor(&n, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &n, 1, bufs[i]);
    MG_CHECK_EQ_INT(aclrtMemset(bufs[2], n * sizeof(float), 0x7f, n * sizeof(float)), ACL_SUCCESS);
    uint64_t workspace = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &workspace, &executor), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclnnStatus launch = aclnnMishBackward(NULL, 0, executor, mine);
    MG_CHECK_EQ_INT(launch, ACLNN_ERR_RUNTIME_ERROR); /* 361001, as without a context */
    MG_CHECK_STR_CONTAINS(last_message(), "does not belong to the calling thread's current context");
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(mine), ACL_SUCCESS);
    unsigned char host[32];
    MG_CHECK_EQ_INT(aclrtMemcpy(host, sizeof host, bufs[2], sizeof host, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (size_t i = 0; i < sizeof host; i++) MG_CHECK_EQ_INT(host[i], 0x7f);  /* untouched */
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclDestroyTensor(t[i]), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFree(bufs[i]), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(mine), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyContext(other), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), ACL_SUCCESS);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
