/*
 * runtime/acl_context.c: device 0 and contexts.
 *
 * As on a device, the current context belongs to the calling thread. aclrtSetDevice(0) makes
 * the device's default context current; aclrtCreateContext creates another and makes it
 * current; aclrtSetCurrentContext picks one. The calls that need a context (memory, streams,
 * events, launches) fail with ACL_ERROR_RT_CONTEXT_NULL on a thread that has none. Each
 * context has its own default stream (the NULL stream of the threads using it).
 *
 * Contexts are registry handles (MGRT_HANDLE_CONTEXT): a thread keeps the token, so a
 * context destroyed by another thread is seen as gone, never as freed memory.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

static pthread_mutex_t context_lock = RT_MUTEX_INITIALIZER;
/* The default context of device 0: created by the first aclrtSetDevice after aclInit. */
static void *default_context_token;
static int device_set_count; /* aclrtSetDevice calls not yet undone by aclrtResetDevice */

static _Thread_local void *current_context_token;

/* The stream layer's hooks (rt_context_set_stream_hooks): set at every aclInit, to the same
   value, before any context exists; atomic because a context may go on any thread. */
static _Atomic(const rt_context_stream_hooks *) stream_hooks;

void rt_context_set_stream_hooks(const rt_context_stream_hooks *hooks) {
    atomic_store_explicit(&stream_hooks, hooks, memory_order_release);
}

static void context_destroy(void *object) {
    rt_context *ctx = object;
    const rt_context_stream_hooks *hooks = atomic_load_explicit(&stream_hooks, memory_order_acquire);
    if (hooks != NULL) hooks->release_default(ctx);
    free(ctx);
}

static aclError check_device(const char *api, int32_t deviceId) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (deviceId != 0)
        return mgrt_fail_at(api, ACL_ERROR_RT_INVALID_DEVICEID,
                            "%s: deviceId %d is invalid; this runtime has one device, 0 (the CPU)", api, (int)deviceId);
    return ACL_SUCCESS;
}

static aclError new_context(const char *api, int is_default, void **token) {
    /* Plain calloc: outside MISHGRAD_FAULT_ALLOC's count, so aclrtSetDevice did not renumber
       the library's injectable allocations. */
    rt_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a context", api);
    ctx->is_default = is_default;
    void *handle = mgrt_handle_register(MGRT_HANDLE_CONTEXT, ctx, context_destroy);
    if (handle == NULL) {
        free(ctx);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory registering a context", api);
    }
    ctx->token = handle;
    *token = handle;
    return ACL_SUCCESS;
}

rt_context *rt_context_enter(const char *api, aclError *status) {
    *status = rt_require_init(api);
    if (*status != ACL_SUCCESS) return NULL;
    void *token = current_context_token;
    rt_context *ctx = token ? mgrt_handle_pin(token, MGRT_HANDLE_CONTEXT) : NULL;
    if (ctx != NULL) return ctx;
    if (token == NULL)
        *status = mgrt_fail_at(api, ACL_ERROR_RT_CONTEXT_NULL,
                               "%s: the calling thread has no current context; call aclrtSetDevice(0) or "
                               "aclrtSetCurrentContext on this thread first",
                               api);
    else
        *status = mgrt_fail_at(api, ACL_ERROR_RT_CONTEXT_NULL,
                               "%s: the calling thread's current context %p %s; call aclrtSetDevice(0) or "
                               "aclrtSetCurrentContext on this thread",
                               api, token, mgrt_handle_describe(token, MGRT_HANDLE_CONTEXT));
    return NULL;
}

void rt_context_leave(rt_context *ctx) {
    if (ctx != NULL) mgrt_handle_unpin(ctx->token);
}

aclError rt_require_context(const char *api) {
    aclError status;
    rt_context *ctx = rt_context_enter(api, &status);
    rt_context_leave(ctx);
    return status;
}

aclError aclrtSetDevice(int32_t deviceId) {
    aclError status = check_device("aclrtSetDevice", deviceId);
    if (status != ACL_SUCCESS) return status;
    RT_LOCK(&context_lock);
    if (default_context_token == NULL ||
        mgrt_handle_state_of(default_context_token, MGRT_HANDLE_CONTEXT) != MGRT_HANDLE_LIVE)
        status = new_context("aclrtSetDevice", 1, &default_context_token);
    if (status == ACL_SUCCESS) {
        device_set_count++;
        current_context_token = default_context_token;
    }
    RT_UNLOCK(&context_lock);
    return status;
}

/* As CANN documents: each aclrtSetDevice counts one, each aclrtResetDevice undoes one, and
   only the last (or aclrtResetDeviceForce) releases the default context, its default stream
   and the streams created in it, once their queued work is done. Contexts from
   aclrtCreateContext are the program's and stay. */
