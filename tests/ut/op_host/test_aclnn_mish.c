/*
 * tests/ut/op_host/test_aclnn_mish.c: what only the forward pair has: ops-nn's example
 * values, special values as PyTorch's F.mish gives them (signed zeros included), in place
 * through every form (aclnnInplaceMish, aclnnMish with out == self, a second descriptor
 * over self's memory), and repeatable in-place executors. The shared contract is in
 * test_elementwise_contract.c.
 */
#include <stdint.h>

#include "mg_gate.h"
#include "ut_util.h"

static const aclDataType FLOAT_TYPES[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/* ops-nn's example (docs/aclnnMish&aclnnInplaceMish.md): self = {1, 2, 3, 4, 5, 7, 8, 9},
   shape [4, 2], through both operators; the values as printed with 6 decimals. */
MG_TEST(ops_nn_example_values) {
    ut_init();
    const double x[8] = {1, 2, 3, 4, 5, 7, 8, 9};
    const double printed[8] = {0.865098, 1.943959, 2.986535, 3.997413, 4.999552, 6.999988, 7.999998, 9.000000};
    int64_t dims[2] = {4, 2};
    for (int form = 0; form < 2; form++) {
        ut_tensor self, out;
        ut_tensor_dense(&self, ACL_FLOAT, 2, dims);
        ut_tensor_dense(&out, ACL_FLOAT, 2, dims);
        for (int i = 0; i < 8; i++) ut_set(&self, i, x[i]);
        ut_upload(&self);
        ut_tensor t[2] = {self, out};
        uint64_t ws = 99;
        MG_CHECK_EQ_INT(ut_op_run(form ? &UT_INPLACE_MISH : &UT_MISH, t, ut_stream, &ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        ut_tensor *result = form ? &self : &out;
        ut_download(result);
        for (int i = 0; i < 8; i++) {
            MG_CHECK_NEAR(ut_get(result, i), printed[i], 5.01e-7 + 1e-6 * printed[i]);
            MG_CHECK_NEAR(ut_mish_ref(x[i]), printed[i], 5.01e-7 + 1e-6 * printed[i]);
        }
        if (!form) {
            /* aclnnMish leaves self alone. */
            ut_download(&self);
            for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(ut_get(&self, i), x[i]);
        }
        ut_tensor_free(&self);
        ut_tensor_free(&out);
    }
}

/* PyTorch's F.mish: NaN stays NaN, +inf gives +inf, -inf gives NaN (-inf * tanh(0)), zeros
   keep their sign, the far negative tail goes to -0 through the subnormals. */
MG_TEST(special_values_as_pytorch_gives_them) {
    ut_init();
    const double x[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-40, -1e-40, 20.0, 88.0, 1e30,
                        -20.0, -88.0, -104.0, -110.0, -1e30, -0.5, -1.19243};
    const int n = (int)(sizeof x / sizeof x[0]);
    for (int k = 0; k < 3; k++) {
        int64_t dims[1] = {n};
        ut_tensor t[2];
        ut_tensor_dense(&t[0], FLOAT_TYPES[k], 1, dims);
        ut_tensor_dense(&t[1], FLOAT_TYPES[k], 1, dims);
        for (int i = 0; i < n; i++) ut_set(&t[0], i, x[i]);
        ut_upload(&t[0]);
        double *before[1] = {ut_snapshot(&t[0])};
        MG_CHECK_EQ_INT(ut_op_run(&UT_MISH, t, ut_stream, NULL), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ut_op_check(&UT_MISH, before, &t[1], "special values"), 0);
        MG_CHECK(isinf(ut_get(&t[1], 1)) && ut_get(&t[1], 1) > 0);
        MG_CHECK(isnan(ut_get(&t[1], 0)) && isnan(ut_get(&t[1], 2)));
        MG_CHECK(ut_get(&t[1], 3) == 0 && !signbit(ut_get(&t[1], 3)));
        MG_CHECK(ut_get(&t[1], 4) == 0 && signbit(ut_get(&t[1], 4)));
        /* Finite negative inputs (as stored: -1e30 is -inf in float16) never give a positive
           result. */
        for (int i = 0; i < n; i++) {
            double stored = before[0][i];
            mg_checks_done++;
            if (stored < 0 && !isinf(stored) && !(ut_get(&t[1], i) <= 0))
                MG_FAIL("dtype %d: mish(%g) = %g > 0", (int)FLOAT_TYPES[k], stored, ut_get(&t[1], i));
        }
        free(before[0]);
        ut_tensor_free(&t[0]);
        ut_tensor_free(&t[1]);
    }
}

/* In place, three ways, each value checked: aclnnInplaceMish, aclnnMish(self, self), and
   aclnnMish with out a second descriptor over self's memory (dense and transposed). */
MG_TEST(in_place_every_form) {
    ut_init();
    mg_rng rng = {201};
    int64_t dims[2] = {37, 29}, transposed[2] = {1, 37};
    for (int k = 0; k < 3; k++) {
        for (int strided = 0; strided <= 1; strided++) {
            for (int form = 0; form < 3; form++) {
                ut_tensor self;
                ut_tensor_make(&self, FLOAT_TYPES[k], 2, dims, strided ? transposed : NULL, 0, -1, ACL_FORMAT_ND);
                ut_fill_random(&self, &rng, -12, 12);
                double *before[1] = {ut_snapshot(&self)};
                ut_tensor t[2] = {self, self};
                if (form == 2)
                    t[1].tensor = aclCreateTensor(dims, 2, FLOAT_TYPES[k], strided ? transposed : NULL, 0, ACL_FORMAT_ND,
                                                  &self.storage_elems, 1, self.block);
                uint64_t ws = 0;
                MG_CHECK_EQ_INT(ut_op_run(form == 0 ? &UT_INPLACE_MISH : &UT_MISH, t, ut_stream, &ws), ACLNN_SUCCESS);
                /* In place on a strided tensor: one dense copy, computed in place, scattered back. */
                uint64_t dense = (37 * 29 * ut_elem_size(FLOAT_TYPES[k]) + 63) / 64 * 64;
                MG_CHECK_EQ_INT(ws, strided ? dense : 0);
                char what[64];
                snprintf(what, sizeof what, "in place, form %d, %s", form, strided ? "transposed" : "dense");
                MG_CHECK_EQ_INT(ut_op_check(&UT_MISH, before, &self, what), 0);
                if (form == 2) aclDestroyTensor(t[1].tensor);
                free(before[0]);
                ut_tensor_free(&self);
            }
        }
    }
}

/* A repeatable in-place executor over a strided selfRef runs again on new values and on a
   refreshed address (the Contiguous and ViewCopy steps follow the refresh). */
MG_TEST(repeatable_in_place_executor_on_a_strided_tensor) {
    ut_init();
    mg_rng rng = {202};
    int64_t dims[2] = {12, 10}, spaced[2] = {20, 2};
    ut_tensor a, b;
    ut_tensor_make(&a, ACL_FLOAT, 2, dims, spaced, 0, 240, ACL_FORMAT_ND);
    ut_tensor_make(&b, ACL_FLOAT, 2, dims, spaced, 0, 240, ACL_FORMAT_ND);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnInplaceMishGetWorkspaceSize(a.tensor, &ws, &executor), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    void *workspace = NULL;
    MG_CHECK(ws > 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int run = 0; run < 3; run++) {
        ut_tensor *u = run == 1 ? &b : &a;
        ut_fill_random(u, &rng, -12, 12);
        if (run > 0) {
            MG_CHECK_EQ_INT(aclSetInputTensorAddr(executor, 0, a.tensor, u->block), ACLNN_SUCCESS);
            MG_CHECK_EQ_INT(aclSetOutputTensorAddr(executor, 0, a.tensor, u->block), ACLNN_SUCCESS);
        }
        double *before[1] = {ut_snapshot(u)};
        MG_CHECK_EQ_INT(aclnnInplaceMish(workspace, ws, executor, ut_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
        MG_CHECK_EQ_INT(ut_op_check(&UT_INPLACE_MISH, before, u, "repeatable in place"), 0);
        free(before[0]);
    }
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    aclrtFree(workspace);
    ut_tensor_free(&a);
    ut_tensor_free(&b);
}

/* Every float16 and bfloat16 input, through the public API: within 1 ulp of the correctly
   rounded value (ut_result_ok), and never worse on a finite result. */
MG_TEST(every_16_bit_input) {
    ut_init();
    const int64_t n = 65536;
    for (int k = 1; k < 3; k++) {
        ut_tensor t[2];
        ut_tensor_dense(&t[0], FLOAT_TYPES[k], 1, &n);
        ut_tensor_dense(&t[1], FLOAT_TYPES[k], 1, &n);
        for (int64_t i = 0; i < n; i++) {
            uint16_t bits = (uint16_t)i;
            memcpy(t[0].host + 2 * i, &bits, 2);
        }
        ut_upload(&t[0]);
        double *before[1] = {ut_snapshot(&t[0])};
        MG_CHECK_EQ_INT(ut_op_run(&UT_MISH, t, ut_stream, NULL), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ut_op_check(&UT_MISH, before, &t[1], k == 1 ? "every float16" : "every bfloat16"), 0);
        free(before[0]);
        ut_tensor_free(&t[0]);
        ut_tensor_free(&t[1]);
    }
}

/* Phase 1 (it must succeed, asking for at most `capacity` bytes of workspace) and phase 2
   of aclnnMish (self != NULL) or aclnnInplaceMish on `out`, queued on `stream`; returns
   phase 2's status. */
static aclnnStatus queue_mish(const aclTensor *self, aclTensor *out, void *workspace, uint64_t capacity,
                              aclrtStream stream) {
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    const aclnnStatus planned =
        self != NULL ? aclnnMishGetWorkspaceSize(self, out, &ws, &e) : aclnnInplaceMishGetWorkspaceSize(out, &ws, &e);
    MG_CHECK_EQ_INT(planned, ACLNN_SUCCESS);
    MG_CHECK(ws <= capacity);
    if (planned != ACLNN_SUCCESS) return planned;
    if (ws > capacity) return ACLNN_ERR_INNER;
    return self != NULL ? aclnnMish(workspace, ws, e, stream) : aclnnInplaceMish(workspace, ws, e, stream);
}

/* x[:, :32] on one stream and x[:, 32:] on another (torch.chunk along the last dim, a
   common way to split work over streams): the two halves' byte extents interleave row by
   row, but no byte is shared, so on a device they do not race and CANN runs both. The
   launch on the second stream was refused as a cross-stream race (161002), depending on
   whether the first had finished. Column sets that do share elements are still refused. */
MG_TEST(disjoint_column_halves_on_two_streams_are_not_a_race) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    enum { R = 64, C = 64, H = C / 2 };
    float *in = NULL, *out = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&in, R * C * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&out, R * C * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int i = 0; i < R * C; i++) {
        in[i] = (float)(i % 97) / 8.0f - 6.0f;
        out[i] = in[i];
    }
    int64_t storage[1] = {R * C}, half[2] = {R, H}, strides[2] = {C, 1}, quarter_on[2] = {R, H};
    aclTensor *in_l = aclCreateTensor(half, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, in);
    aclTensor *in_r = aclCreateTensor(half, 2, ACL_FLOAT, strides, H, ACL_FORMAT_ND, storage, 1, in);
    aclTensor *out_l = aclCreateTensor(half, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, out);
    aclTensor *out_r = aclCreateTensor(half, 2, ACL_FLOAT, strides, H, ACL_FORMAT_ND, storage, 1, out);
    aclTensor *out_mid = aclCreateTensor(quarter_on, 2, ACL_FLOAT, strides, H / 2, ACL_FORMAT_ND, storage, 1, out);
    void *ws_a = NULL, *ws_b = NULL;
    enum { WS = 1 << 16 };
    MG_CHECK_EQ_INT(aclrtMalloc(&ws_a, WS, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&ws_b, WS, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int form = 0; form < 2; form++) {
        /* The gate keeps stream a's launch unfinished while stream b launches (the check
           looks only at unfinished work). Stream a: the left half, by aclnnMish, then in
           place. */
        mg_gate_close(a);
        MG_CHECK_EQ_INT(queue_mish(form == 0 ? in_l : NULL, out_l, ws_a, WS, a), ACLNN_SUCCESS);
        /* Stream b, nothing ordering it after a: the right half shares no byte. */
        MG_CHECK_EQ_INT(queue_mish(form == 0 ? in_r : NULL, out_r, ws_b, WS, b), ACLNN_SUCCESS);
        /* Columns 16..47 do share elements with a's half: still a race, nothing queued. */
        MG_CHECK_EQ_INT(queue_mish(NULL, out_mid, ws_b, WS, b), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
        mg_gate_open();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    }
    /* Each element: mish once by aclnnMish (from in), then once more in place. */
    int bad = 0;
    for (int i = 0; i < R * C; i++) {
        double want = ut_mish_ref(ut_mish_ref((double)in[i]));
        mg_checks_done++;
        if (fabs(out[i] - want) > 1e-5 * (1 + fabs(want)) && bad++ < 5)
            MG_FAIL("out[%d] = %.9g, expected mish(mish(%g)) = %.9g", i, out[i], in[i], want);
    }
    aclDestroyTensor(in_l);
    aclDestroyTensor(in_r);
    aclDestroyTensor(out_l);
    aclDestroyTensor(out_r);
    aclDestroyTensor(out_mid);
    aclrtFree(ws_a);
    aclrtFree(ws_b);
    aclrtFree(in);
    aclrtFree(out);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
}

/* The same split of a tensor above 2^26 bytes (4100 x 4100 floats, ~67 MB): the window
   where the halves' ranges meet was too large to compare byte by byte, so the second launch
   was refused (161002) however the views sat; now the halves are told apart arithmetically
   (found by an audit). */
MG_TEST(disjoint_column_halves_of_a_large_tensor_on_two_streams_are_not_a_race) {
    ut_init();
    aclrtStream a = NULL, b = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    enum { R = 4100, C = 4100, H = C / 2 };
    float *x = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&x, (size_t)R * C * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (size_t i = 0; i < (size_t)R * C; i++) x[i] = (float)(i % 89) / 8.0f - 5.0f;
    int64_t storage[1] = {(int64_t)R * C}, half[2] = {R, H}, strides[2] = {C, 1};
    aclTensor *left = aclCreateTensor(half, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, x);
    aclTensor *right = aclCreateTensor(half, 2, ACL_FLOAT, strides, H, ACL_FORMAT_ND, storage, 1, x);
    aclTensor *shifted = aclCreateTensor(half, 2, ACL_FLOAT, strides, H - 1, ACL_FORMAT_ND, storage, 1, x);
    /* In place on a strided half, the plan's workspace is a dense copy of it (its size
       rounded up to the executor's 64-byte alignment); queue_mish checks it fits. */
    const uint64_t ws = (uint64_t)R * H * sizeof(float) + 64;
    void *ws_a = NULL, *ws_b = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&ws_a, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMalloc(&ws_b, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    mg_gate_close(a);
    MG_CHECK_EQ_INT(queue_mish(NULL, left, ws_a, ws, a), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(queue_mish(NULL, right, ws_b, ws, b), ACLNN_SUCCESS);
    /* One column further left, the halves share a column: a race, nothing queued. */
    MG_CHECK_EQ_INT(queue_mish(NULL, shifted, ws_b, ws, b), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    /* Every element once: the first and last of each half of a few rows. */
    const size_t rows[3] = {0, R / 2, R - 1}, cols[4] = {0, H - 1, H, C - 1};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) {
            size_t i = rows[r] * C + cols[c];
            double want = ut_mish_ref((double)((float)(i % 89) / 8.0f - 5.0f));
            MG_CHECK(fabs(x[i] - want) <= 1e-5 * (1 + fabs(want)));
        }
    aclDestroyTensor(left);
    aclDestroyTensor(right);
    aclDestroyTensor(shifted);
    aclrtFree(ws_a);
    aclrtFree(ws_b);
    aclrtFree(x);
    MG_CHECK_EQ_INT(aclrtDestroyStream(a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
