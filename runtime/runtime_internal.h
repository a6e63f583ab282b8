/* runtime/runtime_internal.h: state shared by the files of libascendcl only. */
#ifndef RUNTIME_INTERNAL_H_
#define RUNTIME_INTERNAL_H_

#include "mgrt.h"

/* acl_error.c: re-reads ASCEND_GLOBAL_LOG_LEVEL and ASCEND_SLOG_PRINT_TO_STDOUT. */
void rt_log_configure(void);
/* acl_error.c: a WARNING line shown at the default log level (hidden only when the log is
   off, ASCEND_GLOBAL_LOG_LEVEL=4): what aclFinalize reclaimed. */
void rt_log_notice(const char *module, const char *fmt, ...) MGRT_PRINTF(2, 3);

/* acl_memory.c: releases every live block (aclFinalize); returns how many there were. */
size_t rt_memory_release_all(void);
/* fault_injection.c: reads MISHGRAD_FAULT_ALLOC and MISHGRAD_FAULT_STEP (aclInit). */
void rt_fault_configure(void);
/* fault_injection.c: no fault planned any more (aclFinalize). */
void rt_fault_disarm(void);
/* fault_injection.c: counts one piece of work queued on a stream; when it is the one
   MISHGRAD_FAULT_STEP planned to fail, returns its number N (>= 1), else 0. */
long rt_fault_step_planned(void);

/* acl_stream.c: streams take work from now on (aclInit). */
void rt_streams_open(void);
/* acl_stream.c: waits for the work queued so far on every stream, leaving any error for
   the next synchronize (memory calls use it so they never race queued work). */
void rt_streams_wait_all(void);
/* acl_stream.c: drains and destroys every stream, the default one too (aclFinalize);
   returns how many user streams were still alive. */
size_t rt_streams_destroy_all(void);

/* acl_init.c: 0 or ACL_ERROR_UNINITIALIZE with the message set, naming `api`. */
aclError rt_require_init(const char *api);

/* acl_objects.c: the live runtime objects, by address and kind. */
enum { RT_OBJECT_DATA_BUFFER = 1, RT_OBJECT_EVENT = 2, RT_OBJECT_CONTEXT = 3 };
int rt_object_add(int kind, const void *object); /* 0 when memory runs out */
void rt_object_lock(void);
void rt_object_unlock(void);
int rt_object_live_locked(int kind, const void *object);
int rt_object_remove_locked(int kind, const void *object);
/* Unregisters every object of `kind`, calling release(object) on each (lock held: release
   must not call back into the set); returns how many. */
size_t rt_object_release_all(int kind, void (*release)(void *object));

#endif /* RUNTIME_INTERNAL_H_ */
