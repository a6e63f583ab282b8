/*
 * tests/reliability/test_edges_runtime.c: runtime paths a coverage run of every CTest test
 * showed never taken (issue 25, round 3 of the mutation sample), each with its exact status
 * and whole message, written out from the code's documented behaviour (docs/runtime.md,
 * acl_rt.h's comments, CANN's contract):
 *
 *   - aclrtGetDeviceCount with no count, aclopSetAttrListListInt's refusals;
 *   - the deprecated aclrtQueryEvent: an event never recorded is complete (CANN's
 *     EventQuery), a record behind running work is not ready, an Ex event is refused;
 *   - aclrtEventElapsedTime with a good start and no end: refused, the start still
 *     destroyable (the pin taken on it is dropped);
 *   - the cross-stream race message when one side is a default stream (no handle to name);
 *   - the subscribed-thread limit (1024 distinct threads, the 1025th refused);
 *   - where the log goes without ASCEND_PROCESS_LOG_PATH: $ASCEND_WORK_PATH/log, else
 *     $HOME/ascend/log, else (and when the directory cannot be made) stderr.
 *
 * One CTest test per case (each its own process: the log cases end the runtime).
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_op.h"
#include "mg_test.h"
#include "rel_fixtures.h"
#include "rel_setup.h"
#include "mg_log_file.h"
#include "mg_scratch.h"
#include "mgrt.h"

static void pause_us(long us) {
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static void up(void) { rel_session_up(); }

/* A task that holds its stream until the test opens the gate. */
static atomic_int gate_open, task_started;
static int32_t blocking_task(void *task) {
    (void)task;
    atomic_store(&task_started, 1);
    while (!atomic_load(&gate_open)) pause_us(200);
    return 0;
}
static void no_release(void *task) { (void)task; }

static void start_blocking(aclrtStream stream, const mgrt_access *a, size_t n) {
    atomic_store(&gate_open, 0);
    atomic_store(&task_started, 0);
    /* a cost far above the wake threshold: the worker runs it now */
    MG_CHECK_EQ_INT(mgrt_stream_submit_access("test", stream, blocking_task, no_release, NULL, (uint64_t)1 << 40, a, n),
                    0);
    for (int i = 0; i < 5000 && !atomic_load(&task_started); i++) pause_us(1000);
    MG_CHECK(atomic_load(&task_started));
}

/* ---- small refusals --------------------------------------------------------------------- */

MG_TEST(device_count) {
    up();
    MG_CHECK_EQ_INT(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    REL_CHECK_MESSAGE("aclrtGetDeviceCount: count is NULL");
    uint32_t count = 7;
    MG_CHECK_EQ_INT(aclrtGetDeviceCount(&count), 0);
    MG_CHECK_EQ_INT(count, 1);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
}

MG_TEST(attr_list_list_int_refusals) {
    up();
    aclopAttr *attr = aclopCreateAttr();
    MG_CHECK(attr != NULL);
    const int64_t row0[2] = {1, 2}, row1[1] = {3};
    const int64_t *rows[2] = {row0, row1};
    const int counts[2] = {2, 1}, negative[2] = {2, -1}, zero_second[2] = {2, 0};
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "ksize", 2, counts, NULL), ACL_ERROR_INVALID_PARAM);
    REL_CHECK_MESSAGE("aclopSetAttrListListInt: values is NULL while numLists is 2");
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "ksize", 2, negative, rows), ACL_ERROR_INVALID_PARAM);
    REL_CHECK_MESSAGE("aclopSetAttrListListInt: numValues[1] = -1 is negative");
    /* no lists: values may be NULL; an empty list may have a NULL row */
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "ksize", 0, counts, NULL), 0);
    const int64_t *rows_null_second[2] = {row0, NULL};
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "ksize", 2, zero_second, rows_null_second), 0);
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "ksize", 2, counts, rows), 0);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    aclopDestroyAttr(attr);
}

/* ---- events ------------------------------------------------------------------------------ */

/* The deprecated call is the one under test. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static aclError query_event(aclrtEvent ev, aclrtEventStatus *st) { return aclrtQueryEvent(ev, st); }
static aclError get_version(int32_t *a, int32_t *b, int32_t *c) { return aclrtGetVersion(a, b, c); }
#pragma GCC diagnostic pop

MG_TEST(query_event_deprecated) {
    up();
    aclrtEvent ev = NULL, ex = NULL;
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    MG_CHECK_EQ_INT(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    /* never recorded: nothing is pending, so complete (CANN's EventQuery) */
    MG_CHECK_EQ_INT(query_event(ev, &st), 0);
    MG_CHECK_EQ_INT(st, ACL_EVENT_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(query_event(ev, NULL), ACL_ERROR_INVALID_PARAM);
    REL_CHECK_MESSAGE("aclrtQueryEvent: status is NULL");
    char want[256];
    st = ACL_EVENT_STATUS_RESERVED;
    MG_CHECK_EQ_INT(query_event(ex, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    snprintf(want, sizeof want,
             "aclrtQueryEvent: event %p comes from aclrtCreateEventExWithFlag, which this query does not support", ex);
    REL_CHECK_MESSAGE(want);
    MG_CHECK_EQ_INT(st, ACL_EVENT_STATUS_RESERVED); /* untouched */
    /* a record behind a running task: not ready until the task ends */
    start_blocking(s, NULL, 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s), 0);
    MG_CHECK_EQ_INT(query_event(ev, &st), 0);
    MG_CHECK_EQ_INT(st, ACL_EVENT_STATUS_NOT_READY);
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
    MG_CHECK_EQ_INT(query_event(ev, &st), 0);
    MG_CHECK_EQ_INT(st, ACL_EVENT_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ex), 0);
}

MG_TEST(elapsed_time_without_an_end) {
    up();
    aclrtEvent start = NULL, stale = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&start), 0);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&stale), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(stale), 0);
    float ms = -1.0f;
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&ms, start, NULL), ACL_ERROR_INVALID_PARAM);
    REL_CHECK_MESSAGE("aclrtEventElapsedTime: event is NULL");
    MG_CHECK_EQ_INT(aclrtEventElapsedTime(&ms, start, stale), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(rel_message(), "aclrtEventElapsedTime: event");
    MG_CHECK(ms == -1.0f);
    /* The refused calls dropped the pin they took on the start event: its destroy frees it
       now (an extra pin would defer the free for ever: a leak LeakSanitizer reports), and the
       registry then calls it stale. */
    MG_CHECK_EQ_INT(aclrtDestroyEvent(start), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(start), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(rel_message(), "is stale");
}

/* ---- the race message with a default stream on either side -------------------------------- */

MG_TEST(race_message_names_default_streams) {
    up();
    aclrtStream b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), 0);
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    char want[1024];
    /* running work on the default stream writes [dev + 256, +256); b's memset meets it */
    mgrt_access w = {.ptr = dev + 256, .bytes = 256, .write = 1};
    start_blocking(NULL, &w, 1);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 500, 100, 0, 100, b), ACL_ERROR_RT_PARAM_INVALID);
    snprintf(want, sizeof want,
             "aclrtMemsetAsync: cross-stream race: work queued on stream %p writes [%p, +100 bytes), which "
             "unfinished work on a default stream writes [%p, +256 bytes), and no event orders the two; record an "
             "event on a default stream and call aclrtStreamWaitEvent on stream %p first (or synchronize a default "
             "stream)",
             b, (void *)(dev + 500), (void *)(dev + 256), b);
    REL_CHECK_MESSAGE(want);
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    /* and the other way round: running work on b reads [dev, +64); the default stream writes */
    mgrt_access r = {.ptr = dev, .bytes = 64, .write = 0};
    start_blocking(b, &r, 1);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 60, 8, 0, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
    snprintf(want, sizeof want,
             "aclrtMemsetAsync: cross-stream race: work queued on the default stream writes [%p, +8 bytes), which "
             "unfinished work on stream %p reads [%p, +64 bytes), and no event orders the two; record an event on "
             "stream %p and call aclrtStreamWaitEvent on the default stream first (or synchronize stream %p)",
             (void *)(dev + 60), b, (void *)dev, b, b);
    REL_CHECK_MESSAGE(want);
    /* reading what it reads is no race */
    unsigned char host[8];
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(host, 8, dev + 8, 8, ACL_MEMCPY_DEVICE_TO_HOST, NULL), 0);
    atomic_store(&gate_open, 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), 0);
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
}

