/*
 * tests/reliability/test_strength_tiling.c: the elementwise tiling (ew_tile, the layer's
 * internal header op_host/elementwise/elementwise.h, compiled into this test) against
 * written expectations. Its rules, from the layer's comments:
 *
 *   threads  = clamp(total / 4096, 1, the threads offered)   (4096 elements per thread)
 *   blocks   = 1 on one thread, else clamp(total / 8192, 4 per thread, 64 per thread)
 *   block    = ceil(total / blocks) rounded up to 512 bytes of elements, at least 1;
 *              block count = ceil(total / block)
 *   tile     = 8192 elements per kernel call
 *   streaming stores iff total * element size / threads >= 1 MiB
 *
 * The table's numbers were worked out by hand from these rules (not by calling the code),
 * at and around every boundary. A wrong tiling shows only in speed, or not at all, to the
 * value tests, so it is checked here.
 */
#include "elementwise.h"
#include "mg_test.h"

typedef struct tiling_case {
    int64_t total, elem_size;
    int32_t threads_offered;
    int32_t threads;
    int64_t block_elems, block_count;
    int32_t stream_out;
} tiling_case;

static const tiling_case cases[] = {
    /* one thread: below 2 x 4096 elements */
    {0, 4, 2, 1, 1, 0, 0},
    {1, 4, 2, 1, 128, 1, 0},
    {1000, 2, 2, 1, 1024, 1, 0},
    {4095, 4, 8, 1, 4096, 1, 0},
    {8191, 4, 2, 1, 8192, 1, 0},
    /* two threads from 8192 elements; at least 4 blocks each */
    {8192, 4, 2, 2, 1024, 8, 0},
    {8192, 2, 3, 2, 1024, 8, 0},
    {10000, 4, 2, 2, 1280, 8, 0},
    {12288, 4, 4, 3, 1024, 12, 0},
    {32767, 4, 8, 7, 1280, 26, 0},
    {65535, 4, 2, 2, 8192, 8, 0},
    {65536, 4, 2, 2, 8192, 8, 0},
    {65536, 2, 3, 3, 5632, 12, 0},
    {100000, 4, 2, 2, 8448, 12, 0},
    {300000, 4, 2, 2, 8448, 36, 0},
    /* blocks of about 8192 elements */
    {819200, 4, 2, 2, 8192, 100, 1},
    {1000000, 4, 2, 2, 8320, 121, 1},
    {1000000, 2, 4, 4, 8448, 119, 0},
    /* streaming at exactly 1 MiB of output per thread, not one element below */
    {262143, 4, 1, 1, 262144, 1, 0},
    {262144, 4, 1, 1, 262144, 1, 1},
    {524288, 2, 1, 1, 524288, 1, 1},
    {524288, 4, 2, 2, 8192, 64, 1},
    {524287, 4, 2, 2, 8448, 63, 0},
    /* at most 64 blocks per thread */
    {16777216, 4, 2, 2, 131072, 128, 1},
    {16777216, 4, 3, 3, 87424, 192, 1},
    {3000000, 2, 2, 2, 23552, 128, 1},
    {1048577, 4, 2, 2, 8320, 127, 1},
    {12345678, 4, 16, 16, 12160, 1016, 1},
};

MG_TEST(tiling_table) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tiling_case *c = &cases[i];
        ew_tiling t;
        memset(&t, 0x5a, sizeof t);
        MG_CHECK_EQ_INT(ew_tile(c->total, c->elem_size, c->threads_offered, &t), ACLNN_SUCCESS);
        if (t.threads != c->threads || t.block_elems != c->block_elems || t.block_count != c->block_count ||
            t.stream_out != c->stream_out)
            MG_FAIL("ew_tile(%lld, %lld, %d): threads %d blocks %lld x %lld stream %d; expected %d, %lld x %lld, %d",
                    (long long)c->total, (long long)c->elem_size, (int)c->threads_offered, (int)t.threads,
                    (long long)t.block_count, (long long)t.block_elems, (int)t.stream_out, (int)c->threads,
                    (long long)c->block_count, (long long)c->block_elems, (int)c->stream_out);
        MG_CHECK_EQ_INT(t.total_elems, c->total);
        MG_CHECK_EQ_INT(t.elem_size, c->elem_size);
        MG_CHECK_EQ_INT(t.tile_elems, 8192);
    }
}

/* The invariants over many sizes: the blocks cover the elements exactly once, start on
   512-byte boundaries, and the thread and block counts stay in their bounds. */
MG_TEST(tiling_invariants) {
    uint64_t state = 0x7113;
    for (int i = 0; i < 3000; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int64_t total = (int64_t)(state >> 40) >> (i % 20); /* 0 .. 2^24 */
        int64_t es = (int64_t)1 << (1 + (i % 2));           /* 2 or 4 */
        int32_t threads = 1 + (int32_t)((state >> 8) % 16);
        ew_tiling t;
        if (ew_tile(total, es, threads, &t) != ACLNN_SUCCESS) {
            MG_FAIL("ew_tile(%lld, %lld, %d) failed", (long long)total, (long long)es, (int)threads);
            continue;
        }
        int ok = t.block_elems >= 1 && (total == 0 || (t.block_elems * es) % 512 == 0) && t.block_count * t.block_elems >= total &&
                 (t.block_count == 0 || (t.block_count - 1) * t.block_elems < total) && t.threads >= 1 &&
                 t.threads <= threads && (t.threads == 1 || total / t.threads >= 4096) &&
                 (t.threads == threads || total / (t.threads + 1) < 4096) &&
                 t.stream_out == (total * es / t.threads >= ((int64_t)1 << 20)) &&
                 (t.threads == 1 ? t.block_count <= 1 : t.block_count <= 64 * (int64_t)t.threads);
        if (!ok)
            MG_FAIL("ew_tile(%lld, %lld, %d): threads %d, %lld blocks of %lld, stream %d", (long long)total,
                    (long long)es, (int)threads, (int)t.threads, (long long)t.block_count, (long long)t.block_elems,
                    (int)t.stream_out);
        else
            MG_CHECK(ok);
    }
}

/* What the tiling refuses: 561002 and a message naming the tiling. */
MG_TEST(tiling_refuses_impossible_requests) {
    static const struct {
        int64_t total, es;
        int32_t threads;
    } bad[] = {{-1, 4, 2}, {100, 0, 2}, {100, 513, 2}, {100, 4, 0}, {100, 4, -3}, {INT64_MIN, 2, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ew_tiling t;
        mgrt_set_recent_error("");
        MG_CHECK_EQ_INT(ew_tile(bad[i].total, bad[i].es, bad[i].threads, &t), ACLNN_ERR_INNER_TILING_ERROR);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "tiling");
    }
    /* the largest element size a block boundary holds is accepted */
    ew_tiling t;
    MG_CHECK_EQ_INT(ew_tile(100, 512, 1, &t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(t.block_elems, 100);
    MG_CHECK_EQ_INT(ew_tile(100, 1, 1, &t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(t.block_elems, 512);
}

MG_TEST_MAIN()
