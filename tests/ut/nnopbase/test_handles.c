/*
 * tests/ut/nnopbase/test_handles.c: the shared handle registry (runtime/mgrt_handle.h):
 * identity that survives slot reuse, kinds, pins that defer destruction, the reclaim at
 * aclFinalize with its warning line, and a release racing pins on other threads.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_log_file.h"
#include "mg_test.h"
#include "mgrt_handle.h"

typedef struct thing {
    int value;
    atomic_int *destroyed;
} thing;

static void destroy_thing(void *object) {
    thing *t = object;
    atomic_fetch_add(t->destroyed, 1);
    free(t);
}

static thing *new_thing(int value, atomic_int *destroyed) {
    thing *t = malloc(sizeof *t);
    t->value = value;
    t->destroyed = destroyed;
    return t;
}

MG_TEST(register_pin_release) {
    atomic_int destroyed = 0;
    void *token = mgrt_handle_register(MGRT_HANDLE_SCALAR, new_thing(7, &destroyed), destroy_thing);
    MG_CHECK(token != NULL);
    thing *t = mgrt_handle_pin(token, MGRT_HANDLE_SCALAR);
    MG_CHECK(t != NULL && t->value == 7);
    if (t) mgrt_handle_unpin(token);
    MG_CHECK_EQ_INT(mgrt_handle_state_of(token, MGRT_HANDLE_SCALAR), MGRT_HANDLE_LIVE);
    MG_CHECK_EQ_INT(mgrt_handle_release(token, MGRT_HANDLE_SCALAR), 1);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 1);
    MG_CHECK(mgrt_handle_pin(token, MGRT_HANDLE_SCALAR) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_release(token, MGRT_HANDLE_SCALAR), 0); /* twice: refused */
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 1);
    MG_CHECK_EQ_INT(mgrt_handle_state_of(token, MGRT_HANDLE_SCALAR), MGRT_HANDLE_STALE);
    MG_CHECK_STR_CONTAINS(mgrt_handle_describe(token, MGRT_HANDLE_SCALAR), "stale");
}

/* Defect 1's mechanism: a slot (like an address) is reused, the old handle is not. */
MG_TEST(reused_slot_keeps_old_token_stale) {
    atomic_int destroyed = 0;
    void *first = mgrt_handle_register(MGRT_HANDLE_TENSOR, new_thing(1, &destroyed), destroy_thing);
    MG_CHECK_EQ_INT(mgrt_handle_release(first, MGRT_HANDLE_TENSOR), 1);
    /* Enough registrations to come back to the first slot whatever the free list holds. */
    enum { N = 5000 };
    static void *tokens[N];
    int met_old = 0;
    for (int i = 0; i < N; i++) {
        tokens[i] = mgrt_handle_register(MGRT_HANDLE_TENSOR, new_thing(100 + i, &destroyed), destroy_thing);
        MG_CHECK(tokens[i] != NULL);
        if (tokens[i] == first) met_old = 1;
        if (((uintptr_t)tokens[i] & 0xFFFFFF) == ((uintptr_t)first & 0xFFFFFF)) MG_CHECK(tokens[i] != first);
    }
    MG_CHECK(!met_old);
    MG_CHECK(mgrt_handle_pin(first, MGRT_HANDLE_TENSOR) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_release(first, MGRT_HANDLE_TENSOR), 0);
    for (int i = 0; i < N; i++) MG_CHECK_EQ_INT(mgrt_handle_release(tokens[i], MGRT_HANDLE_TENSOR), 1);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), N + 1);
    MG_CHECK_EQ_INT(mgrt_handle_live_count(MGRT_HANDLE_TENSOR), 0);
}

