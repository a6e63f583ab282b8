/*
 * tests/ut/nnopbase/test_meta_objects.c: the argument objects of acl_meta.h besides the
 * tensor's create/getters (test_tensor.c): aclScalar, aclIntArray, aclFloatArray,
 * aclBoolArray, aclTensorList, aclScalarList, aclInitTensor, aclSetRawTensorAddr, the
 * executor's address setters (aclSetTensorAddr, the Acl* spellings, the dynamic forms),
 * aclnnInit / aclnnFinalize. Each: the status, the message, the behaviour, and that a
 * destroyed or foreign handle is a status, never a crash.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"
#include "ut_util.h"

static char text[1024];

/* Reads (and so clears) the recent error message once. */
static const char *message(void) {
    const char *m = aclGetRecentErrMsg();
    snprintf(text, sizeof text, "%s", m ? m : "");
    return text;
}

/* An operator header written the way ops-nn writes them must compile with ours. */
#ifdef __cplusplus
extern "C" {
#endif
ACLNN_API aclnnStatus aclnnSomeOpGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha,
                                                  const aclIntArray *dims, const aclTensorList *list,
                                                  aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
#ifdef __cplusplus
}
#endif

/* ---- aclScalar ------------------------------------------------------------------------ */

MG_TEST(scalar_create_destroy) {
    ut_init();
    float alpha = 1.25f;
    aclScalar *s = aclCreateScalar(&alpha, ACL_FLOAT);
    MG_CHECK(s != NULL);
    double wide = 2.5;
    aclScalar *d = aclCreateScalar(&wide, ACL_DOUBLE);
    MG_CHECK(d != NULL);
    MG_CHECK_EQ_INT(aclDestroyScalar(s), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyScalar(d), ACLNN_SUCCESS);
    /* twice: a status and a message naming the kind and the staleness */
    MG_CHECK_EQ_INT(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID);
    const char *m = message();
    MG_CHECK_STR_CONTAINS(m, "aclDestroyScalar");
    MG_CHECK_STR_CONTAINS(m, "stale");
    /* NULL: nothing to destroy, as CANN */
    MG_CHECK_EQ_INT(aclDestroyScalar(NULL), ACLNN_SUCCESS);
}

MG_TEST(scalar_refuses_null_value_and_sizeless_dtype) {
    ut_init();
    MG_CHECK(aclCreateScalar(NULL, ACL_FLOAT) == NULL);
    MG_CHECK_STR_CONTAINS(message(), "value is NULL");
    int32_t v = 3;
    MG_CHECK(aclCreateScalar(&v, ACL_DT_UNDEFINED) == NULL);
    MG_CHECK_STR_CONTAINS(message(), "dataType");
}

/* ---- arrays ------------------------------------------------------------------------ */

