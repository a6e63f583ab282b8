/*
 * tests/ut/op_host/test_aclnn_mish_backward.c: conformance of aclnnMishBackward to the
 * contract of issue 2 (one case per row of its table) and its values against an
 * independent double-precision reference.
 *
 * Every rejection checks three things: the status, that aclGetRecentErrMsg() names the
 * argument at fault, and that the output's storage (pre-filled with a sentinel) is intact.
 */
#include <stdint.h>

#include "ut_util.h"

/* Leaves a recent error message that names none of the operator's arguments, so a later
   check that the message names one proves the operator wrote it. */
static void prime_error_message(void) {
    (void)aclrtSetDevice(7);
}

static const char *recent_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(null)";
}

/* Phase 1 on raw tensors must fail with `code`, the message must name `argument`, and
   `guard` (when given) must still hold only the sentinel. */
static void expect_phase1_fails(const aclTensor *grad_output, const aclTensor *self,
                                aclTensor *grad_input, aclnnStatus code, const char *argument,
                                ut_tensor *guard, const char *what) {
    prime_error_message();
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = aclnnMishBackwardGetWorkspaceSize(grad_output, self, grad_input, &ws, &executor);
    mg_checks_done++;
    if (st != code) {
        MG_FAIL("%s: status %d, expected %d (message: %s)", what, st, code, recent_message());
    } else if (!strstr(recent_message(), argument)) {
        MG_FAIL("%s: message \"%s\" does not name %s", what, recent_message(), argument);
    }
    if (guard && ut_changed_bytes(guard) != 0) MG_FAIL("%s: the output was written", what);
    if (st == ACLNN_SUCCESS && executor) aclDestroyAclOpExecutor(executor);
}

/* Three dense float tensors of one shape, the output pre-filled with the sentinel. */
static void make_dense_trio(ut_tensor t[3], aclDataType dtype, int rank, const int64_t *dims) {
    for (int i = 0; i < 3; i++) ut_tensor_dense(&t[i], dtype, rank, dims);
}

static void free_trio(ut_tensor t[3]) {
    for (int i = 0; i < 3; i++) ut_tensor_free(&t[i]);
}

/* A descriptor written by hand, for the malformed ones ut_tensor_make cannot express. */
static aclTensor *raw_tensor(aclDataType dtype, int rank, const int64_t *dims, const int64_t *strides,
                             int64_t offset, int64_t storage_elems, void *data) {
    int64_t storage_dims[1] = {storage_elems};
    return aclCreateTensor(dims, (uint64_t)rank, dtype, strides, offset, ACL_FORMAT_ND, storage_dims,
                           1, data);
}

/* ---- before aclInit: this test is defined first, so it runs first ------------------- */

MG_TEST(before_aclinit_returns_runtime_error) {
    if (ut_acl_ready) {
        MG_FAIL("must run before any other test (run the executable without a filter)");
        return;
    }
    int64_t dims[1] = {4};
    float *memory[3];
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) {
        memory[i] = calloc(4, sizeof(float));
        t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, memory[i]);
        MG_CHECK(t[i] != NULL);
    }
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &executor),
                    ACLNN_ERR_RUNTIME_ERROR);
    MG_CHECK(strlen(recent_message()) > 0);
    for (int i = 0; i < 3; i++) {
        aclDestroyTensor(t[i]);
        free(memory[i]);
    }
}

/* ---- the contract table, row by row -------------------------------------------------- */

MG_TEST(null_workspace_size_pointer_is_161001) {
    ut_init();
    int64_t dims[1] = {8};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    prime_error_message();
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, NULL, &executor),
                    ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(recent_message(), "workspaceSize");
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    free_trio(t);
}

MG_TEST(null_executor_pointer_is_161001) {
    ut_init();
    int64_t dims[1] = {8};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    prime_error_message();
    uint64_t ws = 0;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, NULL),
                    ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(recent_message(), "executor");
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    free_trio(t);
}

MG_TEST(null_tensors_are_161001_named_in_order) {
    ut_init();
    int64_t dims[1] = {8};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    expect_phase1_fails(NULL, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_NULLPTR, "gradOutput", &t[2],
                        "gradOutput NULL");
    expect_phase1_fails(t[0].tensor, NULL, t[2].tensor, ACLNN_ERR_PARAM_NULLPTR, "self", &t[2],
                        "self NULL");
    expect_phase1_fails(t[0].tensor, t[1].tensor, NULL, ACLNN_ERR_PARAM_NULLPTR, "gradInput", NULL,
                        "gradInput NULL");
    /* Checked in the order gradOutput, self, gradInput: the first NULL one is named. */
    expect_phase1_fails(NULL, NULL, NULL, ACLNN_ERR_PARAM_NULLPTR, "gradOutput", NULL, "all NULL");
    expect_phase1_fails(t[0].tensor, NULL, NULL, ACLNN_ERR_PARAM_NULLPTR, "self", NULL,
                        "self and gradInput NULL");
    free_trio(t);
}

MG_TEST(dtype_outside_float_types_is_161002) {
    ut_init();
    int64_t dims[2] = {2, 3};
    ut_tensor t[3];
    make_dense_trio(t, ACL_DOUBLE, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput",
                        &t[2], "all DOUBLE");
    free_trio(t);

    make_dense_trio(t, ACL_INT32, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput",
                        &t[2], "all INT32");
    free_trio(t);

    /* Only the output has an unsupported type: it is the one named. */
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, dims);
    ut_tensor_dense(&t[1], ACL_FLOAT, 2, dims);
    ut_tensor_dense(&t[2], ACL_INT32, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradInput",
                        &t[2], "gradInput INT32");
    free_trio(t);

    const aclDataType others[] = {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_BOOL, ACL_COMPLEX64};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        make_dense_trio(t, others[i], 2, dims);
        char what[64];
        snprintf(what, sizeof what, "all dtype %d", (int)others[i]);
        expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID,
                            "gradOutput", &t[2], what);
        free_trio(t);
    }
}

