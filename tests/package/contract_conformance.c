/*
 * tests/package/contract_conformance.c: the aclnnMishBackward contract, row by row, checked
 * from outside: this program sees only the installed public headers and libraries (it is
 * built with `pkg-config --cflags --libs mish_grad_v2`), uses only what a CANN program may
 * use, and carries its own reference (double precision, its own 16-bit conversions).
 *
 * Run under the default product profile (no MISHGRAD_SOC_VERSION): all three dtypes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_test.h"

static aclrtStream g_stream;

/* ---- what each test acquires, released by cleanup() at its end ------------------------- */

#define MAX_TRACKED 64
static void *g_device_blocks[MAX_TRACKED];
static int g_device_block_count;
static aclTensor *g_tensors[MAX_TRACKED];
static int g_tensor_count;

static void cleanup(void) {
    for (int i = 0; i < g_tensor_count; i++) aclDestroyTensor(g_tensors[i]);
    for (int i = 0; i < g_device_block_count; i++) aclrtFree(g_device_blocks[i]);
    g_tensor_count = 0;
    g_device_block_count = 0;
}

/* Device memory of `bytes`, every byte 0xA5 so that untouched storage is recognisable. */
static void *dev_alloc(size_t bytes) {
    void *ptr = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (ptr == NULL) return NULL;
    MG_CHECK_EQ_INT(aclrtMemset(ptr, bytes, 0xA5, bytes), ACL_SUCCESS);
    if (g_device_block_count < MAX_TRACKED) g_device_blocks[g_device_block_count++] = ptr;
    return ptr;
}

