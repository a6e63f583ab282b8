/*
 * runtime/acl_copy.c: copies and sets (blocking and queued), and the memory calls that wait
 * for streams (aclrtFreeWithDevSync, aclrtHostUnregister). They sit above both the memory
 * layer (acl_memory.c: which blocks are live, pins) and the streams (waiting, queueing), so
 * neither of those calls the other's way up.
 *
 * Every call holds the memory layer's life lock for reading while it works (rt_memory_enter),
 * so a call racing aclFinalize finishes first or gets ACL_ERROR_UNINITIALIZE.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* ---- copies and sets ------------------------------------------------------------------------------------ */

/* Pins on the blocks a copy or set touches, taken before its checks: a block found live by
   the checks then stays allocated until the copy is done (blocking) or queued (the queued
   task pins it in turn), whatever aclrtFree / aclrtFreeHost a racing thread calls. */
typedef struct range_holds {
    uintptr_t tokens[4];
    size_t count;
} range_holds;

static void hold_range(range_holds *h, const void *ptr, size_t count) {
    h->count += rt_memory_hold(ptr, count, 1, &h->tokens[h->count]);
}

static aclError drop_holds(range_holds *h, aclError status) {
    for (size_t i = 0; i < h->count; i++) rt_memory_drop(h->tokens[i]);
    h->count = 0;
    return status;
}

/* A side of a copy or set that must be device memory. Registered host memory is device
   memory to operators (tensors), but CANN documents that the device address
   aclrtHostRegister maps cannot be used for memory operations such as copies; here that
   address is the host pointer itself, so a device side inside a registered range is it. */
static aclError check_device_range(const char *api, const char *what, const void *ptr, size_t count) {
    const rt_device_range kind = rt_memory_device_range(ptr, count);
    if (kind == RT_RANGE_MALLOCED) return ACL_SUCCESS;
    if (kind == RT_RANGE_REGISTERED)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: %s range [%p, +%zu bytes) is host memory registered by aclrtHostRegister: its "
                            "device address cannot be used for memory operations (copies, sets); pass it as the "
                            "host side of a copy, or copy into aclrtMalloc memory",
                            api, what, ptr, count);
    return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                        "%s: %s range [%p, +%zu bytes) is not inside one live aclrtMalloc block", api, what, ptr,
                        count);
}

/* CANN's runtime refuses a zero or too small destination with 107000, after the acl
   layer's checks. */
static aclError check_capacity(const char *api, const char *capacity_name, size_t capacity, size_t count) {
    if (capacity == 0) return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID, "%s: %s is 0", api, capacity_name);
    if (count > capacity)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID, "%s: count %zu exceeds %s %zu", api, count,
                            capacity_name, capacity);
    return ACL_SUCCESS;
}

/* Checks a copy's arguments (count > 0), in CANN's order: the pointers, the kind, the
   capacity; then, for a blocking copy (same != NULL), *same is 1 when dst == src: CANN's
   synchronous copy returns there, with nothing to copy and nothing more checked.
   Otherwise *dst_dev / *src_dev say which sides are device memory, each checked against
   the live blocks: CANN infers the direction from the pointers, but here a side the kind
   calls device memory must be a live aclrtMalloc block, so that a stale device pointer is
   refused instead of reaching freed memory. */