MG_TEST(mixed_dtypes_are_161002) {
    ut_init();
    int64_t dims[2] = {2, 3};
    ut_tensor t[3];
    /* No promotion: FLOAT16 self with FLOAT gradients is refused, naming self. */
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, dims);
    ut_tensor_dense(&t[1], ACL_FLOAT16, 2, dims);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self FLOAT16, others FLOAT");
    free_trio(t);

    ut_tensor_dense(&t[0], ACL_FLOAT16, 2, dims);
    ut_tensor_dense(&t[1], ACL_FLOAT16, 2, dims);
    ut_tensor_dense(&t[2], ACL_BF16, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradInput",
                        &t[2], "gradInput BF16, others FLOAT16");
    free_trio(t);

    ut_tensor_dense(&t[0], ACL_BF16, 2, dims);
    ut_tensor_dense(&t[1], ACL_FLOAT, 2, dims);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput",
                        &t[2], "gradOutput BF16, others FLOAT");
    free_trio(t);
}

MG_TEST(rank_above_8_is_161002) {
    ut_init();
    int64_t dims[9] = {1, 2, 1, 1, 1, 1, 1, 1, 2};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 9, dims);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput",
                        &t[2], "rank 9");
    free_trio(t);

    /* Only self has rank 9 (same element count as the rank-2 others). */
    int64_t dims2[2] = {2, 2};
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, dims2);
    ut_tensor_dense(&t[1], ACL_FLOAT, 9, dims);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, dims2);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self rank 9");
    free_trio(t);
}

MG_TEST(unequal_shapes_are_161002_even_when_broadcastable) {
    ut_init();
    int64_t d23[2] = {2, 3}, d13[2] = {1, 3}, d3[1] = {3}, d32[2] = {3, 2};
    ut_tensor t[3];
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, d23);
    ut_tensor_dense(&t[1], ACL_FLOAT, 2, d13);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, d23);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self [1,3] vs [2,3]");
    free_trio(t);

    ut_tensor_dense(&t[0], ACL_FLOAT, 2, d23);
    ut_tensor_dense(&t[1], ACL_FLOAT, 2, d23);
    ut_tensor_dense(&t[2], ACL_FLOAT, 1, d3);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradInput",
                        &t[2], "gradInput [3] vs [2,3]");
    free_trio(t);

    /* Same element count, different shape. */
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, d32);
    ut_tensor_dense(&t[1], ACL_FLOAT, 2, d23);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, d23);
    expect_phase1_fails(t[0].tensor, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "gradOutput [3,2] vs self [2,3]");
    free_trio(t);
}

MG_TEST(empty_tensor_succeeds_with_zero_workspace) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    int64_t dims[3] = {2, 0, 3};
    for (int k = 0; k < 3; k++) {
        ut_tensor t[3];
        make_dense_trio(t, types[k], 3, dims);  /* no storage: data is NULL */
        uint64_t ws = 99;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                        ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        MG_CHECK(executor != NULL);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        free_trio(t);
    }
    /* An empty view over real storage writes nothing there. */
    int64_t empty[2] = {0, 4};
    ut_tensor t[3];
    for (int i = 0; i < 3; i++) ut_tensor_make(&t[i], ACL_FLOAT, 2, empty, NULL, 0, 16, ACL_FORMAT_ND);
    uint64_t ws = 99;
    MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(ws, 0);
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    free_trio(t);
}

MG_TEST(formats_are_not_a_reason_to_fail) {
    ut_init();
    const aclFormat formats[] = {ACL_FORMAT_NCHW, ACL_FORMAT_HWCN, ACL_FORMAT_NHWC, ACL_FORMAT_ND,
                                 ACL_FORMAT_NDHWC, ACL_FORMAT_NCDHW, ACL_FORMAT_UNDEFINED};
    const size_t count = sizeof formats / sizeof formats[0];
    int64_t dims[4] = {2, 3, 2, 2};
    mg_rng rng = {1};
    for (size_t f = 0; f < count; f++) {
        ut_tensor t[3];
        /* The three tensors need not even agree on their format. */
        for (int i = 0; i < 3; i++) {
            ut_tensor_make(&t[i], ACL_FLOAT, 4, dims, NULL, 0, -1, formats[(f + (size_t)i) % count]);
        }
        ut_fill_random(&t[0], &rng, -2, 2);
        ut_fill_random(&t[1], &rng, -5, 5);
        uint64_t ws = 99;
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        ut_check_values(&t[0], &t[1], &t[2], "format");
        free_trio(t);
    }
}

MG_TEST(negative_dim_is_161002) {
    ut_init();
    int64_t dims[2] = {2, -3}, strides[2] = {3, 1};
    ut_tensor guard;
    int64_t gdims[1] = {16};
    ut_tensor_dense(&guard, ACL_FLOAT, 1, gdims);
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = raw_tensor(ACL_FLOAT, 2, dims, strides, 0, 16, guard.block);
    expect_phase1_fails(t[0], t[1], t[2], ACLNN_ERR_PARAM_INVALID, "gradOutput", &guard, "dim -3");
    for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    ut_tensor_free(&guard);
}

