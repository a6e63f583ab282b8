/*
 * tests/reliability/test_capacity_nnopbase.c: the tensor base's loops and capacity checks at
 * their limits. A loop bound moved by one (`i < n` -> `i <= n`) reads or writes one entry past
 * what is in use; below capacity that entry is an unused, zeroed slot and nothing shows, so
 * each case here runs at full capacity (8 input and 8 output slots, 16 steps of 8 buffers and
 * 1024 parameter bytes, rank 8), or puts something distinctive right past the end (an entry
 * past a view's rank, a handle past a list's size, a guard past a buffer), and checks exact
 * results: values written, statuses and messages, which slots and steps were used, and that
 * nothing past the ends changed.
 *
 * One CTest test per case.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "mg_test.h"
#include "mgrt_handle.h"
#include "nnop.h"
#include "rel_fixtures.h"
#include "rel_setup.h"

static void up(void) { rel_session_up(); }

/* ---- an executor with every slot taken ------------------------------------------------------ */

enum { SLOTS = 8, REGION = 64, N = 16 };

/* Regions of REGION floats: inputs 0..7, outputs 8..15, then 16 for a tensor the executor
   must never use. Element i holds i. */
typedef struct full_set {
    float *block;
    aclTensor *ins[SLOTS], *outs[SLOTS + 1]; /* outs[SLOTS]: right past the outputs, live */
    nnop_view in_views[SLOTS], out_views[SLOTS], past_view;
} full_set;

/* The sixteen slots' names, inputs first, and one more for the tensor right past them. */
static const char *const slot_names[2 * SLOTS + 1] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "o0",
                                                     "o1", "o2", "o3", "o4", "o5", "o6", "o7", "past"};

static void full_set_make(full_set *f) {
    memset(f, 0, sizeof *f);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&f->block, (2 * SLOTS + 1) * REGION * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
                    0);
    for (int i = 0; i < (2 * SLOTS + 1) * REGION; i++) f->block[i] = (float)i;
    const int64_t dims[1] = {N}, storage[1] = {N};
    for (int i = 0; i <= SLOTS; i++) {
        if (i < SLOTS) {
            f->ins[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, f->block + i * REGION);
            MG_CHECK_EQ_INT(nnop_view_from_tensor(f->ins[i], "test", "in", &f->in_views[i]), 0);
        }
        f->outs[i] =
            aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, f->block + (SLOTS + i) * REGION);
        MG_CHECK_EQ_INT(nnop_view_from_tensor(f->outs[i], "test", "out", i < SLOTS ? &f->out_views[i] : &f->past_view),
                        0);
    }
}

static void full_set_free(full_set *f) {
    for (int i = 0; i <= SLOTS; i++) {
        if (i < SLOTS) aclDestroyTensor(f->ins[i]);
        aclDestroyTensor(f->outs[i]);
    }
    aclrtFree(f->block);
}

/* Each output region holds twice its input's first N elements; everything else as made. */
static int full_set_wrong(const full_set *f) {
    int wrong = 0;
    for (int i = 0; i < (2 * SLOTS + 1) * REGION; i++) {
        const int region = i / REGION, at = i % REGION;
        const int written = region >= SLOTS && region < 2 * SLOTS && at < N;
        const float want = written ? 2.0f * (float)((region - SLOTS) * REGION + at) : (float)i;
        if (f->block[i] != want && wrong++ < 3)
            fprintf(stderr, "  element %d (region %d): %g, expected %g\n", i, region, (double)f->block[i],
                    (double)want);
    }
    return wrong;
}

static int32_t double_floats(const void *params, void *const *buffers) {
    (void)params;
    const float *from = buffers[0];
    float *to = buffers[1];
    for (int i = 0; i < N; i++) to[i] = from[i] * 2.0f;
    return 0;
}

static void add_doubling_steps(aclOpExecutor *e) {
    for (uint32_t i = 0; i < SLOTS; i++) {
        const nnop_buffer buffers[2] = {{NNOP_BUFFER_INPUT, i, 0}, {NNOP_BUFFER_OUTPUT, i, 0}};
        MG_CHECK_EQ_INT(nnop_executor_add_step(e, "Double", double_floats, NULL, 0, buffers, 2, N), 0);
    }
}

