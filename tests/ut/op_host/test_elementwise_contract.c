/*
 * tests/ut/op_host/test_elementwise_contract.c: the contract the three operators share
 * (aclnnMishBackward, aclnnMish, aclnnInplaceMish), each check run once per operator.
 *
 * A refusal is checked for its exact status, for the message's content (which argument,
 * what was wrong, in the right order), and for an output that still holds only the
 * sentinel. A success is checked value by value against the operator's independent
 * reference (tests/ut/ut_ops.h), and for the bytes outside the output's
 * view. Cases the in-place form cannot express (two tensors that differ) skip it.
 */
#include <stdint.h>

#include "ut_util.h"

#define FOR_EACH_OP(op) for (int op##_k = 0; op##_k < UT_OP_COUNT; op##_k++) for (const ut_op *op = UT_OPS[op##_k]; op; op = NULL)

static const aclDataType FLOAT_TYPES[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/* A recent error that names no argument of any operator, so a message checked later is
   the operator's. */
static void prime_error_message(void) { (void)aclrtSetDevice(7); (void)aclGetRecentErrMsg(); (void)aclrtSetDevice(7); }

/* aclGetRecentErrMsg gets and clears: read it once per failure, into a buffer. */
static const char *take_message(char *buffer, size_t capacity) {
    const char *m = aclGetRecentErrMsg();
    snprintf(buffer, capacity, "%s", m ? m : "(null)");
    return buffer;
}

/* Dense tensors for `op` (ut_op_tensor_count of them), one dtype and shape. */
static void make_dense(const ut_op *op, ut_tensor *t, aclDataType dtype, int rank, const int64_t *dims) {
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_dense(&t[i], dtype, rank, dims);
}

static void free_all(const ut_op *op, ut_tensor *t) {
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_free(&t[i]);
}

/* The raw descriptors of `t` in phase 1's order (inputs, then the output). */
static void raw_of(const ut_op *op, ut_tensor *t, aclTensor *raw[3]) {
    raw[0] = raw[1] = raw[2] = NULL;
    for (int i = 0; i < op->input_count; i++) raw[i] = t[i].tensor;
    raw[op->input_count] = ut_op_output(op, t)->tensor;
}

/* Phase 1 on `raw` must fail with `code`, its message must contain each of `parts`
   (NULL-terminated), and `guard` (when given) must still hold only the sentinel. */
static void expect_refused(const ut_op *op, aclTensor *const *raw, aclnnStatus code, ut_tensor *guard,
                           const char *what, const char *const *parts) {
    prime_error_message();
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = op->phase1(raw, &ws, &executor);
    char message[1024];
    take_message(message, sizeof message);
    mg_checks_done++;
    if (st != code) MG_FAIL("%s, %s: status %d, expected %d (message: %s)", op->phase1_name, what, st, code, message);
    for (int i = 0; parts[i]; i++) {
        mg_checks_done++;
        if (!strstr(message, parts[i]))
            MG_FAIL("%s, %s: message \"%s\" lacks \"%s\"", op->phase1_name, what, message, parts[i]);
    }
    if (guard && ut_changed_bytes(guard) != 0) MG_FAIL("%s, %s: the output was written", op->phase1_name, what);
    if (st == ACLNN_SUCCESS && executor) {
        aclSetAclOpExecutorRepeatable(executor);
        aclDestroyAclOpExecutor(executor);
    }
}

#define PARTS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* "<api>: <name>", the prefix every argument-specific message of phase 1 starts with. */
static const char *prefix(const ut_op *op, const char *name, char *buffer, size_t capacity) {
    snprintf(buffer, capacity, "%s: %s", op->phase1_name, name);
    return buffer;
}

static aclTensor *raw_tensor(aclDataType dtype, int rank, const int64_t *dims, const int64_t *strides, int64_t offset,
                             int64_t storage_elems, void *data) {
    int64_t storage_dims[1] = {storage_elems};
    return aclCreateTensor(dims, (uint64_t)rank, dtype, strides, offset, ACL_FORMAT_ND, storage_dims, 1, data);
}

static uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

/* ---- before aclInit: defined first, so it runs first -------------------------------- */

MG_TEST(before_aclinit_every_operator_returns_runtime_error) {
    if (ut_acl_ready) {
        MG_FAIL("must run before any other test (run the executable without a filter)");
        return;
    }
    int64_t dims[1] = {4};
    FOR_EACH_OP(op) {
        float memory[3][4] = {{0}};
        aclTensor *raw[3] = {NULL, NULL, NULL};
        for (int i = 0; i < 3; i++) raw[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, memory[i]);
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_ERR_RUNTIME_ERROR);
        char message[512];
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "aclInit");
        for (int i = 0; i < 3; i++) aclDestroyTensor(raw[i]);
    }
}

/* ---- 1. NULL pointers ------------------------------------------------------------------ */

MG_TEST(null_workspace_size_and_executor_are_161001) {
    ut_init();
    int64_t dims[1] = {8};
    FOR_EACH_OP(op) {
        ut_tensor t[3];
        aclTensor *raw[3];
        make_dense(op, t, ACL_FLOAT, 1, dims);
        raw_of(op, t, raw);
        char message[512], expected[256];
        aclOpExecutor *executor = NULL;
        uint64_t ws = 0;
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase1(raw, NULL, &executor), ACLNN_ERR_PARAM_NULLPTR);
        snprintf(expected, sizeof expected, "%s: workspaceSize is NULL", op->phase1_name);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), expected);
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
        snprintf(expected, sizeof expected, "%s: executor is NULL", op->phase1_name);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), expected);
        MG_CHECK_EQ_INT(ut_changed_bytes(ut_op_output(op, t)), 0);
        free_all(op, t);
    }
}

