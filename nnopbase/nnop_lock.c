/*
 * nnopbase/nnop_lock.c: the locks of the tensor base's objects (a tensor's descriptor, an
 * executor's slots), safe across fork().
 *
 * A forked child has one thread; a lock that another parent thread held at the fork stays
 * held in the child for ever, and the child's first use of that object hangs (round-3 attack:
 * 5 of 200 children hung in aclGetViewShape while two parent threads used the tensor). The
 * objects are too many to lock around a fork, so each lock remembers the fork generation it
 * was made in, and the first lock in a child of a later fork makes it afresh (under a lock of
 * the child's own, in case the child starts threads). What the lost holder was writing may
 * be half written: only a program that raced its own fork with a write of that object sees
 * it, as it would see any of its own data half written.
 *
 * The mutexes check their owner (runtime/rt_lock.h): a path of the tensor base that gives
 * back a lock it does not hold, or takes one it holds, stops the process naming the call.
 */
#define _GNU_SOURCE /* PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP (rt_lock.h) */
#include "nnop_internal.h"
#include "rt_lock.h"

/* Forks this process has been a child of (0 in the first process). */
static atomic_uint fork_generation;
/* Taken while a stale lock is made afresh; around fork() so no child inherits it held. */
static pthread_mutex_t remaking = RT_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void) { RT_LOCK(&remaking); }
static void fork_parent(void) { RT_UNLOCK(&remaking); }
static void fork_child(void) {
    rt_mutex_init_checked(&remaking);
    atomic_fetch_add_explicit(&fork_generation, 1, memory_order_release);
}
static void register_atfork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

void nnop_lock_init(nnop_lock *l) {
    pthread_once(&atfork_once, register_atfork);
    rt_mutex_init_checked(&l->mutex);
    atomic_store_explicit(&l->generation, atomic_load_explicit(&fork_generation, memory_order_acquire),
                          memory_order_relaxed);
}

void nnop_lock_take(nnop_lock *l) {
    const unsigned now = atomic_load_explicit(&fork_generation, memory_order_acquire);
    if (atomic_load_explicit(&l->generation, memory_order_acquire) != now) {
        /* made before this process was forked: its holder may not exist here */
        RT_LOCK(&remaking);
        if (atomic_load_explicit(&l->generation, memory_order_relaxed) != now) {
            rt_mutex_init_checked(&l->mutex);
            atomic_store_explicit(&l->generation, now, memory_order_release);
        }
        RT_UNLOCK(&remaking);
    }
    RT_LOCK(&l->mutex);
}

void nnop_lock_give(nnop_lock *l) { RT_UNLOCK(&l->mutex); }

void nnop_lock_destroy(nnop_lock *l) { pthread_mutex_destroy(&l->mutex); }
