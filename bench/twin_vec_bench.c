/*
 * bench/twin_vec_bench.c: the AscendC twin's vector core against the project's native kernel,
 * one thread each, side by side. The twin runs the seed's MishGradV2 instruction sequence
 * (DataCopyPad in, Relu Abs Muls Exp Adds Ln Add Tanh Mul Muls Adds Muls Exp Adds Div Mul Add
 * Mul over the tile, DataCopyPad out; for bfloat16 a Cast to float after the copies in and a
 * CAST_RINT Cast back before the copy out, as the seed's bfloat16 path does) called directly
 * on asc_twin/vec.h, one block over the whole tensor; the native kernel is
 * mish_grad_v2_kernels_get()->f32 / ->bf16 on the same inputs.
 *
 *   twin_vec_bench [n [tile_floats [repeats]]]    (default: n = 1e6 and 1e7, 8192, 10)
 *
 * Prints the CPU (/proc/cpuinfo) and load, then per dtype and n the best wall time and the best
 * process CPU time of each (the CPU time leaves out what other processes took of a shared
 * core), the ratios, the largest difference between the two outputs (a sanity check) and a
 * hash of the twin's output bytes (equal between builds when a change to the twin keeps every
 * bit). Run with MISHGRAD_NUM_THREADS=1. Not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asc_twin/gm.h"
#include "asc_twin/launch.h"
#include "asc_twin/vec.h"
#include "mish_grad_v2_kernel.h"
#include "twin_block.h"

typedef struct bench_params {
    int64_t n, tile;
    int bf16;
} bench_params;

static asc_twin_ub_ref ub(uint64_t off, uint64_t bytes, asc_twin_dtype dt) {
    asc_twin_ub_ref r = {asc_twin_ub_base() + off, bytes, dt};
    return r;
}

/* UB bytes per element of a tile: six float32 buffers, and for bfloat16 the two inputs and
   the output in their own format besides. */
static int64_t ub_bytes_per_element(int bf16) { return bf16 ? 6 * 4 + 3 * 2 : 6 * 4; }

