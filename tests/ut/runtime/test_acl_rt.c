/*
 * tests/ut/runtime/test_acl_rt.c: the runtime calls issue 11 adds, each with its status, its
 * message and its behaviour: data buffers, run mode, version, aligned allocation, memory info,
 * streams with a configuration and forced destruction.
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdint.h>
#include <sys/sysinfo.h>

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
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(NULL), 0);

    aclDataBuffer *buffer = aclCreateDataBuffer(NULL, 8);
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    /* Destroyed: every call refuses it, nothing is read or freed twice. */
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not a live data buffer");
    MG_CHECK_EQ_INT(aclUpdateDataBuffer(buffer, NULL, 4), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclUpdateDataBuffer");
    MG_CHECK(aclGetDataBufferAddr(buffer) == NULL);
    MG_CHECK_EQ_INT(aclGetDataBufferSizeV2(buffer), 0);

    int foreign[4];
    MG_CHECK_EQ_INT(aclDestroyDataBuffer((aclDataBuffer *)foreign), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not a live data buffer");
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
    MG_CHECK_EQ_INT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
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
    MG_CHECK_EQ_INT(aclrtMallocAlign32(&p, 8, (aclrtMemMallocPolicy)9), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "policy 9");
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
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 100, (aclrtMemMallocPolicy)8), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "policy 8");
    MG_CHECK(p == NULL);
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
    MG_CHECK_EQ_INT(aclrtGetMemInfo((aclrtMemAttr)99, &f2, &t2), ACL_ERROR_INVALID_PARAM);
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

MG_TEST(stream_with_config_refuses_model_and_device_side_flags) {
    ut_init();
    aclrtStream stream = (aclrtStream)0x1;
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_PERSISTENT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "ACL_STREAM_PERSISTENT");
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "ACL_STREAM_DEVICE_USE_ONLY");
    MG_CHECK(stream == (aclrtStream)0x1);
    MG_CHECK_EQ_INT(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "stream is NULL");
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
    MG_CHECK_STR_CONTAINS(last_message(), "not a live stream");
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "default stream cannot be destroyed");
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
