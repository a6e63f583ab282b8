/*
 * tests/reliability/test_mutation_meta.c: the tensor base's argument objects (aclScalar, the
 * arrays, the lists) with every refusal's exact status and whole message, the size limits
 * at their boundaries, the getters, and the ownership rules of lists (a list destroys what
 * it holds; an element destroyed first is skipped; NULL elements are allowed), written out
 * from nnopbase's documented behaviour (acl_meta_objects.c's header, docs/runtime.md).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "mg_test.h"
#include "rel_setup.h"
#include "mg_acl_session.h"

static void up(void) {
    mg_acl_session_up();
    (void)aclGetRecentErrMsg();
}

MG_TEST(scalar_refusals_and_sizes) {
    up();
    double v[2] = {1.5, 2.5};
    MG_CHECK(aclCreateScalar(NULL, ACL_FLOAT) == NULL);
    REL_CHECK_MESSAGE("aclCreateScalar: value is NULL");
    /* CANN's aclScalar list (its constructor): these dtypes, each read with its own width
       (the FP6 / FP4 ones one byte, though aclDataTypeSize says 8); every other value is
       refused. The widths are checked with the value last in a buffer: a wider read would
       leave the byte pattern of what follows in the scalar's value, which is not checked
       here, so the width table is checked against CANN's instead. */
    static const struct { int dtype; int bytes; } takes[] = {
        {ACL_FLOAT, 4}, {ACL_FLOAT16, 2}, {ACL_INT8, 1}, {ACL_INT32, 4}, {ACL_UINT8, 1}, {ACL_INT16, 2},
        {ACL_UINT16, 2}, {ACL_UINT32, 4}, {ACL_INT64, 8}, {ACL_UINT64, 8}, {ACL_DOUBLE, 8}, {ACL_BOOL, 1},
        {ACL_COMPLEX64, 8}, {ACL_COMPLEX128, 16}, {ACL_BF16, 2}, {ACL_HIFLOAT8, 1}, {ACL_FLOAT8_E5M2, 1},
        {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1}, {ACL_FLOAT6_E3M2, 1}, {ACL_FLOAT6_E2M3, 1},
        {ACL_FLOAT4_E2M1, 1}, {ACL_FLOAT4_E1M2, 1}};
    for (int d = -2; d < 60; d++) {
        int taken = 0;
        for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++) taken |= takes[k].dtype == d;
        aclScalar *s = aclCreateScalar(v, (aclDataType)d);
        if (taken) {
            if (s == NULL) MG_FAIL("dtype %d refused: %s", d, rel_message());
            else MG_CHECK(aclDestroyScalar(s) == 0);
        } else {
            if (s != NULL) {
                MG_FAIL("dtype %d taken; CANN's aclScalar refuses it", d);
                aclDestroyScalar(s);
                continue;
            }
            char want[320];
            snprintf(want, sizeof want,
                     "aclCreateScalar: dataType %d is not a scalar type; supported: FLOAT, FLOAT16, INT8, INT32, "
                     "UINT8, INT16, UINT16, UINT32, INT64, UINT64, DOUBLE, BOOL, COMPLEX64, COMPLEX128, BF16, "
                     "HIFLOAT8, FLOAT8_E5M2, FLOAT8_E4M3FN, FLOAT8_E8M0, FLOAT6_E3M2, FLOAT6_E2M3, FLOAT4_E2M1, "
                     "FLOAT4_E1M2",
                     d);
            REL_CHECK_MESSAGE(want);
        }
    }
}

/* Each scalar reads exactly its dtype's width: the value is put against a page that may
   not be read, so one byte more faults (the FP6 / FP4 scalars once read 8 bytes). */