/* ---- the subscribed-thread limit ----------------------------------------------------------- */

/* 1024 distinct threads may be subscribed at once (CANN's limit); the 1025th distinct one is
   refused with 107012, a thread already subscribed may take another stream, and after one
   thread unsubscribes a new one fits. Thread ids are plain numbers to the runtime. */
MG_TEST(subscribed_thread_limit) {
    up();
    enum { LIMIT = 1024 };
    static aclrtStream streams[LIMIT + 2];
    for (int i = 0; i < LIMIT + 2; i++) MG_CHECK_EQ_INT(aclrtCreateStream(&streams[i]), 0);
    const uint64_t base = 0x5000000;
    int refused = 0;
    for (int i = 0; i < LIMIT; i++)
        if (aclrtSubscribeReport(base + (uint64_t)i, streams[i]) != 0) refused++;
    MG_CHECK_EQ_INT(refused, 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport(base + LIMIT, streams[LIMIT]), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    REL_CHECK_MESSAGE("aclrtSubscribeReport: 1024 threads are subscribed already (the limit)");
    /* a subscribed thread takes a second stream: no new thread */
    MG_CHECK_EQ_INT(aclrtSubscribeReport(base + 3, streams[LIMIT]), 0);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(base + 3, streams[LIMIT]), 0);
    /* one thread gone: a new one fits, and then the table is full again */
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(base + 7, streams[7]), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport(base + LIMIT, streams[LIMIT]), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport(base + LIMIT + 1, streams[LIMIT + 1]), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    for (int i = 0; i < LIMIT; i++)
        if (i != 7) MG_CHECK_EQ_INT(aclrtUnSubscribeReport(base + (uint64_t)i, streams[i]), 0);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport(base + LIMIT, streams[LIMIT]), 0);
    for (int i = 0; i < LIMIT + 2; i++) MG_CHECK_EQ_INT(aclrtDestroyStream(streams[i]), 0);
}

/* ---- where the log goes ------------------------------------------------------------------- */

static char scratch[256];
static void make_scratch(void) { MG_CHECK(mg_scratch_make(scratch, sizeof scratch, "mg_edges")); }

/* One session whose error line is logged: returns the log file's text under `root`
   (malloc'd, "" when there is none). */
static char *log_one_error(const char *root, const char *marker) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    (void)aclFinalize();
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    MG_CHECK_EQ_INT(aclrtFree((void *)marker), ACL_ERROR_INVALID_PARAM); /* not a device block: an error line */
    MG_CHECK_EQ_INT(aclFinalize(), 0);
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/debug/plog/plog-%ld_*.log", root, (long)getpid());
    glob_t found;
    char *text = calloc(1, 1);
    if (glob(pattern, 0, NULL, &found) == 0) {
        FILE *f = fopen(found.gl_pathv[0], "r");
        if (f != NULL) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            free(text);
            text = calloc((size_t)n + 1, 1);
            if (fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = '\0';
            fclose(f);
        }
        globfree(&found);
    }
    return text;
}

