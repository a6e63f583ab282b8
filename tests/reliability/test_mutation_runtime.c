/*
 * tests/reliability/test_mutation_runtime.c: the runtime's error and log plumbing, which
 * every other test passes through without looking at it closely (issue 10's mutation run):
 *
 *   - the thread's recent-error list (runtime/acl_error.c): newest first, one message a
 *     line, the newest whole messages that fit in 4095 characters, one message cut to
 *     4094, an empty message adding nothing, a message made by mgrt_fail cut to 1023
 *     characters, get-and-clear;
 *   - ASCEND_GLOBAL_LOG_LEVEL (0..4, anything else: the default 3) and
 *     ASCEND_SLOG_PRINT_TO_STDOUT (1: stdout; anything else: the log file, never stderr),
 *     read again at aclInit;
 *     the level names; the threshold at every level; level 4 silences everything;
 *   - aclAppLog: the levels it takes (ACL_DEBUG..ACL_ERROR), CANN's text (thread id,
 *     function, file as given, line, the quoted message), no line for a NULL file, function
 *     or format, the message cut at 1024 bytes with "...[truncated]";
 *   - the notices printed at the default level: aclFinalize's line about what it released.
 *
 * Every expectation is written out here from the documented behaviour.
 */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid) */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mg_log_file.h"
#include "mg_scratch.h"
#include "mg_test.h"
#include "mgrt.h"
#include "mgrt_handle.h"

/* ---- capturing the log ------------------------------------------------------------------ */

/* out_text: stdout; log_text: what the log file gained (mg_log_file.h); stderr must stay
   empty (the runtime never logs there while it can write its file). */
static char out_text[65536], log_text[65536], stderr_text[65536];

static void read_back(FILE *tmp, char *text) {
    fflush(tmp);
    rewind(tmp);
    size_t n = fread(text, 1, 65535, tmp);
    text[n] = '\0';
    fclose(tmp);
}

/* Runs fn with stdout and stderr each going to a temporary file; the text lands in
   out_text / stderr_text, the log file's new text in log_text. */
static void capture(void (*fn)(void)) {
    fflush(stdout);
    fflush(stderr);
    FILE *o = tmpfile(), *e = tmpfile();
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    const long before = mg_log_size();
    fn();
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    read_back(o, out_text);
    read_back(e, stderr_text);
    char *logged = mg_log_text_since(before);
    snprintf(log_text, sizeof log_text, "%s", logged ? logged : "");
    free(logged);
    if (stderr_text[0] != '\0') MG_FAIL("the runtime wrote to stderr: %s", stderr_text);
}

static int count_of(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) n++;
    return n;
}

/* aclInit with ASCEND_GLOBAL_LOG_LEVEL = level (NULL: unset) and the stdout switch. */
static void restart(const char *level, const char *to_stdout) {
    (void)aclFinalize();
    if (level) setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1); else unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    if (to_stdout) setenv("ASCEND_SLOG_PRINT_TO_STDOUT", to_stdout, 1); else unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    (void)aclGetRecentErrMsg();
}

/* ---- the recent-error list ------------------------------------------------------------ */