MG_TEST(scalar_reads_its_width_only) {
    up();
    const long page = sysconf(_SC_PAGESIZE);
    unsigned char *two = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    MG_CHECK(two != MAP_FAILED);
    if (two == MAP_FAILED) return;
    MG_CHECK_EQ_INT(mprotect(two + page, (size_t)page, PROT_NONE), 0);
    static const struct { aclDataType dtype; int bytes; } widths[] = {
        {ACL_FLOAT6_E3M2, 1}, {ACL_FLOAT6_E2M3, 1}, {ACL_FLOAT4_E2M1, 1}, {ACL_FLOAT4_E1M2, 1}, {ACL_HIFLOAT8, 1},
        {ACL_FLOAT8_E8M0, 1}, {ACL_BOOL, 1}, {ACL_BF16, 2}, {ACL_FLOAT, 4}, {ACL_DOUBLE, 8}, {ACL_COMPLEX128, 16}};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        unsigned char *value = two + page - widths[k].bytes;
        memset(value, 0x3c, (size_t)widths[k].bytes);
        aclScalar *s = aclCreateScalar(value, widths[k].dtype);
        MG_CHECK(s != NULL);
        MG_CHECK_EQ_INT(aclDestroyScalar(s), 0);
    }
    munmap(two, (size_t)page * 2);
}

