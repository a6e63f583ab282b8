/*
 * runtime/thread_pool.c: the device's cores, a persistent pool of worker threads.
 *
 * One job at a time: the caller publishes (fn, ctx, block_count), wakes the workers and
 * takes part itself; blocks are claimed with an atomic counter, so a fast thread takes more
 * of them. A worker joins a job only while it is open, and the caller closes it and waits
 * for every worker that joined to leave before returning, so no worker can ever see a
 * half-replaced job. A second stream finding the pool busy runs its blocks itself.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "runtime_internal.h"

#define MAX_THREADS 256
/* The workers live as long as the process: they sleep when idle, and stopping them at exit
   could race with a stream that is still running work. */
/* How long a worker keeps polling for the next job before it sleeps: a job that follows
   soon after the last one (a loop of launches, or the next tile of a stream) then costs no
   futex wake-up. Measured in time, not rounds, because a wake-up is what it saves and that
   is slow in a virtual machine: a sleeping vCPU halts, and the IPI that restarts it takes
   tens of microseconds (a poll counted in rounds was too short: docs/performance.md, "Where
   the time went"). libgomp, by comparison, polls about 5 ms. */
#define WORKER_SPIN_NS 300000
/* Spins the caller makes waiting for the last worker to leave a job before it sleeps: the
   worker is usually finishing its last block, far sooner than a futex round trip. */
#define JOIN_SPIN_ROUNDS 20000

typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t job_posted;
    pthread_cond_t workers_left;
    pthread_mutex_t in_use;         /* held by the one caller running a job */
    atomic_ulong generation;        /* bumped for every job */
    int open;                       /* workers may still join the current job */
    atomic_int active;              /* workers inside the current job (joined under lock) */
    int max_joiners;                /* workers the current job takes at most (its threads - 1) */
    mgrt_block_fn fn;
    void *ctx;
    int64_t block_count;
    atomic_llong next_block;
    int worker_count;
    pthread_t workers[MAX_THREADS];
} pool;

static pool the_pool = {
    .lock = RT_MUTEX_INITIALIZER,
    .job_posted = PTHREAD_COND_INITIALIZER,
    .workers_left = PTHREAD_COND_INITIALIZER,
    .in_use = RT_MUTEX_INITIALIZER,
};
static pthread_once_t threads_once = PTHREAD_ONCE_INIT;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static int thread_count = 1;

static void read_thread_count(void) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long count = online > 0 ? online : 1;
    const char *text = getenv("MISHGRAD_NUM_THREADS");
    if (text != NULL && *text != '\0') {
        char *end = NULL;
        errno = 0;
        long requested = strtol(text, &end, 10);
        /* Printed at the default log level: a setting that is ignored must say so. */
        if (*end != '\0' || requested < 1)
            rt_log_notice("RUNTIME", "MISHGRAD_NUM_THREADS=\"%s\" is not a positive number; using %ld",
                          text, count > MAX_THREADS ? (long)MAX_THREADS : count);
        else if (errno == ERANGE || requested > MAX_THREADS)
            rt_log_notice("RUNTIME", "MISHGRAD_NUM_THREADS=\"%s\" is above the limit of %d threads; using %ld",
                          text, MAX_THREADS, count > MAX_THREADS ? (long)MAX_THREADS : count);
        else
            count = requested;
    }
    thread_count = (int)(count > MAX_THREADS ? MAX_THREADS : count);
}

int mgrt_num_threads(void) {
    pthread_once(&threads_once, read_thread_count);
    return thread_count;
}

/* A polite busy-wait: the pause hint lets a sibling hyperthread run and saves power */
static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Polls *word until it differs from seen or about budget_ns have passed (the clock is read
   every 64 polls). */
static void poll_until_changed(atomic_ulong *word, unsigned long seen, int64_t budget_ns) {
    const int64_t deadline = monotonic_ns() + budget_ns;
    for (unsigned polls = 1; atomic_load_explicit(word, memory_order_acquire) == seen; polls++) {
        cpu_relax();
        if (polls % 64 == 0 && monotonic_ns() > deadline) return;
    }
}

