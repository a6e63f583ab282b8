/*
 * tests/ascendc/test_twin_vec.c: the vector core's instructions and data moves end to end
 * (asc_twin/vec.h): a seed-style kernel (DataCopyPad in, compute over the 32-byte-aligned
 * tile, DataCopyPad out) in float32, half and bfloat16, against values computed here in
 * double; the integer instructions; Compare / Select; GM from GmAlloc and aclrtMalloc.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

/* args: x (GM), y (GM), n (int64 in GM), dtype (int32 in GM). Computes
   y = exp(x) * 0.5 + x over n elements in one tile, the seed's way. */
static void seed_style(uint8_t *const *args) {
    int64_t n;
    int32_t dt32;
    memcpy(&n, args[2], sizeof n);
    memcpy(&dt32, args[3], sizeof dt32);
    asc_twin_dtype dt = (asc_twin_dtype)dt32;
    uint32_t es = asc_twin_dtype_size(dt);
    uint64_t aligned = ((uint64_t)n * es + 31) / 32 * 32, count = aligned / es;
    asc_twin_ub_ref x = tt_ub(0, aligned, dt), t = tt_ub(aligned, aligned, dt), y = tt_ub(2 * aligned, aligned, dt);
    /* each block takes its own slice of n elements */
    uint64_t at = (uint64_t)asc_twin_block_idx() * (uint64_t)n * es;
    asc_twin_gm_ref gx = tt_gm(args[0] + at, (uint64_t)n * es, dt), gy = tt_gm(args[1] + at, (uint64_t)n * es, dt);
    asc_twin_copy_params p = {1, (uint32_t)(n * es), 0, 0, 1};
    asc_twin_pad_params pad = {0, 0, 0, 0.0};
    if (asc_twin_copy_gm_to_ub_params("DataCopyPad", x, gx, &p, &pad) != 0) return;
    if (asc_twin_unary("Exp", ASC_TWIN_EXP, t, x, count) != 0) return;
    if (asc_twin_scalar("Muls", ASC_TWIN_MULS, t, t, 0.5, count) != 0) return;
    if (asc_twin_binary("Add", ASC_TWIN_ADD, y, t, x, count) != 0) return;
    asc_twin_copy_ub_to_gm_params("DataCopyPad", gy, y, &p);
}
static const asc_twin_kernel k_seed = {"twin_vec_seed", 0, 4, seed_style};

static int run_seed_blocks(asc_twin_dtype dt, void *x, void *y, int64_t n, uint32_t blocks, char *msg, size_t size) {
    int64_t *gn = asc_twin_gm_alloc(sizeof n);
    int32_t *gdt = asc_twin_gm_alloc(sizeof(int32_t));
    *gn = n;
    *gdt = (int32_t)dt;
    uint8_t *args[4] = {x, y, (uint8_t *)gn, (uint8_t *)gdt};
    int status = tt_run(&k_seed, blocks, args, 4, msg, size);
    asc_twin_gm_free(gn);
    asc_twin_gm_free(gdt);
    return status;
}
static int run_seed(asc_twin_dtype dt, void *x, void *y, int64_t n, char *msg, size_t size) {
    return run_seed_blocks(dt, x, y, n, 1, msg, size);
}

MG_TEST(seed_style_f32_over_an_unaligned_tail) {
    enum { N = 1001 };
    float *x = asc_twin_gm_alloc(N * 4), *y = asc_twin_gm_alloc(N * 4);
    for (int i = 0; i < N; i++) x[i] = -8.0f + 16.0f * (float)i / N;
    char msg[512];
    MG_CHECK_EQ_INT(run_seed(ASC_TWIN_F32, x, y, N, msg, sizeof msg), 0);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        /* Exp (within its bound of a few ulp), Muls by 0.5 (exact), Add (half an ulp): the error
           is within a few ulp of e^x / 2 plus half an ulp of y, in units of 2^-23 */
        double want = exp((double)x[i]) * 0.5 + (double)x[i];
        double e = fabs((double)y[i] - want) / (0.5 * exp((double)x[i]) + fabs(want)) / 0x1p-23;
        if (e > worst) worst = e;
    }
    MG_CHECK(worst < 4.0);
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
}

