/*
 * tests/ut/runtime/test_memory_lifetime.c: memory freed or reused while queued work still
 * references it, and the memory calls CANN documents as never synchronizing.
 *
 * A stream is held by a "gate" task that waits until the test opens it (or 3 s pass, so a
 * runtime that waits for the stream is slow, not hung). Work queued behind it is still
 * unfinished when the call under test runs.
 */
#define _GNU_SOURCE 1
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "mg_gate.h"
#include "mgrt.h"
#include "ut_util.h"
#include "mg_heap.h"



static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

static double now_ms(void) { return mg_gate_now_ms(); }

/* ---- F4: aclrtFreeHost with an async copy on that block still queued --------------------- */

/* The blocks these tests free under queued work, 96 KiB: below glibc's mmap threshold (so
   glibc's count of bytes in use shows the free), far above the runtime's own small
   allocations. */
#define TEST_BLOCK (96 * 1024)

MG_TEST(free_host_with_a_queued_copy_defers_the_free_until_the_copy_ran) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, TEST_BLOCK, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int direction = 0; direction < 2; direction++) {
        void *host = NULL;
        MG_CHECK_EQ_INT(aclrtMallocHost(&host, TEST_BLOCK), ACL_SUCCESS);
        memset(host, 0x5a, TEST_BLOCK);
        memset(dev, 0, TEST_BLOCK);
        mg_gate_close(stream);
        if (direction == 0)
            MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev, TEST_BLOCK, host, TEST_BLOCK, ACL_MEMCPY_HOST_TO_DEVICE, stream),
                            ACL_SUCCESS);
        else
            MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, TEST_BLOCK, dev, TEST_BLOCK, ACL_MEMCPY_DEVICE_TO_HOST, stream),
                            ACL_SUCCESS);
        long long before = mg_heap_in_use();
        double t0 = now_ms();
        /* CANN: frees at once, never waits. Here the block stops being live now, and its
           memory stays allocated until the queued copy has run. */
        MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
        MG_CHECK(now_ms() - t0 < 1000.0);
        long long after_free = mg_heap_in_use();
        if (before >= 0) MG_CHECK(after_free > before - TEST_BLOCK / 2);
        /* It is not live any more: a second free and a new copy with it are refused. */
        MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(last_message(), "not the start of a live block");
        aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
        MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
        MG_CHECK_EQ_INT(st, ACL_STREAM_STATUS_NOT_READY);
        mg_gate_open();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        if (direction == 0) MG_CHECK_EQ_INT(((unsigned char *)dev)[TEST_BLOCK - 1], 0x5a);
        long long after_sync = mg_heap_in_use();
        if (before >= 0) MG_CHECK(after_sync < after_free - TEST_BLOCK / 2);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

/* ---- F2: aclrtMallocHost blocks are page aligned, so aclrtHostRegister takes them -------- */

