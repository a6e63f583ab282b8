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
 *   MISHGRAD_FAULT_HANDLE=N  the N-th handle registration after aclInit fails: a program of 16
 *                            calls that register one handle each (contexts, a stream, an event,
 *                            the runtime's and the tensor base's objects, an executor) is run
 *                            for N = 1..17: exactly call N fails, with its status and a message
 *                            saying memory ran out, registers nothing, and works when called
 *                            again; nothing leaks (LeakSanitizer sees a failure path that
 *                            forgot its free).
 */

#include "mg_test.h"
#include "mg_heap.h"
#include <malloc.h>

#include "mgrt.h"
#include "mgrt_handle.h"
#include "aclnnop/aclnn_mish.h"
#include "rel_job.h"
#include "rel_setup.h"

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
    const size_t executors_before = mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR);
    status = aclnnMishBackwardGetWorkspaceSize(job.t[0].tensor, job.t[1].tensor, job.t[2].tensor,
                                               &job.workspace_size, &job.executor);
    if (status != ACLNN_SUCCESS) {
        counts->phase1++;
        check_inner_status("phase 1", n, status);
        check_out_of_memory_message("phase 1", n);
        MG_CHECK(rel_job_untouched(&job));
        /* a phase 1 that failed keeps no executor, not even one it had made before the fault */
        MG_CHECK_EQ_INT((long)mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR), (long)executors_before);
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

/* ---- MISHGRAD_FAULT_HANDLE: every registration fails once, cleanly ------------------------ */

enum { HANDLE_STEPS = 16, HANDLE_SIDE = 16 };

typedef struct handle_program {
    aclrtContext context;
    aclrtStream stream;
    aclrtEvent event;
    aclDataBuffer *buffer;
    aclTensorDesc *desc;
    aclopAttr *attr;
    aclTensor *self, *out, *element;
    aclScalar *scalar;
    aclIntArray *ints;
    aclFloatArray *floats;
    aclBoolArray *bools;
    aclTensorList *list;
    aclOpExecutor *executor;
    void *in_block, *out_block;
} handle_program;

static const char *const handle_step_names[HANDLE_STEPS + 1] = {
    "", "aclrtSetDevice", "aclrtCreateContext", "aclrtCreateStream", "aclrtCreateEvent", "aclCreateDataBuffer",
    "aclCreateTensorDesc", "aclopCreateAttr", "aclCreateTensor (self)", "aclCreateTensor (out)", "aclCreateScalar",
    "aclCreateIntArray", "aclCreateFloatArray", "aclCreateBoolArray", "aclCreateTensor (list element)",
    "aclCreateTensorList", "aclnnMishGetWorkspaceSize"};

static size_t handles_live(void) {
    size_t live = 0;
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) live += mgrt_handle_live_count((mgrt_handle_kind)k);
    return live;
}

/* Step `i` of the program (each registers exactly one handle when it succeeds). Returns the
   status: an acl* call's own, 0 / -1 for a create call's handle / NULL. `expected` is the
   status the step must give when its registration fails. */
static int handle_step(int i, handle_program *p, int *expected) {
    static const int64_t dims[2] = {HANDLE_SIDE, HANDLE_SIDE}, storage[1] = {HANDLE_SIDE * HANDLE_SIDE};
    static const int64_t ints[3] = {1, 2, 3};
    static const float floats[2] = {0.5f, 2.0f};
    static const bool bools[2] = {true, false};
    float value = 1.5f;
    *expected = -1; /* a create call: NULL */
    switch (i) {
    case 1: *expected = ACL_ERROR_RT_MEMORY_ALLOCATION; return aclrtSetDevice(0);
    case 2: *expected = ACL_ERROR_RT_MEMORY_ALLOCATION; return aclrtCreateContext(&p->context, 0);
    case 3: *expected = ACL_ERROR_RT_MEMORY_ALLOCATION; return aclrtCreateStream(&p->stream);
    case 4: *expected = ACL_ERROR_RT_MEMORY_ALLOCATION; return aclrtCreateEvent(&p->event);
    case 5: return (p->buffer = aclCreateDataBuffer(p->in_block, 64)) != NULL ? 0 : -1;
    case 6: return (p->desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)) != NULL ? 0 : -1;
    case 7: return (p->attr = aclopCreateAttr()) != NULL ? 0 : -1;
    case 8:
        p->self = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, p->in_block);
        return p->self != NULL ? 0 : -1;
    case 9:
        p->out = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, p->out_block);
        return p->out != NULL ? 0 : -1;
    case 10: return (p->scalar = aclCreateScalar(&value, ACL_FLOAT)) != NULL ? 0 : -1;
    case 11: return (p->ints = aclCreateIntArray(ints, 3)) != NULL ? 0 : -1;
    case 12: return (p->floats = aclCreateFloatArray(floats, 2)) != NULL ? 0 : -1;
    case 13: return (p->bools = aclCreateBoolArray(bools, 2)) != NULL ? 0 : -1;
    case 14:
        p->element = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, p->in_block);
        return p->element != NULL ? 0 : -1;
    case 15: {
        const aclTensor *elements[1] = {p->element};
        p->list = aclCreateTensorList(elements, 1);
        return p->list != NULL ? 0 : -1;
    }
    case 16: {
        *expected = ACLNN_ERR_INNER_CREATE_EXECUTOR;
        uint64_t workspace = 0;
        return aclnnMishGetWorkspaceSize(p->self, p->out, &workspace, &p->executor);
    }
    }
    return -2;
}