static char *repeat(char c, size_t n) {
    char *s = malloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

MG_TEST(error_list_keeps_the_newest_whole_messages_that_fit) {
    restart("4", NULL);
    /* ten messages of 1000 characters: 4 x 1000 + 3 separators = 4003 fit, 5 would be 5004 */
    char *m[10];
    for (int i = 0; i < 10; i++) {
        m[i] = repeat((char)('A' + i), 1000);
        mgrt_set_recent_error(m[i]);
    }
    const char *got = aclGetRecentErrMsg();
    char want[5000];
    snprintf(want, sizeof want, "%s\n%s\n%s\n%s", m[9], m[8], m[7], m[6]);
    MG_CHECK(got != NULL && strcmp(got, want) == 0);
    if (got) MG_CHECK_EQ_INT(strlen(got), 4003);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    for (int i = 0; i < 10; i++) free(m[i]);

    /* exactly 4095 characters: 2047 + 1 + 2047 keeps both; one more drops the older */
    char *a = repeat('a', 2047), *b = repeat('b', 2047), *b2 = repeat('c', 2048);
    mgrt_set_recent_error(a);
    mgrt_set_recent_error(b);
    got = aclGetRecentErrMsg();
    snprintf(want, sizeof want, "%s\n%s", b, a);
    MG_CHECK(got != NULL && strcmp(got, want) == 0);
    mgrt_set_recent_error(a);
    mgrt_set_recent_error(b2);
    got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strcmp(got, b2) == 0);
    /* an older list of short messages: as many of the newest as fit after a long one */
    for (int i = 0; i < 20; i++) mgrt_set_recent_error("0123456789"); /* 11 each with '\n' */
    mgrt_set_recent_error(b2);                                          /* 2048 + 1 */
    got = aclGetRecentErrMsg();
    /* 4095 - 2049 = 2046 characters left: the 20 short ones (219) all fit */
    MG_CHECK(got != NULL && strlen(got) == 2048 + 20 * 11);
    MG_CHECK(got != NULL && strncmp(got, b2, 2048) == 0 && count_of(got, "0123456789") == 20);
    free(a);
    free(b);
    free(b2);

    /* cut at a separator: 3 x 1400 = the newest two (2801), a third does not fit */
    char *c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = repeat((char)('p' + i), 1400);
        mgrt_set_recent_error(c[i]);
    }
    got = aclGetRecentErrMsg();
    snprintf(want, sizeof want, "%s\n%s", c[2], c[1]);
    MG_CHECK(got != NULL && strcmp(got, want) == 0);
    for (int i = 0; i < 3; i++) free(c[i]);

    /* one message longer than the list: its first 4094 characters */
    char *huge = repeat('h', 5000);
    mgrt_set_recent_error("older");
    mgrt_set_recent_error(huge);
    got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strlen(got) == 4094 && strncmp(got, huge, 4094) == 0);
    free(huge);
    /* at the boundary: 4093 and 4094 characters whole, 4095 and 4096 cut to 4094 */
    static const size_t lengths[] = {4093, 4094, 4095, 4096};
    for (int i = 0; i < 4; i++) {
        char *edge = repeat('e', lengths[i]);
        mgrt_set_recent_error("older");
        mgrt_set_recent_error(edge);
        got = aclGetRecentErrMsg();
        size_t want_length = lengths[i] < 4094 ? lengths[i] : 4094;
        if (got == NULL || strlen(got) != want_length || strncmp(got, edge, want_length) != 0)
            MG_FAIL("a message of %zu characters gave %zu, expected %zu", lengths[i], got ? strlen(got) : 0, want_length);
        else
            MG_CHECK(1);
        free(edge);
    }

    /* an empty message adds nothing; NULL neither */
    mgrt_set_recent_error("");
    mgrt_set_recent_error(NULL);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    mgrt_set_recent_error("x");
    mgrt_set_recent_error("");
    got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strcmp(got, "x") == 0);
}

MG_TEST(error_list_mgrt_fail_formats_and_cuts_at_1023) {
    restart("4", NULL);
    MG_CHECK_EQ_INT(mgrt_fail(123456, "code %d, %s", 7, "seven"), 123456);
    MG_CHECK_EQ_INT(mgrt_fail_at("here", -5, "at %s", "there"), -5);
    const char *got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strcmp(got, "at there\ncode 7, seven") == 0);
    char *long_text = repeat('L', 2000);
    MG_CHECK_EQ_INT(mgrt_fail(1, "%s", long_text), 1);
    got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strlen(got) == 1023 && strncmp(got, long_text, 1023) == 0);
    free(long_text);
    /* a public call's message is the whole, exact sentence */
    MG_CHECK_EQ_INT(aclrtSetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
    got = aclGetRecentErrMsg();
    MG_CHECK(got != NULL && strncmp(got, "aclrtSetDevice: deviceId 5 is invalid", 37) == 0 && strchr(got, '\n') == NULL);
}