static void dev_write(void *dev, const void *host, size_t bytes) {
    MG_CHECK_EQ_INT(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void dev_read(void *host, const void *dev, size_t bytes) {
    MG_CHECK_EQ_INT(aclrtMemcpy(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static aclTensor *tensor_over(void *data, aclDataType dtype, const int64_t *dims, uint64_t rank,
                              const int64_t *strides, int64_t offset, const int64_t *storage_dims,
                              uint64_t storage_rank) {
    aclTensor *t = aclCreateTensor(dims, rank, dtype, strides, offset, ACL_FORMAT_ND, storage_dims,
                                   storage_rank, data);
    MG_CHECK(t != NULL);
    if (t != NULL && g_tensor_count < MAX_TRACKED) g_tensors[g_tensor_count++] = t;
    return t;
}

/* ---- dtypes, written here from IEEE 754 rather than taken from the library ------------- */

static size_t dtype_size(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT: case ACL_INT32: return 4;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: return 2;
        case ACL_DOUBLE: case ACL_INT64: return 8;
        default: return 1;
    }
}

static uint32_t float_bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static float bits_float(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

/* Round to nearest even; only finite inputs of modest size occur in these tests. */
static uint16_t to_f16(float f) {
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    float magnitude = fabsf(f);
    if (magnitude < 0x1p-14f) {
        /* Subnormal range: the unit is 2^-24, and nearbyintf rounds to even. */
        return (uint16_t)(sign | (uint16_t)nearbyintf(magnitude * 0x1p24f));
    }
    uint32_t abs_bits = x & 0x7fffffffu;
    uint32_t half = (((abs_bits >> 23) - 127u + 15u) << 10) | ((abs_bits & 0x7fffffu) >> 13);
    uint32_t rest = abs_bits & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
    return (uint16_t)(sign | half);
}

static float from_f16(uint16_t h) {
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    float magnitude = exponent == 0 ? ldexpf((float)mantissa, -24)
                                    : ldexpf((float)(1024 + mantissa), exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

static uint16_t to_bf16(float f) {
    uint32_t x = float_bits(f);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

static float from_bf16(uint16_t b) { return bits_float((uint32_t)b << 16); }

static void encode(aclDataType dtype, double value, void *buffer, size_t index) {
    if (dtype == ACL_FLOAT) {
        ((float *)buffer)[index] = (float)value;
    } else if (dtype == ACL_FLOAT16) {
        ((uint16_t *)buffer)[index] = to_f16((float)value);
    } else if (dtype == ACL_BF16) {
        ((uint16_t *)buffer)[index] = to_bf16((float)value);
    } else {
        memset((char *)buffer + index * dtype_size(dtype), 0, dtype_size(dtype));
    }
}

static double decode(aclDataType dtype, const void *buffer, size_t index) {
    if (dtype == ACL_FLOAT) return ((const float *)buffer)[index];
    if (dtype == ACL_FLOAT16) return from_f16(((const uint16_t *)buffer)[index]);
    if (dtype == ACL_BF16) return from_bf16(((const uint16_t *)buffer)[index]);
    return NAN;
}

/* The value `value` has once stored as `dtype`. */
static double as_stored(aclDataType dtype, double value) {
    unsigned char slot[8];
    encode(dtype, value, slot, 0);
    return decode(dtype, slot, 0);
}

/* ---- the reference --------------------------------------------------------------------- */

/* mish'(x) from its definition: d/dx [x * tanh(softplus(x))]. */
static double mish_grad_reference(double grad, double x) {
    double softplus = fmax(x, 0.0) + log1p(exp(-fabs(x)));
    double t = tanh(softplus);
    double sigmoid = 1.0 / (1.0 + exp(-x));
    return grad * (t + x * (1.0 - t * t) * sigmoid);
}

/* float32 keeps ~2^-24 relative; the 16-bit types round the float32 result once more, so
   one unit of their last place (2^-10, 2^-7) bounds the error. The absolute floor covers
   results near zero (mish' has a root near x = -1.19). */
static int close_enough(aclDataType dtype, double actual, double expected) {
    double relative = dtype == ACL_FLOAT ? 1e-5 : dtype == ACL_FLOAT16 ? 0x1p-10 : 0x1p-7;
    double absolute = dtype == ACL_FLOAT ? 1e-6 : dtype == ACL_FLOAT16 ? 1e-5 : 1e-4;
    return fabs(actual - expected) <= absolute + relative * fabs(expected);
}

/* The data of the contract page's two examples. */
static const double kDocGrad[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static const double kDocSelf[8] = {1, 1, 1, 2, 2, 2, 3, 3};
static const double kDocExpected[8] = {0, 1.049036, 2.098072, 3.207954, 4.277272, 5.346590, 6.126641, 7.147748};
static const double kSignedGrad[8] = {1, -0.5, 0.25, 1.5, -1, 0.75, 0.5, -0.25};
static const double kSignedSelf[8] = {-3, -1, -0.1, 0, 0.2, 1.5, 3, 5};
static const double kSignedExpected[8] = {-0.093393, -0.029608, 0.133926, 0.9,
                                          -0.724625, 0.816366, 0.510553, -0.250200};

/* A dense tensor of `dims` holding `values` (row-major; NULL: the 0xA5 fill). */
static aclTensor *dense(aclDataType dtype, const int64_t *dims, uint64_t rank, const double *values,
                        void **data_out) {
    int64_t count = 1;
    for (uint64_t i = 0; i < rank; i++) count *= dims[i];
    size_t bytes = (size_t)count * dtype_size(dtype);
    void *data = dev_alloc(bytes > 0 ? bytes : 1);
    if (values != NULL && count > 0) {
        void *host = calloc((size_t)count, dtype_size(dtype));
        for (int64_t i = 0; i < count; i++) encode(dtype, values[i], host, (size_t)i);
        dev_write(data, host, bytes);
        free(host);
    }
    if (data_out) *data_out = data;
    return tensor_over(data, dtype, dims, rank, NULL, 0, dims, rank);
}

/* Phase 1, a workspace of the reported size, phase 2 on `stream`, synchronize: the first
   status that is not success, or success. */
static aclnnStatus run_op_on(const aclTensor *grad, const aclTensor *self, aclTensor *out,
                             uint64_t *workspace_out, aclrtStream stream) {
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus status = aclnnMishBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor);
    if (workspace_out) *workspace_out = workspace_size;
    if (status != ACLNN_SUCCESS) return status;
    void *workspace = workspace_size > 0 ? dev_alloc(workspace_size) : NULL;
    status = aclnnMishBackward(workspace, workspace_size, executor, stream);
    if (status != ACLNN_SUCCESS) return status;
    return aclrtSynchronizeStream(stream);
}

static aclnnStatus run_op(const aclTensor *grad, const aclTensor *self, aclTensor *out, uint64_t *workspace_out) {
    return run_op_on(grad, self, out, workspace_out, g_stream);
}

/* Reads `count` dense results and compares them with the reference on the stored inputs. */
static void expect_dense_results(aclDataType dtype, const void *out_data, const double *grad,
                                 const double *self, int64_t count) {
    void *host = calloc((size_t)count, dtype_size(dtype));
    dev_read(host, out_data, (size_t)count * dtype_size(dtype));
    for (int64_t i = 0; i < count; i++) {
        double expected = mish_grad_reference(as_stored(dtype, grad[i]), as_stored(dtype, self[i]));
        double actual = decode(dtype, host, (size_t)i);
        if (!close_enough(dtype, actual, expected)) {
            MG_FAIL("dtype %d element %lld: got %.9g, expected %.9g", (int)dtype, (long long)i, actual, expected);
        }
    }
    free(host);
}

/* A failure: the status, and a recent error message that is not empty. */
static void expect_failure(aclnnStatus actual, aclnnStatus expected, const char *what) {
    if (actual != expected) {
        MG_FAIL("%s: status %d, expected %d", what, (int)actual, (int)expected);
        return;
    }
    const char *message = aclGetRecentErrMsg();
    if (message == NULL || message[0] == '\0') MG_FAIL("%s: no recent error message", what);
}

static const int64_t kShape42[2] = {4, 2};

/* ---- row: workspaceSize or executor pointer NULL -------------------------------------- */

MG_TEST(null_workspace_size_or_executor_pointer_is_161001) {
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, NULL);
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    expect_failure(aclnnMishBackwardGetWorkspaceSize(g, x, y, NULL, &executor), ACLNN_ERR_PARAM_NULLPTR,
                   "workspaceSize NULL");
    expect_failure(aclnnMishBackwardGetWorkspaceSize(g, x, y, &workspace_size, NULL), ACLNN_ERR_PARAM_NULLPTR,
                   "executor NULL");
    cleanup();
}

/* ---- row: a NULL tensor, checked in the order gradOutput, self, gradInput -------------- */

MG_TEST(null_tensor_is_161001_naming_the_first_null_argument) {
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, NULL);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    struct { const aclTensor *g, *x; aclTensor *y; const char *named; } cases[] = {
        {NULL, x, y, "gradOutput"}, {g, NULL, y, "self"}, {g, x, NULL, "gradInput"},
        {NULL, NULL, NULL, "gradOutput"}, {g, NULL, NULL, "self"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        aclnnStatus status = aclnnMishBackwardGetWorkspaceSize(cases[i].g, cases[i].x, cases[i].y, &ws, &ex);
        MG_CHECK_EQ_INT(status, ACLNN_ERR_PARAM_NULLPTR);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), cases[i].named);
    }
    cleanup();
}

/* ---- rows: dtypes outside the three; dtypes not all equal ------------------------------ */

MG_TEST(unsupported_dtype_is_161002) {
    const aclDataType unsupported[] = {ACL_DOUBLE, ACL_INT32, ACL_INT8, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_INT16};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
        aclTensor *g = dense(unsupported[i], kShape42, 2, NULL, NULL);
        aclTensor *x = dense(unsupported[i], kShape42, 2, NULL, NULL);
        aclTensor *y = dense(unsupported[i], kShape42, 2, NULL, NULL);
        expect_failure(run_op(g, x, y, NULL), ACLNN_ERR_PARAM_INVALID, "unsupported dtype");
        cleanup();
    }
}

MG_TEST(mixed_dtypes_are_161002_without_promotion) {
    const aclDataType mixes[][3] = {
        {ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT, ACL_FLOAT, ACL_BF16},
        {ACL_FLOAT16, ACL_BF16, ACL_FLOAT16}, {ACL_BF16, ACL_FLOAT, ACL_FLOAT},
    };
    for (size_t i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
        aclTensor *g = dense(mixes[i][0], kShape42, 2, kDocGrad, NULL);
        aclTensor *x = dense(mixes[i][1], kShape42, 2, kDocSelf, NULL);
        void *out_data = NULL;
        aclTensor *y = dense(mixes[i][2], kShape42, 2, NULL, &out_data);
        expect_failure(run_op(g, x, y, NULL), ACLNN_ERR_PARAM_INVALID, "mixed dtypes");
        unsigned char out[32];
        dev_read(out, out_data, 8 * dtype_size(mixes[i][2]));
        for (size_t b = 0; b < 8 * dtype_size(mixes[i][2]); b++) MG_CHECK_EQ_INT(out[b], 0xA5);
        cleanup();
    }
}

/* ---- row: rank above 8; rank 0 works --------------------------------------------------- */

MG_TEST(rank_nine_is_161002_and_rank_eight_works) {
    const int64_t dims9[9] = {1, 1, 1, 1, 1, 1, 1, 2, 4};
    const int64_t dims8[8] = {1, 2, 1, 1, 1, 2, 1, 2};
    aclTensor *g9 = dense(ACL_FLOAT, dims9, 9, kDocGrad, NULL);
    aclTensor *x9 = dense(ACL_FLOAT, dims9, 9, kDocSelf, NULL);
    aclTensor *y9 = dense(ACL_FLOAT, dims9, 9, NULL, NULL);
    expect_failure(run_op(g9, x9, y9, NULL), ACLNN_ERR_PARAM_INVALID, "rank 9");
    aclTensor *g8 = dense(ACL_FLOAT, dims8, 8, kDocGrad, NULL);
    aclTensor *x8 = dense(ACL_FLOAT, dims8, 8, kDocSelf, NULL);
    void *out8 = NULL;
    aclTensor *y8 = dense(ACL_FLOAT, dims8, 8, NULL, &out8);
    MG_CHECK_EQ_INT(run_op(g8, x8, y8, NULL), ACLNN_SUCCESS);
    expect_dense_results(ACL_FLOAT, out8, kDocGrad, kDocSelf, 8);
    cleanup();
}

MG_TEST(rank_zero_scalar_works) {
    const double grad = 1.5, self = -0.75;
    void *out_data = NULL;
    aclTensor *g = dense(ACL_FLOAT, NULL, 0, &grad, NULL);
    aclTensor *x = dense(ACL_FLOAT, NULL, 0, &self, NULL);
    aclTensor *y = dense(ACL_FLOAT, NULL, 0, NULL, &out_data);
    uint64_t ws = 99;
    MG_CHECK_EQ_INT(run_op(g, x, y, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(ws, 0);
    expect_dense_results(ACL_FLOAT, out_data, &grad, &self, 1);
    cleanup();
}

/* ---- row: view shapes not all equal, even where broadcastable -------------------------- */

MG_TEST(unequal_shapes_are_161002_even_when_broadcastable) {
    const int64_t row[2] = {1, 2};
    const int64_t transposed[2] = {2, 4};
    const int64_t flat[1] = {8};
    struct { const int64_t *dims; uint64_t rank; } odd[] = {{row, 2}, {transposed, 2}, {flat, 1}};
    for (size_t shape = 0; shape < sizeof odd / sizeof odd[0]; shape++) {
        for (int position = 0; position < 3; position++) {
            aclTensor *t[3];
            for (int k = 0; k < 3; k++) {
                t[k] = k == position ? dense(ACL_FLOAT, odd[shape].dims, odd[shape].rank, kDocSelf, NULL)
                                     : dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
            }
            expect_failure(run_op(t[0], t[1], t[2], NULL), ACLNN_ERR_PARAM_INVALID, "unequal shapes");
            cleanup();
        }
    }
}

/* ---- row: any view dim 0 --------------------------------------------------------------- */

MG_TEST(empty_tensor_succeeds_with_zero_workspace_and_null_workspace) {
    const int64_t dims[3] = {2, 0, 3};
    /* With storage behind it, and with NULL data (an empty view may have none). */
    for (int with_data = 0; with_data < 2; with_data++) {
        aclTensor *t[3];
        for (int k = 0; k < 3; k++) {
            t[k] = with_data ? dense(ACL_FLOAT, dims, 3, NULL, NULL)
                             : tensor_over(NULL, ACL_FLOAT, dims, 3, NULL, 0, dims, 3);
        }
        uint64_t ws = 12345;
        aclOpExecutor *ex = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &ex), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ws, 0);
        MG_CHECK(ex != NULL);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, ex, g_stream), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        cleanup();
    }
}

/* ---- row: the format is not a reason to fail ------------------------------------------- */

MG_TEST(format_is_ignored) {
    const aclFormat formats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_HWCN,
                                 ACL_FORMAT_NDHWC, ACL_FORMAT_NCDHW};
    const int64_t dims[4] = {1, 2, 2, 2};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        void *data[3];
        const double *values[3] = {kSignedGrad, kSignedSelf, NULL};
        aclTensor *t[3];
        for (int k = 0; k < 3; k++) {
            dense(ACL_FLOAT, dims, 4, values[k], &data[k]);
            t[k] = aclCreateTensor(dims, 4, ACL_FLOAT, NULL, 0, formats[f], dims, 4, data[k]);
            MG_CHECK(t[k] != NULL);
            if (t[k] != NULL && g_tensor_count < MAX_TRACKED) g_tensors[g_tensor_count++] = t[k];
        }
        MG_CHECK_EQ_INT(run_op(t[0], t[1], t[2], NULL), ACLNN_SUCCESS);
        expect_dense_results(ACL_FLOAT, data[2], kSignedGrad, kSignedSelf, 8);
        cleanup();
    }
}

/* ---- rows: descriptor faults (negative dim/stride/offset, overflow, outside storage,
 *      outside the allocation, NULL data, memory that aclrtMalloc never gave) ----------- */

enum { FAULT_NEGATIVE_DIM, FAULT_NEGATIVE_STRIDE, FAULT_NEGATIVE_OFFSET, FAULT_COUNT_OVERFLOW,
       FAULT_VIEW_OUTSIDE_STORAGE, FAULT_STORAGE_OUTSIDE_ALLOCATION, FAULT_NULL_DATA,
       FAULT_NOT_DEVICE_MEMORY, FAULT_KINDS };

static const char *const kFaultNames[FAULT_KINDS] = {
    "negative dim", "negative stride", "negative offset", "element count overflow",
    "view outside storage", "storage outside the allocation", "NULL data", "memory not from aclrtMalloc"};

/* A tensor whose descriptor has `fault`; it lies over 8 floats of device memory. */
static aclTensor *faulty_tensor(int fault, float *host_memory) {
    void *data = dev_alloc(8 * sizeof(float));
    int64_t dims[2] = {4, 2}, strides[2] = {2, 1}, storage[2] = {4, 2};
    int64_t offset = 0;
    uint64_t storage_rank = 2;
    switch (fault) {
        case FAULT_NEGATIVE_DIM: dims[0] = -4; break;
        case FAULT_NEGATIVE_STRIDE: strides[0] = -2; offset = 6; break;
        case FAULT_NEGATIVE_OFFSET: offset = -1; break;
        case FAULT_COUNT_OVERFLOW:
            /* 2^33 * 2^31 elements: the count alone overflows int64. */
            dims[0] = INT64_C(1) << 33; dims[1] = INT64_C(1) << 31;
            strides[0] = INT64_C(1) << 31; strides[1] = 1;
            storage[0] = dims[0]; storage[1] = dims[1];
            break;
        case FAULT_VIEW_OUTSIDE_STORAGE: storage[0] = 3; break;
        case FAULT_STORAGE_OUTSIDE_ALLOCATION: storage[0] = 8; break;
        case FAULT_NULL_DATA: data = NULL; break;
        case FAULT_NOT_DEVICE_MEMORY: data = host_memory; break;
        default: break;
    }
    return tensor_over(data, ACL_FLOAT, dims, 2, strides, offset, storage, storage_rank);
}

MG_TEST(descriptor_faults_are_161002_in_every_position) {
    float host_memory[8] = {0};
    for (int fault = 0; fault < FAULT_KINDS; fault++) {
        for (int position = 0; position < 3; position++) {
            void *out_data = NULL;
            aclTensor *t[3];
            for (int k = 0; k < 3; k++) {
                t[k] = k == position ? faulty_tensor(fault, host_memory)
                     : dense(ACL_FLOAT, kShape42, 2, k == 2 ? NULL : kDocSelf, k == 2 ? &out_data : NULL);
            }
            aclnnStatus status = run_op(t[0], t[1], t[2], NULL);
            if (status != ACLNN_ERR_PARAM_INVALID) {
                MG_FAIL("%s in argument %d: status %d, expected 161002", kFaultNames[fault], position, (int)status);
            }
            if (out_data != NULL) {
                unsigned char out[32];
                dev_read(out, out_data, sizeof out);
                for (size_t b = 0; b < sizeof out; b++) MG_CHECK_EQ_INT(out[b], 0xA5);
            }
            cleanup();
        }
    }
}

/* ---- rows: workspace 0 when contiguous, else the dense intermediates -------------------- */

MG_TEST(contiguous_tensors_need_no_workspace) {
    void *out_data = NULL;
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);
    uint64_t ws = 99;
    MG_CHECK_EQ_INT(run_op(g, x, y, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(ws, 0);
    for (int i = 0; i < 8; i++) {
        float value = 0;
        dev_read(&value, (const float *)out_data + i, sizeof value);
        MG_CHECK_NEAR(value, kDocExpected[i], 2e-6);
    }
    cleanup();
}

MG_TEST(transposed_and_offset_inputs_use_workspace_and_compute_right) {
    /* self is the transpose of a [2, 4] storage: element (i, j) at j * 4 + i. */
    float self_storage[8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) self_storage[j * 4 + i] = (float)kDocSelf[i * 2 + j];
    void *self_data = dev_alloc(sizeof self_storage);
    dev_write(self_data, self_storage, sizeof self_storage);
    const int64_t self_strides[2] = {1, 4}, self_storage_dims[2] = {2, 4};
    aclTensor *x = tensor_over(self_data, ACL_FLOAT, kShape42, 2, self_strides, 0, self_storage_dims, 2);

    /* gradOutput starts 5 elements into a storage of 13. */
    float grad_storage[13] = {0};
    for (int i = 0; i < 8; i++) grad_storage[5 + i] = (float)kDocGrad[i];
    void *grad_data = dev_alloc(sizeof grad_storage);
    dev_write(grad_data, grad_storage, sizeof grad_storage);
    const int64_t grad_strides[2] = {2, 1}, grad_storage_dims[1] = {13};
    aclTensor *g = tensor_over(grad_data, ACL_FLOAT, kShape42, 2, grad_strides, 5, grad_storage_dims, 1);

    void *out_data = NULL;
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);
    uint64_t ws = 0;
    MG_CHECK_EQ_INT(run_op(g, x, y, &ws), ACLNN_SUCCESS);
    /* The transposed self at least needs a dense copy of its 8 floats. */
    MG_CHECK(ws >= 8 * sizeof(float));
    expect_dense_results(ACL_FLOAT, out_data, kDocGrad, kDocSelf, 8);
    cleanup();
}

/* ---- row: storage of a strided output outside its view stays untouched ----------------- */

MG_TEST(strided_output_leaves_the_gaps_untouched) {
    /* gradInput: [4, 2] view over a [4, 5] storage, columns 1 and 3 of each row. */
    const int64_t out_strides[2] = {5, 2}, out_storage[2] = {4, 5};
    void *out_data = dev_alloc(20 * sizeof(float));
    aclTensor *y = tensor_over(out_data, ACL_FLOAT, kShape42, 2, out_strides, 1, out_storage, 2);
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kSignedGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kSignedSelf, NULL);
    uint64_t ws = 0;
    MG_CHECK_EQ_INT(run_op(g, x, y, &ws), ACLNN_SUCCESS);
    MG_CHECK(ws > 0);
    uint32_t storage[20];
    dev_read(storage, out_data, sizeof storage);
    for (int row = 0; row < 4; row++) {
        for (int column = 0; column < 5; column++) {
            uint32_t bits = storage[row * 5 + column];
            int in_view = column == 1 || column == 3;
            if (!in_view) {
                if (bits != 0xA5A5A5A5u) MG_FAIL("gap (%d, %d) overwritten: 0x%08x", row, column, (unsigned)bits);
                continue;
            }
            int index = row * 2 + (column - 1) / 2;
            MG_CHECK_NEAR(bits_float(bits), kSignedExpected[index], 2e-6);
        }
    }
    cleanup();
}