/* The program with registration `n` failing (n > HANDLE_STEPS: none). Returns the step that
   failed, 0 when none did. */
static int run_handle_program(int n) {
    aclFinalize(); /* the earlier session */
    char value[16];
    snprintf(value, sizeof value, "%d", n);
    setenv("MISHGRAD_FAULT_HANDLE", value, 1);
    const int init = aclInit(NULL);
    unsetenv("MISHGRAD_FAULT_HANDLE");
    MG_CHECK_EQ_INT(init, 0);
    handle_program p;
    memset(&p, 0, sizeof p);
    /* blocks before the first step: device memory is no handle, but aclrtMalloc needs a
       context, so the first two steps run before it and the blocks come after step 1 works */
    int failed = 0;
    for (int i = 1; i <= HANDLE_STEPS; i++) {
        if (i == 3 && (aclrtMalloc(&p.in_block, HANDLE_SIDE * HANDLE_SIDE * 4, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
                       aclrtMalloc(&p.out_block, HANDLE_SIDE * HANDLE_SIDE * 4, ACL_MEM_MALLOC_HUGE_FIRST) != 0))
            MG_FAIL("N=%d: aclrtMalloc: %s", n, aclGetRecentErrMsg());
        const size_t before = handles_live();
        int expected = 0;
        const int status = handle_step(i, &p, &expected);
        if (status == 0) {
            if (i == n) MG_FAIL("N=%d: %s succeeded: its registration was the one planted to fail", n,
                                handle_step_names[i]);
            else MG_CHECK_EQ_INT((long)(handles_live() - before), 1);
            continue;
        }
        failed = i;
        if (i != n) {
            MG_FAIL("N=%d: %s failed (%d), not the call of registration %d: %s", n, handle_step_names[i], status, n,
                    aclGetRecentErrMsg());
            break;
        }
        MG_CHECK_EQ_INT(status, expected);
        const char *message = aclGetRecentErrMsg();
        /* the executor's message is phase 1's (the operator and the executor); every other
           names its call */
        char call[32];
        snprintf(call, sizeof call, "%s", i == 16 ? "executor" : handle_step_names[i]);
        char *space = strchr(call, ' ');
        if (space != NULL) *space = '\0';
        if (getenv("MISHGRAD_TEST_VERBOSE") != NULL) printf("  N=%d: %d \"%s\"\n", n, status, message ? message : "");
        if (message == NULL || !mg_mentions(message, "memory") || !mg_mentions(message, call))
            MG_FAIL("N=%d: %s's message \"%s\" does not name the call and say memory ran out", n,
                    handle_step_names[i], message ? message : "(null)");
        else
            MG_CHECK(1);
        /* nothing of the failed call stays registered; called again, it works */
        MG_CHECK_EQ_INT((long)handles_live(), (long)before);
        int again = 0;
        MG_CHECK_EQ_INT(handle_step(i, &p, &again), 0);
        MG_CHECK_EQ_INT((long)(handles_live() - before), 1);
    }
    /* the program's end: everything given back; only the device's default context stays */
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(p.executor), 0);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(p.executor), 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(p.list), 0); /* and its element */
    MG_CHECK_EQ_INT(aclDestroyBoolArray(p.bools), 0);
    MG_CHECK_EQ_INT(aclDestroyFloatArray(p.floats), 0);
    MG_CHECK_EQ_INT(aclDestroyIntArray(p.ints), 0);
    MG_CHECK_EQ_INT(aclDestroyScalar(p.scalar), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(p.out), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(p.self), 0);
    aclopDestroyAttr(p.attr);
    aclDestroyTensorDesc(p.desc);
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(p.buffer), 0);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(p.event), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(p.stream), 0);
    MG_CHECK_EQ_INT(aclrtFree(p.in_block), 0);
    MG_CHECK_EQ_INT(aclrtFree(p.out_block), 0);
    MG_CHECK_EQ_INT(aclrtDestroyContext(p.context), 0);
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++)
        if (k != MGRT_HANDLE_CONTEXT) MG_CHECK_EQ_INT((long)mgrt_handle_live_count((mgrt_handle_kind)k), 0);
    MG_CHECK(mgrt_handle_live_count(MGRT_HANDLE_CONTEXT) <= 1);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), 0);
    return failed;
}

