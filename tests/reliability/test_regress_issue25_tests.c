/*
 * tests/reliability/test_regress_issue25_tests.c: issue 25's items 11-14, four bugs an
 * independent sample of planted mutants showed no test would catch. Each test below fails
 * with the bug planted (the report of the change that added it says how each was tried).
 *
 * 11. aclrtResetDevice releases the default context, its default stream and the streams
 *     made in it (CANN's documentation of aclrtResetDevice); a context the program made
 *     with aclrtCreateContext is not among them, so a thread whose current context it is
 *     keeps it, and can still make streams in it.
 * 12. A stream whose creation meets aclFinalize gives its worker thread up (joined) and
 *     fails with 100001. The test reaches that window (threads creating streams while
 *     aclFinalize runs, many rounds) and counts the worker threads still alive afterwards.
 * 13. aclCreate*Array at its size limit: the largest size whose byte count is representable
 *     is an allocation that fails (561000 ACLNN_ERR_INNER, as any failed allocation); one
 *     more is a size larger than memory (161002 ACLNN_ERR_PARAM_INVALID).
 * 14. The Set*TensorAddr family's messages name the executor's parameters of the kind the
 *     call addresses (inputs, outputs, or all of them).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_test.h"
#include "nnop.h"

/* aclGetRecentErrMsg hands a message out once (CANN's): a copy, read as often as needed. */
/* Under a sanitizer: its own allocator and shadow memory map as they go, so the mapping count
   below proves nothing there (ThreadSanitizer reports a thread never joined itself, "thread
   leak", and AddressSanitizer the worker's use of the stream freed under it); and its
   allocator stops the program at a request near SIZE_MAX instead of answering NULL (its
   allocator_may_return_null is CI's to set), so the array limit's allocation side is the
   plain builds' to check. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PLAIN_BUILD 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PLAIN_BUILD 0
#endif
#endif
#ifndef PLAIN_BUILD
#define PLAIN_BUILD 1
#endif

static const char *message(void) {
    static _Thread_local char copy[1024];
    const char *m = aclGetRecentErrMsg();
    snprintf(copy, sizeof copy, "%s", m != NULL ? m : "");
    return copy;
}

/* ---- 11 --------------------------------------------------------------------------------- */

MG_TEST(reset_device_keeps_a_created_context_current) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext created = NULL;
    MG_CHECK_EQ_INT(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    MG_CHECK(created != NULL);
    /* the last reset: the default context goes, the created one (current here) stays */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    aclrtContext current = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    MG_CHECK(current == created);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_SUCCESS);
    if (s != NULL) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyContext(created), ACL_SUCCESS);
    /* the default context is gone with the reset: a thread on it would have none now */
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

/* ---- 12 --------------------------------------------------------------------------------- */

enum { CREATORS = 4, ROUNDS = 300 };

static atomic_int window_hits;  /* creations refused because aclFinalize ran during them */
static atomic_int bad_status;
static pthread_barrier_t start_line;

static void *creator(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    aclrtSetDevice(0);
    pthread_barrier_wait(&start_line);
    for (int i = 0; i < 200; i++) {
        aclrtStream s = NULL;
        const aclError r = aclrtCreateStream(&s);
        if (r == ACL_SUCCESS) {
            aclrtDestroyStream(s); /* 0, or 100001 once aclFinalize took it */
            if ((rand_r(&seed) & 3) == 0) sched_yield();
            continue;
        }
        if (r == ACL_ERROR_UNINITIALIZE) {
            if (strstr(message(), "aclFinalize ran during the call") != NULL) atomic_fetch_add(&window_hits, 1);
        } else if (r != ACL_ERROR_RT_CONTEXT_NULL) {
            atomic_store(&bad_status, (int)r);
        }
        break;
    }
    return NULL;
}

/* Threads of this process (/proc/self/task). */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A thread that ends without being joined leaves its stack mapped (glibc frees or caches a
   stack only at the join), so each stream worker given up without its join is one more
   mapping for good: the count of /proc/self/maps lines grows with the leaked threads. A
   joined thread's stack goes to glibc's cache (bounded) and is reused. */
static int mapping_count(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) return -1;
    int n = 0;
    for (int c; (c = fgetc(f)) != EOF;)
        if (c == '\n') n++;
    fclose(f);
    return n;
}