MG_TEST(kinds_and_foreign_pointers) {
    atomic_int destroyed = 0;
    void *array = mgrt_handle_register(MGRT_HANDLE_INT_ARRAY, new_thing(3, &destroyed), destroy_thing);
    MG_CHECK(mgrt_handle_pin(array, MGRT_HANDLE_TENSOR) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_release(array, MGRT_HANDLE_TENSOR), 0);
    MG_CHECK_EQ_INT(mgrt_handle_state_of(array, MGRT_HANDLE_TENSOR), MGRT_HANDLE_OTHER_KIND);
    MG_CHECK_STR_CONTAINS(mgrt_handle_describe(array, MGRT_HANDLE_TENSOR), "is an aclIntArray, not an aclTensor");
    int local = 0;
    MG_CHECK(mgrt_handle_pin(&local, MGRT_HANDLE_INT_ARRAY) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_state_of(&local, MGRT_HANDLE_INT_ARRAY), MGRT_HANDLE_FOREIGN);
    MG_CHECK_STR_CONTAINS(mgrt_handle_describe(&local, MGRT_HANDLE_INT_ARRAY), "not created by this library");
    MG_CHECK_STR_CONTAINS(mgrt_handle_describe(NULL, MGRT_HANDLE_INT_ARRAY), "NULL");
    /* A token's bits with a slot never handed out. */
    void *forged = (void *)(((uintptr_t)array & ~(uintptr_t)0xFFFFFF) | 0xFFFFFE);
    MG_CHECK(mgrt_handle_pin(forged, MGRT_HANDLE_INT_ARRAY) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_state_of(forged, MGRT_HANDLE_INT_ARRAY), MGRT_HANDLE_FOREIGN);
    MG_CHECK(mgrt_handle_register(MGRT_HANDLE_KIND_COUNT, &local, NULL) == NULL);
    MG_CHECK(mgrt_handle_register(MGRT_HANDLE_TENSOR, NULL, NULL) == NULL);
    MG_CHECK_EQ_INT(mgrt_handle_release(array, MGRT_HANDLE_INT_ARRAY), 1);
    MG_CHECK_STR_CONTAINS(mgrt_handle_kind_name(MGRT_HANDLE_EXECUTOR), "aclOpExecutor");
}

/* Defect 2's mechanism: a pinned object outlives its release until the last unpin. */
MG_TEST(release_waits_for_the_last_pin) {
    atomic_int destroyed = 0;
    void *token = mgrt_handle_register(MGRT_HANDLE_EXECUTOR, new_thing(9, &destroyed), destroy_thing);
    thing *a = mgrt_handle_pin(token, MGRT_HANDLE_EXECUTOR);
    thing *b = mgrt_handle_pin(token, MGRT_HANDLE_EXECUTOR);
    MG_CHECK(a != NULL && a == b);
    MG_CHECK_EQ_INT(mgrt_handle_release(token, MGRT_HANDLE_EXECUTOR), 1);
    MG_CHECK(mgrt_handle_pin(token, MGRT_HANDLE_EXECUTOR) == NULL); /* no new pins */
    MG_CHECK_EQ_INT(mgrt_handle_state_of(token, MGRT_HANDLE_EXECUTOR), MGRT_HANDLE_STALE);
    MG_CHECK_EQ_INT(mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR), 0);
    MG_CHECK_EQ_INT(a->value, 9); /* still there */
    mgrt_handle_unpin(token);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 0);
    mgrt_handle_unpin(token);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 1);
    mgrt_handle_unpin(token); /* unbalanced: ignored */
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 1);
}

/* ---- a release racing pins (run under TSan by .ci/sanitizers.sh: label threads) ----- */

typedef struct race {
    void *token;
    atomic_int stop;
    atomic_long pins;
    atomic_int bad;
} race;

static void *pinner(void *opaque) {
    race *r = opaque;
    while (!atomic_load(&r->stop)) {
        thing *t = mgrt_handle_pin(r->token, MGRT_HANDLE_TENSOR);
        if (t == NULL) continue;
        if (t->value != 42) atomic_store(&r->bad, 1);
        atomic_fetch_add(&r->pins, 1);
        mgrt_handle_unpin(r->token);
    }
    return NULL;
}

