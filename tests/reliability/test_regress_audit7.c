/*
 * tests/reliability/test_regress_audit7.c: regression tests for what audit 7 found in the
 * tensor base and the elementwise layer, through the public API only (each fails on the tree
 * before its fix):
 *
 *   F2  aclInitTensor racing phase 1 and the getters on the same tensor: the old arrays
 *       freed under a reader (ASan: heap-use-after-free), unlocked reads (TSan: data race),
 *       and a descriptor read piecemeal (a shape from one aclInitTensor, values of another)
 *                                                                   -- threads, run under TSan
 *   F3  aclFinalize during a phase 1 answered 561000 "step Mish: the executor is not live"
 *       (or 161002 for a tensor finalize reclaimed): now 361001 naming the API -- threads
 *   F4  a negative dim with NULL strides reported as the negative stride derived from it
 *   F5  docs/reliability.md's misuse table gave aclDestroyAclOpExecutor(NULL) another status
 *       than the code's (the row is read from the doc)
 *   F6  a workspace overlapping a tensor's storage accepted (wrong results): now 161002
 *
 * Every thread that calls the runtime sets device 0 first (CANN's per-thread context).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"
#include "mg_test.h"
#include "mg_acl_session.h"

/* Reads (and so clears) the calling thread's recent error message into `text`. */
static const char *message_into(char *text, size_t capacity) {
    const char *m = aclGetRecentErrMsg();
    snprintf(text, capacity, "%s", m ? m : "");
    return text;
}

static void *device_block(size_t bytes) {
    void *p = NULL;
    if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return NULL;
    memset(p, 0, bytes);
    return p;
}

/* ---- F2: aclInitTensor against readers of the same tensor ---------------------------- */

/* The tensor is a view of 256 elements over one storage of 256; aclInitTensor switches it
   between [16,16] FLOAT and [8,32] FLOAT16 and gives the storage one more dim each time
   ([1,...,1,256]), so the arrays move on every call. Every descriptor it ever has is valid. */
#define F2_ROUNDS 3
#define F2_MAX_STORAGE_RANK 1000
#define F2_CALLS_PER_ROUND 3000

typedef struct f2_shared {
    aclTensor *tensor;
    void *block;
    atomic_int grown;        /* the mutator reached the largest storage this round */
    atomic_int round_done;   /* the mutator finished this round's aclInitTensor calls */
    atomic_int enough;       /* the main thread has made its phase-1 calls this round */
    atomic_int stop;         /* the getter thread ends */
    atomic_long getter_calls;
    atomic_long init_calls;
    atomic_int getter_bad;
    char getter_failure[256];
    atomic_int init_bad;
    char init_failure[256];
} f2_shared;

static void *f2_mutator(void *opaque) {
    f2_shared *s = opaque;
    (void)aclrtSetDevice(0);
    static int64_t storage[F2_MAX_STORAGE_RANK];
    for (int i = 0; i < F2_MAX_STORAGE_RANK; i++) storage[i] = 1;
    const int64_t square[2] = {16, 16}, wide[2] = {8, 32};
    /* Growing (the arrays move each time), then back and forth over small ranks until the
       main thread has had its calls (no move: the same arrays rewritten). */
    long calls = 0;
    int grown = 0;
    for (int k = 1; !grown || !atomic_load(&s->enough); k = grown ? k % 50 + 1 : k + 1) {
        calls++;
        storage[k - 1] = 256;
        int odd = k & 1;
        aclnnStatus r = aclInitTensor(s->tensor, odd ? square : wide, 2, odd ? ACL_FLOAT : ACL_FLOAT16, NULL, 0,
                                      ACL_FORMAT_ND, storage, (uint64_t)k, s->block);
        storage[k - 1] = 1;
        if (k == F2_MAX_STORAGE_RANK) {
            grown = 1;
            atomic_store(&s->grown, 1);
        }
        if (r != ACL_SUCCESS && atomic_fetch_add(&s->init_bad, 1) == 0) {
            char text[200];
            snprintf(s->init_failure, sizeof s->init_failure, "aclInitTensor %d: %s", (int)r,
                     message_into(text, sizeof text));
        }
    }
    atomic_fetch_add(&s->init_calls, calls);
    atomic_store(&s->round_done, 1);
    return NULL;
}