/* args: grad, x, y, params */
static void seed(uint8_t *const *args) {
    bench_params p;
    memcpy(&p, args[3], sizeof p);
    const asc_twin_dtype F = ASC_TWIN_F32, io = p.bf16 ? ASC_TWIN_BF16 : ASC_TWIN_F32;
    const uint64_t es = p.bf16 ? 2 : 4, tb = (uint64_t)p.tile * 4, ib = (uint64_t)p.tile * es;
    asc_twin_ub_ref g = ub(0, tb, F), x = ub(tb, tb, F), t = ub(2 * tb, tb, F), y = ub(3 * tb, tb, F),
                    t0 = ub(4 * tb, tb, F), t1 = ub(5 * tb, tb, F);
    /* the bfloat16 tensors after the float ones (each a multiple of 32 bytes: tile % 16 == 0) */
    asc_twin_ub_ref g16 = ub(6 * tb, ib, io), x16 = ub(6 * tb + ib, ib, io), y16 = ub(6 * tb + 2 * ib, ib, io);
    for (int64_t at = 0; at < p.n; at += p.tile) {
        int64_t m = p.n - at < p.tile ? p.n - at : p.tile;
        uint64_t per32 = 32 / es, al = (uint64_t)(m + (int64_t)per32 - 1) / per32 * per32;
        asc_twin_copy_params cp = {1, (uint32_t)((uint64_t)m * es), 0, 0, 1};
        asc_twin_pad_params pad = {1, 0, (uint8_t)(al - (uint64_t)m), 0.0};
        asc_twin_gm_ref gg = {args[0] + (uint64_t)at * es, (uint64_t)m * es, io};
        asc_twin_gm_ref gx = {args[1] + (uint64_t)at * es, (uint64_t)m * es, io};
        asc_twin_gm_ref gy = {args[2] + (uint64_t)at * es, (uint64_t)m * es, io};
        if (p.bf16) {
            asc_twin_copy_gm_to_ub_params("DataCopyPad", g16, gg, &cp, &pad);
            asc_twin_copy_gm_to_ub_params("DataCopyPad", x16, gx, &cp, &pad);
            asc_twin_cast(g, g16, ASC_TWIN_CAST_NONE, al);
            asc_twin_cast(x, x16, ASC_TWIN_CAST_NONE, al);
        } else {
            asc_twin_copy_gm_to_ub_params("DataCopyPad", g, gg, &cp, &pad);
            asc_twin_copy_gm_to_ub_params("DataCopyPad", x, gx, &cp, &pad);
        }
        asc_twin_unary("Relu", ASC_TWIN_RELU, t, x, al);
        asc_twin_unary("Abs", ASC_TWIN_ABS, t0, x, al);
        asc_twin_scalar("Muls", ASC_TWIN_MULS, t0, t0, -1.0, al);
        asc_twin_unary("Exp", ASC_TWIN_EXP, t0, t0, al);
        asc_twin_scalar("Adds", ASC_TWIN_ADDS, t0, t0, 1.0, al);
        asc_twin_unary("Ln", ASC_TWIN_LN, t1, t0, al);
        asc_twin_binary("Add", ASC_TWIN_ADD, t, t, t1, al);
        asc_twin_unary("Tanh", ASC_TWIN_TANH, t1, t, al); /* out of place: the twin warns on the seed's in-place form */
        asc_twin_binary("Mul", ASC_TWIN_MUL, y, t1, t1, al);
        asc_twin_scalar("Muls", ASC_TWIN_MULS, y, y, -1.0, al);
        asc_twin_scalar("Adds", ASC_TWIN_ADDS, y, y, 1.0, al);
        asc_twin_scalar("Muls", ASC_TWIN_MULS, t0, x, -1.0, al);
        asc_twin_unary("Exp", ASC_TWIN_EXP, t0, t0, al);
        asc_twin_scalar("Adds", ASC_TWIN_ADDS, t0, t0, 1.0, al);
        asc_twin_binary("Div", ASC_TWIN_DIV, y, y, t0, al);
        asc_twin_binary("Mul", ASC_TWIN_MUL, y, y, x, al);
        asc_twin_binary("Add", ASC_TWIN_ADD, y, y, t1, al);
        asc_twin_binary("Mul", ASC_TWIN_MUL, y, y, g, al);
        if (p.bf16) {
            asc_twin_cast(y16, y, ASC_TWIN_CAST_RINT, al);
            asc_twin_copy_ub_to_gm_params("DataCopyPad", gy, y16, &cp);
        } else {
            asc_twin_copy_ub_to_gm_params("DataCopyPad", gy, y, &cp);
        }
    }
}
static const asc_twin_kernel k_seed = {"twin_vec_bench_seed", 0, 4, seed};

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* the process's CPU time: on a shared, loaded machine the wall time includes the time other
   processes held the core; the CPU time does not (one block, one thread: nothing else of
   this process runs meanwhile) */
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static void cpu_name(char *out, size_t size) {
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
            colon += colon[1] == ' ' ? 2 : 1;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(out, size, "%s", colon);
            break;
        }
    }
    fclose(f);
}

