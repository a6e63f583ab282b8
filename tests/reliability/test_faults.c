/*
 * tests/reliability/test_faults.c: planted faults, chosen only by environment variables
 * read at aclInit (decision 3: no test hooks are exported):
 *
 *   MISHGRAD_FAULT_ALLOC=N   the N-th internal allocation after aclInit fails. Each sweep
 *                            runs a whole program once per N (aclFinalize, setenv, aclInit),
 *                            N = 1, 2, ... until the program runs through. Wherever the
 *                            fault lands, the call that needed the memory must fail with an
 *                            exact out-of-memory status and a message, leave every tensor
 *                            untouched, and the next call must work; nothing may leak
 *                            (LeakSanitizer in the sanitizer build).
 *   MISHGRAD_FAULT_STEP=N    the N-th piece of work queued on a stream fails when it runs:
 *                            aclrtSynchronizeStream returns 561000 with the message once,
 *                            later work still runs, and the next synchronize is clean.
 */

#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

/* More than any program here allocates; a sweep that reaches it never ran through. */
#define MAX_FAULT_INDEX 80

/* A fresh session with the planted faults (NULL: none). */
static int session(const char *alloc_fault, const char *step_fault) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);
    aclFinalize(); /* the session of an earlier test, or nothing (then 0 or 100037) */
    if (alloc_fault) setenv("MISHGRAD_FAULT_ALLOC", alloc_fault, 1); else unsetenv("MISHGRAD_FAULT_ALLOC");
    if (step_fault) setenv("MISHGRAD_FAULT_STEP", step_fault, 1); else unsetenv("MISHGRAD_FAULT_STEP");
    int status = rel_runtime_up();
    unsetenv("MISHGRAD_FAULT_ALLOC");
    unsetenv("MISHGRAD_FAULT_STEP");
    return status;
}

static int session_with_alloc_fault(int n) {
    char value[16];
    snprintf(value, sizeof value, "%d", n);
    return session(value, NULL);
}

/* The message of an allocation that failed: it says memory or allocation, not a bad argument. */
static void check_out_of_memory_message(const char *where, int n) {
    const char *message = aclGetRecentErrMsg();
    if (!mg_mentions(message, "memory") && !mg_mentions(message, "alloc"))
        MG_FAIL("fault %d in %s: the message \"%s\" does not say an allocation failed", n, where,
                message ? message : "(null)");
    else
        MG_CHECK(1);
}

/* An out-of-memory status of an aclnn call: the inner family (561xxx), never a 161xxx
   "your argument is wrong" (issue 10 defect 5). */
static void check_inner_status(const char *where, int n, int status) {
    if (status < 561000 || status > 561999)
        MG_FAIL("fault %d in %s: status %d, expected an inner error 561xxx", n, where, status);
    else
        MG_CHECK(1);
}

