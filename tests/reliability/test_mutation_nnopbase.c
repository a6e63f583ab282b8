/*
 * tests/reliability/test_mutation_nnopbase.c: the tensor base's Contiguous and ViewCopy steps
 * (nnopbase/view_copy.c) on random views, against a gather and a scatter written here from
 * the definition of a view (element (i0..ik) at offset + sum i_d * stride_d):
 *
 *   input view  --Contiguous-->  dense workspace  --check-->  --ViewCopy-->  output view
 *
 * The input and the output have the same dims and different strides (permuted, with gaps,
 * size-1 dims with any stride, offsets; zero strides on the input), so an error in one
 * step is not undone by the same error in the other; a step of the test's own between them
 * checks the dense buffer against the row-major gather. Element sizes 1, 2, 4 and 8 (every
 * copy loop), small views and views over 256 KiB (the copy split over the pool's threads:
 * MISHGRAD_NUM_THREADS=4), ranks 0..8. Every byte of the output block outside the view must
 * be unchanged.
 */
#include <stdbool.h>

#include "mg_test.h"
#include "mg_heap.h"
#include "mg_acl_session.h"
#include "acl/acl.h"
#include "nnop.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mish_reference.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct layout {
    int rank;
    int64_t dims[8], strides[8], offset, storage;
} layout;

static uint64_t rng_state = 0x5eedC0De;
static uint64_t next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int64_t pick(int64_t n) { return (int64_t)(next() % (uint64_t)n); }

/* Strides for dims: a random order of the dims, each step possibly with a gap; a size-1 dim
   gets any stride; zero strides only when allowed (an input). */
static void make_layout(layout *l, int rank, const int64_t *dims, int allow_zero) {
    l->rank = rank;
    int order[8];
    for (int d = 0; d < rank; d++) {
        l->dims[d] = dims[d];
        order[d] = d;
    }
    int shape = (int)pick(4); /* 0 row-major, 1 reversed, 2 shuffled, 3 row-major with gaps */
    if (shape == 1)
        for (int d = 0; d < rank; d++) order[d] = rank - 1 - d;
    if (shape == 2)
        for (int d = rank - 1; d > 0; d--) {
            int j = (int)pick(d + 1), t = order[d];
            order[d] = order[j];
            order[j] = t;
        }
    int64_t running = 1 + (shape == 3 ? pick(2) : 0);
    for (int k = rank - 1; k >= 0; k--) {
        int d = order[k];
        l->strides[d] = running;
        running *= dims[d];
        if (shape == 3 || pick(5) == 0) running += pick(3);
        if (dims[d] == 1) l->strides[d] = pick(50);
        else if (allow_zero && pick(6) == 0) l->strides[d] = 0;
    }
    l->offset = pick(9);
    int64_t max = l->offset;
    for (int d = 0; d < rank; d++) max += (dims[d] - 1) * l->strides[d];
    l->storage = max + 1 + pick(5);
}

/* The element offset of the k-th element in row-major order of the view. */
static int64_t offset_of(const layout *l, int64_t k) {
    int64_t at = l->offset;
    for (int d = l->rank - 1; d >= 0; d--) {
        at += (k % l->dims[d]) * l->strides[d];
        k /= l->dims[d];
    }
    return at;
}

/* What the step between the copies checks. */
typedef struct check_params {
    const unsigned char *expected;
    int64_t bytes;
} check_params;
static int64_t dense_wrong;
static int32_t check_step(const void *params, void *const *buffers) {
    const check_params *p = params;
    dense_wrong += memcmp(buffers[0], p->expected, (size_t)p->bytes) != 0;
    return 0;
}

static aclDataType dtype_of(int es) {
    return es == 1 ? ACL_INT8 : es == 2 ? ACL_FLOAT16 : es == 4 ? ACL_FLOAT : ACL_INT64;
}