MG_TEST(null_tensors_are_161001_first_one_named) {
    ut_init();
    int64_t dims[1] = {8};
    FOR_EACH_OP(op) {
        ut_tensor t[3];
        aclTensor *raw[3];
        make_dense(op, t, ACL_FLOAT, 1, dims);
        const int count = op->input_count + 1;
        for (int missing = 0; missing < count; missing++) {
            if (op->in_place && missing > 0) break;
            /* Everything from `missing` on is NULL: the first NULL one is named. */
            raw_of(op, t, raw);
            for (int j = missing; j < count; j++) raw[j] = NULL;
            char expected[128];
            snprintf(expected, sizeof expected, "Expected a proper Tensor but got null for argument %s.",
                     op->names[missing]);
            expect_refused(op, raw, ACLNN_ERR_PARAM_NULLPTR, missing < op->input_count ? ut_op_output(op, t) : NULL,
                           "NULL tensors", PARTS(expected));
            /* Only this one NULL. */
            raw_of(op, t, raw);
            raw[missing] = NULL;
            expect_refused(op, raw, ACLNN_ERR_PARAM_NULLPTR, NULL, "one NULL tensor", PARTS(expected));
        }
        free_all(op, t);
    }
}

/* ---- 2. dtypes ------------------------------------------------------------------------- */

MG_TEST(dtype_outside_the_list_is_161002_naming_tensor_and_dtype) {
    ut_init();
    int64_t dims[2] = {2, 3};
    const aclDataType others[] = {ACL_DOUBLE, ACL_INT32, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_BOOL,
                                  ACL_COMPLEX64};
    const char *const other_names[] = {"DOUBLE", "INT32", "INT8", "UINT8", "INT16", "INT64", "BOOL", "COMPLEX64"};
    FOR_EACH_OP(op) {
        for (size_t d = 0; d < sizeof others / sizeof others[0]; d++) {
            ut_tensor t[3];
            aclTensor *raw[3];
            make_dense(op, t, others[d], 2, dims);
            raw_of(op, t, raw);
            char head[128], expected[320];
            prefix(op, op->names[0], head, sizeof head);
            snprintf(expected, sizeof expected, "%s has dtype %s (value %d); supported: FLOAT, FLOAT16, BFLOAT16", head,
                     other_names[d], (int)others[d]);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), other_names[d], PARTS(expected));
            free_all(op, t);
        }
        if (op->in_place) continue;
        /* Only the output's dtype is outside the list: the output is named. */
        ut_tensor t[3];
        aclTensor *raw[3];
        for (int i = 0; i < op->input_count; i++) ut_tensor_dense(&t[i], ACL_FLOAT, 2, dims);
        ut_tensor_dense(&t[op->input_count], ACL_INT32, 2, dims);
        raw_of(op, t, raw);
        char head[128], expected[320];
        prefix(op, op->names[op->input_count], head, sizeof head);
        snprintf(expected, sizeof expected, "%s has dtype INT32", head);
        expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), "output INT32", PARTS(expected));
        free_all(op, t);
    }
}

MG_TEST(unequal_dtypes_are_161002_naming_both_in_order) {
    ut_init();
    int64_t dims[2] = {2, 3};
    FOR_EACH_OP(op) {
        if (op->in_place) continue;
        const int count = op->input_count + 1;
        /* Each tensor after the first in turn gets another dtype than the first. */
        for (int odd = 1; odd < count; odd++) {
            const aclDataType pairs[3][2] = {{ACL_FLOAT, ACL_FLOAT16}, {ACL_FLOAT16, ACL_BF16}, {ACL_BF16, ACL_FLOAT}};
            const char *const names[3][2] = {{"FLOAT", "FLOAT16"}, {"FLOAT16", "BFLOAT16"}, {"BFLOAT16", "FLOAT"}};
            for (int p = 0; p < 3; p++) {
                ut_tensor t[3];
                aclTensor *raw[3];
                for (int i = 0; i < count; i++) ut_tensor_dense(&t[i], i == odd ? pairs[p][1] : pairs[p][0], 2, dims);
                raw_of(op, t, raw);
                char head[128], expected[320];
                prefix(op, op->names[odd], head, sizeof head);
                snprintf(expected, sizeof expected, "%s has dtype %s but %s has %s; the dtypes must be equal", head,
                         names[p][1], op->names[0], names[p][0]);
                expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), "dtype mismatch", PARTS(expected));
                free_all(op, t);
            }
        }
        /* The first tensor differs from all others: the second is named, against the first. */
        ut_tensor t[3];
        aclTensor *raw[3];
        for (int i = 0; i < count; i++) ut_tensor_dense(&t[i], i == 0 ? ACL_BF16 : ACL_FLOAT, 2, dims);
        raw_of(op, t, raw);
        char head[128], expected[320];
        prefix(op, op->names[1], head, sizeof head);
        snprintf(expected, sizeof expected, "%s has dtype FLOAT but %s has BFLOAT16", head, op->names[0]);
        expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), "first differs", PARTS(expected));
        free_all(op, t);
    }
}

/* ---- 3. rank and shapes ---------------------------------------------------------------- */

MG_TEST(rank_9_is_161002_and_ranks_0_to_8_run) {
    ut_init();
    int64_t dims9[9] = {1, 2, 1, 1, 1, 1, 1, 1, 2};
    int64_t dims8[8] = {2, 1, 3, 2, 1, 2, 3, 2};
    mg_rng rng = {101};
    FOR_EACH_OP(op) {
        const int count = ut_op_tensor_count(op);
        for (int at = 0; at < count; at++) {
            /* Tensor `at` has rank 9 (4 elements, like the rank-2 others). */
            int64_t dims2[2] = {2, 2};
            ut_tensor t[3];
            aclTensor *raw[3];
            for (int i = 0; i < count; i++) {
                if (i == at) ut_tensor_dense(&t[i], ACL_FLOAT, 9, dims9);
                else ut_tensor_dense(&t[i], ACL_FLOAT, 2, dims2);
            }
            raw_of(op, t, raw);
            char head[128], expected[320];
            prefix(op, op->names[at], head, sizeof head);
            snprintf(expected, sizeof expected, "%s has 9 dims; at most 8 are supported", head);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), "rank 9", PARTS(expected));
            free_all(op, t);
        }
        for (int rank = 0; rank <= 8; rank++) {
            ut_tensor t[3];
            make_dense(op, t, ACL_FLOAT, rank, dims8 + (8 - rank));
            uint64_t ws = 99;
            char what[32];
            snprintf(what, sizeof what, "rank %d", rank);
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, what), 0);
            MG_CHECK_EQ_INT(ws, 0);
            free_all(op, t);
        }
    }
}

