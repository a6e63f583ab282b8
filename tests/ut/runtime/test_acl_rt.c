/*
 * tests/ut/runtime/test_acl_rt.c: the runtime calls issue 11 adds, each with its status, its
 * message and its behaviour: data buffers, run mode, version, aligned allocation, memory info,
 * streams with a configuration and forced destruction.
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/sysinfo.h>
#include <time.h>

#include <unistd.h>

#include "mgrt.h"
#include "mishgrad/version.h"
#include "ut_util.h"


/* The message of the last failure, or "(none)"; read once per failure. */
static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

/* ---- data buffers ------------------------------------------------------------------------- */

MG_TEST(data_buffer_create_get_update_destroy) {
    ut_init();
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclDataBuffer *buffer = aclCreateDataBuffer(block, 256);
    MG_CHECK(buffer != NULL);
    MG_CHECK(aclGetDataBufferAddr(buffer) == block);
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(buffer), 256);
    void *other = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&other, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclUpdateDataBuffer(buffer, other, 64), ACL_SUCCESS);
    MG_CHECK(aclGetDataBufferAddr(buffer) == other);
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(buffer), 64);
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    /* The buffer owns nothing: the memory it named is still the caller's. */
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(other), ACL_SUCCESS);
}

MG_TEST(data_buffer_may_name_no_memory_and_the_deprecated_size_is_32_bits) {
    ut_init();
    aclDataBuffer *empty = aclCreateDataBuffer(NULL, 0);
    MG_CHECK(empty != NULL);
    MG_CHECK(aclGetDataBufferAddr(empty) == NULL);
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(empty), 0);
    /* A size past 32 bits: V2 keeps it, the deprecated call cuts it as CANN's does. */
    size_t big = ((size_t)1 << 32) + 12;
    MG_CHECK_EQ_INT(aclUpdateDataBuffer(empty, NULL, big), ACL_SUCCESS);
    MG_CHECK(aclGetDataBufferSizeV2(empty) == big);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    MG_CHECK_EQ_INT(aclGetDataBufferSize(empty), 12);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(empty), ACL_SUCCESS);
}