MG_TEST(negative_stride_is_161002) {
    ut_init();
    int64_t dims[2] = {2, 3};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 2, dims);
    /* A view walking backwards from the end of its storage stays inside it, but negative
       strides are outside the contract. */
    int64_t strides[2] = {3, -1};
    aclTensor *bad = raw_tensor(ACL_FLOAT, 2, dims, strides, 2, 6, t[1].block);
    expect_phase1_fails(t[0].tensor, bad, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self stride -1");
    aclDestroyTensor(bad);
    free_trio(t);
}

MG_TEST(negative_offset_is_161002) {
    ut_init();
    int64_t dims[1] = {4};
    ut_tensor t[3];
    for (int i = 0; i < 3; i++) ut_tensor_make(&t[i], ACL_FLOAT, 1, dims, NULL, 0, 8, ACL_FORMAT_ND);
    /* Data points one element into the block, so offset -1 would still land inside it. */
    aclTensor *bad = raw_tensor(ACL_FLOAT, 1, dims, NULL, -1, 4, (float *)t[1].block + 1);
    expect_phase1_fails(t[0].tensor, bad, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self offset -1");
    aclDestroyTensor(bad);
    free_trio(t);
}

MG_TEST(element_count_overflowing_int64_is_161002) {
    ut_init();
    ut_tensor guard;
    int64_t gdims[1] = {16};
    ut_tensor_dense(&guard, ACL_FLOAT, 1, gdims);
    const int64_t shapes[3][3] = {
        {INT64_C(1) << 32, INT64_C(1) << 31, 1},   /* exactly 2^63 */
        {INT64_MAX, 2, 1},
        {INT64_C(3037000500), INT64_C(3037000500), 1},  /* just above sqrt(2^63) squared */
    };
    for (int s = 0; s < 3; s++) {
        aclTensor *t[3];
        /* Zero strides keep every stride product small: only the element count overflows. */
        int64_t strides[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) t[i] = raw_tensor(ACL_FLOAT, 3, shapes[s], strides, 0, 16, guard.block);
        expect_phase1_fails(t[0], t[1], t[2], ACLNN_ERR_PARAM_INVALID, "gradOutput", &guard, "numel overflow");
        for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    }
    /* Row-major strides that themselves overflow. */
    int64_t dims[2] = {INT64_C(1) << 40, INT64_C(1) << 30};
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = raw_tensor(ACL_FLOAT, 2, dims, NULL, 0, 16, guard.block);
    expect_phase1_fails(t[0], t[1], t[2], ACLNN_ERR_PARAM_INVALID, "gradOutput", &guard,
                        "row-major overflow");
    for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    ut_tensor_free(&guard);
}

MG_TEST(view_outside_its_storage_is_161002) {
    ut_init();
    int64_t dims[1] = {8};
    ut_tensor t[3];
    for (int i = 0; i < 3; i++) ut_tensor_make(&t[i], ACL_FLOAT, 1, dims, NULL, 0, 32, ACL_FORMAT_ND);
    /* The block is big enough; the declared storage (7 elements) is not. */
    aclTensor *bad = raw_tensor(ACL_FLOAT, 1, dims, NULL, 0, 7, t[2].block);
    expect_phase1_fails(t[0].tensor, t[1].tensor, bad, ACLNN_ERR_PARAM_INVALID, "gradInput", &t[2],
                        "gradInput view 8 in storage 7");
    aclDestroyTensor(bad);
    /* The offset pushes the last element past the storage. */
    bad = raw_tensor(ACL_FLOAT, 1, dims, NULL, 1, 8, t[2].block);
    expect_phase1_fails(t[0].tensor, t[1].tensor, bad, ACLNN_ERR_PARAM_INVALID, "gradInput", &t[2],
                        "gradInput offset 1 view 8 in storage 8");
    aclDestroyTensor(bad);
    /* A stride that walks past it. */
    int64_t d2[2] = {2, 4}, s2[2] = {5, 1};
    int64_t d2dense[2] = {2, 4};
    ut_tensor u[3];
    make_dense_trio(u, ACL_FLOAT, 2, d2dense);
    bad = raw_tensor(ACL_FLOAT, 2, d2, s2, 0, 8, t[1].block);
    expect_phase1_fails(u[0].tensor, bad, u[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &u[2],
                        "self stride 5 in storage 8");
    aclDestroyTensor(bad);
    free_trio(u);
    free_trio(t);
}

MG_TEST(storage_outside_its_allocation_is_161002) {
    ut_init();
    int64_t dims[1] = {8};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    /* 8 floats allocated, 9 declared. */
    int64_t dims9[1] = {9};
    ut_tensor g9[3];
    make_dense_trio(g9, ACL_FLOAT, 1, dims9);
    aclTensor *bad = raw_tensor(ACL_FLOAT, 1, dims9, NULL, 0, 9, t[1].block);
    expect_phase1_fails(g9[0].tensor, bad, g9[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &g9[2],
                        "self storage 9 in a block of 8");
    aclDestroyTensor(bad);
    /* Data in the middle of the block, storage reaching past its end. */
    bad = raw_tensor(ACL_FLOAT, 1, dims, NULL, 0, 8, (float *)t[1].block + 4);
    expect_phase1_fails(t[0].tensor, bad, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self data at block + 4");
    aclDestroyTensor(bad);
    free_trio(g9);
    free_trio(t);
}

MG_TEST(null_data_for_non_empty_view_is_161002) {
    ut_init();
    int64_t dims[2] = {2, 2};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 2, dims);
    aclTensor *bad = raw_tensor(ACL_FLOAT, 2, dims, NULL, 0, 4, NULL);
    expect_phase1_fails(t[0].tensor, bad, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2], "self NULL data");
    expect_phase1_fails(bad, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput", &t[2],
                        "gradOutput NULL data");
    aclDestroyTensor(bad);
    free_trio(t);
}

MG_TEST(data_not_from_aclrtmalloc_is_161002) {
    ut_init();
    int64_t dims[2] = {2, 2};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 2, dims);
    float *plain = calloc(4, sizeof(float));
    aclTensor *bad = raw_tensor(ACL_FLOAT, 2, dims, NULL, 0, 4, plain);
    expect_phase1_fails(bad, t[1].tensor, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "gradOutput", &t[2],
                        "gradOutput in malloc memory");
    aclDestroyTensor(bad);

    /* The output in plain memory: refused, and that memory is not written either. */
    float sentinel;
    memset(&sentinel, UT_SENTINEL_BYTE, sizeof sentinel);
    for (int i = 0; i < 4; i++) plain[i] = sentinel;
    bad = raw_tensor(ACL_FLOAT, 2, dims, NULL, 0, 4, plain);
    expect_phase1_fails(t[0].tensor, t[1].tensor, bad, ACLNN_ERR_PARAM_INVALID, "gradInput", NULL,
                        "gradInput in malloc memory");
    MG_CHECK(memcmp(&plain[0], &sentinel, 4) == 0 && memcmp(&plain[3], &sentinel, 4) == 0);
    aclDestroyTensor(bad);
    free(plain);

    /* A block already returned with aclrtFree is no longer device memory. */
    void *freed = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(freed), ACL_SUCCESS);
    bad = raw_tensor(ACL_FLOAT, 2, dims, NULL, 0, 4, freed);
    expect_phase1_fails(t[0].tensor, bad, t[2].tensor, ACLNN_ERR_PARAM_INVALID, "self", &t[2],
                        "self in a freed block");
    aclDestroyTensor(bad);
    free_trio(t);
}

