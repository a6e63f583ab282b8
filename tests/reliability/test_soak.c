/*
 * tests/reliability/test_soak.c: a bounded soak. Threads, each with its own stream plus one
 * stream they all share, run random jobs (every dtype, ranks 0..4, contiguous, transposed
 * and strided views, single-use and repeatable executors with moved buffers) and check
 * every result. Resident memory after a warm-up and at the end must stay flat.
 *
 *   reliability_soak [SECONDS]     default 5, or MISHGRAD_SOAK_SECONDS
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "mg_test.h"
#include "rel_job.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SOAK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SOAK_SANITIZED 1
#endif

#define SOAK_THREADS 3

static double soak_seconds = 5.0;
static aclrtStream shared_stream;
static atomic_long soak_failures, soak_jobs;
static atomic_int warmed_up_threads;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long resident_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    long size = 0, resident = -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void soak_fail(const char *what, int status) {
    fprintf(stderr, "  soak: %s: status %d (%s)\n", what, status, aclGetRecentErrMsg());
    atomic_fetch_add(&soak_failures, 1);
}

/* One repeatable job run `runs` times, its output moved to a fresh block between runs. */
static void repeatable_job(mg_rng *rng, aclrtStream stream) {
    rel_job job;
    int status = rel_job_make(&job, rng, rel_random_dtype(rng), -1, 6000);
    if (status == 0) status = rel_job_prepare(&job);
    if (status == 0) status = aclSetAclOpExecutorRepeatable(job.executor);
    if (status != 0) {
        soak_fail("repeatable job", status);
        rel_job_release(&job, 1);
        return;
    }
    int runs = 2 + (int)mish_ref_below(rng, 3);
    for (int run = 0; run < runs && status == 0; run++) {
        if (run > 0) {
            rel_tensor *o = &job.t[REL_GRAD_INPUT];
            void *moved = NULL;
            status = aclrtMalloc(&moved, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            if (status != 0) break;
            memcpy(moved, o->snapshot, o->bytes);
            status = aclSetOutputTensorAddr(job.executor, 0, o->tensor, moved);
            aclrtFree(o->data);
            o->data = moved;
        }
        if (status == 0) status = rel_job_launch(&job, stream);
        if (status == 0) status = aclrtSynchronizeStream(stream);
        if (status == 0 && rel_job_check(&job, "soak, repeatable") != 0) atomic_fetch_add(&soak_failures, 1);
    }
    if (status != 0) soak_fail("repeatable run", status);
    status = aclDestroyAclOpExecutor(job.executor);
    if (status != 0) soak_fail("aclDestroyAclOpExecutor", status);
    rel_job_release(&job, 1);
    atomic_fetch_add(&soak_jobs, 1);
}

static void *soak_worker(void *arg) {
    if (aclrtSetDevice(0) != 0) return NULL; /* each thread sets its context, as on a device */
    mg_rng rng = {(uint64_t)(uintptr_t)arg};
    aclrtStream own = NULL;
    int status = aclrtCreateStream(&own);
    if (status != 0) soak_fail("aclrtCreateStream", status);
    double start = now_seconds(), warm_until = start + soak_seconds * 0.25;
    int warm = 0;
    enum { BATCH = 4 };
    rel_job jobs[BATCH];
    while (now_seconds() - start < soak_seconds) {
        if (!warm && now_seconds() > warm_until) {
            warm = 1;
            atomic_fetch_add(&warmed_up_threads, 1);
        }
        if (mish_ref_below(&rng, 8) == 0) {
            repeatable_job(&rng, mish_ref_below(&rng, 2) ? own : shared_stream);
            continue;
        }
        /* a batch of single-use jobs spread over the own, shared and default streams */
        aclrtStream used[BATCH];
        for (int j = 0; j < BATCH; j++) {
            int pick = (int)mish_ref_below(&rng, 3);
            used[j] = pick == 0 ? own : pick == 1 ? shared_stream : NULL;
            status = rel_job_make(&jobs[j], &rng, rel_random_dtype(&rng), -1, 1 + mish_ref_below(&rng, 20000));
            if (status == 0) status = rel_job_prepare(&jobs[j]);
            if (status == 0) status = rel_job_launch(&jobs[j], used[j]);
            if (status != 0) soak_fail("single-use job", status);
        }
        for (int j = 0; j < BATCH; j++) {
            status = aclrtSynchronizeStream(used[j]);
            if (status != 0) soak_fail("aclrtSynchronizeStream", status);
        }
        for (int j = 0; j < BATCH; j++) {
            if (rel_job_check(&jobs[j], "soak") != 0) atomic_fetch_add(&soak_failures, 1);
            rel_job_release(&jobs[j], 1);
            atomic_fetch_add(&soak_jobs, 1);
        }
    }
    if (!warm) atomic_fetch_add(&warmed_up_threads, 1);
    status = aclrtDestroyStream(own);
    if (status != 0) soak_fail("aclrtDestroyStream", status);
    return NULL;
}

MG_TEST(soak_mixed_jobs_on_several_streams) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    MG_CHECK_EQ_INT(aclrtCreateStream(&shared_stream), 0);
    pthread_t threads[SOAK_THREADS];
    for (int i = 0; i < SOAK_THREADS; i++)
        MG_CHECK_EQ_INT(pthread_create(&threads[i], NULL, soak_worker, (void *)(uintptr_t)(900 + i)), 0);
    /* resident memory once every thread is past its warm-up, and at the end */
    while (atomic_load(&warmed_up_threads) < SOAK_THREADS) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    long warm_kib = resident_kib();
    for (int i = 0; i < SOAK_THREADS; i++) pthread_join(threads[i], NULL);
    long end_kib = resident_kib();
    MG_CHECK_EQ_INT(aclrtDestroyStream(shared_stream), 0);
    long jobs = atomic_load(&soak_jobs);
    printf("  soak: %.1f s, %ld jobs checked, resident %ld KiB after warm-up, %ld KiB at the end\n", soak_seconds,
           jobs, warm_kib, end_kib);
    MG_CHECK_EQ_INT(atomic_load(&soak_failures), 0);
    MG_CHECK(jobs > SOAK_THREADS);
#ifndef SOAK_SANITIZED
    /* Flat: at most 16 MiB plus a quarter above the warm level (allocator caches vary).
       Sanitizer builds keep freed memory in quarantine, so there LeakSanitizer judges. */
    MG_CHECK(warm_kib > 0 && end_kib > 0);
    MG_CHECK(end_kib <= warm_kib + warm_kib / 4 + 16 * 1024);
#endif
}

int main(int argc, char **argv) {
    const char *env = getenv("MISHGRAD_SOAK_SECONDS");
    if (argc > 1) soak_seconds = atof(argv[1]);
    else if (env != NULL && *env != '\0') soak_seconds = atof(env);
    if (!(soak_seconds > 0)) soak_seconds = 5.0;
    return mg_test_run_filtered(NULL);
}
