/* runtime/runtime_internal.h: state shared by the files of libascendcl only. */
#ifndef RUNTIME_INTERNAL_H_
#define RUNTIME_INTERNAL_H_

#include "mgrt.h"
#include "rt_lock.h"

/* acl_error.c: re-reads ASCEND_GLOBAL_LOG_LEVEL and ASCEND_SLOG_PRINT_TO_STDOUT. */
void rt_log_configure(void);
/* acl_error.c: a WARNING line shown at the default log level (hidden only when the log is
   off, ASCEND_GLOBAL_LOG_LEVEL=4): what aclFinalize reclaimed. */
void rt_log_notice(const char *module, const char *fmt, ...) MGRT_PRINTF(2, 3);

/* acl_memory.c: releases every live block (aclFinalize); returns how many there were. */
size_t rt_memory_release_all(void);
/* fault_injection.c: reads MISHGRAD_FAULT_ALLOC, MISHGRAD_FAULT_STEP, MISHGRAD_FAULT_HANDLE and
   MISHGRAD_FAULT_LATE (aclInit). */
void rt_fault_configure(void);
/* fault_injection.c: counts one handle registration; 1 when it is the one
   MISHGRAD_FAULT_HANDLE planned to fail (handle_registry.c then refuses it). */
int rt_fault_registration_fails(void);
/* fault_injection.c: no fault planned any more (aclFinalize). */
void rt_fault_disarm(void);
/* fault_injection.c: counts one piece of work queued on a stream; when it is the one
   MISHGRAD_FAULT_STEP planned to fail, returns its number N (>= 1), else 0. */
long rt_fault_step_planned(void);
/* fault_injection.c: 1 for the first call of the API MISHGRAD_FAULT_LATE names (that call is
   then counted as held until rt_fault_late_done), else 0. */
int rt_fault_late_call(const char *api);
void rt_fault_late_done(void);

/* acl_memory.c: pins the blocks that hold all of [ptr, ptr + bytes) (a device block or
   registered range, and an aclrtMallocHost block: at most two), writing one token per pin to
   `tokens`; returns how many. live_only: skip a block already freed (else a freed block
   whose memory is still allocated, because a pin holds it, is pinned too). While pinned, a
   block's memory stays allocated: aclrtFree / aclrtFreeHost of it defer the real free to
   the last rt_memory_drop. */
size_t rt_memory_hold(const void *ptr, uint64_t bytes, int live_only, uintptr_t tokens[2]);
void rt_memory_drop(uintptr_t token);

/* acl_memory.c, for the calls above memory (acl_copy.c). rt_memory_enter holds the memory
   layer's life lock for reading (aclFinalize waits for it) and checks the runtime and the
   calling thread's context; on failure nothing is held. rt_memory_enter_sized does the same,
   but a zero count succeeds with *done 1 and nothing held (CANN returns before every other
   check when there is nothing to copy or set). rt_memory_leave drops the lock, passing
   `status` through. */
aclError rt_memory_enter(const char *api);
aclError rt_memory_enter_sized(const char *api, size_t count, int *done);
aclError rt_memory_leave(aclError status);
/* What [ptr, ptr + bytes) is among the device blocks, in one lookup: inside no block,
   inside an aclrtMalloc block, or inside a range from aclrtHostRegister. */
typedef enum rt_device_range { RT_RANGE_NOT_DEVICE, RT_RANGE_MALLOCED, RT_RANGE_REGISTERED } rt_device_range;
rt_device_range rt_memory_device_range(const void *ptr, uint64_t bytes);
/* 1 when [ptr, ptr + bytes) lies inside one live aclrtMallocHost block. */
int rt_memory_in_host_block(const void *ptr, uint64_t bytes);
/* 1 when [ptr, ptr + bytes) is page-locked host memory: inside one aclrtMallocHost block,
   or a range aclrtHostRegister locked. */
int rt_memory_is_page_locked_host(const void *ptr, uint64_t bytes);
/* aclrtFree of a device block, as `api` (inside rt_memory_enter's lock: it takes it itself). */
aclError rt_memory_free_device(const char *api, void *devPtr);
/* aclrtHostUnregister in two steps around its wait for the streams: _begin marks the
   registered range starting at `ptr` dying (no new pins, not live) and waits until no pin
   is held (a launch that checked it has queued its work, and the queued work holding it has
   run); 0 when no live registered range starts there (or another call has it). _end takes
   the range out of the table. */
int rt_memory_unregister_begin(const void *ptr);
void rt_memory_unregister_end(const void *ptr);

/* stream_finalize.c: streams take work from now on (aclInit); installs the context hooks. */
void rt_streams_open(void);
/* stream_wait.c: waits for the work queued so far on every stream, leaving any error for
   the next synchronize (memory calls use it so they never race queued work). */
void rt_streams_wait_all(void);
/* stream_race.c: for a blocking call (aclrtMemcpy, aclrtMemset) about to touch `accesses`:
   waits for the unfinished queued tasks whose declared ranges overlap them (one side
   writing), and for nothing else, leaving any error for the next synchronize. */
void rt_streams_wait_overlapping(const mgrt_access *accesses, size_t access_count);
/* stream_finalize.c: drains and destroys every stream, the default one too (aclFinalize);
   returns how many user streams were still alive. */
size_t rt_streams_destroy_all(void);

/* ---- the life state (rt_state.c, a leaf) --------------------------------------------------- */

