/*
 * tests/reliability/test_strength_large.c: large and oddly placed calls, checked value by
 * value against mish_ref.h. Small tests fit in one block of the tiling and one cached tile;
 * these cross every boundary of the parallel path: many blocks claimed by several threads
 * (CTest runs this with MISHGRAD_NUM_THREADS=4), in-place outputs (a block run twice or
 * skipped shows), streaming-store outputs (>= 1 MiB per thread) whose start is not on a
 * 64-byte line (the aligned-store fallback), and views starting at odd element offsets.
 */
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

/* g and x from a fixed generator; a few specials. */
static void fill(aclDataType dtype, unsigned char *g, unsigned char *x, int64_t n, uint64_t seed) {
    mg_rng rng = {seed};
    for (int64_t i = 0; i < n; i++) {
        mish_ref_store(dtype, g, i, mish_ref_random_g(&rng, 0));
        mish_ref_store(dtype, x, i, mish_ref_random_x(&rng, dtype, 0));
    }
}

typedef struct large_case {
    aclDataType dtype;
    int64_t numel;
    int64_t offset;   /* elements from the block's start, for all three views */
    int in_place;     /* 0: apart, 1: on gradOutput, 2: on self */
    int strided_out;  /* the output with a gap of one element between elements */
} large_case;