static void f2_getter_fail(f2_shared *s, const char *what) {
    if (atomic_fetch_add(&s->getter_bad, 1) == 0) snprintf(s->getter_failure, sizeof s->getter_failure, "%s", what);
}

/* Every answer of a getter must be one whole descriptor the tensor had. */
static void *f2_getters(void *opaque) {
    f2_shared *s = opaque;
    (void)aclrtSetDevice(0);
    while (!atomic_load(&s->stop)) {
        aclTensor *t = s->tensor;
        int64_t *values = NULL;
        uint64_t count = 0;
        if (aclGetViewShape(t, &values, &count) == ACL_SUCCESS) {
            int square = count == 2 && values[0] == 16 && values[1] == 16;
            int wide = count == 2 && values[0] == 8 && values[1] == 32;
            if (!square && !wide) f2_getter_fail(s, "aclGetViewShape gave a shape the tensor never had");
            free(values);
        } else {
            f2_getter_fail(s, "aclGetViewShape failed");
        }
        if (aclGetViewStrides(t, &values, &count) == ACL_SUCCESS) {
            int square = count == 2 && values[0] == 16 && values[1] == 1;
            int wide = count == 2 && values[0] == 32 && values[1] == 1;
            if (!square && !wide) f2_getter_fail(s, "aclGetViewStrides gave strides the tensor never had");
            free(values);
        } else {
            f2_getter_fail(s, "aclGetViewStrides failed");
        }
        if (aclGetStorageShape(t, &values, &count) == ACL_SUCCESS) {
            int ok = count >= 1 && values[count - 1] == 256;
            for (uint64_t i = 0; ok && i + 1 < count; i++) ok = values[i] == 1;
            if (!ok) f2_getter_fail(s, "aclGetStorageShape gave a storage the tensor never had");
            free(values);
        } else {
            f2_getter_fail(s, "aclGetStorageShape failed");
        }
        aclDataType dtype = ACL_DT_UNDEFINED;
        int64_t offset = -1;
        aclFormat format = ACL_FORMAT_UNDEFINED;
        if (aclGetDataType(t, &dtype) != ACL_SUCCESS || (dtype != ACL_FLOAT && dtype != ACL_FLOAT16) ||
            aclGetViewOffset(t, &offset) != ACL_SUCCESS || offset != 0 || aclGetFormat(t, &format) != ACL_SUCCESS ||
            format != ACL_FORMAT_ND)
            f2_getter_fail(s, "aclGetDataType / aclGetViewOffset / aclGetFormat gave a value the tensor never had");
        atomic_fetch_add(&s->getter_calls, 1);
    }
    return NULL;
}