/* ---- rows: phase 2 with a NULL executor, a NULL or too small workspace ------------------ */

MG_TEST(phase_two_faults_write_nothing) {
    /* A transposed self so that the workspace is above 0. */
    const int64_t strides[2] = {1, 4}, storage[2] = {2, 4};
    void *self_data = dev_alloc(8 * sizeof(float));
    aclTensor *x = tensor_over(self_data, ACL_FLOAT, kShape42, 2, strides, 0, storage, 2);
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    void *out_data = NULL;
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);

    expect_failure(aclnnMishBackward(NULL, 0, NULL, g_stream), ACLNN_ERR_PARAM_NULLPTR, "NULL executor");

    for (int fault = 0; fault < 2; fault++) {
        uint64_t ws = 0;
        aclOpExecutor *ex = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g, x, y, &ws, &ex), ACLNN_SUCCESS);
        MG_CHECK(ws > 0);
        if (fault == 0) {
            expect_failure(aclnnMishBackward(NULL, ws, ex, g_stream), ACLNN_ERR_PARAM_NULLPTR, "NULL workspace");
        } else {
            void *workspace = dev_alloc(ws);
            expect_failure(aclnnMishBackward(workspace, ws - 1, ex, g_stream), ACLNN_ERR_PARAM_INVALID,
                           "workspace one byte short");
        }
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        unsigned char out[32];
        dev_read(out, out_data, sizeof out);
        for (size_t b = 0; b < sizeof out; b++) MG_CHECK_EQ_INT(out[b], 0xA5);
    }
    cleanup();
}

