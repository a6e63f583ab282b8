/*
 * tests/ut/runtime/test_tensor_desc.c: aclTensorDesc (acl/acl_base_mdl.h), each function with
 * its status, its message and its behaviour, written from CANN's header and its documented
 * returns (ACL_DT_UNDEFINED / ACL_FORMAT_UNDEFINED / 0 / -1 / "" for a NULL description).
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdint.h>

#include "ut_util.h"

static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

MG_TEST(create_and_read_back) {
    ut_init();
    const int64_t dims[3] = {2, 3, 5};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_ND);
    MG_CHECK(d != NULL);
    MG_CHECK_EQ_INT(aclGetTensorDescType(d), ACL_FLOAT16);
    MG_CHECK_EQ_INT(aclGetTensorDescFormat(d), ACL_FORMAT_ND);
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(d), 3);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(d), 30);
    MG_CHECK_EQ_INT(aclGetTensorDescSize(d), 60);  /* 30 elements of 2 bytes */
    for (size_t i = 0; i < 3; i++) {
        int64_t dim = -7;
        MG_CHECK_EQ_INT(aclGetTensorDescDimV2(d, i, &dim), ACL_SUCCESS);
        MG_CHECK_EQ_INT(dim, dims[i]);
    }
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    MG_CHECK_EQ_INT(aclGetTensorDescDim(d, 2), 5);
    MG_CHECK_EQ_INT(aclGetTensorDescDim(d, 3), -1);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDim: index 3 is out of range (the shape has 3 dims)");
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    /* The description copied the dims: the caller's array may change. */
    int64_t mutable_dims[2] = {4, 4};
    aclTensorDesc *e = aclCreateTensorDesc(ACL_INT32, 2, mutable_dims, ACL_FORMAT_NCHW);
    mutable_dims[0] = 99;
    int64_t dim = 0;
    MG_CHECK_EQ_INT(aclGetTensorDescDimV2(e, 0, &dim), ACL_SUCCESS);
    MG_CHECK_EQ_INT(dim, 4);
    MG_CHECK_EQ_INT(aclGetTensorDescSize(e), 64);
    aclDestroyTensorDesc(e);
    aclDestroyTensorDesc(d);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
}

MG_TEST(scalar_unknown_and_overflowing_shapes) {
    ut_init();
    aclTensorDesc *scalar = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
    MG_CHECK(scalar != NULL);
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(scalar), 0);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(scalar), 1);  /* CANN: a scalar has one element */
    MG_CHECK_EQ_INT(aclGetTensorDescSize(scalar), 4);
    aclDestroyTensorDesc(scalar);

    const int64_t unknown_dim[2] = {-1, 8};
    aclTensorDesc *u = aclCreateTensorDesc(ACL_FLOAT, 2, unknown_dim, ACL_FORMAT_ND);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(u), 0);
    MG_CHECK_EQ_INT(aclGetTensorDescSize(u), 0);
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(u), 2);
    aclDestroyTensorDesc(u);

    const int64_t unknown_rank[1] = {-2};
    aclTensorDesc *r = aclCreateTensorDesc(ACL_FLOAT, 1, unknown_rank, ACL_FORMAT_ND);
    MG_CHECK(aclGetTensorDescNumDims(r) == (size_t)ACL_UNKNOWN_RANK);
    aclDestroyTensorDesc(r);

    const int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 2};
    aclTensorDesc *h = aclCreateTensorDesc(ACL_FLOAT, 3, huge, ACL_FORMAT_ND);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(h), 0);  /* overflows size_t */
    aclDestroyTensorDesc(h);
    const int64_t big[1] = {INT64_C(1) << 62};
    aclTensorDesc *b = aclCreateTensorDesc(ACL_DOUBLE, 1, big, ACL_FORMAT_ND);
    MG_CHECK(aclGetTensorDescElementCount(b) == (size_t)1 << 62);
    MG_CHECK_EQ_INT(aclGetTensorDescSize(b), 0);  /* times 8 overflows */
    aclDestroyTensorDesc(b);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
}