MG_TEST(contiguous_tensors_need_no_workspace) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    int64_t dims[3] = {3, 1, 5};
    /* The stride of a size-1 dim does not matter: these are still contiguous. */
    int64_t odd_strides[3] = {5, 999, 1};
    mg_rng rng = {2};
    for (int k = 0; k < 3; k++) {
        ut_tensor t[3];
        ut_tensor_dense(&t[0], types[k], 3, dims);
        ut_tensor_make(&t[1], types[k], 3, dims, odd_strides, 0, 15, ACL_FORMAT_ND);
        ut_tensor_make(&t[2], types[k], 3, dims, odd_strides, 0, 15, ACL_FORMAT_ND);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -6, 6);
        uint64_t ws = 99;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                        ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        /* Phase 1 writes nothing. */
        MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_check_values(&t[0], &t[1], &t[2], "size-1 dim with odd stride");
        free_trio(t);
    }
}

static uint64_t round_up(uint64_t v, uint64_t to) {
    return (v + to - 1) / to * to;
}

MG_TEST(non_contiguous_tensors_need_their_dense_bytes_as_workspace) {
    ut_init();
    int64_t dims[2] = {6, 5};
    int64_t transposed[2] = {1, 6};
    mg_rng rng = {3};
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int k = 0; k < 3; k++) {
        size_t es = ut_elem_size(types[k]);
        uint64_t dense = 30 * es;
        /* How many of (gradOutput, self, gradInput) are non-contiguous: 1, 2, then 3. */
        for (int noncontiguous = 1; noncontiguous <= 3; noncontiguous++) {
            ut_tensor t[3];
            for (int i = 0; i < 3; i++) {
                int strided = i >= 3 - noncontiguous;
                ut_tensor_make(&t[i], types[k], 2, dims, strided ? transposed : NULL, 0, -1, ACL_FORMAT_ND);
            }
            ut_fill_random(&t[0], &rng, -3, 3);
            ut_fill_random(&t[1], &rng, -6, 6);
            uint64_t ws = 0;
            MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
            /* Each non-contiguous tensor needs one dense copy; regions may be padded for
               alignment, but never beyond 512 bytes each. */
            mg_checks_done++;
            if (ws < noncontiguous * dense || ws > noncontiguous * round_up(dense, 512)) {
                MG_FAIL("dtype %d, %d non-contiguous: workspace %" PRIu64 ", expected %" PRIu64
                        "..%" PRIu64, (int)types[k], noncontiguous, ws, noncontiguous * dense,
                        noncontiguous * round_up(dense, 512));
            }
            ut_check_values(&t[0], &t[1], &t[2], "non-contiguous");
            free_trio(t);
        }
    }
}

/* Phase 1 for a plan that needs workspace: self transposed, output strided. */
static void make_workspace_trio(ut_tensor t[3], mg_rng *rng) {
    int64_t dims[2] = {8, 5}, transposed[2] = {1, 8}, spaced[2] = {10, 2};
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, dims);
    ut_tensor_make(&t[1], ACL_FLOAT, 2, dims, transposed, 0, -1, ACL_FORMAT_ND);
    ut_tensor_make(&t[2], ACL_FLOAT, 2, dims, spaced, 0, 80, ACL_FORMAT_ND);
    ut_fill_random(&t[0], rng, -3, 3);
    ut_fill_random(&t[1], rng, -6, 6);
}

MG_TEST(phase2_null_executor_is_161001) {
    ut_init();
    prime_error_message();
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, NULL, ut_stream), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(recent_message(), "executor");
}

MG_TEST(phase2_null_workspace_is_161001_and_writes_nothing) {
    ut_init();
    mg_rng rng = {4};
    ut_tensor t[3];
    make_workspace_trio(t, &rng);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK(ws > 0);
    prime_error_message();
    /* The single-use executor is released by this failing call (LeakSanitizer would see). */
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws, executor, ut_stream), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(recent_message(), "workspace");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    /* Released: the handle is no longer an executor (an error, not a crash). */
    MG_CHECK(aclSetAclOpExecutorRepeatable(executor) != ACLNN_SUCCESS);
    free_trio(t);
}