/* ---- log levels and where lines go ------------------------------------------------------ */

static void log_each_level(void) {
    mgrt_log(MGRT_LOG_DEBUG, "MOD", "line %d", 0);
    mgrt_log(MGRT_LOG_INFO, "MOD", "line %d", 1);
    mgrt_log(MGRT_LOG_WARNING, "MOD", "line %d", 2);
    mgrt_log(MGRT_LOG_ERROR, "MOD", "line %d", 3);
}

MG_TEST(log_level_threshold_and_names) {
    static const struct {
        const char *env;
        int threshold; /* 4: nothing */
    } cases[] = {{"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"4", 4}, {NULL, 3}, {"", 3},
                 {"5", 3}, {"-1", 3}, {"2x", 3}, {"x", 3}, {"10", 3}};
    static const char *const names[] = {"[DEBUG] ", "[INFO] ", "[WARNING] ", "[ERROR] "};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        restart(cases[c].env, "0");
        for (int level = 0; level <= 3; level++) {
            int want = cases[c].threshold != 4 && level >= cases[c].threshold;
            if (mgrt_log_enabled(level) != want)
                MG_FAIL("ASCEND_GLOBAL_LOG_LEVEL=%s: mgrt_log_enabled(%d) = %d, expected %d",
                        cases[c].env ? cases[c].env : "(unset)", level, mgrt_log_enabled(level), want);
            else
                MG_CHECK(1);
        }
        capture(log_each_level);
        MG_CHECK_EQ_INT(strlen(out_text), 0);
        for (int level = 0; level <= 3; level++) {
            char needle[64];
            snprintf(needle, sizeof needle, "[MOD] line %d\n", level);
            int want = cases[c].threshold != 4 && level >= cases[c].threshold;
            MG_CHECK_EQ_INT(count_of(log_text, needle), want);
            /* the line starts with its level's name */
            const char *at = strstr(log_text, needle);
            if (at != NULL) {
                const char *start = at;
                while (start > log_text && start[-1] != '\n') start--;
                MG_CHECK(strncmp(start, names[level], strlen(names[level])) == 0);
            }
        }
        MG_CHECK_EQ_INT(count_of(log_text, "\n"), cases[c].threshold == 4 ? 0 : 4 - cases[c].threshold);
    }
}

MG_TEST(log_goes_to_stdout_only_when_asked) {
    static const struct {
        const char *env;
        int to_stdout;
    } cases[] = {{"1", 1}, {"0", 0}, {NULL, 0}, {"2", 0}, {"-1", 0}, {"1x", 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        restart("0", cases[c].env);
        capture(log_each_level);
        const char *yes = cases[c].to_stdout ? out_text : log_text;
        const char *no = cases[c].to_stdout ? log_text : out_text;
        MG_CHECK_EQ_INT(count_of(yes, "[MOD] line "), 4);
        MG_CHECK_EQ_INT(strlen(no), 0);
    }
    /* ASCEND_LOG_PRINT_TO_STDOUT, the current name, decides when set (CANN 9.2.0 deprecates
       the SLOG one); unset or empty leaves it to the old one */
    static const struct {
        const char *current, *deprecated;
        int to_stdout;
    } both[] = {{"1", NULL, 1}, {"1", "0", 1}, {"0", "1", 0}, {"2", "1", 0}, {"", "1", 1}, {NULL, "1", 1}};
    for (size_t c = 0; c < sizeof both / sizeof both[0]; c++) {
        if (both[c].current) setenv("ASCEND_LOG_PRINT_TO_STDOUT", both[c].current, 1);
        restart("0", both[c].deprecated);
        capture(log_each_level);
        unsetenv("ASCEND_LOG_PRINT_TO_STDOUT");
        const char *yes = both[c].to_stdout ? out_text : log_text;
        const char *no = both[c].to_stdout ? log_text : out_text;
        if (count_of(yes, "[MOD] line ") != 4 || strlen(no) != 0)
            MG_FAIL("ASCEND_LOG_PRINT_TO_STDOUT=%s ASCEND_SLOG_PRINT_TO_STDOUT=%s: expected %s", 
                    both[c].current ? both[c].current : "(unset)", both[c].deprecated ? both[c].deprecated : "(unset)",
                    both[c].to_stdout ? "stdout" : "the log file");
        else
            MG_CHECK(1);
    }
    /* the program name is this process's (/proc/self/comm) */
    char comm[64] = "";
    FILE *f = fopen("/proc/self/comm", "r");
    if (f != NULL) {
        if (fgets(comm, sizeof comm, f) == NULL) comm[0] = '\0';
        comm[strcspn(comm, "\n")] = '\0';
        fclose(f);
    }
    restart("3", "0");
    capture(log_each_level);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "[ERROR] MISHGRAD(%ld,%s):", (long)getpid(), comm);
    MG_CHECK(strncmp(log_text, prefix, strlen(prefix)) == 0);
    if (strncmp(log_text, prefix, strlen(prefix)) != 0) MG_FAIL("line \"%s\", expected it to start \"%s\"", log_text, prefix);
}