/* ---- row: a single-use executor run a second time ------------------------------------- */

MG_TEST(single_use_executor_second_run_is_an_error_not_a_crash) {
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, NULL);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g, x, y, &ws, &ex), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws, ex, g_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    aclnnStatus again = aclnnMishBackward(NULL, ws, ex, g_stream);
    MG_CHECK(again != ACLNN_SUCCESS);
    aclrtSynchronizeStream(g_stream);
    cleanup();
}

/* ---- a repeatable executor, addresses refreshed between runs ------------------------- */

MG_TEST(repeatable_executor_runs_again_with_new_addresses) {
    void *out_data = NULL, *second_self = NULL, *second_out = NULL;
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);
    dense(ACL_FLOAT, kShape42, 2, kSignedSelf, &second_self);
    dense(ACL_FLOAT, kShape42, 2, NULL, &second_out);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g, x, y, &ws, &ex), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws, ex, g_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    expect_dense_results(ACL_FLOAT, out_data, kDocGrad, kDocSelf, 8);

    MG_CHECK_EQ_INT(aclSetInputTensorAddr(ex, 1, x, second_self), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetOutputTensorAddr(ex, 0, y, second_out), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws, ex, g_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    expect_dense_results(ACL_FLOAT, second_out, kDocGrad, kSignedSelf, 8);
    /* The first output keeps the first run's results. */
    expect_dense_results(ACL_FLOAT, out_data, kDocGrad, kDocSelf, 8);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    cleanup();
}