MG_TEST(int_array_size_and_copy) {
    ut_init();
    int64_t values[4] = {1, 1, 2, 3};
    aclIntArray *a = aclCreateIntArray(values, 4);
    MG_CHECK(a != NULL);
    values[0] = 99; /* the array holds a copy */
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetIntArraySize(a, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 4);
    MG_CHECK_EQ_INT(aclGetIntArraySize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "array");
    MG_CHECK_EQ_INT(aclGetIntArraySize(a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "size");
    MG_CHECK_EQ_INT(aclDestroyIntArray(a), ACLNN_SUCCESS);
    size = 7;
    MG_CHECK_EQ_INT(aclGetIntArraySize(a, &size), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    MG_CHECK_EQ_INT(size, 7); /* nothing written on failure */
    MG_CHECK_EQ_INT(aclDestroyIntArray(a), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    /* empty arrays: NULL values make one, whatever the size (as CANN's aclArray) */
    aclIntArray *empty = aclCreateIntArray(NULL, 0);
    MG_CHECK(empty != NULL);
    MG_CHECK_EQ_INT(aclGetIntArraySize(empty, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 0);
    MG_CHECK_EQ_INT(aclDestroyIntArray(empty), ACLNN_SUCCESS);
    empty = aclCreateIntArray(NULL, 3);
    MG_CHECK(empty != NULL);
    size = 7;
    MG_CHECK_EQ_INT(aclGetIntArraySize(empty, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 0);
    MG_CHECK_EQ_INT(aclDestroyIntArray(empty), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyIntArray(NULL), ACLNN_SUCCESS);
}

MG_TEST(float_and_bool_arrays) {
    ut_init();
    float f[3] = {0.5f, 1.5f, -2.0f};
    bool b[5] = {true, false, true, true, false};
    aclFloatArray *fa = aclCreateFloatArray(f, 3);
    aclBoolArray *ba = aclCreateBoolArray(b, 5);
    MG_CHECK(fa != NULL && ba != NULL);
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetFloatArraySize(fa, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 3);
    MG_CHECK_EQ_INT(aclGetBoolArraySize(ba, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 5);
    MG_CHECK_EQ_INT(aclGetFloatArraySize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    (void)message();
    MG_CHECK_EQ_INT(aclGetBoolArraySize(ba, NULL), ACLNN_ERR_PARAM_NULLPTR);
    (void)message();
    /* a handle of the wrong kind: refused, naming both kinds */
    MG_CHECK_EQ_INT(aclGetBoolArraySize((const aclBoolArray *)(const void *)fa, &size), ACLNN_ERR_PARAM_INVALID);
    const char *m = message();
    MG_CHECK_STR_CONTAINS(m, "aclFloatArray");
    MG_CHECK_STR_CONTAINS(m, "aclBoolArray");
    MG_CHECK_EQ_INT(aclDestroyIntArray((const aclIntArray *)(const void *)fa), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(aclDestroyFloatArray(fa), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyBoolArray(ba), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyFloatArray(fa), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(aclDestroyBoolArray(ba), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(aclDestroyFloatArray(NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyBoolArray(NULL), ACLNN_SUCCESS);
    /* a foreign pointer */
    int64_t junk[8] = {0};
    MG_CHECK_EQ_INT(aclGetFloatArraySize((const aclFloatArray *)(void *)junk, &size), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "not created by this library");
}

/* ---- lists ----------------------------------------------------------------------- */

static aclTensor *small_tensor(void) {
    int64_t dims[3] = {1, 2, 3}, storage = 6;
    return aclCreateTensor(dims, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, NULL);
}

MG_TEST(tensor_list_owns_its_tensors) {
    ut_init();
    aclTensor *t1 = small_tensor(), *t2 = small_tensor();
    const aclTensor *items[2] = {t1, t2};
    aclTensorList *list = aclCreateTensorList(items, 2);
    MG_CHECK(list != NULL);
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 2);
    MG_CHECK_EQ_INT(aclGetTensorListSize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "tensorList");
    MG_CHECK_EQ_INT(aclGetTensorListSize(list, NULL), ACLNN_ERR_PARAM_NULLPTR);
    (void)message();
    /* the tensors stay usable until the list goes; the list destroys them (CANN: "the
       aclTensor in the aclTensorList does not need to be destroyed again") */
    aclDataType dtype = ACL_DT_UNDEFINED;
    MG_CHECK_EQ_INT(aclGetDataType(t1, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetDataType(t1, &dtype), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    MG_CHECK_EQ_INT(aclDestroyTensor(t2), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "aclTensorList");
    MG_CHECK_EQ_INT(aclDestroyTensorList(NULL), ACLNN_SUCCESS);
}

MG_TEST(tensor_list_with_a_tensor_destroyed_first) {
    ut_init();
    aclTensor *t1 = small_tensor(), *t2 = small_tensor();
    const aclTensor *items[3] = {t1, NULL, t2};
    aclTensorList *list = aclCreateTensorList(items, 3);
    MG_CHECK(list != NULL);
    /* a program that destroys a tensor itself: the list skips it, never frees it twice */
    MG_CHECK_EQ_INT(aclDestroyTensor(t1), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(t2), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    /* a stale element at creation is refused, naming its index */
    const aclTensor *stale[2] = {small_tensor(), t1};
    MG_CHECK(aclCreateTensorList(stale, 2) == NULL);
    MG_CHECK_STR_CONTAINS(message(), "value[1]");
    MG_CHECK_EQ_INT(aclDestroyTensor(stale[0]), ACLNN_SUCCESS);
    aclTensorList *empty = aclCreateTensorList(NULL, 2); /* NULL values: empty, as CANN's */
    MG_CHECK(empty != NULL);
    uint64_t none = 9;
    MG_CHECK_EQ_INT(aclGetTensorListSize(empty, &none), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(none, 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(empty), ACLNN_SUCCESS);
    empty = aclCreateTensorList(NULL, 0);
    MG_CHECK(empty != NULL);
    uint64_t size = 9;
    MG_CHECK_EQ_INT(aclGetTensorListSize(empty, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(empty), ACLNN_SUCCESS);
}

MG_TEST(scalar_list_owns_its_scalars) {
    ut_init();
    float a = 1.2f, b = 2.2f;
    aclScalar *s1 = aclCreateScalar(&a, ACL_FLOAT), *s2 = aclCreateScalar(&b, ACL_FLOAT);
    const aclScalar *items[2] = {s1, s2};
    aclScalarList *list = aclCreateScalarList(items, 2);
    MG_CHECK(list != NULL);
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetScalarListSize(list, &size), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(size, 2);
    MG_CHECK_EQ_INT(aclGetScalarListSize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "scalarList");
    MG_CHECK_EQ_INT(aclDestroyScalarList(list), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyScalar(s1), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(aclGetScalarListSize(list, &size), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    /* a tensor is not a scalar */
    aclTensor *t = small_tensor();
    const aclScalar *wrong[1] = {(const aclScalar *)(const void *)t};
    MG_CHECK(aclCreateScalarList(wrong, 1) == NULL);
    MG_CHECK_STR_CONTAINS(message(), "is an aclTensor, not an aclScalar");
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyScalarList(NULL), ACLNN_SUCCESS);
}

/* ---- aclInitTensor, aclSetRawTensorAddr --------------------------------------------- */

MG_TEST(init_tensor_redescribes) {
    ut_init();
    aclTensor *t = small_tensor();
    int64_t dims[4] = {2, 3, 4, 5}, strides[4] = {60, 20, 5, 1}, storage[1] = {120};
    int marker;
    MG_CHECK_EQ_INT(aclInitTensor(t, dims, 4, ACL_FLOAT16, strides, 3, ACL_FORMAT_NCHW, storage, 1, &marker),
                    ACLNN_SUCCESS);
    int64_t *values = NULL;
    uint64_t count = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 4);
    if (values && count == 4) MG_CHECK_EQ_INT(values[3], 5);
    free(values);
    values = NULL;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
    if (values && count == 4) MG_CHECK_EQ_INT(values[0], 60);
    free(values);
    int64_t offset = 0;
    MG_CHECK_EQ_INT(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(offset, 3);
    aclDataType dtype;
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT16);
    aclFormat format;
    MG_CHECK_EQ_INT(aclGetFormat(t, &format), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(format, ACL_FORMAT_NCHW);
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == &marker);
    MG_CHECK_EQ_INT(aclInitTensor(NULL, dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, NULL),
                    ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "tensor");
    /* As CANN's InitTensor: what is not given is kept -- the view shape (viewDims NULL, or
       viewDimsNum 0), the storage shape likewise, the address (NULL) -- and dtype, format and
       offset are set; NULL strides are row-major over the kept view. */
    MG_CHECK_EQ_INT(aclInitTensor(t, NULL, 4, ACL_FLOAT, NULL, 1, ACL_FORMAT_ND, NULL, 0, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetViewShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 4);
    if (values && count == 4) MG_CHECK(values[0] == 2 && values[1] == 3 && values[2] == 4 && values[3] == 5);
    free(values);
    values = NULL;
    MG_CHECK_EQ_INT(aclGetStorageShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 1);
    if (values && count == 1) MG_CHECK_EQ_INT(values[0], 120);
    free(values);
    values = NULL;
    int64_t contiguous[4] = {60, 20, 5, 1}, odd[4] = {1, 2, 6, 24};
    MG_CHECK_EQ_INT(aclInitTensor(t, dims, 4, ACL_FLOAT, odd, 0, ACL_FORMAT_ND, NULL, 0, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclInitTensor(t, NULL, 0, ACL_FLOAT, NULL, 1, ACL_FORMAT_ND, NULL, 0, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 4);
    if (values && count == 4)
        for (int i = 0; i < 4; i++) MG_CHECK_EQ_INT(values[i], contiguous[i]);
    free(values);
    values = NULL;
    MG_CHECK_EQ_INT(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(offset, 1);
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT);
    MG_CHECK_EQ_INT(aclGetFormat(t, &format), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(format, ACL_FORMAT_ND);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == &marker);
    /* the one inconsistent case is refused, writing nothing: strides for 2 dims, view of 4 kept */
    MG_CHECK_EQ_INT(aclInitTensor(t, NULL, 2, ACL_FLOAT16, odd, 0, ACL_FORMAT_ND, NULL, 0, NULL),
                    ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stride gives 2 dims but the view keeps its 4");
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT);
    /* smaller again (reuses the room), then a destroyed tensor */
    MG_CHECK_EQ_INT(aclInitTensor(t, dims, 1, ACL_INT32, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 1);
    if (values && count == 1) MG_CHECK_EQ_INT(values[0], 1);
    free(values);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclInitTensor(t, dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL),
                    ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
}

MG_TEST(set_raw_tensor_addr) {
    ut_init();
    aclTensor *t = small_tensor();
    int a, b;
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclSetRawTensorAddr(t, &a), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == &a);
    MG_CHECK_EQ_INT(aclSetRawTensorAddr(t, &b), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == &b);
    MG_CHECK_EQ_INT(aclSetRawTensorAddr(NULL, &a), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "tensor");
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetRawTensorAddr(t, &a), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
}

/* ---- the executor's address setters ---------------------------------------------------- */

typedef struct trio {
    void *block[3];
    aclTensor *t[3];
} trio;

static void make_trio(trio *x, int64_t n, float value) {
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&x->block[i], (size_t)n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        float *host = malloc((size_t)n * sizeof(float));
        for (int64_t k = 0; k < n; k++) host[k] = i == 0 ? 1.0f : i == 1 ? value : 0.0f;
        aclrtMemcpy(x->block[i], (size_t)n * sizeof(float), host, (size_t)n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
        free(host);
        x->t[i] = aclCreateTensor(&n, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &n, 1, x->block[i]);
    }
}

static void free_trio(trio *x) {
    for (int i = 0; i < 3; i++) {
        aclDestroyTensor(x->t[i]);
        aclrtFree(x->block[i]);
    }
}

static float first_value(void *block) {
    float v = -1;
    aclrtMemcpy(&v, sizeof v, block, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST);
    return v;
}

MG_TEST(set_tensor_addr_counts_inputs_then_outputs) {
    ut_init();
    enum { N = 64 };
    trio a, b;
    make_trio(&a, N, 0.5f);
    make_trio(&b, N, -1.0f);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(a.t[0], a.t[1], a.t[2], &ws, &e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    /* index 1 is input self, index 2 the output gradInput (aclSetTensorAddr counts both) */
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 1, a.t[1], b.block[1]), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(AclSetTensorAddr(e, 2, a.t[2], b.block[2]), ACLNN_SUCCESS);
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(a.t[2], &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == b.block[2]); /* the tensor records it too */
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, e, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_NEAR(first_value(b.block[2]), ut_mish_grad_ref(-1.0), 1e-5);
    MG_CHECK_EQ_INT(first_value(a.block[2]), 0); /* the old output untouched */
    /* the Acl* spellings of the input/output forms */
    MG_CHECK_EQ_INT(AclSetInputTensorAddr(e, 1, a.t[1], a.block[1]), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(AclSetOutputTensorAddr(e, 0, a.t[2], a.block[2]), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, e, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_NEAR(first_value(a.block[2]), ut_mish_grad_ref(0.5), 1e-5);
    /* refusals: index out of range (161002), NULL executor or tensor (561103, as CANN
       documents), a destroyed tensor (161002); nothing written */
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 3, a.t[1], b.block[1]), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "index 3");
    MG_CHECK_EQ_INT(aclSetTensorAddr(NULL, 0, a.t[0], b.block[0]), ACLNN_ERR_INNER_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "executor");
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 0, NULL, b.block[0]), ACLNN_ERR_INNER_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "tensor");
    MG_CHECK_EQ_INT(AclSetInputTensorAddr(e, 2, a.t[1], b.block[1]), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    MG_CHECK_EQ_INT(AclSetOutputTensorAddr(NULL, 0, a.t[2], b.block[2]), ACLNN_ERR_INNER_NULLPTR);
    (void)message();
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(a.t[1], &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == a.block[1]);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    /* a destroyed executor */
    MG_CHECK_EQ_INT(aclSetTensorAddr(e, 0, a.t[0], a.block[0]), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    free_trio(&a);
    free_trio(&b);
}

MG_TEST(dynamic_tensor_addr_forms) {
    ut_init();
    enum { N = 16 };
    trio a;
    make_trio(&a, N, 0.25f);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(a.t[0], a.t[1], a.t[2], &ws, &e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    aclTensor *x = small_tensor();
    const aclTensor *items[1] = {x};
    aclTensorList *list = aclCreateTensorList(items, 1);
    MG_CHECK(list != NULL);
    int other;
    aclnnStatus (*const forms[6])(aclOpExecutor *, size_t, const size_t, aclTensorList *, void *) = {
        aclSetDynamicInputTensorAddr, aclSetDynamicOutputTensorAddr, aclSetDynamicTensorAddr,
        AclSetDynamicInputTensorAddr, AclSetDynamicOutputTensorAddr, AclSetDynamicTensorAddr};
    for (int f = 0; f < 6; f++) {
        MG_CHECK_EQ_INT(forms[f](NULL, 0, 0, list, &other), ACLNN_ERR_INNER_NULLPTR);
        MG_CHECK_STR_CONTAINS(message(), "executor");
        MG_CHECK_EQ_INT(forms[f](e, 0, 0, NULL, &other), ACLNN_ERR_INNER_NULLPTR);
        MG_CHECK_STR_CONTAINS(message(), "tensors");
        MG_CHECK_EQ_INT(forms[f](e, 0, 1, list, &other), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(message(), "relativeIndex");
        /* MishBackward has no aclTensorList parameter: every irIndex is refused */
        MG_CHECK_EQ_INT(forms[f](e, 0, 0, list, &other), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(message(), "irIndex");
    }
    /* a NULL element: 561103, before the executor's parameters are asked (CANN's order) */
    {
        const aclTensor *with_null[2] = {small_tensor(), NULL};
        aclTensorList *holes = aclCreateTensorList(with_null, 2);
        MG_CHECK(holes != NULL);
        for (int f = 0; f < 6; f++) {
            MG_CHECK_EQ_INT(forms[f](e, 0, 1, holes, &other), ACLNN_ERR_INNER_NULLPTR);
            MG_CHECK_STR_CONTAINS(message(), "tensors[1] is NULL");
        }
        MG_CHECK_EQ_INT(aclDestroyTensorList(holes), ACLNN_SUCCESS);
    }
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(x, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == NULL); /* nothing written */
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetDynamicTensorAddr(e, 0, 0, list, &other), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    /* the executor is unharmed */
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, e, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    MG_CHECK_NEAR(first_value(a.block[2]), ut_mish_grad_ref(0.25), 1e-5);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    free_trio(&a);
}

MG_TEST(executor_null_codes_are_canns) {
    ut_init();
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(NULL), ACLNN_ERR_INNER_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "executor");
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(NULL), ACLNN_ERR_INNER_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "executor");
    /* a tensor handle given as an executor */
    aclTensor *t = small_tensor();
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor((aclOpExecutor *)(void *)t), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "is an aclTensor, not an aclOpExecutor");
    /* ...and to phase 2: the same words, without the hint on how executors go stale */
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, (aclOpExecutor *)(void *)t, ut_stream), ACLNN_ERR_PARAM_INVALID);
    {
        const char *m = message();
        MG_CHECK_STR_CONTAINS(m, "is an aclTensor, not an aclOpExecutor");
        MG_CHECK(m != NULL && strstr(m, "single-use") == NULL);
    }
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
}

/* ---- aclnnInit / aclnnFinalize ---------------------------------------------------- */

MG_TEST(aclnn_init_and_finalize) {
    ut_init();
    MG_CHECK_EQ_INT(aclnnInit(NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnInit(""), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnInit("/nonexistent/acl.json"), ACLNN_SUCCESS); /* CANN: defaults, no error */
    MG_CHECK_EQ_INT(aclnnFinalize(), ACLNN_SUCCESS);
    /* aclnnFinalize leaves the program's handles alone (aclFinalize reclaims them) */
    aclTensor *t = small_tensor();
    MG_CHECK_EQ_INT(aclnnFinalize(), ACLNN_SUCCESS);
    aclDataType dtype;
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
}

/* ---- aclDumpOpTensors ------------------------------------------------------------------ */

MG_TEST(dump_op_tensors_checks_its_arguments_and_writes_nothing) {
    ut_init();
    float data[4] = {1, 2, 3, 4};
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, sizeof data, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memcpy(dev, data, sizeof data);
    int64_t dims[1] = {4}, strides[1] = {1};
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev);
    MG_CHECK(t != NULL);
    aclTensor *tensors[2] = {t, t};
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), ACL_SUCCESS);
    /* CANN: each pointer argument NULL is 161001, the stream included. */
    MG_CHECK_EQ_INT(aclDumpOpTensors(NULL, "mish_0", tensors, 1, 1, stream), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "opType is NULL");
    MG_CHECK_EQ_INT(aclDumpOpTensors("Mish", NULL, tensors, 1, 1, stream), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "opName is NULL");
    MG_CHECK_EQ_INT(aclDumpOpTensors("Mish", "mish_0", NULL, 1, 1, stream), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "tensors is NULL");
    MG_CHECK_EQ_INT(aclDumpOpTensors("Mish", "mish_0", tensors, 1, 1, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(message(), "stream is NULL");
    /* No dump service here: success, and the tensor's memory is untouched. */
    MG_CHECK_EQ_INT(aclDumpOpTensors("Mish", "mish_0", tensors, 1, 1, stream), ACLNN_SUCCESS);
    MG_CHECK(memcmp(dev, data, sizeof data) == 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(dev), ACL_SUCCESS);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