/* ---- aclAppLog ------------------------------------------------------------------------- */

static void app_logs(void) {
    aclAppLog(ACL_ERROR, "my_func", "/some/dir/my_file.c", 42, "value %d and %s", 7, "text");
    aclAppLog(ACL_INFO, NULL, NULL, 7, "no names");
    aclAppLog(ACL_WARNING, "f", "plain.c", 0, "plain");
    aclAppLog(ACL_DEBUG, "dbg", "a/b.c", 1, "debug line");
    aclAppLog((aclLogLevel)4, "f", "x.c", 1, "level four");
    aclAppLog((aclLogLevel)-1, "f", "x.c", 1, "level minus one");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, NULL);
}

static void app_log_long(void) {
    char *text = repeat('T', 1500);
    aclAppLog(ACL_ERROR, "f", "x.c", 9, "%s", text);
    free(text);
    text = repeat('U', 1023);
    aclAppLog(ACL_ERROR, "f", "x.c", 10, "%s", text);
    free(text);
}

MG_TEST(app_log_levels_names_and_cut) {
    /* CANN's text: <thread id> <func>:<file>:<line>: "<message>", the file as given; no line
       at all without a function or a file (or a format) */
    const long tid = (long)syscall(SYS_gettid);
    char line[256];
    restart("0", "0");
    capture(app_logs);
    MG_CHECK_EQ_INT(count_of(log_text, "[ERROR] "), 1);
    snprintf(line, sizeof line, "[APP] %ld my_func:/some/dir/my_file.c:42: \"value 7 and text\"\n", tid);
    MG_CHECK_EQ_INT(count_of(log_text, line), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "[INFO] "), 0);
    MG_CHECK_EQ_INT(count_of(log_text, "no names"), 0);
    MG_CHECK_EQ_INT(count_of(log_text, "[WARNING] "), 1);
    snprintf(line, sizeof line, "[APP] %ld f:plain.c:0: \"plain\"\n", tid);
    MG_CHECK_EQ_INT(count_of(log_text, line), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "[DEBUG] "), 1);
    snprintf(line, sizeof line, "[APP] %ld dbg:a/b.c:1: \"debug line\"\n", tid);
    MG_CHECK_EQ_INT(count_of(log_text, line), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "level "), 0);
    MG_CHECK_EQ_INT(count_of(log_text, "\n"), 3);
    /* the threshold applies: at warning level, debug lines are dropped */
    restart("2", "0");
    capture(app_logs);
    MG_CHECK_EQ_INT(count_of(log_text, "\n"), 2);
    snprintf(line, sizeof line, "[APP] %ld f:plain.c:0: \"plain\"\n", tid);
    MG_CHECK_EQ_INT(count_of(log_text, line), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "debug line"), 0);
    /* a text over 1023 characters: its first 1008 and "...[truncated]"; 1023 exactly: whole */
    restart("3", "0");
    capture(app_log_long);
    char *want = malloc(1200);
    char *t = repeat('T', 1008);
    snprintf(want, 1200, "[APP] %ld f:x.c:9: \"%s...[truncated]\"\n", tid, t);
    MG_CHECK_EQ_INT(count_of(log_text, want), 1);
    free(t);
    t = repeat('U', 1023);
    snprintf(want, 1200, "[APP] %ld f:x.c:10: \"%s\"\n", tid, t);
    MG_CHECK_EQ_INT(count_of(log_text, want), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "truncated"), 1);
    free(t);
    free(want);
}

