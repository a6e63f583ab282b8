/*
 * tests/ut/nnopbase/test_tensor.c: aclTensor descriptors (libnnopbase): creation,
 * destruction, getters, and what aclCreateTensor itself refuses.
 */
#include <stdint.h>

#include "ut_util.h"

static const char *recent_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(null)";
}

MG_TEST(create_and_destroy) {
    ut_init();
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 24 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int64_t dims[3] = {2, 3, 4}, storage[1] = {24};
    aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, block);
    MG_CHECK(t != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    /* Creating a descriptor needs no valid memory: the operator judges it later. */
    int64_t odd[2] = {-1, 5};
    t = aclCreateTensor(odd, 2, ACL_DOUBLE, NULL, -3, ACL_FORMAT_NCHW, storage, 1, NULL);
    MG_CHECK(t != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    aclrtFree(block);
}

MG_TEST(getters_return_what_was_given) {
    ut_init();
    void *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&block, 200 * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int64_t dims[3] = {4, 5, 3}, strides[3] = {1, 4, 40}, storage[2] = {10, 20};
    aclTensor *t = aclCreateTensor(dims, 3, ACL_BF16, strides, 7, ACL_FORMAT_HWCN, storage, 2, block);
    MG_CHECK(t != NULL);
    if (!t) return;
    /* The descriptor holds copies: changing the caller's arrays changes nothing. */
    dims[0] = 99;
    strides[0] = 99;
    storage[0] = 99;

    int64_t *values = NULL;
    uint64_t count = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 3);
    if (values && count == 3) {
        MG_CHECK_EQ_INT(values[0], 4);
        MG_CHECK_EQ_INT(values[1], 5);
        MG_CHECK_EQ_INT(values[2], 3);
    }
    free(values);  /* the header's promise: malloc'd, released with free() */

    values = NULL;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 3);
    if (values && count == 3) {
        MG_CHECK_EQ_INT(values[0], 1);
        MG_CHECK_EQ_INT(values[1], 4);
        MG_CHECK_EQ_INT(values[2], 40);
    }
    free(values);

    values = NULL;
    MG_CHECK_EQ_INT(aclGetStorageShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 2);
    if (values && count == 2) {
        MG_CHECK_EQ_INT(values[0], 10);
        MG_CHECK_EQ_INT(values[1], 20);
    }
    free(values);

    int64_t offset = -1;
    MG_CHECK_EQ_INT(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(offset, 7);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    MG_CHECK_EQ_INT(aclGetFormat(t, &format), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(format, ACL_FORMAT_HWCN);
    aclDataType dtype = ACL_DT_UNDEFINED;
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_BF16);
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    MG_CHECK(addr == block);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    aclrtFree(block);
}

MG_TEST(null_stride_means_row_major) {
    ut_init();
    int64_t dims[4] = {2, 3, 4, 5}, storage[1] = {120};
    aclTensor *t = aclCreateTensor(dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, storage, 1, NULL);
    MG_CHECK(t != NULL);
    if (!t) return;
    int64_t *strides = NULL;
    uint64_t count = 0;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &strides, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 4);
    if (strides && count == 4) {
        MG_CHECK_EQ_INT(strides[0], 60);
        MG_CHECK_EQ_INT(strides[1], 20);
        MG_CHECK_EQ_INT(strides[2], 5);
        MG_CHECK_EQ_INT(strides[3], 1);
    }
    free(strides);
    aclDestroyTensor(t);

    /* Row-major through a zero dim: the strides are still the products of later dims. */
    int64_t empty[3] = {3, 0, 2};
    t = aclCreateTensor(empty, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, NULL);
    MG_CHECK(t != NULL);
    if (!t) return;
    strides = NULL;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &strides, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 3);
    if (strides && count == 3) {
        MG_CHECK_EQ_INT(strides[1], 2);
        MG_CHECK_EQ_INT(strides[2], 1);
    }
    free(strides);
    aclDestroyTensor(t);
}

MG_TEST(rank_0_scalar_descriptor) {
    ut_init();
    int64_t storage[1] = {1};
    aclTensor *t = aclCreateTensor(NULL, 0, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, storage, 1, NULL);
    MG_CHECK(t != NULL);
    if (!t) return;
    int64_t *values = NULL;
    uint64_t count = 99;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 0);
    free(values);
    values = NULL;
    count = 99;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, &count), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(count, 0);
    free(values);
    aclDestroyTensor(t);
}

MG_TEST(null_arguments_to_getters_are_161001) {
    ut_init();
    int64_t dims[1] = {4}, storage[1] = {4};
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, NULL);
    MG_CHECK(t != NULL);
    int64_t *values = NULL;
    uint64_t count = 0;
    int64_t offset = 0;
    aclFormat format;
    aclDataType dtype;
    void *addr;
    /* A NULL tensor. */
    MG_CHECK_EQ_INT(aclGetViewShape(NULL, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK(strlen(recent_message()) > 0);
    MG_CHECK_EQ_INT(aclGetViewStrides(NULL, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetStorageShape(NULL, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetViewOffset(NULL, &offset), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetFormat(NULL, &format), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetDataType(NULL, &dtype), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(NULL, &addr), ACLNN_ERR_PARAM_NULLPTR);
    /* NULL places to write the answer. */
    MG_CHECK_EQ_INT(aclGetViewShape(t, NULL, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetViewShape(t, &values, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetViewStrides(t, NULL, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &values, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetStorageShape(t, NULL, &count), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetStorageShape(t, &values, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetFormat(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetDataType(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK(values == NULL);  /* nothing was allocated along the way */
    aclDestroyTensor(t);
}

MG_TEST(create_refuses_missing_arrays) {
    ut_init();
    int64_t storage[1] = {4};
    /* viewDims NULL with a non-zero count, storageDims NULL with a non-zero count. */
    aclTensor *t = aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, NULL);
    MG_CHECK(t == NULL);
    MG_CHECK(strlen(recent_message()) > 0);
    int64_t dims[1] = {4};
    t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 1, NULL);
    MG_CHECK(t == NULL);
    if (t) aclDestroyTensor(t);
}

MG_TEST(many_tensors_do_not_interfere) {
    ut_init();
    enum { COUNT = 64 };
    aclTensor *t[COUNT];
    int64_t storage[1] = {1000};
    for (int i = 0; i < COUNT; i++) {
        int64_t dims[2] = {i + 1, 2 * i + 1};
        t[i] = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, i, ACL_FORMAT_ND, storage, 1, NULL);
        MG_CHECK(t[i] != NULL);
    }
    for (int i = 0; i < COUNT; i++) {
        int64_t *dims = NULL, offset = -1;
        uint64_t count = 0;
        if (!t[i]) continue;
        MG_CHECK_EQ_INT(aclGetViewShape(t[i], &dims, &count), ACLNN_SUCCESS);
        if (dims && count == 2) {
            MG_CHECK_EQ_INT(dims[0], i + 1);
            MG_CHECK_EQ_INT(dims[1], 2 * i + 1);
        }
        free(dims);
        MG_CHECK_EQ_INT(aclGetViewOffset(t[i], &offset), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(offset, i);
        aclDestroyTensor(t[i]);
    }
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
