/*
 * tests/ut/op_host/test_aclnn_mish_backward.c: what only aclnnMishBackward has: the
 * seed's reference examples, its special values, in place on either input, int64
 * overflow of its element count, and repeatable executors over non-contiguous tensors.
 * The contract it shares with aclnnMish / aclnnInplaceMish is in
 * test_elementwise_contract.c.
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
