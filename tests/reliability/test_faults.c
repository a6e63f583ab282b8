/*
 * tests/reliability/test_faults.c: every internal allocation in turn made to fail
 * (mgrt_fault_fail_alloc_after, and MISHGRAD_FAULT_ALLOC at aclInit). Each failure must be
 * a status from the call that needed the memory, with a message, with the output untouched;
 * the next call must work; and nothing may leak (LeakSanitizer in the sanitizer build).
 */
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

/* More than any call here makes; a sweep that reaches it never saw the call succeed. */
#define MAX_FAULT_INDEX 64

static int is_error_status(int status) {
    /* a failure, and one of the documented families: 1xxxxx/2xxxxx ACL, 16xxxx/36xxxx/56xxxx
       ACLNN */
    return status == ACL_ERROR_BAD_ALLOC || status == ACL_ERROR_RT_MEMORY_ALLOCATION ||
           status == ACL_ERROR_INTERNAL_ERROR || status == ACL_ERROR_RT_INTERNAL_ERROR ||
           (status >= 561000 && status < 562000) || status == ACLNN_ERR_RUNTIME_ERROR;
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

MG_TEST(phase1_allocation_faults) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {11};
    int failed_calls = 0, n;
    for (n = 0; n < MAX_FAULT_INDEX; n++) {
        rel_job job;
        /* non-contiguous everywhere: the plan with the most steps */
        MG_CHECK_EQ_INT(rel_job_make(&job, &rng, ACL_FLOAT, REL_TRANSPOSED, 1500), 0);
        mgrt_set_recent_error("");
        mgrt_fault_fail_alloc_after(n);
        int status = aclnnMishBackwardGetWorkspaceSize(job.t[0].tensor, job.t[1].tensor, job.t[2].tensor,
                                                       &job.workspace_size, &job.executor);
        mgrt_fault_fail_alloc_after(-1);
        MG_CHECK(rel_job_untouched(&job));
        if (status != ACLNN_SUCCESS) {
            failed_calls++;
            if (!is_error_status(status)) MG_FAIL("fault %d in phase 1: status %d", n, status);
            MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
            rel_job_release(&job, 1);
            check_next_call_works(&rng, NULL);
            continue;
        }
        /* the fault came after phase 1's last allocation: the call is whole */
        if (job.workspace_size > 0)
            MG_CHECK_EQ_INT(aclrtMalloc(&job.workspace, job.workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        MG_CHECK_EQ_INT(rel_job_launch(&job, NULL), 0);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
        MG_CHECK_EQ_INT(rel_job_check(&job, "phase 1 past its faults"), 0);
        rel_job_release(&job, 1);
        break;
    }
    MG_CHECK(n < MAX_FAULT_INDEX);
    /* phase 1 allocates at least its executor */
    MG_CHECK(failed_calls >= 1);
    printf("  phase 1: %d allocations, each failure reported\n", failed_calls);
}

MG_TEST(phase2_allocation_faults) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {12};
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    int failed_calls = 0, n;
    for (int repeatable = 0; repeatable < 2; repeatable++) {
        for (n = 0; n < MAX_FAULT_INDEX; n++) {
            rel_job job;
            MG_CHECK_EQ_INT(rel_job_make(&job, &rng, rel_random_dtype(&rng), REL_GAPS, 1500), 0);
            MG_CHECK_EQ_INT(rel_job_prepare(&job), 0);
            if (repeatable) MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(job.executor), 0);
            mgrt_set_recent_error("");
            mgrt_fault_fail_alloc_after(n);
            int launched = rel_job_launch(&job, stream);
            int synced = aclrtSynchronizeStream(stream);
            mgrt_fault_fail_alloc_after(-1);
            if (launched != ACLNN_SUCCESS || synced != ACL_SUCCESS) {
                failed_calls++;
                if (!is_error_status(launched != ACLNN_SUCCESS ? launched : synced))
                    MG_FAIL("fault %d in phase 2: launch %d, synchronize %d", n, launched, synced);
                MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
                MG_CHECK(rel_job_untouched(&job));
                if (repeatable) {
                    /* the executor is still the caller's: it runs once memory is back */
                    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), 0);
                    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
                    MG_CHECK_EQ_INT(rel_job_check(&job, "repeatable executor after a fault"), 0);
                    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(job.executor), 0);
                }
                rel_job_release(&job, 1);
                check_next_call_works(&rng, stream);
                continue;
            }
            MG_CHECK_EQ_INT(rel_job_check(&job, "phase 2 past its faults"), 0);
            if (repeatable) MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(job.executor), 0);
            rel_job_release(&job, 1);
            break;
        }
        MG_CHECK(n < MAX_FAULT_INDEX);
    }
    MG_CHECK(failed_calls >= 2);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    printf("  phase 2: %d faulted launches, each reported\n", failed_calls);
}