/* ---- row: in place (gradInput over gradOutput's memory) ------------------------------- */

MG_TEST(in_place_over_grad_output_is_correct) {
    void *grad_data = NULL;
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kSignedGrad, &grad_data);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kSignedSelf, NULL);
    aclTensor *y = tensor_over(grad_data, ACL_FLOAT, kShape42, 2, NULL, 0, kShape42, 2);
    MG_CHECK_EQ_INT(run_op(g, x, y, NULL), ACLNN_SUCCESS);
    expect_dense_results(ACL_FLOAT, grad_data, kSignedGrad, kSignedSelf, 8);
    cleanup();
}

/* ---- values: the contract page's examples in all three dtypes --------------------------- */

MG_TEST(reference_examples_match_in_float32) {
    const double *grads[2] = {kDocGrad, kSignedGrad}, *selfs[2] = {kDocSelf, kSignedSelf};
    const double *expected[2] = {kDocExpected, kSignedExpected};
    for (int example = 0; example < 2; example++) {
        void *out_data = NULL;
        aclTensor *g = dense(ACL_FLOAT, kShape42, 2, grads[example], NULL);
        aclTensor *x = dense(ACL_FLOAT, kShape42, 2, selfs[example], NULL);
        aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);
        MG_CHECK_EQ_INT(run_op(g, x, y, NULL), ACLNN_SUCCESS);
        float out[8];
        dev_read(out, out_data, sizeof out);
        /* The page prints six decimals. */
        for (int i = 0; i < 8; i++) MG_CHECK_NEAR(out[i], expected[example][i], 1e-6 + 5e-7);
        cleanup();
    }
}

