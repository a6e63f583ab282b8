/*
 * bench/bench_util.h: what mishgrad_bench's files share: the dtypes, the operator timed,
 * clocks and statistics, the output check against the project's reference, the wait for
 * quiet neighbours (bench_util.c), and the memory roof's pool (bench_roof.c).
 */
#ifndef BENCH_UTIL_H_
#define BENCH_UTIL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { DT_F32 = 0, DT_F16 = 1, DT_BF16 = 2, DT_COUNT = 3 };
#define MAX_THREADS 256

/* 1 for --op mish (the forward), 0 for aclnnMishBackward (mishgrad_bench.c) */
extern int op_forward;

/* A repetition during which other processes used more CPU than this (plus a fraction of
   its length) is set aside (when
   enough quiet ones remain): on a small shared machine one busy neighbour takes a core from
   a two-thread contender, whose barrier then waits whole scheduler time slices. */
#define QUIET_OTHERS_SECONDS 0.02
#define QUIET_OTHERS_FRACTION 0.05

/* ---- bench_util.c ---- */
double now_seconds(void);
void sleep_seconds(double s);
void die(const char *what, long code);
double median(const double *values, int count);
float rng_uniform(uint64_t *state, float lo, float hi);
uint16_t bf16_from_f32(float f);
double sampled_error_units(int dt, const void *g, const void *x, const void *y, int64_t n);
double other_processes_cpu_seconds(void);
int wait_for_quiet(double max_seconds);

/* ---- bench_roof.c: y = g * x on a persistent pthread pool ---- */
typedef struct roof_pool {
    pthread_t threads[MAX_THREADS];
    int thread_count;        /* workers + the caller */
    pthread_mutex_t mutex;
    pthread_cond_t start;
    pthread_cond_t finished;
    atomic_uint_fast64_t generation;
    atomic_int pending;
    atomic_int stop;
    /* the job, written before generation is bumped */
    const void *g;
    const void *x;
    void *y;
    int64_t n;
    size_t elem_bytes;
} roof_pool;
void roof_pool_start(roof_pool *pool, int thread_count);
void roof_pool_stop(roof_pool *pool);
void roof_run(roof_pool *pool, const void *g, const void *x, void *y, int64_t n,
                     size_t elem_bytes);

#endif /* BENCH_UTIL_H_ */
