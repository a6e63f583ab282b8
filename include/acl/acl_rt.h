/*
 * acl/acl_rt.h: the runtime, laid out as CANN's acl/acl_rt.h: initialisation and the recent
 * error message, devices and contexts, streams, events, host callbacks and memory.
 *
 * Device 0 is this CPU. aclrtMalloc returns host memory that the runtime tracks; a stream is
 * an in-order queue served by a worker thread; an event is a marker queued on a stream. As on
 * a device, the current context belongs to the calling thread (set by aclrtSetDevice or
 * aclrtSetCurrentContext) and the calls that need one fail with ACL_ERROR_RT_CONTEXT_NULL
 * without it. docs/runtime.md describes every function and where it differs from a device.
 */
#ifndef ACL_ACL_RT_H_
#define ACL_ACL_RT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag flags. */
/* CANN's ACL interface version, as its acl_rt.h defines it (aclrtGetVersion, deprecated
   in CANN, returns MishGradV2's own version instead: docs/runtime.md) */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* aclrtCreateStreamWithConfig flags. */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

typedef enum aclrtRunMode {
    ACL_DEVICE = 0,
    ACL_HOST = 1
} aclrtRunMode;

typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2
} aclrtEventStatus;

typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF
} aclrtEventWaitStatus;

typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK = 0,
    ACL_CALLBACK_BLOCK = 1
} aclrtCallbackBlockType;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

typedef enum {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04,
    ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1,
    ACL_DDR_MEM_HUGE = 2,
    ACL_DDR_MEM_NORMAL = 3,
    ACL_HBM_MEM_HUGE = 4,
    ACL_HBM_MEM_NORMAL = 5,
    ACL_DDR_MEM_P2P_HUGE = 6,
    ACL_DDR_MEM_P2P_NORMAL = 7,
    ACL_HBM_MEM_P2P_HUGE = 8,
    ACL_HBM_MEM_P2P_NORMAL = 9,
    ACL_HBM_MEM_HUGE1G = 10,
    ACL_HBM_MEM_P2P_HUGE1G = 11,
    ACL_MEM_NORMAL = 12,
    ACL_MEM_HUGE = 13,
    ACL_MEM_HUGE1G = 14,
    ACL_MEM_P2P_NORMAL = 15,
    ACL_MEM_P2P_HUGE = 16,
    ACL_MEM_P2P_HUGE1G = 17
} aclrtMemAttr;

typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0,
    ACL_RT_STREAM_WORK_SIZE = 1,
    ACL_RT_STREAM_FLAG = 2,
    ACL_RT_STREAM_PRIORITY = 3
} aclrtStreamConfigAttr;

typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/* aclrtGetLastError / aclrtPeekAtLastError: whose last error (CANN: the thread's only). */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* A host function queued on a stream by aclrtLaunchCallback. */
typedef void (*aclrtCallback)(void *userData);

/* ---- initialisation and errors -------------------------------------------------------- */

/* Starts the runtime. `configPath` NULL or "" names no file; a file given is checked as CANN
   checks it (ACL_ERROR_INVALID_FILE: no such path, not a regular file, over 10 MiB, cannot
   be opened; ACL_ERROR_PARSE_FILE: not JSON, or objects/arrays nested over 10 deep; empty:
   fine) and its options are not interpreted. A second call returns
   ACL_ERROR_REPEAT_INITIALIZE and counts one more reference for aclFinalizeReference. An
   unknown MISHGRAD_SOC_VERSION fails here with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Drains and releases every stream, event, context and memory block still alive (a warning
   lists what it reclaimed), whatever the aclInit count. Calls racing it on other threads get
   an error status. Again after a completed aclFinalize (and no aclInit since):
   ACL_ERROR_REPEAT_FINALIZE; in a process that never initialized: ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/* Removes one aclInit reference; the last one finalizes as aclFinalize does. `refCount`
   (may be NULL) receives the references left. None left: ACL_ERROR_REPEAT_FINALIZE. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);
/* Gets and clears the messages of the calling thread's recent failures, newest first; NULL
   when there are none (or they were read already). Valid until the thread's next ACL call. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);
/* The calling thread's last runtime-layer error code (ACL_ERROR_RT_*: 107xxx, 207xxx,
   507xxx), ACL_SUCCESS when none; Peek leaves it, Get clears it. A level other than
   ACL_RT_THREAD_LEVEL: ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/* ---- host callbacks --------------------------------------------------------------------- */