MG_TEST(seed_style_half_and_bfloat16) {
    enum { N = 77 };
    uint16_t *x = asc_twin_gm_alloc(N * 2), *y = asc_twin_gm_alloc(N * 2);
    for (int pass = 0; pass < 2; pass++) {
        asc_twin_dtype dt = pass == 0 ? ASC_TWIN_F16 : ASC_TWIN_BF16;
        /* values exactly representable in both formats: k/8 for k in [-40, 36] */
        for (int i = 0; i < N; i++) {
            float v = (float)(i - 40) / 8.0f;
            uint32_t u;
            memcpy(&u, &v, 4);
            x[i] = dt == ASC_TWIN_BF16 ? (uint16_t)(u >> 16) : (uint16_t)0;
            if (dt == ASC_TWIN_F16) {
                /* half of k/8: sign, exponent and 10-bit mantissa built by hand */
                double a = fabs((double)v);
                uint16_t h = 0;
                if (a != 0) {
                    int e;
                    double m = frexp(a, &e); /* a = m 2^e, m in [0.5,1) */
                    h = (uint16_t)(((e - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024));
                }
                x[i] = (uint16_t)(h | (v < 0 ? 0x8000 : 0));
            }
        }
        char msg[512];
        MG_CHECK_EQ_INT(run_seed(dt, x, y, N, msg, sizeof msg), 0);
        double worst = 0;
        for (int i = 0; i < N; i++) {
            double xv = (double)(i - 40) / 8.0;
            double want = exp(xv) * 0.5 + xv;
            uint32_t bits = dt == ASC_TWIN_BF16 ? (uint32_t)y[i] << 16 : 0;
            double got;
            if (dt == ASC_TWIN_BF16) {
                float f;
                memcpy(&f, &bits, 4);
                got = f;
            } else {
                int e = (y[i] >> 10) & 31, m = y[i] & 1023;
                got = (e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25)) * ((y[i] & 0x8000) ? -1 : 1);
            }
            /* Exp and Add each round once to the format (unit roundoff u = 2^-11 half, 2^-8
               bfloat16), Muls by 0.5 is exact: |error| <= u (e^x / 2 + |y|) (1 + u) */
            double e = fabs(got - want) / (0.5 * exp(xv) + fabs(want));
            if (e > worst) worst = e;
        }
        double u = dt == ASC_TWIN_F16 ? 0x1p-11 : 0x1p-8;
        MG_CHECK(worst <= u * (1 + 2 * u));
        MG_CHECK(worst > u / 8); /* the rounding is there: a float32 result would be far closer */
    }
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
}

MG_TEST(blocks_run_side_by_side_on_their_own_ub) {
    enum { N = 1001, B = 16 };
    float *x = asc_twin_gm_alloc(N * B * 4), *y = asc_twin_gm_alloc(N * B * 4);
    for (int i = 0; i < N * B; i++) x[i] = -4.0f + 8.0f * (float)(i % N) / N + 0.01f * (float)(i / N);
    char msg[512];
    MG_CHECK_EQ_INT(run_seed_blocks(ASC_TWIN_F32, x, y, N, B, msg, sizeof msg), 0);
    /* every block's slice equals the one-block result of the same inputs */
    float *y1 = asc_twin_gm_alloc(N * 4);
    int same = 1;
    for (int b = 0; b < B; b++) {
        MG_CHECK_EQ_INT(run_seed(ASC_TWIN_F32, x + b * N, y1, N, msg, sizeof msg), 0);
        same &= memcmp(y1, y + b * N, N * 4) == 0;
    }
    MG_CHECK(same);
    /* and one block reading past its slice's GM allocation fails the launch: the last block */
    MG_CHECK_EQ_INT(run_seed_blocks(ASC_TWIN_F32, x, y, N, B + 1, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "twin_vec_seed block 16: DataCopyPad: GM bytes [64064, 68068) of the source run 4004 bytes "
                               "past the end of its GmAlloc block (64064 bytes)");
    asc_twin_gm_free(x);
    asc_twin_gm_free(y);
    asc_twin_gm_free(y1);
}

MG_TEST_MAIN()