/* nnop_executor_create with 8 inputs and 8 outputs binds exactly those sixteen: the name and
   tensor right after them in the caller's arrays are not taken for a seventeenth slot (which
   would lie over the executor's workspace size and step count). */
MG_TEST(create_with_every_slot_taken) {
    up();
    full_set f;
    full_set_make(&f);
    aclOpExecutor *e = nnop_executor_create("Full", (const aclTensor *const *)f.ins, SLOTS, f.outs, SLOTS, slot_names);
    MG_CHECK(e != NULL);
    if (nnop_executor_workspace_size(e) != 0) { /* a slot over the plan's own fields: launching it would crash */
        MG_FAIL("workspace size %llu, expected 0", (unsigned long long)nnop_executor_workspace_size(e));
        nnop_executor_abandon(e);
        full_set_free(&f);
        return;
    }
    add_doubling_steps(e);
    MG_CHECK_EQ_INT(nnop_executor_launch("test", NULL, 0, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    MG_CHECK_EQ_INT(full_set_wrong(&f), 0);
    full_set_free(&f);
}

/* nnop_executor_set_view ignores an index past the slots bound: with 8 inputs, input 8 would
   be output 0's slot, and output 8 lies over the executor's own fields. */
MG_TEST(set_view_past_the_last_slot_is_ignored) {
    up();
    full_set f;
    full_set_make(&f);
    for (int kind = 0; kind < 2; kind++) {
        for (int i = 0; i < (2 * SLOTS + 1) * REGION; i++) f.block[i] = (float)i;
        aclOpExecutor *e = nnop_executor_create("Full", (const aclTensor *const *)f.ins, SLOTS, f.outs, SLOTS, slot_names);
        MG_CHECK(e != NULL);
        add_doubling_steps(e);
        for (uint32_t i = 0; i < SLOTS; i++) {
            nnop_executor_set_view(e, NNOP_BUFFER_INPUT, i, &f.in_views[i], 1);
            nnop_executor_set_view(e, NNOP_BUFFER_OUTPUT, i, &f.out_views[i], 1);
        }
        nnop_executor_set_view(e, kind == 0 ? NNOP_BUFFER_INPUT : NNOP_BUFFER_OUTPUT, SLOTS, &f.past_view, 1);
        MG_CHECK_EQ_INT(nnop_executor_workspace_size(e), 0);
        MG_CHECK_EQ_INT(nnop_executor_launch("test", NULL, 0, e, NULL), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
        if (full_set_wrong(&f) != 0) MG_FAIL("%s slot %d's view was taken", kind == 0 ? "input" : "output", SLOTS);
        else MG_CHECK(1);
    }
    full_set_free(&f);
}

/* ---- sixteen steps, each with 8 buffers and 1024 parameter bytes --------------------------------- */

enum { STEPS = 16, WORKSPACE_BYTES = 256 };

static int ran_count, ran_order[STEPS + 1], params_wrong[STEPS];
static void *ran_buffers[STEPS][NNOP_MAX_STEP_BUFFERS];

static unsigned char param_byte(int step, int at) { return (unsigned char)(step * 31 + at * 7 + 1); }

static int32_t record_step(const void *params, void *const *buffers) {
    const unsigned char *p = params;
    int32_t step;
    memcpy(&step, p, sizeof step);
    if (step < 0 || step >= STEPS) return 99;
    if (ran_count <= STEPS) ran_order[ran_count] = step;
    ran_count++;
    for (int at = (int)sizeof step; at < NNOP_MAX_STEP_PARAMS; at++)
        if (p[at] != param_byte(step, at)) params_wrong[step]++;
    for (int b = 0; b < NNOP_MAX_STEP_BUFFERS; b++) ran_buffers[step][b] = buffers[b];
    return 0;
}

static nnop_buffer buffer_of(int step, int b) {
    const nnop_buffer_kind kind = (nnop_buffer_kind)((step + b) % 3);
    return (nnop_buffer){kind, (uint32_t)((step * 3 + b) % SLOTS), (uint64_t)(4 * (step + b))};
}

/* Every step runs once, in order, with its own parameters byte for byte and each of its 8
   buffers resolved (the last step's too: a resolution one past it would land on the first
   step's function), and no seventeenth step runs. */
MG_TEST(sixteen_steps_at_every_limit) {
    up();
    full_set f;
    full_set_make(&f);
    aclOpExecutor *e = nnop_executor_create("Steps", (const aclTensor *const *)f.ins, SLOTS, f.outs, SLOTS, slot_names);
    MG_CHECK(e != NULL);
    MG_CHECK_EQ_INT(nnop_executor_reserve_workspace(e, WORKSPACE_BYTES).byte_offset, 0);
    static unsigned char params[NNOP_MAX_STEP_PARAMS];
    for (int32_t s = 0; s < STEPS; s++) {
        memcpy(params, &s, sizeof s);
        for (int at = (int)sizeof s; at < NNOP_MAX_STEP_PARAMS; at++) params[at] = param_byte(s, at);
        nnop_buffer buffers[NNOP_MAX_STEP_BUFFERS];
        for (int b = 0; b < NNOP_MAX_STEP_BUFFERS; b++) buffers[b] = buffer_of(s, b);
        MG_CHECK_EQ_INT(nnop_executor_add_step(e, "Record", record_step, params, NNOP_MAX_STEP_PARAMS, buffers,
                                               NNOP_MAX_STEP_BUFFERS, 1),
                        0);
    }
    void *workspace = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace, WORKSPACE_BYTES, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(nnop_executor_launch("test", workspace, WORKSPACE_BYTES, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    MG_CHECK_EQ_INT(ran_count, STEPS);
    for (int s = 0; s < STEPS && s < ran_count; s++) MG_CHECK_EQ_INT(ran_order[s], s);
    int wrong = 0;
    for (int s = 0; s < STEPS; s++) {
        if (params_wrong[s] != 0 && wrong++ < 3) fprintf(stderr, "  step %d: %d parameter bytes wrong\n", s, params_wrong[s]);
        for (int b = 0; b < NNOP_MAX_STEP_BUFFERS; b++) {
            const nnop_buffer nb = buffer_of(s, b);
            unsigned char *base = nb.kind == NNOP_BUFFER_INPUT    ? (unsigned char *)(f.block + nb.index * REGION)
                                  : nb.kind == NNOP_BUFFER_OUTPUT ? (unsigned char *)(f.block + (SLOTS + nb.index) * REGION)
                                                                  : (unsigned char *)workspace;
            if (ran_buffers[s][b] != base + nb.byte_offset && wrong++ < 3)
                fprintf(stderr, "  step %d buffer %d: %p, expected %p\n", s, b, ran_buffers[s][b],
                        (void *)(base + nb.byte_offset));
        }
    }
    MG_CHECK_EQ_INT(wrong, 0);
    aclrtFree(workspace);
    full_set_free(&f);
}

/* ---- rank-8 views: every dim, nothing past the last ------------------------------------------------ */

/* nnop_view_from_tensor on rank-8 tensors whose dim 0 is the one that tells (the entry right
   after dims[7] is strides[0] in both the snapshot and the view), and on a rank-3 one (the
   view's entries past its rank are zero): the view's every field exact. */
MG_TEST(rank_eight_views_exact) {
    up();
    float *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&d, 1024 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    const int64_t storage[1] = {1024};
    static const struct {
        int rank;
        int64_t dims[8], strides[8];
        int64_t numel, max_elem;
        int contiguous;
    } cases[] = {
        /* a size-1 dim 0 with stride 0: dense, 128 elements (not empty) */
        {8, {1, 2, 2, 2, 2, 2, 2, 2}, {0, 64, 32, 16, 8, 4, 2, 1}, 128, 127, 1},
        /* dim 0 steps over a gap: not dense; 256 elements up to 256 + 127 */
        {8, {2, 2, 2, 2, 2, 2, 2, 2}, {256, 64, 32, 16, 8, 4, 2, 1}, 256, 383, 0},
        /* dense, dim 0 of 3 */
        {8, {3, 2, 2, 2, 2, 2, 2, 2}, {128, 64, 32, 16, 8, 4, 2, 1}, 384, 383, 1},
        /* rank 3, dense: the zero dims past it take no part */
        {3, {2, 3, 4}, {12, 4, 1}, 24, 23, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        aclTensor *t = aclCreateTensor(cases[c].dims, (uint64_t)cases[c].rank, ACL_FLOAT, cases[c].strides, 0, ACL_FORMAT_ND, storage, 1, d);
        MG_CHECK(t != NULL);
        nnop_view v;
        aclnnStatus status = nnop_view_from_tensor(t, "api", "x", &v);
        if (status != ACLNN_SUCCESS) MG_FAIL("case %zu: status %d (%s)", c, (int)status, rel_message());
        MG_CHECK_EQ_INT(v.rank, cases[c].rank);
        MG_CHECK_EQ_INT(v.elem_size, 4);
        MG_CHECK_EQ_INT(v.offset, 0);
        MG_CHECK(v.data == d);
        for (int i = 0; i < cases[c].rank; i++) {
            MG_CHECK_EQ_INT(v.dims[i], cases[c].dims[i]);
            MG_CHECK_EQ_INT(v.strides[i], cases[c].strides[i]);
        }
        MG_CHECK_EQ_INT(v.numel, cases[c].numel);
        MG_CHECK_EQ_INT(v.min_elem, 0);
        MG_CHECK_EQ_INT(v.max_elem, cases[c].max_elem);
        MG_CHECK_EQ_INT(v.storage_elems, 1024);
        if (v.contiguous != cases[c].contiguous) MG_FAIL("case %zu: contiguous %d", c, v.contiguous);
        else MG_CHECK(1);
        aclDestroyTensor(t);
    }
    /* dim 0's negative stride is reported as a stride, not as a ninth dim */
    const int64_t dims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2}, strides[9] = {-1, 64, 32, 16, 8, 4, 2, 1, 1};
    aclTensor *t = aclCreateTensor(dims, 8, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, d);
    nnop_view v;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "api", "x", &v), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE("api: x's stride in dim 0 is -1; negative strides are not supported");
    aclDestroyTensor(t);
    /* rank 8 is the most a view takes; 9 is refused */
    t = aclCreateTensor(dims, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "api", "x", &v), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE("api: x has 9 dims; at most 8 are supported");
    aclDestroyTensor(t);
    aclrtFree(d);
}

/* A snapshot whose rank was lowered after it was taken (opdev collapses a tensor of more than 8
   dims into fewer this way) keeps the old dims and strides past its new rank: validation reads
   the first `rank` only. Here a rank-2 [3, 4] view over a snapshot whose third dim is 0 (an
   empty view, were it read) and whose third stride is negative (refused, were it read). */
MG_TEST(view_from_a_snapshot_reads_its_rank_only) {
    up();
    float *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&d, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    const int64_t dims[3] = {3, 4, 0}, strides[3] = {4, 1, 1}, storage[1] = {64};
    aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, d);
    MG_CHECK(t != NULL);
    nnop_tensor_snapshot snap;
    MG_CHECK_EQ_INT(nnop_tensor_snapshot_of(t, "api", "x", &snap), 0);
    snap.rank = 2;
    snap.strides[2] = -1;
    nnop_view v;
    const aclnnStatus status = nnop_view_from_snapshot(&snap, "api", "x", &v);
    if (status != ACLNN_SUCCESS) MG_FAIL("status %d (%s)", (int)status, rel_message());
    else MG_CHECK(1);
    MG_CHECK_EQ_INT(v.rank, 2);
    MG_CHECK_EQ_INT(v.numel, 12);
    MG_CHECK_EQ_INT(v.min_elem, 0);
    MG_CHECK_EQ_INT(v.max_elem, 11);
    MG_CHECK_EQ_INT(v.contiguous, 1);
    MG_CHECK_EQ_INT(v.dims[2], 0);
    MG_CHECK_EQ_INT(v.strides[2], 0);
    aclDestroyTensor(t);
    aclrtFree(d);
}

/* ---- the overlap proof looks at the view's rank only ---------------------------------------------- */

/* A view by hand: the entries past its rank are not the view's (nnop.h), so they hold junk here. */
static nnop_view view_with_junk(int rank, const int64_t *dims, const int64_t *strides, int64_t junk_dim,
                                int64_t junk_stride) {
    nnop_view v = rel_view_by_hand(rank, dims, strides);
    if (rank < NNOP_MAX_RANK) {
        v.dims[rank] = junk_dim;
        v.strides[rank] = junk_stride;
    }
    return v;
}

MG_TEST(overlap_proof_ignores_entries_past_the_rank) {
    up();
    /* [4, 5] strides {5, 2}: interleaved but distinct (5i + 2j), so the proof walks every element;
       a third dim of stride 1 past the rank would meet element 5 twice */
    const int64_t d2[2] = {4, 5}, s2[2] = {5, 2};
    nnop_view v = view_with_junk(2, d2, s2, 2, 1);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), 0);
    /* [2] stride 2^27: one moving dim, nothing to meet; a second one past the rank with the same
       stride would fail the quick proof over a span too wide to walk, and be called overlapping */
    const int64_t big = INT64_C(1) << 27;
    const int64_t d1[1] = {2}, s1[1] = {big};
    v = view_with_junk(1, d1, s1, 2, big);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), 0);
    /* eight moving dims, the most there are (the proof sorts all eight, then walks them): the
       interleaved [4, 5] again, then whole blocks; and with the last stride one short, a meeting */
    const int64_t d8[8] = {4, 5, 2, 2, 2, 2, 2, 2};
    const int64_t s8[8] = {5, 2, 24, 48, 96, 192, 384, 768}, s8_meets[8] = {5, 2, 24, 48, 96, 192, 384, 767};
    v = view_with_junk(8, d8, s8, 0, 0);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    v = view_with_junk(8, d8, s8_meets, 0, 0);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 1);
}