MG_TEST(malloc_host_blocks_are_page_aligned_and_can_be_registered) {
    ut_init();
    static const size_t sizes[] = {1, 100, 4096, 8192, 65536, 1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *host = NULL, *dev = NULL;
        MG_CHECK_EQ_INT(aclrtMallocHost(&host, sizes[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT((int)((uintptr_t)host % 4096), 0);
        /* CANN's documented flow: page-locked memory from aclrtMallocHost, then registered. */
        MG_CHECK_EQ_INT(aclrtHostRegister(host, sizes[i], ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
        MG_CHECK(dev == host);
        MG_CHECK(mgrt_range_is_live(dev, sizes[i]));
        MG_CHECK_EQ_INT(aclrtHostUnregister(host), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
    }
}


/* ---- F3: aclrtMemset[Async] take aclrtMallocHost memory ---------------------------------- */

MG_TEST(memset_takes_malloc_host_memory_and_refuses_pageable_memory) {
    ut_init();
    unsigned char *host = NULL;
    MG_CHECK_EQ_INT(aclrtMallocHost((void **)&host, 1024), ACL_SUCCESS);
    memset(host, 0, 1024);
    /* CANN: host or device memory, decided from the address (host memory from acl). */
    MG_CHECK_EQ_INT(aclrtMemset(host + 256, 256, 7, 256), ACL_SUCCESS);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(host + 512, 256, 9, 256, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(host[255], 0);
    MG_CHECK_EQ_INT(host[256], 7);
    MG_CHECK_EQ_INT(host[511], 7);
    MG_CHECK_EQ_INT(host[512], 9);
    MG_CHECK_EQ_INT(host[767], 9);
    MG_CHECK_EQ_INT(host[768], 0);
    /* Past the block's end, and plain pageable memory: refused, nothing written. */
    MG_CHECK_EQ_INT(aclrtMemset(host + 1000, 64, 1, 64), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is not inside one live aclrtMalloc block");
    MG_CHECK_EQ_INT(host[1000], 0);
    unsigned char *pageable = malloc(256);
    memset(pageable, 0, 256);
    MG_CHECK_EQ_INT(aclrtMemset(pageable, 256, 1, 256), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is not inside one live aclrtMalloc block");
    MG_CHECK_EQ_INT(aclrtMemsetAsync(pageable, 256, 1, 256, stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is not inside one live aclrtMalloc block");
    MG_CHECK_EQ_INT(pageable[0], 0);
    free(pageable);
    /* A freed host block is not host memory of acl's any more. */
    MG_CHECK_EQ_INT(aclrtFreeHost(host), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(host, 64, 1, 64), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

/* ---- F5: no asynchronous host-to-host copy (CANN's EP mode: 207000) ------------------------ */

MG_TEST(memcpy_async_host_to_host_is_not_supported) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    unsigned char a[64], b[64];
    memset(a, 1, sizeof a);
    memset(b, 0, sizeof b);
    void *p1 = NULL, *p2 = NULL, *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMallocHost(&p1, 64), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMallocHost(&p2, 64), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(p1, 1, 64);
    memset(p2, 0, 64);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(b, 64, a, 64, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "asynchronous host-to-host copies are not supported");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(b, 64, a, 64, ACL_MEMCPY_DEFAULT, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "ACL_MEMCPY_DEFAULT");
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(p2, 64, p1, 64, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(p2, 64, p1, 64, ACL_MEMCPY_DEFAULT, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(b[0], 0);
    MG_CHECK_EQ_INT(((unsigned char *)p2)[0], 0);
    /* The checks before it keep their codes; a copy with a device side is queued. */
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(b, 32, a, 64, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_ERROR_RT_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev, 64, p1, 64, ACL_MEMCPY_DEFAULT, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(p2, 64, dev, 64, ACL_MEMCPY_DEFAULT, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)p2)[63], 1);
    /* The blocking copy still copies host to host. */
    MG_CHECK_EQ_INT(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(b[63], 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFreeHost(p1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFreeHost(p2), ACL_SUCCESS);
}

/* ---- F1: aclrtFree, aclrtMemcpy and aclrtMemset never wait for queued work ----------------- */

MG_TEST(free_memcpy_and_memset_do_not_wait_for_unrelated_queued_work) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *busy = NULL, *a = NULL, *b = NULL, *c = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&busy, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&c, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    unsigned char host[64];
    memset(host, 3, sizeof host);
    mg_gate_close(stream);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(busy, 4096, 1, 4096, stream), ACL_SUCCESS);
    /* CANN: no implicit device or stream synchronization in any of them. */
    double t0 = now_ms();
    MG_CHECK_EQ_INT(aclrtMemset(a, 64, 5, 64), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(b, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(c), ACL_SUCCESS);
    MG_CHECK(now_ms() - t0 < 1000.0);
    MG_CHECK_EQ_INT(host[63], 5);
    MG_CHECK_EQ_INT(((unsigned char *)b)[63], 3);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_STREAM_STATUS_NOT_READY);
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(((unsigned char *)busy)[4095], 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(busy), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(b), ACL_SUCCESS);
}


MG_TEST(free_with_queued_work_on_the_block_returns_at_once_and_frees_after_it) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, TEST_BLOCK, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    mg_gate_close(stream);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, TEST_BLOCK, 1, TEST_BLOCK, stream), ACL_SUCCESS);
    long long before = mg_heap_in_use();
    double t0 = now_ms();
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK(now_ms() - t0 < 1000.0);
    long long after_free = mg_heap_in_use();
    /* Dead at once: a new use or a second free is refused ... */
    MG_CHECK(!mgrt_range_is_live(dev, 1));
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 64, 2, 64, stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "not the start of a live block");
    /* ... but its memory stays allocated until the queued set has run. */
    if (before >= 0) MG_CHECK(after_free > before - TEST_BLOCK / 2);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_STREAM_STATUS_NOT_READY);
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    long long after_sync = mg_heap_in_use();
    if (before >= 0) MG_CHECK(after_sync < after_free - TEST_BLOCK / 2);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

static void *open_gate_later(void *arg) {
    (void)arg;
    usleep(100000);
    mg_gate_open();
    return NULL;
}

MG_TEST(memcpy_and_memset_wait_only_for_queued_work_on_their_bytes) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    unsigned char *dev = NULL, *out = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&out, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(dev, 0, 4096);
    memset(out, 2, 4096);
    unsigned char host[256];
    memset(host, 4, sizeof host);
    mg_gate_close(stream);
    /* Queued: a set writing dev[0, 2048), then a copy reading out[0, 1024) into dev[3072, 4096). */
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 2048, 1, 2048, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(dev + 3072, 1024, out, 1024, ACL_MEMCPY_DEVICE_TO_DEVICE, stream), ACL_SUCCESS);
    /* Bytes no queued work writes (out is only read), or no queued work touches: at once. */
    double t0 = now_ms();
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 256, out + 256, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(dev + 2048, 1024, 7, 1024), ACL_SUCCESS);
    MG_CHECK(now_ms() - t0 < 1000.0);
    MG_CHECK_EQ_INT(host[0], 2);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
    MG_CHECK_EQ_INT(st, ACL_STREAM_STATUS_NOT_READY);
    /* Reading bytes the queued set writes: the copy waits for the set (on a device the two
       would race; here the order of the queue wins), and sees its bytes. */
    pthread_t opener;
    MG_CHECK_EQ_INT(pthread_create(&opener, NULL, open_gate_later, NULL), 0);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 256, dev + 1000, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(host[0], 1);
    MG_CHECK_EQ_INT(host[255], 1);
    pthread_join(opener, NULL);
    /* Writing bytes the queued copy reads: it waits for the copy, which read the old bytes. */
    MG_CHECK_EQ_INT(aclrtMemset(out + 512, 256, 9, 256), ACL_SUCCESS);
    MG_CHECK_EQ_INT(dev[3072 + 512], 2);
    MG_CHECK_EQ_INT(out[512], 9);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(out), ACL_SUCCESS);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
