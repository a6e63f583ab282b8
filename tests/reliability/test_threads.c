/*
 * tests/reliability/test_threads.c: many threads, many streams. Every result is checked
 * against the reference; the ThreadSanitizer job runs this file (label "threads").
 */
#include <pthread.h>
#include <stdatomic.h>

#include "mg_test.h"
#include "rel_job.h"

#define WORKERS 6
#define JOBS_PER_WORKER 12
#define IN_FLIGHT 4

static atomic_long failures;
static atomic_long jobs_checked;

static void fail(const char *what, int status) {
    fprintf(stderr, "  %s: status %d (%s)\n", what, status, aclGetRecentErrMsg());
    atomic_fetch_add(&failures, 1);
}

/* Runs `count` random jobs, IN_FLIGHT at a time, on the given streams in turn; each batch
   is synchronized and checked. */
static void run_jobs(uint64_t seed, aclrtStream *streams, int stream_count, int count, int64_t max_numel) {
    mg_rng rng = {seed};
    rel_job jobs[IN_FLIGHT];
    for (int done = 0; done < count;) {
        int batch = count - done < IN_FLIGHT ? count - done : IN_FLIGHT;
        for (int j = 0; j < batch; j++) {
            int status = rel_job_make(&jobs[j], &rng, rel_random_dtype(&rng), -1, max_numel);
            if (status == 0) status = rel_job_prepare(&jobs[j]);
            if (status == 0) status = rel_job_launch(&jobs[j], streams[(done + j) % stream_count]);
            if (status != 0) fail("make/prepare/launch", status);
        }
        for (int s = 0; s < stream_count; s++) {
            int status = aclrtSynchronizeStream(streams[s]);
            if (status != 0) fail("aclrtSynchronizeStream", status);
        }
        for (int j = 0; j < batch; j++) {
            if (rel_job_check(&jobs[j], "threaded job") != 0) atomic_fetch_add(&failures, 1);
            atomic_fetch_add(&jobs_checked, 1);
            rel_job_release(&jobs[j], 1);
        }
        done += batch;
    }
}

/* ---- each thread with its own streams ------------------------------------------------- */

static void *own_streams_worker(void *arg) {
    uint64_t seed = (uint64_t)(uintptr_t)arg;
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    aclrtStream streams[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++) {
        int status = aclrtCreateStream(&streams[s]);
        if (status != 0) fail("aclrtCreateStream", status);
    }
    run_jobs(seed, streams, 2, JOBS_PER_WORKER, 3000);
    for (int s = 0; s < 2; s++) {
        int status = aclrtDestroyStream(streams[s]);
        if (status != 0) fail("aclrtDestroyStream", status);
    }
    return NULL;
}

MG_TEST(threads_with_their_own_streams) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    atomic_store(&failures, 0);
    atomic_store(&jobs_checked, 0);
    pthread_t threads[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        MG_CHECK_EQ_INT(pthread_create(&threads[i], NULL, own_streams_worker, (void *)(uintptr_t)(100 + i)), 0);
    for (int i = 0; i < WORKERS; i++) pthread_join(threads[i], NULL);
    MG_CHECK_EQ_INT(atomic_load(&failures), 0);
    MG_CHECK_EQ_INT(atomic_load(&jobs_checked), WORKERS * JOBS_PER_WORKER);
}

/* ---- threads sharing one stream (and the default stream) ------------------------------- */

static aclrtStream shared_streams[2];

static void *shared_stream_worker(void *arg) {
    uint64_t seed = (uint64_t)(uintptr_t)arg;
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    /* half the threads share a created stream, half the default (NULL) one */
    aclrtStream *stream = &shared_streams[seed % 2];
    run_jobs(seed, stream, 1, JOBS_PER_WORKER, 2000);
    return NULL;
}

MG_TEST(threads_sharing_one_stream) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    atomic_store(&failures, 0);
    atomic_store(&jobs_checked, 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&shared_streams[0]), 0);
    shared_streams[1] = NULL;
    pthread_t threads[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        MG_CHECK_EQ_INT(pthread_create(&threads[i], NULL, shared_stream_worker, (void *)(uintptr_t)(200 + i)), 0);
    for (int i = 0; i < WORKERS; i++) pthread_join(threads[i], NULL);
    MG_CHECK_EQ_INT(aclrtDestroyStream(shared_streams[0]), 0);
    MG_CHECK_EQ_INT(atomic_load(&failures), 0);
    MG_CHECK_EQ_INT(atomic_load(&jobs_checked), WORKERS * JOBS_PER_WORKER);
}

/* ---- executors made on one thread, run on another --------------------------------------- */

#define HANDED_OVER 8
static rel_job handed[HANDED_OVER];
static rel_job repeatable_job;

static void *make_executors(void *arg) {
    (void)arg;
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    mg_rng rng = {300};
    for (int j = 0; j < HANDED_OVER; j++) {
        int status = rel_job_make(&handed[j], &rng, rel_random_dtype(&rng), -1, 4000);
        if (status == 0) status = rel_job_prepare(&handed[j]);
        if (status != 0) fail("phase 1 on the maker thread", status);
    }
    int status = rel_job_make(&repeatable_job, &rng, ACL_FLOAT, REL_GAPS, 4000);
    if (status == 0) status = rel_job_prepare(&repeatable_job);
    if (status == 0) status = aclSetAclOpExecutorRepeatable(repeatable_job.executor);
    if (status != 0) fail("repeatable executor on the maker thread", status);
    return NULL;
}