/* stderr into a file while `fn` runs; returns what was written (malloc'd). */
static char *stderr_of(char *(*fn)(const char *, const char *), const char *root, const char *marker, char **log) {
    char path[300];
    snprintf(path, sizeof path, "%s/stderr.txt", scratch);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    MG_CHECK(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    *log = fn(root, marker);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(path, "r");
    char *text = calloc(65536, 1);
    if (f != NULL) {
        size_t n = fread(text, 1, 65535, f);
        text[n] = '\0';
        fclose(f);
    }
    return text;
}

MG_TEST(log_root_work_path) {
    make_scratch();
    char root[300];
    unsetenv("ASCEND_PROCESS_LOG_PATH");
    setenv("ASCEND_WORK_PATH", scratch, 1);
    snprintf(root, sizeof root, "%s/log", scratch);
    char *log = NULL;
    char *err = stderr_of(log_one_error, root, "work", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    MG_CHECK(strstr(err, "aclrtFree") == NULL); /* in the file, not on stderr */
    free(log);
    free(err);
}

MG_TEST(log_root_home) {
    make_scratch();
    char root[300];
    unsetenv("ASCEND_PROCESS_LOG_PATH");
    setenv("ASCEND_WORK_PATH", "", 1); /* empty: as if unset */
    setenv("HOME", scratch, 1);
    snprintf(root, sizeof root, "%s/ascend/log", scratch);
    char *log = NULL;
    char *err = stderr_of(log_one_error, root, "home", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    MG_CHECK(strstr(err, "aclrtFree") == NULL);
    /* nothing under the work path's or the process path's layout */
    char other[400];
    struct stat st;
    snprintf(other, sizeof other, "%s/log", scratch);
    MG_CHECK(stat(other, &st) != 0);
    free(log);
    free(err);
}

MG_TEST(log_root_none_is_stderr) {
    make_scratch();
    unsetenv("ASCEND_PROCESS_LOG_PATH");
    unsetenv("ASCEND_WORK_PATH");
    unsetenv("HOME");
    char *log = NULL;
    char *err = stderr_of(log_one_error, "/nonexistent-root", "none", &log);
    MG_CHECK_STR_CONTAINS(err, "[ERROR] ");
    MG_CHECK_STR_CONTAINS(err, "aclrtFree");
    MG_CHECK_EQ_INT((int)strlen(log), 0);
    free(log);
    free(err);
}

/* A log root that cannot be made (a regular file in its path): the lines go to stderr, and
   a later session whose root can be made logs to its file again. */
MG_TEST(log_root_unusable_is_stderr) {
    make_scratch();
    char file[300], root[400];
    snprintf(file, sizeof file, "%s/plain", scratch);
    FILE *f = fopen(file, "w");
    MG_CHECK(f != NULL);
    if (f) fclose(f);
    snprintf(root, sizeof root, "%s/under", file);
    setenv("ASCEND_PROCESS_LOG_PATH", root, 1);
    char *log = NULL;
    char *err = stderr_of(log_one_error, root, "unusable", &log);
    MG_CHECK_STR_CONTAINS(err, "aclrtFree");
    MG_CHECK_EQ_INT((int)strlen(log), 0);
    free(log);
    free(err);
    /* the next aclInit tries again: a root that can be made gets the file back */
    snprintf(root, sizeof root, "%s/good", scratch);
    setenv("ASCEND_PROCESS_LOG_PATH", root, 1);
    err = stderr_of(log_one_error, root, "good", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    MG_CHECK(strstr(err, "aclrtFree") == NULL);
    free(log);
    free(err);
}

/* The open descriptors of this process whose target lies under `dir`. */
static int fds_under(const char *dir) {
    int count = 0;
    DIR *fds = opendir("/proc/self/fd");
    if (fds == NULL) return -1;
    for (struct dirent *d; (d = readdir(fds)) != NULL;) {
        char link[300], target[1024];
        snprintf(link, sizeof link, "/proc/self/fd/%s", d->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        if (strncmp(target, dir, strlen(dir)) == 0) count++;
    }
    closedir(fds);
    return count;
}

/* The log file stays open across sessions; a session under another root logs to a new file
   there and closes the old one (a program cycling through roots keeps one descriptor). */
MG_TEST(log_root_change_closes_the_old_file) {
    make_scratch();
    char first[300], second[300];
    snprintf(first, sizeof first, "%s/first", scratch);
    snprintf(second, sizeof second, "%s/second", scratch);
    setenv("ASCEND_PROCESS_LOG_PATH", first, 1);
    char *log = NULL;
    char *err = stderr_of(log_one_error, first, "first", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    free(log);
    free(err);
    MG_CHECK_EQ_INT(fds_under(first), 1); /* kept open after aclFinalize */
    setenv("ASCEND_PROCESS_LOG_PATH", second, 1);
    err = stderr_of(log_one_error, second, "second", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    free(log);
    free(err);
    MG_CHECK_EQ_INT(fds_under(first), 0);
    MG_CHECK_EQ_INT(fds_under(second), 1);
}

/* A session with no log root at all (none of ASCEND_PROCESS_LOG_PATH, ASCEND_WORK_PATH, HOME)
   closes the open file; the next session under the old root opens a new one there (seed 143:
   the closed file was kept as the open one, so the next session wrote to a FILE already
   closed). */
MG_TEST(log_root_gone_and_back_opens_a_new_file) {
    make_scratch();
    char root[300];
    snprintf(root, sizeof root, "%s/gone_and_back", scratch);
    const char *home = getenv("HOME");
    char *saved_home = home != NULL ? strdup(home) : NULL;
    unsetenv("ASCEND_WORK_PATH");
    setenv("ASCEND_PROCESS_LOG_PATH", root, 1);
    char *log = NULL;
    char *err = stderr_of(log_one_error, root, "before", &log);
    MG_CHECK_STR_CONTAINS(log, "aclrtFree");
    free(log);
    free(err);
    MG_CHECK_EQ_INT(fds_under(root), 1);
    unsetenv("ASCEND_PROCESS_LOG_PATH");
    unsetenv("HOME");
    err = stderr_of(log_one_error, root, "nowhere", &log);
    free(log);
    free(err);
    MG_CHECK_EQ_INT(fds_under(root), 0);
    if (saved_home != NULL) setenv("HOME", saved_home, 1);
    free(saved_home);
    setenv("ASCEND_PROCESS_LOG_PATH", root, 1);
    err = stderr_of(log_one_error, root, "after", &log);
    free(log);
    free(err);
    MG_CHECK_EQ_INT(fds_under(root), 1);
}

/* ---- the configuration file's JSON check: reason and byte, exactly ------------------------ */

typedef struct json_case {
    const char *text;
    size_t length;      /* 0: strlen(text) */
    const char *why;    /* NULL: valid */
    size_t at;          /* the byte named */
} json_case;

MG_TEST(config_json_reasons_and_offsets) {
    (void)aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    make_scratch();
    char path[300];
    snprintf(path, sizeof path, "%s/acl.json", scratch);
    static const json_case cases[] = {
        /* hex digits of either case, and where four are not there */
        {"\"\\u00FF\\uABCD\\uabcd\\u0aF9\"", 0, NULL, 0},
        {"\"\\u00G0\"", 0, "\\u not followed by four hex digits", 3},
        {"\"\\u12\"", 0, "\\u not followed by four hex digits", 3},
        {"\"\\u123", 0, "\\u not followed by four hex digits", 3},
        /* surrogates: a high half needs "\u" and a low half right after it */
        {"\"\\uD83D\\uDE00\"", 0, NULL, 0},
        {"\"\\ud800x\"", 0, "an unpaired UTF-16 surrogate escape", 7},
        {"\"\\ud800\\u0041\"", 0, "an unpaired UTF-16 surrogate escape", 13},
        {"\"\\udbff\\ue000\"", 0, "an unpaired UTF-16 surrogate escape", 13},
        {"\"\\udbff\\udfff\"", 0, NULL, 0},
        {"\"\\ud800\\", 0, "an unpaired UTF-16 surrogate escape", 7},
        {"\"\\udfff\"", 0, "an unpaired UTF-16 surrogate escape", 7},
        {"\"\\ud7ff\\ue000\"", 0, NULL, 0},
        /* UTF-8 */
        {"\"\xe2\x82", 0, "a UTF-8 sequence cut short by the end of the file", 1},
        {"\"\xc3", 0, "a UTF-8 sequence cut short by the end of the file", 1},
        {"\"\xc3\x28\"", 0, "a byte that is not UTF-8 in a string", 1},
        {"\"a\xf4\x90\x80\x80\"", 0, "a byte that is not UTF-8 in a string", 2},
        {"\"\xf4\x8f\xbf\xbf\"", 0, NULL, 0},
        {"\"\xf5\x80\x80\x80\"", 0, "a byte that is not UTF-8 in a string", 1},
        {"\"\xc1\xbf\"", 0, "a byte that is not UTF-8 in a string", 1},
        {"\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\"", 0, NULL, 0},
        {"\"\xe0\x9f\xbf\"", 0, "a byte that is not UTF-8 in a string", 1},
        {"\"\xf0\x8f\xbf\xbf\"", 0, "a byte that is not UTF-8 in a string", 1},
        {"\"\xed\x9f\xbf\xee\x80\x80\"", 0, NULL, 0},
        /* a valid UTF-8 sequence lets the parser go on: what follows is still checked */
        {"\"\xc3\xa9\" x", 0, "more text after the JSON value", 5},
        {"[\"\xe2\x82\xac\",]", 0, "an unexpected character (not the start of a JSON value)", 7},
        /* escapes */
        {"\"\\", 0, "a string not closed before the end of the file", 2},
        {"\"\\\0\"", 4, "an escape that JSON does not have", 3},
        {"\"\x1f\"", 0, "a control character inside a string (write it as an escape)", 1},
        {"\" \x7f\"", 0, NULL, 0},
        /* a byte-order mark only when whole */
        {"\xef\xbb{}", 0, "an unexpected character (not the start of a JSON value)", 0},
        {"\xef\xbb\xbf", 0, "the text ends where a value is expected", 3},
        /* literals and numbers */
        {"nul", 0, "an unexpected character (not the start of a JSON value)", 0},
        {"[true,fals]", 0, "an unexpected character (not the start of a JSON value)", 6},
        {"falsey", 0, "more text after the JSON value", 5},
        {"-01", 0, "more text after the JSON value", 2},
        {"-a", 0, "a number without digits", 1},
        {"1E+5", 0, NULL, 0},
        {"1e5", 0, NULL, 0}, /* an exponent's sign is optional */
        {"[3E07,2e1]", 0, NULL, 0},
        {"1e", 0, "a number with no digit in its exponent", 2},
        {"1e-", 0, "a number with no digit in its exponent", 3},
        {"2.5E", 0, "a number with no digit in its exponent", 4},
        {"0.x", 0, "a number with no digit after its decimal point", 2},
        {"-9.75e-2", 0, NULL, 0},
        /* containers */
        {"[ ]", 0, NULL, 0},
        {"{ }", 0, NULL, 0},
        {"{\"a\":1 \"b\":2}", 0, "an object member not followed by ',' or '}'", 7},
        {"[1 , 2 ,3 ]", 0, NULL, 0},
        {"{\"a\" : [ ] , \"b\" : { } }", 0, NULL, 0},
        {"[[1],[2]]]", 0, "more text after the JSON value", 9},
        {"{\"a\"", 0, "a member name not followed by ':'", 4},
        {"[1", 0, "an array element not followed by ',' or ']'", 2},
        {"\t\r\n[1]\r\n\t ", 0, NULL, 0},
    };
    int wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const json_case *c = &cases[i];
        const size_t length = c->length ? c->length : strlen(c->text);
        FILE *f = fopen(path, "wb");
        MG_CHECK(f != NULL);
        if (f == NULL) return;
        fwrite(c->text, 1, length, f);
        fclose(f);
        const aclError st = aclInit(path);
        if (c->why == NULL) {
            if (st != ACL_SUCCESS) {
                wrong++;
                MG_FAIL("case %zu: refused (%d): %s", i, (int)st, rel_message());
            } else {
                MG_CHECK_EQ_INT(aclFinalize(), 0);
            }
            continue;
        }
        char want[600];
        snprintf(want, sizeof want, "aclInit: configPath \"%s\" is not valid JSON: %s at byte %zu", path, c->why,
                 c->at);
        const char *m = rel_message();
        if (st != ACL_ERROR_PARSE_FILE || strcmp(m, want) != 0) {
            wrong++;
            MG_FAIL("case %zu: %d \"%s\", expected %d \"%s\"", i, (int)st, m, ACL_ERROR_PARSE_FILE, want);
            if (st == ACL_SUCCESS) (void)aclFinalize();
        }
    }
    MG_CHECK_EQ_INT(wrong, 0);
    unlink(path);
}

/* ---- every call before aclInit, and on a thread with no context ---------------------------- */

static void callback_nothing(void *user) { (void)user; }
static void count_call(void *user) { atomic_fetch_add((atomic_int *)user, 1); }

/* Calls runtime API number `i` (NULL name past the last) with arguments that would be
   accepted in a session; `out` is a sentinel-filled buffer the call must not write when it
   refuses. */
static const char *call_api(int i, aclError *st, unsigned char *out) {
    void **pp = (void **)(void *)out;
    static unsigned char host[64];
    void *fake = (void *)(host + 8);
    switch (i) {
    case 0: *st = aclrtSetDevice(0); return "aclrtSetDevice";
    case 1: *st = aclrtResetDevice(0); return "aclrtResetDevice";
    case 2: *st = aclrtResetDeviceForce(0); return "aclrtResetDeviceForce";
    case 3: *st = aclrtGetDevice((int32_t *)(void *)out); return "aclrtGetDevice";
    case 4: *st = aclrtGetDeviceCount((uint32_t *)(void *)out); return "aclrtGetDeviceCount";
    case 5: *st = aclrtSynchronizeDevice(); return "aclrtSynchronizeDevice";
    case 6: *st = aclrtSynchronizeDeviceWithTimeout(10); return "aclrtSynchronizeDeviceWithTimeout";
    case 7: *st = aclrtCreateContext(pp, 0); return "aclrtCreateContext";
    case 8: *st = aclrtGetCurrentContext(pp); return "aclrtGetCurrentContext";
    case 9: *st = aclrtCreateEvent(pp); return "aclrtCreateEvent";
    case 10: *st = aclrtCreateEventWithFlag(pp, ACL_EVENT_SYNC); return "aclrtCreateEventWithFlag";
    case 11: *st = aclrtCreateEventExWithFlag(pp, ACL_EVENT_SYNC); return "aclrtCreateEventExWithFlag";
    case 12: *st = aclrtMalloc(pp, 64, ACL_MEM_MALLOC_HUGE_FIRST); return "aclrtMalloc";
    case 13: *st = aclrtMallocAlign32(pp, 64, ACL_MEM_MALLOC_HUGE_FIRST); return "aclrtMallocAlign32";
    case 14: *st = aclrtMallocCached(pp, 64, ACL_MEM_MALLOC_HUGE_FIRST); return "aclrtMallocCached";
    case 15: *st = aclrtMallocHost(pp, 64); return "aclrtMallocHost";
    case 16: *st = aclrtMemcpy(host, 32, host + 32, 32, ACL_MEMCPY_HOST_TO_HOST); return "aclrtMemcpy";
    case 17: *st = aclrtMemset(host, 64, 0, 64); return "aclrtMemset";
    case 18: *st = aclrtGetMemInfo(ACL_DDR_MEM, (size_t *)(void *)out, (size_t *)(void *)(out + 8));
        return "aclrtGetMemInfo";
    case 19: *st = aclrtCreateStream(pp); return "aclrtCreateStream";
    case 20: *st = aclrtCreateStreamWithConfig(pp, 0, 0); return "aclrtCreateStreamWithConfig";
    case 21: *st = aclrtSynchronizeStream(NULL); return "aclrtSynchronizeStream";
    case 22: *st = aclrtSynchronizeStreamWithTimeout(NULL, 10); return "aclrtSynchronizeStreamWithTimeout";
    case 23: *st = aclrtStreamQuery(NULL, (aclrtStreamStatus *)(void *)out); return "aclrtStreamQuery";
    case 24: *st = aclrtMemcpyAsync(host, 32, host + 32, 32, ACL_MEMCPY_HOST_TO_HOST, NULL); return "aclrtMemcpyAsync";
    case 25: *st = aclrtMemsetAsync(host, 64, 0, 64, NULL); return "aclrtMemsetAsync";
    case 26: *st = aclrtLaunchCallback(callback_nothing, NULL, ACL_CALLBACK_NO_BLOCK, NULL);
        return "aclrtLaunchCallback";
    case 27: *st = aclrtProcessReport(10); return "aclrtProcessReport";
    case 28: *st = aclrtHostRegister(host, 64, ACL_HOST_REGISTER_MAPPED, pp); return "aclrtHostRegister";
    /* handles made up: before aclInit nothing may look at them */
    case 29: *st = aclrtDestroyContext(fake); return "aclrtDestroyContext";
    case 30: *st = aclrtSetCurrentContext(fake); return "aclrtSetCurrentContext";
    case 31: *st = aclrtDestroyEvent(fake); return "aclrtDestroyEvent";
    case 32: *st = aclrtRecordEvent(fake, NULL); return "aclrtRecordEvent";
    case 33: *st = aclrtResetEvent(fake, NULL); return "aclrtResetEvent";
    case 34: *st = aclrtQueryEventStatus(fake, (aclrtEventRecordedStatus *)(void *)out); return "aclrtQueryEventStatus";
    case 35: *st = aclrtQueryEventWaitStatus(fake, (aclrtEventWaitStatus *)(void *)out);
        return "aclrtQueryEventWaitStatus";
    case 36: *st = aclrtSynchronizeEvent(fake); return "aclrtSynchronizeEvent";
    case 37: *st = aclrtSynchronizeEventWithTimeout(fake, 10); return "aclrtSynchronizeEventWithTimeout";
    case 38: *st = aclrtEventElapsedTime((float *)(void *)out, fake, fake); return "aclrtEventElapsedTime";
    case 39: *st = aclrtFree(fake); return "aclrtFree";
    case 40: *st = aclrtFreeHost(fake); return "aclrtFreeHost";
    /* it synchronizes the device first, and its errors are the synchronize's (acl_copy.c) */
    case 41: *st = aclrtFreeWithDevSync(fake); return "aclrtSynchronizeDevice";
    case 42: *st = aclrtHostUnregister(host); return "aclrtHostUnregister";
    case 43: *st = aclrtDestroyStream(fake); return "aclrtDestroyStream";
    case 44: *st = aclrtDestroyStreamForce(fake); return "aclrtDestroyStreamForce";
    case 45: *st = aclrtStreamWaitEvent(NULL, fake); return "aclrtStreamWaitEvent";
    case 46: *st = aclrtSubscribeReport(1, NULL); return "aclrtSubscribeReport";
    case 47: *st = aclrtUnSubscribeReport(1, NULL); return "aclrtUnSubscribeReport";
    default: return NULL;
    }
}

static int sentinel_intact(const unsigned char *out) {
    for (int k = 0; k < 32; k++)
        if (out[k] != 0xC5) return 0;
    return 1;
}

MG_TEST(every_call_before_init) {
    int wrong = 0, n = 0;
    for (int i = 0;; i++) {
        unsigned char out[32];
        memset(out, 0xC5, sizeof out);
        aclError st = -1;
        const char *api = call_api(i, &st, out);
        if (api == NULL) break;
        n++;
        char want[200];
        snprintf(want, sizeof want, "%s: aclInit has not been called", api);
        const char *m = rel_message();
        if (st != ACL_ERROR_UNINITIALIZE || strcmp(m, want) != 0 || !sentinel_intact(out)) {
            if (wrong++ < 10)
                MG_FAIL("%s before aclInit: %d \"%s\" (out %s), expected %d \"%s\"", api, (int)st, m,
                        sentinel_intact(out) ? "untouched" : "WRITTEN", ACL_ERROR_UNINITIALIZE, want);
        }
    }
    MG_CHECK_EQ_INT(n, 48);
    MG_CHECK_EQ_INT(wrong, 0);
}

/* A thread with no current context: the calls that need one refuse with 107002 and say how
   to get one; the others work. */
static void *no_context_thread(void *arg) {
    int *wrong = arg;
    /* aclrtCreateContext (7) makes the thread's context: it works here, and comes last */
    static const int needs_context[] = {3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 19, 20, 21, 22, 23, 24, 25, 26};
    for (size_t k = 0; k < sizeof needs_context / sizeof needs_context[0]; k++) {
        unsigned char out[32];
        memset(out, 0xC5, sizeof out);
        aclError st = -1;
        const char *api = call_api(needs_context[k], &st, out);
        char want[300];
        snprintf(want, sizeof want,
                 "%s: the calling thread has no current context; call aclrtSetDevice(0) or aclrtSetCurrentContext "
                 "on this thread first",
                 api);
        const char *m = rel_message();
        if (st != ACL_ERROR_RT_CONTEXT_NULL || strcmp(m, want) != 0 || !sentinel_intact(out)) {
            if ((*wrong)++ < 10)
                MG_FAIL("%s without a context: %d \"%s\" (out %s), expected %d \"%s\"", api, (int)st, m,
                        sentinel_intact(out) ? "untouched" : "WRITTEN", ACL_ERROR_RT_CONTEXT_NULL, want);
        }
    }
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) != 0 || count != 1) (*wrong)++;
    aclrtContext made = NULL, current = NULL;
    if (aclrtCreateContext(&made, 0) != 0 || aclrtGetCurrentContext(&current) != 0 || current != made) (*wrong)++;
    if (aclrtDestroyContext(made) != 0) (*wrong)++;
    return NULL;
}

MG_TEST(every_call_without_a_context) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    int wrong = 0;
    pthread_t t;
    MG_CHECK_EQ_INT(pthread_create(&t, NULL, no_context_thread, &wrong), 0);
    pthread_join(t, NULL);
    MG_CHECK_EQ_INT(wrong, 0);
    MG_CHECK_EQ_INT(aclFinalize(), 0);
}

/* ---- NULL arguments, each named ------------------------------------------------------------ */

#define EXPECT_REFUSAL(call, code, want)                                                          \
    do {                                                                                          \
        (void)aclGetRecentErrMsg();                                                               \
        aclError st_ = (call);                                                                    \
        if (st_ != (code)) MG_FAIL("%s = %d, expected %d", #call, (int)st_, (int)(code));          \
        REL_CHECK_MESSAGE(want);                                                                      \
    } while (0)

MG_TEST(null_arguments_are_named) {
    up();
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    int32_t i32 = 0;
    size_t sz = 0;
    void *p = NULL;
    static unsigned char host[64];
    const aclError bad = ACL_ERROR_INVALID_PARAM;
    EXPECT_REFUSAL(aclrtGetDevice(NULL), bad, "aclrtGetDevice: deviceId is NULL");
    EXPECT_REFUSAL(aclrtCreateContext(NULL, 0), bad, "aclrtCreateContext: context is NULL");
    EXPECT_REFUSAL(aclrtGetCurrentContext(NULL), bad, "aclrtGetCurrentContext: context is NULL");
    EXPECT_REFUSAL(aclrtDestroyEvent(NULL), bad, "aclrtDestroyEvent: event is NULL");
    EXPECT_REFUSAL(aclrtQueryEventStatus(ev, NULL), bad, "aclrtQueryEventStatus: status is NULL");
    EXPECT_REFUSAL(aclrtQueryEventWaitStatus(ev, NULL), bad, "aclrtQueryEventWaitStatus: status is NULL");
    EXPECT_REFUSAL(aclrtEventElapsedTime(NULL, ev, ev), bad, "aclrtEventElapsedTime: ms is NULL");
    EXPECT_REFUSAL(aclrtGetMemInfo(ACL_DDR_MEM, NULL, &sz), bad, "aclrtGetMemInfo: free is NULL");
    EXPECT_REFUSAL(aclrtGetMemInfo(ACL_DDR_MEM, &sz, NULL), bad, "aclrtGetMemInfo: total is NULL");
    EXPECT_REFUSAL(aclrtGetMemInfo(ACL_DDR_MEM, NULL, NULL), bad, "aclrtGetMemInfo: free is NULL");
    EXPECT_REFUSAL(aclrtStreamQuery(NULL, NULL), bad, "aclrtStreamQuery: status is NULL");
    EXPECT_REFUSAL(aclrtFree(NULL), bad, "aclrtFree: devPtr is NULL");
    EXPECT_REFUSAL(aclrtFreeHost(NULL), bad, "aclrtFreeHost: hostPtr is NULL");
    EXPECT_REFUSAL(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), bad, "aclrtMalloc: devPtr is NULL");
    EXPECT_REFUSAL(aclrtMallocHost(NULL, 64), bad, "aclrtMallocHost: hostPtr is NULL");
    EXPECT_REFUSAL(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), bad, "aclrtMalloc: size is 0");
    EXPECT_REFUSAL(aclrtMallocHost(&p, 0), bad, "aclrtMallocHost: size is 0");
    EXPECT_REFUSAL(aclrtHostRegister(NULL, 64, ACL_HOST_REGISTER_MAPPED, &p), bad, "aclrtHostRegister: ptr is NULL");
    EXPECT_REFUSAL(aclrtHostRegister(host, 64, ACL_HOST_REGISTER_MAPPED, NULL), bad,
                   "aclrtHostRegister: devPtr is NULL");
    EXPECT_REFUSAL(aclrtHostRegister(host, 0, ACL_HOST_REGISTER_MAPPED, &p), bad, "aclrtHostRegister: size is 0");
    /* a range past the end of the address space: refused naming it (a page-aligned address) */
    void *page = (void *)(uintptr_t)0x7f0000000000ull;
    const uint64_t past = (uint64_t)(UINTPTR_MAX - (uintptr_t)page) + 1;
    char wrap[200];
    snprintf(wrap, sizeof wrap, "aclrtHostRegister: [%p, +%llu bytes) wraps around the address space", page,
             (unsigned long long)past);
    EXPECT_REFUSAL(aclrtHostRegister(page, past, ACL_HOST_REGISTER_MAPPED, &p), bad, wrap);
    /* the largest range that does not wrap is taken (registering reads no byte of it) */
    MG_CHECK_EQ_INT(aclrtHostRegister(page, past - 1, ACL_HOST_REGISTER_MAPPED, &p), 0);
    MG_CHECK(p == page);
    MG_CHECK_EQ_INT(aclrtHostUnregister(page), 0);
    p = NULL;
    EXPECT_REFUSAL(aclrtHostRegister(page, UINT64_MAX, ACL_HOST_REGISTER_MAPPED, &p), bad,
                   (snprintf(wrap, sizeof wrap, "aclrtHostRegister: [%p, +%llu bytes) wraps around the address space",
                             page, (unsigned long long)UINT64_MAX),
                    wrap));
    EXPECT_REFUSAL(get_version(NULL, &i32, &i32), bad, "aclrtGetVersion: majorVersion is NULL");
    EXPECT_REFUSAL(get_version(&i32, NULL, &i32), bad, "aclrtGetVersion: minorVersion is NULL");
    EXPECT_REFUSAL(get_version(&i32, &i32, NULL), bad, "aclrtGetVersion: patchVersion is NULL");
    EXPECT_REFUSAL(aclrtGetRunMode(NULL), bad, "aclrtGetRunMode: runMode is NULL");
    MG_CHECK(p == NULL);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), 0);
}