static void run_round(unsigned round) {
    if (aclInit(NULL) != ACL_SUCCESS) {
        atomic_store(&bad_status, -1);
        return;
    }
    pthread_t t[CREATORS];
    pthread_barrier_init(&start_line, NULL, CREATORS + 1);
    for (uintptr_t i = 0; i < CREATORS; i++) pthread_create(&t[i], NULL, creator, (void *)(round * 31u + i + 1));
    pthread_barrier_wait(&start_line);
    const struct timespec pause = {0, (long)(round % 7) * 20000L};
    nanosleep(&pause, NULL);
    if (aclFinalize() != ACL_SUCCESS) atomic_store(&bad_status, -2);
    for (int i = 0; i < CREATORS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start_line);
}

MG_TEST(stream_created_during_finalize_has_its_worker_joined) {
    const int threads_before = thread_count();
    /* warm-up rounds: glibc's malloc arenas and its stack cache reach their size */
    for (unsigned r = 0; r < 20; r++) run_round(r);
    const int maps_before = mapping_count();
    const int hits_before = atomic_load(&window_hits);
    for (unsigned r = 20; r < ROUNDS; r++) run_round(r);
    const int hits = atomic_load(&window_hits) - hits_before;
    const int maps_after = mapping_count();
    MG_CHECK_EQ_INT(atomic_load(&bad_status), 0);
    printf("  %d creation(s) met aclFinalize in %d rounds; mappings %d -> %d\n", hits, ROUNDS - 20, maps_before,
           maps_after);
    if (hits == 0) {
        MG_SKIP("no stream creation met aclFinalize in %d rounds on this machine", ROUNDS - 20);
        return;
    }
    /* joined workers: no mapping left behind (a few for the allocator's own bookkeeping) */
    if (PLAIN_BUILD) MG_CHECK(maps_after - maps_before < 8 + hits / 2);
    /* and no thread left: the creators are joined, every worker of a finalized runtime too */
    MG_CHECK_EQ_INT(thread_count(), threads_before);
}

/* ---- 13 --------------------------------------------------------------------------------- */

/* An array object is a 16-byte header (its uint64_t count, values aligned to 16) and the
   values: `elem` bytes each. The largest size whose byte count fits in a size_t: */
static uint64_t largest_representable(size_t elem) { return (uint64_t)((SIZE_MAX - 16) / elem); }

