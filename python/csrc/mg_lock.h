/*
 * mg_lock.h: the extension's mutexes, checked.
 *
 * glibc's default mutex lets a thread unlock a mutex it does not hold, or wait on a
 * condition with one it does not hold, and says nothing: a path that forgot its lock then
 * races only when another thread happens to be inside, which no test meets reliably. The
 * extension's mutexes check their owner instead (PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP),
 * and a failed lock, unlock or wait stops the process with a message naming the mutex, at
 * the call that broke the rule. Locking a mutex the thread holds fails the same way (a
 * default mutex would hang there). A libc without the initializer gets default mutexes:
 * the same behaviour for correct code, unchecked.
 */
#ifndef MG_LOCK_H_
#define MG_LOCK_H_

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#define MG_MUTEX_INITIALIZER PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#else
#define MG_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#endif

/* A broken lock is the extension's bug, not the caller's: nothing sound can follow it. */
static inline void mg_lock_broken(const char *call, const char *mutex, int error) {
    fprintf(stderr, "mishgrad: internal error: %s(%s) failed: %s\n", call, mutex, strerror(error));
    abort();
}

static inline void mg_lock_take(pthread_mutex_t *m, const char *name) {
    const int error = pthread_mutex_lock(m);
    if (error != 0) mg_lock_broken("pthread_mutex_lock", name, error);
}

static inline void mg_lock_give(pthread_mutex_t *m, const char *name) {
    const int error = pthread_mutex_unlock(m);
    if (error != 0) mg_lock_broken("pthread_mutex_unlock", name, error);
}

static inline void mg_lock_wait(pthread_cond_t *c, pthread_mutex_t *m, const char *name) {
    const int error = pthread_cond_wait(c, m);
    if (error != 0) mg_lock_broken("pthread_cond_wait", name, error);
}

#define MG_LOCK(m) mg_lock_take(&(m), #m)
#define MG_UNLOCK(m) mg_lock_give(&(m), #m)
#define MG_WAIT(c, m) mg_lock_wait(&(c), &(m), #m)

#endif /* MG_LOCK_H_ */