MG_TEST(release_racing_pins_destroys_once) {
    for (int round = 0; round < 50; round++) {
        atomic_int destroyed = 0;
        race r;
        r.token = mgrt_handle_register(MGRT_HANDLE_TENSOR, new_thing(42, &destroyed), destroy_thing);
        atomic_init(&r.stop, 0);
        atomic_init(&r.pins, 0);
        atomic_init(&r.bad, 0);
        pthread_t threads[3];
        for (int i = 0; i < 3; i++) pthread_create(&threads[i], NULL, pinner, &r);
        while (atomic_load(&r.pins) < 20) sched_yield();
        int released = 0;
        /* Two releasers: exactly one wins. */
        released += mgrt_handle_release(r.token, MGRT_HANDLE_TENSOR);
        released += mgrt_handle_release(r.token, MGRT_HANDLE_TENSOR);
        atomic_store(&r.stop, 1);
        for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
        MG_CHECK_EQ_INT(released, 1);
        MG_CHECK_EQ_INT(atomic_load(&destroyed), 1);
        MG_CHECK_EQ_INT(atomic_load(&r.bad), 0);
    }
}

/* ---- aclFinalize reclaims (defect 9's mechanism) ------------------------------------ */

/* Runs fn; returns what the runtime logged meanwhile (malloc'd): its log file's new text
   (CANN's place for log lines; nothing goes to stderr). */
static char *capture_log(void (*fn)(void *), void *arg) {
    const long before = mg_log_size();
    fn(arg);
    return mg_log_text_since(before);
}

static void finalize(void *status) { *(aclError *)status = aclFinalize(); }

static int count_lines_with(const char *text, const char *a, const char *b) {
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        char buffer[512];
        snprintf(buffer, sizeof buffer, "%.*s", (int)(length < sizeof buffer - 1 ? length : sizeof buffer - 1), line);
        if (strstr(buffer, a) && strstr(buffer, b)) n++;
        line = end ? end + 1 : line + length;
    }
    return n;
}

MG_TEST(finalize_reclaims_every_kind_with_one_warning_each) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    atomic_int destroyed = 0;
    void *kept[5];
    for (int i = 0; i < 3; i++)
        kept[i] = mgrt_handle_register(MGRT_HANDLE_FLOAT_ARRAY, new_thing(i, &destroyed), destroy_thing);
    for (int i = 3; i < 5; i++)
        kept[i] = mgrt_handle_register(MGRT_HANDLE_BOOL_ARRAY, new_thing(i, &destroyed), destroy_thing);
    /* A pinned one: released now, destroyed at its unpin. */
    MG_CHECK(mgrt_handle_pin(kept[0], MGRT_HANDLE_FLOAT_ARRAY) != NULL);
    aclError status = -1;
    char *log = capture_log(finalize, &status);
    MG_CHECK_EQ_INT(status, ACL_SUCCESS);
    MG_CHECK(log != NULL);
    if (log) {
        MG_CHECK_EQ_INT(count_lines_with(log, "[WARNING]", "reclaimed 3 aclFloatArray"), 1);
        MG_CHECK_EQ_INT(count_lines_with(log, "[WARNING]", "reclaimed 2 aclBoolArray"), 1);
        MG_CHECK_EQ_INT(count_lines_with(log, "reclaimed", "aclTensor"), 0);
    }
    free(log);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 4);
    mgrt_handle_unpin(kept[0]);
    MG_CHECK_EQ_INT(atomic_load(&destroyed), 5);
    for (int i = 0; i < 5; i++)
        MG_CHECK_EQ_INT(mgrt_handle_state_of(kept[i], i < 3 ? MGRT_HANDLE_FLOAT_ARRAY : MGRT_HANDLE_BOOL_ARRAY),
                        MGRT_HANDLE_STALE);
    MG_CHECK_EQ_INT(mgrt_handle_live_count(MGRT_HANDLE_FLOAT_ARRAY), 0);
    /* A clean finalize says nothing. */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    log = capture_log(finalize, &status);
    MG_CHECK(log != NULL && strstr(log, "reclaimed") == NULL);
    free(log);
}

MG_TEST_MAIN()