MG_TEST(arrays_refusals_limits_and_getters) {
    up();
    int64_t iv[3] = {1, 2, 3};
    float fv[2] = {1, 2};
    bool bv[4] = {true, false, true, true};
    /* NULL values, with any size: an empty array, as CANN's aclArray makes it */
    uint64_t size = 99;
    {
        aclIntArray *ei = aclCreateIntArray(NULL, 2);
        aclFloatArray *ef = aclCreateFloatArray(NULL, 1);
        aclBoolArray *eb = aclCreateBoolArray(NULL, 7);
        MG_CHECK(ei != NULL && ef != NULL && eb != NULL);
        MG_CHECK_EQ_INT(aclGetIntArraySize(ei, &size), 0);
        MG_CHECK_EQ_INT(size, 0);
        size = 99;
        MG_CHECK_EQ_INT(aclGetFloatArraySize(ef, &size), 0);
        MG_CHECK_EQ_INT(size, 0);
        size = 99;
        MG_CHECK_EQ_INT(aclGetBoolArraySize(eb, &size), 0);
        MG_CHECK_EQ_INT(size, 0);
        MG_CHECK_EQ_INT(aclDestroyIntArray(ei), 0);
        MG_CHECK_EQ_INT(aclDestroyFloatArray(ef), 0);
        MG_CHECK_EQ_INT(aclDestroyBoolArray(eb), 0);
    }
    aclIntArray *empty = aclCreateIntArray(NULL, 0);
    MG_CHECK(empty != NULL);
    size = 99;
    MG_CHECK_EQ_INT(aclGetIntArraySize(empty, &size), 0);
    MG_CHECK_EQ_INT(size, 0);
    MG_CHECK_EQ_INT(aclDestroyIntArray(empty), 0);
    /* sizes larger than memory, just past the limit: refused as such (not an allocation) */
    const uint64_t huge = UINT64_MAX / 8 + 1;
    MG_CHECK(aclCreateIntArray(iv, huge) == NULL);
    {
        char want[128];
        snprintf(want, sizeof want, "aclCreateIntArray: size %llu is larger than memory", (unsigned long long)huge);
        REL_CHECK_MESSAGE(want);
    }
    MG_CHECK(aclCreateFloatArray(fv, UINT64_MAX) == NULL);
    {
        char want[128];
        snprintf(want, sizeof want, "aclCreateFloatArray: size %llu is larger than memory", (unsigned long long)UINT64_MAX);
        REL_CHECK_MESSAGE(want);
    }
    /* the sizes come back */
    aclIntArray *ia = aclCreateIntArray(iv, 3);
    aclFloatArray *fa = aclCreateFloatArray(fv, 2);
    aclBoolArray *ba = aclCreateBoolArray(bv, 4);
    MG_CHECK(ia && fa && ba);
    MG_CHECK_EQ_INT(aclGetIntArraySize(ia, &size), 0);
    MG_CHECK_EQ_INT(size, 3);
    MG_CHECK_EQ_INT(aclGetFloatArraySize(fa, &size), 0);
    MG_CHECK_EQ_INT(size, 2);
    MG_CHECK_EQ_INT(aclGetBoolArraySize(ba, &size), 0);
    MG_CHECK_EQ_INT(size, 4);
    /* getters' NULLs, in order: the handle, then size */
    MG_CHECK_EQ_INT(aclGetIntArraySize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetIntArraySize: array is NULL");
    MG_CHECK_EQ_INT(aclGetIntArraySize(ia, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetIntArraySize: size is NULL");
    MG_CHECK_EQ_INT(aclGetFloatArraySize(NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetFloatArraySize: array is NULL");
    MG_CHECK_EQ_INT(aclGetTensorListSize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetTensorListSize: tensorList is NULL");
    MG_CHECK_EQ_INT(aclGetScalarListSize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetScalarListSize: scalarList is NULL");
    /* a handle of another kind is refused by the getter and by the destroy */
    MG_CHECK(aclGetIntArraySize((const aclIntArray *)fa, &size) != 0);
    MG_CHECK(aclDestroyIntArray((const aclIntArray *)ba) == ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(rel_message(), "aclDestroyIntArray: array (aclIntArray ");
    /* destroy twice: the second is refused naming the call, the argument and the kind */
    MG_CHECK_EQ_INT(aclDestroyIntArray(ia), 0);
    MG_CHECK_EQ_INT(aclDestroyIntArray(ia), ACLNN_ERR_PARAM_INVALID);
    {
        char want[96];
        snprintf(want, sizeof want, "aclDestroyIntArray: array (aclIntArray %p) ", (void *)ia);
        MG_CHECK(strncmp(rel_message(), want, strlen(want)) == 0);
    }
    MG_CHECK_EQ_INT(aclDestroyFloatArray(fa), 0);
    MG_CHECK_EQ_INT(aclDestroyBoolArray(ba), 0);
    /* destroying NULL succeeds, for every kind, and says nothing */
    MG_CHECK_EQ_INT(aclDestroyScalar(NULL) | aclDestroyIntArray(NULL) | aclDestroyFloatArray(NULL) |
                        aclDestroyBoolArray(NULL) | aclDestroyTensorList(NULL) | aclDestroyScalarList(NULL),
                    0);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
}

MG_TEST(lists_own_their_elements) {
    up();
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {8};
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev);
    /* NULL values with a size: an empty list (CANN's); a stale element; an element of another kind */
    {
        aclTensorList *none = aclCreateTensorList(NULL, 3);
        uint64_t n = 9;
        MG_CHECK(none != NULL);
        MG_CHECK_EQ_INT(aclGetTensorListSize(none, &n), 0);
        MG_CHECK_EQ_INT(n, 0);
        MG_CHECK_EQ_INT(aclDestroyTensorList(none), 0);
        aclScalarList *no_scalars = aclCreateScalarList(NULL, 4);
        n = 9;
        MG_CHECK(no_scalars != NULL);
        MG_CHECK_EQ_INT(aclGetScalarListSize(no_scalars, &n), 0);
        MG_CHECK_EQ_INT(n, 0);
        MG_CHECK_EQ_INT(aclDestroyScalarList(no_scalars), 0);
    }
    aclTensor *stale = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev);
    MG_CHECK_EQ_INT(aclDestroyTensor(stale), 0);
    const aclTensor *with_stale[3] = {t[0], t[1], stale};
    MG_CHECK(aclCreateTensorList(with_stale, 3) == NULL);
    {
        char want[96];
        snprintf(want, sizeof want, "aclCreateTensorList: value[2] (aclTensor %p) ", (void *)stale);
        MG_CHECK(strncmp(rel_message(), want, strlen(want)) == 0);
    }
    float one = 1.0f;
    aclScalar *s0 = aclCreateScalar(&one, ACL_FLOAT), *s1 = aclCreateScalar(&one, ACL_FLOAT);
    const aclScalar *wrong_kind[2] = {s0, (const aclScalar *)t[0]};
    MG_CHECK(aclCreateScalarList(wrong_kind, 2) == NULL);
    MG_CHECK_STR_CONTAINS(rel_message(), "aclCreateScalarList: value[1] (aclScalar ");
    /* t[0], NULL, t[1]: NULL elements are allowed; the size counts them */
    const aclTensor *members[3] = {t[0], NULL, t[1]};
    aclTensorList *list = aclCreateTensorList(members, 3);
    MG_CHECK(list != NULL);
    uint64_t size = 0;
    MG_CHECK_EQ_INT(aclGetTensorListSize(list, &size), 0);
    MG_CHECK_EQ_INT(size, 3);
    /* an element destroyed before its list: the list skips it */
    MG_CHECK_EQ_INT(aclDestroyTensor(t[1]), 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), 0);
    /* the list destroyed t[0]; t[2] was never in it */
    MG_CHECK_EQ_INT(aclDestroyTensor(t[0]), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclDestroyTensor(t[2]), 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID);
    {
        char want[96];
        snprintf(want, sizeof want, "aclDestroyTensorList: array (aclTensorList %p) ", (void *)list);
        MG_CHECK(strncmp(rel_message(), want, strlen(want)) == 0);
    }
    const aclScalar *scalars[2] = {s0, s1};
    aclScalarList *sl = aclCreateScalarList(scalars, 2);
    MG_CHECK(sl != NULL);
    MG_CHECK_EQ_INT(aclGetScalarListSize(sl, &size), 0);
    MG_CHECK_EQ_INT(size, 2);
    MG_CHECK_EQ_INT(aclDestroyScalarList(sl), 0);
    MG_CHECK_EQ_INT(aclDestroyScalar(s0), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclDestroyScalar(s1), ACLNN_ERR_PARAM_INVALID);
    /* an empty list */
    aclTensorList *none = aclCreateTensorList(NULL, 0);
    MG_CHECK(none != NULL);
    MG_CHECK_EQ_INT(aclGetTensorListSize(none, &size), 0);
    MG_CHECK_EQ_INT(size, 0);
    MG_CHECK_EQ_INT(aclDestroyTensorList(none), 0);
    aclrtFree(dev);
}

/* The tensor getters give back exactly the descriptor (arrays in malloc memory the caller
   frees), aclInitTensor replaces it (growing its room or not), aclSetRawTensorAddr moves the
   data, and each getter's NULLs are refused in order: the tensor, then the outputs. */
static void check_descriptor(aclTensor *t, int rank, const int64_t *dims, const int64_t *strides, int64_t offset,
                             aclFormat format, aclDataType dtype, int srank, const int64_t *sdims, void *data) {
    int64_t *a = NULL;
    uint64_t n = 99;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &a, &n), 0);
    MG_CHECK(a != NULL && n == (uint64_t)rank && (rank == 0 || memcmp(a, dims, (size_t)rank * 8) == 0));
    free(a);
    a = NULL;
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &a, &n), 0);
    MG_CHECK(a != NULL && n == (uint64_t)rank && (rank == 0 || memcmp(a, strides, (size_t)rank * 8) == 0));
    free(a);
    a = NULL;
    MG_CHECK_EQ_INT(aclGetStorageShape(t, &a, &n), 0);
    MG_CHECK(a != NULL && n == (uint64_t)srank && (srank == 0 || memcmp(a, sdims, (size_t)srank * 8) == 0));
    free(a);
    int64_t off = -1;
    aclFormat f = (aclFormat)-5;
    aclDataType dt = (aclDataType)-5;
    void *raw = NULL;
    MG_CHECK_EQ_INT(aclGetViewOffset(t, &off), 0);
    MG_CHECK_EQ_INT(off, offset);
    MG_CHECK_EQ_INT(aclGetFormat(t, &f), 0);
    MG_CHECK_EQ_INT(f, format);
    MG_CHECK_EQ_INT(aclGetDataType(t, &dt), 0);
    MG_CHECK_EQ_INT(dt, dtype);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &raw), 0);
    MG_CHECK(raw == data);
}