MG_TEST(create_array_size_limit_both_sides) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    static const int64_t iv[1] = {1};
    static const float fv[1] = {1.0f};
    static const bool bv[1] = {true};
    const uint64_t li = largest_representable(sizeof(int64_t));
    const uint64_t lf = largest_representable(sizeof(float));
    const uint64_t lb = largest_representable(sizeof(bool));
    /* The object calls return NULL; the message tells the code: "out of memory" is the
       failed allocation's (561000), "larger than memory" the refused size's (161002).
       At the limit: an allocation of nearly SIZE_MAX bytes, which fails. */
    if (PLAIN_BUILD) {
        MG_CHECK(aclCreateIntArray(iv, li) == NULL);
        MG_CHECK(strstr(message(), "aclCreateIntArray: out of memory") != NULL);
        MG_CHECK(aclCreateFloatArray(fv, lf) == NULL);
        MG_CHECK(strstr(message(), "aclCreateFloatArray: out of memory") != NULL);
        MG_CHECK(aclCreateBoolArray(bv, lb) == NULL);
        MG_CHECK(strstr(message(), "aclCreateBoolArray: out of memory") != NULL);
    } else {
        printf("  sanitizer build: the allocation at the limit is left to the plain builds\n");
    }
    /* one past it: larger than memory (161002), said as such */
    char want[128];
    MG_CHECK(aclCreateIntArray(iv, li + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateIntArray: size %llu is larger than memory", (unsigned long long)(li + 1));
    MG_CHECK_STR_CONTAINS(message(), want);
    MG_CHECK(aclCreateFloatArray(fv, lf + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateFloatArray: size %llu is larger than memory", (unsigned long long)(lf + 1));
    MG_CHECK_STR_CONTAINS(message(), want);
    MG_CHECK(aclCreateBoolArray(bv, lb + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateBoolArray: size %llu is larger than memory", (unsigned long long)(lb + 1));
    MG_CHECK_STR_CONTAINS(message(), want);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

/* ---- 14 --------------------------------------------------------------------------------- */

static aclTensor *vector(float *data, int64_t n) {
    const int64_t dims[1] = {n}, strides[1] = {1};
    return aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, data);
}

MG_TEST(set_tensor_addr_messages_name_the_parameters_addressed) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    enum { N = 8 };
    void *block[3];
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&block[i], N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        t[i] = vector(block[i], N);
        MG_CHECK(t[i] != NULL);
    }
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    /* MishBackward: 2 inputs (gradOutput, self), 1 output (gradInput), 3 in all */
    static const struct {
        aclnnStatus (*set)(aclOpExecutor *, const size_t, aclTensor *, void *);
        size_t index;
        const char *says;
    } plain[] = {
        {aclSetInputTensorAddr, 2, "aclSetInputTensorAddr: index 2 is out of range; "},
        {aclSetOutputTensorAddr, 1, "aclSetOutputTensorAddr: index 1 is out of range; "},
        {aclSetTensorAddr, 3, "aclSetTensorAddr: index 3 is out of range; "},
        {AclSetInputTensorAddr, 2, "AclSetInputTensorAddr: index 2 is out of range; "},
        {AclSetOutputTensorAddr, 1, "AclSetOutputTensorAddr: index 1 is out of range; "},
        {AclSetTensorAddr, 3, "AclSetTensorAddr: index 3 is out of range; "},
    };
    static const char *const plain_tail[] = {"has 2 inputs", "has 1 outputs", "has 3 tensors"};
    for (int f = 0; f < 6; f++) {
        MG_CHECK_EQ_INT(plain[f].set(e, plain[f].index, t[0], block[0]), ACLNN_ERR_PARAM_INVALID);
        const char *said = message();
        MG_CHECK_STR_CONTAINS(said, plain[f].says);
        MG_CHECK_STR_CONTAINS(said, plain_tail[f % 3]);
    }
    /* the dynamic forms: every irIndex is refused (no aclTensorList parameter), naming the
       parameters of the kind the call addresses */
    float other[N];
    const aclTensor *items[1] = {vector(other, N)};
    aclTensorList *list = aclCreateTensorList(items, 1);
    MG_CHECK(list != NULL);
    static const struct {
        aclnnStatus (*set)(aclOpExecutor *, size_t, const size_t, aclTensorList *, void *);
        const char *api;
    } dynamic[] = {
        {aclSetDynamicInputTensorAddr, "aclSetDynamicInputTensorAddr"},
        {aclSetDynamicOutputTensorAddr, "aclSetDynamicOutputTensorAddr"},
        {aclSetDynamicTensorAddr, "aclSetDynamicTensorAddr"},
        {AclSetDynamicInputTensorAddr, "AclSetDynamicInputTensorAddr"},
        {AclSetDynamicOutputTensorAddr, "AclSetDynamicOutputTensorAddr"},
        {AclSetDynamicTensorAddr, "AclSetDynamicTensorAddr"},
    };
    static const char *const dynamic_tail[] = {"has 2 input(s), all aclTensor", "has 1 output(s), all aclTensor",
                                               "has 3 parameter(s), all aclTensor"};
    for (int f = 0; f < 6; f++) {
        MG_CHECK_EQ_INT(dynamic[f].set(e, 0, 0, list, other), ACLNN_ERR_PARAM_INVALID);
        char want[96];
        snprintf(want, sizeof want, "%s: irIndex 0 names no aclTensorList parameter", dynamic[f].api);
        const char *said = message();
        MG_CHECK_STR_CONTAINS(said, want);
        MG_CHECK_STR_CONTAINS(said, dynamic_tail[f % 3]);
    }
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclDestroyTensor(t[i]), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFree(block[i]), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

/* ---- what the round-3 mutation sample left alive ------------------------------------------ */

/* nnop.h: "Empty views never conflict", whatever their addresses: an empty view whose data
   pointer lies strictly inside another view's bytes conflicts with nothing (the sample's
   survivor `a->numel == 0 || b->numel == 0` -> `&&`: each operator here has equal shapes, so
   its calls never meet one empty and one not, and only the rule itself can be asked). */
MG_TEST(empty_view_conflicts_with_nothing) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    float *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&block, 8 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t four[1] = {4}, zero[1] = {0}, one[1] = {1};
    aclTensor *full = aclCreateTensor(four, 1, ACL_FLOAT, one, 0, ACL_FORMAT_ND, four, 1, block);
    aclTensor *empty = aclCreateTensor(zero, 1, ACL_FLOAT, one, 0, ACL_FORMAT_ND, zero, 1, block + 2);
    MG_CHECK(full != NULL && empty != NULL);
    nnop_view vf, ve;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(full, "test", "full", &vf), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(empty, "test", "empty", &ve), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(nnop_views_conflict(&ve, block + 2, &vf, block), 0);
    MG_CHECK_EQ_INT(nnop_views_conflict(&vf, block, &ve, block + 2), 0);
    MG_CHECK_EQ_INT(nnop_views_conflict(&ve, block + 2, &ve, block + 2), 0);
    /* and the rule does answer: the full view against itself one element on, partially */
    MG_CHECK_EQ_INT(nnop_views_conflict(&vf, block, &vf, block + 1), 1);
    MG_CHECK_EQ_INT(aclDestroyTensor(full), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(empty), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST_MAIN()