MG_TEST(every_handle_registration_fails_cleanly) {
    for (int n = 1; n <= HANDLE_STEPS; n++) MG_CHECK_EQ_INT(run_handle_program(n), n);
    MG_CHECK_EQ_INT(run_handle_program(HANDLE_STEPS + 1), 0); /* past the program: nothing fails */
    /* values that are not a number >= 1 plant nothing */
    const char *const ignored[] = {"0", "-3", "x", "2x", ""};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
        aclFinalize();
        setenv("MISHGRAD_FAULT_HANDLE", ignored[i], 1);
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        unsetenv("MISHGRAD_FAULT_HANDLE");
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
        aclrtStream s = NULL;
        MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    }
    MG_CHECK_EQ_INT(session(NULL, NULL), 0);
}


/* One session with fault n: a stream, a block, an aclrtMemsetAsync. Returns 1 when the
   memset was the call that failed for want of its queue node ("queueing work"), 0 when it
   ran, -1 when the fault fell earlier. */
static int memset_with_fault(int n) {
    if (session_with_alloc_fault(n) != ACL_SUCCESS) return -1;
    aclrtStream stream = NULL;
    void *dev = NULL;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return -1;
    int result = -1;
    if (aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
        aclError r = aclrtMemsetAsync(dev, 256, 0x11, 256, stream);
        const char *m = r != ACL_SUCCESS ? aclGetRecentErrMsg() : NULL;
        result = r == ACL_SUCCESS ? 0 : (r == ACL_ERROR_RT_MEMORY_ALLOCATION && m && strstr(m, "queueing work")) ? 1 : -1;
        (void)aclrtSynchronizeStream(stream);
        (void)aclrtFree(dev);
    }
    (void)aclrtDestroyStream(stream);
    return result;
}

/* Work refused for want of its queue node, or of the node's copy of its accesses or of its
   holds, takes nothing with it: what the queueing had already set aside is freed with the
   task (seed 32: a free deleted on that path; seed 43: the node itself kept when a later
   block failed). Session after session failing at each of those points leaves the heap as
   it was. */
MG_TEST(alloc_fault_queueing_work_frees_what_it_took) {
    int points[8], npoints = 0;
    for (int n = 1; n <= MAX_FAULT_INDEX && npoints < 8; n++) {
        int r = memset_with_fault(n);
        if (r == 0) break; /* ran through: no allocation of the memset failed as planned */
        if (r == 1) points[npoints++] = n;
    }
    /* the node, the copy of the accesses, the holds: three allocations, each refused alike */
    MG_CHECK_EQ_INT(npoints, 3);
    for (int p = 0; p < npoints; p++) {
        const int n = points[p];
        (void)memset_with_fault(n); /* warm-up */
        const long long before = mg_heap_in_use();
        enum { ROUNDS = 300 };
        int refused = 0;
        for (int i = 0; i < ROUNDS; i++) refused += memset_with_fault(n) == 1;
        const long long after = mg_heap_in_use();
        MG_CHECK_EQ_INT(refused, ROUNDS);
        if (before < 0 || after < 0) continue; /* a sanitizer's allocator: LeakSanitizer judges */
        /* 300 nodes or access copies kept would be over 12 KB; a session with nothing kept
           gives back what it took */
        if (after - before >= 8 * 1024)
            MG_FAIL("the heap grew by %lld bytes over %d memsets refused at allocation %d", after - before,
                    ROUNDS, n);
        else
            MG_CHECK(1);
    }
    aclFinalize();
}

MG_TEST_MAIN()