/* Guided claiming: each claim takes a share of what is left (half of it split over the
   threads), so a job of N blocks costs about 2 T log(N) claims instead of N, and the last
   claims are single blocks that even out the finish. A claim is an atomic on a line the
   other cores also write, about 0.1 us each. */
static void run_blocks(mgrt_block_fn fn, void *ctx, int64_t count, int threads) {
    const long long share_divisor = 2 * (long long)threads;
    long long start = atomic_load_explicit(&the_pool.next_block, memory_order_relaxed);
    while (start < count) {
        long long chunk = (count - start) / share_divisor;
        if (chunk < 1) chunk = 1;
        if (!atomic_compare_exchange_weak_explicit(&the_pool.next_block, &start, start + chunk, memory_order_relaxed,
                                                   memory_order_relaxed))
            continue; /* start now holds the current value */
        const long long end = start + chunk < count ? start + chunk : count;
        for (long long b = start; b < end; b++) fn(ctx, (int64_t)b);
        start = atomic_load_explicit(&the_pool.next_block, memory_order_relaxed);
    }
}

static void *worker_main(void *arg) {
    (void)arg;
    pool *p = &the_pool;
    unsigned long seen = atomic_load(&p->generation);
    for (;;) {
        poll_until_changed(&p->generation, seen, WORKER_SPIN_NS);
        RT_LOCK(&p->lock);
        while (atomic_load(&p->generation) == seen) RT_WAIT(&p->job_posted, &p->lock);
        seen = atomic_load(&p->generation);
        if (!p->open || atomic_load(&p->active) >= p->max_joiners) {
            RT_UNLOCK(&p->lock);
            continue;
        }
        atomic_fetch_add(&p->active, 1);
        mgrt_block_fn fn = p->fn;
        void *ctx = p->ctx;
        int64_t count = p->block_count;
        int threads = p->max_joiners + 1;
        RT_UNLOCK(&p->lock);
        run_blocks(fn, ctx, count, threads);
        if (atomic_fetch_sub(&p->active, 1) == 1) {
            /* Under the lock, so a caller between its check and its wait cannot miss it. */
            RT_LOCK(&p->lock);
            pthread_cond_signal(&p->workers_left);
            RT_UNLOCK(&p->lock);
        }
    }
    return NULL; /* not reached: workers live as long as the process */
}

static void start_workers(void) {
    pool *p = &the_pool;
    int wanted = mgrt_num_threads() - 1;
    for (int i = 0; i < wanted; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, NULL) != 0) break;
        p->worker_count++;
    }
}

void mgrt_parallel_for(int64_t block_count, mgrt_block_fn fn, void *ctx) {
    mgrt_parallel_for_threads(block_count, 0, fn, ctx);
}

void mgrt_parallel_for_threads(int64_t block_count, int threads, mgrt_block_fn fn, void *ctx) {
    if (block_count <= 0) return;
    if (threads <= 0 || threads > mgrt_num_threads()) threads = mgrt_num_threads();
    if (block_count == 1 || threads == 1) {
        for (int64_t b = 0; b < block_count; b++) fn(ctx, b);
        return;
    }
    pthread_once(&pool_once, start_workers);
    pool *p = &the_pool;
    if (p->worker_count == 0 || pthread_mutex_trylock(&p->in_use) != 0) {
        for (int64_t b = 0; b < block_count; b++) fn(ctx, b);
        return;
    }
    RT_LOCK(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->block_count = block_count;
    p->max_joiners = threads - 1;
    atomic_store(&p->next_block, 0);
    p->open = 1;
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_cond_broadcast(&p->job_posted);
    RT_UNLOCK(&p->lock);

    run_blocks(fn, ctx, block_count, threads);

    /* Every block is claimed; close the job (no one joins after this) and wait for the
       workers inside it. */
    RT_LOCK(&p->lock);
    p->open = 0;
    RT_UNLOCK(&p->lock);
    for (int spin = 0; spin < JOIN_SPIN_ROUNDS && atomic_load(&p->active) > 0; spin++) {
    }
    if (atomic_load(&p->active) > 0) {
        RT_LOCK(&p->lock);
        while (atomic_load(&p->active) > 0) RT_WAIT(&p->workers_left, &p->lock);
        RT_UNLOCK(&p->lock);
    }
    RT_UNLOCK(&p->in_use);
}