MG_TEST(unequal_shapes_are_161002_even_when_broadcastable) {
    ut_init();
    const int64_t d23[2] = {2, 3}, d13[2] = {1, 3}, d3[1] = {3}, d32[2] = {3, 2};
    struct { const int64_t *dims; int rank; const char *text; } odd[3] = {{d13, 2, "[1,3]"}, {d3, 1, "[3]"}, {d32, 2, "[3,2]"}};
    FOR_EACH_OP(op) {
        if (op->in_place) continue;
        const int count = op->input_count + 1;
        for (int at = 1; at < count; at++) {
            for (int s = 0; s < 3; s++) {
                ut_tensor t[3];
                aclTensor *raw[3];
                for (int i = 0; i < count; i++) {
                    if (i == at) ut_tensor_dense(&t[i], ACL_FLOAT, odd[s].rank, odd[s].dims);
                    else ut_tensor_dense(&t[i], ACL_FLOAT, 2, d23);
                }
                raw_of(op, t, raw);
                char head[128], expected[320];
                prefix(op, op->names[at], head, sizeof head);
                snprintf(expected, sizeof expected, "%s has shape %s but %s has [2,3]; shapes must be equal", head,
                         odd[s].text, op->names[0]);
                expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, ut_op_output(op, t), "shape", PARTS(expected));
                free_all(op, t);
            }
        }
    }
}

/* CANN's order: dtype list, equal dtypes, rank, equal shapes, then the descriptor itself. */
MG_TEST(checks_run_in_canns_order) {
    ut_init();
    int64_t d23[2] = {2, 3}, d13[2] = {1, 3};
    int64_t dims9[9] = {1, 2, 1, 1, 1, 1, 1, 1, 3};
    FOR_EACH_OP(op) {
        const int last = op->input_count; /* index of the output */
        char head[128], expected[320];
        ut_tensor guard;
        ut_tensor_dense(&guard, ACL_FLOAT, 2, d23);
        /* An unsupported dtype on the last tensor beats rank 9 on the first. */
        aclTensor *raw[3] = {NULL, NULL, NULL};
        raw[0] = raw_tensor(ACL_FLOAT, 9, dims9, NULL, 0, 6, guard.block);
        for (int i = 1; i <= last; i++) raw[i] = raw_tensor(ACL_DOUBLE, 2, d23, NULL, 0, 6, guard.block);
        if (!op->in_place) {
            prefix(op, op->names[1], head, sizeof head);
            snprintf(expected, sizeof expected, "%s has dtype DOUBLE", head);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &guard, "dtype before rank", PARTS(expected));
            /* Unequal dtypes beat rank 9 too. */
            for (int i = 1; i <= last; i++) {
                aclDestroyTensor(raw[i]);
                raw[i] = raw_tensor(ACL_FLOAT16, 2, d23, NULL, 0, 6, guard.block);
            }
            snprintf(expected, sizeof expected, "%s has dtype FLOAT16 but %s has FLOAT", head, op->names[0]);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &guard, "equal dtypes before rank", PARTS(expected));
            /* Rank 9 on the last tensor beats a shape mismatch on the first ones. */
            for (int i = 0; i <= last; i++) aclDestroyTensor(raw[i]);
            raw[0] = raw_tensor(ACL_FLOAT, 2, d23, NULL, 0, 6, guard.block);
            for (int i = 1; i < last; i++) raw[i] = raw_tensor(ACL_FLOAT, 2, d13, NULL, 0, 6, guard.block);
            raw[last] = raw_tensor(ACL_FLOAT, 9, dims9, NULL, 0, 6, guard.block);
            prefix(op, op->names[last], head, sizeof head);
            snprintf(expected, sizeof expected, "%s has 9 dims", head);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &guard, "rank before shape", PARTS(expected));
            /* A shape mismatch beats NULL data and a negative stride on the first tensor. */
            for (int i = 0; i <= last; i++) aclDestroyTensor(raw[i]);
            int64_t bad_strides[2] = {3, -1};
            raw[0] = raw_tensor(ACL_FLOAT, 2, d23, bad_strides, 0, 6, NULL);
            for (int i = 1; i < last; i++) raw[i] = raw_tensor(ACL_FLOAT, 2, d23, NULL, 0, 6, guard.block);
            raw[last] = raw_tensor(ACL_FLOAT, 2, d13, NULL, 0, 6, guard.block);
            snprintf(expected, sizeof expected, "%s has shape [1,3] but %s has [2,3]", head, op->names[0]);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &guard, "shape before descriptor", PARTS(expected));
            for (int i = 0; i <= last; i++) aclDestroyTensor(raw[i]);
        } else {
            /* The in-place form: DOUBLE with rank 9 is a dtype error. */
            aclDestroyTensor(raw[0]);
            raw[0] = raw_tensor(ACL_DOUBLE, 9, dims9, NULL, 0, 6, guard.block);
            prefix(op, "selfRef", head, sizeof head);
            snprintf(expected, sizeof expected, "%s has dtype DOUBLE", head);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &guard, "dtype before rank", PARTS(expected));
            aclDestroyTensor(raw[0]);
            aclDestroyTensor(raw[1]);
        }
        ut_tensor_free(&guard);
    }
}

/* ---- 4. descriptor validity ------------------------------------------------------------ */

