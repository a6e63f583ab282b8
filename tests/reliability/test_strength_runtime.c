/*
 * tests/reliability/test_strength_runtime.c: runtime behaviour the other tests only pass
 * through: the log line's time stamp and process id (CANN's layout), the thread pool's
 * promise to run a job on at most the threads asked for and to run every block exactly
 * once and to sleep between jobs, and the block table at its growth boundaries (64, 128, ...
 * live blocks).
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "mg_log_file.h"
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

/* Runs `fn` with stdout going into a temporary file; returns what was written (static). */
static const char *capture_stdout(void (*fn)(void)) {
    static char text[8192];
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    fn();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    size_t n = fread(text, 1, sizeof text - 1, tmp);
    text[n] = '\0';
    fclose(tmp);
    return text;
}

static void make_an_error(void) { (void)aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST); }

/* "[ERROR] MISHGRAD(pid,program):YYYY-MM-DD-hh:mm:ss.mmm.uuu [module] message": the pid
   is this process, the stamp is the local time now. */
MG_TEST(log_line_stamp_and_pid) {
    aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    time_t before = time(NULL);
    const char *out = capture_stdout(make_an_error);
    time_t after = time(NULL);
    const char *line = strstr(out, "[ERROR] MISHGRAD(");
    MG_CHECK(line != NULL);
    if (line != NULL) {
        long pid = 0;
        int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = -1, us = -1;
        const char *colon = strchr(line, ':');
        MG_CHECK(sscanf(line, "[ERROR] MISHGRAD(%ld,", &pid) == 1);
        MG_CHECK_EQ_INT(pid, (long)getpid());
        MG_CHECK(colon != NULL && sscanf(colon, ":%4d-%2d-%2d-%2d:%2d:%2d.%3d.%3d", &y, &mo, &d, &h, &mi, &s, &ms, &us) == 8);
        const time_t when = mg_log_stamp_time(y, mo, d, h, mi, s);
        if (when < before - 1 || when > after + 1)
            MG_FAIL("log stamp %04d-%02d-%02d-%02d:%02d:%02d is not now: %s", y, mo, d, h, mi, s, line);
        else
            MG_CHECK(1);
        MG_CHECK(ms >= 0 && ms < 1000 && us >= 0 && us < 1000);
        MG_CHECK_STR_CONTAINS(line, "aclrtMalloc");
    }
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    aclFinalize();
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
}

/* ---- the thread pool ------------------------------------------------------------------ */

#define MAX_SEEN_THREADS 64
typedef struct pool_probe {
    pthread_mutex_t lock;
    pthread_t seen[MAX_SEEN_THREADS];
    int seen_count;
    int *runs; /* per block */
} pool_probe;

static void probe_block(void *ctx, int64_t block) {
    pool_probe *p = ctx;
    pthread_mutex_lock(&p->lock);
    p->runs[block]++;
    pthread_t self = pthread_self();
    int known = 0;
    for (int i = 0; i < p->seen_count; i++) known |= pthread_equal(p->seen[i], self);
    if (!known && p->seen_count < MAX_SEEN_THREADS) p->seen[p->seen_count++] = self;
    pthread_mutex_unlock(&p->lock);
    /* long enough that the other threads join in */
    struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
}

/* Every block exactly once, on at most `threads` threads (0: the pool's own count). */
static int run_probe(int64_t blocks, int threads) {
    pool_probe p;
    memset(&p, 0, sizeof p);
    pthread_mutex_init(&p.lock, NULL);
    p.runs = calloc((size_t)blocks + 1, sizeof *p.runs);
    if (threads > 0)
        mgrt_parallel_for_threads(blocks, threads, probe_block, &p);
    else
        mgrt_parallel_for(blocks, probe_block, &p);
    long wrong = 0;
    for (int64_t b = 0; b < blocks; b++) wrong += p.runs[b] != 1;
    wrong += p.runs[blocks] != 0;
    MG_CHECK_EQ_INT(wrong, 0);
    free(p.runs);
    pthread_mutex_destroy(&p.lock);
    return p.seen_count;
}

MG_TEST(pool_runs_each_block_once_on_at_most_the_threads_asked) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    int pool = mgrt_num_threads();
    MG_CHECK(pool >= 1);
    static const int64_t sizes[] = {0, 1, 2, 3, 7, 64, 999, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int one = run_probe(sizes[i], 1);
        MG_CHECK(one <= 1); /* the caller alone */
        int two = run_probe(sizes[i], 2);
        MG_CHECK(two <= 2);
        int all = run_probe(sizes[i], 0);
        MG_CHECK(all <= pool);
        int more = run_probe(sizes[i], pool + 5); /* more than the pool: the pool's count */
        MG_CHECK(more <= pool);
    }
    /* with 4 pool threads (CTest sets MISHGRAD_NUM_THREADS=4) and slow blocks, the others
       take part */
    if (pool >= 4) {
        int joined = 0;
        for (int attempt = 0; attempt < 5 && joined < 2; attempt++) joined = run_probe(400, 4);
        MG_CHECK(joined >= 2);
    }
}

/* Between jobs the pool's threads sleep (after a short spin, WORKER_SPIN_NS): an idle
   process burns no CPU. A worker that never took note of the job it ran (seed 29's survivor,
   `seen = ...` deleted) spun for ever between jobs, taking a core each. Measured as the
   process's CPU time over 300 ms of idleness after a few jobs. */
static double process_cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

MG_TEST(pool_threads_sleep_between_jobs) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    for (int i = 0; i < 3; i++) (void)run_probe(400, 0);
    struct timespec settle = {0, 50 * 1000000L}; /* past the workers' spin */
    nanosleep(&settle, NULL);
    const double before = process_cpu_s();
    struct timespec idle = {0, 300 * 1000000L};
    nanosleep(&idle, NULL);
    const double used = process_cpu_s() - before;
    printf("  CPU time over 300 ms idle with %d pool threads: %.1f ms\n", mgrt_num_threads(), used * 1e3);
    MG_CHECK(used < 0.06);
}

/* ---- the block table ------------------------------------------------------------------- */

/* Up to 300 live blocks (the table grows at 64, 128, 256), freed in an interleaved order;
   every live block stays known (aclrtMemset works on it) and every freed one is refused. */
MG_TEST(block_table_through_its_growth) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    enum { N = 300 };
    static void *blocks[N];
    static int live[N];
    for (int i = 0; i < N; i++) {
        blocks[i] = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&blocks[i], (size_t)(64 + 8 * (i % 5)), ACL_MEM_MALLOC_HUGE_FIRST), 0);
        live[i] = 1;
    }
    long wrong = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = round; i < N; i += 3) {
            if ((i * 7 + round) % 4 == 0) continue;
            wrong += aclrtFree(blocks[i]) != ACL_SUCCESS;
            live[i] = 0;
        }
        for (int i = 0; i < N; i++) {
            size_t size = (size_t)(64 + 8 * (i % 5));
            int status = aclrtMemset(blocks[i], size, 0x11, size);
            wrong += live[i] ? status != ACL_SUCCESS : status != ACL_ERROR_INVALID_PARAM;
            /* one byte more than the block is refused */
            if (live[i]) wrong += aclrtMemset(blocks[i], size + 1, 0x11, size + 1) != ACL_ERROR_INVALID_PARAM;
        }
    }
    for (int i = 0; i < N; i++)
        if (live[i]) wrong += aclrtFree(blocks[i]) != ACL_SUCCESS;
    MG_CHECK_EQ_INT(wrong, 0);
}

MG_TEST_MAIN()