MG_TEST(stream_creation_faults) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    mg_rng rng = {13};
    int failed_calls = 0, n;
    for (n = 0; n < MAX_FAULT_INDEX; n++) {
        aclrtStream stream = NULL;
        mgrt_set_recent_error("");
        mgrt_fault_fail_alloc_after(n);
        int status = aclrtCreateStream(&stream);
        mgrt_fault_fail_alloc_after(-1);
        if (status != ACL_SUCCESS) {
            failed_calls++;
            if (!is_error_status(status)) MG_FAIL("fault %d in aclrtCreateStream: %d", n, status);
            MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
            MG_CHECK(stream == NULL);
            MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
            check_next_call_works(&rng, stream);
            MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
            continue;
        }
        check_next_call_works(&rng, stream);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
        break;
    }
    MG_CHECK(n < MAX_FAULT_INDEX);
    MG_CHECK(failed_calls >= 1);
}

MG_TEST(tensor_creation_fault) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    int64_t dims[2] = {2, 3}, storage[1] = {6};
    void *data = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&data, 24, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    mgrt_set_recent_error("");
    mgrt_fault_fail_alloc_after(0);
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, data);
    mgrt_fault_fail_alloc_after(-1);
    MG_CHECK(t == NULL);
    MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
    t = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, data);
    MG_CHECK(t != NULL);
    aclDestroyTensor(t);
    MG_CHECK_EQ_INT(aclrtFree(data), 0);
}

/* MISHGRAD_FAULT_ALLOC=N at aclInit (counted from 1): a whole program (stream, tensors,
   both phases) with its N-th internal allocation failing, for each N until it runs through. */
MG_TEST(environment_fault_switch) {
    mg_rng rng = {14};
    int n, faults_seen = 0;
    for (n = 0; n < MAX_FAULT_INDEX; n++) {
        aclFinalize(); /* a running session from an earlier test, or nothing */
        char value[16];
        snprintf(value, sizeof value, "%d", n + 1);
        setenv("MISHGRAD_FAULT_ALLOC", value, 1);
        int status = rel_runtime_up();
        unsetenv("MISHGRAD_FAULT_ALLOC");
        if (status != 0) {
            faults_seen++;
            MG_CHECK(is_error_status(status));
            continue;
        }
        aclrtStream stream = NULL;
        status = aclrtCreateStream(&stream);
        if (status != 0) {
            faults_seen++;
            MG_CHECK(is_error_status(status));
            MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
            continue;
        }
        rel_job job;
        /* a fault may also hit aclCreateTensor (NULL tensor, then phase 1 says NULLPTR) */
        int made = rel_job_make(&job, &rng, ACL_FLOAT16, REL_TRANSPOSED, 800);
        int prepared = made == 0 ? rel_job_prepare(&job) : made;
        int launched = prepared == 0 ? rel_job_launch(&job, stream) : prepared;
        int synced = launched == 0 ? aclrtSynchronizeStream(stream) : launched;
        if (synced == 0) {
            MG_CHECK_EQ_INT(rel_job_check(&job, "the whole program past its faults"), 0);
            rel_job_release(&job, 1);
            MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
            mgrt_fault_fail_alloc_after(-1);
            break;
        }
        faults_seen++;
        MG_CHECK(synced == ACLNN_ERR_INNER_NULLPTR || is_error_status(synced));
        MG_CHECK(aclGetRecentErrMsg()[0] != '\0');
        MG_CHECK(rel_job_untouched(&job));
        rel_job_release(&job, 1);
        MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    }
    MG_CHECK(n < MAX_FAULT_INDEX);
    MG_CHECK(faults_seen >= 3);
    mgrt_fault_fail_alloc_after(-1);
    aclFinalize();
    /* and without the switch, a normal session */
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    check_next_call_works(&rng, NULL);
}

MG_TEST_MAIN()