/* Each malformed descriptor in each position: 161002, the message names the tensor. */
MG_TEST(malformed_descriptors_are_161002_naming_the_tensor) {
    ut_init();
    int64_t dims[2] = {2, 4};
    FOR_EACH_OP(op) {
        const int count = op->input_count + 1;
        for (int at = 0; at < count; at++) {
            if (op->in_place && at > 0) break;
            ut_tensor t[3];
            make_dense(op, t, ACL_FLOAT, 2, dims);
            ut_tensor big;
            int64_t bigdims[1] = {64};
            ut_tensor_dense(&big, ACL_FLOAT, 1, bigdims);
            float *plain = calloc(64, sizeof(float));
            void *freed = NULL;
            MG_CHECK_EQ_INT(aclrtMalloc(&freed, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            MG_CHECK_EQ_INT(aclrtFree(freed), ACL_SUCCESS);
            int64_t neg_stride[2] = {4, -1}, far_stride[2] = {5, 1};
            struct {
                const char *what;
                const int64_t *dims, *strides;
                int64_t offset, storage;
                void *data;
                const char *hint; /* a second part the message must hold, or NULL */
            } cases[] = {
                {"negative stride", dims, neg_stride, 3, 8, big.block, "'s stride in dim 1 is -1"},
                {"negative offset", dims, NULL, -1, 8, (float *)big.block + 1, NULL},
                /* "reaches", not "reads": the tensor may be the output, which is written */
                {"view past its storage", dims, NULL, 1, 8, big.block, " reaches element 8 of its storage, which holds 8"},
                {"stride past its storage", dims, far_stride, 0, 8, big.block,
                 " reaches element 8 of its storage, which holds 8"},
                {"storage past its block", dims, NULL, 0, 8, (float *)big.block + 60, NULL},
                {"NULL data", dims, NULL, 0, 8, NULL, NULL},
                /* host memory: the message says how to make it usable */
                {"malloc memory", dims, NULL, 0, 8, plain, "host memory takes aclrtHostRegister first"},
                {"a freed block", dims, NULL, 0, 8, freed, "not inside one live aclrtMalloc block"},
            };
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
                aclTensor *raw[3];
                raw_of(op, t, raw);
                aclTensor *bad = raw_tensor(ACL_FLOAT, 2, cases[c].dims, cases[c].strides, cases[c].offset,
                                            cases[c].storage, cases[c].data);
                raw[at] = bad;
                char head[128];
                prefix(op, op->names[at], head, sizeof head);
                /* An invalid output must not be written either: watch the block it points into. */
                expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID,
                               at == op->input_count || op->in_place ? &big : ut_op_output(op, t), cases[c].what,
                               cases[c].hint ? PARTS(head, cases[c].hint) : PARTS(head));
                aclDestroyTensor(bad);
            }
            free(plain);
            ut_tensor_free(&big);
            free_all(op, t);
        }
        /* A negative dim (on every tensor, so the shapes agree): the first one is named. */
        ut_tensor big;
        int64_t bigdims[1] = {64}, neg_dim[2] = {2, -4}, strides[2] = {4, 1};
        ut_tensor_dense(&big, ACL_FLOAT, 1, bigdims);
        aclTensor *raw[3] = {NULL, NULL, NULL};
        for (int i = 0; i < count; i++) raw[i] = raw_tensor(ACL_FLOAT, 2, neg_dim, strides, 0, 8, big.block);
        char head[160];
        prefix(op, op->names[0], head, sizeof head);
        expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, &big, "negative dim", PARTS(head, "'s dim 1 is -4"));
        for (int i = 0; i < count; i++) aclDestroyTensor(raw[i]);
        ut_tensor_free(&big);
    }
}

/* The output's strides map two elements to one location: refused (a racy scatter), while
   an input may repeat elements (an expanded view). */
MG_TEST(self_overlapping_output_is_161002_expanded_input_is_fine) {
    ut_init();
    mg_rng rng = {102};
    struct { int rank; int64_t dims[3], strides[3]; int64_t storage; } overlapping[] = {
        {2, {2, 2}, {1, 1}, 3},      /* [2,2] strides [1,1]: element (0,1) is (1,0) */
        {1, {4}, {0}, 1},            /* a zero stride */
        {2, {4, 6}, {0, 1}, 6},      /* an expanded row */
        {3, {2, 3, 4}, {6, 2, 1}, 14}, /* interleaved: (0,1,2) is (0,2,0) */
    };
    FOR_EACH_OP(op) {
        for (size_t c = 0; c < sizeof overlapping / sizeof overlapping[0]; c++) {
            ut_tensor t[3];
            aclTensor *raw[3];
            for (int i = 0; i < op->input_count; i++) ut_tensor_dense(&t[i], ACL_FLOAT, overlapping[c].rank, overlapping[c].dims);
            ut_tensor *out = ut_op_output(op, t);
            if (op->in_place) ut_tensor_free(&t[0]);
            ut_tensor_make(out, ACL_FLOAT, overlapping[c].rank, overlapping[c].dims, overlapping[c].strides, 0,
                           overlapping[c].storage, ACL_FORMAT_ND);
            raw_of(op, t, raw);
            char head[160];
            snprintf(head, sizeof head, "%s: %s's strides map two elements to one memory location", op->phase1_name,
                     op->names[op->input_count]);
            expect_refused(op, raw, ACLNN_ERR_PARAM_INVALID, out, "overlapping output", PARTS(head));
            free_all(op, t);
        }
        if (op->in_place) continue;
        /* An expanded input (zero stride) with a dense output is fine. */
        int64_t dims[2] = {4, 6}, expanded[2] = {0, 1};
        ut_tensor t[3];
        make_dense(op, t, ACL_FLOAT, 2, dims);
        ut_tensor_free(&t[op->input_count - 1]);
        ut_tensor_make(&t[op->input_count - 1], ACL_FLOAT, 2, dims, expanded, 0, 6, ACL_FORMAT_ND);
        MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, NULL, "expanded input"), 0);
        free_all(op, t);
    }
}

