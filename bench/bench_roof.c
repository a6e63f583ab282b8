/*
 * bench/bench_roof.c: the memory roof, y = g * x over the same three arrays on a small
 * persistent pthread pool of its own: the most a memory-bound elementwise op can reach here.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "bench_util.h"


/* ---- the memory roof: y = g * x on a persistent pthread pool ----------------------------- */

/* Workers spin this many polls for the next job before sleeping on the condition variable,
   so that a roof at small sizes measures the loop and not a futex wake-up (oneDNN's OpenMP
   threads spin the same way). */
#define ROOF_SPIN_POLLS 20000



typedef struct roof_worker_arg {
    roof_pool *pool;
    int index;
} roof_worker_arg;

static roof_worker_arg roof_args[MAX_THREADS];

/* Chunks are whole cache lines so two threads never write the same line. */
static void roof_chunk(roof_pool *pool, int index)
{
    int64_t per_line = 64 / (int64_t)pool->elem_bytes;
    int64_t lines = (pool->n + per_line - 1) / per_line;
    int64_t begin = lines * index / pool->thread_count * per_line;
    int64_t end = lines * (index + 1) / pool->thread_count * per_line;
    if (end > pool->n) end = pool->n;
    if (begin >= end) return;
#if defined(__SSE2__)
    /* Outputs the library would stream (>= 1 MiB per thread, op_host/elementwise/elementwise_l0.c)
       are streamed here too, so the roof stays the bound at large sizes instead of paying
       the read-for-ownership the library avoids. Chunks start on cache lines of 64-byte
       aligned arrays, so the 16-byte stores are aligned. */
    if ((end - begin) * (int64_t)pool->elem_bytes >= ((int64_t)1 << 20) && ((uintptr_t)pool->y & 15) == 0) {
        int64_t i = begin;
        if (pool->elem_bytes == 4) {
            const float *g = (const float *)pool->g, *x = (const float *)pool->x;
            float *y = (float *)pool->y;
            for (; i + 4 <= end; i += 4) _mm_stream_ps(y + i, _mm_mul_ps(_mm_loadu_ps(g + i), _mm_loadu_ps(x + i)));
            for (; i < end; ++i) y[i] = g[i] * x[i];
        } else {
            const uint16_t *g = (const uint16_t *)pool->g, *x = (const uint16_t *)pool->x;
            uint16_t *y = (uint16_t *)pool->y;
            for (; i + 8 <= end; i += 8)
                _mm_stream_si128((__m128i *)(y + i), _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)(g + i)),
                                                                      _mm_loadu_si128((const __m128i *)(x + i))));
            for (; i < end; ++i) y[i] = (uint16_t)((uint32_t)g[i] * x[i]);
        }
        _mm_sfence();
        return;
    }
#endif
    if (pool->elem_bytes == 4) {
        const float *restrict g = (const float *)pool->g + begin;
        const float *restrict x = (const float *)pool->x + begin;
        float *restrict y = (float *)pool->y + begin;
        for (int64_t i = 0; i < end - begin; ++i) y[i] = g[i] * x[i];
    } else {
        /* 16-bit words multiplied as integers: the same bytes move as for a 16-bit float
           product, without paying for half-precision arithmetic the CPU may lack. */
        const uint16_t *restrict g = (const uint16_t *)pool->g + begin;
        const uint16_t *restrict x = (const uint16_t *)pool->x + begin;
        uint16_t *restrict y = (uint16_t *)pool->y + begin;
        for (int64_t i = 0; i < end - begin; ++i) y[i] = (uint16_t)((uint32_t)g[i] * x[i]);
    }
}

static void *roof_worker(void *opaque)
{
    roof_worker_arg *arg = (roof_worker_arg *)opaque;
    roof_pool *pool = arg->pool;
    uint_fast64_t seen = 0;
    for (;;) {
        int polls = 0;
        while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop) &&
               polls < ROOF_SPIN_POLLS)
            ++polls;
        if (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop)) {
            /* The job is published under the mutex too, so this check cannot miss it. */
            pthread_mutex_lock(&pool->mutex);
            while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop))
                pthread_cond_wait(&pool->start, &pool->mutex);
            pthread_mutex_unlock(&pool->mutex);
        }
        if (atomic_load(&pool->stop)) return NULL;
        seen = atomic_load(&pool->generation);
        roof_chunk(pool, arg->index);
        if (atomic_fetch_sub(&pool->pending, 1) == 1) {
            pthread_mutex_lock(&pool->mutex);
            pthread_cond_signal(&pool->finished);
            pthread_mutex_unlock(&pool->mutex);
        }
    }
}

void roof_pool_start(roof_pool *pool, int thread_count)
{
    memset(pool, 0, sizeof *pool);
    pool->thread_count = thread_count;
    atomic_init(&pool->generation, 0);
    atomic_init(&pool->pending, 0);
    atomic_init(&pool->stop, 0);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->start, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (int i = 1; i < thread_count; ++i) {
        roof_args[i].pool = pool;
        roof_args[i].index = i;
        if (pthread_create(&pool->threads[i], NULL, roof_worker, &roof_args[i]) != 0)
            die("pthread_create", i);
    }
}

void roof_pool_stop(roof_pool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->stop, 1);
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 1; i < pool->thread_count; ++i) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->finished);
    pthread_cond_destroy(&pool->start);
    pthread_mutex_destroy(&pool->mutex);
}

void roof_run(roof_pool *pool, const void *g, const void *x, void *y, int64_t n,
                     size_t elem_bytes)
{
    pool->g = g;
    pool->x = x;
    pool->y = y;
    pool->n = n;
    pool->elem_bytes = elem_bytes;
    atomic_store(&pool->pending, pool->thread_count - 1);
    pthread_mutex_lock(&pool->mutex);
    atomic_fetch_add(&pool->generation, 1);
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->mutex);
    roof_chunk(pool, 0);
    for (int polls = 0; atomic_load(&pool->pending) > 0 && polls < ROOF_SPIN_POLLS; ++polls) {
    }
    if (atomic_load(&pool->pending) > 0) {
        pthread_mutex_lock(&pool->mutex);
        while (atomic_load(&pool->pending) > 0) pthread_cond_wait(&pool->finished, &pool->mutex);
        pthread_mutex_unlock(&pool->mutex);
    }
}