static aclError check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count,
                           aclrtMemcpyKind kind, int *same, int *dst_dev, int *src_dev) {
    if (same != NULL) *same = 0;
    if (dst == NULL || src == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, dst == NULL ? "dst" : "src");
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: *dst_dev = 0; *src_dev = 0; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: *dst_dev = 1; *src_dev = 0; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: *dst_dev = 0; *src_dev = 1; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: *dst_dev = 1; *src_dev = 1; break;
    case ACL_MEMCPY_DEFAULT:
        /* The runtime tells the sides apart by the blocks it knows; a registered range is
           the host pointer here (its device address takes no copies). */
        *dst_dev = rt_memory_device_range(dst, 0) == RT_RANGE_MALLOCED;
        *src_dev = rt_memory_device_range(src, 0) == RT_RANGE_MALLOCED;
        break;
    default:
        /* CANN's acl layer translates 0..5 only; INNER/INTER_DEVICE_TO_DEVICE (6, 7) are
           declared but refused there too. */
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "%s: kind %d is not a copy kind; use ACL_MEMCPY_HOST_TO_HOST (0) .. "
                            "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (5)",
                            api, (int)kind);
    }
    aclError status = check_capacity(api, "destMax", destMax, count);
    if (status != ACL_SUCCESS) return status;
    if (same != NULL && dst == src) {
        *same = 1;
        return ACL_SUCCESS;
    }
    if (*dst_dev && (status = check_device_range(api, "dst", dst, count)) != ACL_SUCCESS) return status;
    if (*src_dev && (status = check_device_range(api, "src", src, count)) != ACL_SUCCESS) return status;
    /* CANN's runtime in EP mode (aclrtGetRunMode: ACL_HOST, as here) has no asynchronous copy
       within host memory: HOST_TO_HOST, or DEFAULT between two host pointers, is 207000. */
    if (same == NULL && !*dst_dev && !*src_dev)
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: asynchronous host-to-host copies are not supported (%s; the run mode is "
                            "ACL_HOST, CANN's EP mode, which refuses them); copy with aclrtMemcpy or memcpy",
                            api, kind == ACL_MEMCPY_DEFAULT ? "ACL_MEMCPY_DEFAULT with two host pointers" : "kind ACL_MEMCPY_HOST_TO_HOST");
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    static const char api[] = "aclrtMemcpy";
    int done = 0;
    aclError status = rt_memory_enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    int same = 0, dst_dev = 0, src_dev = 0;
    range_holds holds = {{0}, 0};
    hold_range(&holds, dst, count);
    hold_range(&holds, src, count);
    if ((status = check_copy(api, dst, destMax, src, count, kind, &same, &dst_dev, &src_dev)) != ACL_SUCCESS)
        return rt_memory_leave(drop_holds(&holds, status));
    if (same) return rt_memory_leave(drop_holds(&holds, ACL_SUCCESS));
    /* CANN: the copy happens at once, with no implicit device or stream synchronization, so
       work queued on other memory is never waited for. Bytes that unfinished queued work
       writes (or reads, when the copy writes them) are copied once that work is done. */
    mgrt_access accesses[2] = {{.ptr = dst, .bytes = count, .write = 1}, {.ptr = src, .bytes = count, .write = 0}};
    rt_streams_wait_overlapping(accesses, 2);
    memmove(dst, src, count);
    return rt_memory_leave(drop_holds(&holds, ACL_SUCCESS));
}

/* CANN: the memory set may be host or device memory, told apart by the address, and host
   memory must come from acl (aclrtMallocHost): a range inside one live aclrtMallocHost block
   is taken as host memory; anything else must be device memory. */
