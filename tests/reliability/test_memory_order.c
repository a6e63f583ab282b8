/*
 * tests/reliability/test_memory_order.c: the blocking memory calls (aclrtMemset, aclrtMemcpy)
 * are ordered after the queued work that uses the bytes they touch, and wait for nothing
 * else; aclrtFree waits for nothing (the memory is freed once the work using it is done). Each case launches without synchronizing, makes the memory call,
 * and then reads values: had the call not waited, the queued launch would run after it
 * (a lone small launch is left on its stream until someone synchronizes) and the values
 * would show it. Device 0 is this CPU, so a test may also read a device block directly.
 */
#include "mg_gate.h"
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

static aclrtStream make_stream(void) {
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    return stream;
}

static void ready(rel_job *job, mg_rng *rng, aclDataType dtype, int layout) {
    MG_CHECK_EQ_INT(rel_job_make(job, rng, dtype, layout, 4000), 0);
    MG_CHECK_EQ_INT(rel_job_prepare(job), 0);
}

/* Bytes of `data` equal to `value` over [0, bytes). */
static size_t count_bytes_equal(const unsigned char *data, size_t bytes, unsigned char value) {
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++) n += data[i] == value;
    return n;
}

/* aclrtMemset of the output right after an unsynchronized launch: the launch runs first,
   so after synchronizing the output holds the memset's bytes, not the results. */