MG_TEST(data_buffer_null_destroyed_or_foreign_is_refused_with_a_message) {
    ut_init();
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "dataBuffer is NULL");
    MG_CHECK_EQ_INT(aclUpdateDataBuffer(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclUpdateDataBuffer: dataBuffer is NULL");
    MG_CHECK(aclGetDataBufferAddr(NULL) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetDataBufferAddr: dataBuffer is NULL");
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(NULL), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetDataBufferSizeV2: dataBuffer is NULL");

    aclDataBuffer *buffer = aclCreateDataBuffer(NULL, 8);
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    /* Destroyed: every call refuses it, nothing is read or freed twice. */
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclUpdateDataBuffer(buffer, NULL, 4), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclUpdateDataBuffer: dataBuffer");
    MG_CHECK(aclGetDataBufferAddr(buffer) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(buffer), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");

    int foreign[4];
    MG_CHECK_EQ_INT(aclDestroyDataBuffer((aclDataBuffer *)foreign), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "was not created by this library");
}

/* ---- run mode, version, devices ----------------------------------------------------------- */

MG_TEST(run_mode_is_host) {
    ut_init();
    aclrtRunMode mode = ACL_DEVICE;
    MG_CHECK_EQ_INT(aclrtGetRunMode(&mode), ACL_SUCCESS);
    MG_CHECK_EQ_INT(mode, ACL_HOST);
    MG_CHECK_EQ_INT(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "runMode is NULL");
}

MG_TEST(version_is_the_projects) {
    int32_t major = -1, minor = -1, patch = -1;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    MG_CHECK_EQ_INT(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    MG_CHECK_EQ_INT(major, MISHGRAD_VERSION_MAJOR);
    MG_CHECK_EQ_INT(minor, MISHGRAD_VERSION_MINOR);
    MG_CHECK_EQ_INT(patch, MISHGRAD_VERSION_PATCH);
    int32_t untouched = 77;
    MG_CHECK_EQ_INT(aclrtGetVersion(&untouched, NULL, &patch), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "minorVersion is NULL");
    MG_CHECK_EQ_INT(untouched, 77);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

MG_TEST(reset_device_force) {
    ut_init();
    MG_CHECK_EQ_INT(aclrtResetDeviceForce(1), ACL_ERROR_RT_INVALID_DEVICEID);
    MG_CHECK_STR_CONTAINS(last_message(), "deviceId 1 is invalid");
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS); /* a count of 2 */
    MG_CHECK_EQ_INT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    /* Whatever the count: the default context and its streams are gone (ut_stream too). */
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    MG_CHECK_STR_CONTAINS(last_message(), "the device has not been set or has already been reset");
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    /* The tests after this one, and the teardown, use ut_stream. */
    MG_CHECK_EQ_INT(aclrtCreateStream(&ut_stream), ACL_SUCCESS);
}

/* ---- memory ---------------------------------------------------------------------------------- */

MG_TEST(malloc_align32_is_aligned_tracked_and_freed_by_aclrtfree) {
    ut_init();
    const size_t sizes[] = {1, 31, 32, 33, 4097};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *p = NULL;
        MG_CHECK_EQ_INT(aclrtMallocAlign32(&p, sizes[i], ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
        MG_CHECK(p != NULL && ((uintptr_t)p % 32) == 0);
        /* A live device block: memset and memcpy accept exactly its size, no more. */
        MG_CHECK_EQ_INT(aclrtMemset(p, sizes[i], 0x5a, sizes[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMemset(p, sizes[i] + 1, 0, sizes[i] + 1), ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(last_message(), "not inside one live aclrtMalloc block");
        MG_CHECK_EQ_INT(((unsigned char *)p)[sizes[i] - 1], 0x5a);
        MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    }
    void *p = (void *)1;
    MG_CHECK_EQ_INT(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "size is 0");
    MG_CHECK(p == (void *)1);
    MG_CHECK_EQ_INT(aclrtMallocAlign32(NULL, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    /* A policy outside the enum is the default one, as in CANN. */
    MG_CHECK_EQ_INT(aclrtMallocAlign32(&p, 8, (aclrtMemMallocPolicy)9), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
}

MG_TEST(malloc_takes_every_cann_policy_and_its_flags) {
    ut_init();
    const int policies[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY,
                            ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                            ACL_MEM_MALLOC_NORMAL_ONLY_P2P, ACL_MEM_MALLOC_HUGE1G_ONLY,
                            ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
                            ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                            ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_LOW_BAND_WIDTH};
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        void *p = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&p, 100, (aclrtMemMallocPolicy)policies[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    }
    /* CANN takes a value outside the enum as the default policy. */
    const int others[] = {8, 0x7fffffff, -1, 0x200};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        void *p = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&p, 100, (aclrtMemMallocPolicy)others[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    }
}

MG_TEST(malloc_size_whose_padding_overflows_is_100000) {
    ut_init();
    void *p = (void *)1;
    /* CANN pads by 64 bytes: a size that wraps with it is a parameter error. */
    MG_CHECK_EQ_INT(aclrtMalloc(&p, SIZE_MAX - 63, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "too large");
    MG_CHECK_EQ_INT(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "too large");
    MG_CHECK_EQ_INT(aclrtMallocCached(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtMallocCached: size");
    MG_CHECK(p == (void *)1);
}

/* Under ASan and TSan this binary asks their allocators to fail as libc's does (return
   NULL) instead of aborting on an impossible size, so the check below runs there too. */
#if UT_SANITIZER_ALLOCATOR
const char *__asan_default_options(void);
const char *__tsan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

/* One that merely cannot be had keeps the allocation failure. */
MG_TEST(malloc_size_that_cannot_be_had_is_207001) {
    ut_init();
    void *p = (void *)1;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    MG_CHECK_STR_CONTAINS(last_message(), "cannot allocate");
    MG_CHECK(p == (void *)1);
}

MG_TEST(malloc_cached_and_free_with_dev_sync) {
    ut_init();
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMallocCached(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    /* A live device block like aclrtMalloc's, freed by aclrtFree. */
    MG_CHECK_EQ_INT(aclrtMemset(p, 4096, 7, 4096), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMallocCached(NULL, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "devPtr is NULL");

    MG_CHECK_EQ_INT(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(p, 4096, 9, 4096, ut_stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFreeWithDevSync(p), ACL_SUCCESS);
    /* It synchronized the device first: nothing is left queued. */
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    MG_CHECK_EQ_INT(aclrtStreamQuery(ut_stream, &status), ACL_SUCCESS);
    MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtFreeWithDevSync(p), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtFreeWithDevSync: ");
}

MG_TEST(mem_info_is_this_machines_memory) {
    ut_init();
    size_t free_bytes = 0, total_bytes = 0;
    MG_CHECK_EQ_INT(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes), ACL_SUCCESS);
    struct sysinfo info;
    MG_CHECK_EQ_INT(sysinfo(&info), 0);
    double total_expected = (double)info.totalram * info.mem_unit;
    /* The same physical memory, within a page-rounding error. */
    MG_CHECK_NEAR((double)total_bytes, total_expected, total_expected * 0.01);
    MG_CHECK(free_bytes > 0 && free_bytes <= total_bytes);
    size_t f2 = 0, t2 = 0;
    MG_CHECK_EQ_INT(aclrtGetMemInfo(ACL_DDR_MEM, &f2, &t2), ACL_SUCCESS);
    MG_CHECK(t2 == total_bytes);
    MG_CHECK_EQ_INT(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t2), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "free is NULL");
    MG_CHECK_EQ_INT(aclrtGetMemInfo((aclrtMemAttr)99, &f2, &t2), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    MG_CHECK_STR_CONTAINS(last_message(), "attr 99");
}

/* ---- streams ---------------------------------------------------------------------------------- */

typedef struct slow_task {
    int *counter;
    int sleep_us;
} slow_task;

static int32_t slow_run(void *task) {
    slow_task *t = task;
    usleep((useconds_t)t->sleep_us);
    (*t->counter)++;
    return 0;
}

static void slow_release(void *task) { free(task); }

static void queue_slow(aclrtStream stream, int *counter, int sleep_us) {
    slow_task *t = malloc(sizeof *t);
    t->counter = counter;
    t->sleep_us = sleep_us;
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", stream, slow_run, slow_release, t, 1), 0);
}

MG_TEST(stream_with_config_runs_work_in_order) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC), ACL_SUCCESS);
    int counter = 0;
    for (int i = 0; i < 5; i++) queue_slow(stream, &counter, 100);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 5);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    /* Reserved priority and unknown flag bits: an ordinary stream, as CANN documents. */
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(&stream, 7, 0x1000u), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* CANN creates PERSISTENT, CPU_SCHEDULE and DEVICE_USE_ONLY streams, and synchronizing one
   returns success at once; the host queues no work on them here (207000 at the call). */
MG_TEST(stream_with_config_model_and_device_side_flags_take_no_work) {
    ut_init();
    static const struct {
        uint32_t flag;
        const char *name;
    } flags[] = {{ACL_STREAM_PERSISTENT, "ACL_STREAM_PERSISTENT"},
                 {ACL_STREAM_CPU_SCHEDULE, "ACL_STREAM_CPU_SCHEDULE"},
                 {ACL_STREAM_DEVICE_USE_ONLY, "ACL_STREAM_DEVICE_USE_ONLY"}};
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(dev, 0, 64);
    aclrtEvent event = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&event), ACL_SUCCESS);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        aclrtStream stream = NULL;
        MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(&stream, 0, flags[i].flag), ACL_SUCCESS);
        MG_CHECK(stream != NULL);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 1, 64, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        MG_CHECK_STR_CONTAINS(last_message(), flags[i].name);
        MG_CHECK_EQ_INT(aclrtRecordEvent(event, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        MG_CHECK_STR_CONTAINS(last_message(), "queues no work");
        aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
        MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
        MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_COMPLETE);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(((unsigned char *)dev)[0], 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(event), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    aclrtStream stream = (aclrtStream)0x1;
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "stream is NULL");
    MG_CHECK(stream == (aclrtStream)0x1);
}

MG_TEST(destroy_stream_force_drops_work_not_started) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    int counter = 0;
    for (int i = 0; i < 20; i++) queue_slow(stream, &counter, 20000);
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    /* At most the task that had started ran: 20 x 20 ms were queued. */
    MG_CHECK(counter <= 2);
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "default stream cannot be destroyed");
}

/* ---- async copies and sets: in order with the stream's other work ----------------------------- */

/* A slow task that writes `value` into bytes [0, n) of `dst` (declaring that write). */
typedef struct write_task {
    unsigned char *dst;
    size_t n;
    int value;
    int sleep_us;
} write_task;

static int32_t write_run(void *task) {
    write_task *t = task;
    usleep((useconds_t)t->sleep_us);
    memset(t->dst, t->value, t->n);
    return 0;
}

static int queue_write(aclrtStream stream, void *dst, size_t n, int value, int sleep_us) {
    write_task *t = malloc(sizeof *t);
    t->dst = dst;
    t->n = n;
    t->value = value;
    t->sleep_us = sleep_us;
    mgrt_access access = {.ptr = dst, .bytes = n, .write = 1};
    return mgrt_stream_submit_access("test", stream, write_run, slow_release, t, 1, &access, 1);
}

MG_TEST(memcpy_async_runs_in_order_after_queued_work) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *dev = NULL, *host = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
    memset(host, 0, 4096);
    /* A slow "launch" writes 0x11, then a memset writes 0x22 over the second half, then the
       copy to pinned host memory: the copy sees both, in order. */
    MG_CHECK_EQ_INT(queue_write(stream, dev, 4096, 0x11, 20000), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)dev + 2048, 2048, 0x22, 2048, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    /* Pinned memory: asynchronous, so nothing has arrived yet (the launch sleeps 20 ms). */
    MG_CHECK_EQ_INT(((unsigned char *)host)[0], 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < 4096; i++) wrong += ((unsigned char *)host)[i] != (i < 2048 ? 0x11 : 0x22);
    MG_CHECK_EQ_INT(wrong, 0);
    /* Host to device and device to device, then back through the default stream. */
    unsigned char pattern[256];
    for (int i = 0; i < 256; i++) pattern[i] = (unsigned char)(i * 7 + 1);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev, 4096, pattern, 256, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync((char *)dev + 1024, 3072, dev, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                    ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK(memcmp((char *)dev + 1024, pattern, 256) == 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
}

MG_TEST(memcpy_async_from_pageable_host_memory_returns_when_done) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    unsigned char *pageable = malloc(1024);
    memset(pageable, 0, 1024);
    MG_CHECK_EQ_INT(queue_write(stream, dev, 1024, 0x5c, 20000), 0);
    /* CANN: with pageable host memory the call returns once the copy is done. */
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(pageable, 1024, dev, 1024, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(pageable[0], 0x5c);
    MG_CHECK_EQ_INT(pageable[1023], 0x5c);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    free(pageable);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

MG_TEST(async_copy_and_set_arguments_are_checked_and_nothing_is_written) {
    ut_init();
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(dev, 0x33, 64);
    char host[128] = {0};
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 16, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "count 32 exceeds destMax 16");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 128, dev, 65, ACL_MEMCPY_DEVICE_TO_HOST, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "src range");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(NULL, 128, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "dst is NULL");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 128, dev, 8, (aclrtMemcpyKind)9, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "kind 9");
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 1, 65, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "count 65 exceeds maxCount 64");
    MG_CHECK_EQ_INT(aclrtMemsetAsync(host, 128, 1, 8, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not inside one live aclrtMalloc block");
    aclrtStream dead = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&dead), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(dead), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 1, 8, dead), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    int untouched = 1;
    for (int i = 0; i < 64; i++) untouched &= ((unsigned char *)dev)[i] == 0x33;
    for (int i = 0; i < 128; i++) untouched &= host[i] == 0;
    MG_CHECK(untouched);
    /* Kind 5 copies host to device; 6 and 7 are declared but not kinds CANN's acl layer takes. */
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev, 64, host, 8, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync((char *)dev + 32, 32, dev, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
                    ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "kind 6 is not a copy kind");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[0], 0);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[32], 0x33);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

/* ---- streams: query and timeouts ------------------------------------------------------------------- */

MG_TEST(stream_query_and_synchronize_with_timeout) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_COMPLETE);
    int counter = 0;
    queue_slow(stream, &counter, 300000); /* 300 ms */
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_NOT_READY);
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    MG_CHECK_STR_CONTAINS(last_message(), "did not finish its work within 20 ms");
    MG_CHECK_EQ_INT(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtSynchronizeDeviceWithTimeout");
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "timeout -2 is invalid");
    /* Polling the query alone is enough for the work to finish. */
    for (int i = 0; i < 400 && status != ACL_STREAM_STATUS_COMPLETE; i++) {
        usleep(5000);
        MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(counter, 1);
    queue_slow(stream, &counter, 1000);
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, 5000), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 2);
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "status is NULL");
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* ---- events ------------------------------------------------------------------------------------------------ */

MG_TEST(event_record_query_synchronize_and_elapsed_time_measured) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent start = NULL, end = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&start), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    /* Never recorded: not ready (CANN's INIT state), and no time stamp. */
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(start, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    float ms = -1.0f;
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_INTERNAL_ERROR);
    MG_CHECK_STR_CONTAINS(last_message(), "startEvent has never been recorded");

    int counter = 0;
    MG_CHECK_EQ_INT(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    queue_slow(stream, &counter, 50000); /* 50 ms between the two records */
    MG_CHECK_EQ_INT(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(end, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "latest record has not completed yet");
    MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(end, 1), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    MG_CHECK_STR_CONTAINS(last_message(), "did not complete within 1 ms");
    MG_CHECK_EQ_INT(aclrtSynchronizeEvent(end), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 1);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(end, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    /* Measured: at least the 50 ms the task slept, and not wildly more. */
    MG_CHECK(ms >= 49.0f && ms < 2000.0f);
    float back = 0.0f;
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&back, end, start), ACL_SUCCESS);
    MG_CHECK_NEAR(back, -ms, 1e-3);
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(NULL, start, end), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "ms is NULL");
    MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(end, 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(start), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(end), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(end), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(end, &st), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* Stream B waits for an event recorded on A after a slow write: B's read sees the write. */
MG_TEST(stream_wait_event_orders_two_streams) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    void *dev = NULL, *host = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMallocHost(&host, 1 << 16), ACL_SUCCESS);
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);
    for (int round = 0; round < 20; round++) {
        memset(host, 0, 1 << 16);
        MG_CHECK_EQ_INT(queue_write(a, dev, 1 << 16, round + 1, round % 4 == 0 ? 5000 : 0), 0);
        MG_CHECK_EQ_INT(aclrtRecordEvent(ev, a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 1 << 16, dev, 1 << 16, ACL_MEMCPY_DEVICE_TO_HOST, b), ACL_SUCCESS);
        /* Only b is synchronized: a progresses on its own. */
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
        int wrong = 0;
        for (int i = 0; i < 1 << 16; i++) wrong += ((unsigned char *)host)[i] != round + 1;
        MG_CHECK_EQ_INT(wrong, 0);
    }
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    MG_CHECK_EQ_INT(aclrtQueryEventWaitStatus(ev, &ws), ACL_SUCCESS);
    MG_CHECK_EQ_INT(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    /* The reset event is as new: a stream waiting for it does not wait. */
    MG_CHECK_EQ_INT(aclrtResetEvent(ev, b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    aclrtEventRecordedStatus rs;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
    MG_CHECK_EQ_INT(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
}

MG_TEST(event_constraints_cann_documents) {
    ut_init();
    aclrtEvent plain = NULL, timeline = NULL, ex = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&timeline, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    /* Reset: only aclrtCreateEventWithFlag events with ACL_EVENT_SYNC (Ex ones: CANN's 207000). */
    MG_CHECK_EQ_INT(aclrtResetEvent(plain, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "only such events can be reset");
    MG_CHECK_EQ_INT(aclrtResetEvent(ex, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "cannot be reset");
    /* Waiting: a flagged event needs ACL_EVENT_SYNC (else it has no wait task: 207000). */
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, timeline), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "without ACL_EVENT_SYNC");
    MG_CHECK_EQ_INT(aclrtRecordEvent(plain, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, ex), ACL_SUCCESS);
    /* Wait-status queries do not take Ex events. */
    aclrtEventWaitStatus ws;
    MG_CHECK_EQ_INT(aclrtQueryEventWaitStatus(ex, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtCreateEventExWithFlag");
    aclrtEvent bad = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&bad, 0x400u), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "flag 0x400");
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&bad, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "cannot be combined");
    MG_CHECK_EQ_INT(aclrtCreateEventExWithFlag(&bad, ACL_EVENT_IPC), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "IPC");
    MG_CHECK(bad == NULL);
    MG_CHECK_EQ_INT(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "event is NULL");
    MG_CHECK_EQ_INT(aclrtRecordEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "event is NULL");
    int foreign = 0;
    MG_CHECK_EQ_INT(aclrtRecordEvent(&foreign, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "was not created by this library");
    MG_CHECK_EQ_INT(aclrtDestroyEvent(plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(timeline), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ex), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
}

MG_TEST(event_destroyed_with_a_pending_record_completes_its_waiters) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    int counter = 0, after = 0;
    queue_slow(a, &counter, 20000);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
    /* CANN: destroying an event before it completes does not block; it goes when done. */
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    queue_slow(b, &after, 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 1); /* b waited for a's task */
    MG_CHECK_EQ_INT(after, 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
}

/* ---- cross-stream races ------------------------------------------------------------------------------------ */

MG_TEST(unordered_writes_on_two_streams_are_refused_naming_both) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(dev, 0, 4096);
    char host[4096];
    MG_CHECK_EQ_INT(queue_write(a, dev, 2048, 0x44, 100000), 0);
    /* Writing the range a is writing, with nothing ordering the two: refused, nothing queued. */
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)dev + 1024, 1024, 0x55, 1024, b), ACL_ERROR_RT_PARAM_INVALID);
    const char *m = last_message();
    char a_name[40], b_name[40];
    snprintf(a_name, sizeof a_name, "stream %p", a);
    snprintf(b_name, sizeof b_name, "stream %p", b);
    MG_CHECK_STR_CONTAINS(m, "cross-stream race");
    MG_CHECK_STR_CONTAINS(m, a_name);
    MG_CHECK_STR_CONTAINS(m, b_name);
    /* Reading it races too; a disjoint range does not. */
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 4096, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST, b), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "reads");
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)dev + 2048, 2048, 0x66, 2048, b), ACL_SUCCESS);
    /* An aclnn-style launch through mgrt_stream_submit_access: 161002. */
    MG_CHECK_EQ_INT(queue_write(b, dev, 16, 1, 0), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), a_name);
    /* With an event ordering them, it is fine. */
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)dev + 1024, 1024, 0x55, 1024, b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[0], 0x44);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[1500], 0x55);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[3000], 0x66);
    /* Once a's work is finished (synchronized), no ordering is needed. */
    MG_CHECK_EQ_INT(queue_write(a, dev, 64, 0x77, 0), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 0x78, 64, b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[0], 0x78);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