MG_TEST(phase2_small_workspace_is_161002_and_writes_nothing) {
    ut_init();
    mg_rng rng = {5};
    ut_tensor t[3];
    make_workspace_trio(t, &rng);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK(ws > 0);
    void *workspace = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    prime_error_message();
    MG_CHECK_EQ_INT(aclnnMishBackward(workspace, ws - 1, executor, ut_stream), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(recent_message(), "workspace");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);

    /* A workspace that claims the size but is not an aclrtMalloc block of that size. */
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    void *small = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    prime_error_message();
    aclnnStatus st = aclnnMishBackward(small, ws, executor, ut_stream);
    mg_checks_done++;
    if (st != ACLNN_ERR_PARAM_INVALID) {
        MG_FAIL("workspace block of 64 bytes declared as %" PRIu64 ": status %d, expected %d", ws, st,
                ACLNN_ERR_PARAM_INVALID);
    }
    MG_CHECK_STR_CONTAINS(recent_message(), "workspace");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    aclrtFree(small);

    /* More workspace than asked for is fine. */
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    void *large = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&large, ws + 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(large, ws + 4096, executor, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    ut_check_values(&t[0], &t[1], &t[2], "larger workspace");
    aclrtFree(large);
    aclrtFree(workspace);
    free_trio(t);
}

MG_TEST(single_use_executor_second_run_is_an_error) {
    ut_init();
    int64_t dims[1] = {100};
    mg_rng rng = {6};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    ut_check_values(&t[0], &t[1], &t[2], "first run");
    ut_fill_sentinel(&t[2]);
    prime_error_message();
    aclnnStatus st = aclnnMishBackward(NULL, 0, executor, ut_stream);
    aclError sync = aclrtSynchronizeStream(ut_stream);
    MG_CHECK(st != ACLNN_SUCCESS || sync != ACL_SUCCESS);
    MG_CHECK_STR_CONTAINS(recent_message(), "executor");
    MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    /* Neither may it become repeatable after the fact. */
    MG_CHECK(aclSetAclOpExecutorRepeatable(executor) != ACLNN_SUCCESS);
    free_trio(t);
}

MG_TEST(in_place_gradinput_aliasing_gradoutput) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    mg_rng rng = {7};
    for (int k = 0; k < 3; k++) {
        int64_t dims[2] = {37, 29};
        ut_tensor t[2];
        ut_tensor_dense(&t[0], types[k], 2, dims);
        ut_tensor_dense(&t[1], types[k], 2, dims);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -6, 6);
        /* A second descriptor over gradOutput's memory. */
        ut_tensor out = t[0];
        out.host = malloc(t[0].bytes);
        memcpy(out.host, t[0].host, t[0].bytes);
        int64_t storage[1] = {37 * 29};
        out.tensor = aclCreateTensor(dims, 2, types[k], NULL, 0, ACL_FORMAT_ND, storage, 1, t[0].block);
        uint64_t ws = 99;
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &out, ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        ut_check_values(&t[0], &t[1], &out, "gradInput aliasing gradOutput");

        /* The very same tensor object as gradOutput and gradInput. */
        ut_fill_random(&t[0], &rng, -3, 3);
        uint64_t ws2 = 99;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[0].tensor, &ws2, &executor),
                        ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        ut_tensor result = out;
        ut_check_values(&t[0], &t[1], &result, "same tensor object");

        aclDestroyTensor(out.tensor);
        free(out.host);
        ut_tensor_free(&t[0]);
        ut_tensor_free(&t[1]);
    }
}

MG_TEST(in_place_non_contiguous) {
    ut_init();
    /* gradInput aliases a transposed gradOutput: Contiguous, kernel, ViewCopy must still
       produce the right values in place. */
    mg_rng rng = {8};
    int64_t dims[2] = {9, 7}, transposed[2] = {1, 9};
    ut_tensor g, x;
    ut_tensor_make(&g, ACL_FLOAT, 2, dims, transposed, 0, -1, ACL_FORMAT_ND);
    ut_tensor_dense(&x, ACL_FLOAT, 2, dims);
    ut_fill_random(&g, &rng, -3, 3);
    ut_fill_random(&x, &rng, -6, 6);
    ut_tensor out = g;
    out.host = malloc(g.bytes);
    int64_t storage[1] = {63};
    out.tensor = aclCreateTensor(dims, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, storage, 1, g.block);
    MG_CHECK_EQ_INT(ut_run(&g, &x, &out, ut_stream, NULL), ACLNN_SUCCESS);
    ut_check_values(&g, &x, &out, "in place, transposed");
    aclDestroyTensor(out.tensor);
    free(out.host);
    ut_tensor_free(&g);
    ut_tensor_free(&x);
}