/* ---- 5. empty tensors, formats, workspace ----------------------------------------------- */

MG_TEST(empty_tensors_succeed_with_zero_workspace_and_write_nothing) {
    ut_init();
    int64_t dims[3] = {2, 0, 3};
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            ut_tensor t[3];
            aclTensor *raw[3];
            make_dense(op, t, FLOAT_TYPES[k], 3, dims); /* no storage: data is NULL */
            raw_of(op, t, raw);
            uint64_t ws = 99;
            aclOpExecutor *executor = NULL;
            MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(ws, 0);
            MG_CHECK(executor != NULL);
            MG_CHECK_EQ_INT(op->phase2(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
            free_all(op, t);
        }
        /* An empty view over real storage, non-contiguous strides included. */
        int64_t empty[2] = {0, 4}, strides[2] = {1, 5};
        ut_tensor t[3];
        for (int i = 0; i < ut_op_tensor_count(op); i++)
            ut_tensor_make(&t[i], ACL_FLOAT, 2, empty, strides, 0, 16, ACL_FORMAT_ND);
        uint64_t ws = 99;
        MG_CHECK_EQ_INT(ut_op_run(op, t, ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        MG_CHECK_EQ_INT(ut_changed_bytes(ut_op_output(op, t)), 0);
        free_all(op, t);
    }
}

MG_TEST(formats_are_not_a_reason_to_fail) {
    ut_init();
    const aclFormat formats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_NCDHW, ACL_FORMAT_UNDEFINED};
    int64_t dims[4] = {2, 3, 2, 2};
    mg_rng rng = {103};
    FOR_EACH_OP(op) {
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            ut_tensor t[3];
            for (int i = 0; i < ut_op_tensor_count(op); i++)
                ut_tensor_make(&t[i], ACL_FLOAT, 4, dims, NULL, 0, -1, formats[(f + (size_t)i) % 5]);
            uint64_t ws = 99;
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "format"), 0);
            MG_CHECK_EQ_INT(ws, 0);
            free_all(op, t);
        }
    }
}

/* Contiguous (size-1 dims' strides ignored, offsets allowed): workspace 0. Each
   non-contiguous tensor: one dense copy (64-byte aligned); the in-place form one in all. */
MG_TEST(workspace_is_the_dense_copies_of_non_contiguous_tensors) {
    ut_init();
    mg_rng rng = {104};
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            int64_t dims3[3] = {3, 1, 5}, odd[3] = {5, 999, 1};
            ut_tensor t[3];
            for (int i = 0; i < ut_op_tensor_count(op); i++)
                ut_tensor_make(&t[i], FLOAT_TYPES[k], 3, dims3, i ? odd : NULL, 2 * i, -1, ACL_FORMAT_ND);
            uint64_t ws = 99;
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "size-1 dim, offset"), 0);
            MG_CHECK_EQ_INT(ws, 0);
            free_all(op, t);

            int64_t dims[2] = {6, 5}, transposed[2] = {1, 6};
            uint64_t dense = round_up(30 * ut_elem_size(FLOAT_TYPES[k]), 64);
            const int count = ut_op_tensor_count(op);
            for (int strided = 1; strided <= count; strided++) {
                for (int i = 0; i < count; i++)
                    ut_tensor_make(&t[i], FLOAT_TYPES[k], 2, dims, i >= count - strided ? transposed : NULL, 0, -1,
                                   ACL_FORMAT_ND);
                MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "non-contiguous"), 0);
                MG_CHECK_EQ_INT(ws, (uint64_t)strided * dense);
                free_all(op, t);
            }
        }
    }
}

/* ---- 6. phase 2 ----------------------------------------------------------------------- */

/* Phase 1 on a plan that needs workspace: the last input transposed, the output strided. */
static aclOpExecutor *plan_with_workspace(const ut_op *op, ut_tensor *t, mg_rng *rng, uint64_t *ws) {
    int64_t dims[2] = {8, 5}, transposed[2] = {1, 8}, spaced[2] = {10, 2};
    for (int i = 0; i < op->input_count; i++)
        ut_tensor_make(&t[i], ACL_FLOAT, 2, dims, i == op->input_count - 1 ? transposed : NULL, 0, -1, ACL_FORMAT_ND);
    if (!op->in_place) ut_tensor_make(&t[op->input_count], ACL_FLOAT, 2, dims, spaced, 0, 80, ACL_FORMAT_ND);
    for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], rng, op->lo[i], op->hi[i]);
    aclTensor *raw[3];
    raw_of(op, t, raw);
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(op->phase1(raw, ws, &executor), ACLNN_SUCCESS);
    MG_CHECK(*ws > 0);
    return executor;
}

MG_TEST(phase2_refuses_null_executor_null_or_short_workspace_and_a_second_run) {
    ut_init();
    mg_rng rng = {105};
    FOR_EACH_OP(op) {
        char message[512];
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase2(NULL, 0, NULL, ut_stream), ACLNN_ERR_PARAM_NULLPTR);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "executor is NULL");

        ut_tensor t[3];
        uint64_t ws = 0;
        aclOpExecutor *executor = plan_with_workspace(op, t, &rng, &ws);
        ut_tensor *out = ut_op_output(op, t);
        ut_download(out);
        unsigned char *before = malloc(out->bytes);
        memcpy(before, out->host, out->bytes);
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase2(NULL, ws, executor, ut_stream), ACLNN_ERR_PARAM_NULLPTR);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "workspace is NULL");
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_download(out);
        MG_CHECK(memcmp(before, out->host, out->bytes) == 0);

        /* Too small by a byte, and a block smaller than the size claimed. */
        aclTensor *raw[3];
        raw_of(op, t, raw);
        void *workspace = NULL, *small = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase2(workspace, ws - 1, executor, ut_stream), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "workspaceSize");
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
        prime_error_message();
        MG_CHECK_EQ_INT(op->phase2(small, ws, executor, ut_stream), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "workspace");
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_download(out);
        MG_CHECK(memcmp(before, out->host, out->bytes) == 0);

        /* A single-use executor runs once; the second run is refused and writes nothing. */
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(op->phase2(workspace, ws, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_download(out);
        memcpy(before, out->host, out->bytes);
        prime_error_message();
        aclnnStatus st = op->phase2(workspace, ws, executor, ut_stream);
        MG_CHECK(st == ACLNN_ERR_PARAM_INVALID || st == ACLNN_ERR_PARAM_NULLPTR);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "executor");
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_download(out);
        MG_CHECK(memcmp(before, out->host, out->bytes) == 0);
        free(before);
        aclrtFree(small);
        aclrtFree(workspace);
        free_all(op, t);
    }
}