/* The operator's launch declares what it reads and writes: a launch on B reading what an
   unfinished launch on A writes, with no event between, is refused at the launch (161002)
   naming both streams, and nothing is queued. */
static aclTensor *vector_tensor(float *data, int64_t n) {
    int64_t dims[1] = {n};
    return aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, data);
}

static aclnnStatus launch_mish_backward(float *g, float *x, float *out, int64_t n, aclrtStream stream) {
    aclTensor *tg = vector_tensor(g, n), *tx = vector_tensor(x, n), *to = vector_tensor(out, n);
    uint64_t ws = 0;
    aclOpExecutor *exec = NULL;
    aclnnStatus st = aclnnMishBackwardGetWorkspaceSize(tg, tx, to, &ws, &exec);
    if (st == 0) st = aclnnMishBackward(NULL, 0, exec, stream);
    aclDestroyTensor(tg);
    aclDestroyTensor(tx);
    aclDestroyTensor(to);
    return st;
}

MG_TEST(operator_launches_racing_across_streams_are_refused) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    const int64_t n = 4096;
    float *buf = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&buf, (size_t)(4 * n) * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    float *g = buf, *x = buf + n, *y = buf + 2 * n, *z = buf + 3 * n;
    for (int64_t i = 0; i < n; i++) {
        g[i] = 1.0f;
        x[i] = (float)(i % 100) / 25.0f - 2.0f;
    }
    int counter = 0;
    queue_slow(a, &counter, 100000);                              /* keeps a's launch unfinished */
    MG_CHECK_EQ_INT(launch_mish_backward(g, x, y, n, a), 0);       /* a writes y */
    MG_CHECK_EQ_INT(launch_mish_backward(g, y, z, n, b), 161002);  /* b reads y: a race */
    char a_name[40], b_name[40];
    snprintf(a_name, sizeof a_name, "stream %p", a);
    snprintf(b_name, sizeof b_name, "stream %p", b);
    const char *m = last_message();
    MG_CHECK_STR_CONTAINS(m, "cross-stream race");
    MG_CHECK_STR_CONTAINS(m, a_name);
    MG_CHECK_STR_CONTAINS(m, b_name);
    MG_CHECK_EQ_INT(launch_mish_backward(g, x, y, n, b), 161002);  /* b writes y too */
    MG_CHECK_STR_CONTAINS(last_message(), "writes");
    MG_CHECK_EQ_INT(launch_mish_backward(g, x, z, n, b), 0);       /* disjoint output, shared inputs read */
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(launch_mish_backward(g, y, z, n, b), 0);       /* ordered by the event */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 1);
    int wrong = 0;
    for (int64_t i = 0; i < n; i++) {
        double yi = ut_mish_grad_ref(x[i]);
        double want = ut_mish_grad_ref((float)yi);
        wrong += fabs((double)z[i] - want) > 1e-4 * (1.0 + fabs(want));
    }
    MG_CHECK_EQ_INT(wrong, 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(buf), ACL_SUCCESS);
}

