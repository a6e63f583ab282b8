/*
 * tests/ut/runtime/test_lifecycle.c: the runtime's life cycle as CANN's runtime behaves
 * (its own process: it initializes and finalizes many times). aclFinalize and
 * aclFinalizeReference against the aclInit count, aclInit's configuration file checks,
 * aclrtSetDevice / aclrtResetDevice reference counting and what the last reset releases,
 * and the thread's last error (aclrtGetLastError / aclrtPeekAtLastError).
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_scratch.h"
#include "mg_test.h"

static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

/* ---- aclFinalize, aclFinalizeReference -------------------------------------------------- */

/* Defined first, so it runs first: nothing has called aclInit yet. */
MG_TEST(finalize_without_init_succeeds_and_a_repeat_is_100037) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);
    /* CANN: nothing finalized yet, so this one succeeds and releases nothing. */
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    MG_CHECK_STR_CONTAINS(last_message(), "aclFinalize: already finalized");
    uint64_t left = 77;
    MG_CHECK_EQ_INT(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE);
    MG_CHECK_STR_CONTAINS(last_message(), "no aclInit reference is left");
    MG_CHECK_EQ_INT(left, 77); /* nothing written on failure */

    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    MG_CHECK_STR_CONTAINS(last_message(), "call aclInit before finalizing again");
    /* aclInit clears it: the runtime starts and finalizes again. */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST(finalize_reference_counts_the_aclinit_calls) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    MG_CHECK_STR_CONTAINS(last_message(), "2 aclInit references");
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    uint64_t left = 99;
    MG_CHECK_EQ_INT(aclFinalizeReference(&left), ACL_SUCCESS);
    MG_CHECK_EQ_INT(left, 2);
    /* Still initialized. */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalizeReference(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    left = 99;
    MG_CHECK_EQ_INT(aclFinalizeReference(&left), ACL_SUCCESS); /* the last: finalizes */
    MG_CHECK_EQ_INT(left, 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclFinalizeReference(&left), ACL_ERROR_REPEAT_FINALIZE);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    (void)aclGetRecentErrMsg();

    /* Plain aclFinalize finalizes whatever the count. */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    MG_CHECK_EQ_INT(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
    (void)aclGetRecentErrMsg();
}

/* ---- the configuration file ------------------------------------------------------------- */

static char config_dir[200];

static const char *write_config(const char *name, const void *text, size_t length) {
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", config_dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) return NULL;
    if (length > 0) fwrite(text, 1, length, f);
    fclose(f);
    return path;
}

/* aclInit(path) == expected; the message names the file and `reason`. */
static void expect_init(const char *path, aclError expected, const char *reason) {
    aclError status = aclInit(path);
    if (status != expected) MG_FAIL("aclInit(\"%s\") == %d, expected %d", path ? path : "(null)", status, expected);
    if (status == ACL_SUCCESS) {
        MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
        return;
    }
    const char *message = last_message();
    if (path != NULL) MG_CHECK_STR_CONTAINS(message, path);
    if (reason != NULL) MG_CHECK_STR_CONTAINS(message, reason);
    /* Refused: nothing was initialized. */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    (void)aclGetRecentErrMsg();
}

static void expect_text(const char *text, aclError expected, const char *reason) {
    const char *path = write_config("config.json", text, strlen(text));
    MG_CHECK(path != NULL);
    if (path == NULL) return;
    if (aclInit(path) != expected) MG_FAIL("configuration text [%s]: expected %d", text, expected);
    if (expected == ACL_SUCCESS) {
        MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    } else {
        const char *message = last_message();
        MG_CHECK_STR_CONTAINS(message, "is not valid JSON");
        if (reason != NULL) MG_CHECK_STR_CONTAINS(message, reason);
    }
}

static void nested(char *out, int objects, int arrays) {
    char *p = out;
    for (int i = 0; i < objects; i++) p += sprintf(p, "{\"k\":");
    for (int i = 0; i < arrays; i++) *p++ = '[';
    *p++ = '1';
    for (int i = 0; i < arrays; i++) *p++ = ']';
    for (int i = 0; i < objects; i++) *p++ = '}';
    *p = '\0';
}

MG_TEST(config_file_paths_are_checked_as_cann_does) {
    MG_CHECK(mg_scratch_make(config_dir, sizeof config_dir, "mg_lifecycle"));
    expect_init(NULL, ACL_SUCCESS, NULL);
    expect_init("", ACL_SUCCESS, NULL);
    expect_init("/nonexistent-dir/acl.json", ACL_ERROR_INVALID_FILE, "is not a valid path");
    expect_init(config_dir, ACL_ERROR_INVALID_FILE, "is not a regular file");
    /* Empty: configures nothing, fine. */
    expect_init(write_config("empty.json", "", 0), ACL_SUCCESS, NULL);
    /* 10 MiB is the limit; one byte more is refused (a sparse file: nothing is written). */
    const char *big = write_config("big.json", "", 0);
    MG_CHECK_EQ_INT(truncate(big, 10L * 1024 * 1024 + 1), 0);
    expect_init(big, ACL_ERROR_INVALID_FILE, "more than the 10 MiB");
    /* Exactly 10 MiB is read: its NUL bytes are refused as JSON, not for the file's size. */
    MG_CHECK_EQ_INT(truncate(big, 10L * 1024 * 1024), 0);
    expect_init(big, ACL_ERROR_PARSE_FILE, "is not valid JSON");
    unlink(big);
    /* Unreadable (root reads anything: then there is nothing to test). */
    if (geteuid() != 0) {
        const char *locked = write_config("locked.json", "{}", 2);
        chmod(locked, 0);
        expect_init(locked, ACL_ERROR_INVALID_FILE, "cannot be opened for reading");
        unlink(locked);
    }
}

MG_TEST(config_file_must_be_json_nested_at_most_10_deep) {
    char text[512];
    nested(text, 10, 0);
    expect_text(text, ACL_SUCCESS, NULL);
    nested(text, 0, 10);
    expect_text(text, ACL_SUCCESS, NULL);
    nested(text, 10, 10); /* CANN counts objects and arrays apart */
    expect_text(text, ACL_SUCCESS, NULL);
    nested(text, 11, 0);
    expect_text(text, ACL_ERROR_PARSE_FILE, "objects nested more than 10 deep");
    nested(text, 0, 11);
    expect_text(text, ACL_ERROR_PARSE_FILE, "arrays nested more than 10 deep");

    static const char *const valid[] = {
        "{}", "[]", " \t\r\n{ } \n", "3", "-0.5e+3", "\"text\"", "null", "true",
        "{\"dump\": {\"dump_list\": [], \"dump_path\": \"/tmp\", \"n\": [1, 2.5, -3E-2, true, false, null]}}",
        "[\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\"]", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
        "\xef\xbb\xbf{}", /* a UTF-8 byte-order mark */
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) expect_text(valid[i], ACL_SUCCESS, NULL);

    static const struct {
        const char *text, *reason;
    } invalid[] = {
        {" \n ", "ends where a value is expected"},
        {"{", "not a string"},
        {"{\"a\":}", "not the start of a JSON value"},
        {"{\"a\" 1}", "not followed by ':'"},
        {"{a: 1}", "not a string"},
        {"{\"a\": 1,}", "not a string"},
        {"[1,]", "not the start of a JSON value"},
        {"[1 2]", "not followed by ',' or ']'"},
        {"{} {}", "more text after the JSON value"},
        {"01", "more text after the JSON value"},
        {"1.", "no digit after its decimal point"},
        {"1e", "no digit in its exponent"},
        {"-", "without digits"},
        {"+1", "not the start of a JSON value"},
        {"tru", "not the start of a JSON value"},
        {"NaN", "not the start of a JSON value"},
        {"'a'", "not the start of a JSON value"},
        {"\"abc", "not closed"},
        {"\"a\nb\"", "control character"},
        {"\"\\x\"", "escape that JSON does not have"},
        {"\"\\u12g4\"", "four hex digits"},
        {"\"\\ud800\"", "unpaired UTF-16 surrogate"},
        {"\"\\udc00\"", "unpaired UTF-16 surrogate"},
        {"\"\xff\"", "not UTF-8"},
        {"\"\x80\"", "not UTF-8"},       /* a continuation byte with no lead, the least one */
        {"\"\xc0\xaf\"", "not UTF-8"},       /* an overlong '/' */
        {"\"\xed\xa0\x80\"", "not UTF-8"},   /* an encoded surrogate */
        {"{\"a\": 1} // comment", "more text after the JSON value"},
    };
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        expect_text(invalid[i].text, ACL_ERROR_PARSE_FILE, invalid[i].reason);
    /* A NUL byte is not JSON text either. */
    const char *path = write_config("nul.json", "{}\0", 3);
    expect_init(path, ACL_ERROR_PARSE_FILE, "more text after the JSON value");
    unlink(path);
    unlink(write_config("config.json", "", 0));
    rmdir(config_dir);
}

/* ---- aclrtSetDevice / aclrtResetDevice ---------------------------------------------------- */

typedef struct other_thread {
    aclrtContext context;
    sem_t ready, go, done;
    aclError malloc_status;
    char message[512];
} other_thread;

/* Takes `context` as its current one, then, once told, tries to allocate. */
static void *use_context_later(void *arg) {
    other_thread *t = arg;
    aclrtSetCurrentContext(t->context);
    sem_post(&t->ready);
    sem_wait(&t->go);
    void *p = NULL;
    t->malloc_status = aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    snprintf(t->message, sizeof t->message, "%s", last_message());
    if (t->malloc_status == ACL_SUCCESS) aclrtFree(p);
    sem_post(&t->done);
    return NULL;
}

MG_TEST(reset_device_counts_and_the_last_releases_the_default_context) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext first = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&first), ACL_SUCCESS);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);

    /* One reset of two: the thread keeps its context and its stream. */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtContext now = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&now), ACL_SUCCESS);
    MG_CHECK(now == first);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);

    /* A context of the program's own, and another thread whose current context is the
       default one. */
    aclrtContext made = NULL;
    MG_CHECK_EQ_INT(aclrtCreateContext(&made, 0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(first), ACL_SUCCESS);
    other_thread t;
    memset(&t, 0, sizeof t);
    t.context = first;
    sem_init(&t.ready, 0, 0);
    sem_init(&t.go, 0, 0);
    sem_init(&t.done, 0, 0);
    pthread_t thread;
    MG_CHECK_EQ_INT(pthread_create(&thread, NULL, use_context_later, &t), 0);
    sem_wait(&t.ready);

    /* Work queued on the stream and on the default stream finishes before they go. */
    void *second = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&second, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(block, 64 << 20, 0x5a, 64 << 20, stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemsetAsync(second, 64 << 20, 0x3c, 64 << 20, NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS); /* the last */
    MG_CHECK(((unsigned char *)block)[(64 << 20) - 1] == 0x5a);
    MG_CHECK(((unsigned char *)second)[(64 << 20) - 1] == 0x3c);

    /* The calling thread has no context; the other one's is gone. */
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    sem_post(&t.go);
    sem_wait(&t.done);
    pthread_join(thread, NULL);
    MG_CHECK_EQ_INT(t.malloc_status, ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_STR_CONTAINS(t.message, "is stale");

    /* The program's context stays, with its streams. */
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(made), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    aclrtStream kept = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&kept), ACL_SUCCESS);
    /* The default context's stream is a stale handle: refused, never a crash. */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");

    /* Set again: a new default context. */
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&now), ACL_SUCCESS);
    MG_CHECK(now != first);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(second), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetCurrentContext(made), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(kept), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyContext(made), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST(reset_device_force_ignores_the_count_and_an_unset_device_is_507007) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    /* Never set. */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    MG_CHECK_STR_CONTAINS(last_message(), "aclrtResetDevice: device 0: the device has not been set or has already been reset");
    MG_CHECK_EQ_INT(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    MG_CHECK_STR_CONTAINS(last_message(), "the device has not been set or has already been reset");
    /* The device id is checked first. */
    MG_CHECK_EQ_INT(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    (void)aclGetRecentErrMsg();

    for (int i = 0; i < 3; i++) MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    /* Already reset. */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    MG_CHECK_STR_CONTAINS(last_message(), "has already been reset");
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

/* ---- the thread's last error --------------------------------------------------------------- */

static void *peek_elsewhere(void *arg) {
    *(aclError *)arg = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    return NULL;
}

MG_TEST(last_error_is_the_threads_last_runtime_code) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL); /* whatever the earlier tests left */
    MG_CHECK_EQ_INT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    /* Peek keeps it; Get returns it and clears it. */
    MG_CHECK_EQ_INT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    MG_CHECK_EQ_INT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    /* Per thread. */
    aclError elsewhere = -1;
    pthread_t thread;
    MG_CHECK_EQ_INT(pthread_create(&thread, NULL, peek_elsewhere, &elsewhere), 0);
    pthread_join(thread, NULL);
    MG_CHECK_EQ_INT(elsewhere, ACL_SUCCESS);
    /* The acl layer's own checks (100000 here) are not runtime errors: kept as it was. */
    MG_CHECK_EQ_INT(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_EQ_INT(aclrtPeekAtLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "level 1 is not ACL_RT_THREAD_LEVEL");
    MG_CHECK_EQ_INT(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    MG_CHECK_EQ_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_NULL); /* the malloc's */
    MG_CHECK_EQ_INT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST_MAIN()