/* 0 or ACL_ERROR_UNINITIALIZE with the message set, naming `api`. */
aclError rt_require_init(const char *api);
/* 0, or ACL_ERROR_UNINITIALIZE with the message set in a child forked from a process that
   had called aclInit (nothing of the parent's runtime works there). */
aclError rt_refuse_if_forked(const char *api);
/* aclInit: watch for fork() from now on (once per process). */
void rt_state_watch_fork(void);
/* aclInit (1) and aclFinalize (0): what mgrt_initialized answers. */
void rt_state_set_initialized(int on);
/* aclrtProcessReport, around each ACL_CALLBACK_BLOCK callback it runs. */
void rt_blocking_callback_enter(void);
void rt_blocking_callback_leave(void);
/* 1 while the calling thread runs an ACL_CALLBACK_BLOCK callback (inside
   aclrtProcessReport): a pageable copy queued then must not wait for itself. */
int rt_streams_in_blocking_callback(void);
/* 0, or 207000 with the message set when the calling thread runs an ACL_CALLBACK_BLOCK
   callback (calls that wait for whole contexts or every stream). */
aclError rt_refuse_in_blocking_callback(const char *api);

/* acl_config.c: checks aclInit's configuration file as CANN does (NULL or "": none);
   0, ACL_ERROR_INVALID_FILE or ACL_ERROR_PARSE_FILE with the message set. */
aclError rt_config_check(const char *api, const char *path);

/* acl_error.c: records `code` as the calling thread's last runtime error (what
   aclrtGetLastError returns) when it is one of the runtime layer's codes. mgrt_fail does
   it for every failure; a stream's queued failure reaches its synchronizer through this. */
void rt_last_error_note(int32_t code);

/* acl_error.c: removes the newest message from the calling thread's list and copies it to
   `out` ("" when there is none): a failed task's message belongs to its stream. */
void rt_error_take_latest(char *out, size_t capacity);

/* ---- contexts (acl_context.c) ----------------------------------------------------------- */

struct stream;
typedef struct rt_context {
    void *token;                    /* its registry handle (MGRT_HANDLE_CONTEXT) */
    int is_default;                 /* device 0's default context (aclrtSetDevice) */
    struct stream *default_stream;  /* the NULL stream of this context; guarded by acl_stream.c */
} rt_context;
/* The calling thread's current context, pinned (release with rt_context_leave); NULL with
   *status ACL_ERROR_UNINITIALIZE or ACL_ERROR_RT_CONTEXT_NULL and the message set. */
rt_context *rt_context_enter(const char *api, aclError *status);
void rt_context_leave(rt_context *ctx);
/* 0, or the status (and message) of rt_context_enter. */
aclError rt_require_context(const char *api);
/* aclFinalize: the default context goes; every thread's current context is gone. */
void rt_contexts_finalize(void);
/* What a context's end does to its streams. Contexts sit below the streams, so the stream
   layer installs these (rt_streams_open, at aclInit, before any context exists):
   release_default drains and releases a context's default stream as the context goes;
   release_of_context finishes the work of every stream created in the context
   `context_token`, releases their handles and returns how many there were. */
typedef struct rt_context_stream_hooks {
    void (*release_default)(rt_context *ctx);
    size_t (*release_of_context)(const void *context_token);
} rt_context_stream_hooks;
void rt_context_set_stream_hooks(const rt_context_stream_hooks *hooks);

/* ---- streams (stream_finalize.c, acl_stream.c) -------------------------------------------------------- */

/* stream_finalize.c: a context's default stream goes with it (drained first). */
void rt_stream_release_default(rt_context *ctx);
/* Finishes the work queued on every stream created in the context `context_token`, then
   releases their handles (they become stale); returns how many there were. */
size_t rt_streams_release_of_context(const void *context_token);
/* Queues a task for an acl call (aclrtMemcpyAsync, ...): acl status codes, message set; on
   failure release(task) ran. wait_done: return only once the task has run. */
aclError rt_stream_submit_acl(const char *api, aclrtStream stream, mgrt_task_run_fn run,
                              mgrt_task_release_fn release, void *task, const mgrt_access *accesses,
                              size_t access_count, int wait_done);

/* A process-wide mutex that a fork() child never inherits held by a thread the child does not
   have: the forking thread takes it around the fork (pthread_atfork, registered on first use),
   the parent gives it back, the child makes it anew (its thread is not the owner the lock
   recorded). Defines `static void take(void)`, which starts every critical section of
   `mutex`; each section must be short and take no other lock made so. Needs <pthread.h>. */
#define RT_FORK_SAFE_LOCK(mutex, take)                                                             \
    static pthread_once_t take##_atfork_once = PTHREAD_ONCE_INIT;                                  \
    static void take##_fork_prepare(void) { rt_lock_take(&(mutex), #mutex); }                      \
    static void take##_fork_parent(void) { rt_lock_give(&(mutex), #mutex); }                       \
    static void take##_fork_child(void) { rt_mutex_init_checked(&(mutex)); }                             \
    static void take##_register_atfork(void) {                                                     \
        pthread_atfork(take##_fork_prepare, take##_fork_parent, take##_fork_child);                \
    }                                                                                              \
    static void take(void) {                                                                       \
        pthread_once(&take##_atfork_once, take##_register_atfork);                                 \
        rt_lock_take(&(mutex), #mutex);                                                            \
    }

#endif /* RUNTIME_INTERNAL_H_ */