static aclError check_set(const char *api, void *devPtr, size_t maxCount, size_t count) {
    if (devPtr == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: devPtr is NULL", api);
    aclError status = check_capacity(api, "maxCount", maxCount, count);
    if (status != ACL_SUCCESS) return status;
    return rt_memory_in_host_block(devPtr, count) ? ACL_SUCCESS : check_device_range(api, "devPtr", devPtr, count);
}

/* The start both sets share: enters the memory calls, holds the range and checks it. On
   ACL_SUCCESS with *done == 0 the caller owns the entry and `holds` and must leave through
   rt_memory_leave(drop_holds(...)); otherwise there is nothing to release (a count of 0 is done). */
static aclError enter_set(const char *api, void *devPtr, size_t maxCount, size_t count, range_holds *holds,
                          int *done) {
    aclError status = rt_memory_enter_sized(api, count, done);
    if (status != ACL_SUCCESS || *done) return status;
    hold_range(holds, devPtr, count);
    if ((status = check_set(api, devPtr, maxCount, count)) != ACL_SUCCESS) return rt_memory_leave(drop_holds(holds, status));
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    static const char api[] = "aclrtMemset";
    int done = 0;
    range_holds holds = {{0}, 0};
    aclError status = enter_set(api, devPtr, maxCount, count, &holds, &done);
    if (status != ACL_SUCCESS || done) return status;
    /* Like aclrtMemcpy: waits only for queued work on the bytes it sets. */
    mgrt_access access = {.ptr = devPtr, .bytes = count, .write = 1};
    rt_streams_wait_overlapping(&access, 1);
    memset(devPtr, value, count);
    return rt_memory_leave(drop_holds(&holds, ACL_SUCCESS));
}

/* A queued copy or set. */
typedef struct copy_task {
    void *dst;
    const void *src; /* NULL: a set */
    size_t count;
    int value;
} copy_task;

static int32_t copy_run(void *task) {
    copy_task *t = task;
    if (t->src != NULL)
        memmove(t->dst, t->src, t->count);
    else
        memset(t->dst, t->value, t->count);
    return 0;
}

static void copy_release(void *task) { mgrt_free(task); }

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    static const char api[] = "aclrtMemcpyAsync";
    int done = 0;
    aclError status = rt_memory_enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    int dst_dev = 0, src_dev = 0;
    range_holds holds = {{0}, 0};
    hold_range(&holds, dst, count);
    hold_range(&holds, src, count);
    if ((status = check_copy(api, dst, destMax, src, count, kind, NULL, &dst_dev, &src_dev)) != ACL_SUCCESS)
        return rt_memory_leave(drop_holds(&holds, status));
    /* CANN: with page-locked host memory (aclrtMallocHost, or a range aclrtHostRegister
       locked) the copy is asynchronous; with pageable host memory (malloc) the call returns
       once the copy is done. */
    const int src_pageable = !src_dev && !rt_memory_is_page_locked_host(src, count);
    int pageable = (!dst_dev && !rt_memory_is_page_locked_host(dst, count)) || src_pageable;
    /* Inside a blocking callback the copy may be queued behind that very callback, and
       waiting for it would deadlock (issue 25): a pageable source is staged now, as a driver
       stages pageable memory, so the call can return before the copy runs. */
    const int staged = pageable && src_pageable && rt_streams_in_blocking_callback();
    copy_task *t = mgrt_malloc(sizeof *t + (staged ? count : 0));
    if (t == NULL)
        return rt_memory_leave(drop_holds(&holds, mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMemcpyAsync: out of memory")));
    if (staged) memcpy(t + 1, src, count);
    t->dst = dst;
    t->src = staged ? (const void *)(t + 1) : src;
    t->count = count;
    t->value = 0;
    mgrt_access accesses[2] = {{.ptr = dst, .bytes = count, .write = 1}, {.ptr = src, .bytes = count, .write = 0}};
    status = rt_stream_submit_acl(api, stream, copy_run, copy_release, t, accesses, staged ? 1 : 2, pageable);
    return rt_memory_leave(drop_holds(&holds, status));
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    static const char api[] = "aclrtMemsetAsync";
    int done = 0;
    range_holds holds = {{0}, 0};
    aclError status = enter_set(api, devPtr, maxCount, count, &holds, &done);
    if (status != ACL_SUCCESS || done) return status;
    copy_task *t = mgrt_malloc(sizeof *t);
    if (t == NULL)
        return rt_memory_leave(drop_holds(&holds, mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMemsetAsync: out of memory")));
    t->dst = devPtr;
    t->src = NULL;
    t->count = count;
    t->value = value;
    mgrt_access access = {.ptr = devPtr, .bytes = count, .write = 1};
    return rt_memory_leave(drop_holds(&holds, rt_stream_submit_acl(api, stream, copy_run, copy_release, t, &access, 1, 0)));
}

/* ---- the memory calls that wait for streams ------------------------------------------------ */

/* CANN synchronizes the device first, so the free never races work still queued; its
   errors are the synchronize's. */
aclError aclrtFreeWithDevSync(void *devPtr) {
    aclError status = aclrtSynchronizeDevice();
    if (status != ACL_SUCCESS) return status;
    return rt_memory_free_device("aclrtFreeWithDevSync", devPtr);
}

aclError aclrtHostUnregister(void *ptr) {
    static const char api[] = "aclrtHostUnregister";
    aclError status = rt_memory_enter(api);
    if (status != ACL_SUCCESS) return status;
    if (ptr == NULL) return rt_memory_leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister: ptr is NULL"));
    /* It waits for every stream, the one a blocking callback holds too: refused there. */
    if ((status = rt_refuse_in_blocking_callback(api)) != ACL_SUCCESS) return rt_memory_leave(status);
    /* Launches holding a pin queue first; queued work may still use the range. */
    int found = rt_memory_unregister_begin(ptr);
    if (found) {
        rt_streams_wait_all();
        rt_memory_unregister_end(ptr);
    }
    if (!found)
        return rt_memory_leave(mgrt_fail_at(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                                  "aclrtHostUnregister: %p is not the start of a range registered by "
                                  "aclrtHostRegister (never registered, or unregistered already)",
                                  ptr));
    return rt_memory_leave(ACL_SUCCESS);
}