MG_TEST(create_refuses_bad_arguments_with_a_message) {
    ut_init();
    const int64_t dims[1] = {3};
    MG_CHECK(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclCreateTensorDesc: numDims -1 is negative");
    MG_CHECK(aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ACL_FORMAT_ND) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclCreateTensorDesc: dims is NULL while numDims is 2");
}

MG_TEST(null_description_returns_the_documented_values) {
    ut_init();
    MG_CHECK_EQ_INT(aclGetTensorDescType(NULL), ACL_DT_UNDEFINED);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescType: desc is NULL");
    MG_CHECK_EQ_INT(aclGetTensorDescFormat(NULL), ACL_FORMAT_UNDEFINED);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescFormat: desc is NULL");
    MG_CHECK_EQ_INT(aclGetTensorDescSize(NULL), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescSize: desc is NULL");
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(NULL), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescElementCount: desc is NULL");
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(NULL), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescNumDims: desc is NULL");
    int64_t dim = 5;
    MG_CHECK_EQ_INT(aclGetTensorDescDimV2(NULL, 0, &dim), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDimV2: desc is NULL");
    MG_CHECK_EQ_INT(dim, 5);
    MG_CHECK_STR_CONTAINS(aclGetTensorDescName(NULL), "");
    MG_CHECK(aclGetTensorDescName(NULL)[0] == '\0');
    MG_CHECK(aclGetRecentErrMsg() == NULL);  /* CANN: an empty name, no error */
    aclDestroyTensorDesc(NULL);              /* nothing, no message */
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    MG_CHECK_EQ_INT(aclSetTensorFormat(NULL, ACL_FORMAT_NCHW), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorFormat: desc is NULL");
    MG_CHECK(aclGetTensorDescAddress(NULL) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescAddress: desc is NULL");
    MG_CHECK(aclGetTensorDescByIndex(NULL, 0) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescByIndex: desc is NULL");
}

MG_TEST(destroyed_or_foreign_descriptions_are_refused) {
    ut_init();
    const int64_t dims[1] = {3};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    aclDestroyTensorDesc(d);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    aclDestroyTensorDesc(d);  /* a double free on the device: refused here */
    MG_CHECK_STR_CONTAINS(last_message(), "aclDestroyTensorDesc: desc");
    MG_CHECK_EQ_INT(aclGetTensorDescType(d), ACL_DT_UNDEFINED);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(d), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    MG_CHECK_EQ_INT(aclSetTensorShape(d, 1, dims), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorShape: desc");
    MG_CHECK(aclGetTensorDescName(d)[0] == '\0');
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");

    int foreign[8] = {0};
    MG_CHECK_EQ_INT(aclGetTensorDescFormat((aclTensorDesc *)foreign), ACL_FORMAT_UNDEFINED);
    MG_CHECK_STR_CONTAINS(last_message(), "was not created by this library");
    /* Another kind of handle. */
    aclDataBuffer *buffer = aclCreateDataBuffer(NULL, 0);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount((const aclTensorDesc *)buffer), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "is an aclDataBuffer, not an aclTensorDesc");
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

MG_TEST(dim_v2_checks_index_and_output) {
    ut_init();
    const int64_t dims[2] = {7, 9};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_INT8, 2, dims, ACL_FORMAT_ND);
    int64_t dim = 123;
    MG_CHECK_EQ_INT(aclGetTensorDescDimV2(d, 2, &dim), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDimV2: index 2 is out of range (the shape has 2 dims)");
    MG_CHECK_EQ_INT(dim, 123);
    MG_CHECK_EQ_INT(aclGetTensorDescDimV2(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDimV2: dimSize is NULL");
    aclDestroyTensorDesc(d);
}

MG_TEST(origin_and_storage_shape_and_format) {
    ut_init();
    const int64_t dims[2] = {4, 6};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_NCHW);
    /* The storage shape and format (aclSetTensorShape / aclSetTensorFormat and the deprecated
       Storage forms) do not change what the getters read: the origin ones do, as in CANN. */
    const int64_t storage[4] = {1, 1, 16, 16};
    MG_CHECK_EQ_INT(aclSetTensorShape(d, 4, storage), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorFormat(d, ACL_FORMAT_FRACTAL_NZ), ACL_SUCCESS);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    MG_CHECK_EQ_INT(aclSetTensorStorageShape(d, 4, storage), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorStorageFormat(d, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorStorageShape(d, -1, storage), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorStorageShape: numDims -1 is negative");
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(d), 2);
    MG_CHECK_EQ_INT(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(d), 24);

    const int64_t origin[3] = {2, 2, 2};
    MG_CHECK_EQ_INT(aclSetTensorOriginShape(d, 3, origin), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorOriginFormat(d, ACL_FORMAT_NHWC), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclGetTensorDescNumDims(d), 3);
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(d), 8);
    MG_CHECK_EQ_INT(aclGetTensorDescFormat(d), ACL_FORMAT_NHWC);
    MG_CHECK_EQ_INT(aclSetTensorOriginShape(d, 0, origin), ACL_SUCCESS);  /* now a scalar */
    MG_CHECK_EQ_INT(aclGetTensorDescElementCount(d), 1);
    MG_CHECK_EQ_INT(aclSetTensorOriginShape(d, 1, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorOriginShape: dims is NULL");
    MG_CHECK_EQ_INT(aclSetTensorShape(d, 2, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorShape: dims is NULL");
    aclDestroyTensorDesc(d);
}

MG_TEST(shape_and_value_ranges) {
    ut_init();
    const int64_t dims[2] = {-1, 8};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    int64_t range[2] = {-5, -5};
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 0, 2, range), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDimRange: index 0 is out of range (0 shape ranges set)");
    int64_t ranges[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 64}, {8, 8}};
    MG_CHECK_EQ_INT(aclSetTensorShapeRange(d, 2, ranges), ACL_SUCCESS);
    ranges[0][1] = 1000;  /* copied */
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 0, 2, range), ACL_SUCCESS);
    MG_CHECK_EQ_INT(range[0], 1);
    MG_CHECK_EQ_INT(range[1], 64);
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 1, 2, range), ACL_SUCCESS);
    MG_CHECK_EQ_INT(range[0], 8);
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 0, 1, range), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "dimRangeNum 1 is less than 2");
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 0, 2, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescDimRange: dimRange is NULL");
    MG_CHECK_EQ_INT(aclSetTensorShapeRange(d, 1, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorShapeRange: dimsRange is NULL while dimsCount is 1");
    MG_CHECK_EQ_INT(aclSetTensorShapeRange(d, 0, NULL), ACL_SUCCESS);  /* clears */
    MG_CHECK_EQ_INT(aclGetTensorDescDimRange(d, 0, 2, range), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();

    int64_t values[1][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 10}};
    MG_CHECK_EQ_INT(aclSetTensorValueRange(d, 1, values), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorValueRange(NULL, 1, values), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorValueRange: desc is NULL");
    MG_CHECK_EQ_INT(aclSetTensorValueRange(d, 3, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "valueRange is NULL while valueCount is 3");
    aclDestroyTensorDesc(d);
}

MG_TEST(name_dynamic_input_const_placement_index_address) {
    ut_init();
    const int64_t dims[1] = {4};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    MG_CHECK(strcmp(aclGetTensorDescName(d), "") == 0);
    char name[16] = "x_input";
    aclSetTensorDescName(d, name);
    name[0] = 'Z';  /* copied */
    MG_CHECK(strcmp(aclGetTensorDescName(d), "x_input") == 0);
    aclSetTensorDescName(d, NULL);
    MG_CHECK(strcmp(aclGetTensorDescName(d), "") == 0);
    aclSetTensorDescName(NULL, "y");
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorDescName: desc is NULL");

    MG_CHECK_EQ_INT(aclSetTensorDynamicInput(d, "x"), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorDynamicInput(d, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorDynamicInput: dynamicInputName is NULL");

    float value[4] = {1, 2, 3, 4};
    MG_CHECK_EQ_INT(aclSetTensorConst(d, value, sizeof value), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorConst(d, NULL, 16), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorConst: dataBuffer is NULL");
    MG_CHECK_EQ_INT(aclSetTensorConst(d, value, 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorConst: length is 0");

    MG_CHECK_EQ_INT(aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclSetTensorPlaceMent(d, (aclMemType)7), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclSetTensorPlaceMent: memType 7 is not an aclMemType");

    MG_CHECK(aclGetTensorDescByIndex(d, 0) == d);
    MG_CHECK(aclGetTensorDescByIndex(d, 1) == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetTensorDescByIndex: index 1 is out of range");
    MG_CHECK(aclGetTensorDescAddress(d) == NULL);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    aclDestroyTensorDesc(d);
}

MG_TEST(trans_format_is_not_supported) {
    ut_init();
    const int64_t dims[4] = {1, 16, 4, 4};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 4, dims, ACL_FORMAT_NCHW);
    aclTensorDesc *out = (aclTensorDesc *)&dims;
    MG_CHECK_EQ_INT(aclTransTensorDescFormat(d, ACL_FORMAT_NC1HWC0, &out), ACL_ERROR_API_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(), "aclTransTensorDescFormat: converting a shape to format 3 is not supported");
    MG_CHECK(out == (aclTensorDesc *)&dims);  /* untouched */
    MG_CHECK_EQ_INT(aclTransTensorDescFormat(NULL, ACL_FORMAT_NC1HWC0, &out), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclTransTensorDescFormat: srcDesc is NULL");
    MG_CHECK_EQ_INT(aclTransTensorDescFormat(d, ACL_FORMAT_NC1HWC0, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclTransTensorDescFormat: dstDesc is NULL");
    aclDestroyTensorDesc(d);
}

/* Getters racing setters see the old value or the new one (TSan: no race). */
static aclTensorDesc *shared_desc;
static void *reshaper(void *arg) {
    (void)arg;
    const int64_t a[2] = {2, 3}, b[3] = {1, 2, 3};
    for (int i = 0; i < 2000; i++) {
        (void)aclSetTensorOriginShape(shared_desc, (i & 1) ? 2 : 3, (i & 1) ? a : b);
        aclSetTensorDescName(shared_desc, (i & 1) ? "a" : "b");
    }
    return NULL;
}

MG_TEST(concurrent_setters_and_getters) {
    ut_init();
    const int64_t a[2] = {2, 3};
    shared_desc = aclCreateTensorDesc(ACL_FLOAT, 2, a, ACL_FORMAT_ND);
    pthread_t t;
    MG_CHECK(pthread_create(&t, NULL, reshaper, NULL) == 0);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        size_t n = aclGetTensorDescNumDims(shared_desc);
        size_t count = aclGetTensorDescElementCount(shared_desc);
        if (!((n == 2 || n == 3) && count == 6)) bad++;
    }
    pthread_join(t, NULL);
    MG_CHECK_EQ_INT(bad, 0);
    aclDestroyTensorDesc(shared_desc);
}

/* aclFinalize reclaims descriptions the program left (counted like every handle). */
MG_TEST(finalize_reclaims_descriptions) {
    ut_init();
    const int64_t dims[1] = {1};
    aclTensorDesc *left = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    MG_CHECK(left != NULL);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&ut_stream), ACL_SUCCESS);  /* ut_main's teardown destroys it */
    MG_CHECK_EQ_INT(aclGetTensorDescType(left), ACL_DT_UNDEFINED);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