/* aclrtProcessReport's timeout: -1 (for ever) or > 0 ms; 0 and below -1 refused. A thread
   subscribed to a stream with no callback queued times out after the limit (107xxx
   ACL_ERROR_RT_REPORT_TIMEOUT), and a queued callback is run by the next call. */
MG_TEST(process_report_timeouts) {
    up();
    char want[300];
    for (int t = -3; t <= 1; t++) {
        (void)aclGetRecentErrMsg();
        aclError st = aclrtProcessReport(t);
        if (t < -1 || t == 0) {
            MG_CHECK_EQ_INT(st, ACL_ERROR_INVALID_PARAM);
            snprintf(want, sizeof want,
                     "aclrtProcessReport: timeout %d is invalid; use -1 (wait for ever) or a number of milliseconds > 0",
                     t);
        } else {
            /* accepted, then refused: this thread subscribed to nothing */
            MG_CHECK_EQ_INT(st, ACL_ERROR_RT_THREAD_SUBSCRIBE);
            snprintf(want, sizeof want,
                     "aclrtProcessReport: the calling thread (%llu) is not subscribed to any stream "
                     "(aclrtSubscribeReport)",
                     (unsigned long long)(uint64_t)pthread_self());
        }
        REL_CHECK_MESSAGE(want);
    }
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)pthread_self(), s), 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MG_CHECK_EQ_INT(aclrtProcessReport(30), ACL_ERROR_RT_REPORT_TIMEOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    REL_CHECK_MESSAGE("aclrtProcessReport: no callback came within 30 ms");
    const double waited_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    MG_CHECK(waited_ms >= 29.0);
    /* A deadline whose milliseconds carry into the next second (seed 43: the carry went
       backwards, so such a wait ended at once): started when the deadlines' clock
       (CLOCK_MONOTONIC) is between 0.5 and 0.8 of a second, a 600 ms wait always carries. */
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_nsec >= 500000000L && now.tv_nsec <= 800000000L) break;
        const struct timespec ms = {0, 1000000L};
        nanosleep(&ms, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MG_CHECK_EQ_INT(aclrtProcessReport(600), ACL_ERROR_RT_REPORT_TIMEOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    REL_CHECK_MESSAGE("aclrtProcessReport: no callback came within 600 ms");
    const double carried_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    MG_CHECK(carried_ms >= 599.0);
    /* a queued callback is run by the next call, which returns 0 */
    static atomic_int ran;
    atomic_store(&ran, 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(count_call, (void *)&ran, ACL_CALLBACK_NO_BLOCK, s), 0);
    MG_CHECK_EQ_INT(aclrtProcessReport(5000), 0);
    MG_CHECK_EQ_INT(atomic_load(&ran), 1);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
    MG_CHECK_EQ_INT(aclrtUnSubscribeReport((uint64_t)pthread_self(), s), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
}

/* ---- what aclrtDestroyStreamForce drops ------------------------------------------------------ */

static void *open_gate_later(void *arg) {
    (void)arg;
    pause_us(50 * 1000);
    atomic_store(&gate_open, 1);
    return NULL;
}

static atomic_int callbacks_run;
static void count_callback(void *user) {
    (void)user;
    atomic_fetch_add(&callbacks_run, 1);
}

/* Behind a running task: a record, a wait, a reset, a callback not yet reached, a copy.
   aclrtDestroyStreamForce drops them all once the task ends: the record then counts as
   complete, the wait as done, the copy and the callback never run; every event stays usable
   and destroyable (the dropped nodes let go of them). */
MG_TEST(force_destroy_drops_every_node_kind) {
    up();
    aclrtStream s = NULL, other = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&other), 0);
    MG_CHECK_EQ_INT(aclrtSubscribeReport((uint64_t)pthread_self(), s), 0);
    aclrtEvent recorded = NULL, waited = NULL, reset = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&recorded), 0);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&waited), 0);
    MG_CHECK_EQ_INT(aclrtCreateEventWithFlag(&reset, ACL_EVENT_SYNC), 0); /* only these can be reset */
    MG_CHECK_EQ_INT(aclrtRecordEvent(reset, other), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(other), 0);
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    memset(dev, 0x11, 256);
    /* `waited`'s record pending on `other` (held by a task of its own), so s queues a wait node */
    start_blocking(other, NULL, 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(waited, other), 0);
    start_blocking(s, NULL, 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(recorded, s), 0);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(s, waited), 0);
    MG_CHECK_EQ_INT(aclrtResetEvent(reset, s), 0);
    atomic_store(&callbacks_run, 0);
    MG_CHECK_EQ_INT(aclrtLaunchCallback(count_callback, NULL, ACL_CALLBACK_NO_BLOCK, s), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 256, 0x22, 256, s), 0);
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(recorded, &rs), 0);
    MG_CHECK_EQ_INT(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_COMPLETE;
    MG_CHECK_EQ_INT(aclrtQueryEventWaitStatus(waited, &ws), 0);
    MG_CHECK_EQ_INT(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
    pthread_t opener;
    MG_CHECK_EQ_INT(pthread_create(&opener, NULL, open_gate_later, NULL), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStreamForce(s), 0); /* returns once the running task ended */
    pthread_join(opener, NULL);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(recorded, &rs), 0);
    MG_CHECK_EQ_INT(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtQueryEventWaitStatus(waited, &ws), 0);
    MG_CHECK_EQ_INT(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    /* nothing dropped ran */
    MG_CHECK_EQ_INT(atomic_load(&callbacks_run), 0);
    int untouched = 1;
    for (int i = 0; i < 256; i++) untouched &= dev[i] == 0x11;
    MG_CHECK(untouched);
    /* the events are still whole: recorded again on another stream, then destroyed */
    MG_CHECK_EQ_INT(aclrtRecordEvent(reset, other), 0);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(other, recorded), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(other), 0);
    MG_CHECK_EQ_INT(aclrtQueryEventStatus(reset, &rs), 0);
    MG_CHECK_EQ_INT(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(recorded), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(waited), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(reset), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(other), 0);
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
    /* the subscriber of the destroyed stream is forgotten with it */
    MG_CHECK_EQ_INT(aclrtProcessReport(5), ACL_ERROR_RT_THREAD_SUBSCRIBE);
}