MG_TEST(reference_examples_match_in_float16_and_bfloat16) {
    const aclDataType dtypes[2] = {ACL_FLOAT16, ACL_BF16};
    const double *grads[2] = {kDocGrad, kSignedGrad}, *selfs[2] = {kDocSelf, kSignedSelf};
    for (int d = 0; d < 2; d++) {
        for (int example = 0; example < 2; example++) {
            void *out_data = NULL;
            aclTensor *g = dense(dtypes[d], kShape42, 2, grads[example], NULL);
            aclTensor *x = dense(dtypes[d], kShape42, 2, selfs[example], NULL);
            aclTensor *y = dense(dtypes[d], kShape42, 2, NULL, &out_data);
            MG_CHECK_EQ_INT(run_op(g, x, y, NULL), ACLNN_SUCCESS);
            expect_dense_results(dtypes[d], out_data, grads[example], selfs[example], 8);
            cleanup();
        }
    }
}

/* ---- streams: several launches before one synchronize; the default stream ------------ */

MG_TEST(several_launches_then_one_synchronize) {
    enum { LAUNCHES = 4 };
    void *outs[LAUNCHES];
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kSignedGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kSignedSelf, NULL);
    for (int i = 0; i < LAUNCHES; i++) {
        aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &outs[i]);
        uint64_t ws = 0;
        aclOpExecutor *ex = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g, x, y, &ws, &ex), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, ws, ex, g_stream), ACLNN_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    for (int i = 0; i < LAUNCHES; i++) expect_dense_results(ACL_FLOAT, outs[i], kSignedGrad, kSignedSelf, 8);
    cleanup();
}