/* A repeatable executor refreshed to blocks too small for the views (in bytes, not
   elements), or to an output that overlaps an input partially: refused at phase 2,
   nothing written. Refreshed to good blocks: right values each run. */
MG_TEST(repeatable_executor_refreshes_checked_in_bytes) {
    ut_init();
    mg_rng rng = {106};
    FOR_EACH_OP(op) {
        int64_t dims[1] = {64}; /* 256 bytes of float */
        ut_tensor t[3], u[3];
        make_dense(op, t, ACL_FLOAT, 1, dims);
        /* One element of slack, so an output shifted by one still lies in its block. */
        for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_make(&u[i], ACL_FLOAT, 1, dims, NULL, 0, 65, ACL_FORMAT_ND);
        aclTensor *raw[3];
        raw_of(op, t, raw);
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
        char message[512];

        /* The output refreshed to a 64-byte block: 64 elements would fit in 64 elements'
           worth of a count, not in 64 bytes. */
        void *small = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        unsigned char pattern[64];
        memset(pattern, UT_SENTINEL_BYTE, sizeof pattern);
        aclrtMemcpy(small, 64, pattern, 64, ACL_MEMCPY_HOST_TO_DEVICE);
        MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, ut_op_output(op, t)->tensor, small), ACLNN_SUCCESS);
        prime_error_message();
        aclnnStatus st = op->phase2(NULL, 0, executor, ut_stream);
        if (st == ACLNN_SUCCESS) st = aclrtSynchronizeStream(ut_stream);
        MG_CHECK_EQ_INT(st, ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), op->names[op->input_count]);
        unsigned char back[64];
        aclrtMemcpy(back, 64, small, 64, ACL_MEMCPY_DEVICE_TO_HOST);
        MG_CHECK(memcmp(back, pattern, 64) == 0);

        /* An input refreshed to a small block. */
        MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, ut_op_output(op, t)->tensor, ut_op_output(op, u)->block), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, 0, t[0].tensor, small), ACLNN_SUCCESS);
        prime_error_message();
        st = op->phase2(NULL, 0, executor, ut_stream);
        if (st == ACLNN_SUCCESS) st = aclrtSynchronizeStream(ut_stream);
        MG_CHECK_EQ_INT(st, ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), op->names[0]);
        MG_CHECK_EQ_INT(ut_changed_bytes(ut_op_output(op, u)), 0);

        /* The output refreshed to overlap input 0 by all but one element. */
        MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, 0, t[0].tensor, u[0].block), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, ut_op_output(op, t)->tensor, (float *)u[0].block + 1), ACLNN_SUCCESS);
        prime_error_message();
        st = op->phase2(NULL, 0, executor, ut_stream);
        if (st == ACLNN_SUCCESS) st = aclrtSynchronizeStream(ut_stream);
        MG_CHECK_EQ_INT(st, ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(take_message(message, sizeof message), "overlap");

        /* Good blocks: the executor runs on u, then on t again, values right each time. */
        for (int run = 0; run < 2; run++) {
            ut_tensor *s = run == 0 ? u : t;
            for (int i = 0; i < op->input_count; i++) {
                ut_fill_random(&s[i], &rng, op->lo[i], op->hi[i]);
                MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, (size_t)i, t[i].tensor, s[i].block), ACLNN_SUCCESS);
            }
            MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, ut_op_output(op, t)->tensor, ut_op_output(op, s)->block), ACLNN_SUCCESS);
            double *before[2] = {ut_snapshot(&s[0]), op->input_count > 1 ? ut_snapshot(&s[1]) : NULL};
            MG_CHECK_EQ_INT(op->phase2(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
            MG_CHECK_EQ_INT(ut_op_check(op, before, ut_op_output(op, s), "refreshed run"), 0);
            free(before[0]);
            free(before[1]);
        }
        MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
        aclrtFree(small);
        free_all(op, t);
        free_all(op, u);
    }
}

/* ---- 7. values -------------------------------------------------------------------------- */

MG_TEST(random_values_every_dtype_around_block_and_tile_edges) {
    ut_init();
    mg_rng rng = {107};
    const int64_t lengths[] = {1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 257, 1000, 4099, 8193, 65537};
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
                ut_tensor t[3];
                make_dense(op, t, FLOAT_TYPES[k], 1, &lengths[l]);
                char what[64];
                snprintf(what, sizeof what, "dtype %d length %" PRId64, (int)FLOAT_TYPES[k], lengths[l]);
                MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, NULL, what), 0);
                free_all(op, t);
            }
        }
    }
}

/* In place at 300k+ elements (many blocks on every thread, so a claim that runs past its
   chunk overwrites results): the output is the same tensor object as input 0, and then a
   second descriptor over the same memory. Checked value by value. */