/* One case: returns 1 when everything matched. */
static int run_case(int rank, const int64_t *dims, int es, int case_index) {
    layout in, out;
    make_layout(&in, rank, dims, 1);
    make_layout(&out, rank, dims, 0);
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) numel *= dims[d];
    unsigned char *a = NULL, *b = NULL;
    if (aclrtMalloc((void **)&a, (size_t)in.storage * es, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc((void **)&b, (size_t)out.storage * es, ACL_MEM_MALLOC_HUGE_FIRST) != 0) {
        MG_FAIL("case %d: aclrtMalloc", case_index);
        return 0;
    }
    for (int64_t i = 0; i < in.storage * es; i++) a[i] = (unsigned char)next();
    for (int64_t i = 0; i < out.storage * es; i++) b[i] = (unsigned char)next();
    unsigned char *b_before = malloc((size_t)out.storage * es);
    memcpy(b_before, b, (size_t)out.storage * es);
    unsigned char *gathered = malloc((size_t)(numel ? numel : 1) * es);
    for (int64_t k = 0; k < numel; k++) memcpy(gathered + k * es, a + offset_of(&in, k) * es, (size_t)es);

    int64_t sa[1] = {in.storage}, sb[1] = {out.storage};
    aclTensor *ta = aclCreateTensor(in.dims, (uint64_t)rank, dtype_of(es), in.strides, in.offset, ACL_FORMAT_ND, sa, 1, a);
    aclTensor *tb = aclCreateTensor(out.dims, (uint64_t)rank, dtype_of(es), out.strides, out.offset, ACL_FORMAT_ND, sb, 1,
                                    b);
    nnop_view va, vb;
    int ok = ta != NULL && tb != NULL && nnop_view_from_tensor(ta, "test", "in", &va) == 0 &&
             nnop_view_from_tensor(tb, "test", "out", &vb) == 0;
    if (!ok) {
        MG_FAIL("case %d: the descriptors were refused: %s", case_index, aclGetRecentErrMsg());
    } else {
        static const char *const names[] = {"in", "out"};
        aclOpExecutor *e = nnop_executor_create("Copy", (const aclTensor *const *)&ta, 1, &tb, 1, names);
        nnop_buffer dense = nnop_executor_reserve_workspace(e, (uint64_t)(numel * es));
        nnop_buffer src = {NNOP_BUFFER_INPUT, 0, 0}, dst = {NNOP_BUFFER_OUTPUT, 0, 0};
        check_params cp = {gathered, numel * es};
        MG_CHECK_EQ_INT(nnop_add_contiguous(e, &va, src, dense), 0);
        MG_CHECK_EQ_INT(nnop_executor_add_step(e, "Check", check_step, &cp, sizeof cp, &dense, 1, 1), 0);
        MG_CHECK_EQ_INT(nnop_add_view_copy(e, &vb, dense, dst), 0);
        uint64_t ws = nnop_executor_workspace_size(e);
        void *w = NULL;
        if (ws) (void)aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
        dense_wrong = 0;
        MG_CHECK_EQ_INT(nnop_executor_launch("Copy", w, ws, e, NULL), 0);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
        if (w) aclrtFree(w);
        /* the output: the view holds the gathered elements, the rest is as before */
        unsigned char *want = malloc((size_t)out.storage * es);
        memcpy(want, b_before, (size_t)out.storage * es);
        for (int64_t k = 0; k < numel; k++) memcpy(want + offset_of(&out, k) * es, gathered + k * es, (size_t)es);
        int same = memcmp(want, b, (size_t)out.storage * es) == 0;
        if (!same || dense_wrong) {
            MG_FAIL("case %d: rank %d, %lld elements of %d bytes: dense buffer %s, output %s", case_index, rank,
                    (long long)numel, es, dense_wrong ? "wrong" : "right", same ? "right" : "wrong");
            ok = 0;
        }
        free(want);
    }
    if (ta) aclDestroyTensor(ta);
    if (tb) aclDestroyTensor(tb);
    aclrtFree(a);
    aclrtFree(b);
    free(b_before);
    free(gathered);
    return ok;
}

static void up(void) {
    mg_acl_session_up();
}