MG_TEST(init_tensor_races_phase1_and_getters) {
    mg_acl_session_up();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    f2_shared s;
    memset(&s, 0, sizeof s);
    s.block = device_block(1024);
    void *out_block = device_block(1024);
    MG_CHECK(s.block != NULL && out_block != NULL);
    const int64_t square[2] = {16, 16}, storage[1] = {256};
    aclTensor *out = aclCreateTensor(square, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, out_block);
    MG_CHECK(out != NULL);
    long phase1 = 0, mismatches = 0, bad = 0;
    char failure[512] = "";
    for (int round = 0; round < F2_ROUNDS; round++) {
        s.tensor = aclCreateTensor(square, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, s.block);
        MG_CHECK(s.tensor != NULL);
        atomic_store(&s.grown, 0);
        atomic_store(&s.round_done, 0);
        atomic_store(&s.enough, 0);
        atomic_store(&s.stop, 0);
        long round_calls = 0;
        pthread_t mutator, getters;
        MG_CHECK_EQ_INT(pthread_create(&getters, NULL, f2_getters, &s), 0);
        MG_CHECK_EQ_INT(pthread_create(&mutator, NULL, f2_mutator, &s), 0);
        while (!atomic_load(&s.round_done)) {
            char text[400];
            uint64_t ws = 1;
            aclOpExecutor *ex = NULL;
            /* In place: both descriptors are valid, so phase 1 always succeeds, with no workspace. */
            aclnnStatus r = aclnnInplaceMishGetWorkspaceSize(s.tensor, &ws, &ex);
            if (r != ACLNN_SUCCESS || ws != 0) {
                if (bad++ == 0)
                    snprintf(failure, sizeof failure, "aclnnInplaceMishGetWorkspaceSize %d (workspace %llu): %s",
                             (int)r, (unsigned long long)ws, message_into(text, sizeof text));
            } else {
                MG_CHECK_EQ_INT(aclnnInplaceMish(NULL, 0, ex, stream), 0);
            }
            /* Against a [16,16] FLOAT output: 0 for the [16,16] FLOAT descriptor, a dtype
               refusal for the [8,32] FLOAT16 one (dtypes are checked before shapes); anything
               else judged a mix of the two. */
            ws = 1;
            ex = NULL;
            r = aclnnMishGetWorkspaceSize(s.tensor, out, &ws, &ex);
            if (r == ACLNN_SUCCESS && ws == 0) {
                MG_CHECK_EQ_INT(aclnnMish(NULL, 0, ex, stream), 0);
            } else if (r == ACLNN_ERR_PARAM_INVALID) {
                message_into(text, sizeof text);
                mismatches++;
                if (strstr(text, "out has dtype FLOAT but self has FLOAT16") == NULL && bad++ == 0)
                    snprintf(failure, sizeof failure, "aclnnMishGetWorkspaceSize refused a whole descriptor: %s",
                             text);
            } else if (bad++ == 0) {
                snprintf(failure, sizeof failure, "aclnnMishGetWorkspaceSize %d (workspace %llu): %s", (int)r,
                         (unsigned long long)ws, message_into(text, sizeof text));
            }
            phase1++;
            if (++round_calls >= F2_CALLS_PER_ROUND && atomic_load(&s.grown)) atomic_store(&s.enough, 1);
        }
        pthread_join(mutator, NULL);
        atomic_store(&s.stop, 1);
        pthread_join(getters, NULL);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
        MG_CHECK_EQ_INT(aclDestroyTensor(s.tensor), 0);
    }
    printf("  %ld phase-1 pairs (%ld refused for the FLOAT16 descriptor), %ld getter rounds, against %ld "
           "aclInitTensor calls\n",
           phase1, mismatches, (long)atomic_load(&s.getter_calls), (long)atomic_load(&s.init_calls));
    if (bad) MG_FAIL("%ld phase-1 calls judged no descriptor the tensor had; first: %s", bad, failure);
    if (atomic_load(&s.getter_bad))
        MG_FAIL("%d getter answers were no descriptor the tensor had; first: %s", atomic_load(&s.getter_bad),
                s.getter_failure);
    if (atomic_load(&s.init_bad)) MG_FAIL("%s", s.init_failure);
    MG_CHECK(phase1 > 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(out), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    MG_CHECK_EQ_INT(aclrtFree(s.block), 0);
    MG_CHECK_EQ_INT(aclrtFree(out_block), 0);
}

/* ---- F3: aclFinalize during a phase 1 ------------------------------------------------ */

/* A thread calls aclFinalize after 0..199 us while the main thread runs phase 1 in a loop
   (in place on a dense tensor, and aclnnMish into a transposed output: a plan of several
   steps). Whatever instant finalize lands on -- before the call, while its tensors are
   read, while its plan is built -- the call must fail as CANN's table says for a call after
   aclFinalize: 361001, the message naming the API and aclInit (and, when finalize ran during
   the call, saying so). Never an inner error, nor a stale handle blamed on the caller. */
#define F3_ROUNDS 150

typedef struct f3_finalizer {
    long delay_us;
    aclError status;
} f3_finalizer;

static void *f3_finalize(void *opaque) {
    f3_finalizer *f = opaque;
    struct timespec t = {0, f->delay_us * 1000};
    nanosleep(&t, NULL);
    f->status = aclFinalize();
    return NULL;
}

MG_TEST(finalize_racing_phase1_is_361001) {
    mg_acl_session_up();
    int bad = 0, during = 0;
    long calls = 0;
    char failure[512] = "";
    for (int round = 0; round < F3_ROUNDS; round++) {
        if (round > 0) MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
        void *in_block = device_block(64 * 64 * 4), *out_block = device_block(64 * 64 * 4);
        MG_CHECK(in_block != NULL && out_block != NULL);
        const int64_t dims[2] = {64, 64}, transposed[2] = {1, 64}, storage[1] = {64 * 64};
        aclTensor *self = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, in_block);
        aclTensor *out = aclCreateTensor(dims, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, storage, 1, out_block);
        MG_CHECK(self != NULL && out != NULL);
        f3_finalizer f = {round % 200, -1};
        pthread_t finalizer;
        MG_CHECK_EQ_INT(pthread_create(&finalizer, NULL, f3_finalize, &f), 0);
        /* Executors left unlaunched are aclFinalize's to reclaim. */
        for (;;) {
            uint64_t ws = 0;
            aclOpExecutor *ex = NULL;
            const char *api = (calls & 1) ? "aclnnMishGetWorkspaceSize" : "aclnnInplaceMishGetWorkspaceSize";
            aclnnStatus r = (calls & 1) ? aclnnMishGetWorkspaceSize(self, out, &ws, &ex)
                                        : aclnnInplaceMishGetWorkspaceSize(self, &ws, &ex);
            calls++;
            if (r == ACLNN_SUCCESS) continue;
            char text[600];
            message_into(text, sizeof text);
            if (strstr(text, "aclFinalize ran during") != NULL) during++;
            if ((r != ACLNN_ERR_RUNTIME_ERROR || strstr(text, api) == NULL ||
                 strstr(text, "aclInit has not been called") == NULL) &&
                bad++ == 0)
                snprintf(failure, sizeof failure, "round %d: %s returned %d: %.400s", round, api, (int)r, text);
            break;
        }
        pthread_join(finalizer, NULL);
        MG_CHECK_EQ_INT(f.status, 0);
    }
    printf("  %d rounds, %ld phase-1 calls, %d failed calls saw aclFinalize run during them\n", F3_ROUNDS, calls,
           during);
    if (bad) MG_FAIL("%d rounds ended in a status or message other than 361001 naming the API; first: %s", bad,
                     failure);
    /* The session again, for whatever runs after. */
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
}