MG_TEST(tensor_getters_give_back_the_descriptor) {
    up();
    void *dev = NULL, *dev2 = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(aclrtMalloc(&dev2, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[3] = {2, 3, 4}, strides[3] = {1, 2, 6}, sdims[2] = {6, 5};
    aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT16, strides, 7, ACL_FORMAT_NCHW, sdims, 2, dev);
    MG_CHECK(t != NULL);
    check_descriptor(t, 3, dims, strides, 7, ACL_FORMAT_NCHW, ACL_FLOAT16, 2, sdims, dev);
    /* NULL strides: row-major */
    int64_t rm[3] = {12, 4, 1}, s1[1] = {24};
    aclTensor *r = aclCreateTensor(dims, 3, ACL_BF16, NULL, 0, ACL_FORMAT_ND, s1, 1, dev);
    check_descriptor(r, 3, dims, rm, 0, ACL_FORMAT_ND, ACL_BF16, 1, s1, dev);
    /* aclInitTensor: a larger descriptor (more room), then a smaller one */
    int64_t d5[5] = {1, 2, 1, 3, 1}, st5[5] = {6, 3, 3, 1, 1}, sd3[3] = {1, 2, 3};
    MG_CHECK_EQ_INT(aclInitTensor(t, d5, 5, ACL_FLOAT, st5, 2, ACL_FORMAT_NHWC, sd3, 3, dev2), 0);
    check_descriptor(t, 5, d5, st5, 2, ACL_FORMAT_NHWC, ACL_FLOAT, 3, sd3, dev2);
    int64_t d1[1] = {9}, st1[1] = {1}, sd1[1] = {9};
    MG_CHECK_EQ_INT(aclInitTensor(t, d1, 1, ACL_FLOAT, st1, 0, ACL_FORMAT_ND, sd1, 1, dev), 0);
    check_descriptor(t, 1, d1, st1, 0, ACL_FORMAT_ND, ACL_FLOAT, 1, sd1, dev);
    /* a rank-0 view (a scalar tensor) */
    aclTensor *z = aclCreateTensor(d1, 0, ACL_FLOAT, NULL, 3, ACL_FORMAT_ND, sd1, 1, dev);
    MG_CHECK(z != NULL);
    check_descriptor(z, 0, d1, st1, 3, ACL_FORMAT_ND, ACL_FLOAT, 1, sd1, dev);
    MG_CHECK_EQ_INT(aclSetRawTensorAddr(z, dev2), 0);
    void *raw = NULL;
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(z, &raw), 0);
    MG_CHECK(raw == dev2);
    /* the NULLs, in order */
    int64_t *a = NULL;
    uint64_t n = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(NULL, &a, &n), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetViewShape: tensor is NULL");
    MG_CHECK_EQ_INT(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetViewShape: viewDims is NULL");
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetViewStrides: stridesNum is NULL");
    MG_CHECK_EQ_INT(aclGetStorageShape(t, NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetStorageShape: storageDims is NULL");
    MG_CHECK_EQ_INT(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetViewOffset: offset is NULL");
    MG_CHECK_EQ_INT(aclGetFormat(NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetFormat: tensor is NULL");
    MG_CHECK_EQ_INT(aclGetDataType(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetDataType: dataType is NULL");
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclGetRawTensorAddr: addr is NULL");
    /* a destroyed tensor: refused, outputs untouched */
    MG_CHECK_EQ_INT(aclDestroyTensor(r), 0);
    a = (int64_t *)(uintptr_t)0x1234;
    n = 77;
    MG_CHECK(aclGetViewShape(r, &a, &n) != 0);
    MG_CHECK(a == (int64_t *)(uintptr_t)0x1234 && n == 77);
    (void)aclGetRecentErrMsg();
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    MG_CHECK_EQ_INT(aclDestroyTensor(z), 0);
    aclrtFree(dev);
    aclrtFree(dev2);
}

MG_TEST(aclnn_init_and_finalize_always_succeed) {
    up();
    MG_CHECK_EQ_INT(aclnnInit(NULL), 0);
    MG_CHECK_EQ_INT(aclnnInit(""), 0);
    MG_CHECK_EQ_INT(aclnnInit("/no/such/file.json"), 0);
    MG_CHECK_EQ_INT(aclnnFinalize(), 0);
    MG_CHECK_EQ_INT(aclnnFinalize(), 0);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
}

/* ---- the array size limit's two sides (issue 25.13) ------------------------------------------ */

/* Under a sanitizer the allocator stops the program at a request near SIZE_MAX instead of
   answering NULL (its allocator_may_return_null is CI's to set), so the allocation side of the
   limit is the plain builds' to check. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PLAIN_BUILD 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PLAIN_BUILD 0
#endif
#endif
#ifndef PLAIN_BUILD
#define PLAIN_BUILD 1
#endif

/* An array object is a 16-byte header (its uint64_t count, values aligned to 16) and the
   values: `elem` bytes each. The largest size whose byte count fits in a size_t: */
static uint64_t largest_representable(size_t elem) { return (uint64_t)((SIZE_MAX - 16) / elem); }

MG_TEST(create_array_size_limit_both_sides) {
    up();
    static const int64_t iv[1] = {1};
    static const float fv[1] = {1.0f};
    static const bool bv[1] = {true};
    const uint64_t li = largest_representable(sizeof(int64_t));
    const uint64_t lf = largest_representable(sizeof(float));
    const uint64_t lb = largest_representable(sizeof(bool));
    /* The object calls return NULL; the message tells the code: "out of memory" is the
       failed allocation's (561000), "larger than memory" the refused size's (161002).
       At the limit: an allocation of nearly SIZE_MAX bytes, which fails. */
    if (PLAIN_BUILD) {
        MG_CHECK(aclCreateIntArray(iv, li) == NULL);
        MG_CHECK(strstr(rel_message(), "aclCreateIntArray: out of memory") != NULL);
        MG_CHECK(aclCreateFloatArray(fv, lf) == NULL);
        MG_CHECK(strstr(rel_message(), "aclCreateFloatArray: out of memory") != NULL);
        MG_CHECK(aclCreateBoolArray(bv, lb) == NULL);
        MG_CHECK(strstr(rel_message(), "aclCreateBoolArray: out of memory") != NULL);
    } else {
        printf("  sanitizer build: the allocation at the limit is left to the plain builds\n");
    }
    /* one past it: larger than memory (161002), said as such */
    char want[128];
    MG_CHECK(aclCreateIntArray(iv, li + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateIntArray: size %llu is larger than memory", (unsigned long long)(li + 1));
    MG_CHECK_STR_CONTAINS(rel_message(), want);
    MG_CHECK(aclCreateFloatArray(fv, lf + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateFloatArray: size %llu is larger than memory", (unsigned long long)(lf + 1));
    MG_CHECK_STR_CONTAINS(rel_message(), want);
    MG_CHECK(aclCreateBoolArray(bv, lb + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateBoolArray: size %llu is larger than memory", (unsigned long long)(lb + 1));
    MG_CHECK_STR_CONTAINS(rel_message(), want);
}

/* The lists' limit: the largest size whose pointers fit in a size_t goes on to the elements'
   check (value[0], a destroyed tensor, is named), one past it is refused as larger than memory
   before any element is read. Only value[0] is read either way. */
MG_TEST(create_list_size_limit_both_sides) {
    up();
    const uint64_t limit = largest_representable(sizeof(void *));
    int64_t dims[1] = {1};
    aclTensor *stale = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL);
    MG_CHECK(stale != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensor(stale), 0);
    const aclTensor *first_stale[1] = {stale};
    char want[128];
    MG_CHECK(aclCreateTensorList(first_stale, limit) == NULL);
    snprintf(want, sizeof want, "aclCreateTensorList: value[0] (aclTensor %p) ", (void *)stale);
    MG_CHECK_STR_CONTAINS(rel_message(), want);
    MG_CHECK(aclCreateTensorList(first_stale, limit + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateTensorList: size %llu is larger than memory", (unsigned long long)(limit + 1));
    MG_CHECK_STR_CONTAINS(rel_message(), want);
    const aclScalar *first_wrong[1] = {(const aclScalar *)stale};
    MG_CHECK(aclCreateScalarList(first_wrong, limit) == NULL);
    MG_CHECK_STR_CONTAINS(rel_message(), "aclCreateScalarList: value[0] (aclScalar ");
    MG_CHECK(aclCreateScalarList(first_wrong, limit + 1) == NULL);
    snprintf(want, sizeof want, "aclCreateScalarList: size %llu is larger than memory", (unsigned long long)(limit + 1));
    MG_CHECK_STR_CONTAINS(rel_message(), want);
}

MG_TEST_MAIN()