MG_TEST(large_in_place_every_element_right) {
    ut_init();
    mg_rng rng = {108};
    const int64_t n = 300007 + 4 * 8192;
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            ut_tensor t[3];
            for (int i = 0; i < op->input_count; i++) ut_tensor_dense(&t[i], FLOAT_TYPES[k], 1, &n);
            for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], &rng, op->lo[i], op->hi[i]);
            double *before[2] = {ut_snapshot(&t[0]), op->input_count > 1 ? ut_snapshot(&t[1]) : NULL};
            aclTensor *raw[3] = {t[0].tensor, op->input_count > 1 ? t[1].tensor : t[0].tensor, t[0].tensor};
            uint64_t ws = 99;
            aclOpExecutor *executor = NULL;
            MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(ws, 0);
            MG_CHECK_EQ_INT(op->phase2(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
            MG_CHECK_EQ_INT(ut_op_check(op, before, &t[0], "large, in place on input 0"), 0);
            if (op->input_count > 1) {
                /* The backward in place on self, through a second descriptor. */
                free(before[0]);
                free(before[1]);
                ut_fill_random(&t[0], &rng, op->lo[0], op->hi[0]);
                ut_fill_random(&t[1], &rng, op->lo[1], op->hi[1]);
                before[0] = ut_snapshot(&t[0]);
                before[1] = ut_snapshot(&t[1]);
                ut_tensor alias = t[1];
                alias.tensor = aclCreateTensor(&n, 1, FLOAT_TYPES[k], NULL, 0, ACL_FORMAT_ND, &n, 1, t[1].block);
                ut_tensor three[3] = {t[0], t[1], alias};
                MG_CHECK_EQ_INT(ut_op_run(op, three, ut_stream, &ws), ACLNN_SUCCESS);
                MG_CHECK_EQ_INT(ut_op_check(op, before, &t[1], "large, in place on self"), 0);
                aclDestroyTensor(alias.tensor);
            }
            free(before[0]);
            free(before[1]);
            for (int i = 0; i < op->input_count; i++) ut_tensor_free(&t[i]);
        }
    }
}

/* In place on a large non-contiguous tensor (transposed, and rows with gaps): Contiguous,
   kernel and ViewCopy each split over the pool, into and out of the same memory. */
MG_TEST(large_in_place_non_contiguous_every_element_right) {
    ut_init();
    mg_rng rng = {109};
    int64_t dims[2] = {611, 523}, transposed[2] = {1, 611}, gapped[2] = {530, 1};
    const int64_t *strides[2] = {transposed, gapped};
    FOR_EACH_OP(op) {
        for (int s = 0; s < 2; s++) {
            ut_tensor t[3];
            for (int i = 0; i < op->input_count; i++)
                ut_tensor_make(&t[i], ACL_FLOAT, 2, dims, i == 0 ? strides[s] : NULL, 0, -1, ACL_FORMAT_ND);
            for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], &rng, op->lo[i], op->hi[i]);
            double *before[2] = {ut_snapshot(&t[0]), op->input_count > 1 ? ut_snapshot(&t[1]) : NULL};
            ut_tensor alias = t[0];
            alias.tensor = aclCreateTensor(dims, 2, ACL_FLOAT, strides[s], 0, ACL_FORMAT_ND, &t[0].storage_elems, 1,
                                           t[0].block);
            ut_tensor all[3] = {t[0], op->input_count > 1 ? t[1] : alias, alias};
            uint64_t ws = 0;
            MG_CHECK_EQ_INT(ut_op_run(op, all, ut_stream, &ws), ACLNN_SUCCESS);
            MG_CHECK(ws > 0);
            MG_CHECK_EQ_INT(ut_op_check(op, before, &t[0], s ? "in place, gapped rows" : "in place, transposed"), 0);
            if (s == 1) {
                /* The gaps between rows still hold the sentinel. */
                size_t touched = 0;
                for (int64_t r = 0; r < dims[0] - 1; r++)
                    for (int64_t c = dims[1]; c < gapped[0]; c++)
                        touched += t[0].host[(size_t)(r * gapped[0] + c) * 4] != UT_SENTINEL_BYTE;
                MG_CHECK_EQ_INT(touched, 0);
            }
            aclDestroyTensor(alias.tensor);
            free(before[0]);
            free(before[1]);
            for (int i = 0; i < op->input_count; i++) ut_tensor_free(&t[i]);
        }
    }
}

/* A dense float32 output of 2^20 elements (streamed: >= 1 MiB per thread) at element
   offsets 1..15, so its start is misaligned for 64-byte streaming stores in every way
   but one: every element right, nothing before or after the view written. */
MG_TEST(streamed_output_at_every_element_offset) {
    ut_init();
    mg_rng rng = {110};
    const int64_t n = INT64_C(1) << 20;
    FOR_EACH_OP(op) {
        ut_tensor t[3];
        for (int offset = 1; offset <= 15; offset++) {
            for (int i = 0; i < ut_op_tensor_count(op); i++) {
                int is_out = ut_op_output(op, t) == &t[i];
                ut_tensor_make(&t[i], ACL_FLOAT, 1, &n, NULL, is_out ? offset : 0, n + (is_out ? 32 : 0), ACL_FORMAT_ND);
            }
            char what[48];
            snprintf(what, sizeof what, "streamed output at element offset %d", offset);
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, NULL, what), 0);
            ut_tensor *out = ut_op_output(op, t);
            if (!op->in_place) {
                size_t touched = 0;
                for (size_t b = 0; b < (size_t)offset * 4; b++) touched += out->host[b] != UT_SENTINEL_BYTE;
                for (size_t b = (size_t)(offset + n) * 4; b < out->bytes; b++) touched += out->host[b] != UT_SENTINEL_BYTE;
                MG_CHECK_EQ_INT(touched, 0);
            }
            free_all(op, t);
        }
    }
}

/* An output that overlaps an input partially (shifted by one element, both dense): the
   input is read before anything is written, so the results are as if out-of-place. */