/* ---- host callbacks ----------------------------------------------------------------------------------------- */

typedef struct callback_probe {
    pthread_t ran_on;
    atomic_int calls;
    int order;           /* value of *stamp when it ran */
    int *stamp;
    int sleep_us;
} callback_probe;

static void probe_callback(void *user) {
    callback_probe *p = user;
    usleep((useconds_t)p->sleep_us);
    p->ran_on = pthread_self();
    p->order = (*p->stamp)++;
    atomic_fetch_add(&p->calls, 1); /* after the rest: a poller that sees it sees them */
}

typedef struct reporter {
    atomic_int stop;
    int processed;
    int setup_status;
} reporter;

static void *report_thread(void *arg) {
    reporter *r = arg;
    r->setup_status = aclrtSetDevice(0);
    while (!atomic_load(&r->stop)) {
        aclError e = aclrtProcessReport(10);
        if (e == ACL_SUCCESS) r->processed++;
        else if (e != ACL_ERROR_RT_REPORT_TIMEOUT && e != ACL_ERROR_RT_THREAD_SUBSCRIBE) break;
        (void)aclGetRecentErrMsg();
    }
    return NULL;
}

MG_TEST(callbacks_run_on_the_subscribed_thread_blocking_and_not) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    reporter r = {0, 0, 0};
    pthread_t thread;
    MG_CHECK_EQ_INT(pthread_create(&thread, NULL, report_thread, &r), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)thread, stream), ACL_SUCCESS);
    int stamp = 0, after_block = -1, counter = 0;
    callback_probe blocking = {0, 0, -1, &stamp, 30000};
    callback_probe free_running = {0, 0, -1, &stamp, 30000};
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &blocking, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    /* The task after a blocking callback runs after it returned. */
    callback_probe marker = {0, 0, -1, &stamp, 0};
    queue_slow(stream, &counter, 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &marker, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(blocking.calls, 1);
    MG_CHECK(pthread_equal(blocking.ran_on, thread));
    MG_CHECK_EQ_INT(blocking.order, 0);
    MG_CHECK_EQ_INT(marker.order, 1);
    MG_CHECK_EQ_INT(counter, 1);
    /* Non-blocking: the stream goes on while the callback sleeps. */
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &free_running, ACL_CALLBACK_NO_BLOCK, stream), ACL_SUCCESS);
    queue_slow(stream, &counter, 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    after_block = atomic_load(&free_running.calls); /* most likely 0: it sleeps 30 ms */
    for (int i = 0; i < 200 && atomic_load(&free_running.calls) == 0; i++) usleep(5000);
    MG_CHECK_EQ_INT(free_running.calls, 1);
    MG_CHECK(pthread_equal(free_running.ran_on, thread));
    MG_CHECK(after_block == 0 || after_block == 1);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)thread, stream), ACL_SUCCESS);
    atomic_store(&r.stop, 1);
    pthread_join(thread, NULL);
    MG_CHECK_EQ_INT(r.setup_status, ACL_SUCCESS);
    MG_CHECK(r.processed >= 2);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