MG_TEST(strided_output_leaves_storage_outside_its_view_untouched) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    mg_rng rng = {9};
    for (int k = 0; k < 3; k++) {
        /* View [4, 3] with strides [8, 2] at offset 1 of a 40-element storage: every other
           element of each row, rows 8 apart, and a tail after the last row. */
        int64_t dims[2] = {4, 3}, strides[2] = {8, 2};
        ut_tensor t[3];
        ut_tensor_dense(&t[0], types[k], 2, dims);
        ut_tensor_dense(&t[1], types[k], 2, dims);
        ut_tensor_make(&t[2], types[k], 2, dims, strides, 1, 40, ACL_FORMAT_ND);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -6, 6);
        uint64_t ws = 0;
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK(ws > 0);
        ut_check_values(&t[0], &t[1], &t[2], "strided output");
        /* Every storage byte outside the view still holds the sentinel. */
        size_t es = ut_elem_size(types[k]);
        unsigned char *inside = calloc((size_t)t[2].storage_elems, 1);
        for (int64_t i = 0; i < 12; i++) inside[ut_storage_index(&t[2], i)] = 1;
        size_t touched = 0;
        for (int64_t e = 0; e < t[2].storage_elems; e++) {
            if (inside[e]) continue;
            for (size_t b = 0; b < es; b++) touched += t[2].host[(size_t)e * es + b] != UT_SENTINEL_BYTE;
        }
        MG_CHECK_EQ_INT(touched, 0);
        free(inside);
        free_trio(t);
    }
}

/* ---- values ------------------------------------------------------------------------------ */

static void check_reference_example(const float *grad, const float *x, const float *expected, int n) {
    int64_t dims[1] = {n};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    for (int i = 0; i < n; i++) {
        ut_set(&t[0], i, grad[i]);
        ut_set(&t[1], i, x[i]);
    }
    ut_upload(&t[0]);
    ut_upload(&t[1]);
    MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, NULL), ACLNN_SUCCESS);
    ut_download(&t[2]);
    for (int i = 0; i < n; i++) {
        /* The page prints 6 decimals: 1e-6 relative, or half a unit of the 6th decimal. */
        double tol = fmax(1e-6 * fabs(expected[i]), 5.01e-7);
        MG_CHECK_NEAR(ut_get(&t[2], i), expected[i], tol);
        /* And our own reference agrees with the page. */
        MG_CHECK_NEAR(grad[i] * ut_mish_grad_ref(x[i]), expected[i], tol);
    }
    ut_check_values(&t[0], &t[1], &t[2], "reference example");
    free_trio(t);
}

MG_TEST(reference_example_1) {
    ut_init();
    const float grad[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float x[8] = {1, 1, 1, 2, 2, 2, 3, 3};
    const float expected[8] = {0.0f, 1.049036f, 2.098072f, 3.207954f,
                               4.277272f, 5.346590f, 6.126641f, 7.147748f};
    check_reference_example(grad, x, expected, 8);
    /* mish'(0) = 0.6 */
    const float one[1] = {1}, zero[1] = {0}, point_six[1] = {0.6f};
    check_reference_example(one, zero, point_six, 1);
}

MG_TEST(reference_example_2) {
    ut_init();
    const float grad[8] = {1, -0.5f, 0.25f, 1.5f, -1, 0.75f, 0.5f, -0.25f};
    const float x[8] = {-3, -1, -0.1f, 0, 0.2f, 1.5f, 3, 5};
    const float expected[8] = {-0.093393f, -0.029608f, 0.133926f, 0.9f,
                               -0.724625f, 0.816366f, 0.510553f, -0.250200f};
    check_reference_example(grad, x, expected, 8);
}

/* Random values of one dtype, self over [-12, 12] (both saturated ends and the root) and a
   few lengths around block and tile edges. */
static void check_random(aclDataType dtype, uint64_t seed) {
    ut_init();
    mg_rng rng = {seed};
    const int64_t lengths[] = {1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 4099, 65537, 300007};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t dims[1] = {lengths[l]};
        ut_tensor t[3];
        make_dense_trio(t, dtype, 1, dims);
        ut_fill_random(&t[0], &rng, -4, 4);
        ut_fill_random(&t[1], &rng, -12, 12);
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, NULL), ACLNN_SUCCESS);
        char what[64];
        snprintf(what, sizeof what, "dtype %d length %" PRId64, (int)dtype, lengths[l]);
        ut_check_values(&t[0], &t[1], &t[2], what);
        free_trio(t);
    }
}

MG_TEST(random_float32) { check_random(ACL_FLOAT, 10); }
MG_TEST(random_float16) { check_random(ACL_FLOAT16, 11); }
MG_TEST(random_bfloat16) { check_random(ACL_BF16, 12); }

MG_TEST(special_values) {
    ut_init();
    /* NaN propagates; +-inf gives NaN (PyTorch); saturated ends give gradOutput and ~0. */
    const double x[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 30.0, 100.0, -30.0, -100.0, 88.0, -88.0, -1.19243};
    const int n = (int)(sizeof x / sizeof x[0]);
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int k = 0; k < 3; k++) {
        int64_t dims[1] = {n};
        ut_tensor t[3];
        make_dense_trio(t, types[k], 1, dims);
        for (int i = 0; i < n; i++) {
            ut_set(&t[0], i, 1.5);
            ut_set(&t[1], i, x[i]);
        }
        ut_upload(&t[0]);
        ut_upload(&t[1]);
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, NULL), ACLNN_SUCCESS);
        ut_check_values(&t[0], &t[1], &t[2], "special values");
        free_trio(t);
    }
}

