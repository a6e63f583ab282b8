/*
 * tests/ut/runtime/test_runtime.c: the runtime (libascendcl) as issue 2 specifies it:
 * initialisation, device 0, tracked memory, memcpy/memset bounds, streams (also from
 * several threads), per-thread error messages, float16 conversion, dtype sizes.
 */
#include <pthread.h>
#include <stdint.h>

#include "ut_util.h"

static const char *recent_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(null)";
}

/* Defined first, so it runs first: nothing has called aclInit yet. */
MG_TEST(before_aclinit_runtime_calls_are_100001) {
    if (ut_acl_ready) {
        MG_FAIL("must run before any other test (run the executable without a filter)");
        return;
    }
    void *p = NULL;
    char host[16] = {0};
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    MG_CHECK(strlen(recent_message()) > 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    MG_CHECK(p == NULL);
    MG_CHECK_EQ_INT(aclrtFree(host), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 16, host + 8, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclrtMemset(host, 16, 0, 16), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    MG_CHECK(aclrtGetSocName() == NULL);

    /* A configuration file that does not exist fails aclInit and initialises nothing. */
    aclError rc = aclInit("this-config-file-does-not-exist.json");
    MG_CHECK(rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE);
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
}

MG_TEST(aclinit_twice_is_100002_and_harmless) {
    ut_init();
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
}

MG_TEST(device_0_only) {
    ut_init();
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    int32_t id = -5;
    MG_CHECK_EQ_INT(aclrtGetDevice(&id), ACL_SUCCESS);
    MG_CHECK_EQ_INT(id, 0);
    uint32_t count = 0;
    MG_CHECK_EQ_INT(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    MG_CHECK_EQ_INT(count, 1);
    MG_CHECK_EQ_INT(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    MG_CHECK(strlen(recent_message()) > 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    MG_CHECK_EQ_INT(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    /* Set again: the rest of the process keeps using device 0. */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

MG_TEST(soc_name_after_aclinit) {
    ut_init();
    const char *soc = aclrtGetSocName();
    MG_CHECK(soc != NULL);
    if (soc) MG_CHECK(strlen(soc) > 0);
}

MG_TEST(malloc_is_64_byte_aligned_and_usable) {
    ut_init();
    const size_t sizes[] = {1, 3, 63, 64, 65, 1000, 4096, 100003, (size_t)1 << 20};
    const aclrtMemMallocPolicy policies[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
                                             ACL_MEM_MALLOC_NORMAL_ONLY};
    for (size_t p = 0; p < 3; p++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            void *block = NULL;
            MG_CHECK_EQ_INT(aclrtMalloc(&block, sizes[i], policies[p]), ACL_SUCCESS);
            MG_CHECK(block != NULL);
            MG_CHECK_EQ_INT((uintptr_t)block % 64, 0);
            /* Device 0 is the CPU: every byte asked for is addressable (ASan checks). */
            if (block) memset(block, 0x5A, sizes[i]);
            MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
        }
    }
}

MG_TEST(malloc_size_0_or_null_pointer_is_100000) {
    ut_init();
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK(block == NULL);
    MG_CHECK_STR_CONTAINS(recent_message(), "size");
    MG_CHECK_EQ_INT(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(recent_message(), "devPtr");
}

MG_TEST(free_twice_or_foreign_pointer_is_100000) {
    ut_init();
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    /* Not the start of a block. */
    MG_CHECK_EQ_INT(aclrtFree((char *)block + 64), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_ERROR_INVALID_PARAM);
    void *plain = malloc(64);
    MG_CHECK_EQ_INT(aclrtFree(plain), ACL_ERROR_INVALID_PARAM);
    free(plain);
    int on_stack = 0;
    MG_CHECK_EQ_INT(aclrtFree(&on_stack), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);

    void *host = NULL;
    MG_CHECK_EQ_INT(aclrtMallocHost(&host, 128), ACL_SUCCESS);
    MG_CHECK(host != NULL);
    if (host) memset(host, 1, 128);
    MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31u + seed);
}

MG_TEST(memcpy_every_kind) {
    ut_init();
    enum { N = 1000 };
    unsigned char src[N], back[N], host2[N];
    void *dev1 = NULL, *dev2 = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev1, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&dev2, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

    fill_pattern(src, N, 1);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev1, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev2, N, dev1, N, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    memset(back, 0, N);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, dev2, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(back, src, N) == 0);

    memset(host2, 0, N);
    MG_CHECK_EQ_INT(aclrtMemcpy(host2, N, src, N, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(host2, src, N) == 0);

    /* DEFAULT works out the direction itself, in every direction. */
    fill_pattern(src, N, 7);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev1, N, src, N, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev2, N, dev1, N, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    memset(back, 0, N);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, dev2, N, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    MG_CHECK(memcmp(back, src, N) == 0);

    /* Part of a block, into the middle of another, with destMax larger than count. */
    fill_pattern(src, N, 9);
    MG_CHECK_EQ_INT(aclrtMemcpy((char *)dev1 + 100, N - 100, src, 300, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, (char *)dev1 + 100, 300, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(back, src, 300) == 0);

    /* An unknown kind is refused. */
    MG_CHECK_EQ_INT(aclrtMemcpy(dev1, N, src, N, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(NULL, N, src, N, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, NULL, N, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    aclrtFree(dev1);
    aclrtFree(dev2);
}

MG_TEST(memcpy_count_above_destmax_is_107000_and_copies_nothing) {
    ut_init();
    enum { N = 256 };
    unsigned char src[N], dst[N], expect[N];
    fill_pattern(src, N, 3);
    memset(dst, 0xEE, N);
    memcpy(expect, dst, N);
    MG_CHECK_EQ_INT(aclrtMemcpy(dst, 100, src, 101, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK(memcmp(dst, expect, N) == 0);
    MG_CHECK(strlen(recent_message()) > 0);

    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, N, expect, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, 128, src, 129, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclrtMemcpy(dst, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(dst, expect, N) == 0);
    aclrtFree(dev);
}

/* CANN's order of checks: count 0, the pointers, the kind, the capacity, dst == src; then
   (here) the device sides against the live blocks. */
MG_TEST(memcpy_and_memset_check_in_canns_order) {
    ut_init();
    unsigned char host[64], other[64];
    memset(host, 0x11, sizeof host);
    memset(other, 0x22, sizeof other);
    (void)aclGetRecentErrMsg(); /* what earlier tests left */
    /* Nothing to do succeeds before any other check: NULLs, no kind, no room. */
    MG_CHECK_EQ_INT(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)99), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(NULL, 0, NULL, 0, (aclrtMemcpyKind)99, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(NULL, 0, 0, 0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(NULL, 0, 0, 0, NULL), ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    /* The pointers before the kind; the kind before the capacity. */
    MG_CHECK_EQ_INT(aclrtMemcpy(NULL, 0, host, 8, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemcpy: dst is NULL");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(other, 0, NULL, 8, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemcpyAsync: src is NULL");
    MG_CHECK_EQ_INT(aclrtMemset(NULL, 0, 0, 8), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemset: devPtr is NULL");
    const int kinds[] = {ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 8, -1};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        MG_CHECK_EQ_INT(aclrtMemcpy(other, 0, host, 8, (aclrtMemcpyKind)kinds[i]), ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(recent_message(), "is not a copy kind");
        MG_CHECK_EQ_INT(aclrtMemcpyAsync(other, 64, host, 8, (aclrtMemcpyKind)kinds[i], NULL), ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(recent_message(), "is not a copy kind");
    }
    /* The capacity: CANN's runtime code 107000. */
    MG_CHECK_EQ_INT(aclrtMemcpy(other, 0, host, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemcpy: destMax is 0");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(other, 4, host, 8, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(recent_message(), "count 8 exceeds destMax 4");
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(dev, 0, 1, 8), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemset: maxCount is 0");
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 0, 1, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(recent_message(), "aclrtMemsetAsync: maxCount is 0");
    /* dst == src: nothing to copy, the blocking copy returns before the device checks. */
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 64, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    /* Kind 5 is host to device: its destination must be device memory. */
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)dev)[63], 0x11);
    MG_CHECK_EQ_INT(aclrtMemcpy(other, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(recent_message(), "dst range");
    MG_CHECK_EQ_INT(other[0], 0x22);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

MG_TEST(memcpy_device_range_outside_its_block_is_refused) {
    ut_init();
    enum { N = 128 };
    unsigned char src[2 * N], dst[2 * N], expect[N];
    void *dev = NULL, *dev2 = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&dev2, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(expect, 0x11, N);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, N, expect, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(dev2, N, expect, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    fill_pattern(src, 2 * N, 5);

    /* Host to device, 8 bytes past the block's end (destMax says it would fit). */
    MG_CHECK(aclrtMemcpy((char *)dev + N - 8, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
    /* Host to device into memory that is not a device block at all. */
    unsigned char host_dst[16];
    memset(host_dst, 0x22, 16);
    MG_CHECK(aclrtMemcpy(host_dst, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
    MG_CHECK(host_dst[0] == 0x22 && host_dst[15] == 0x22);
    /* Device to host reading past the end. */
    memset(dst, 0x33, sizeof dst);
    MG_CHECK(aclrtMemcpy(dst, 2 * N, dev, N + 1, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    MG_CHECK(dst[0] == 0x33 && dst[N - 1] == 0x33);
    /* Device to host from host memory. */
    MG_CHECK(aclrtMemcpy(dst, 2 * N, src, 16, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    MG_CHECK(dst[0] == 0x33);
    /* Device to device spilling out of either block. */
    MG_CHECK(aclrtMemcpy((char *)dev2 + 64, N, dev, N, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS);
    MG_CHECK(aclrtMemcpy(dev2, N, (char *)dev + 64, N, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS);
    /* A freed block is no longer device memory. */
    void *gone = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&gone, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(gone), ACL_SUCCESS);
    MG_CHECK(aclrtMemcpy(dst, N, gone, 8, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);

    /* Nothing reached either block. */
    MG_CHECK_EQ_INT(aclrtMemcpy(dst, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(dst, expect, N) == 0);
    MG_CHECK_EQ_INT(aclrtMemcpy(dst, N, dev2, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(dst, expect, N) == 0);
    aclrtFree(dev);
    aclrtFree(dev2);
}

MG_TEST(memset_within_bounds_only) {
    ut_init();
    enum { N = 200 };
    unsigned char back[N], expect[N];
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(dev, N, 0x3C, N), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    memset(expect, 0x3C, N);
    MG_CHECK(memcmp(back, expect, N) == 0);

    /* Part of the block; only the low byte of value counts (as memset). */
    MG_CHECK_EQ_INT(aclrtMemset((char *)dev + 10, N - 10, 0x1FF, 20), ACL_SUCCESS);
    memset(expect + 10, 0xFF, 20);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(back, expect, N) == 0);

    /* count > maxCount, a range past the block, memory not from aclrtMalloc: refused,
       nothing written. */
    MG_CHECK_EQ_INT(aclrtMemset(dev, 16, 0, 17), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK(aclrtMemset((char *)dev + N - 8, 16, 0, 16) != ACL_SUCCESS);
    unsigned char host[16];
    memset(host, 0x44, 16);
    MG_CHECK(aclrtMemset(host, 16, 0, 16) != ACL_SUCCESS);
    MG_CHECK(host[0] == 0x44 && host[15] == 0x44);
    MG_CHECK_EQ_INT(aclrtMemcpy(back, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(back, expect, N) == 0);
    aclrtFree(dev);
}

/* ---- streams ---------------------------------------------------------------------------- */

MG_TEST(streams_create_queue_synchronize_destroy) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    MG_CHECK(a != NULL && b != NULL && a != b);
    MG_CHECK_EQ_INT(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);

    mg_rng rng = {21};
    int64_t dims[1] = {5000};
    ut_tensor t[2][3];
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < 3; i++) ut_tensor_dense(&t[s][i], ACL_FLOAT, 1, dims);
        ut_fill_random(&t[s][0], &rng, -3, 3);
        ut_fill_random(&t[s][1], &rng, -6, 6);
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[s][0].tensor, t[s][1].tensor, t[s][2].tensor,
                                                          &ws, &executor), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, s ? b : a), ACLNN_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    /* Synchronizing an idle stream is fine too. */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    for (int s = 0; s < 2; s++) {
        ut_check_values(&t[s][0], &t[s][1], &t[s][2], "stream");
        for (int i = 0; i < 3; i++) ut_tensor_free(&t[s][i]);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
    /* A destroyed stream is no stream. */
    MG_CHECK(aclrtSynchronizeStream(a) != ACL_SUCCESS);
    MG_CHECK(aclrtDestroyStream(a) != ACL_SUCCESS);
    MG_CHECK_STR_CONTAINS(recent_message(), "stream");
}

MG_TEST(destroy_stream_finishes_queued_work) {
    ut_init();
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_SUCCESS);
    mg_rng rng = {22};
    int64_t dims[1] = {1 << 19};
    enum { LAUNCHES = 4 };
    ut_tensor t[LAUNCHES][3];
    for (int l = 0; l < LAUNCHES; l++) {
        for (int i = 0; i < 3; i++) ut_tensor_dense(&t[l][i], ACL_FLOAT, 1, dims);
        ut_fill_random(&t[l][0], &rng, -3, 3);
        ut_fill_random(&t[l][1], &rng, -6, 6);
    }
    for (int l = 0; l < LAUNCHES; l++) {
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[l][0].tensor, t[l][1].tensor, t[l][2].tensor,
                                                          &ws, &executor), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, s), ACLNN_SUCCESS);
    }
    /* No synchronize: destroying the stream must finish the queue first. */
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), ACL_SUCCESS);
    for (int l = 0; l < LAUNCHES; l++) {
        ut_check_values(&t[l][0], &t[l][1], &t[l][2], "work queued before destroy");
        for (int i = 0; i < 3; i++) ut_tensor_free(&t[l][i]);
    }
}

/* A blocking copy is ordered after the queued work on the bytes it touches: copying the
   result back without a synchronize sees it finished, and uploading new inputs does not
   change what queued work reads. Freeing a block the queued work uses returns at once and
   frees the memory once that work is done. */
MG_TEST(memory_calls_wait_for_queued_work) {
    ut_init();
    mg_rng rng = {23};
    int64_t dims[1] = {1 << 16};
    ut_tensor t[3];
    for (int i = 0; i < 3; i++) ut_tensor_dense(&t[i], ACL_FLOAT, 1, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, NULL), ACLNN_SUCCESS);
    /* Overwrite self on the device right after the launch: the queued work must already
       have read the old values, so the result matches the host copy taken before. */
    float *scratch = calloc((size_t)dims[0], sizeof(float));
    MG_CHECK(scratch != NULL);
    MG_CHECK_EQ_INT(aclrtMemcpy(t[1].block, t[1].bytes, scratch, t[1].bytes, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    free(scratch);
    ut_download(&t[2]); /* no synchronize before it */
    MG_CHECK_EQ_INT(ut_check_values(&t[0], &t[1], &t[2], "copied back without a synchronize"), 0);

    /* Free gradOutput's block while work that reads it is queued (ASan would see a read
       of freed memory if the free released it at once). */
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(t[0].block), ACL_SUCCESS);
    t[0].block = NULL;
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; i++) ut_tensor_free(&t[i]);
}

/* One worker thread: `iterations` runs of the operator on `stream` (own_stream: a stream
   it creates itself), counting wrong results. No test macros here: they are not
   thread-safe. */
typedef struct stream_worker {
    aclrtStream stream;
    int own_stream;
    int iterations;
    uint64_t seed;
    int failures;
    char first_failure[160];
} stream_worker;

static void worker_fail(stream_worker *w, const char *what, int code) {
    if (w->failures++ == 0) snprintf(w->first_failure, sizeof w->first_failure, "%s: %d (%s)", what, code,
                                     recent_message());
}

static void *stream_worker_main(void *arg) {
    stream_worker *w = (stream_worker *)arg;
    (void)aclrtSetDevice(0); /* every thread that calls the runtime sets its context */
    mg_rng rng = {w->seed};
    aclrtStream stream = w->stream;
    if (w->own_stream) {
        aclError rc = aclrtCreateStream(&stream);
        if (rc != ACL_SUCCESS) {
            worker_fail(w, "aclrtCreateStream", rc);
            return NULL;
        }
    }
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int it = 0; it < w->iterations; it++) {
        int64_t dims[1] = {1 + (int64_t)(mg_rng_next(&rng) % 3000)};
        aclDataType dtype = types[it % 3];
        ut_tensor t[3];
        for (int i = 0; i < 3; i++) ut_tensor_dense(&t[i], dtype, 1, dims);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -6, 6);
        aclnnStatus st = ut_run(&t[0], &t[1], &t[2], stream, NULL);
        if (st != ACLNN_SUCCESS) worker_fail(w, "run", st);
        else if (ut_count_wrong(&t[0], &t[1], &t[2], NULL) != 0) worker_fail(w, "wrong values", 0);
        for (int i = 0; i < 3; i++) ut_tensor_free(&t[i]);
    }
    if (w->own_stream) {
        aclError rc = aclrtDestroyStream(stream);
        if (rc != ACL_SUCCESS) worker_fail(w, "aclrtDestroyStream", rc);
    }
    return NULL;
}

MG_TEST(streams_used_from_several_threads) {
    ut_init();
    aclrtStream shared = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&shared), ACL_SUCCESS);
    /* Three threads with their own streams, two sharing one stream, two on the default. */
    enum { THREADS = 7 };
    stream_worker workers[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&workers[i], 0, sizeof workers[i]);
        workers[i].own_stream = i < 3;
        workers[i].stream = i < 3 ? NULL : i < 5 ? shared : NULL;
        workers[i].iterations = 12;
        workers[i].seed = 100 + (uint64_t)i;
        MG_CHECK_EQ_INT(pthread_create(&threads[i], NULL, stream_worker_main, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        if (workers[i].failures) {
            MG_FAIL("thread %d: %d failures, first: %s", i, workers[i].failures, workers[i].first_failure);
        }
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(shared), ACL_SUCCESS);
}

/* ---- errors ----------------------------------------------------------------------------- */

typedef struct message_probe {
    int before_was_null;
    char after[400];
} message_probe;

static void *message_thread_main(void *arg) {
    message_probe *probe = (message_probe *)arg;
    probe->before_was_null = aclGetRecentErrMsg() == NULL;
    (void)aclrtSetDevice(3);
    snprintf(probe->after, sizeof probe->after, "%s", recent_message());
    return NULL;
}

MG_TEST(recent_error_messages_are_per_thread) {
    ut_init();
    (void)aclGetRecentErrMsg(); /* start from an empty list */
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);

    message_probe probe;
    pthread_t thread;
    MG_CHECK_EQ_INT(pthread_create(&thread, NULL, message_thread_main, &probe), 0);
    pthread_join(thread, NULL);
    /* A new thread starts with no message, and its failure does not reach this thread. */
    MG_CHECK(probe.before_was_null);
    MG_CHECK_STR_CONTAINS(probe.after, "deviceId 3 is invalid");
    const char *mine = aclGetRecentErrMsg();
    MG_CHECK_STR_CONTAINS(mine, "aclrtMalloc: size is 0");
    if (mine != NULL) MG_CHECK(strstr(mine, "deviceId 3") == NULL);
}

/* CANN: aclGetRecentErrMsg gets AND clears the calling thread's messages, newest first. */
MG_TEST(recent_error_messages_get_and_clear_newest_first) {
    ut_init();
    (void)aclGetRecentErrMsg();
    MG_CHECK(aclGetRecentErrMsg() == NULL); /* nothing failed since the last read */
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
    const char *both = aclGetRecentErrMsg();
    MG_CHECK(both != NULL);
    if (both != NULL) {
        const char *newer = strstr(both, "deviceId 7 is invalid");
        const char *older = strstr(both, "aclrtMalloc: size is 0");
        MG_CHECK(newer != NULL && older != NULL && newer < older);
        MG_CHECK(strchr(both, '\n') != NULL); /* one message a line */
    }
    /* Read once: cleared. */
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    /* A success adds nothing. */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    /* Many failures: the newest are kept, whole, within the list's capacity. */
    for (int i = 0; i < 500; i++) (void)aclrtSetDevice(100 + i);
    const char *many = aclGetRecentErrMsg();
    MG_CHECK(many != NULL && strncmp(many, "aclrtSetDevice: deviceId 599 is invalid", 39) == 0);
    if (many != NULL) MG_CHECK(strlen(many) < 4096);
}

/* ---- float16 and dtype sizes --------------------------------------------------------------- */

/* CANN's aclFloat16ToFloat reads in saturation mode: every pattern below the top exponent is
   IEEE binary16; the top exponent (IEEE's infinities and NaNs) is an ordinary exponent 16,
   so 0x7c00 is 65536 and 0x7e00 is 98304 (acl_base_rt.h's note in CANN). */
MG_TEST(float16_to_float_matches_cann_for_all_65536) {
    int wrong = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        double want = (h & 0x7C00) == 0x7C00 ? ldexp(1.0 + (double)(h & 0x3FF) / 1024.0, 16)
                                             : ut_decode((uint16_t)h, UT_FP16);
        if ((h & 0x7C00) == 0x7C00 && (h & 0x8000)) want = -want;
        float got = aclFloat16ToFloat((aclFloat16)h);
        int ok = (double)got == want && !signbit(got) == !signbit(want);
        if (!ok && wrong++ < 5) MG_FAIL("aclFloat16ToFloat(0x%04x) = %.9g, expected %.9g", h, got, want);
    }
    MG_CHECK_EQ_INT(wrong, 0);
    MG_CHECK(aclFloat16ToFloat(0x7C00) == 65536.0f);
    MG_CHECK(aclFloat16ToFloat(0xFC00) == -65536.0f);
    MG_CHECK(aclFloat16ToFloat(0x7E00) == 98304.0f);
}

MG_TEST(float16_round_trip_for_all_65536) {
    int wrong = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        aclFloat16 back = aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h));
        /* The top exponent reads as >= 65536, which saturates to +-65504; every other value
           comes back exactly. */
        int top = (h & 0x7C00) == 0x7C00;
        int ok = top ? back == (uint16_t)((h & 0x8000) | 0x7BFF) : back == h;
        if (!ok && wrong++ < 5) MG_FAIL("0x%04x -> float -> 0x%04x", h, back);
    }
    MG_CHECK_EQ_INT(wrong, 0);
}

MG_TEST(float_to_float16_rounds_to_nearest_even) {
    struct { float in; uint16_t out; } cases[] = {
        {1.0f, 0x3C00}, {-2.0f, 0xC000}, {0.0f, 0x0000}, {-0.0f, 0x8000},
        {65504.0f, 0x7BFF},                  /* largest finite */
        {65519.996f, 0x7BFF},                /* below the midpoint to 65536 */
        /* Saturation mode (CANN): what IEEE rounds to infinity, infinities and NaN give +-65504. */
        {65520.0f, 0x7BFF}, {-65520.0f, 0xFBFF},
        {1e10f, 0x7BFF}, {-1e10f, 0xFBFF}, {INFINITY, 0x7BFF}, {-INFINITY, 0xFBFF},
        {NAN, 0x7BFF}, {-NAN, 0xFBFF},
        {0x1.0p-14f, 0x0400},                /* smallest normal */
        {0x1.0p-24f, 0x0001},                /* smallest subnormal */
        {0x1.0p-25f, 0x0000},                /* half of it: tie to even (0) */
        {0x1.8p-25f, 0x0001},                /* above the tie */
        {0x1.8p-24f, 0x0002},                /* 1.5 ulp: tie to even (2) */
        {0x1.002p+0f, 0x3C00},               /* 1 + 2^-11: tie to even (down) */
        {0x1.006p+0f, 0x3C02},               /* 1 + 3*2^-11: tie to even (up) */
        {0x1.0021p+0f, 0x3C01},              /* just above the tie */
        {0x1.ffep-15f, 0x0400},              /* subnormal rounding up into the normals */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        aclFloat16 got = aclFloatToFloat16(cases[i].in);
        if (got != cases[i].out) MG_FAIL("aclFloatToFloat16(%a) = 0x%04x, expected 0x%04x", cases[i].in, got, cases[i].out);
        mg_checks_done++;
    }

    /* Random float32 bit patterns against our own rounding. */
    mg_rng rng = {31};
    int wrong = 0;
    for (int i = 0; i < 1000000; i++) {
        uint32_t bits = (uint32_t)mg_rng_next(&rng);
        /* Bias towards float16's range (exponents 2^-26 .. 2^17) half the time. */
        if (i & 1) bits = (bits & 0x807FFFFFu) | ((uint32_t)(101 + mg_rng_next(&rng) % 44) << 23);
        float f;
        memcpy(&f, &bits, 4);
        if (isnan(f)) continue;
        uint16_t want = ut_encode(ut_round_to_format(f, UT_FP16), UT_FP16);
        if ((want & 0x7C00) == 0x7C00) want = (uint16_t)((want & 0x8000) | 0x7BFF); /* saturation */
        aclFloat16 got = aclFloatToFloat16(f);
        if (got != want && wrong++ < 5) MG_FAIL("aclFloatToFloat16(%a) = 0x%04x, expected 0x%04x", f, got, want);
    }
    MG_CHECK_EQ_INT(wrong, 0);
}

MG_TEST(data_type_sizes) {
    const struct { aclDataType type; size_t size; } sizes[] = {
        {ACL_FLOAT, 4}, {ACL_FLOAT16, 2}, {ACL_BF16, 2}, {ACL_DOUBLE, 8}, {ACL_INT8, 1},
        {ACL_UINT8, 1}, {ACL_INT16, 2}, {ACL_UINT16, 2}, {ACL_INT32, 4}, {ACL_UINT32, 4},
        {ACL_INT64, 8}, {ACL_UINT64, 8}, {ACL_BOOL, 1}, {ACL_COMPLEX64, 8}, {ACL_COMPLEX128, 16},
        {ACL_STRING, 0}, {ACL_DT_UNDEFINED, 0},
        /* CANN's table for the newer types: sub-byte and 8-bit types count one byte, COMPLEX32
           four, and what CANN's switch does not list (the 6- and 4-bit floats, unknown values)
           its default of 8. */
        {ACL_INT4, 1}, {ACL_UINT1, 1}, {ACL_HIFLOAT8, 1}, {ACL_FLOAT8_E5M2, 1}, {ACL_FLOAT8_E4M3FN, 1},
        {ACL_FLOAT8_E8M0, 1}, {ACL_COMPLEX32, 4}, {ACL_FLOAT6_E3M2, 8}, {ACL_FLOAT6_E2M3, 8},
        {ACL_FLOAT4_E2M1, 8}, {ACL_FLOAT4_E1M2, 8}, {(aclDataType)99, 8},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t got = aclDataTypeSize(sizes[i].type);
        if (got != sizes[i].size) MG_FAIL("aclDataTypeSize(%d) = %zu, expected %zu", (int)sizes[i].type, got, sizes[i].size);
        mg_checks_done++;
    }
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