/* A job that runs and checks cleanly (the "next call works" half of every case). */
static void check_next_call_works(mg_rng *rng, aclrtStream stream) {
    rel_job job;
    MG_CHECK_EQ_INT(rel_job_make(&job, rng, rel_random_dtype(rng), -1, 2000), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK_EQ_INT(rel_job_check(&job, "the call after a fault"), 0);
    rel_job_release(&job, 1);
}

typedef struct sweep_counts {
    int setup, phase1, launch, synchronize;
} sweep_counts;

/* One program with the N-th allocation failing: a stream, a job of `layout`, phase 1,
   (repeatable), phase 2, synchronize. Returns 1 when it ran through untouched by the fault. */
static int run_program_with_fault(int n, int layout, int repeatable, aclDataType dtype, sweep_counts *counts) {
    mg_rng rng = {(uint64_t)(1000 + layout * 10 + repeatable)};
    int status = session_with_alloc_fault(n);
    if (status != ACL_SUCCESS) {
        /* aclInit / aclrtSetDevice needed the memory */
        counts->setup++;
        MG_CHECK_EQ_INT(status, ACL_ERROR_RT_MEMORY_ALLOCATION);
        return 0;
    }
    aclrtStream stream = NULL;
    status = aclrtCreateStream(&stream);
    if (status != ACL_SUCCESS) {
        counts->setup++;
        MG_CHECK_EQ_INT(status, ACL_ERROR_RT_MEMORY_ALLOCATION);
        MG_CHECK(stream == NULL);
        check_out_of_memory_message("aclrtCreateStream", n);
        check_next_call_works(&rng, NULL);
        return 0;
    }
    rel_job job;
    status = rel_job_make(&job, &rng, dtype, layout, 1500);
    if (status != 0) {
        /* aclCreateTensor returned NULL (rel_job_make says ACLNN_ERR_INNER_NULLPTR) */
        counts->setup++;
        MG_CHECK_EQ_INT(status, ACLNN_ERR_INNER_NULLPTR);
        check_out_of_memory_message("aclCreateTensor", n);
        rel_job_release(&job, 1);
        check_next_call_works(&rng, stream);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
        return 0;
    }
    status = aclnnMishBackwardGetWorkspaceSize(job.t[0].tensor, job.t[1].tensor, job.t[2].tensor,
                                               &job.workspace_size, &job.executor);
    if (status != ACLNN_SUCCESS) {
        counts->phase1++;
        check_inner_status("phase 1", n, status);
        check_out_of_memory_message("phase 1", n);
        MG_CHECK(rel_job_untouched(&job));
        rel_job_release(&job, 1);
        check_next_call_works(&rng, stream);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
        return 0;
    }
    if (job.workspace_size > 0)
        MG_CHECK_EQ_INT(aclrtMalloc(&job.workspace, job.workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    if (repeatable) MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(job.executor), 0);
    int launched = rel_job_launch(&job, stream);
    int synced = launched == ACLNN_SUCCESS ? aclrtSynchronizeStream(stream) : ACL_SUCCESS;
    int ran_through = 0;
    if (launched != ACLNN_SUCCESS) {
        counts->launch++;
        check_inner_status("phase 2", n, launched);
        check_out_of_memory_message("phase 2", n);
    } else if (synced != ACL_SUCCESS) {
        counts->synchronize++;
        check_inner_status("the queued work", n, synced);
    }
    if (launched != ACLNN_SUCCESS || synced != ACL_SUCCESS) {
        MG_CHECK(rel_job_untouched(&job));
        if (repeatable) {
            /* the executor is still the caller's: it runs once memory is back */
            MG_CHECK_EQ_INT(rel_job_launch(&job, stream), 0);
            MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
            MG_CHECK_EQ_INT(rel_job_check(&job, "repeatable executor after a fault"), 0);
        }
        check_next_call_works(&rng, stream);
    } else {
        MG_CHECK_EQ_INT(rel_job_check(&job, "the program past its faults"), 0);
        ran_through = 1;
    }
    if (repeatable) MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(job.executor), 0);
    rel_job_release(&job, 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    return ran_through;
}

static void sweep(const char *name, int layout, int repeatable, aclDataType dtype, int min_phase1, int min_launch) {
    sweep_counts counts = {0, 0, 0, 0};
    int n;
    for (n = 1; n <= MAX_FAULT_INDEX; n++)
        if (run_program_with_fault(n, layout, repeatable, dtype, &counts)) break;
    if (n > MAX_FAULT_INDEX) MG_FAIL("%s: the program never ran through %d planted faults", name, MAX_FAULT_INDEX);
    /* the fault reached each part of the program before it ran through */
    MG_CHECK(counts.setup >= 2);       /* the stream and the tensors at least */
    MG_CHECK(counts.phase1 >= min_phase1);
    MG_CHECK(counts.launch >= min_launch);
    printf("  %s: %d faults: %d setup, %d phase 1, %d launch, %d at synchronize\n", name, n - 1, counts.setup,
           counts.phase1, counts.launch, counts.synchronize);
    MG_CHECK_EQ_INT(session(NULL, NULL), 0);
}

/* Non-contiguous everywhere: the plan with the most steps (executor, overlap proof). */
MG_TEST(alloc_faults_transposed_single_use) { sweep("transposed, single-use", REL_TRANSPOSED, 0, ACL_FLOAT, 1, 1); }
MG_TEST(alloc_faults_gaps_repeatable) { sweep("strided with gaps, repeatable", REL_GAPS, 1, ACL_FLOAT16, 1, 1); }
MG_TEST(alloc_faults_contiguous) { sweep("contiguous", REL_CONTIGUOUS, 0, ACL_BF16, 1, 1); }

/* aclCreateTensor: NULL with a message when its allocation fails, and the next one works. */
MG_TEST(alloc_fault_in_create_tensor) {
    int64_t dims[2] = {2, 3}, storage[1] = {6};
    int n, nulls = 0;
    for (n = 1; n <= MAX_FAULT_INDEX; n++) {
        if (session_with_alloc_fault(n) != ACL_SUCCESS) continue;
        void *data = NULL;
        int status = aclrtMalloc(&data, 24, ACL_MEM_MALLOC_HUGE_FIRST);
        if (status != ACL_SUCCESS) {
            MG_CHECK_EQ_INT(status, ACL_ERROR_RT_MEMORY_ALLOCATION);
            continue;
        }
        aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, data);
        if (t == NULL) {
            nulls++;
            check_out_of_memory_message("aclCreateTensor", n);
            t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, data);
            MG_CHECK(t != NULL);
            aclDestroyTensor(t);
            MG_CHECK_EQ_INT(aclrtFree(data), 0);
            continue;
        }
        aclDestroyTensor(t);
        MG_CHECK_EQ_INT(aclrtFree(data), 0);
        break;
    }
    MG_CHECK(n <= MAX_FAULT_INDEX);
    MG_CHECK_EQ_INT(nulls, 1);
}