MG_TEST(output_overlapping_an_input_partially_is_computed_from_the_old_values) {
    ut_init();
    mg_rng rng = {111};
    FOR_EACH_OP(op) {
        if (op->in_place) continue;
        for (int k = 0; k < 3; k++) {
            int64_t dims[1] = {20000};
            ut_tensor t[3];
            memset(t, 0, sizeof t);
            for (int i = 0; i < op->input_count; i++)
                ut_tensor_make(&t[i], FLOAT_TYPES[k], 1, dims, NULL, 0, 20001, ACL_FORMAT_ND);
            for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], &rng, op->lo[i], op->hi[i]);
            int last = op->input_count - 1;
            double *before[2] = {ut_snapshot(&t[0]), op->input_count > 1 ? ut_snapshot(&t[1]) : NULL};
            ut_tensor out = t[last];
            int64_t storage = 20001;
            out.offset = 1;
            out.tensor = aclCreateTensor(dims, 1, FLOAT_TYPES[k], NULL, 1, ACL_FORMAT_ND, &storage, 1, t[last].block);
            ut_tensor all[3] = {t[0], t[1], t[2]};
            all[op->input_count] = out;
            uint64_t ws = 0;
            MG_CHECK_EQ_INT(ut_op_run(op, all, ut_stream, &ws), ACLNN_SUCCESS);
            MG_CHECK(ws > 0); /* the overlapped input went through a copy */
            MG_CHECK_EQ_INT(ut_op_check(op, before, &out, "output shifted over an input"), 0);
            aclDestroyTensor(out.tensor);
            free(before[0]);
            free(before[1]);
            for (int i = 0; i < op->input_count; i++) ut_tensor_free(&t[i]);
        }
    }
}

MG_TEST(strided_output_leaves_storage_outside_its_view_untouched) {
    ut_init();
    mg_rng rng = {112};
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            int64_t dims[2] = {4, 3}, strides[2] = {8, 2};
            ut_tensor t[3];
            for (int i = 0; i < op->input_count; i++) ut_tensor_dense(&t[i], FLOAT_TYPES[k], 2, dims);
            ut_tensor *out = ut_op_output(op, t);
            if (op->in_place) ut_tensor_free(&t[0]);
            ut_tensor_make(out, FLOAT_TYPES[k], 2, dims, strides, 1, 40, ACL_FORMAT_ND);
            uint64_t ws = 0;
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "strided output"), 0);
            MG_CHECK(ws > 0);
            size_t es = ut_elem_size(FLOAT_TYPES[k]);
            unsigned char inside[40] = {0};
            for (int64_t i = 0; i < 12; i++) inside[ut_storage_index(out, i)] = 1;
            size_t touched = 0;
            for (int64_t e = 0; e < 40; e++) {
                if (inside[e]) continue;
                for (size_t b = 0; b < es; b++)
                    touched += out->host[(size_t)e * es + b] != UT_SENTINEL_BYTE;
            }
            MG_CHECK_EQ_INT(touched, 0);
            free_all(op, t);
        }
    }
}

MG_TEST(permuted_and_offset_views_up_to_8_dims) {
    ut_init();
    mg_rng rng = {113};
    /* size-1 dims among the eight, then every one of the eight moving (each launch describes
       its tensors as eight-dim accesses: nothing past the eighth entry may be touched, which
       the ASan+UBSan job bounds-checks) */
    static const int64_t shapes[2][8] = {{2, 1, 3, 2, 1, 2, 3, 2}, {2, 2, 2, 2, 2, 2, 2, 3}};
    int64_t d3[3] = {5, 7, 3}, permuted[3] = {1, 5, 35};
    FOR_EACH_OP(op) {
        for (int k = 0; k < 3; k++) {
            ut_tensor t[3];
            for (int shape = 0; shape < 2; shape++) {
                int64_t dims[8], reversed[8], step = 1;
                for (int i = 0; i < 8; i++) {
                    dims[i] = shapes[shape][i];
                    reversed[i] = step;
                    step *= dims[i];
                }
                for (int i = 0; i < ut_op_tensor_count(op); i++)
                    ut_tensor_make(&t[i], FLOAT_TYPES[k], 8, dims, reversed, 0, -1, ACL_FORMAT_ND);
                uint64_t ws = 0;
                MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "8-D reversed strides"), 0);
                MG_CHECK(ws > 0);
                free_all(op, t);
            }
            uint64_t ws = 0;
            for (int i = 0; i < ut_op_tensor_count(op); i++)
                ut_tensor_make(&t[i], FLOAT_TYPES[k], 3, d3, i % 2 ? permuted : NULL, 11 * (i + 1), 105 + 40,
                               ACL_FORMAT_ND);
            MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, &ws, "permuted and offset"), 0);
            free_all(op, t);
        }
    }
}

MG_TEST(launches_queue_in_order_on_one_stream_and_the_default_stream) {
    ut_init();
    mg_rng rng = {114};
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    FOR_EACH_OP(op) {
        /* Three launches planned first, run back to back, one synchronize. */
        int64_t dims[1] = {50000};
        ut_tensor t[3][3];
        aclOpExecutor *e[3];
        double *before[3][2];
        for (int l = 0; l < 3; l++) {
            make_dense(op, t[l], l == 2 ? ACL_BF16 : ACL_FLOAT, 1, dims);
            for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[l][i], &rng, op->lo[i], op->hi[i]);
            for (int i = 0; i < 2; i++) before[l][i] = i < op->input_count ? ut_snapshot(&t[l][i]) : NULL;
            aclTensor *raw[3];
            raw_of(op, t[l], raw);
            uint64_t ws = 0;
            MG_CHECK_EQ_INT(op->phase1(raw, &ws, &e[l]), ACLNN_SUCCESS);
        }
        for (int l = 0; l < 3; l++) MG_CHECK_EQ_INT(op->phase2(NULL, 0, e[l], l == 1 ? NULL : stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        for (int l = 0; l < 3; l++) {
            MG_CHECK_EQ_INT(ut_op_check(op, before[l], ut_op_output(op, t[l]), "queued launch"), 0);
            free(before[l][0]);
            free(before[l][1]);
            free_all(op, t[l]);
        }
    }
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
