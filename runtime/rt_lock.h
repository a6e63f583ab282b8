/*
 * runtime/rt_lock.h: the runtime's mutexes, checked.
 *
 * glibc's default mutex lets a thread unlock a mutex it does not hold, or wait on a
 * condition with one it does not hold, and says nothing: a path that forgot its lock then
 * races only when another thread happens to be inside, which no test meets reliably. The
 * runtime's mutexes check their owner (PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP): a lock,
 * unlock or wait that breaks the owner rule, or a lock of a mutex the thread already holds
 * (which would hang), stops the process with a message naming the mutex, at the call. That
 * is the runtime's own bug, never the caller's: nothing sound can follow it. A libc without
 * the initializer gets default mutexes: the same behaviour for correct code, unchecked.
 *
 * A fork() child makes anew (rt_mutex_init_checked) the mutexes its fork handlers took: the
 * child's thread is not the owner the parent's lock recorded. libnnopbase's object locks
 * (nnopbase/nnop_lock.c) and the AscendC twin's are checked the same way: CMake compiles
 * rt_lock.c into each of the three libraries. (python/csrc/mg_lock.h is the Python
 * extension's copy of this rule: the package builds from python/ alone.)
 */
#ifndef RT_LOCK_H_
#define RT_LOCK_H_

#include <errno.h>
#include <pthread.h>
#include <time.h>

#ifdef PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#define RT_MUTEX_INITIALIZER PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#else
#define RT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#endif

/* rt_lock.c: prints "mishgrad: internal error: " and the message on stderr, and aborts: a
   broken invariant of the library's own, where going on would corrupt memory or hang. */
_Noreturn void rt_internal_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* rt_lock.c: says which call failed on which mutex, and aborts. */
_Noreturn void rt_lock_broken(const char *call, const char *mutex, int error);
/* rt_lock.c: `m` made a new, unlocked, error-checking mutex (a mutex in memory of its own,
   or one a fork child's handler makes anew). */
void rt_mutex_init_checked(pthread_mutex_t *m);

static inline void rt_lock_take(pthread_mutex_t *m, const char *name) {
    const int error = pthread_mutex_lock(m);
    if (error != 0) rt_lock_broken("pthread_mutex_lock", name, error);
}

static inline void rt_lock_give(pthread_mutex_t *m, const char *name) {
    const int error = pthread_mutex_unlock(m);
    if (error != 0) rt_lock_broken("pthread_mutex_unlock", name, error);
}

static inline void rt_lock_wait(pthread_cond_t *c, pthread_mutex_t *m, const char *name) {
    const int error = pthread_cond_wait(c, m);
    if (error != 0) rt_lock_broken("pthread_cond_wait", name, error);
}

/* 0, or ETIMEDOUT once `deadline` has passed, on the condition's clock (stream_progress:
   CLOCK_MONOTONIC, stream_queue.c). */
static inline int rt_lock_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *deadline,
                                    const char *name) {
    const int error = pthread_cond_timedwait(c, m, deadline);
    if (error != 0 && error != ETIMEDOUT) rt_lock_broken("pthread_cond_timedwait", name, error);
    return error;
}

/* Each takes a pointer to the mutex (and to the condition), as pthreads does. */
#define RT_LOCK(m) rt_lock_take((m), #m)
#define RT_UNLOCK(m) rt_lock_give((m), #m)
#define RT_WAIT(c, m) rt_lock_wait((c), (m), #m)
#define RT_TIMEDWAIT(c, m, deadline) rt_lock_timedwait((c), (m), (deadline), #m)

#endif /* RT_LOCK_H_ */
