/*
 * bench/twin_vec_bench.c: the AscendC twin's vector core against the project's native kernel,
 * one thread each, side by side. The twin runs the seed's MishGradV2 float32 instruction
 * sequence (DataCopyPad in, Relu Abs Muls Exp Adds Ln Add Tanh Mul Muls Adds Muls Exp Adds
 * Div Mul Add Mul over the tile, DataCopyPad out) called directly on asc_twin/vec.h, one
 * block over the whole tensor; the native kernel is mish_grad_v2_kernels_get()->f32.
 *
 *   twin_vec_bench [n [tile_floats [repeats]]]    (default 1000000 8192 20)
 *
 * Prints the best time of each and the ratio. Run with MISHGRAD_NUM_THREADS=1.
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
} bench_params;

static asc_twin_ub_ref ub(uint64_t off, uint64_t bytes) {
    asc_twin_ub_ref r = {asc_twin_ub_base() + off, bytes, ASC_TWIN_F32};
    return r;
}

/* args: grad, x, y, params */
static void seed_f32(uint8_t *const *args) {
    bench_params p;
    memcpy(&p, args[3], sizeof p);
    uint64_t tb = (uint64_t)p.tile * 4;
    asc_twin_ub_ref g = ub(0, tb), x = ub(tb, tb), t = ub(2 * tb, tb), y = ub(3 * tb, tb), t0 = ub(4 * tb, tb),
                    t1 = ub(5 * tb, tb);
    for (int64_t at = 0; at < p.n; at += p.tile) {
        int64_t m = p.n - at < p.tile ? p.n - at : p.tile;
        uint64_t al = (uint64_t)(m + 7) / 8 * 8;
        asc_twin_copy_params cp = {1, (uint32_t)(m * 4), 0, 0, 1};
        asc_twin_pad_params pad = {1, 0, (uint8_t)(al - (uint64_t)m), 0.0};
        asc_twin_gm_ref gg = {args[0] + at * 4, (uint64_t)m * 4, ASC_TWIN_F32}, gx = {args[1] + at * 4, (uint64_t)m * 4, ASC_TWIN_F32};
        asc_twin_gm_ref gy = {args[2] + at * 4, (uint64_t)m * 4, ASC_TWIN_F32};
        asc_twin_copy_gm_to_ub_params("DataCopyPad", g, gg, &cp, &pad);
        asc_twin_copy_gm_to_ub_params("DataCopyPad", x, gx, &cp, &pad);
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
        asc_twin_copy_ub_to_gm_params("DataCopyPad", gy, y, &cp);
    }
}
static const asc_twin_kernel k_seed = {"twin_vec_bench_seed", 0, 4, seed_f32};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : 1000000, tile = argc > 2 ? atoll(argv[2]) : 8192;
    int repeats = argc > 3 ? atoi(argv[3]) : 20;
    if (n < 1 || tile < 8 || tile % 8 != 0 || tile * 4 * 6 > 196608 || repeats < 1) {
        fprintf(stderr, "usage: twin_vec_bench [n [tile_floats (multiple of 8, <= 8192) [repeats]]]\n");
        return 2;
    }
    float *g = asc_twin_gm_alloc((size_t)n * 4), *x = asc_twin_gm_alloc((size_t)n * 4);
    float *y = asc_twin_gm_alloc((size_t)n * 4), *yn = asc_twin_gm_alloc((size_t)n * 4);
    bench_params *p = asc_twin_gm_alloc(sizeof *p);
    if (!g || !x || !y || !yn || !p) return 1;
    for (int64_t i = 0; i < n; i++) {
        x[i] = -10.0f + 20.0f * (float)i / (float)n;
        g[i] = 1.0f - 0.5f * (float)(i % 7) / 7.0f;
    }
    *p = (bench_params){n, tile};
    uint8_t *args[4] = {(uint8_t *)g, (uint8_t *)x, (uint8_t *)y, (uint8_t *)p};
    asc_twin_launch_args a = {&k_seed, 1, args, 4, NULL, 0};
    const mish_grad_v2_kernels *k = mish_grad_v2_kernels_get();
    double best_twin = 1e30, best_native = 1e30;
    for (int r = 0; r < repeats; r++) {
        double t0 = now();
        if (asc_twin_run_sync(&a) != 0) {
            fprintf(stderr, "twin run failed\n");
            return 1;
        }
        double t1 = now();
        k->f32(g, x, yn, (size_t)n);
        double t2 = now();
        if (t1 - t0 < best_twin) best_twin = t1 - t0;
        if (t2 - t1 < best_native) best_native = t2 - t1;
    }
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)y[i] - (double)yn[i]) / (fabs((double)yn[i]) + 1e-30);
        if (d > worst && fabs((double)yn[i]) > 1e-30) worst = d;
    }
    printf("n=%lld tile=%lld: twin (seed's instruction sequence) %.3f ms, native %s kernel %.3f ms, ratio %.2fx; "
           "largest relative difference %.2e\n",
           (long long)n, (long long)tile, best_twin * 1e3, k->isa, best_native * 1e3, best_twin / best_native, worst);
    return 0;
}
