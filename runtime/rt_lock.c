/* runtime/rt_lock.c: the out-of-line half of rt_lock.h (compiled into libascendcl,
   libnnopbase and libascendc_twin, hidden in each). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_lock.h"

_Noreturn void rt_internal_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("mishgrad: internal error: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    abort();
}

_Noreturn void rt_lock_broken(const char *call, const char *mutex, int error) {
    rt_internal_error("%s(%s) failed: %s", call, mutex, strerror(error));
}

void rt_mutex_init_checked(pthread_mutex_t *m) {
    pthread_mutexattr_t checked;
    pthread_mutexattr_init(&checked);
#ifdef PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
    pthread_mutexattr_settype(&checked, PTHREAD_MUTEX_ERRORCHECK);
#endif
    pthread_mutex_init(m, &checked);
    pthread_mutexattr_destroy(&checked);
}