MG_TEST(default_stream_works) {
    void *out_data = NULL;
    aclTensor *g = dense(ACL_FLOAT, kShape42, 2, kDocGrad, NULL);
    aclTensor *x = dense(ACL_FLOAT, kShape42, 2, kDocSelf, NULL);
    aclTensor *y = dense(ACL_FLOAT, kShape42, 2, NULL, &out_data);
    MG_CHECK_EQ_INT(run_op_on(g, x, y, NULL, NULL), ACLNN_SUCCESS);
    expect_dense_results(ACL_FLOAT, out_data, kDocGrad, kDocSelf, 8);
    cleanup();
}

/* ---- the default product profile --------------------------------------------------------- */

MG_TEST(default_profile_is_this_cpu) {
    const char *soc = aclrtGetSocName();
    MG_CHECK(soc != NULL);
    if (soc != NULL) MG_CHECK(strcmp(soc, "MishGradV2-CPU") == 0);
}

int main(int argc, char **argv) {
    aclError status = aclInit(NULL);
    if (status == ACL_SUCCESS) status = aclrtSetDevice(0);
    if (status == ACL_SUCCESS) status = aclrtCreateStream(&g_stream);
    if (status != ACL_SUCCESS) {
        fprintf(stderr, "runtime start failed: %d (%s)\n", status, aclGetRecentErrMsg());
        printf("0 passed, 1 failed\n");
        return 1;
    }
    int result = mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
    aclrtDestroyStream(g_stream);
    aclrtResetDevice(0);
    aclFinalize();
    return result;
}