/* ---- F4: a negative dim is reported as the dim --------------------------------------- */

/* With NULL strides aclCreateTensor derives row-major strides from the dims, so a negative
   dim makes an earlier dim's derived stride negative too; validation checked dim i and
   stride i together and so reported a stride the caller never gave. Every dim is checked
   before any stride now. */
static void f4_expect(aclnnStatus r, const char *want) {
    char text[600];
    message_into(text, sizeof text);
    MG_CHECK_EQ_INT(r, ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(text, want);
}

MG_TEST(negative_dim_reported_before_any_stride) {
    mg_acl_session_up();
    void *block = device_block(256), *out_block = device_block(256);
    MG_CHECK(block != NULL && out_block != NULL);
    const int64_t storage[1] = {12};
    uint64_t ws = 7;
    aclOpExecutor *ex = NULL;
    /* The audit's case: selfRef [3,-4], strides NULL (derived [-4,1]). */
    aclTensor *t = aclCreateTensor((const int64_t[]){3, -4}, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, block);
    MG_CHECK(t != NULL);
    f4_expect(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), "selfRef's dim 1 is -4");
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    /* aclnnMish, every tensor [0,-1] (equal shapes, so validation is what refuses). */
    aclTensor *self = aclCreateTensor((const int64_t[]){0, -1}, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, block);
    aclTensor *out =
        aclCreateTensor((const int64_t[]){0, -1}, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, out_block);
    MG_CHECK(self != NULL && out != NULL);
    f4_expect(aclnnMishGetWorkspaceSize(self, out, &ws, &ex), "self's dim 1 is -1");
    MG_CHECK_EQ_INT(aclDestroyTensor(self), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(out), 0);
    /* Given strides: a negative dim still comes before a negative stride in an earlier dim,
       and a negative stride alone is still reported as the stride. */
    t = aclCreateTensor((const int64_t[]){3, -4}, 2, ACL_FLOAT, (const int64_t[]){-4, 1}, 0, ACL_FORMAT_ND, storage, 1,
                        block);
    f4_expect(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), "selfRef's dim 1 is -4");
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    t = aclCreateTensor((const int64_t[]){3, 4}, 2, ACL_FLOAT, (const int64_t[]){4, -1}, 0, ACL_FORMAT_ND, storage, 1,
                        block);
    f4_expect(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), "selfRef's stride in dim 1 is -1");
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    MG_CHECK_EQ_INT(ws, 7); /* nothing written on failure */
    MG_CHECK(ex == NULL);
    MG_CHECK_EQ_INT(aclrtFree(block), 0);
    MG_CHECK_EQ_INT(aclrtFree(out_block), 0);
}

