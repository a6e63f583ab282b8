/*
 * tests/reliability/test_refusals.c: refusals of runtime/ and nnopbase/ whose status a
 * mutation run found no test reading (a deleted `return mgrt_fail_at(...)`, or its guard
 * negated or moved by one, left the suite passing). Each case reads, for every refusal it
 * reaches, the exact CANN status, a distinctive part of the recent message, and that the
 * outputs (pre-filled with a sentinel) were not written; where the guard is a bound, the
 * value just inside it is taken, so `<` and `<=` mutants differ.
 *
 * One CTest test per case (each its own process: every case ends the runtime, one forks).
 */
#define _DEFAULT_SOURCE /* posix_memalign */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_op.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_test.h"
#include "mgrt.h"
#include "nnop.h"
#include "rel_fixtures.h"
#include "rel_setup.h"

/* The size just inside aclrtMalloc's padding bound must come back as a failed allocation,
   not as the sanitizer's abort on a huge request (the program exports these, CMakeLists.txt,
   so that a shared sanitizer runtime finds them). */
#define REL_EXPORTED __attribute__((visibility("default")))
REL_EXPORTED const char *__asan_default_options(void);
REL_EXPORTED const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
REL_EXPORTED const char *__tsan_default_options(void);
REL_EXPORTED const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }

/* The status, then the message: `needle` must be in it (the message is handed out once). */
#define CHECK_REFUSED(call, status, needle)                                                        \
    do {                                                                                           \
        const long long got_ = (long long)(call);                                                  \
        const char *said_ = rel_message();                                                         \
        REL_CHECK(got_ == (long long)(status), "%s returned %lld, want %s (%lld); message \"%s\"", \
                  #call, got_, #status, (long long)(status), said_);                               \
        REL_CHECK(strstr(said_, (needle)) != NULL, "%s: message \"%s\" lacks \"%s\"", #call, said_, \
                  (needle));                                                                       \
    } while (0)

/* A call that must succeed and leave no message. */
#define CHECK_TAKEN(call)                                                                          \
    do {                                                                                           \
        const long long got_ = (long long)(call);                                                  \
        REL_CHECK(got_ == 0, "%s returned %lld, want 0; message \"%s\"", #call, got_, rel_message()); \
    } while (0)

#define SENTINEL ((void *)(uintptr_t)0x5e5e5e5eu)
#define STALE "is stale (already destroyed or released, or reclaimed by aclFinalize)"

/* An expected message naming a handle (%p); two may be alive in one expression. */
static const char *want(const char *format, const void *handle) {
    static char texts[2][512];
    static int next;
    char *text = texts[next++ & 1];
    snprintf(text, sizeof texts[0], format, handle);
    return text;
}

static void up(void) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    rel_start_runtime();
    (void)aclGetRecentErrMsg();
}

static void down(void) { REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize"); }

/* ---- acl_base.c ------------------------------------------------------------------------------- */

MG_TEST(data_buffer_destroy) {
    up();
    CHECK_REFUSED(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is NULL");
    char bytes[16];
    aclDataBuffer *b = aclCreateDataBuffer(bytes, sizeof bytes);
    REL_CHECK(b != NULL, "aclCreateDataBuffer");
    CHECK_TAKEN(aclDestroyDataBuffer(b));
    CHECK_REFUSED(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM, want("aclDestroyDataBuffer: dataBuffer %p " STALE, b));
    down();
}

/* ---- acl_callback.c --------------------------------------------------------------------------- */

static atomic_int callback_runs;
static void count_callback(void *user) {
    (void)user;
    atomic_fetch_add(&callback_runs, 1);
}

MG_TEST(callback_subscription) {
    up();
    REL_WATCHDOG(30);
    aclrtStream s = NULL;
    CHECK_TAKEN(aclrtCreateStream(&s));
    const uint64_t me = (uint64_t)pthread_self();
    CHECK_REFUSED(aclrtUnSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "has no subscribed thread");
    CHECK_REFUSED(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
                  "call aclrtSubscribeReport first");
    CHECK_TAKEN(aclrtSubscribeReport(me, s));
    CHECK_REFUSED(aclrtSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "already has a subscribed thread");
    /* the block types are 0 and 1: 2 and -1 are refused before the stream is looked at */
    CHECK_REFUSED(aclrtLaunchCallback(count_callback, NULL, (aclrtCallbackBlockType)2, s), ACL_ERROR_INVALID_PARAM,
                  "blockType 2 is neither");
    CHECK_REFUSED(aclrtLaunchCallback(count_callback, NULL, (aclrtCallbackBlockType)-1, s), ACL_ERROR_INVALID_PARAM,
                  "blockType -1 is neither");
    CHECK_REFUSED(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtLaunchCallback: fn is NULL");
    atomic_store(&callback_runs, 0);
    CHECK_TAKEN(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_NO_BLOCK, s));
    CHECK_TAKEN(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_BLOCK, s));
    for (int i = 0; i < 100 && atomic_load(&callback_runs) < 2; i++) (void)aclrtProcessReport(50);
    REL_CHECK(atomic_load(&callback_runs) == 2, "%d callbacks ran, want 2", atomic_load(&callback_runs));
    CHECK_TAKEN(aclrtSynchronizeStream(s));
    CHECK_TAKEN(aclrtUnSubscribeReport(me, s));
    CHECK_TAKEN(aclrtDestroyStream(s));
    alarm(0);
    down();
}

/* Inside a blocking callback: a wait for the callback's own stream, and a call that waits
   for every stream, are refused (they would wait for the callback itself). */
static aclrtStream callback_stream;
static atomic_int sync_status = -1, unregister_status = -1;
static char sync_said[REL_MESSAGE_CAPACITY], unregister_said[REL_MESSAGE_CAPACITY];
static void refusing_callback(void *user) {
    sync_status = aclrtSynchronizeStream(callback_stream);
    snprintf(sync_said, sizeof sync_said, "%s", rel_message());
    unregister_status = aclrtHostUnregister(user);
    snprintf(unregister_said, sizeof unregister_said, "%s", rel_message());
}

MG_TEST(blocking_callback_refusals) {
    up();
    REL_WATCHDOG(30);
    CHECK_TAKEN(aclrtCreateStream(&callback_stream));
    CHECK_TAKEN(aclrtSubscribeReport((uint64_t)pthread_self(), callback_stream));
    static char page[64];
    CHECK_TAKEN(aclrtLaunchCallback(refusing_callback, page, ACL_CALLBACK_BLOCK, callback_stream));
    CHECK_TAKEN(aclrtProcessReport(5000));
    REL_CHECK(sync_status == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSynchronizeStream in the callback: %d",
              (int)sync_status);
    REL_CHECK(strstr(sync_said, "aclrtSynchronizeStream: called inside an ACL_CALLBACK_BLOCK callback") != NULL,
              "message \"%s\"", sync_said);
    REL_CHECK(unregister_status == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostUnregister in the callback: %d",
              (int)unregister_status);
    REL_CHECK(strstr(unregister_said, "aclrtHostUnregister: cannot be called inside an ACL_CALLBACK_BLOCK callback") !=
                  NULL,
              "message \"%s\"", unregister_said);
    /* outside the callback the same calls are not refused for it */
    CHECK_TAKEN(aclrtSynchronizeStream(callback_stream));
    CHECK_REFUSED(aclrtHostUnregister(page), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
    CHECK_TAKEN(aclrtUnSubscribeReport((uint64_t)pthread_self(), callback_stream));
    CHECK_TAKEN(aclrtDestroyStream(callback_stream));
    alarm(0);
    down();
}

/* ---- acl_context.c ---------------------------------------------------------------------------- */

MG_TEST(default_context_not_destroyable) {
    up();
    aclrtContext main_ctx = NULL, own = NULL;
    CHECK_TAKEN(aclrtGetCurrentContext(&main_ctx));
    CHECK_REFUSED(aclrtDestroyContext(main_ctx), ACL_ERROR_RT_CONTEXT_NULL, "is the default context of device 0");
    /* still usable */
    CHECK_TAKEN(aclrtSetCurrentContext(main_ctx));
    CHECK_TAKEN(aclrtCreateContext(&own, 0));
    CHECK_TAKEN(aclrtDestroyContext(own));
    CHECK_TAKEN(aclrtSetCurrentContext(main_ctx));
    down();
}

/* ---- acl_copy.c -------------------------------------------------------------------------------- */

static int all_bytes(const unsigned char *p, size_t n, unsigned char v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

MG_TEST(copy_refusals) {
    up();
    unsigned char *dev = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char host[64];
    memset(host, 0x11, sizeof host);
    memset(dev, 0xEE, 64);
    CHECK_REFUSED(aclrtMemcpy(NULL, 64, host, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                  "aclrtMemcpy: dst is NULL");
    CHECK_REFUSED(aclrtMemcpy(dev, 64, NULL, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                  "aclrtMemcpy: src is NULL");
    /* capacity: 0 refused, count one past destMax refused, count == destMax taken */
    CHECK_REFUSED(aclrtMemcpy(dev, 0, host, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtMemcpy: destMax is 0");
    CHECK_REFUSED(aclrtMemcpy(dev, 8, host, 9, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtMemcpy: count 9 exceeds destMax 8");
    CHECK_REFUSED(aclrtMemset(dev, 8, 0x22, 9), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: count 9 exceeds maxCount 8");
    CHECK_REFUSED(aclrtMemset(dev, 0, 0x22, 9), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: maxCount is 0");
    REL_CHECK(all_bytes(dev, 64, 0xEE), "a refused copy or set wrote the destination");
    /* kinds 0..5 only */
    CHECK_REFUSED(aclrtMemcpy(dev, 64, host, 8, (aclrtMemcpyKind)6), ACL_ERROR_INVALID_PARAM,
                  "aclrtMemcpy: kind 6 is not a copy kind");
    CHECK_REFUSED(aclrtMemcpy(dev, 64, host, 8, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM,
                  "aclrtMemcpy: kind -1 is not a copy kind");
    REL_CHECK(all_bytes(dev, 64, 0xEE), "a refused copy wrote the destination");
    CHECK_TAKEN(aclrtMemcpy(dev, 8, host, 8, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
    REL_CHECK(all_bytes(dev, 8, 0x11) && all_bytes(dev + 8, 56, 0xEE), "the copy of 8 bytes");
    CHECK_TAKEN(aclrtMemset(dev + 8, 8, 0x33, 8));
    REL_CHECK(all_bytes(dev + 8, 8, 0x33) && all_bytes(dev + 16, 48, 0xEE), "the set of 8 bytes");
    /* asynchronous host-to-host: refused either way it is asked for, nothing written */
    unsigned char other[16];
    memset(other, 0x44, sizeof other);
    CHECK_REFUSED(aclrtMemcpyAsync(other, 16, host, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "asynchronous host-to-host copies are not supported (kind ACL_MEMCPY_HOST_TO_HOST");
    CHECK_REFUSED(aclrtMemcpyAsync(other, 16, host, 16, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "ACL_MEMCPY_DEFAULT with two host pointers");
    CHECK_TAKEN(aclrtSynchronizeStream(NULL));
    REL_CHECK(all_bytes(other, 16, 0x44), "a refused asynchronous copy wrote the destination");
    /* ... but one side on the device is taken asynchronously */
    CHECK_TAKEN(aclrtMemcpyAsync(other, 16, dev + 8, 16, ACL_MEMCPY_DEFAULT, NULL));
    CHECK_TAKEN(aclrtSynchronizeStream(NULL));
    REL_CHECK(all_bytes(other, 8, 0x33) && all_bytes(other + 8, 8, 0xEE), "the asynchronous copy");
    /* a registered range is the host side of a copy, never its device side */
    void *page = NULL;
    REL_CHECK(posix_memalign(&page, 4096, 4096) == 0, "posix_memalign");
    memset(page, 0x55, 4096);
    void *mapped = NULL;
    CHECK_TAKEN(aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, &mapped));
    CHECK_REFUSED(aclrtMemcpy(mapped, 4096, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                  "dst range");
    CHECK_REFUSED(aclrtMemcpy(dev, 64, mapped, 16, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
                  "is host memory registered by aclrtHostRegister");
    REL_CHECK(all_bytes(page, 4096, 0x55), "a refused copy wrote the registered range");
    CHECK_TAKEN(aclrtMemcpy(dev, 64, mapped, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    REL_CHECK(all_bytes(dev, 16, 0x55), "the copy from the registered range");
    CHECK_REFUSED(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister: ptr is NULL");
    CHECK_TAKEN(aclrtHostUnregister(page));
    free(page);
    CHECK_TAKEN(aclrtFree(dev));
    down();
}

/* ---- acl_error.c ------------------------------------------------------------------------------- */

/* A refused level is the acl layer's check: the thread's last (runtime) error stays as is. */
MG_TEST(last_error_level) {
    up();
    char byte = 0;
    CHECK_REFUSED(aclrtMemcpy(&byte, 0, &byte, 1, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "destMax is 0");
    CHECK_REFUSED(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM,
                  "aclrtGetLastError: level 1 is not ACL_RT_THREAD_LEVEL (0)");
    CHECK_REFUSED(aclrtPeekAtLastError((aclrtLastErrLevel)-1), ACL_ERROR_INVALID_PARAM,
                  "aclrtPeekAtLastError: level -1 is not ACL_RT_THREAD_LEVEL (0)");
    REL_CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID, "the last error was lost");
    REL_CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID, "the last error was lost");
    CHECK_TAKEN(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    down();
}

/* ---- acl_event.c ------------------------------------------------------------------------------- */

#define EVENT_REFUSED(fn, flag, status, needle)                        \
    do {                                                               \
        aclrtEvent ev_ = SENTINEL;                                     \
        CHECK_REFUSED(fn(&ev_, (flag)), status, needle);               \
        REL_CHECK(ev_ == SENTINEL, "%s(0x%x) wrote the handle", #fn, (unsigned)(flag)); \
    } while (0)

#define EVENT_TAKEN(fn, flag)                                          \
    do {                                                               \
        aclrtEvent ev_ = NULL;                                         \
        CHECK_TAKEN(fn(&ev_, (flag)));                                 \
        REL_CHECK(ev_ != NULL, "%s(0x%x) gave no event", #fn, (unsigned)(flag)); \
        CHECK_TAKEN(aclrtDestroyEvent(ev_));                           \
    } while (0)

MG_TEST(event_flags) {
    up();
    /* WithFlag: the combinable flags 0x1 | 0x2 | 0x4 | 0x8, or 0x10 or 0x20 alone (0x3f at most) */
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0u, ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtCreateEventWithFlag: flag 0x0 is invalid; use an OR of");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x40u, ACL_ERROR_RT_PARAM_INVALID, "flag 0x40 is invalid; use an OR of");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x80u, ACL_ERROR_RT_PARAM_INVALID, "flag 0x80 is invalid; use an OR of");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x11u, ACL_ERROR_RT_PARAM_INVALID,
                  "flag 0x11 is invalid: 0x10 (ACL_EVENT_DEVICE_USE_ONLY) cannot be combined");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x28u, ACL_ERROR_RT_PARAM_INVALID,
                  "flag 0x28 is invalid: 0x20 (ACL_EVENT_EXTERNAL) cannot be combined");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x10u, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "flag 0x10 asks for device-only, graph-capture (external), IPC or RT_EVENT_DDSYNC");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x20u, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x20 asks for device-only");
    EVENT_REFUSED(aclrtCreateEventWithFlag, 0x5u, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x5 asks for device-only");
    EVENT_TAKEN(aclrtCreateEventWithFlag, 0x1u);
    EVENT_TAKEN(aclrtCreateEventWithFlag, 0xbu);
    /* Ex: the combinable flags, or 0x40 alone (0x4f at most) */
    EVENT_REFUSED(aclrtCreateEventExWithFlag, 0u, ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtCreateEventExWithFlag: flag 0x0 is invalid; use an OR of");
    EVENT_REFUSED(aclrtCreateEventExWithFlag, 0x80u, ACL_ERROR_RT_PARAM_INVALID,
                  "flag 0x80 is invalid; use an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, "
                  "ACL_EVENT_TIME_LINE (and 0x4), or ACL_EVENT_IPC alone");
    EVENT_REFUSED(aclrtCreateEventExWithFlag, 0x10u, ACL_ERROR_RT_PARAM_INVALID,
                  "flag 0x10 is invalid; use an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, "
                  "ACL_EVENT_TIME_LINE (and 0x4), or ACL_EVENT_IPC alone");
    EVENT_REFUSED(aclrtCreateEventExWithFlag, 0x41u, ACL_ERROR_RT_PARAM_INVALID,
                  "flag 0x41 is invalid: 0x40 (ACL_EVENT_IPC) cannot be combined");
    EVENT_REFUSED(aclrtCreateEventExWithFlag, 0x40u, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag 0x40 asks for device-only");
    EVENT_TAKEN(aclrtCreateEventExWithFlag, 0x1u);
    EVENT_TAKEN(aclrtCreateEventExWithFlag, 0xbu);
    down();
}

MG_TEST(event_task_refusals) {
    up();
    aclrtStream s = NULL;
    CHECK_TAKEN(aclrtCreateStream(&s));
    aclrtEvent plain = NULL, no_sync = NULL, ex = NULL, with_sync = NULL;
    CHECK_TAKEN(aclrtCreateEvent(&plain));
    CHECK_TAKEN(aclrtCreateEventWithFlag(&no_sync, ACL_EVENT_TIME_LINE));
    CHECK_TAKEN(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    CHECK_TAKEN(aclrtCreateEventWithFlag(&with_sync, ACL_EVENT_SYNC));
    CHECK_REFUSED(aclrtStreamWaitEvent(s, plain), ACL_ERROR_RT_PARAM_INVALID,
                  want("aclrtStreamWaitEvent: event %p has never been recorded; call aclrtRecordEvent first", plain));
    CHECK_REFUSED(aclrtStreamWaitEvent(s, no_sync), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "without ACL_EVENT_SYNC: it has no wait task, so there is nothing to wait for");
    CHECK_REFUSED(aclrtResetEvent(no_sync, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "so there is nothing to reset");
    CHECK_REFUSED(aclrtResetEvent(ex, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "comes from aclrtCreateEventExWithFlag, which cannot be reset");
    CHECK_REFUSED(aclrtResetEvent(plain, s), ACL_ERROR_INVALID_PARAM,
                  "was not created by aclrtCreateEventWithFlag with ACL_EVENT_SYNC");
    /* what each may do */
    CHECK_TAKEN(aclrtRecordEvent(plain, s));
    CHECK_TAKEN(aclrtStreamWaitEvent(s, plain));
    CHECK_TAKEN(aclrtStreamWaitEvent(s, ex));
    CHECK_TAKEN(aclrtResetEvent(with_sync, s));
    CHECK_TAKEN(aclrtSynchronizeStream(s));
    CHECK_TAKEN(aclrtDestroyEvent(no_sync));
    CHECK_REFUSED(aclrtRecordEvent(no_sync, s), ACL_ERROR_INVALID_PARAM, want("aclrtRecordEvent: event %p " STALE, no_sync));
    CHECK_TAKEN(aclrtDestroyEvent(plain));
    CHECK_TAKEN(aclrtDestroyEvent(ex));
    CHECK_TAKEN(aclrtDestroyEvent(with_sync));
    CHECK_TAKEN(aclrtDestroyStream(s));
    down();
}

/* ---- acl_init.c -------------------------------------------------------------------------------- */

MG_TEST(init_repeats) {
    up();
    CHECK_REFUSED(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized (2 aclInit references now)");
    CHECK_TAKEN(aclFinalize());
    CHECK_REFUSED(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized; call aclInit before");
    CHECK_TAKEN(aclInit(NULL));
    CHECK_TAKEN(aclFinalize());
}

/* ---- acl_memory.c ------------------------------------------------------------------------------ */

MG_TEST(memory_refusals) {
    up();
    CHECK_REFUSED(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is NULL");
    CHECK_REFUSED(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is NULL");
    /* CANN pads by 64 bytes: SIZE_MAX - 63 wraps (refused as a parameter); SIZE_MAX - 64 does
       not, and is then an allocation that fails */
    void *p = SENTINEL;
    CHECK_REFUSED(aclrtMalloc(&p, SIZE_MAX - 63, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                  "too large (with CANN's 64 bytes of padding it overflows size_t)");
    REL_CHECK(p == SENTINEL, "a refused aclrtMalloc wrote devPtr");
    CHECK_REFUSED(aclrtMalloc(&p, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "cannot allocate");
    REL_CHECK(p == SENTINEL, "a failed aclrtMalloc wrote devPtr");
    CHECK_REFUSED(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is NULL");
    CHECK_REFUSED(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is NULL");
    /* freeing: twice, not a block start, a registered range, a host block still registered */
    unsigned char *dev = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&dev, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_REFUSED(aclrtFree(dev + 64), ACL_ERROR_INVALID_PARAM, "is not the start of a live block (freed twice, or not "
                                                                "from aclrtMalloc)");
    CHECK_TAKEN(aclrtFree(dev));
    CHECK_REFUSED(aclrtFree(dev), ACL_ERROR_INVALID_PARAM, "is not the start of a live block");
    void *host = NULL, *mapped = SENTINEL;
    CHECK_TAKEN(aclrtMallocHost(&host, 8192));
    /* types: bits outside IOMEMORY | READONLY are 207000, those two reserved (207000) */
    CHECK_REFUSED(aclrtHostRegister(host, 4096, (aclrtHostRegisterType)1, &mapped), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtHostRegister: type 1 is not supported; use ACL_HOST_REGISTER_MAPPED (0)");
    CHECK_REFUSED(aclrtHostRegister(host, 4096, (aclrtHostRegisterType)0x10, &mapped), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtHostRegister: type 16 is not supported");
    CHECK_REFUSED(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_IOMEMORY, &mapped), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtHostRegister: type 4 (ACL_HOST_REGISTER_IOMEMORY / READONLY) is reserved");
    CHECK_REFUSED(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_READONLY, &mapped), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "aclrtHostRegister: type 8 (ACL_HOST_REGISTER_IOMEMORY / READONLY) is reserved");
    REL_CHECK(mapped == SENTINEL, "a refused aclrtHostRegister wrote devPtr");
    CHECK_TAKEN(aclrtHostRegister((char *)host + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &mapped));
    REL_CHECK(mapped == (char *)host + 4096, "the mapped address");
    CHECK_REFUSED(aclrtFree(mapped), ACL_ERROR_INVALID_PARAM,
                  "is host memory registered by aclrtHostRegister; release it with aclrtHostUnregister");
    CHECK_REFUSED(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM,
                  "is still registered with aclrtHostRegister (the range at");
    CHECK_TAKEN(aclrtHostUnregister(mapped));
    CHECK_TAKEN(aclrtFreeHost(host));
    /* attributes 0 .. 17 */
    size_t free_bytes = 7, total_bytes = 9;
    CHECK_REFUSED(aclrtGetMemInfo((aclrtMemAttr)18, &free_bytes, &total_bytes), ACL_ERROR_RT_INVALID_MEMORY_TYPE,
                  "aclrtGetMemInfo: attr 18 is not a aclrtMemAttr (use 0 .. 17)");
    CHECK_REFUSED(aclrtGetMemInfo((aclrtMemAttr)-1, &free_bytes, &total_bytes), ACL_ERROR_RT_INVALID_MEMORY_TYPE,
                  "aclrtGetMemInfo: attr -1 is not a aclrtMemAttr");
    REL_CHECK(free_bytes == 7 && total_bytes == 9, "a refused aclrtGetMemInfo wrote its outputs");
    CHECK_TAKEN(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &free_bytes, &total_bytes));
    REL_CHECK(total_bytes > 9 && free_bytes <= total_bytes, "attr 17: free %zu of %zu", free_bytes, total_bytes);
    free_bytes = 7;
    total_bytes = 9;
    CHECK_TAKEN(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total_bytes));
    REL_CHECK(total_bytes > 9 && free_bytes <= total_bytes, "attr 0: free %zu of %zu", free_bytes, total_bytes);
    down();
}

/* ---- acl_op.c ---------------------------------------------------------------------------------- */

MG_TEST(op_api_refusals) {
    up();
    CHECK_REFUSED(aclopSetModelDir("models"), ACL_ERROR_API_NOT_SUPPORT,
                  "aclopSetModelDir: the single-operator API (aclop*, operator models and their compiler) is not "
                  "supported");
    static const char model[8] = {0};
    CHECK_REFUSED(aclopLoad(model, sizeof model), ACL_ERROR_API_NOT_SUPPORT, "aclopLoad: the single-operator API");
    aclopAttr *attr = aclopCreateAttr();
    REL_CHECK(attr != NULL, "aclopCreateAttr");
    CHECK_TAKEN(aclopSetAttrInt(attr, "axis", 1));
    aclopDestroyAttr(attr);
    CHECK_REFUSED(aclopSetAttrInt(attr, "axis", 1), ACL_ERROR_INVALID_PARAM, want("aclopSetAttrInt: attr %p " STALE, attr));
    down();
}

/* ---- acl_stream.c ------------------------------------------------------------------------------ */

MG_TEST(stream_null_handles) {
    up();
    CHECK_REFUSED(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    CHECK_REFUSED(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyStream: stream is NULL (the default stream cannot be destroyed)");
    CHECK_REFUSED(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyStreamForce: stream is NULL (the default stream cannot be destroyed)");
    down();
}

/* ---- acl_tensor_desc.c ------------------------------------------------------------------------- */

MG_TEST(tensor_desc_handles) {
    up();
    const int64_t dims[2] = {2, 3};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    REL_CHECK(d != NULL, "aclCreateTensorDesc");
    REL_CHECK(aclGetTensorDescByIndex(NULL, 0) == NULL, "a NULL desc");
    REL_CHECK(rel_message_has("aclGetTensorDescByIndex: desc is NULL"), "the NULL message");
    REL_CHECK(aclGetTensorDescByIndex(d, 0) == d, "index 0 is the description");
    REL_CHECK(aclGetRecentErrMsg() == NULL, "index 0 left a message");
    REL_CHECK(aclGetTensorDescByIndex(d, 1) == NULL, "index 1");
    REL_CHECK(rel_message_has("aclGetTensorDescByIndex: index 1 is out of range (desc is a single description"),
              "the index message");
    aclDestroyTensorDesc(d);
    REL_CHECK(aclGetRecentErrMsg() == NULL, "the first destroy left a message");
    REL_CHECK(aclGetTensorDescByIndex(d, 0) == NULL, "a stale desc");
    REL_CHECK(rel_message_has(want("aclGetTensorDescByIndex: desc %p " STALE, d)), "the stale message");
    /* the destroy returns nothing: its message is all a caller sees */
    aclDestroyTensorDesc(d);
    REL_CHECK(rel_message_has(want("aclDestroyTensorDesc: desc %p " STALE, d)), "destroying twice: the message");
    down();
}

/* ---- stream_launch.c --------------------------------------------------------------------------- */

/* A launch of one float tensor `x` of 128 bytes at `at` that needs a 64-byte workspace (not
   set yet). */
static mgrt_launch one_tensor_launch(mgrt_launch_tensor *t, unsigned char *at) {
    memset(t, 0, sizeof *t);
    t->name = "x";
    t->storage = at;
    t->storage_bytes = 128;
    t->elem_bytes = 4;
    t->access.ptr = at;
    t->access.bytes = 128;
    mgrt_launch l = rel_counting_launch("aclnnRefusal", "Refusal", t, 1, 32);
    l.workspace_needed = 64;
    l.workspace_size = 64;
    l.workspace_align = 4;
    return l;
}

MG_TEST(launch_workspace_and_storage) {
    up();
    unsigned char *buf = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&buf, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    mgrt_launch_tensor t;
    mgrt_launch l = one_tensor_launch(&t, buf);
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_NULLPTR, "aclnnRefusal: workspace is NULL but 64 bytes are needed");
    /* the workspace may end where the tensor starts, or start where it ends, but not meet it */
    l.workspace = buf + 124;
    char overlap[512];
    snprintf(overlap, sizeof overlap,
             "aclnnRefusal: workspace [%p, +64 bytes) overlaps the storage of x (Refusal) [%p, +128 bytes)",
             (void *)(buf + 124), (void *)buf);
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID, overlap);
    t.storage = buf + 64;
    t.access.ptr = buf + 64;
    l.workspace = buf + 4;
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID, "overlaps the storage of x (Refusal)");
    l.workspace = buf;
    CHECK_TAKEN(mgrt_launch_submit(&l));
    t.storage = buf;
    t.access.ptr = buf;
    l.workspace = buf + 128;
    CHECK_TAKEN(mgrt_launch_submit(&l));
    CHECK_TAKEN(aclrtSynchronizeStream(NULL));
    REL_CHECK(atomic_load(&rel_launch_runs) == 2, "%d launches ran, want 2", atomic_load(&rel_launch_runs));
    /* a tensor's storage outside every live block */
    static _Alignas(64) unsigned char outside[128];
    t.storage = outside;
    t.access.ptr = outside;
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID,
                  want("aclnnRefusal: x (Refusal) at %p, 128 bytes, is not inside one live aclrtMalloc block or "
                       "aclrtHostRegister range",
                       outside));
    /* one byte past the block's end */
    t.storage = buf + 132;
    t.access.ptr = buf + 132;
    l.workspace = buf;
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID, "is not inside one live aclrtMalloc block");
    t.storage = buf + 128;
    t.access.ptr = buf + 128;
    CHECK_TAKEN(mgrt_launch_submit(&l));
    CHECK_TAKEN(aclrtSynchronizeStream(NULL));
    REL_CHECK(atomic_load(&rel_launch_runs) == 3, "%d launches ran, want 3", atomic_load(&rel_launch_runs));
    CHECK_TAKEN(aclrtFree(buf));
    down();
}

/* Every pin a launch takes while it checks (the workspace's, each tensor's) is dropped once
   the launch is queued or refused (seed 59: the workspace pin's `count++` made `--`, so the
   unpinning forgot the workspace and one tensor). aclrtHostUnregister waits until no pin is
   held, so a pin kept for good hangs it: the watchdog turns that into a failure. */
MG_TEST(launch_pins_are_dropped) {
    up();
    void *host = NULL, *mapped = NULL;
    CHECK_TAKEN(aclrtMallocHost(&host, 8192));
    CHECK_TAKEN(aclrtHostRegister(host, 8192, ACL_HOST_REGISTER_MAPPED, &mapped));
    unsigned char *dev = mapped;
    mgrt_launch_tensor t;
    mgrt_launch l = one_tensor_launch(&t, dev);
    l.workspace = dev + 4096;
    CHECK_TAKEN(mgrt_launch_submit(&l));
    /* refused after both pins were taken: the workspace and x meet */
    l.workspace = dev + 64;
    CHECK_REFUSED(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID, "overlaps the storage of x (Refusal)");
    CHECK_TAKEN(aclrtSynchronizeStream(NULL));
    REL_CHECK(atomic_load(&rel_launch_runs) == 1, "%d launches ran, want 1", atomic_load(&rel_launch_runs));
    REL_WATCHDOG(10);
    CHECK_TAKEN(aclrtHostUnregister(host));
    alarm(0);
    CHECK_TAKEN(aclrtFreeHost(host));
    down();
}

/* ---- rt_state.c: a child forked after aclInit ---------------------------------------------------- */

/* The child reports by its exit status alone: what it prints goes to the same stderr. */
static int child_refuses(void) {
    int bad = 0;
    if (aclInit(NULL) != ACL_ERROR_UNINITIALIZE ||
        !rel_message_has("aclInit: this process was forked from one that had called aclInit"))
        bad |= 1;
    void *p = SENTINEL;
    if (aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_UNINITIALIZE || p != SENTINEL ||
        !rel_message_has("aclrtMalloc: this process was forked from one that had called aclInit"))
        bad |= 2;
    if (aclFinalize() != ACL_ERROR_UNINITIALIZE || !rel_message_has("aclFinalize: this process was forked"))
        bad |= 4;
    return bad;
}

MG_TEST(forked_child_refusals) {
    up();
    REL_WATCHDOG(30);
    fflush(NULL);
    const pid_t child = fork();
    if (child == 0) _exit(child_refuses());
    REL_CHECK(child > 0, "fork");
    int wstatus = 0;
    REL_CHECK(waitpid(child, &wstatus, 0) == child, "waitpid");
    REL_CHECK(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0,
              "the child's refusals (bits: 1 aclInit, 2 aclrtMalloc, 4 aclFinalize): status 0x%x", wstatus);
    /* the parent's runtime is untouched */
    void *p = NULL;
    CHECK_TAKEN(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_TAKEN(aclrtFree(p));
    alarm(0);
    down();
}

/* ---- nnopbase: argument objects and tensors ---------------------------------------------------- */

MG_TEST(meta_object_handles) {
    up();
    const int64_t v[3] = {1, 2, 3};
    aclIntArray *a = aclCreateIntArray(v, 3);
    REL_CHECK(a != NULL, "aclCreateIntArray");
    uint64_t size = 77;
    CHECK_REFUSED(aclGetIntArraySize(a, NULL), ACLNN_ERR_PARAM_NULLPTR, "aclGetIntArraySize: size is NULL");
    CHECK_REFUSED(aclGetIntArraySize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR, "aclGetIntArraySize: array is NULL");
    REL_CHECK(size == 77, "a refused size query wrote the size");
    CHECK_TAKEN(aclGetIntArraySize(a, &size));
    REL_CHECK(size == 3, "size %llu", (unsigned long long)size);
    CHECK_TAKEN(aclDestroyIntArray(a));
    CHECK_REFUSED(aclDestroyIntArray(a), ACLNN_ERR_PARAM_INVALID,
                  want("aclDestroyIntArray: array (aclIntArray %p) " STALE, a));
    size = 77;
    CHECK_REFUSED(aclGetIntArraySize(a, &size), ACLNN_ERR_PARAM_INVALID, want("aclGetIntArraySize: array (aclIntArray %p) " STALE, a));
    REL_CHECK(size == 77, "a stale size query wrote the size");
    down();
}

MG_TEST(tensor_handles) {
    up();
    float *dev = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const int64_t dims[2] = {2, 3}, strides[2] = {3, 1};
    /* the arrays may be NULL only with a count of 0 */
    REL_CHECK(aclCreateTensor(NULL, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dev) == NULL, "no viewDims");
    REL_CHECK(rel_message_has("aclCreateTensor: viewDims is NULL but viewDimsNum is 2"), "the viewDims message");
    /* the least count that names the array: one (seed 65: `> 1` blamed storageDims) */
    REL_CHECK(aclCreateTensor(NULL, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev) == NULL, "no viewDims");
    REL_CHECK(rel_message_has("aclCreateTensor: viewDims is NULL but viewDimsNum is 1"), "the one-dim viewDims message");
    REL_CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, NULL, 1, dev) == NULL, "no storageDims");
    REL_CHECK(rel_message_has("aclCreateTensor: storageDims is NULL but storageDimsNum is 1"), "the storage message");
    aclTensor *scalar = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, dev);
    REL_CHECK(scalar != NULL, "a rank-0 tensor with NULL arrays: %s", rel_message());
    if (scalar != NULL) CHECK_TAKEN(aclDestroyTensor(scalar));
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dev);
    REL_CHECK(t != NULL, "aclCreateTensor");
    /* getters: each output checked before anything is written */
    int64_t *got = SENTINEL;
    uint64_t n = 77;
    CHECK_REFUSED(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape: viewDims is NULL");
    CHECK_REFUSED(aclGetViewShape(t, &got, NULL), ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape: viewDimsNum is NULL");
    CHECK_REFUSED(aclGetStorageShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "aclGetStorageShape: storageDims is NULL");
    CHECK_REFUSED(aclGetViewStrides(t, &got, NULL), ACLNN_ERR_PARAM_NULLPTR, "aclGetViewStrides: stridesNum is NULL");
    REL_CHECK(got == SENTINEL && n == 77, "a refused getter wrote its outputs");
    CHECK_REFUSED(aclSetRawTensorAddr(NULL, dev), ACLNN_ERR_PARAM_NULLPTR, "aclSetRawTensorAddr: tensor is NULL");
    /* aclDumpOpTensors names the first missing argument */
    aclTensor *list[1] = {t};
    aclrtStream s = NULL;
    CHECK_TAKEN(aclrtCreateStream(&s));
    CHECK_REFUSED(aclDumpOpTensors(NULL, "n", list, 1, 0, s), ACLNN_ERR_PARAM_NULLPTR, "aclDumpOpTensors: opType is NULL");
    CHECK_REFUSED(aclDumpOpTensors("T", NULL, list, 1, 0, s), ACLNN_ERR_PARAM_NULLPTR, "aclDumpOpTensors: opName is NULL");
    CHECK_REFUSED(aclDumpOpTensors("T", "n", NULL, 1, 0, s), ACLNN_ERR_PARAM_NULLPTR, "aclDumpOpTensors: tensors is NULL");
    CHECK_REFUSED(aclDumpOpTensors("T", "n", list, 1, 0, NULL), ACLNN_ERR_PARAM_NULLPTR,
                  "aclDumpOpTensors: stream is NULL");
    CHECK_TAKEN(aclDumpOpTensors("T", "n", list, 1, 0, s));
    CHECK_TAKEN(aclrtDestroyStream(s));
    CHECK_TAKEN(aclDestroyTensor(t));
    CHECK_REFUSED(aclSetRawTensorAddr(t, dev), ACLNN_ERR_PARAM_INVALID,
                  want("aclSetRawTensorAddr: tensor (aclTensor %p) " STALE, t));
    CHECK_TAKEN(aclrtFree(dev));
    down();
}

/* ---- nnopbase: executors ----------------------------------------------------------------------- */

MG_TEST(executor_addresses) {
    up();
    float *dev = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const int64_t dims[1] = {4}, strides[1] = {1};
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev);
    REL_CHECK(t != NULL, "aclCreateTensor");
    static const char *const names[2] = {"x", "y"};
    const aclTensor *ins[1] = {t};
    aclTensor *outs[1] = {t};
    aclOpExecutor *e = nnop_executor_create("RefusalOp", ins, 1, outs, 1, names);
    REL_CHECK(e != NULL, "nnop_executor_create");
    CHECK_REFUSED(aclSetInputTensorAddr(NULL, 0, t, dev), ACLNN_ERR_INNER_NULLPTR, "aclSetInputTensorAddr: executor is NULL");
    CHECK_REFUSED(aclSetInputTensorAddr(e, 0, NULL, dev), ACLNN_ERR_INNER_NULLPTR, "aclSetInputTensorAddr: tensor is NULL");
    CHECK_TAKEN(aclSetInputTensorAddr(e, 0, t, dev));
    CHECK_TAKEN(aclSetTensorAddr(e, 1, t, dev));
    CHECK_REFUSED(aclSetTensorAddr(e, 2, t, dev), ACLNN_ERR_PARAM_INVALID, "aclSetTensorAddr: index 2 is out of range");
    /* the dynamic forms: relativeIndex must be inside the list; then no irIndex names a list */
    /* the list owns its tensors (destroying it destroys them) */
    aclTensor *two[2] = {aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev),
                         aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev)};
    aclTensorList *list = aclCreateTensorList((const aclTensor *const *)two, 2);
    REL_CHECK(list != NULL, "aclCreateTensorList");
    CHECK_REFUSED(aclSetDynamicInputTensorAddr(NULL, 0, 0, list, dev), ACLNN_ERR_INNER_NULLPTR,
                  "aclSetDynamicInputTensorAddr: executor is NULL");
    CHECK_REFUSED(aclSetDynamicInputTensorAddr(e, 0, 0, NULL, dev), ACLNN_ERR_INNER_NULLPTR,
                  "aclSetDynamicInputTensorAddr: tensors is NULL");
    CHECK_REFUSED(aclSetDynamicInputTensorAddr(e, 0, 2, list, dev), ACLNN_ERR_PARAM_INVALID,
                  "aclSetDynamicInputTensorAddr: relativeIndex 2 is out of range; tensors holds 2 tensor(s)");
    CHECK_REFUSED(aclSetDynamicInputTensorAddr(e, 0, 1, list, dev), ACLNN_ERR_PARAM_INVALID,
                  "aclSetDynamicInputTensorAddr: irIndex 0 names no aclTensorList parameter");
    nnop_executor_abandon(e);
    CHECK_REFUSED(aclSetInputTensorAddr(e, 0, t, dev), ACLNN_ERR_PARAM_INVALID,
                  want("aclSetInputTensorAddr: executor (aclOpExecutor %p) " STALE, e));
    CHECK_REFUSED(aclSetDynamicInputTensorAddr(e, 0, 0, list, dev), ACLNN_ERR_PARAM_INVALID,
                  want("aclSetDynamicInputTensorAddr: executor (aclOpExecutor %p) " STALE, e));
    CHECK_TAKEN(aclDestroyTensorList(list));
    CHECK_TAKEN(aclDestroyTensor(t));
    CHECK_TAKEN(aclrtFree(dev));
    down();
}

/* A negative storage dim is taken at creation (CANN checks it at the operator) and refused
   by phase 1 naming the argument, the dim and its value; nothing is handed out (seed 41,
   acl_tensor.c:301: the value not recorded, the message said 0). */
MG_TEST(negative_storage_dim) {
    up();
    float *dev = NULL;
    CHECK_TAKEN(aclrtMalloc((void **)&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    const int64_t dims[1] = {4}, bad_storage[2] = {4, -3}, storage[1] = {4};
    aclTensor *g = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bad_storage, 2, dev);
    aclTensor *x = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, dev + 16);
    aclTensor *out = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, dev + 32);
    REL_CHECK(g != NULL && x != NULL && out != NULL, "the tensors are created");
    uint64_t workspace = 12345;
    aclOpExecutor *executor = (aclOpExecutor *)&workspace;
    CHECK_REFUSED(aclnnMishBackwardGetWorkspaceSize(g, x, out, &workspace, &executor), ACLNN_ERR_PARAM_INVALID,
                  "aclnnMishBackwardGetWorkspaceSize: gradOutput has storage dim 1 = -3; dims must be >= 0");
    REL_CHECK(workspace == 12345 && executor == (aclOpExecutor *)&workspace, "outputs untouched");
    aclDestroyTensor(g);
    aclDestroyTensor(x);
    aclDestroyTensor(out);
    CHECK_TAKEN(aclrtFree(dev));
}

MG_TEST_MAIN()