/* `threadId` (a pthread_t as returned by pthread_self, cast to uint64_t) will run the
   callbacks that aclrtLaunchCallback queues on `stream`, when it calls aclrtProcessReport. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
/* Queues fn(userData) on `stream` (which must be subscribed). ACL_CALLBACK_BLOCK: the work
   queued after it waits until the callback has returned; ACL_CALLBACK_NO_BLOCK: it does not. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);
/* On a subscribed thread: runs the callbacks due to it, waiting up to `timeout` ms (-1: for
   ever) for the first; ACL_ERROR_RT_REPORT_TIMEOUT when none came in time. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/* ---- contexts and devices ------------------------------------------------------------- */

/* Creates a context on device 0 and makes it the calling thread's current one. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
/* Only a context from aclrtCreateContext; a thread whose current context it was has none. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
/* ACL_ERROR_RT_CONTEXT_NULL when the calling thread has no current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/* Device 0 is the only device; any other id is ACL_ERROR_RT_INVALID_DEVICEID. Sets the
   device's default context as the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
/* Undoes one aclrtSetDevice. The last one (aclrtResetDeviceForce: any) releases the default
   context, its default stream and the streams created in it, once their queued work is
   done; then a thread whose current context it was has none. With no aclrtSetDevice left
   to undo: ACL_ERROR_RT_CONTEXT_RELEASE_ERROR. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
/* ACL_HOST: the program runs on the host, and device memory is not host memory. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);
/* Waits for the work queued on every stream; returns the first error of that work. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
/* Same with a limit in ms (-1: none); ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when it passes. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/* ---- events ---------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* `flag`: a combination of the ACL_EVENT_* flags above. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
/* Queues the event on `stream` (NULL: the default stream): it completes, and takes its
   time stamp, when the work queued before it on that stream has finished. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);
/* Blocks until the event's last record has completed (at once when it was never recorded). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* Same with a limit in ms (-1: none, 0: just check); ACL_ERROR_RT_EVENT_SYNC_TIMEOUT. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
/* Milliseconds between the completions of two completed records. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* ---- memory ------------------------------------------------------------------------------ */

/* Device memory: at least 64-byte aligned; the runtime keeps every live block and its size.
   Any policy value is taken (CANN: one outside the enum is the default policy). */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* As aclrtMalloc (a device cache policy; the same memory here); freed by aclrtFree. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* Host memory made usable as device memory in place (zero copy): *devPtr is ptr itself, and
   the range counts as a live device block until aclrtHostUnregister(ptr). */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
/* aclrtSynchronizeDevice, then aclrtFree; a failed synchronize frees nothing. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);
/* Copies `count` bytes, checked in CANN's order: count 0 succeeds; NULL dst or src, or a kind
   outside 0..5, ACL_ERROR_INVALID_PARAM; destMax 0 or below count, ACL_ERROR_RT_PARAM_INVALID;
   dst == src succeeds without copying; a device-side range not inside one live device
   block, ACL_ERROR_INVALID_PARAM. Nothing is copied on failure. A blocking copy: it first
   waits for the work already queued on every stream, whose errors stay for
   aclrtSynchronizeStream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
/* Queued on `stream` in order with its other work; the arguments are checked at the call. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);
/* Free and total bytes of this machine's memory. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* ---- streams ----------------------------------------------------------------------------- */

/* A stream is an in-order queue. NULL names the default stream of the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* `priority` 0..7 (kept, no effect on a CPU); `flag`: ACL_STREAM_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
/* Finishes the work still queued on `stream`, then releases it. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
/* Waits for all queued work; returns the first error of that work (and its message). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* Same with a limit in ms (-1: none, 0: just check); ACL_ERROR_RT_STREAM_SYNC_TIMEOUT. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
/* The work queued on `stream` after this call waits until `event`'s last record completes. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/* ---- version --------------------------------------------------------------------------- */

/* MishGradV2's own version (mishgrad/version.h), not CANN's. */
ACL_DEPRECATED_MESSAGE("aclrtGetVersion is deprecated, use aclSysGetVersion instead")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H_ */