/* ---- F5: the misuse table says what the code returns ------------------------------- */

/* docs/reliability.md's misuse table gave 161001 for aclDestroyAclOpExecutor(NULL); the code,
   docs/runtime.md and CANN's own doc say 561103. The row's status is read from the doc and
   compared with the call's. */
MG_TEST(misuse_table_destroy_null_executor_matches_the_code) {
#ifndef MISHGRAD_SOURCE_DIR
    MG_SKIP("built without MISHGRAD_SOURCE_DIR: the doc's path is unknown");
#else
    const char *path = MISHGRAD_SOURCE_DIR "/docs/reliability.md";
    FILE *doc = fopen(path, "r");
    if (doc == NULL) MG_SKIP("%s cannot be read", path);
    static const char row[] = "| `aclDestroyAclOpExecutor(NULL)` |";
    char line[1024];
    long documented = -1;
    while (fgets(line, sizeof line, doc) != NULL)
        if (strncmp(line, row, sizeof row - 1) == 0) documented = strtol(line + sizeof row - 1, NULL, 10);
    fclose(doc);
    MG_CHECK(documented > 0);
    mg_acl_session_up();
    aclnnStatus actual = aclDestroyAclOpExecutor(NULL);
    char text[600];
    MG_CHECK_STR_CONTAINS(message_into(text, sizeof text), "executor is NULL");
    MG_CHECK_EQ_INT(actual, ACLNN_ERR_INNER_NULLPTR);
    MG_CHECK_EQ_INT(documented, actual);
#endif
}

/* ---- F6: a workspace that overlaps a tensor ------------------------------------------ */

/* The plan writes its dense copies into the workspace while it reads and writes the
   tensors: a workspace range [workspace, workspace + the size phase 1 reported) that meets
   any tensor's storage gave silently wrong results. Phase 2 refuses it now (161002 naming
   the workspace and the tensor, nothing written); a workspace beside the storage, and a
   NULL or any pointer when phase 1 reported 0 bytes, are accepted as before. */

/* x[i] = i / 16 - 2 over n floats. */
static void f6_fill(float *x, int n) {
    for (int i = 0; i < n; i++) x[i] = (float)i / 16.0f - 2.0f;
}