static aclError reset_device(const char *api, int32_t deviceId, int force) {
    aclError status = check_device(api, deviceId);
    if (status != ACL_SUCCESS) return status;
    /* It may drain the callback's own stream: from inside a blocking callback it hung. */
    if ((status = rt_refuse_in_blocking_callback(api)) != ACL_SUCCESS) return status;
    RT_LOCK(&context_lock);
    if (device_set_count == 0) {
        RT_UNLOCK(&context_lock);
        return mgrt_fail_at(api, ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                            "%s: device %d: the device has not been set or has already been reset", api,
                            (int)deviceId);
    }
    device_set_count = force ? 0 : device_set_count - 1;
    void *released = NULL;
    if (device_set_count == 0) {
        released = default_context_token;
        default_context_token = NULL;
    }
    RT_UNLOCK(&context_lock);
    if (released == NULL) return ACL_SUCCESS;
    /* The context first, so that no thread creates a stream in it any more. Its default
       stream drains as it goes (context_destroy); other threads whose current context it
       was hold a stale token, and their calls get ACL_ERROR_RT_CONTEXT_NULL. */
    mgrt_handle_release(released, MGRT_HANDLE_CONTEXT);
    if (current_context_token == released) current_context_token = NULL;
    const rt_context_stream_hooks *hooks = atomic_load_explicit(&stream_hooks, memory_order_acquire);
    size_t streams = hooks != NULL ? hooks->release_of_context(released) : 0;
    if (streams > 0)
        mgrt_log(MGRT_LOG_INFO, "RUNTIME", "%s: released %zu stream(s) of the default context", api, streams);
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) { return reset_device("aclrtResetDevice", deviceId, 0); }
aclError aclrtResetDeviceForce(int32_t deviceId) { return reset_device("aclrtResetDeviceForce", deviceId, 1); }

aclError aclrtGetDevice(int32_t *deviceId) {
    static const char api[] = "aclrtGetDevice";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (deviceId == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is NULL");
    if ((status = rt_require_context(api)) != ACL_SUCCESS) return status;
    *deviceId = 0;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    aclError status = rt_require_init("aclrtGetDeviceCount");
    if (status != ACL_SUCCESS) return status;
    if (count == NULL)
        return mgrt_fail_at("aclrtGetDeviceCount", ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
    *count = 1;
    return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
    static const char api[] = "aclrtCreateContext";
    aclError status = check_device(api, deviceId);
    if (status != ACL_SUCCESS) return status;
    if (context == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is NULL");
    void *token = NULL;
    if ((status = new_context(api, 0, &token)) != ACL_SUCCESS) return status;
    current_context_token = token;
    *context = token;
    return ACL_SUCCESS;
}

/* NULL with the message set unless `context` is a live context. */
static aclError check_context(const char *api, aclrtContext context) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (context == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: context is NULL", api);
    if (mgrt_handle_state_of(context, MGRT_HANDLE_CONTEXT) != MGRT_HANDLE_LIVE)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: context %p %s", api, context,
                            mgrt_handle_describe(context, MGRT_HANDLE_CONTEXT));
    return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
    static const char api[] = "aclrtDestroyContext";
    aclError status = check_context(api, context);
    if (status != ACL_SUCCESS) return status;
    if ((status = rt_refuse_in_blocking_callback(api)) != ACL_SUCCESS) return status; /* as reset_device */
    rt_context *ctx = mgrt_handle_pin(context, MGRT_HANDLE_CONTEXT);
    if (ctx == NULL) return check_context(api, context);
    int is_default = ctx->is_default;
    mgrt_handle_unpin(context);
    /* CANN's ContextDestroy: "primary context cannot be destroyed explicitly", 107002. */
    if (is_default)
        return mgrt_fail_at(api, ACL_ERROR_RT_CONTEXT_NULL,
                            "aclrtDestroyContext: context %p is the default context of device 0 (from "
                            "aclrtSetDevice); only contexts from aclrtCreateContext can be destroyed",
                            context);
    if (!mgrt_handle_release(context, MGRT_HANDLE_CONTEXT)) return check_context(api, context);
    if (current_context_token == context) current_context_token = NULL;
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    aclError status = check_context("aclrtSetCurrentContext", context);
    if (status == ACL_SUCCESS) current_context_token = context;
    return status;
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
    static const char api[] = "aclrtGetCurrentContext";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (context == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is NULL");
    rt_context *ctx = rt_context_enter(api, &status);
    if (ctx == NULL) return status;
    *context = ctx->token;
    rt_context_leave(ctx);
    return ACL_SUCCESS;
}

void rt_contexts_finalize(void) {
    RT_LOCK(&context_lock);
    /* The default context is the runtime's, not a leak: released quietly. */
    if (default_context_token != NULL) mgrt_handle_release(default_context_token, MGRT_HANDLE_CONTEXT);
    default_context_token = NULL;
    device_set_count = 0;
    RT_UNLOCK(&context_lock);
    /* Every context (the default one too) is reclaimed with the other handles. The calling
       thread's token goes stale; other threads' tokens are stale too, and resolve to nothing. */
    current_context_token = NULL;
}