MG_TEST(callback_errors_cann_documents) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    int stamp = 0;
    callback_probe p = {0, 0, -1, &stamp, 0};
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &p, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    MG_CHECK_STR_CONTAINS(last_message(), "no thread is subscribed");
    MG_CHECK_EQ_INT(aclrtLaunchCallback(NULL, &p, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "fn is NULL");
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &p, (aclrtCallbackBlockType)5, stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "blockType 5");
    /* Not subscribed: CANN's ACL_ERROR_RT_THREAD_SUBSCRIBE; a bad timeout: invalid. */
    MG_CHECK_EQ_INT(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    MG_CHECK_STR_CONTAINS(last_message(), "not subscribed");
    MG_CHECK_EQ_INT(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "timeout 0 is invalid");
    uint64_t me = (uint64_t)pthread_self();
    MG_CHECK_EQ_INT(aclrtSubscribeReport(me, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSubscribeReport(me + 1, stream), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    MG_CHECK_STR_CONTAINS(last_message(), "already has a subscribed thread");
    MG_CHECK_EQ_INT(aclrtProcessReport(5), ACL_ERROR_RT_REPORT_TIMEOUT);
    MG_CHECK_STR_CONTAINS(last_message(), "no callback came within 5 ms");
    /* This thread processes its own callbacks: queue, then process. */
    MG_CHECK_EQ_INT(aclrtLaunchCallback(probe_callback, &p, ACL_CALLBACK_NO_BLOCK, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtProcessReport(2000), ACL_SUCCESS);
    MG_CHECK_EQ_INT(p.calls, 1);
    MG_CHECK(pthread_equal(p.ran_on, pthread_self()));
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(me + 1, stream), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    MG_CHECK_STR_CONTAINS(last_message(), "is not subscribed to");
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(me, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* ---- host registration ----------------------------------------------------------------------------------------- */

MG_TEST(host_register_makes_host_memory_device_memory_in_place) {
    ut_init();
    size_t bytes = 3 * 4096;
    float *host = aligned_alloc(4096, bytes);
    for (size_t i = 0; i < bytes / 4; i++) host[i] = (float)i;
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtHostRegister(host, bytes, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
    MG_CHECK(dev == (void *)host); /* zero copy */
    MG_CHECK(mgrt_range_is_live(host, bytes));
    MG_CHECK(!mgrt_range_is_live(host, bytes + 1));
    /* Copies take it as their host side (its device address takes none: CANN documents it,
       cann_registered_memory_is_not_a_copy_or_set_device_side). */
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(block, 64, (char *)host + 64, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((float *)block)[0], 16.0f);

    /* The operator runs in place on it: gradInput = gradOutput (both registered memory). */
    int64_t dims[1] = {1024};
    float *x = host + 1024, *g = host + 2048;
    for (int i = 0; i < 1024; i++) {
        x[i] = (float)(i - 512) / 64.0f;
        g[i] = 1.0f + (float)(i % 7) / 8.0f;
    }
    float g_copy[1024], x_copy[1024];
    memcpy(g_copy, g, sizeof g_copy);
    memcpy(x_copy, x, sizeof x_copy);
    aclTensor *tg = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, g);
    aclTensor *tx = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, x);
    aclTensor *to = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, g);
    uint64_t ws = 0;
    aclOpExecutor *exec = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(tg, tx, to, &ws, &exec), 0);
    MG_CHECK_EQ_INT(ws, 0);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, exec, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < 1024; i++) {
        double want = (double)g_copy[i] * ut_mish_grad_ref(x_copy[i]);
        /* float32 evaluation: a few float32 ulps of the result and of gradOutput */
        wrong += fabs((double)g[i] - want) > 16.0 * FLT_EPSILON * (fabs(want) + fabs((double)g_copy[i]));
    }
    MG_CHECK_EQ_INT(wrong, 0);
    aclDestroyTensor(tg);
    aclDestroyTensor(tx);
    aclDestroyTensor(to);

    /* aclrtFree does not take it; unregistering ends it as device memory. */
    MG_CHECK_EQ_INT(aclrtFree(host), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtHostUnregister");
    MG_CHECK_EQ_INT(aclrtHostUnregister(host), ACL_SUCCESS);
    MG_CHECK(!mgrt_range_is_live(host, 4));
    MG_CHECK_EQ_INT(aclrtMemset(host, bytes, 0, 16), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not inside one live aclrtMalloc block");
    MG_CHECK_EQ_INT(aclrtHostUnregister(host), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    MG_CHECK_STR_CONTAINS(last_message(), "not the start of a range registered");
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    free(host);
}

MG_TEST(host_register_constraints_alignment_overlap_twice) {
    ut_init();
    unsigned char *host = aligned_alloc(4096, 4 * 4096);
    void *dev = (void *)1;
    MG_CHECK_EQ_INT(aclrtHostRegister(host + 64, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not aligned to a 4 KiB page");
    MG_CHECK(dev == (void *)1);
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 0, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "size is 0");
    MG_CHECK_EQ_INT(aclrtHostRegister(NULL, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "ptr is NULL");
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "devPtr is NULL");
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_IOMEMORY, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "ACL_HOST_REGISTER_IOMEMORY");
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 4096, (aclrtHostRegisterType)3, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "type 3");
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
    /* Twice, or overlapping: CANN's ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED. */
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    MG_CHECK_STR_CONTAINS(last_message(), "overlaps the registered range");
    MG_CHECK_EQ_INT(aclrtHostRegister(host + 4096, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &dev),
                    ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    /* Adjacent is fine. */
    void *dev2 = NULL;
    MG_CHECK_EQ_INT(aclrtHostRegister(host + 2 * 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev2), ACL_SUCCESS);
    MG_CHECK(dev2 == host + 2 * 4096);
    /* Device memory is not host memory. */
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    uintptr_t page = ((uintptr_t)block + 4095) & ~(uintptr_t)4095;
    if (page + 4096 <= (uintptr_t)block + 8192) {
        MG_CHECK_EQ_INT(aclrtHostRegister((void *)page, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(last_message(), "overlaps device memory from aclrtMalloc");
    }
    MG_CHECK_EQ_INT(aclrtHostUnregister(host + 4096), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtHostUnregister");
    MG_CHECK_EQ_INT(aclrtHostUnregister(host), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtHostUnregister(host + 2 * 4096), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    free(host);
}

/* O(log n) lookups: 20,000 registered pages, each found quickly. */
MG_TEST(host_register_lookup_scales) {
    ut_init();
    enum { PAGES = 20000 };
    unsigned char *host = aligned_alloc(4096, (size_t)PAGES * 4096);
    void *dev = NULL;
    int failures = 0;
    for (int i = 0; i < PAGES; i += 2) /* every other page: no two adjacent */
        failures += aclrtHostRegister(host + (size_t)i * 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev) != ACL_SUCCESS;
    MG_CHECK_EQ_INT(failures, 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int live = 0;
    for (int round = 0; round < 10; round++)
        for (int i = 0; i < PAGES; i++) live += mgrt_range_is_live(host + (size_t)i * 4096 + 8, 64);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    MG_CHECK_EQ_INT(live, 10 * PAGES / 2);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (10.0 * PAGES);
    /* A linear scan of 10,000 ranges would take microseconds per lookup. */
    MG_CHECK(ns < 2000.0);
    for (int i = 0; i < PAGES; i += 2) failures += aclrtHostUnregister(host + (size_t)i * 4096) != ACL_SUCCESS;
    MG_CHECK_EQ_INT(failures, 0);
    free(host);
}

/* ---- contexts: per thread, strict ---------------------------------------------------------------------------------- */

typedef struct context_probe {
    aclError malloc_status, stream_status, memcpy_status, get_status, sync_status, submit_status;
    char message[400];
    aclrtContext given;
    aclError set_status, malloc_after;
} context_probe;

static void *no_context_thread(void *arg) {
    context_probe *p = arg;
    void *ptr = NULL;
    aclrtStream stream = NULL;
    char buf[8];
    aclrtContext ctx = NULL;
    p->malloc_status = aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    snprintf(p->message, sizeof p->message, "%s", last_message());
    p->stream_status = aclrtCreateStream(&stream);
    p->memcpy_status = aclrtMemcpy(buf, 8, "abcdefg", 8, ACL_MEMCPY_HOST_TO_HOST);
    p->get_status = aclrtGetCurrentContext(&ctx);
    p->sync_status = aclrtSynchronizeStream(NULL);
    int counter = 0;
    slow_task *t = malloc(sizeof *t);
    t->counter = &counter;
    t->sleep_us = 0;
    p->submit_status = mgrt_stream_submit("test", NULL, slow_run, slow_release, t, 1);
    (void)aclGetRecentErrMsg();
    /* aclrtSetCurrentContext gives the thread a context: now it works. */
    p->set_status = aclrtSetCurrentContext(p->given);
    p->malloc_after = aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    if (p->malloc_after == ACL_SUCCESS) aclrtFree(ptr);
    return NULL;
}

MG_TEST(a_thread_without_a_context_gets_107002) {
    ut_init();
    context_probe p;
    memset(&p, 0, sizeof p);
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&p.given), ACL_SUCCESS);
    pthread_t thread;
    MG_CHECK_EQ_INT(pthread_create(&thread, NULL, no_context_thread, &p), 0);
    pthread_join(thread, NULL);
    MG_CHECK_EQ_INT(p.malloc_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_STR_CONTAINS(p.message, "aclrtMalloc: the calling thread has no current context");
    MG_CHECK_EQ_INT(p.stream_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(p.memcpy_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(p.get_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(p.sync_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(p.submit_status, ACLNN_ERR_RUNTIME_ERROR);
    MG_CHECK_EQ_INT(p.set_status, ACL_SUCCESS);
    MG_CHECK_EQ_INT(p.malloc_after, ACL_SUCCESS);
}

MG_TEST(contexts_create_set_get_destroy) {
    ut_init();
    aclrtContext main_ctx = NULL, made = NULL, got = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&main_ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateContext(&made, 0), ACL_SUCCESS);
    MG_CHECK(made != NULL && made != main_ctx);
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&got), ACL_SUCCESS); /* created: current */
    MG_CHECK(got == made);
    /* Its own default stream works. */
    int counter = 0;
    queue_slow(NULL, &counter, 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(counter, 1);
    MG_CHECK_EQ_INT(aclrtCreateContext(&got, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    MG_CHECK_STR_CONTAINS(last_message(), "deviceId 1 is invalid");
    MG_CHECK_EQ_INT(aclrtDestroyContext(main_ctx), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "default context");
    MG_CHECK_EQ_INT(aclrtDestroyContext(made), ACL_SUCCESS);
    /* Destroyed while current: the thread has no context until it sets one. */
    void *ptr = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "no current context");
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(made), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtDestroyContext(made), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(ptr), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "context is NULL");
    int32_t device = -1;
    MG_CHECK_EQ_INT(aclrtGetDevice(&device), ACL_SUCCESS);
    MG_CHECK_EQ_INT(device, 0);
}

/* ---- CANN's own checks: hicann/runtime's api_error.cc, api_impl.cc and acl layer ---------------------------- */

/* timeout: -1 (for ever) or > 0 ms. CANN's StreamSynchronize, DeviceSynchronize and
   EventSynchronize refuse 0 and values below -1 with 107000, before looking at the handle. */
MG_TEST(cann_synchronize_timeouts_refuse_zero_and_below_minus_one) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    const int32_t bad[] = {0, -2, INT32_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, bad[i]), ACL_ERROR_RT_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(last_message(), "timeout");
        MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(NULL, bad[i]), ACL_ERROR_RT_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(last_message(), "aclrtSynchronizeStreamWithTimeout");
        MG_CHECK_EQ_INT(aclrtSynchronizeDeviceWithTimeout(bad[i]), ACL_ERROR_RT_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(last_message(), "aclrtSynchronizeDeviceWithTimeout");
        MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(ev, bad[i]), ACL_ERROR_RT_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(last_message(), "timeout");
        /* the timeout is checked before the event */
        MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(NULL, bad[i]), ACL_ERROR_RT_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(last_message(), "aclrtSynchronizeEventWithTimeout");
    }
    MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(NULL, 10), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "event is NULL");
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStreamWithTimeout(stream, -1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDeviceWithTimeout(1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(ev, 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* EventCreate: (flag & 0x3F) == 0 or flag > 0x3F, or DEVICE_USE_ONLY (RT_EVENT_MC2) or
   EXTERNAL with another flag: 107000. EventCreateEx: MC2, EXTERNAL or IPC with another flag,
   then (flag & 0x4F) == 0 or flag > 0x4F: 107000. */
MG_TEST(cann_event_flags_refused_with_107000) {
    ut_init();
    const struct { int ex; uint32_t flag; } bad[] = {
        {0, 0}, {0, 0x40}, {0, 0x41}, {0, 0x80}, {0, 0x400}, {0, 0x11}, {0, 0x21}, {0, 0x30},
        {1, 0}, {1, 0x10}, {1, 0x20}, {1, 0x41}, {1, 0x11}, {1, 0x80}, {1, 0x400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        aclrtEvent ev = NULL;
        aclError st = bad[i].ex ? aclrtCreateEventExWithFlag(&ev, bad[i].flag) : aclrtCreateEventWithFlag(&ev, bad[i].flag);
        if (st != ACL_ERROR_RT_PARAM_INVALID)
            MG_FAIL("%s(0x%x) = %d, expected 107000", bad[i].ex ? "aclrtCreateEventExWithFlag" : "aclrtCreateEventWithFlag",
                    (unsigned)bad[i].flag, (int)st);
        MG_CHECK_STR_CONTAINS(last_message(), "flag");
        MG_CHECK(ev == NULL);
    }
}

/* IsEventWithoutWaitTask: an event without RT_EVENT_DDSYNC_NS (ACL_EVENT_SYNC), DDSYNC,
   EXTERNAL or IPC has no wait task: waits and resets are 207000. An Ex event cannot be
   reset (EventReset: new mode) nor queried by the deprecated aclrtQueryEvent (EventQuery). */
MG_TEST(cann_events_without_wait_task_and_ex_events_refuse_207000) {
    ut_init();
    aclrtEvent timeline = NULL, mark = NULL, ex = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&timeline, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&mark, ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(timeline, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, timeline), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "no wait task");
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, mark), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_EQ_INT(aclrtResetEvent(timeline, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "no wait task");
    MG_CHECK_EQ_INT(aclrtResetEvent(ex, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtCreateEventExWithFlag");
    aclrtEventStatus es = ACL_EVENT_STATUS_RESERVED;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    MG_CHECK_EQ_INT(aclrtQueryEvent(ex, &es), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtCreateEventExWithFlag");
    MG_CHECK_EQ_INT(es, ACL_EVENT_STATUS_RESERVED);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(timeline), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(mark), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ex), ACL_SUCCESS);
}

/* Event::QueryEventStatus with no record: RECORDED in new mode (Ex events), INIT otherwise,
   which the acl layer reports as NOT_READY. Synchronizing such an event returns at once
   (Event::Synchronize: no record, success); a stream cannot wait for a plain one
   (Event::Wait: "the event has not been recorded", 107000). */
MG_TEST(cann_never_recorded_events_status_sync_wait) {
    ut_init();
    aclrtEvent plain = NULL, flagged = NULL, ex = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&flagged, ACL_EVENT_SYNC), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(plain, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(flagged, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(ex, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtSynchronizeEvent(plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeEventWithTimeout(flagged, 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeEvent(ex), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, plain), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "has never been recorded");
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, ex), ACL_SUCCESS);
    /* Once recorded and done: complete. */
    MG_CHECK_EQ_INT(aclrtRecordEvent(plain, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeEvent(plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(plain, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(NULL, plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(plain), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(flagged), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ex), ACL_SUCCESS);
}

static void cann_noop_callback(void *data) { (void)data; }

/* CallbackLaunch: a NULL fn is 107000 (after the acl layer's blockType check).
   CbSubscribe::Delete: a subscribed stream, another thread id: 107012; no subscriber: 107011. */
MG_TEST(cann_callback_null_fn_and_unsubscribe_other_thread) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "fn is NULL");
    MG_CHECK_EQ_INT(aclrtLaunchCallback(NULL, NULL, (aclrtCallbackBlockType)5, stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "blockType 5");
    uint64_t me = (uint64_t)pthread_self();
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(me, stream), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    MG_CHECK_STR_CONTAINS(last_message(), "no subscribed thread");
    MG_CHECK_EQ_INT(aclrtSubscribeReport(me, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(me + 1, stream), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    MG_CHECK_STR_CONTAINS(last_message(), "is not subscribed to");
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(me, stream), ACL_SUCCESS);
    (void)cann_noop_callback;
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* ContextDestroy: "primary context cannot be destroyed explicitly", RT_ERROR_CONTEXT_NULL. */
MG_TEST(cann_default_context_cannot_be_destroyed) {
    ut_init();
    aclrtContext ctx = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "default context");
    aclrtContext again = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&again), ACL_SUCCESS);
    MG_CHECK(again == ctx);
}

/* HostRegister: a type with a bit outside IOMEMORY|READONLY: 207000.
   MemGetInfoEx: memInfoType outside [DDR (0), P2P_HUGE1G (17)]: 107016, after the NULL checks. */
MG_TEST(cann_host_register_type_and_mem_info_attr) {
    ut_init();
    unsigned char *host = aligned_alloc(4096, 4096);
    void *dev = (void *)1;
    const int types[] = {1, 2, 3, 0x10, 0x0d, -1};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        MG_CHECK_EQ_INT(aclrtHostRegister(host, 4096, (aclrtHostRegisterType)types[i], &dev),
                        ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        MG_CHECK_STR_CONTAINS(last_message(), "type");
        MG_CHECK(dev == (void *)1);
    }
    MG_CHECK(!mgrt_range_is_live(host, 4096));
    free(host);
    size_t f = 7, t = 7;
    MG_CHECK_EQ_INT(aclrtGetMemInfo((aclrtMemAttr)18, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    MG_CHECK_STR_CONTAINS(last_message(), "attr 18");
    MG_CHECK_EQ_INT(aclrtGetMemInfo((aclrtMemAttr)-1, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    MG_CHECK(f == 7 && t == 7);
    MG_CHECK_EQ_INT(aclrtGetMemInfo((aclrtMemAttr)18, NULL, &t), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "free is NULL");
    MG_CHECK_EQ_INT(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &f, &t), ACL_SUCCESS);
}

/* CANN documents that the device address aclrtHostRegister maps cannot be used for memory
   operations (copies). Here devPtr == ptr, so a side the copy's kind (or aclrtMemset) names
   as device memory that lies in a registered range is that address: refused. As the host
   side of a copy it is the host pointer: allowed. */
MG_TEST(cann_registered_memory_is_not_a_copy_or_set_device_side) {
    ut_init();
    unsigned char *host = aligned_alloc(4096, 2 * 4096);
    memset(host, 3, 2 * 4096);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtHostRegister(host, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(block, 9, 4096);
    MG_CHECK_EQ_INT(aclrtMemset(dev, 4096, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtHostRegister");
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)dev + 8, 4096, 0, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "cannot be used for memory operations");
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, 4096, block, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "dst");
    MG_CHECK_EQ_INT(aclrtMemcpy(block, 4096, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(last_message(), "src");
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, 4096, host + 4096, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(block, 4096, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_EQ_INT(host[0], 3);
    MG_CHECK_EQ_INT(((unsigned char *)block)[0], 9);
    /* The host side: allowed, blocking and queued, and with the default kind. */
    MG_CHECK_EQ_INT(aclrtMemcpy(block, 4096, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)block)[63], 3);
    memset(block, 5, 4096);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 4096, block, 64, ACL_MEMCPY_DEVICE_TO_HOST, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(host[63], 5);
    MG_CHECK_EQ_INT(aclrtMemcpy(host + 4096, 4096, block, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    MG_CHECK_EQ_INT(host[4096], 5);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 4096, host + 4096, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtHostUnregister(host), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    free(host);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