/* Runs one case; returns the wrong elements (printing the first few). */
static long run_case(const large_case *c, aclrtStream stream) {
    size_t es = c->dtype == ACL_FLOAT ? 4 : 2;
    int64_t out_stride = c->strided_out ? 2 : 1;
    int64_t storage = c->offset + c->numel, out_storage = c->offset + (c->numel - 1) * out_stride + 1;
    void *gd = NULL, *xd = NULL, *od = NULL;
    if (aclrtMalloc(&gd, (size_t)storage * es, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&xd, (size_t)storage * es, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&od, (size_t)out_storage * es + 64, ACL_MEM_MALLOC_HUGE_FIRST) != 0) {
        MG_FAIL("aclrtMalloc");
        return 1;
    }
    fill(c->dtype, (unsigned char *)gd + c->offset * (int64_t)es, (unsigned char *)xd + c->offset * (int64_t)es,
         c->numel, (uint64_t)c->numel ^ (uint64_t)c->offset);
    memset(od, 0xa5, (size_t)out_storage * es + 64);
    /* the references, from the inputs before the call */
    double *want_g = malloc(sizeof(double) * (size_t)c->numel), *want_x = malloc(sizeof(double) * (size_t)c->numel);
    for (int64_t i = 0; i < c->numel; i++) {
        want_g[i] = mish_ref_load(c->dtype, gd, c->offset + i);
        want_x[i] = mish_ref_load(c->dtype, xd, c->offset + i);
    }
    int64_t dims[1] = {c->numel}, unit[1] = {1}, gap[1] = {out_stride};
    aclTensor *g = aclCreateTensor(dims, 1, c->dtype, unit, c->offset, ACL_FORMAT_ND, &storage, 1, gd);
    aclTensor *x = aclCreateTensor(dims, 1, c->dtype, unit, c->offset, ACL_FORMAT_ND, &storage, 1, xd);
    aclTensor *o = c->in_place == 1 ? g
                   : c->in_place == 2 ? x
                                      : aclCreateTensor(dims, 1, c->dtype, gap, c->offset, ACL_FORMAT_ND,
                                                        &out_storage, 1, od);
    unsigned char *result = c->in_place == 1 ? gd : c->in_place == 2 ? xd : od;
    int64_t result_stride = c->in_place ? 1 : out_stride;
    uint64_t ws_size = 0;
    aclOpExecutor *executor = NULL;
    void *ws = NULL;
    long bad = 0;
    int status = aclnnMishBackwardGetWorkspaceSize(g, x, o, &ws_size, &executor);
    MG_CHECK_EQ_INT(status, ACLNN_SUCCESS);
    if (status == ACLNN_SUCCESS) {
        if (ws_size > 0) MG_CHECK_EQ_INT(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        MG_CHECK_EQ_INT(aclnnMishBackward(ws, ws_size, executor, stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        for (int64_t i = 0; i < c->numel; i++) {
            double got = mish_ref_load(c->dtype, result, c->offset + i * result_stride);
            if (!mish_ref_close(c->dtype, got, want_g[i], want_x[i]) && bad++ < 3)
                fprintf(stderr, "  dtype %d n %lld offset %lld in-place %d: element %lld: got %.9g for g=%.9g x=%.9g\n",
                        (int)c->dtype, (long long)c->numel, (long long)c->offset, c->in_place, (long long)i, got,
                        want_g[i], want_x[i]);
        }
        if (!c->in_place) {
            /* the bytes before the view, in its gaps and after it are untouched */
            const unsigned char *bytes = od;
            for (int64_t e = 0; e < out_storage + 64 / (int64_t)es; e++) {
                int in_view = e >= c->offset && (e - c->offset) % out_stride == 0 &&
                              (e - c->offset) / out_stride < c->numel;
                if (in_view) continue;
                for (size_t b = 0; b < es; b++)
                    if (bytes[e * (int64_t)es + (int64_t)b] != 0xa5 && bad++ < 3)
                        fprintf(stderr, "  output element %lld outside the view was written\n", (long long)e);
            }
        }
    }
    if (ws) aclrtFree(ws);
    if (!c->in_place) aclDestroyTensor(o);
    aclDestroyTensor(g);
    aclDestroyTensor(x);
    aclrtFree(gd);
    aclrtFree(xd);
    aclrtFree(od);
    free(want_g);
    free(want_x);
    return bad;
}

static void run_cases(const large_case *cases, size_t count) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    for (size_t i = 0; i < count; i++) {
        long bad = run_case(&cases[i], stream);
        if (bad)
            MG_FAIL("case %zu (dtype %d, %lld elements, offset %lld, in-place %d): %ld wrong", i, (int)cases[i].dtype,
                    (long long)cases[i].numel, (long long)cases[i].offset, cases[i].in_place, bad);
        else
            MG_CHECK(bad == 0);
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

/* In place, large enough for many blocks on every thread: a block run twice (the result
   fed back as a gradient) or skipped shows in the values. */
MG_TEST(large_in_place) {
    static const large_case cases[] = {
        {ACL_FLOAT, 300001, 0, 1, 0}, {ACL_FLOAT, 300001, 3, 2, 0},   {ACL_FLOAT16, 300000, 1, 1, 0},
        {ACL_BF16, 262147, 5, 2, 0},  {ACL_FLOAT, 1200007, 0, 1, 0},  {ACL_FLOAT16, 1 << 20, 0, 2, 0},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Streaming-store outputs (>= 1 MiB per thread) whose first element is 4, 8, 12, 16, 32 or
   60 bytes past a 64-byte line, or on it; dense and in place. */
MG_TEST(large_streaming_oddly_placed) {
    static const large_case cases[] = {
        {ACL_FLOAT, 1 << 20, 1, 0, 0},         {ACL_FLOAT, (1 << 20) + 3, 4, 0, 0}, {ACL_FLOAT, 1 << 20, 15, 0, 0},
        {ACL_FLOAT, 1 << 20, 0, 0, 0},         {ACL_FLOAT16, 1 << 21, 3, 0, 0},     {ACL_BF16, (1 << 21) + 5, 16, 0, 0},
        {ACL_FLOAT16, (1 << 21) + 1, 30, 1, 0}, {ACL_FLOAT, (1 << 20) + 9, 8, 2, 0},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Large strided outputs (the ViewCopy after a dense kernel output) and sizes just around
   the tiling's steps. */
MG_TEST(large_strided_and_boundaries) {
    static const large_case cases[] = {
        {ACL_FLOAT, 600001, 1, 0, 1}, {ACL_FLOAT16, 65536, 0, 0, 0}, {ACL_FLOAT16, 65535, 1, 0, 0},
        {ACL_FLOAT, 65537, 0, 1, 0},  {ACL_BF16, 8193, 7, 0, 1},     {ACL_FLOAT, 262144, 2, 0, 0},
        {ACL_FLOAT, 262143, 0, 0, 0}, {ACL_FLOAT, 524289, 6, 0, 0},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

MG_TEST_MAIN()