/* ---- the product profile: every field, from one session to the next --------------------------- */

typedef struct soc_row {
    const char *env;      /* MISHGRAD_SOC_VERSION; NULL: unset */
    const char *name;     /* aclrtGetSocName() */
    const char *product;
    mgrt_soc_generation generation;
    uint32_t cores;
} soc_row;

/* Sessions one after another, each profile whole: nothing of the previous one is kept (a
   default session after a named one is the default again, name included); names a pattern
   matches are kept as given, up to 63 characters; longer ones and unknown ones refused. */
MG_TEST(soc_profile_sessions) {
    (void)aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    static const soc_row rows[] = {
        {"Ascend310P3", "Ascend310P3", "Atlas inference series", MGRT_SOC_ASCEND310P, 8},
        {NULL, "MishGradV2-CPU", "CPU device (MishGradV2)", MGRT_SOC_CPU, 48},
        {"Ascend910_9392", "Ascend910_9392", "Atlas A3 training/inference series", MGRT_SOC_ASCEND910_93, 48},
        {"cpu", "MishGradV2-CPU", "CPU device (MishGradV2)", MGRT_SOC_CPU, 48},
        {"Ascend910B", "Ascend910B", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, 48},
        {"CPU", "MishGradV2-CPU", "CPU device (MishGradV2)", MGRT_SOC_CPU, 48},
        {"Ascend950DT", "Ascend950DT", "Ascend 950PR/Ascend 950DT", MGRT_SOC_ASCEND950, 64},
        {"", "MishGradV2-CPU", "CPU device (MishGradV2)", MGRT_SOC_CPU, 48},
        {"Ascend910", "Ascend910", "Atlas training series", MGRT_SOC_ASCEND910, 32},
        {"MishGradV2-CPU", "MishGradV2-CPU", "CPU device (MishGradV2)", MGRT_SOC_CPU, 48},
        /* 63 characters: the longest name kept */
        {"Ascend310B1-abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmno",
         "Ascend310B1-abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmno", "Atlas 200I/500 A2 inference product",
         MGRT_SOC_ASCEND310B, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].env) setenv("MISHGRAD_SOC_VERSION", rows[i].env, 1); else unsetenv("MISHGRAD_SOC_VERSION");
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        const mgrt_soc_profile *p = mgrt_soc();
        const char *name = aclrtGetSocName();
        if (p == NULL || name == NULL || strcmp(name, rows[i].name) != 0 || strcmp(p->soc_name, rows[i].name) != 0 ||
            strcmp(p->product, rows[i].product) != 0 || p->generation != rows[i].generation ||
            p->aiv_core_num != rows[i].cores)
            MG_FAIL("row %zu (%s): %s / %s / %d / %u", i, rows[i].env ? rows[i].env : "(unset)", name ? name : "(null)",
                    p ? p->product : "(null)", p ? (int)p->generation : -1, p ? (unsigned)p->aiv_core_num : 0u);
        else
            MG_CHECK(1);
        MG_CHECK_EQ_INT(aclFinalize(), 0);
    }
    /* 64 characters: refused, as an unknown name is */
    static const char *const refused[] = {"Ascend310B1-abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop",
                                          "Ascend910B5", "Ascend31", "ascend910b1"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        setenv("MISHGRAD_SOC_VERSION", refused[i], 1);
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_INVALID_PARAM);
        char want[400];
        snprintf(want, sizeof want,
                 "MISHGRAD_SOC_VERSION=\"%s\" names no known SoC; use cpu, Ascend910, Ascend910B1..Ascend910B4, "
                 "Ascend910_93, Ascend950PR, Ascend310P3 or Ascend310B1",
                 refused[i]);
        REL_CHECK_MESSAGE(want);
        MG_CHECK(aclrtGetSocName() == NULL); /* nothing initialized */
    }
    unsetenv("MISHGRAD_SOC_VERSION");
}

