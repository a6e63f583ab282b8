/*
 * tests/reliability/test_misuse.c: API misuse a CANN program can commit. Each must come
 * back as a status with a message (aclGetRecentErrMsg), never a crash, a sanitizer report
 * or a write; the sanitizer build runs this file under ASan, UBSan and LeakSanitizer.
 *
 * The tests run in the order written: the first runs before any aclInit.
 */
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

/* A success need not clear the message: empty it, so each check sees a fresh one. */
static void clear_recent_error(void) { mgrt_set_recent_error(""); }

#define CHECK_FAILS_WITH(call, expected)                                              \
    do {                                                                              \
        clear_recent_error();                                                         \
        long long status_ = (long long)(call);                                        \
        MG_CHECK_EQ_INT(status_, (expected));                                         \
        const char *message_ = aclGetRecentErrMsg();                                  \
        if (message_ == NULL || message_[0] == '\0') MG_FAIL("%s: no message", #call); \
    } while (0)

/* ---- before aclInit ---------------------------------------------------------------------- */

/* main() makes these calls before any test runs (the order of MG_TESTs is not the order
   written), and the first test judges them. */
typedef struct probe {
    const char *call;
    long long status, expected;
    int has_message;
} probe;
static probe probes[16];
static int probe_count;
static int before_init_output_untouched;

#define PROBE(call, expected_status)                                                          \
    do {                                                                                      \
        clear_recent_error();                                                                 \
        long long status_ = (long long)(call);                                                \
        const char *message_ = aclGetRecentErrMsg();                                          \
        probes[probe_count++] = (probe){#call, status_, (expected_status), message_ && *message_}; \
    } while (0)

static void probe_before_init(void) {
    void *p = NULL;
    aclrtStream stream = NULL;
    char host[64] = {0}, copy[64] = {0};
    PROBE(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    PROBE(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
    PROBE(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    PROBE(aclrtFree(host), ACL_ERROR_UNINITIALIZE);
    PROBE(aclrtMemcpy(copy, sizeof copy, host, sizeof host, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_UNINITIALIZE);
    PROBE(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    /* aclFinalize before aclInit succeeds, as in CANN: ut_lifecycle checks it. */
    /* the operator: descriptors can be made (they are host objects), the call is refused */
    int64_t dims[1] = {4}, storage[1] = {4};
    float data[3][4] = {{1, 2, 3, 4}, {1, 2, 3, 4}, {9, 9, 9, 9}};
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, data[i]);
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    PROBE(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &workspace_size, &executor), ACLNN_ERR_RUNTIME_ERROR);
    PROBE(aclnnMishBackward(NULL, 0, NULL, NULL), ACLNN_ERR_RUNTIME_ERROR);
    before_init_output_untouched = executor == NULL && p == NULL && data[2][0] == 9 && data[2][3] == 9;
    for (int i = 0; i < 3; i++)
        if (t[i]) aclDestroyTensor(t[i]);
}

MG_TEST(calls_before_acl_init) {
    MG_CHECK(probe_count > 0);
    for (int i = 0; i < probe_count; i++) {
        if (probes[i].status != probes[i].expected)
            MG_FAIL("%s == %lld before aclInit, expected %lld", probes[i].call, probes[i].status, probes[i].expected);
        if (!probes[i].has_message) MG_FAIL("%s: no message before aclInit", probes[i].call);
    }
    MG_CHECK(before_init_output_untouched);
}

/* ---- executors ------------------------------------------------------------------------- */

MG_TEST(single_use_executor_run_twice) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {1};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT, REL_GAPS, 500), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "first run"), 0);
    /* the first run released it: a second is refused and writes nothing */
    unsigned char *after_first = malloc(job.t[2].bytes);
    memcpy(after_first, job.t[2].data, job.t[2].bytes);
    CHECK_FAILS_WITH(rel_job_launch(&job, NULL), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK(memcmp(after_first, job.t[2].data, job.t[2].bytes) == 0);
    /* and so is destroying it, or making it repeatable now */
    CHECK_FAILS_WITH(aclDestroyAclOpExecutor(job.executor), ACLNN_ERR_PARAM_INVALID);
    CHECK_FAILS_WITH(aclSetAclOpExecutorRepeatable(job.executor), ACLNN_ERR_PARAM_INVALID);
    free(after_first);
    rel_job_release(&job, 1);
}

MG_TEST(destroy_non_repeatable_executor) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {2};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT16, -1, 500), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    /* Its second phase owns it: destroying it is refused and leaves it usable. */
    CHECK_FAILS_WITH(aclDestroyAclOpExecutor(job.executor), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK(rel_job_untouched(&job));
    MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "run after a refused destroy"), 0);
    CHECK_FAILS_WITH(aclDestroyAclOpExecutor(NULL), ACLNN_ERR_INNER_NULLPTR); /* CANN's documented 561103 */
    rel_job_release(&job, 1);
}