MG_TEST(small_random_views_every_element_size) {
    up();
    int failed = 0;
    for (int c = 0; c < 1500; c++) {
        int rank = (int)pick(9); /* 0..8 */
        int64_t dims[8];
        for (int d = 0; d < rank; d++) dims[d] = 1 + pick(rank > 5 ? 2 : 4);
        static const int sizes[4] = {1, 2, 4, 8};
        failed += !run_case(rank, dims, sizes[c % 4], c);
        if (failed > 5) break;
    }
    MG_CHECK_EQ_INT(failed, 0);
}

/* Over 256 KiB: the rows are split over the pool's threads; rows of length 1 too (an inner
   dim that is not the fastest-moving one), and many short rows. */
MG_TEST(large_views_split_over_threads) {
    up();
    static const struct {
        int rank;
        int64_t dims[4];
        int es;
    } cases[] = {
        {2, {300, 257}, 4}, {3, {64, 33, 40}, 4}, {2, {70000, 1}, 4}, {3, {3, 50000, 1}, 2},
        {2, {1, 90000}, 8}, {4, {17, 9, 31, 13}, 4}, {2, {40000, 3}, 2}, {3, {2, 2, 70000}, 1},
    };
    int failed = 0;
    for (int r = 0; r < 3; r++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            failed += !run_case(cases[c].rank, cases[c].dims, cases[c].es, (int)(100 * r + c));
    MG_CHECK_EQ_INT(failed, 0);
}

/* nnop_view_overlaps_itself of a view over `storage_elems` floats at `d` against `want`. */
static void check_overlaps_itself(void *d, int64_t storage_elems, int rank, const int64_t *dims,
                                  const int64_t *strides, int want, size_t case_index) {
    const int64_t storage[1] = {storage_elems};
    aclTensor *t = aclCreateTensor(dims, (uint64_t)rank, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, d);
    MG_CHECK(t != NULL);
    nnop_view v;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "test", "t", &v), 0);
    const int got = nnop_view_overlaps_itself(&v);
    if (got != want) MG_FAIL("case %zu: overlaps %d, expected %d", case_index, got, want);
    else MG_CHECK(1);
    aclDestroyTensor(t);
}

/* nnop_view_overlaps_itself: 1 when two indexes of the view share an element, else 0 (the
   same proof phase 1 uses, for operators that ask without refusing). */