MG_TEST(transposed_and_offset_inputs) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    mg_rng rng = {13};
    for (int k = 0; k < 3; k++) {
        int64_t dims[3] = {5, 7, 3};
        /* gradOutput: dense rows at offset 11 of a bigger storage; self: a permuted view
           (dims [5,7,3] read from a [3,7,5] buffer); output dense. */
        int64_t permuted[3] = {1, 5, 35};
        ut_tensor t[3];
        ut_tensor_make(&t[0], types[k], 3, dims, NULL, 11, 105 + 20, ACL_FORMAT_ND);
        ut_tensor_make(&t[1], types[k], 3, dims, permuted, 0, -1, ACL_FORMAT_NCHW);
        ut_tensor_dense(&t[2], types[k], 3, dims);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -8, 8);
        uint64_t ws = 0;
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK(ws > 0);
        ut_check_values(&t[0], &t[1], &t[2], "transposed and offset inputs");
        free_trio(t);

        /* Offset alone keeps a tensor contiguous: no workspace. */
        ut_tensor_make(&t[0], types[k], 3, dims, NULL, 3, -1, ACL_FORMAT_ND);
        ut_tensor_make(&t[1], types[k], 3, dims, NULL, 5, -1, ACL_FORMAT_ND);
        ut_tensor_make(&t[2], types[k], 3, dims, NULL, 7, -1, ACL_FORMAT_ND);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -8, 8);
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        ut_check_values(&t[0], &t[1], &t[2], "offset, contiguous");
        MG_CHECK_EQ_INT(t[2].host[0], UT_SENTINEL_BYTE);  /* before the offset */
        free_trio(t);
    }
}

MG_TEST(expanded_input_with_zero_stride) {
    ut_init();
    /* self broadcast along dim 0 by a zero stride, as an expand() view would be. */
    mg_rng rng = {14};
    int64_t dims[2] = {4, 6}, expanded[2] = {0, 1};
    ut_tensor t[3];
    ut_tensor_dense(&t[0], ACL_FLOAT, 2, dims);
    ut_tensor_make(&t[1], ACL_FLOAT, 2, dims, expanded, 0, 6, ACL_FORMAT_ND);
    ut_tensor_dense(&t[2], ACL_FLOAT, 2, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, NULL), ACLNN_SUCCESS);
    ut_check_values(&t[0], &t[1], &t[2], "zero-stride self");
    free_trio(t);
}

MG_TEST(eight_dims) {
    ut_init();
    mg_rng rng = {15};
    int64_t dims[8] = {2, 1, 3, 2, 1, 2, 3, 2};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 8, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    uint64_t ws = 99;
    MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(ws, 0);
    ut_check_values(&t[0], &t[1], &t[2], "8-D dense");
    free_trio(t);

    /* Every dim permuted (reversed strides) on all three, output included. */
    int64_t reversed[8];
    int64_t step = 1;
    for (int i = 0; i < 8; i++) {
        reversed[i] = step;
        step *= dims[i];
    }
    const aclDataType types[2] = {ACL_FLOAT16, ACL_FLOAT};
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 3; i++) ut_tensor_make(&t[i], types[k], 8, dims, reversed, 0, -1, ACL_FORMAT_ND);
        ut_fill_random(&t[0], &rng, -3, 3);
        ut_fill_random(&t[1], &rng, -6, 6);
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK(ws > 0);
        ut_check_values(&t[0], &t[1], &t[2], "8-D reversed strides");
        free_trio(t);
    }
}

MG_TEST(scalar_rank_0) {
    ut_init();
    const aclDataType types[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int k = 0; k < 3; k++) {
        ut_tensor t[3];
        make_dense_trio(t, types[k], 0, NULL);
        MG_CHECK_EQ_INT(ut_numel(&t[0]), 1);
        ut_set(&t[0], 0, 2.0);
        ut_set(&t[1], 0, 1.0);
        ut_upload(&t[0]);
        ut_upload(&t[1]);
        uint64_t ws = 99;
        MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        ut_check_values(&t[0], &t[1], &t[2], "scalar");
        MG_CHECK_NEAR(ut_get(&t[2], 0), 2.098072, types[k] == ACL_FLOAT ? 1e-6 : 2e-2);
        free_trio(t);
    }
}

MG_TEST(several_launches_on_one_stream_then_one_synchronize) {
    ut_init();
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    mg_rng rng = {16};
    int64_t dims[1] = {50000};
    int64_t dims2[2] = {100, 77}, transposed[2] = {1, 100};
    ut_tensor g, x, out1, out2, a, b, c;
    ut_tensor_dense(&g, ACL_FLOAT, 1, dims);
    ut_tensor_dense(&x, ACL_FLOAT, 1, dims);
    ut_tensor_dense(&out1, ACL_FLOAT, 1, dims);
    ut_tensor_dense(&out2, ACL_FLOAT, 1, dims);
    ut_tensor_dense(&a, ACL_FLOAT16, 2, dims2);
    ut_tensor_make(&b, ACL_FLOAT16, 2, dims2, transposed, 0, -1, ACL_FORMAT_ND);
    ut_tensor_make(&c, ACL_FLOAT16, 2, dims2, transposed, 0, -1, ACL_FORMAT_ND);
    ut_fill_random(&g, &rng, -3, 3);
    ut_fill_random(&x, &rng, -6, 6);
    ut_fill_random(&a, &rng, -3, 3);
    ut_fill_random(&b, &rng, -6, 6);

    /* out2 depends on out1: in-order execution is what makes it right. Every plan is made
       before anything runs. */
    aclOpExecutor *e1 = NULL, *e2 = NULL, *e3 = NULL;
    uint64_t ws1 = 0, ws2 = 0, ws3 = 0;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g.tensor, x.tensor, out1.tensor, &ws1, &e1), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(out1.tensor, x.tensor, out2.tensor, &ws2, &e2), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(a.tensor, b.tensor, c.tensor, &ws3, &e3), ACLNN_SUCCESS);
    void *workspace3 = NULL;
    MG_CHECK(ws3 > 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace3, ws3, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws1, e1, stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws2, e2, stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(workspace3, ws3, e3, stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_SUCCESS);

    ut_check_values(&g, &x, &out1, "first launch");
    ut_check_values(&out1, &x, &out2, "second launch (reads the first's output)");
    ut_check_values(&a, &b, &c, "third launch");
    aclrtFree(workspace3);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    ut_tensor_free(&g);
    ut_tensor_free(&x);
    ut_tensor_free(&out1);
    ut_tensor_free(&out2);
    ut_tensor_free(&a);
    ut_tensor_free(&b);
    ut_tensor_free(&c);
}

