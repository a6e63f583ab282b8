/*
 * tests/reliability/rel_setup.h: what the reliability tests split by subject share
 * (test_teardown.c, test_callbacks.c, test_fork.c, test_growth.c, test_host_registration.c,
 * test_contexts.c): mg_test.h's cases, a check that says why it failed, a watchdog that
 * turns a hang into a failure naming the case, clocks, the recent message, and the build's
 * sanitizer.
 *
 * CTest runs each case in a process of its own (`<program> <case>`: mg_test.h runs the
 * cases whose name contains the argument, so no case name may contain another), since many
 * end the runtime or fork; a case that cannot run here calls MG_SKIP (exit 77,
 * SKIP_RETURN_CODE in tests/reliability/CMakeLists.txt).
 */
#ifndef REL_SETUP_H_
#define REL_SETUP_H_

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_test.h"

/* A check with a line of its own saying what was wrong (printf-style). */
#define REL_CHECK(cond, ...)                                        \
    do {                                                            \
        mg_checks_done++;                                           \
        if (!(cond)) {                                              \
            fprintf(stderr, "  %s:%d: (%s) ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                           \
            fputc('\n', stderr);                                    \
            mg_current_failed = 1;                                  \
        }                                                           \
    } while (0)

/* The watchdog: a case that does not call alarm(0) within `seconds` fails, naming itself
   (the function mg_test.h made of it), well inside CTest's timeout. */
static const char *rel_watched __attribute__((unused)) = "?";

static inline void rel_on_alarm(int sig) {
    (void)sig;
    char line[200];
    const int n = snprintf(line, sizeof line, "FAIL: %s hung (watchdog)\n", rel_watched);
    if (n > 0 && write(STDOUT_FILENO, line, (size_t)n) < 0) _exit(3);
    _exit(1);
}

#define REL_WATCHDOG(seconds)            \
    do {                                 \
        rel_watched = __func__;          \
        signal(SIGALRM, rel_on_alarm);   \
        alarm(seconds);                  \
    } while (0)

static inline double rel_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline void rel_sleep_ms(long ms) {
    const struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The recent message contains `needle` (aclGetRecentErrMsg hands a message out once). */
static inline int rel_message_has(const char *needle) {
    const char *m = aclGetRecentErrMsg();
    return m != NULL && strstr(m, needle) != NULL;
}

/* A copy of the recent message ("" for none), read as often as needed (per thread), large
   enough that the texts the tests compare whole are not cut. */
#define REL_MESSAGE_CAPACITY 2048
static inline const char *rel_message(void) {
    static _Thread_local char copy[REL_MESSAGE_CAPACITY];
    const char *m = aclGetRecentErrMsg();
    snprintf(copy, sizeof copy, "%s", m != NULL ? m : "");
    return copy;
}

/* The recent message is exactly `want`. */
#define REL_CHECK_MESSAGE(want)                                                              \
    do {                                                                                     \
        const char *m_ = rel_message();                                                      \
        if (strcmp(m_, (want)) != 0) MG_FAIL("message \"%s\", expected \"%s\"", m_, (want)); \
        else MG_CHECK(1);                                                                    \
    } while (0)

/* One quiet session for a program's cases (the runtime started at the first, the device
   set at each) and no message left over. */
static inline void rel_session_up(void) {
    static int started;
    if (!started) {
        setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        started = 1;
    }
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    (void)aclGetRecentErrMsg();
}

static inline void rel_start_runtime(void) {
    REL_CHECK(aclInit(NULL) == ACL_SUCCESS, "aclInit");
    REL_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
}

/* The build's sanitizer: gcc says __SANITIZE_*__, clang answers __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
#define REL_UNDER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define REL_UNDER_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REL_UNDER_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define REL_UNDER_TSAN 1
#endif
#endif
#if defined(REL_UNDER_ASAN) || defined(REL_UNDER_TSAN)
#define REL_PLAIN_BUILD 0
#else
#define REL_PLAIN_BUILD 1
#endif

#endif /* REL_SETUP_H_ */