/* Whether x[first .. first + n) still holds what f6_fill wrote. */
static int f6_unchanged(const float *x, int first, int n) {
    for (int i = first; i < first + n; i++)
        if (x[i] != (float)i / 16.0f - 2.0f) return 0;
    return 1;
}

static void f6_expect_refused(aclnnStatus r, const char *tensor_name) {
    char text[600];
    message_into(text, sizeof text);
    MG_CHECK_EQ_INT(r, ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(text, "workspace");
    MG_CHECK_STR_CONTAINS(text, tensor_name);
}

MG_TEST(workspace_overlapping_a_tensor_is_refused) {
    mg_acl_session_up();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    /* One 1 KiB block: a tensor's 8x8 floats in its first 256 bytes, the rest spare. */
    float *block = device_block(1024), *other = device_block(1024);
    MG_CHECK(block != NULL && other != NULL);
    const int64_t dims[2] = {8, 8}, transposed[2] = {1, 8}, storage[1] = {64};
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;

    /* In place on a transposed selfRef: the workspace is its gathered copy (256 bytes). */
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, storage, 1, block);
    MG_CHECK(t != NULL);
    const size_t offsets[3] = {0, 128, 252}; /* the same block, half over it, its last 4 bytes */
    for (int k = 0; k < 3; k++) {
        f6_fill(block, 256);
        MG_CHECK_EQ_INT(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), 0);
        MG_CHECK_EQ_INT(ws, 256);
        f6_expect_refused(aclnnInplaceMish((char *)block + offsets[k], ws, ex, stream), "selfRef");
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
        MG_CHECK(f6_unchanged(block, 0, 256));
    }
    /* Right beside the storage: accepted, and computed. */
    f6_fill(block, 256);
    MG_CHECK_EQ_INT(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), 0);
    MG_CHECK_EQ_INT(aclnnInplaceMish((char *)block + 256, ws, ex, stream), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK(!f6_unchanged(block, 0, 64));
    MG_CHECK(f6_unchanged(block, 128, 128)); /* past the workspace: untouched */
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);

    /* aclnnMish with a transposed out: the workspace over out's storage, then over self's. */
    aclTensor *self = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, other);
    aclTensor *out = aclCreateTensor(dims, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, storage, 1, block);
    MG_CHECK(self != NULL && out != NULL);
    f6_fill(block, 256);
    f6_fill(other, 256);
    MG_CHECK_EQ_INT(aclnnMishGetWorkspaceSize(self, out, &ws, &ex), 0);
    MG_CHECK_EQ_INT(ws, 256);
    f6_expect_refused(aclnnMish(block, ws, ex, stream), "out");
    MG_CHECK_EQ_INT(aclnnMishGetWorkspaceSize(self, out, &ws, &ex), 0);
    f6_expect_refused(aclnnMish((char *)other + 64, ws, ex, stream), "self");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK(f6_unchanged(block, 0, 256) && f6_unchanged(other, 0, 256));
    MG_CHECK_EQ_INT(aclDestroyTensor(self), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(out), 0);

    /* A plan that needs no workspace: NULL, or any pointer with size 0 (a tensor's own
       block included), is accepted, as CANN accepts it. */
    t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, block);
    MG_CHECK(t != NULL);
    MG_CHECK_EQ_INT(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), 0);
    MG_CHECK_EQ_INT(ws, 0);
    MG_CHECK_EQ_INT(aclnnInplaceMish(NULL, 0, ex, stream), 0);
    MG_CHECK_EQ_INT(aclnnInplaceMishGetWorkspaceSize(t, &ws, &ex), 0);
    MG_CHECK_EQ_INT(aclnnInplaceMish(block, 0, ex, stream), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    MG_CHECK_EQ_INT(aclrtFree(block), 0);
    MG_CHECK_EQ_INT(aclrtFree(other), 0);
}

MG_TEST_MAIN()