/* ---- notices at the default level ------------------------------------------------------ */

static void finalize_with_leftovers(void) {
    void *a = NULL, *b = NULL;
    aclrtStream s = NULL;
    (void)aclrtMalloc(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST);
    (void)aclrtMalloc(&b, 200, ACL_MEM_MALLOC_HUGE_FIRST);
    (void)aclrtCreateStream(&s);
    (void)aclFinalize();
}

static void finalize_clean(void) { (void)aclFinalize(); }

MG_TEST(finalize_says_what_it_released) {
    restart(NULL, "0");
    capture(finalize_with_leftovers);
    MG_CHECK_EQ_INT(count_of(log_text, "[WARNING] "), 1);
    MG_CHECK_EQ_INT(count_of(log_text, "aclFinalize: released 1 stream(s) and 2 memory block(s) the program left alive\n"), 1);
    /* nothing left: nothing said */
    restart(NULL, "0");
    capture(finalize_clean);
    MG_CHECK_EQ_INT(strlen(log_text), 0);
    /* level 4: silent even with leftovers */
    restart("4", "0");
    capture(finalize_with_leftovers);
    MG_CHECK_EQ_INT(strlen(log_text), 0);
    restart(NULL, NULL);
}

/* ---- a destroyed stream's unreported failure ------------------------------------------- */

/* Work whose failure no synchronize reported would otherwise vanish with its stream: the
   destroy says so once at WARNING; a stream whose work succeeded goes quietly. */
static void *halves;
static aclrtStream failing_stream, clean_stream;

static void destroy_clean_stream(void) { MG_CHECK_EQ_INT(aclrtDestroyStream(clean_stream), 0); }
static void destroy_failing_stream(void) { MG_CHECK_EQ_INT(aclrtDestroyStream(failing_stream), 0); }