MG_TEST(overlaps_itself_answers) {
    up();
    void *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    static const struct {
        int rank;
        int64_t dims[3], strides[3];
        int overlaps;
    } cases[] = {
        {2, {2, 2}, {1, 1}, 1},   {2, {4, 5}, {2, 5}, 0},  {2, {3, 4}, {0, 1}, 1},  {2, {3, 4}, {4, 1}, 0},
        {2, {3, 1}, {1, 0}, 0},   {1, {1}, {0}, 0},        {3, {2, 3, 4}, {12, 4, 1}, 0}, {3, {2, 3, 4}, {11, 4, 1}, 1},
        {2, {4, 5}, {3, 2}, 1},   {2, {4, 5}, {5, 2}, 0},   {2, {2, 3}, {3, 1}, 0},  {2, {2, 3}, {2, 1}, 1},  {1, {7}, {1}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_overlaps_itself(d, 512, cases[i].rank, cases[i].dims, cases[i].strides, cases[i].overlaps, i);
    aclrtFree(d);
}

/* ---- a launch whose tensors have 8 moving dims ------------------------------------------------ */

/* aclnnMish over a rank-8 view with every dim moving (2 each, strides with gaps) into a dense
   rank-8 output: the launch describes each tensor's elements to the runtime's race check
   (launch_tensors: 8 dims, the most there are); values against the reference. A copy past the
   8th dim (seed 32: `d <= rank`) reads and writes outside the descriptions (ASan). */
MG_TEST(a_launch_over_eight_moving_dims) {
    mg_acl_session_up();
    int64_t dims[8], in_strides[8], out_strides[8], span = 1;
    for (int d = 7; d >= 0; d--) {
        dims[d] = 2;
        in_strides[d] = 3 * span; /* each dim steps past a gap */
        span = 3 * span * 2;
    }
    for (int d = 7, s = 1; d >= 0; d--, s *= 2) out_strides[d] = s;
    const int64_t in_storage = span, out_storage = 256;
    void *in = NULL, *out = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&in, (size_t)in_storage * 4, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&out, (size_t)out_storage * 4, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    float *x = in, *y = out;
    for (int64_t i = 0; i < in_storage; i++) x[i] = (float)((i % 97) - 48) / 8.0f;
    for (int64_t i = 0; i < out_storage; i++) y[i] = 1234.5f;
    aclTensor *tx = aclCreateTensor(dims, 8, ACL_FLOAT, in_strides, 0, ACL_FORMAT_ND, &in_storage, 1, in);
    aclTensor *ty = aclCreateTensor(dims, 8, ACL_FLOAT, out_strides, 0, ACL_FORMAT_ND, &out_storage, 1, out);
    MG_CHECK(tx != NULL && ty != NULL);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishGetWorkspaceSize(tx, ty, &ws, &e), ACLNN_SUCCESS);
    void *workspace = NULL;
    if (ws > 0) MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclnnMish(workspace, ws, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    int wrong = 0;
    for (int64_t k = 0; k < 256; k++) { /* k's bits, high to low, are the indices of dims 0..7 */
        int64_t at = 0;
        for (int d = 0; d < 8; d++) at += ((k >> (7 - d)) & 1) * in_strides[d];
        double want = mish_ref_fwd_d((double)x[at]);
        if (fabs((double)y[k] - want) > 1e-6 * fabs(want) + 1e-30 && wrong++ < 3)
            fprintf(stderr, "  element %lld: %.9g, expected %.9g\n", (long long)k, (double)y[k], want);
    }
    MG_CHECK_EQ_INT(wrong, 0);
    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    if (workspace) aclrtFree(workspace);
    aclrtFree(in);
    aclrtFree(out);
}

/* ---- an attachment handed to an executor that is no longer live -------------------------------- */


static int attachments_freed;
static void free_counted(void *p) {
    attachments_freed++;
    free(p);
}

enum { STALE_ATTACHES = 1000, ATTACHMENT_BYTES = 4096 };

/* nnop.h: an attachment is "freed at once if [the executor] is not live" (seed 33,
   op_executor.c:157: the free deleted, every such attachment leaked). The free callback counts
   its calls (any build) and glibc's heap must not keep the 4 MB the attachments take (plain
   builds). A live executor keeps its attachment until it is released: the count tells the two
   paths apart. */
MG_TEST(attachment_to_a_stale_executor_is_freed) {
    up();
    void *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {16}, storage[1] = {16};
    aclTensor *ta = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    aclTensor *tb = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    MG_CHECK(ta != NULL && tb != NULL);
    static const char *const names[] = {"in", "out"};

    /* live: kept at attach, freed once when the executor goes */
    aclOpExecutor *live = nnop_executor_create("Copy", (const aclTensor *const *)&ta, 1, &tb, 1, names);
    MG_CHECK(live != NULL);
    attachments_freed = 0;
    void *kept = malloc(ATTACHMENT_BYTES);
    nnop_executor_attach(live, kept, free_counted);
    MG_CHECK_EQ_INT(attachments_freed, 0);
    MG_CHECK(nnop_executor_attachment(live) == kept);
    nnop_executor_abandon(live);
    MG_CHECK_EQ_INT(attachments_freed, 1);

    /* stale: the handle was released above; each attachment is freed by the attach itself */
    aclOpExecutor *stale = nnop_executor_create("Copy", (const aclTensor *const *)&ta, 1, &tb, 1, names);
    MG_CHECK(stale != NULL);
    nnop_executor_abandon(stale);
    attachments_freed = 0;
    nnop_executor_attach(stale, malloc(ATTACHMENT_BYTES), free_counted); /* warm-up: malloc's own first use */
    const long long before = mg_heap_in_use();
    for (int i = 1; i < STALE_ATTACHES; i++) nnop_executor_attach(stale, malloc(ATTACHMENT_BYTES), free_counted);
    const long long after = mg_heap_in_use();
    MG_CHECK_EQ_INT(attachments_freed, STALE_ATTACHES);
    MG_CHECK(nnop_executor_attachment(stale) == NULL);
    if (before < 0 || after < 0) {
        printf("  heap not measurable in this build (a sanitizer's allocator): the free count judges\n");
    } else {
        /* 999 attachments kept would be about 4 MB */
        if (after - before >= 256 * 1024)
            MG_FAIL("the heap grew by %lld bytes over %d attachments to a stale executor", after - before,
                    STALE_ATTACHES - 1);
        else MG_CHECK(1);
    }
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclrtFree(d);
}

/* ---- aclSetTensorAddr over the outputs ------------------------------------------------------- */

/* aclSetTensorAddr counts inputs then outputs: on aclnnMishBackward (inputs gradOutput, self;
   output gradInput) index 2 is the output. Setting it must move where the launch writes, not an
   input slot past the inputs (seed 38, op_executor.c:318: the mode 2 -> 3 took every index as an
   input's, so the launch wrote the old output block and left the new one untouched). */
MG_TEST(set_tensor_addr_index_past_the_inputs_moves_the_output) {
    up();
    enum { N = 32 };
    int64_t n = N;
    void *blk[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < 4; i++) MG_CHECK_EQ_INT(aclrtMalloc(&blk[i], N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    float *g = blk[0], *x = blk[1], *old_out = blk[2], *new_out = blk[3];
    for (int k = 0; k < N; k++) {
        g[k] = 1.0f;
        x[k] = (float)(k - 16) / 8.0f;
        old_out[k] = 777.0f;
        new_out[k] = 555.0f;
    }
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = aclCreateTensor(&n, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &n, 1, blk[i]);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &e), ACLNN_SUCCESS);
    /* past inputs and outputs together: refused, counted over both (3 tensors) */
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 3, t[2], new_out), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "has 3 tensors");
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 2, t[2], new_out), ACLNN_SUCCESS);
    void *workspace = NULL;
    if (ws > 0) MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclnnMishBackward(workspace, ws, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    int wrong = 0, touched = 0;
    for (int k = 0; k < N; k++) {
        double want = (double)mish_ref_grad_ld((long double)x[k]);
        if (fabs((double)new_out[k] - want) > 1e-5 * fabs(want) + 1e-30) wrong++;
        if (old_out[k] != 777.0f) touched++;
    }
    MG_CHECK_EQ_INT(wrong, 0);   /* the result is at the new address */
    MG_CHECK_EQ_INT(touched, 0); /* and the old output block is untouched */
    for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    if (workspace) aclrtFree(workspace);
    for (int i = 0; i < 4; i++) aclrtFree(blk[i]);
}