/* ---- mgrt_launch_submit's in-place rule for strided direct tensors ------------------------------ */

static mgrt_launch_tensor strided_tensor(const char *name, float *storage, float *first, int write) {
    mgrt_launch_tensor t;
    memset(&t, 0, sizeof t);
    t.name = name;
    t.storage = storage;
    t.storage_bytes = 64 * sizeof(float);
    t.elem_bytes = 4;
    t.direct = 1;
    /* 8 elements, every other float: [first, first + 15] */
    t.access.ptr = first;
    t.access.bytes = 15 * sizeof(float);
    t.access.write = write;
    t.access.rank = 1;
    t.access.elem_bytes = 4;
    t.access.dims[0] = 8;
    t.access.strides[0] = 2 * sizeof(float);
    return t;
}

/* ---- a launch's fill that writes past its task -------------------------------------------------- */

/* The executor's fill writes the task the runtime allocated (task_bytes). One byte more (an
   off-by-one in a library above) must stop the process at that launch, naming the API and
   the operator, rather than corrupt the heap for a later call. In a child process. */
static void fill_one_byte_too_many(void *task, void *ctx) {
    (void)ctx;
    memset(task, 0x11, sizeof(void *) + 1);
}

MG_TEST(launch_fill_past_its_task_stops_the_process) {
    int pipe_fds[2];
    MG_CHECK_EQ_INT(pipe(pipe_fds), 0);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        dup2(pipe_fds[1], 2);
        close(pipe_fds[0]);
        up();
        float *buf = NULL;
        if (aclrtMalloc((void **)&buf, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != 0) _exit(3);
        mgrt_launch_tensor tensors[2];
        mgrt_launch l = rel_counting_launch("aclnnEdge", "Edge", tensors, 2, 8);
        tensors[0] = strided_tensor("x", buf, buf, 0);
        tensors[1] = strided_tensor("y", buf, buf + 32, 1);
        if (mgrt_launch_submit(&l) != 0) _exit(4); /* the task as declared: fine */
        l.fill = fill_one_byte_too_many;
        (void)mgrt_launch_submit(&l);
        _exit(5); /* not stopped */
    }
    MG_CHECK(pid > 0);
    close(pipe_fds[1]);
    char text[4096] = "";
    size_t used = 0;
    ssize_t got;
    while (used < sizeof text - 1 && (got = read(pipe_fds[0], text + used, sizeof text - 1 - used)) > 0)
        used += (size_t)got;
    text[used] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
        MG_FAIL("the child %s %d, expected SIGABRT; stderr: %s", WIFEXITED(status) ? "exited with" : "died of signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), text);
    char want[200];
    snprintf(want, sizeof want,
             "mishgrad: internal error: aclnnEdge (Edge): the launch's task was written past its %zu bytes "
             "(byte 0 after it)",
             sizeof(void *));
    MG_CHECK_STR_CONTAINS(text, want);
}

/* Two direct tensors (read and written in place by the kernel) with strided accesses: their
   ranges apart, launched; ranges that meet, refused naming both, even when the elements
   interleave or are the same strided view (the runtime's rule for planned executors is the
   conservative one: only an exact dense in-place pair may share bytes, mgrt.h); an input that
   is not direct is not judged (the plan copies it first). */
MG_TEST(launch_in_place_rule_for_strided_direct_tensors) {
    up();
    float *buf = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&buf, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    mgrt_launch_tensor tensors[2];
    mgrt_launch l = rel_counting_launch("aclnnEdge", "Edge", tensors, 2, 8);
    static const char refused[] = "aclnnEdge: refreshed addresses make x overlap y partially; only exact in-place "
                                  "is allowed for a planned executor (run the first phase again)";
    /* apart: floats 0..14 read, 32..46 written */
    tensors[0] = strided_tensor("x", buf, buf, 0);
    tensors[1] = strided_tensor("y", buf, buf + 32, 1);
    if (mgrt_launch_submit(&l) != 0) MG_FAIL("apart: %s", rel_message());
    /* touching: y starts right after x's last float */
    tensors[1] = strided_tensor("y", buf, buf + 15, 1);
    if (mgrt_launch_submit(&l) != 0) MG_FAIL("touching: %s", rel_message());
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(atomic_load(&rel_launch_runs), 2);
    /* meeting: interleaved, one float shared, the same view */
    float *starts[3] = {buf + 1, buf + 14, buf};
    for (int k = 0; k < 3; k++) {
        tensors[1] = strided_tensor("y", buf, starts[k], 1);
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID);
        REL_CHECK_MESSAGE(refused);
    }
    /* the input not direct: not judged */
    tensors[0].direct = 0;
    MG_CHECK_EQ_INT(mgrt_launch_submit(&l), 0);
    /* dense, exactly in place (rank 0, the same range): allowed; one float off: refused */
    tensors[0] = strided_tensor("x", buf, buf, 0);
    tensors[1] = strided_tensor("y", buf, buf, 1);
    tensors[0].access.rank = tensors[1].access.rank = 0;
    tensors[0].access.elem_bytes = tensors[1].access.elem_bytes = 0;
    MG_CHECK_EQ_INT(mgrt_launch_submit(&l), 0);
    tensors[1].access.ptr = buf + 1;
    MG_CHECK_EQ_INT(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE(refused);
    /* the same bytes as elements of another width (a float read, halves written): not in place */
    tensors[1].access.ptr = buf;
    tensors[1].elem_bytes = 2;
    MG_CHECK_EQ_INT(mgrt_launch_submit(&l), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE(refused);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(atomic_load(&rel_launch_runs), 4);
    MG_CHECK_EQ_INT(aclrtFree(buf), 0);
}

/* ---- the last aclrtResetDevice releases the default context's streams -------------------------- */

/* What was queued on them runs first; then their handles are stale (a destroy is refused
   naming them so), and a stream of another context is left alone. */
MG_TEST(reset_device_releases_its_streams) {
    up();
    aclrtContext own = NULL, main_ctx = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&main_ctx), 0);
    aclrtStream a = NULL, b = NULL, kept = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), 0);
    MG_CHECK_EQ_INT(aclrtCreateContext(&own, 0), 0); /* current now */
    MG_CHECK_EQ_INT(aclrtCreateStream(&kept), 0);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(main_ctx), 0);
    unsigned char *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    memset(dev, 0, 4096);
    /* behind a running task on a: a copy that must be done when the reset returns */
    start_blocking(a, NULL, 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 2048, 0x5A, 2048, a), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev + 2048, 2048, 0x6B, 2048, b), 0);
    pthread_t opener;
    MG_CHECK_EQ_INT(pthread_create(&opener, NULL, open_gate_later, NULL), 0);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), 0); /* the only aclrtSetDevice of this process: the last */
    /* read before the opener is joined: the reset itself waited for the work */
    const int done = dev[0] == 0x5A && dev[2047] == 0x5A && dev[2048] == 0x6B && dev[4095] == 0x6B;
    pthread_join(opener, NULL);
    MG_CHECK(done);
    /* a new default context for this thread; the released streams are stale handles */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    aclrtStream released[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        char want[300];
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(aclrtDestroyStream(released[k]), ACL_ERROR_INVALID_PARAM);
        snprintf(want, sizeof want,
                 "aclrtDestroyStream: stream %p is stale (already destroyed or released, or reclaimed by aclFinalize)",
                 released[k]);
        REL_CHECK_MESSAGE(want);
    }
    /* the created context's stream lives on */
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(own), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(dev, 16, 0x11, 16, kept), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(kept), 0);
    MG_CHECK_EQ_INT(dev[15], 0x11);
    MG_CHECK_EQ_INT(aclrtDestroyStream(kept), 0);
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
    MG_CHECK_EQ_INT(aclrtDestroyContext(own), 0);
}

MG_TEST_MAIN()