MG_TEST(destroy_warns_of_a_failure_nobody_synchronized) {
    setenv("MISHGRAD_FAULT_STEP", "1", 1); /* the first queued step fails when it runs */
    restart("2", "0");
    unsetenv("MISHGRAD_FAULT_STEP");
    MG_CHECK_EQ_INT(aclrtMalloc(&halves, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMemset(halves, 64, 0x5A, 64), 0); /* not queued: not a step */
    MG_CHECK_EQ_INT(aclrtCreateStream(&failing_stream), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&clean_stream), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(halves, 32, 1, 32, failing_stream), 0);
    MG_CHECK_EQ_INT(aclrtMemsetAsync((char *)halves + 32, 32, 2, 32, clean_stream), 0);
    /* the failing stream first: its step's error line is written when the step runs */
    capture(destroy_failing_stream);
    MG_CHECK_EQ_INT(count_of(log_text, "[WARNING] "), 1);
    MG_CHECK_STR_CONTAINS(log_text, "a destroyed stream's last work failed (561000)");
    capture(destroy_clean_stream);
    MG_CHECK_EQ_INT(strlen(log_text), 0);
    unsigned char back[64];
    MG_CHECK_EQ_INT(aclrtMemcpy(back, 64, halves, 64, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    MG_CHECK_EQ_INT(back[0], 0x5A); /* the failed step did not run */
    MG_CHECK_EQ_INT(back[32], 2);
    MG_CHECK_EQ_INT(aclrtFree(halves), 0);
    restart(NULL, NULL);
}

/* ---- copies: which sides are device memory, per kind ------------------------------------ */

/* Every kind's device side is checked against its block (one byte past it: 100000, nothing
   copied); a host side is not; ACL_MEMCPY_DEFAULT tells the sides apart by the blocks. The
   same through aclrtMemcpyAsync, which refuses host to host (207000). */
MG_TEST(copy_kinds_check_their_device_sides) {
    restart("4", NULL);
    static const struct {
        aclrtMemcpyKind kind;
        int dst_dev, src_dev;
    } kinds[] = {
        {ACL_MEMCPY_HOST_TO_HOST, 0, 0},          {ACL_MEMCPY_HOST_TO_DEVICE, 1, 0},
        {ACL_MEMCPY_DEVICE_TO_HOST, 0, 1},        {ACL_MEMCPY_DEVICE_TO_DEVICE, 1, 1},
        {ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 1, 0},
    };
    unsigned char *d1 = NULL, *d2 = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&d2, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    unsigned char *big = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&big, 128, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    static unsigned char h1[256], h2[256];
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    for (int async = 0; async < 2; async++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            unsigned char *dst = kinds[k].dst_dev ? d1 : h1, *src = kinds[k].src_dev ? d2 : h2;
            for (int i = 0; i < 64; i++) {
                src[i] = (unsigned char)(i + 7 * (int)k + async);
                dst[i] = 0;
            }
            aclError st = async ? aclrtMemcpyAsync(dst, 64, src, 64, kinds[k].kind, s)
                                : aclrtMemcpy(dst, 64, src, 64, kinds[k].kind);
            if (async && !kinds[k].dst_dev && !kinds[k].src_dev) {
                /* CANN's EP mode has no asynchronous host-to-host copy: 207000, nothing copied */
                MG_CHECK_EQ_INT(st, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
                MG_CHECK(dst[0] == 0);
                continue;
            }
            if (async) MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
            MG_CHECK_EQ_INT(st, 0);
            MG_CHECK(memcmp(dst, src, 64) == 0);
            /* 65 bytes past one side's 64-byte block, the other side with room (a 128-byte
               block, or host memory): refused exactly when the short side is device memory */
            for (int short_side = 0; short_side < 2; short_side++) {
                unsigned char *to = short_side == 0 ? dst : (kinds[k].dst_dev ? big : h1);
                const unsigned char *from = short_side == 1 ? src : (kinds[k].src_dev ? big : h2);
                int device_side = short_side == 0 ? kinds[k].dst_dev : kinds[k].src_dev;
                memset(to, 0xAB, 64);
                st = async ? aclrtMemcpyAsync(to, 65, from, 65, kinds[k].kind, s)
                           : aclrtMemcpy(to, 65, from, 65, kinds[k].kind);
                if (async) MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), 0);
                if (st != (device_side ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS))
                    MG_FAIL("kind %d%s, %s 65 bytes: status %d", (int)kinds[k].kind, async ? " (async)" : "",
                            short_side == 0 ? "dst" : "src", (int)st);
                else
                    MG_CHECK(1);
                if (device_side) MG_CHECK(to[0] == 0xAB && to[63] == 0xAB); /* nothing copied */
            }
        }
    /* DEFAULT: device to host and host to device by the blocks */
    for (int i = 0; i < 64; i++) d1[i] = (unsigned char)(200 - i);
    MG_CHECK_EQ_INT(aclrtMemcpy(h1, 256, d1, 64, ACL_MEMCPY_DEFAULT), 0);
    MG_CHECK(memcmp(h1, d1, 64) == 0);
    MG_CHECK_EQ_INT(aclrtMemcpy(h1, 256, d1, 65, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(d2, 64, h2, 65, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID); /* > destMax */
    MG_CHECK_EQ_INT(aclrtMemcpy(d2, 65, h2, 65, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(h1, 256, h2, 200, ACL_MEMCPY_DEFAULT), 0);
    /* a kind that is not one; 6 and 7 are declared, but CANN's acl layer takes 0..5 only */
    MG_CHECK_EQ_INT(aclrtMemcpy(d1, 64, d2, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpyAsync(d1, 64, d2, 8, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(h1, 256, h2, 8, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtMemcpy(h1, 256, h2, 8, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    aclrtFree(d1);
    aclrtFree(d2);
    aclrtFree(big);
}

/* mgrt_handle_reclaim_all (what aclFinalize runs) returns how many handles it reclaimed:
   every live one, of every kind. Last in this file: it ends the session's handles. */
/* ---- the product profiles (MISHGRAD_SOC_VERSION) ------------------------------------------ */

/* docs/ascendc_twin.md's table of the vector core facts per product, one name of each row
   (a pattern's row, by a name it matches), and the default profile (unset: an Ascend910B). */
MG_TEST(soc_profiles_follow_the_twin_table) {
    static const struct {
        const char *soc; /* NULL: unset */
        uint32_t cores;
        uint64_t ub, workspace;
    } rows[] = {
        {NULL, 48, 196608, 16u << 20},          {"Ascend910B2", 48, 196608, 16u << 20},
        {"Ascend910_9391", 48, 196608, 16u << 20}, {"Ascend950PR", 64, 253952, 16u << 20},
        {"Ascend910A", 32, 262144, 2u << 20},   {"Ascend910ProB", 32, 262144, 2u << 20},
        {"Ascend910PremiumA", 32, 262144, 2u << 20}, {"Ascend310P3", 8, 262144, 2u << 20},
        {"Ascend310B1", 1, 262144, 2u << 20},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].soc) setenv("MISHGRAD_SOC_VERSION", rows[i].soc, 1); else unsetenv("MISHGRAD_SOC_VERSION");
        restart("4", NULL);
        const mgrt_soc_profile *p = mgrt_soc();
        MG_CHECK(p != NULL);
        if (p == NULL) continue;
        if (p->aiv_core_num != rows[i].cores || p->ub_bytes != rows[i].ub || p->lib_workspace_bytes != rows[i].workspace)
            MG_FAIL("%s: %u cores, %llu UB bytes, %llu workspace bytes; the table says %u, %llu, %llu",
                    rows[i].soc ? rows[i].soc : "(unset)", (unsigned)p->aiv_core_num, (unsigned long long)p->ub_bytes,
                    (unsigned long long)p->lib_workspace_bytes, (unsigned)rows[i].cores,
                    (unsigned long long)rows[i].ub, (unsigned long long)rows[i].workspace);
        else
            MG_CHECK(1);
    }
    unsetenv("MISHGRAD_SOC_VERSION");
    restart("4", NULL);
}

/* ASCEND_PROCESS_LOG_PATH of one character ("."): the log goes under it, as under any other
   root (seed 27's survivor: a root of one character taken for none, nothing logged). */
MG_TEST(log_root_of_one_character) {
    char here[4096], scratch[512];
    MG_CHECK(getcwd(here, sizeof here) != NULL);
    MG_CHECK(mg_scratch_make(scratch, sizeof scratch, "mg_log_root"));
    MG_CHECK_EQ_INT(chdir(scratch), 0);
    char *saved = getenv("ASCEND_PROCESS_LOG_PATH") ? strdup(getenv("ASCEND_PROCESS_LOG_PATH")) : NULL;
    setenv("ASCEND_PROCESS_LOG_PATH", ".", 1);
    restart(NULL, NULL);
    void *p = NULL;
    MG_CHECK(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS); /* an error, logged */
    (void)aclGetRecentErrMsg();
    char path[4300];
    MG_CHECK(mg_log_path(path, sizeof path));
    MG_CHECK(strncmp(path, "./debug/plog/plog-", 18) == 0);
    char *text = mg_log_text_since(0);
    MG_CHECK(text != NULL && strstr(text, "aclrtMalloc") != NULL);
    free(text);
    if (saved) setenv("ASCEND_PROCESS_LOG_PATH", saved, 1); else unsetenv("ASCEND_PROCESS_LOG_PATH");
    free(saved);
    MG_CHECK_EQ_INT(chdir(here), 0);
    restart("4", NULL);
}

/* The log file is named as CANN names it: plog-<pid>_<local time, YYYYmmddHHMMSS><ms>.log,
   the time when the file was opened (seed 48's survivor: the year written as tm_year - 1900). */
MG_TEST(log_file_named_by_pid_and_local_time) {
    char scratch[512];
    MG_CHECK(mg_scratch_make(scratch, sizeof scratch, "mg_log_name"));
    char *saved = getenv("ASCEND_PROCESS_LOG_PATH") ? strdup(getenv("ASCEND_PROCESS_LOG_PATH")) : NULL;
    setenv("ASCEND_PROCESS_LOG_PATH", scratch, 1);
    const time_t before = time(NULL);
    restart(NULL, NULL);
    void *p = NULL;
    MG_CHECK(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS); /* an error, logged */
    (void)aclGetRecentErrMsg();
    const time_t after = time(NULL);
    char path[4300], prefix[4200];
    MG_CHECK(mg_log_path(path, sizeof path));
    snprintf(prefix, sizeof prefix, "%s/debug/plog/plog-%ld_", scratch, (long)getpid());
    MG_CHECK(strncmp(path, prefix, strlen(prefix)) == 0);
    const char *stamp = path + strlen(prefix);
    int digits = 0;
    while (stamp[digits] >= '0' && stamp[digits] <= '9') digits++;
    MG_CHECK_EQ_INT(digits, 17);
    MG_CHECK(strcmp(stamp + digits, ".log") == 0);
    if (digits == 17) {
        int y, mo, d, h, mi, se, ms;
        MG_CHECK_EQ_INT(sscanf(stamp, "%4d%2d%2d%2d%2d%2d%3d", &y, &mo, &d, &h, &mi, &se, &ms), 7);
        const time_t at = mg_log_stamp_time(y, mo, d, h, mi, se);
        if (at < before - 1 || at > after + 1)
            MG_FAIL("the file's name says %s, %lld s from the call (between %lld and %lld)", stamp, (long long)at,
                    (long long)before, (long long)after);
        else
            MG_CHECK(1);
        MG_CHECK(ms >= 0 && ms <= 999);
    }
    if (saved) setenv("ASCEND_PROCESS_LOG_PATH", saved, 1); else unsetenv("ASCEND_PROCESS_LOG_PATH");
    free(saved);
    restart("4", NULL);
}

MG_TEST(zz_reclaim_all_counts_every_live_handle) {
    restart("4", NULL);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {4};
    for (int i = 0; i < 3; i++) MG_CHECK(aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev) != NULL);
    float one = 1.0f;
    for (int i = 0; i < 2; i++) MG_CHECK(aclCreateScalar(&one, ACL_FLOAT) != NULL);
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), 0);
    size_t live = 0;
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) live += mgrt_handle_live_count((mgrt_handle_kind)k);
    MG_CHECK(live >= 6);
    MG_CHECK_EQ_INT(mgrt_handle_live_count(MGRT_HANDLE_TENSOR), 3);
    MG_CHECK_EQ_INT(mgrt_handle_live_count(MGRT_HANDLE_SCALAR), 2);
    MG_CHECK_EQ_INT(mgrt_handle_reclaim_all(), live);
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) MG_CHECK_EQ_INT(mgrt_handle_live_count((mgrt_handle_kind)k), 0);
    (void)aclFinalize();
}

MG_TEST_MAIN()