/* ---- the element-by-element self-overlap proof over 8 moving dims ------------------------------ */

/* Views the quick proof (sorted strides, each past the reach of the smaller) cannot clear:
   dims 4 and 5 with strides 5 and 2 interleave (2j + 5i, all distinct) so the answer comes from
   visiting every element (view_revisits_an_element), with 8 moving dims, the most there are.
   The moving dims are packed from 0 (seed 38, acl_tensor.c:473: `int rank = 1` packed them from
   1, writing dims[8] and strides[8] past their arrays: ASan's stack-buffer-overflow). */
MG_TEST(overlaps_itself_over_eight_moving_dims) {
    up();
    void *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&d, 4096 * 4, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    static const struct {
        int64_t strides[8];
        int overlaps;
    } cases[] = {
        {{5, 2, 24, 48, 96, 192, 384, 768}, 0}, /* distinct: 2j + 5i below 24, then whole blocks */
        {{5, 2, 10, 48, 96, 192, 384, 768}, 1}, /* 10 = 5 * 2: the stride-10 dim meets i = 2 */
        {{5, 2, 24, 48, 96, 192, 384, 767}, 1}, /* 767 = 24 + 48 + 96 + 192 + 384 + 23 = ... + 5*3 + 2*4 */
    };
    const int64_t dims[8] = {4, 5, 2, 2, 2, 2, 2, 2};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_overlaps_itself(d, 4096, 8, dims, cases[i].strides, cases[i].overlaps, i);
    aclrtFree(d);
}

/* ---- a step buffer naming a slot nothing was bound to ------------------------------------------ */