/* ---- Contiguous and ViewCopy: every row, every element, nothing past ------------------------------- */

/* [2, 3, 4] with strides {32, 10, 2}: no two dims merge, so the copy walks rows over two outer
   dims; gaps after every element and every row. */
enum { OUTER = 2, ROWS = 3, ROW = 4, OUTER_STRIDE = 32, ROW_STRIDE = 10, INNER = 2, STRIDED_ELEMS = 64,
       COUNT = OUTER * ROWS * ROW, DENSE_ELEMS = COUNT + 4 };

static unsigned char pattern(int which, int64_t byte) { return (unsigned char)(which * 101 + byte * 13 + 5); }

/* One step between the strided tensor and a dense one with a guard past its COUNT elements, for
   elements of `es` bytes. to_dense: Contiguous, else ViewCopy. */
static int copy_case(aclDataType dtype, int64_t es, int to_dense) {
    up();
    unsigned char *strided = NULL, *dense = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&strided, STRIDED_ELEMS * es, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dense, DENSE_ELEMS * es, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    for (int64_t b = 0; b < STRIDED_ELEMS * es; b++) strided[b] = pattern(1, b);
    for (int64_t b = 0; b < DENSE_ELEMS * es; b++) dense[b] = pattern(2, b);
    const int64_t dims[3] = {OUTER, ROWS, ROW}, strides[3] = {OUTER_STRIDE, ROW_STRIDE, INNER};
    const int64_t strided_storage[1] = {STRIDED_ELEMS}, dense_dims[1] = {COUNT}, dense_storage[1] = {DENSE_ELEMS};
    aclTensor *ts = aclCreateTensor(dims, 3, dtype, strides, 0, ACL_FORMAT_ND, strided_storage, 1, strided);
    aclTensor *td = aclCreateTensor(dense_dims, 1, dtype, NULL, 0, ACL_FORMAT_ND, dense_storage, 1, dense);
    MG_CHECK(ts != NULL && td != NULL);
    nnop_view v;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(ts, "test", "strided", &v), 0);
    static const char *const names[2] = {"from", "to"};
    const aclTensor *in = to_dense ? ts : td;
    aclTensor *out = to_dense ? td : ts;
    aclOpExecutor *e = nnop_executor_create("Copy", &in, 1, &out, 1, names);
    MG_CHECK(e != NULL);
    const nnop_buffer from = {NNOP_BUFFER_INPUT, 0, 0}, to = {NNOP_BUFFER_OUTPUT, 0, 0};
    MG_CHECK_EQ_INT(to_dense ? nnop_add_contiguous(e, &v, from, to) : nnop_add_view_copy(e, &v, from, to), 0);
    MG_CHECK_EQ_INT(nnop_executor_launch("test", NULL, 0, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    /* element k of the dense side is, row-major, element k of the strided view */
    int wrong = 0;
    int in_view[STRIDED_ELEMS] = {0};
    for (int k = 0; k < COUNT; k++) {
        const int64_t at = k / (ROWS * ROW) * OUTER_STRIDE + k / ROW % ROWS * ROW_STRIDE + k % ROW * INNER;
        in_view[at] = 1;
        for (int64_t b = 0; b < es; b++) {
            const unsigned char want = to_dense ? pattern(1, at * es + b) : pattern(2, k * es + b);
            const unsigned char have = to_dense ? dense[k * es + b] : strided[at * es + b];
            if (have != want) wrong++;
        }
    }
    for (int64_t b = 0; b < DENSE_ELEMS * es; b++) /* the source, or the guard past the copy */
        if ((!to_dense || b >= COUNT * es) && dense[b] != pattern(2, b)) wrong++;
    for (int64_t b = 0; b < STRIDED_ELEMS * es; b++) /* the source, or the gaps */
        if ((to_dense || !in_view[b / es]) && strided[b] != pattern(1, b)) wrong++;
    if (wrong != 0) fprintf(stderr, "  %s of %lld-byte elements: %d bytes wrong\n", to_dense ? "Contiguous" : "ViewCopy",
                            (long long)es, wrong);
    aclDestroyTensor(ts);
    aclDestroyTensor(td);
    aclrtFree(strided);
    aclrtFree(dense);
    return wrong;
}

MG_TEST(copies_at_every_element_width) {
    static const struct {
        aclDataType dtype;
        int64_t es;
    } widths[] = {{ACL_FLOAT16, 2}, {ACL_FLOAT, 4}, {ACL_DOUBLE, 8}, {ACL_INT8, 1}};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (int to_dense = 0; to_dense < 2; to_dense++)
            MG_CHECK_EQ_INT(copy_case(widths[w].dtype, widths[w].es, to_dense), 0);
}

/* A copy of more than 256 KiB is split into blocks of rows, each starting at its own row: rows
   of 1024 floats, 1040 apart, into a dense buffer with a guard past it. */
MG_TEST(copy_split_into_blocks) {
    up();
    enum { BIG_ROWS = 96, BIG_ROW = 1024, BIG_STRIDE = 1040, BIG_COUNT = BIG_ROWS * BIG_ROW };
    float *strided = NULL, *dense = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&strided, (size_t)BIG_ROWS * BIG_STRIDE * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
                    0);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dense, (size_t)(BIG_COUNT + 16) * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    for (int64_t i = 0; i < (int64_t)BIG_ROWS * BIG_STRIDE; i++) strided[i] = (float)i;
    for (int64_t i = 0; i < BIG_COUNT + 16; i++) dense[i] = -1.0f;
    const int64_t dims[2] = {BIG_ROWS, BIG_ROW}, strides[2] = {BIG_STRIDE, 1};
    const int64_t storage[1] = {(int64_t)BIG_ROWS * BIG_STRIDE}, dense_dims[1] = {BIG_COUNT}, dense_storage[1] = {BIG_COUNT + 16};
    aclTensor *ts = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, strided);
    aclTensor *td = aclCreateTensor(dense_dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dense_storage, 1, dense);
    MG_CHECK(ts != NULL && td != NULL);
    nnop_view v;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(ts, "test", "strided", &v), 0);
    static const char *const names[2] = {"from", "to"};
    aclOpExecutor *e = nnop_executor_create("Copy", (const aclTensor *const *)&ts, 1, &td, 1, names);
    MG_CHECK(e != NULL);
    MG_CHECK_EQ_INT(nnop_add_contiguous(e, &v, (nnop_buffer){NNOP_BUFFER_INPUT, 0, 0}, (nnop_buffer){NNOP_BUFFER_OUTPUT, 0, 0}),
                    0);
    MG_CHECK_EQ_INT(nnop_executor_launch("test", NULL, 0, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    int64_t wrong = 0;
    for (int64_t k = 0; k < BIG_COUNT + 16; k++) {
        const float want = k < BIG_COUNT ? (float)(k / BIG_ROW * BIG_STRIDE + k % BIG_ROW) : -1.0f;
        if (dense[k] != want && wrong++ < 3)
            fprintf(stderr, "  element %lld: %g, expected %g\n", (long long)k, (double)dense[k], (double)want);
    }
    MG_CHECK_EQ_INT(wrong, 0);
    aclDestroyTensor(ts);
    aclDestroyTensor(td);
    aclrtFree(strided);
    aclrtFree(dense);
}

/* ---- lists stop at their size ---------------------------------------------------------------------- */

/* aclCreateTensorList looks at `size` elements only: a stale handle right after them in the
   caller's array is not the list's business; destroying the list releases its elements and
   nothing after them (here the bytes past its elements held a live tensor's handle, left by the
   freed array whose memory the list reuses). */
MG_TEST(lists_stop_at_their_size) {
    up();
    float *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&d, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    const int64_t dims[1] = {4}, storage[1] = {4};
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d + 4 * i);
    MG_CHECK_EQ_INT(aclDestroyTensor(t[2]), 0);
    aclTensorList *list = aclCreateTensorList((const aclTensor *const *)t, 2);
    if (list == NULL) MG_FAIL("refused: %s", rel_message());
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetTensorListSize(list, &size), 0);
    MG_CHECK_EQ_INT(size, 2);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), 0);
    MG_CHECK(mgrt_handle_state_of(t[0], MGRT_HANDLE_TENSOR) == MGRT_HANDLE_STALE);
    MG_CHECK(mgrt_handle_state_of(t[1], MGRT_HANDLE_TENSOR) == MGRT_HANDLE_STALE);

    aclTensor *keep = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    aclTensor *pair[2];
    for (int i = 0; i < 2; i++) pair[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    /* An array of 3 values takes the allocation size a 2-element list takes (its third value
       lies where the list's elements end); freed, the list's allocation is likely that one. */
    const int64_t values[3] = {0, 0, (int64_t)(intptr_t)keep};
    aclIntArray *a = aclCreateIntArray(values, 3);
    MG_CHECK(a != NULL);
    MG_CHECK_EQ_INT(aclDestroyIntArray(a), 0);
    list = aclCreateTensorList((const aclTensor *const *)pair, 2);
    MG_CHECK(list != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), 0);
    MG_CHECK(mgrt_handle_state_of(pair[0], MGRT_HANDLE_TENSOR) == MGRT_HANDLE_STALE);
    MG_CHECK(mgrt_handle_state_of(pair[1], MGRT_HANDLE_TENSOR) == MGRT_HANDLE_STALE);
    MG_CHECK(mgrt_handle_state_of(keep, MGRT_HANDLE_TENSOR) == MGRT_HANDLE_LIVE);
    MG_CHECK_EQ_INT(aclDestroyTensor(keep), 0);
    aclrtFree(d);
}

MG_TEST_MAIN()