/* A planted fault is spent once; malformed values plant nothing; aclFinalize forgets it. */
MG_TEST(alloc_fault_switch_values) {
    mg_rng rng = {21};
    static const char *const no_fault[] = {"0", "-3", "x", "2x", ""};
    for (size_t i = 0; i < sizeof no_fault / sizeof no_fault[0]; i++) {
        MG_CHECK_EQ_INT(session(no_fault[i], no_fault[i]), 0);
        aclrtStream stream = NULL;
        MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
        check_next_call_works(&rng, stream);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    }
    /* the first allocation after aclInit, then never again */
    MG_CHECK_EQ_INT(session("1", NULL), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_ERROR_RT_MEMORY_ALLOCATION);
    MG_CHECK(stream == NULL);
    check_out_of_memory_message("aclrtCreateStream", 1);
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
        check_next_call_works(&rng, stream);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    }
    /* a new session without the variable has no fault left over */
    MG_CHECK_EQ_INT(session(NULL, NULL), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* ---- MISHGRAD_FAULT_STEP: the stream's error path ------------------------------------ */

static void make_ready_job(rel_job *job, mg_rng *rng, int layout) {
    MG_CHECK_EQ_INT(rel_job_make(job, rng, ACL_FLOAT, layout, 3000), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(job), 0);
}

static void check_step_fault_message(long step) {
    char expected[64];
    snprintf(expected, sizeof expected, "queued step %ld failed", step);
    const char *message = aclGetRecentErrMsg();
    MG_CHECK_STR_CONTAINS(message, expected);
    MG_CHECK_STR_CONTAINS(message, "MISHGRAD_FAULT_STEP");
}

/* The only step fails: 561000 with the message, its output untouched; the error is
   reported once, and the stream then runs new work. */
MG_TEST(step_fault_reported_once_then_cleared) {
    mg_rng rng = {31};
    MG_CHECK_EQ_INT(session(NULL, "1"), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    rel_job job;
    make_ready_job(&job, &rng, REL_CONTIGUOUS);
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS); /* it fails when it runs */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACLNN_ERR_INNER);
    check_step_fault_message(1);
    MG_CHECK(rel_job_untouched(&job)); /* the step did not run */
    /* reported once: the next synchronize has nothing to report */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    rel_job_release(&job, 1);
    /* and the stream works: step 2 is not planned */
    check_next_call_works(&rng, stream);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* Three launches queued before one synchronize, the middle one planted: the synchronize
   reports it, and the work queued after it still runs. */
MG_TEST(step_fault_later_work_still_runs) {
    mg_rng rng = {32};
    MG_CHECK_EQ_INT(session(NULL, "2"), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    rel_job jobs[3];
    for (int i = 0; i < 3; i++) make_ready_job(&jobs[i], &rng, i == 1 ? REL_TRANSPOSED : REL_GAPS);
    for (int i = 0; i < 3; i++) MG_CHECK_EQ_INT(rel_job_launch(&jobs[i], stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACLNN_ERR_INNER);
    check_step_fault_message(2);
    MG_CHECK_EQ_INT(rel_job_check(&jobs[0], "the step before the fault"), 0);
    MG_CHECK(rel_job_untouched(&jobs[1]));
    MG_CHECK_EQ_INT(rel_job_check(&jobs[2], "the step after the fault"), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    for (int i = 0; i < 3; i++) rel_job_release(&jobs[i], 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* Two failing steps before one synchronize: the first one's error is the one reported
   (first-error capture), and both are gone after it. */
MG_TEST(step_fault_first_error_wins) {
    mg_rng rng = {33};
    MG_CHECK_EQ_INT(session(NULL, "2,3"), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    rel_job jobs[4];
    for (int i = 0; i < 4; i++) make_ready_job(&jobs[i], &rng, REL_CONTIGUOUS);
    for (int i = 0; i < 4; i++) MG_CHECK_EQ_INT(rel_job_launch(&jobs[i], stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACLNN_ERR_INNER);
    const char *message = aclGetRecentErrMsg();
    MG_CHECK_STR_CONTAINS(message, "queued step 2 failed");
    MG_CHECK(message == NULL || strstr(message, "step 3") == NULL);
    MG_CHECK_EQ_INT(rel_job_check(&jobs[0], "step 1"), 0);
    MG_CHECK(rel_job_untouched(&jobs[1]));
    MG_CHECK(rel_job_untouched(&jobs[2]));
    MG_CHECK_EQ_INT(rel_job_check(&jobs[3], "step 4"), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    for (int i = 0; i < 4; i++) rel_job_release(&jobs[i], 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* The error belongs to the stream its step was queued on; a blocking copy waits for the
   failed work but leaves the error to the stream's synchronize; aclrtSynchronizeDevice
   reports it too. */
MG_TEST(step_fault_stays_on_its_stream) {
    mg_rng rng = {34};
    MG_CHECK_EQ_INT(session(NULL, "1,3"), 0);
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), 0);
    rel_job jobs[3];
    for (int i = 0; i < 3; i++) make_ready_job(&jobs[i], &rng, REL_CONTIGUOUS);
    MG_CHECK_EQ_INT(rel_job_launch(&jobs[0], a), ACLNN_SUCCESS); /* step 1: fails */
    MG_CHECK_EQ_INT(rel_job_launch(&jobs[1], b), ACLNN_SUCCESS); /* step 2 */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(rel_job_check(&jobs[1], "the other stream's step"), 0);
    /* a device-to-host copy waits for stream a's failed step but does not report it */
    unsigned char host[16];
    MG_CHECK_EQ_INT(aclrtMemcpy(host, sizeof host, jobs[0].t[2].data, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACLNN_ERR_INNER);
    check_step_fault_message(1);
    MG_CHECK(rel_job_untouched(&jobs[0]));
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    /* step 3 on the default stream: aclrtSynchronizeDevice reports it, then nothing */
    MG_CHECK_EQ_INT(rel_job_launch(&jobs[2], NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), ACLNN_ERR_INNER);
    check_step_fault_message(3);
    MG_CHECK(rel_job_untouched(&jobs[2]));
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; i++) rel_job_release(&jobs[i], 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), 0);
}

/* A stream destroyed with its failed step unreported: the destroy succeeds (the error is
   logged), and the fault does not leak into the next session. */
MG_TEST(step_fault_on_destroyed_stream_and_next_session) {
    mg_rng rng = {35};
    MG_CHECK_EQ_INT(session(NULL, "1"), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    rel_job job;
    make_ready_job(&job, &rng, REL_GAPS);
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK(rel_job_untouched(&job));
    rel_job_release(&job, 1);
    /* a new session without the variable: step 1 runs */
    MG_CHECK_EQ_INT(session(NULL, NULL), 0);
    check_next_call_works(&rng, NULL);
}

MG_TEST_MAIN()