static void *seen_buffers[3];
static int32_t record_buffers(const void *params, void *const *buffers) {
    (void)params;
    for (int i = 0; i < 3; i++) seen_buffers[i] = buffers[i];
    return 0;
}

/* A step names slots by index (nnop_executor_add_step checks only the count): a slot below
   MAX_SLOTS that no tensor was bound to resolves to NULL at launch, never to a stale or made-up
   address; a bound one to its tensor's data (seed 38, op_executor.c:496: the launch state
   cleared with 1s, an unbound slot became 0x0101010101010101). */
MG_TEST(step_buffer_of_an_unbound_slot_resolves_to_null) {
    up();
    void *d = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {16}, storage[1] = {16};
    aclTensor *ta = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, d);
    aclTensor *tb = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, (char *)d + 2048);
    MG_CHECK(ta != NULL && tb != NULL);
    static const char *const names[] = {"in", "out"};
    aclOpExecutor *e = nnop_executor_create("Record", (const aclTensor *const *)&ta, 1, &tb, 1, names);
    MG_CHECK(e != NULL);
    const nnop_buffer buffers[3] = {
        {NNOP_BUFFER_INPUT, 0, 0}, {NNOP_BUFFER_INPUT, 5, 0}, {NNOP_BUFFER_OUTPUT, 7, 0}};
    MG_CHECK_EQ_INT(nnop_executor_add_step(e, "Record", record_buffers, NULL, 0, buffers, 3, 1), ACLNN_SUCCESS);
    seen_buffers[0] = seen_buffers[1] = seen_buffers[2] = (void *)&seen_buffers;
    MG_CHECK_EQ_INT(nnop_executor_launch("test", NULL, 0, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    MG_CHECK(seen_buffers[0] == d);
    MG_CHECK(seen_buffers[1] == NULL);
    MG_CHECK(seen_buffers[2] == NULL);
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclrtFree(d);
}

MG_TEST_MAIN()

/* ---- the workspace's alignment ------------------------------------------------------------ */

/* Phase 2 refuses a workspace that is not aligned to the widest element of the call's
   tensors (the dense copies it holds are read as such): x strided (every other element), so
   aclnnMish asks for a workspace; inside one aclrtMalloc block, 2 bytes in is fine for
   float16 and refused for float32, 1 byte in refused for float16, with the message. */
static aclnnStatus mish_with_workspace_at(aclDataType dtype, int64_t elem, size_t shift) {
    static unsigned char *block;
    if (block == NULL && aclrtMalloc((void **)&block, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return -1;
    const int64_t n = 64, x_dims[1] = {n}, x_strides[1] = {2}, x_storage[1] = {2 * n}, y_dims[1] = {n};
    aclTensor *x = aclCreateTensor(x_dims, 1, dtype, x_strides, 0, ACL_FORMAT_ND, x_storage, 1, block);
    aclTensor *y = aclCreateTensor(y_dims, 1, dtype, NULL, 0, ACL_FORMAT_ND, y_dims, 1, block + 4096);
    memset(block, 0, 2 * n * elem);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st = aclnnMishGetWorkspaceSize(x, y, &ws, &e);
    if (st == ACLNN_SUCCESS && ws == 0) st = -2; /* the case needs a workspace */
    if (st == ACLNN_SUCCESS) {
        st = aclnnMish(block + 8192 + shift, ws, e, NULL); /* the executor goes either way */
        if (st == ACLNN_SUCCESS) st = aclrtSynchronizeStream(NULL);
    }
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    return st;
}

MG_TEST(workspace_alignment_follows_the_widest_element) {
    up();
    MG_CHECK_EQ_INT(mish_with_workspace_at(ACL_FLOAT16, 2, 2), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(mish_with_workspace_at(ACL_FLOAT, 4, 4), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(mish_with_workspace_at(ACL_FLOAT16, 2, 1), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "is not aligned to the 2-byte elements it holds");
    MG_CHECK_EQ_INT(mish_with_workspace_at(ACL_FLOAT, 4, 2), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "is not aligned to the 4-byte elements it holds");
}
