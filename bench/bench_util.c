/*
 * bench/bench_util.c: mishgrad_bench's clocks, statistics, random inputs, 16-bit
 * conversions, the sampled check of an output against the project's reference
 * (reference/mish_reference.h), and the wait for other processes to leave the CPUs.
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
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "bench_util.h"
#include "mish_reference.h"


/* ---- small utilities ------------------------------------------------------------------ */

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void sleep_seconds(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void die(const char *what, long code)
{
    const char *recent = aclGetRecentErrMsg();
    fprintf(stderr, "mishgrad_bench: %s failed (%ld)%s%s\n", what, code,
            recent && *recent ? ": " : "", recent ? recent : "");
    exit(1);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(const double *values, int count)
{
    double sorted[256];
    if (count <= 0) return NAN;
    if (count > 256) count = 256;
    memcpy(sorted, values, (size_t)count * sizeof(double));
    qsort(sorted, (size_t)count, sizeof(double), compare_doubles);
    return count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

/* xorshift64*: fast, reproducible input data without libc's rand state. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

float rng_uniform(uint64_t *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next(state) >> 40) * 0x1p-24f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* float32 -> bfloat16, round to nearest even, NaN kept quiet. */
uint16_t bf16_from_f32(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static float f32_from_bf16(uint16_t h) { return f32_from_bits((uint32_t)h << 16); }

/* IEEE binary16 -> float32, decoded here so the check does not trust the library. */
static float f32_from_f16(uint16_t h)
{
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (exponent == 0x1f) return mantissa ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * ldexpf((float)mantissa, -24);
    return sign * ldexpf((float)(mantissa | 0x400), exponent - 25);
}

static float load_as_f32(int dt, const void *base, int64_t i)
{
    switch (dt) {
    case DT_F32: return ((const float *)base)[i];
    case DT_F16: return f32_from_f16(((const uint16_t *)base)[i]);
    default: return f32_from_bf16(((const uint16_t *)base)[i]);
    }
}

/* gradOutput * mish'(x), or mish(x) for the forward, in double: the project's one
   reference (reference/mish_reference.h) */
static double reference_value(double g, double x)
{
    if (op_forward) return mish_ref_fwd_d(x);
    double t1, t2;
    mish_ref_terms_d(x, &t1, &t2);
    return g * (t1 + t2);
}

/* Largest error over a sample of the output, in units of the dtype's rounding step
   (2^-23 for f32, 2^-10 f16, 2^-7 bf16) relative to max(|ref|, |g|): the mixed tolerance
   keeps the sample honest near mish's root at x = -1.19 where the relative error is
   meaningless. A correct kernel scores a few units; a broken one thousands. */
double sampled_error_units(int dt, const void *g, const void *x, const void *y, int64_t n)
{
    static const double step[DT_COUNT] = {0x1p-23, 0x1p-10, 0x1p-7};
    int64_t samples = n < 4096 ? n : 4096;
    double worst = 0;
    for (int64_t s = 0; s < samples; ++s) {
        int64_t i = (s * n) / samples;
        double gi = load_as_f32(dt, g, i), xi = load_as_f32(dt, x, i);
        double ref = reference_value(gi, xi);
        double got = load_as_f32(dt, y, i);
        double scale = fmax(fabs(ref), op_forward ? 0.0 : fabs(gi)) * step[dt];
        double units = fabs(got - ref) / (scale > 0 ? scale : 0x1p-149);
        if (!(units <= worst)) worst = units; /* NaN sticks */
    }
    return worst;
}

/* ---- is anyone else using the CPUs? ------------------------------------------------------ */


/* CPU seconds used so far by everything but this process: the busy time of all CPUs in
   /proc/stat (clock ticks, so coarse: a few ticks of slack are allowed above) minus this
   process's own CPU time. 0 where /proc/stat cannot be read, so nothing is set aside. */
double other_processes_cpu_seconds(void)
{
    static long ticks_per_second;
    if (!ticks_per_second) ticks_per_second = sysconf(_SC_CLK_TCK);
    FILE *f = fopen("/proc/stat", "r");
    if (!f || ticks_per_second <= 0) {
        if (f) fclose(f);
        return 0;
    }
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    int fields = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
                        &iowait, &irq, &softirq, &steal);
    fclose(f);
    if (fields < 4) return 0;
    double busy = (double)(user + nice + system + irq + softirq + steal) / (double)ticks_per_second;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double own = (double)usage.ru_utime.tv_sec + 1e-6 * (double)usage.ru_utime.tv_usec +
                 (double)usage.ru_stime.tv_sec + 1e-6 * (double)usage.ru_stime.tv_usec;
    return busy - own;
}

/* Waits (up to max_seconds) until other processes leave the CPUs nearly idle: below 10% of
   one CPU over a 0.2 s window. Returns 1 when they did. */
int wait_for_quiet(double max_seconds)
{
    double start = now_seconds();
    for (;;) {
        double before = other_processes_cpu_seconds();
        sleep_seconds(0.2);
        if (other_processes_cpu_seconds() - before < 0.02) return 1;
        if (now_seconds() - start > max_seconds) return 0;
    }
}