MG_TEST(null_stream_is_the_default_stream) {
    ut_init();
    mg_rng rng = {17};
    int64_t dims[2] = {33, 65};
    ut_tensor t[3];
    make_dense_trio(t, ACL_BF16, 2, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    MG_CHECK_EQ_INT(ut_run(&t[0], &t[1], &t[2], NULL, NULL), ACLNN_SUCCESS);
    ut_check_values(&t[0], &t[1], &t[2], "default stream");
    free_trio(t);
}

MG_TEST(repeatable_executor_with_refreshed_addresses) {
    ut_init();
    mg_rng rng = {18};
    /* Non-contiguous self and output, so the refreshed addresses must reach the Contiguous
       and ViewCopy steps too, not only the kernel. */
    int64_t dims[2] = {12, 10}, transposed[2] = {1, 12}, spaced[2] = {20, 2};
    ut_tensor set[3][3];
    for (int s = 0; s < 3; s++) {
        ut_tensor_dense(&set[s][0], ACL_FLOAT, 2, dims);
        ut_tensor_make(&set[s][1], ACL_FLOAT, 2, dims, transposed, 0, -1, ACL_FORMAT_ND);
        ut_tensor_make(&set[s][2], ACL_FLOAT, 2, dims, spaced, 0, 240, ACL_FORMAT_ND);
    }
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(set[0][0].tensor, set[0][1].tensor, set[0][2].tensor,
                                                      &ws, &executor), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    void *workspace = NULL;
    MG_CHECK(ws > 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

    /* Runs: set 0, set 1, set 2, then set 0 again with new data. */
    const int order[4] = {0, 1, 2, 0};
    for (int r = 0; r < 4; r++) {
        ut_tensor *u = set[order[r]];
        ut_fill_random(&u[0], &rng, -3, 3);
        ut_fill_random(&u[1], &rng, -6, 6);
        ut_fill_sentinel(&u[2]);
        if (r > 0) {
            MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, 0, set[0][0].tensor, u[0].block), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, 1, set[0][1].tensor, u[1].block), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, set[0][2].tensor, u[2].block), ACLNN_SUCCESS);
            void *addr = NULL;
            MG_CHECK_EQ_INT(aclGetRawTensorAddr(set[0][0].tensor, &addr), ACLNN_SUCCESS);
            MG_CHECK(addr == u[0].block);
        }
        MG_CHECK_EQ_INT(aclnnMishBackward(workspace, ws, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        char what[48];
        snprintf(what, sizeof what, "repeatable run %d (set %d)", r + 1, order[r]);
        ut_check_values(&u[0], &u[1], &u[2], what);
        /* The other sets' outputs were not written by this run. */
        for (int s = 0; s < 3; s++) {
            if (s != order[r] && r < 3 && s > r) MG_CHECK_EQ_INT(ut_changed_bytes(&set[s][2]), 0);
        }
    }
    /* Out-of-range slots are refused. */
    MG_CHECK(aclSetInputTensorAddr(executor, 2, set[0][0].tensor, set[0][0].block) != ACLNN_SUCCESS);
    MG_CHECK(aclSetOutputTensorAddr(executor, 1, set[0][2].tensor, set[0][2].block) != ACLNN_SUCCESS);
    /* CANN documents 561103 (ACLNN_ERR_INNER_NULLPTR) for a NULL executor here. */
    MG_CHECK_EQ_INT(aclSetInputTensorAddr(NULL, 0, set[0][0].tensor, set[0][0].block), ACLNN_ERR_INNER_NULLPTR);
    /* A repeatable executor that has run cannot be made repeatable again. */
    MG_CHECK(aclSetAclOpExecutorRepeatable(executor) != ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    aclrtFree(workspace);
    for (int s = 0; s < 3; s++) free_trio(set[s]);
}

MG_TEST(repeatable_executor_refuses_memory_not_from_aclrtmalloc) {
    ut_init();
    mg_rng rng = {19};
    int64_t dims[1] = {64};
    ut_tensor t[3];
    make_dense_trio(t, ACL_FLOAT, 1, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                    ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    float *plain = malloc(64 * sizeof(float));
    float sentinel;
    memset(&sentinel, UT_SENTINEL_BYTE, sizeof sentinel);
    for (int i = 0; i < 64; i++) plain[i] = sentinel;
    /* Refused either when the address is set or when the executor runs; never written. */
    aclnnStatus set_status = aclSetOutputTensorAddr(executor, 0, t[2].tensor, plain);
    aclnnStatus run_status = ACLNN_SUCCESS;
    if (set_status == ACLNN_SUCCESS) {
        run_status = aclnnMishBackward(NULL, 0, executor, ut_stream);
        if (run_status == ACLNN_SUCCESS) run_status = aclrtSynchronizeStream(ut_stream);
        MG_CHECK_EQ_INT(run_status, ACLNN_ERR_PARAM_INVALID);
    } else {
        MG_CHECK_EQ_INT(set_status, ACLNN_ERR_PARAM_INVALID);
    }
    MG_CHECK_STR_CONTAINS(recent_message(), "gradInput");
    int intact = 1;
    for (int i = 0; i < 64; i++) intact &= memcmp(&plain[i], &sentinel, 4) == 0;
    MG_CHECK(intact);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    free(plain);
    free_trio(t);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