MG_TEST(repeatable_executor_destroyed_twice) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {3};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_BF16, -1, 500), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(job.executor), 0);
    for (int run = 0; run < 3; run++) MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "three runs"), 0);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(job.executor), 0);
    CHECK_FAILS_WITH(aclDestroyAclOpExecutor(job.executor), ACLNN_ERR_PARAM_INVALID);
    CHECK_FAILS_WITH(rel_job_launch(&job, NULL), ACLNN_ERR_PARAM_INVALID);
    rel_job_release(&job, 1);
}

MG_TEST(repeatable_executor_refreshed_to_freed_memory) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {4};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT, REL_CONTIGUOUS, 800), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(job.executor), 0);
    MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "first run"), 0);

    for (int victim = 0; victim < 3; victim++) {
        rel_tensor *t = &job.t[victim];
        void *freed = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&freed, t->bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        MG_CHECK_EQ_INT(aclrtFree(freed), 0);
        aclnnStatus set = victim < 2 ? aclSetInputTensorAddr(job.executor, (size_t)victim, t->tensor, freed)
                                     : aclSetOutputTensorAddr(job.executor, 0, t->tensor, freed);
        MG_CHECK(set == ACLNN_SUCCESS || set == ACLNN_ERR_PARAM_INVALID);
        unsigned char *before = malloc(job.t[2].bytes);
        memcpy(before, job.t[2].data, job.t[2].bytes);
        if (set == ACLNN_SUCCESS) CHECK_FAILS_WITH(rel_job_launch(&job, NULL), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
        MG_CHECK(memcmp(before, job.t[2].data, job.t[2].bytes) == 0);
        free(before);
        /* back to the live block: runs again, and the executor survived the refusal */
        set = victim < 2 ? aclSetInputTensorAddr(job.executor, (size_t)victim, t->tensor, t->data)
                         : aclSetOutputTensorAddr(job.executor, 0, t->tensor, t->data);
        MG_CHECK_EQ_INT(set, 0);
        MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
        MG_CHECK_EQ_INT(rel_job_check(&job, "run after restoring the address"), 0);
    }
    /* an index that does not exist */
    CHECK_FAILS_WITH(aclSetInputTensorAddr(job.executor, 2, job.t[0].tensor, job.t[0].data), ACLNN_ERR_PARAM_INVALID);
    CHECK_FAILS_WITH(aclSetOutputTensorAddr(job.executor, 1, job.t[2].tensor, job.t[2].data), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(job.executor), 0);
    rel_job_release(&job, 1);
}

/* ---- memory ------------------------------------------------------------------------------ */