static void *run_executors(void *arg) {
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    aclrtStream stream = NULL;
    int status = aclrtCreateStream(&stream);
    if (status != 0) fail("aclrtCreateStream on the runner thread", status);
    for (int j = 0; j < HANDED_OVER; j++) {
        status = rel_job_launch(&handed[j], stream);
        if (status != 0) fail("phase 2 on the runner thread", status);
    }
    status = rel_job_launch(&repeatable_job, stream);
    if (status != 0) fail("repeatable run on the runner thread", status);
    status = aclrtDestroyStream(stream); /* drains first */
    if (status != 0) fail("aclrtDestroyStream", status);
    return arg;
}

/* The repeatable executor's second run, on a third thread, after its output moved. */
static void *rerun_repeatable(void *arg) {
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    rel_job *job = &repeatable_job;
    rel_tensor *o = &job->t[REL_GRAD_INPUT];
    void *moved = NULL;
    int status = aclrtMalloc(&moved, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (status == 0) {
        memcpy(moved, o->snapshot, o->bytes);
        status = aclSetOutputTensorAddr(job->executor, 0, o->tensor, moved);
    }
    if (status == 0) status = rel_job_launch(job, NULL);
    if (status == 0) status = aclrtSynchronizeStream(NULL);
    if (status != 0) fail("repeatable executor on a third thread", status);
    aclrtFree(o->data);
    o->data = moved;
    if (status == 0 && rel_job_check(job, "repeatable rerun") != 0) atomic_fetch_add(&failures, 1);
    status = aclDestroyAclOpExecutor(job->executor);
    if (status != 0) fail("aclDestroyAclOpExecutor on a third thread", status);
    return arg;
}

MG_TEST(executors_cross_threads) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    atomic_store(&failures, 0);
    pthread_t maker, runner, third;
    MG_CHECK_EQ_INT(pthread_create(&maker, NULL, make_executors, NULL), 0);
    pthread_join(maker, NULL);
    MG_CHECK_EQ_INT(pthread_create(&runner, NULL, run_executors, NULL), 0);
    pthread_join(runner, NULL);
    for (int j = 0; j < HANDED_OVER; j++) {
        MG_CHECK_EQ_INT(rel_job_check(&handed[j], "executor from another thread"), 0);
        rel_job_release(&handed[j], 1);
    }
    MG_CHECK_EQ_INT(rel_job_check(&repeatable_job, "repeatable from another thread"), 0);
    MG_CHECK_EQ_INT(pthread_create(&third, NULL, rerun_repeatable, NULL), 0);
    pthread_join(third, NULL);
    rel_job_release(&repeatable_job, 1);
    MG_CHECK_EQ_INT(atomic_load(&failures), 0);
}

/* ---- aclrtDestroyStream with work still queued ------------------------------------------ */

MG_TEST(destroy_stream_finishes_queued_work) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    enum { QUEUED = 8 };
    static rel_job jobs[QUEUED];
    mg_rng rng = {400};
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    /* big enough that the queue is still busy when the destroy comes */
    for (int j = 0; j < QUEUED; j++) {
        MG_CHECK_EQ_INT(rel_job_make(&jobs[j], &rng, rel_random_dtype(&rng), -1, 400000), 0);
        MG_CHECK_EQ_INT(rel_job_prepare(&jobs[j]), 0);
        MG_CHECK_EQ_INT(rel_job_launch(&jobs[j], stream), 0);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    for (int j = 0; j < QUEUED; j++) {
        MG_CHECK_EQ_INT(rel_job_check(&jobs[j], "work queued before aclrtDestroyStream"), 0);
        rel_job_release(&jobs[j], 1);
    }
    /* the handle is gone: using it again is an error, not a crash */
    MG_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
    MG_CHECK(aclrtDestroyStream(stream) != ACL_SUCCESS);
}

/* ---- aclFinalize with live streams and allocations; then aclInit again ------------------- */

/* Jobs left queued for aclFinalize; their tensors (host objects) must outlive the work,
   so they are destroyed after aclFinalize; their device memory is aclFinalize's to free. */
static rel_job left_jobs[3][3];

static void *queue_and_leave(void *arg) {
    int thread = (int)(uintptr_t)arg;
    if (aclrtSetDevice(0) != 0) fail("aclrtSetDevice", -1);
    mg_rng rng = {500 + (uint64_t)thread};
    aclrtStream stream = NULL;
    int status = aclrtCreateStream(&stream);
    if (status != 0) fail("aclrtCreateStream", status);
    for (int j = 0; j < 3; j++) {
        rel_job *job = &left_jobs[thread][j];
        status = rel_job_make(job, &rng, rel_random_dtype(&rng), -1, 20000);
        if (status == 0) status = rel_job_prepare(job);
        if (status == 0) status = rel_job_launch(job, stream);
        if (status != 0) fail("job left for aclFinalize", status);
    }
    return NULL;
}

MG_TEST(finalize_releases_live_streams_and_memory) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    atomic_store(&failures, 0);
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        MG_CHECK_EQ_INT(pthread_create(&threads[i], NULL, queue_and_leave, (void *)(uintptr_t)i), 0);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    void *left = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&left, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(atomic_load(&failures), 0);

    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) rel_job_release(&left_jobs[i][j], 0);
    /* everything is gone: the runtime says so instead of touching freed memory */
    MG_CHECK_EQ_INT(aclrtFree(left), ACL_ERROR_UNINITIALIZE);
    MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
    MG_CHECK_EQ_INT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);

    /* and a new session works from scratch */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    MG_CHECK_EQ_INT(aclrtFree(left), ACL_ERROR_INVALID_PARAM); /* not a block of this session */
    aclrtStream streams[1];
    MG_CHECK_EQ_INT(aclrtCreateStream(&streams[0]), 0);
    run_jobs(600, streams, 1, 4, 5000);
    MG_CHECK_EQ_INT(aclrtDestroyStream(streams[0]), 0);
    MG_CHECK_EQ_INT(atomic_load(&failures), 0);
}

MG_TEST_MAIN()