static float elem(const void *p, int bf16, int64_t i) {
    if (!bf16) return ((const float *)p)[i];
    uint32_t u = (uint32_t)((const uint16_t *)p)[i] << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t to_bf16(float f) { /* nearest even; the inputs are finite */
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* One line: dtype, n, both best times, the ratio. 0, or 1 when the twin failed. */
static int run_case(int64_t n, int64_t tile, int repeats, int bf16) {
    const mish_grad_v2_kernels *k = mish_grad_v2_kernels_get();
    size_t es = bf16 ? 2 : 4;
    /* the tile the UB holds for this dtype: a multiple of 16 elements (32 bytes of bfloat16) */
    int64_t fit = 196608 / ub_bytes_per_element(bf16) / 16 * 16;
    if (tile > fit) tile = fit;
    uint8_t *g = asc_twin_gm_alloc((size_t)n * es), *x = asc_twin_gm_alloc((size_t)n * es);
    uint8_t *y = asc_twin_gm_alloc((size_t)n * es), *yn = asc_twin_gm_alloc((size_t)n * es);
    bench_params *p = asc_twin_gm_alloc(sizeof *p);
    int rc = 1;
    if (!g || !x || !y || !yn || !p) goto out;
    for (int64_t i = 0; i < n; i++) {
        float xv = -10.0f + 20.0f * (float)i / (float)n, gv = 1.0f - 0.5f * (float)(i % 7) / 7.0f;
        if (bf16) {
            ((uint16_t *)(void *)x)[i] = to_bf16(xv);
            ((uint16_t *)(void *)g)[i] = to_bf16(gv);
        } else {
            ((float *)(void *)x)[i] = xv;
            ((float *)(void *)g)[i] = gv;
        }
    }
    *p = (bench_params){n, tile, bf16};
    uint8_t *args[4] = {g, x, y, (uint8_t *)p};
    asc_twin_launch_args a = {&k_seed, 1, args, 4, NULL, 0};
    mish_grad_v2_tile_fn native = bf16 ? k->bf16 : k->f32;
    double best_twin = 1e30, best_native = 1e30, cpu_twin = 1e30, cpu_native = 1e30;
    for (int r = 0; r < repeats; r++) {
        double c0 = cpu_now(), t0 = now();
        if (asc_twin_run_sync(&a) != 0) {
            fprintf(stderr, "twin run failed\n");
            goto out;
        }
        double t1 = now(), c1 = cpu_now();
        native(g, x, yn, (size_t)n);
        double t2 = now(), c2 = cpu_now();
        if (t1 - t0 < best_twin) best_twin = t1 - t0;
        if (t2 - t1 < best_native) best_native = t2 - t1;
        if (c1 - c0 < cpu_twin) cpu_twin = c1 - c0;
        if (c2 - c1 < cpu_native) cpu_native = c2 - c1;
    }
    double worst = 0;
    uint64_t hash = 14695981039346656037ull; /* FNV-1a of the twin's output bytes: equal across builds */
    for (size_t i = 0; i < (size_t)n * es; i++) hash = (hash ^ y[i]) * 1099511628211ull;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)elem(y, bf16, i) - (double)elem(yn, bf16, i));
        if (d > worst) worst = d;
    }
    printf("%-8s %9lld %5lld  %8.3f ms %8.3f ms %6.2fx  %8.3f ms %8.3f ms %6.2fx  %-9.2e  %016llx\n",
           bf16 ? "bfloat16" : "float32", (long long)n, (long long)tile, best_twin * 1e3, best_native * 1e3,
           best_twin / best_native, cpu_twin * 1e3, cpu_native * 1e3, cpu_twin / cpu_native, worst,
           (unsigned long long)hash);
    rc = 0;
out:
    asc_twin_gm_free(g);
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
    asc_twin_gm_free(yn);
    asc_twin_gm_free(p);
    return rc;
}

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : 0, tile = argc > 2 ? atoll(argv[2]) : 8192;
    int repeats = argc > 3 ? atoi(argv[3]) : 10;
    if (n < 0 || (argc > 1 && n < 1) || tile < 16 || tile % 16 != 0 || tile * ub_bytes_per_element(0) > 196608 ||
        repeats < 1) {
        fprintf(stderr, "usage: twin_vec_bench [n [tile_floats (multiple of 16, <= 8192) [repeats]]]\n");
        return 2;
    }
    char cpu[256];
    cpu_name(cpu, sizeof cpu);
    double load[3] = {0, 0, 0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf != NULL) {
        if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = load[1] = load[2] = -1;
        fclose(lf);
    }
    const char *threads = getenv("MISHGRAD_NUM_THREADS");
    printf("twin_vec_bench: the seed's instruction sequence on the twin (one block) vs the native %s kernel, best of %d\n",
           mish_grad_v2_kernels_get()->isa, repeats);
    printf("CPU: %s; load average %.2f %.2f %.2f; MISHGRAD_NUM_THREADS=%s\n", cpu, load[0], load[1], load[2],
           threads != NULL ? threads : "(unset)");
    printf("%-8s %9s %5s  %11s %11s %7s  %11s %11s %7s  %-9s  %s\n", "", "", "", "wall: twin", "native",
           "ratio", "CPU: twin", "native", "ratio", "", "");
    printf("%-8s %9s %5s  %11s %11s %7s  %11s %11s %7s  %-9s  %s\n", "dtype", "n", "tile", "", "", "", "", "", "",
           "max diff", "twin output FNV-1a");
    int rc = 0;
    for (int bf16 = 0; bf16 < 2; bf16++) {
        if (n > 0) rc |= run_case(n, tile, repeats, bf16);
        else
            for (int64_t m = 1000000; m <= 10000000; m *= 10) rc |= run_case(m, tile, repeats, bf16);
    }
    return rc;
}