MG_TEST(memset_of_the_output_after_a_launch_wins) {
    mg_rng rng = {41};
    aclrtStream stream = make_stream();
    for (int layout = 0; layout < REL_LAYOUTS; layout++) {
        rel_job job;
        ready(&job, &rng, layout == 1 ? ACL_FLOAT16 : ACL_FLOAT, layout);
        rel_tensor *out = &job.t[REL_GRAD_INPUT];
        MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMemset(out->data, out->bytes, 0x5a, out->bytes), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        MG_CHECK_EQ_INT(count_bytes_equal(out->data, out->bytes, 0x5a), out->bytes);
        rel_job_release(&job, 1);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* aclrtMemset of an input right after an unsynchronized launch: the launch read the old
   values, so the results are those of the old input. */
MG_TEST(memset_of_an_input_after_a_launch_comes_later) {
    mg_rng rng = {42};
    aclrtStream stream = make_stream();
    rel_job job;
    ready(&job, &rng, ACL_FLOAT, REL_CONTIGUOUS);
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
    for (int i = REL_GRAD_OUTPUT; i <= REL_SELF; i++)
        MG_CHECK_EQ_INT(aclrtMemset(job.t[i].data, job.t[i].bytes, 0, job.t[i].bytes), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    /* restore the inputs' snapshot so rel_job_check's "inputs unchanged" holds; the output
       must be the gradient of the values before the memset */
    for (int i = REL_GRAD_OUTPUT; i <= REL_SELF; i++) memcpy(job.t[i].data, job.t[i].snapshot, job.t[i].bytes);
    MG_CHECK_EQ_INT(rel_job_check(&job, "launch, then memset of its inputs"), 0);
    rel_job_release(&job, 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* aclrtMemset / aclrtFree of other memory do not wait for the work queued on any stream (CANN:
   no implicit synchronization): the launches are still queued when they return, and their
   results are right once the streams are synchronized. */
MG_TEST(memset_and_free_of_other_memory_do_not_wait_for_queued_work) {
    mg_rng rng = {43};
    aclrtStream a = make_stream(), b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), 0);
    for (int call = 0; call < 2; call++) {
        rel_job on_a, on_default;
        ready(&on_a, &rng, ACL_BF16, REL_GAPS);
        ready(&on_default, &rng, ACL_FLOAT, REL_TRANSPOSED);
        void *other = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&other, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        mg_gate_close(a); /* stream a's launch stays queued until the gate opens */
        MG_CHECK_EQ_INT(rel_job_launch(&on_a, a), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(rel_job_launch(&on_default, NULL), ACLNN_SUCCESS);
        if (call == 0)
            MG_CHECK_EQ_INT(aclrtMemset(other, 256, 1, 256), ACL_SUCCESS);
        else
            MG_CHECK_EQ_INT(aclrtFree(other), ACL_SUCCESS);
        /* the call returned with stream a's launch still queued behind the gate */
        aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
        MG_CHECK_EQ_INT(aclrtStreamQuery(a, &status), ACL_SUCCESS);
        MG_CHECK_EQ_INT(status, ACL_STREAM_STATUS_NOT_READY);
        mg_gate_open();
        if (call == 0) MG_CHECK_EQ_INT(aclrtFree(other), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(rel_job_check(&on_a, call == 0 ? "after aclrtMemset" : "after aclrtFree"), 0);
        MG_CHECK_EQ_INT(rel_job_check(&on_default, call == 0 ? "after aclrtMemset" : "after aclrtFree"), 0);
        rel_job_release(&on_a, 1);
        rel_job_release(&on_default, 1);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), 0);
}

/* aclrtFree of a launch's input right after the launch: the launch read it before the free.
   A new block of the same size (often the same address) is then filled by the host with
   other values; had the free released the memory under the queued launch, the launch
   would read those (or freed memory, which AddressSanitizer reports). The free returns at
   once; the memory goes when the launch is done. */
MG_TEST(free_of_an_input_after_a_launch_comes_later) {
    mg_rng rng = {44};
    aclrtStream stream = make_stream();
    for (int round = 0; round < 4; round++) {
        rel_job job;
        ready(&job, &rng, round % 2 ? ACL_FLOAT16 : ACL_FLOAT, round % 3);
        MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
        rel_tensor *x = &job.t[REL_SELF];
        MG_CHECK_EQ_INT(aclrtFree(x->data), ACL_SUCCESS);
        void *reuse = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&reuse, x->bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        memset(reuse, 0x7f, x->bytes); /* a host write: it does not wait for anything */
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        /* the check reads x from the job's snapshot and its data: point data at the
           snapshot's copy for the "inputs unchanged" part */
        x->data = x->snapshot;
        MG_CHECK_EQ_INT(rel_job_check(&job, "launch, then aclrtFree of self"), 0);
        x->data = NULL; /* already freed */
        MG_CHECK_EQ_INT(aclrtFree(reuse), ACL_SUCCESS);
        rel_job_release(&job, 1);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* aclrtFree of the output right after the launch: the memory is freed only once the launch
   has written it, so a new block never shares it and keeps the bytes written after the free. */
MG_TEST(free_of_the_output_after_a_launch_comes_later) {
    mg_rng rng = {45};
    aclrtStream stream = make_stream();
    rel_job job;
    ready(&job, &rng, ACL_FLOAT, REL_CONTIGUOUS);
    rel_tensor *out = &job.t[REL_GRAD_INPUT];
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(out->data), ACL_SUCCESS);
    out->data = NULL;
    void *reuse = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&reuse, out->bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    memset(reuse, 0x33, out->bytes); /* a host write: it does not wait for anything */
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(count_bytes_equal(reuse, out->bytes, 0x33), out->bytes);
    MG_CHECK_EQ_INT(aclrtFree(reuse), ACL_SUCCESS);
    rel_job_release(&job, 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* A device-to-host copy after an unsynchronized launch returns the results; a host-to-
   device copy over an input after the launch does not change what the launch read. */
MG_TEST(memcpy_after_a_launch_sees_and_keeps_its_order) {
    mg_rng rng = {46};
    aclrtStream stream = make_stream();
    rel_job job;
    ready(&job, &rng, ACL_FLOAT, REL_GAPS);
    rel_tensor *out = &job.t[REL_GRAD_INPUT], *g = &job.t[REL_GRAD_OUTPUT];
    MG_CHECK_EQ_INT(rel_job_launch(&job, stream), ACLNN_SUCCESS);
    unsigned char *zeros = calloc(g->bytes, 1);
    MG_CHECK_EQ_INT(aclrtMemcpy(g->data, g->bytes, zeros, g->bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    unsigned char *host = malloc(out->bytes);
    MG_CHECK_EQ_INT(aclrtMemcpy(host, out->bytes, out->data, out->bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    MG_CHECK(memcmp(host, out->data, out->bytes) == 0);
    memcpy(g->data, g->snapshot, g->bytes);
    MG_CHECK_EQ_INT(rel_job_check(&job, "launch, then copies"), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    free(zeros);
    free(host);
    rel_job_release(&job, 1);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

MG_TEST_MAIN()