MG_TEST(acl_free_twice_or_foreign_pointer) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_FAILS_WITH(aclrtFree((char *)p + 64), ACL_ERROR_INVALID_PARAM); /* inside, not the start */
    MG_CHECK_EQ_INT(aclrtFree(p), 0);
    CHECK_FAILS_WITH(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    int on_stack = 0;
    CHECK_FAILS_WITH(aclrtFree(&on_stack), ACL_ERROR_INVALID_PARAM);
    void *from_malloc = malloc(64);
    CHECK_FAILS_WITH(aclrtFree(from_malloc), ACL_ERROR_INVALID_PARAM);
    free(from_malloc);
    CHECK_FAILS_WITH(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    void *host = NULL;
    MG_CHECK_EQ_INT(aclrtMallocHost(&host, 64), 0);
    CHECK_FAILS_WITH(aclrtFree(host), ACL_ERROR_INVALID_PARAM); /* a host block is not a device block */
    MG_CHECK_EQ_INT(aclrtFreeHost(host), 0);
    CHECK_FAILS_WITH(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
}

MG_TEST(memcpy_past_dest_max) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    unsigned char *device = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    memset(device, 0xAB, 64);
    unsigned char host[128];
    memset(host, 0x11, sizeof host);
    /* count > destMax: CANN's runtime code */
    CHECK_FAILS_WITH(aclrtMemcpy(device, 64, host, 65, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    /* destMax that lies about the block: the runtime knows the block's size */
    CHECK_FAILS_WITH(aclrtMemcpy(device, 128, host, 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS_WITH(aclrtMemcpy(device + 32, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS_WITH(aclrtMemcpy(host, sizeof host, device, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(device[i], 0xAB);
    for (size_t i = 0; i < sizeof host; i++) MG_CHECK_EQ_INT(host[i], 0x11);
    CHECK_FAILS_WITH(aclrtMemset(device, 64, 0, 65), ACL_ERROR_RT_PARAM_INVALID);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(device[i], 0xAB);
    MG_CHECK_EQ_INT(aclrtMemcpy(device, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    MG_CHECK_EQ_INT(device[63], 0x11);
    MG_CHECK_EQ_INT(aclrtFree(device), 0);
    /* a copy from a block that was freed */
    CHECK_FAILS_WITH(aclrtMemcpy(host, sizeof host, device, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
}

/* ---- streams ----------------------------------------------------------------------------- */

MG_TEST(stream_handles_misused) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    MG_CHECK(aclrtDestroyStream(stream) != ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
    MG_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    int not_a_stream = 0;
    MG_CHECK(aclrtSynchronizeStream(&not_a_stream) != ACL_SUCCESS);
    CHECK_FAILS_WITH(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);

    /* phase 2 on a stream that is gone: refused, nothing written, executor released */
    mg_rng rng = {5};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT, -1, 300), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    aclnnStatus status = rel_job_launch(&job, stream);
    MG_CHECK_EQ_INT(status, ACLNN_ERR_PARAM_INVALID);
    MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
    MG_CHECK(rel_job_untouched(&job));
    rel_job_release(&job, 1);
}

/* ---- after aclFinalize -------------------------------------------------------------------- */

MG_TEST(calls_after_acl_finalize) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {6};
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT, -1, 300), 0);
    MG_CHECK_EQ_INT(aclFinalize(), 0);
    /* the tensors' memory went with aclFinalize: the call is refused before touching it */
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    CHECK_FAILS_WITH(aclnnMishBackwardGetWorkspaceSize(job.t[0].tensor, job.t[1].tensor, job.t[2].tensor,
                                                       &workspace_size, &executor),
                     ACLNN_ERR_RUNTIME_ERROR);
    CHECK_FAILS_WITH(aclnnMishBackward(NULL, 0, NULL, NULL), ACLNN_ERR_RUNTIME_ERROR);
    void *p = NULL;
    aclrtStream stream = NULL;
    CHECK_FAILS_WITH(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    CHECK_FAILS_WITH(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
    CHECK_FAILS_WITH(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    CHECK_FAILS_WITH(aclrtFree(job.t[0].data), ACL_ERROR_UNINITIALIZE);
    MG_CHECK(aclrtGetSocName() == NULL);
    rel_job_release(&job, 0);
    /* a new session */
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT16, -1, 300), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "after re-init"), 0);
    rel_job_release(&job, 1);
}

int main(int argc, char **argv) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0); /* the failures are expected; keep the log quiet */
    probe_before_init();
    return mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
}
