/*
 * runtime/rt_state.c: the runtime's life state, a leaf every other file may ask: initialized
 * or not (between aclInit and aclFinalize), a forked child or not, and whether the calling
 * thread is inside an ACL_CALLBACK_BLOCK callback. It calls nothing above the error layer, so
 * contexts, memory and streams check it without depending on aclInit's file (acl_init.c),
 * which sits on top of them all.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "runtime_internal.h"

static atomic_int initialized = 0;
/* fork(): the parent had called aclInit (ever_initialized) when this process was forked from
   it (forked_child). Its stream workers and pool threads do not exist here, and its locks
   and tables are a snapshot of another process's moment: waiting on that work hung for ever
   (issue 25; PyTorch's DataLoader forks). A child gets ACL_ERROR_UNINITIALIZE and a message
   from every call instead, without touching a lock. */
static atomic_int ever_initialized;
static atomic_int forked_child;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void forked_into_child(void) {
    if (!atomic_load(&ever_initialized)) return; /* forked before any aclInit: nothing exists */
    atomic_store(&forked_child, 1);
    atomic_store(&initialized, 0);
}

static void register_atfork(void) { pthread_atfork(NULL, NULL, forked_into_child); }

void rt_state_watch_fork(void) { pthread_once(&atfork_once, register_atfork); }

void rt_state_set_initialized(int on) {
    if (on) atomic_store(&ever_initialized, 1);
    atomic_store(&initialized, on);
}

aclError rt_refuse_if_forked(const char *api) {
    if (!atomic_load(&forked_child)) return ACL_SUCCESS;
    return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE,
                        "%s: this process was forked from one that had called aclInit; the runtime's threads and "
                        "device state do not carry over into a forked child. Call acl in the parent only, fork "
                        "before aclInit, or start the child with exec (Python: the 'spawn' start method, e.g. "
                        "DataLoader(multiprocessing_context='spawn'))",
                        api);
}

int mgrt_initialized(void) { return atomic_load_explicit(&initialized, memory_order_acquire); }

aclError rt_require_init(const char *api) {
    if (mgrt_initialized()) return ACL_SUCCESS;
    if (atomic_load(&forked_child)) return rt_refuse_if_forked(api);
    return mgrt_fail_at(api, ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called", api);
}

/* ---- blocking callbacks ------------------------------------------------------------------- */

/* How many blocking callbacks the calling thread is running now (aclrtProcessReport). */
static _Thread_local int in_blocking_callback;

void rt_blocking_callback_enter(void) { in_blocking_callback++; }
void rt_blocking_callback_leave(void) { in_blocking_callback--; }

int rt_streams_in_blocking_callback(void) { return in_blocking_callback > 0; }

aclError rt_refuse_in_blocking_callback(const char *api) {
    if (!rt_streams_in_blocking_callback()) return ACL_SUCCESS;
    return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: cannot be called inside an ACL_CALLBACK_BLOCK callback: it waits for streams, and the "
                        "callback's stream stands at the callback until it returns",
                        api);
}
