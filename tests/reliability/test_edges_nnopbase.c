/*
 * tests/reliability/test_edges_nnopbase.c: tensor-base paths a coverage run of every CTest
 * test showed never taken (issue 25, round 3 of the mutation sample), each with its exact
 * status, message and values, written out from nnop.h's and the public headers' contracts:
 *
 *   - aclCreateTensor's stored-rank limit (1024 dims taken, 1025 refused, either array);
 *   - the lists' size limit (one past the largest size whose bytes fit a size_t);
 *   - nnop_view_from_tensor and nnop_view_byte_range (the bytes a view can touch);
 *   - nnop_int_array_values / nnop_scalar_value: the values, a short capacity, stale handles;
 *   - an executor's limits: 8 inputs and 8 outputs, 16 steps, 1024 parameter bytes, 8 buffers
 *     a step; binding past the slots; the workspace's 64-byte rounding; a stale executor;
 *   - mgrt_handle_describe of a live handle;
 *   - the array getters (aclGetViewShape, aclGetViewStrides, aclGetStorageShape) when their
 *     copy cannot be allocated (plain malloc: the caller frees it), through a malloc
 *     interposed in this program (plain builds only: the sanitizers own malloc);
 *   - aclFinalize's handle sweep when its list cannot be allocated (the same interposer).
 *
 * One CTest test per case.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "mg_heap.h"
#include "mg_test.h"
#include "mgrt.h"
#include "mgrt_handle.h"
#include "nnop.h"
#include "rel_fixtures.h"
#include "rel_setup.h"

static void up(void) { rel_session_up(); }

#define STALE "is stale (already destroyed or released, or reclaimed by aclFinalize)"

/* ---- argument objects ------------------------------------------------------------------- */

/* A descriptor keeps up to 1024 dims in either array (what CANN's tensors can carry; phase 1
   then refuses more than 8): 1024 are taken, 1025 refused with 161002 naming the larger count. */
MG_TEST(tensor_stored_rank_limit) {
    up();
    static int64_t ones[1025];
    for (int i = 0; i < 1025; i++) ones[i] = 1;
    float *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    aclTensor *t = aclCreateTensor(ones, 1024, ACL_FLOAT, ones, 0, ACL_FORMAT_ND, ones, 1024, dev);
    MG_CHECK(t != NULL);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    int64_t *dims = NULL;
    uint64_t n = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &dims, &n), 0);
    MG_CHECK_EQ_INT((int)n, 1024);
    free(dims);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    MG_CHECK(aclCreateTensor(ones, 1025, ACL_FLOAT, ones, 0, ACL_FORMAT_ND, ones, 1, dev) == NULL);
    REL_CHECK_MESSAGE("aclCreateTensor: 1025 dims is beyond any tensor (at most 1024)");
    MG_CHECK(aclCreateTensor(ones, 1, ACL_FLOAT, ones, 0, ACL_FORMAT_ND, ones, 1025, dev) == NULL);
    REL_CHECK_MESSAGE("aclCreateTensor: 1025 dims is beyond any tensor (at most 1024)");
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
}

/* A list object is a 16-byte header and one pointer per element: one past the largest size
   whose bytes fit a size_t is "larger than memory" (before any element is read). */
MG_TEST(list_size_limit) {
    up();
    const uint64_t past = (uint64_t)((SIZE_MAX - 16) / sizeof(void *)) + 1;
    const aclTensor *one_tensor[1] = {NULL};
    const aclScalar *one_scalar[1] = {NULL};
    char want[160];
    MG_CHECK(aclCreateTensorList(one_tensor, past) == NULL);
    snprintf(want, sizeof want, "aclCreateTensorList: size %llu is larger than memory", (unsigned long long)past);
    REL_CHECK_MESSAGE(want);
    MG_CHECK(aclCreateScalarList(one_scalar, past) == NULL);
    snprintf(want, sizeof want, "aclCreateScalarList: size %llu is larger than memory", (unsigned long long)past);
    REL_CHECK_MESSAGE(want);
    /* a list of one NULL element is a list */
    aclTensorList *l = aclCreateTensorList(one_tensor, 1);
    MG_CHECK(l != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensorList(l), 0);
}

MG_TEST(array_and_scalar_values) {
    up();
    const int64_t v[5] = {7, -3, 1LL << 40, 0, 9};
    aclIntArray *a = aclCreateIntArray(v, 5);
    MG_CHECK(a != NULL);
    int64_t out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    uint64_t size = 0;
    MG_CHECK_EQ_INT(nnop_int_array_values(a, out, 8, &size), 0);
    MG_CHECK_EQ_INT((int)size, 5);
    for (int i = 0; i < 5; i++) MG_CHECK(out[i] == v[i]);
    MG_CHECK(out[5] == -1);
    /* capacity 2: the size still 5, two values copied, nothing past them */
    int64_t two[3] = {-1, -1, -1};
    MG_CHECK_EQ_INT(nnop_int_array_values(a, two, 2, &size), 0);
    MG_CHECK_EQ_INT((int)size, 5);
    MG_CHECK(two[0] == 7 && two[1] == -3 && two[2] == -1);
    MG_CHECK_EQ_INT(nnop_int_array_values(a, two, 0, &size), 0);
    MG_CHECK(two[0] == 7 && two[2] == -1);
    MG_CHECK_EQ_INT(aclDestroyIntArray(a), 0);
    char want[256];
    MG_CHECK_EQ_INT(nnop_int_array_values(a, out, 8, &size), ACLNN_ERR_PARAM_INVALID);
    snprintf(want, sizeof want, "nnop_int_array_values: array (aclIntArray %p) " STALE, (void *)a);
    REL_CHECK_MESSAGE(want);
    MG_CHECK_EQ_INT(nnop_int_array_values(NULL, out, 8, &size), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("nnop_int_array_values: array is NULL");

    float f = 2.5f;
    aclScalar *s = aclCreateScalar(&f, ACL_FLOAT);
    MG_CHECK(s != NULL);
    aclDataType dtype = ACL_DT_UNDEFINED;
    unsigned char bytes[8];
    memset(bytes, 0xAB, sizeof bytes);
    MG_CHECK_EQ_INT(nnop_scalar_value(s, &dtype, bytes, sizeof bytes), 0);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT);
    float back = 0;
    memcpy(&back, bytes, sizeof back);
    MG_CHECK(back == 2.5f);
    MG_CHECK_EQ_INT(bytes[4], 0xAB); /* 4 bytes copied, no more */
    unsigned char small[2] = {0, 0};
    unsigned char whole[4];
    memcpy(whole, &f, 4);
    MG_CHECK_EQ_INT(nnop_scalar_value(s, &dtype, small, 2), 0);
    MG_CHECK(small[0] == whole[0] && small[1] == whole[1]);
    MG_CHECK_EQ_INT(aclDestroyScalar(s), 0);
    MG_CHECK_EQ_INT(nnop_scalar_value(s, &dtype, bytes, sizeof bytes), ACLNN_ERR_PARAM_INVALID);
    snprintf(want, sizeof want, "nnop_scalar_value: scalar (aclScalar %p) " STALE, (void *)s);
    REL_CHECK_MESSAGE(want);
    MG_CHECK_EQ_INT(nnop_scalar_value(NULL, &dtype, bytes, sizeof bytes), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("nnop_scalar_value: scalar is NULL");
    /* a read leaves no pin behind: scalars and arrays read and destroyed in a loop give back
       what they took (a pin kept would keep each one alive past its destroy); plain builds
       measure the heap, LeakSanitizer judges the others */
    long long heap_before = -1;
    for (int i = 0; i < 1010; i++) {
        if (i == 10) heap_before = mg_heap_in_use(); /* after the registry's first growth */
        aclScalar *t = aclCreateScalar(&f, ACL_FLOAT);
        MG_CHECK_EQ_INT(nnop_scalar_value(t, &dtype, bytes, sizeof bytes), 0);
        MG_CHECK_EQ_INT(aclDestroyScalar(t), 0);
        aclIntArray *b = aclCreateIntArray(v, 5);
        MG_CHECK_EQ_INT(nnop_int_array_values(b, out, 8, &size), 0);
        MG_CHECK_EQ_INT(aclDestroyIntArray(b), 0);
    }
    if (heap_before >= 0) MG_CHECK(mg_heap_in_use() - heap_before < 16384);
}

/* ---- views --------------------------------------------------------------------------------- */

MG_TEST(view_from_tensor_and_its_byte_range) {
    up();
    float *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&dev, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    /* a 2x3 view, strides {1, 2} (a transpose), offset 1, over 8 elements: it touches
       elements 1 .. 1 + 1*1 + 2*2 = 6 */
    const int64_t dims[2] = {2, 3}, strides[2] = {1, 2}, storage[1] = {8};
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 1, ACL_FORMAT_ND, storage, 1, dev);
    nnop_view v;
    memset(&v, 0x5A, sizeof v);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "api", "x", &v), 0);
    MG_CHECK_EQ_INT(v.rank, 2);
    MG_CHECK_EQ_INT((int)v.numel, 6);
    MG_CHECK_EQ_INT((int)v.elem_size, 4);
    MG_CHECK_EQ_INT((int)v.min_elem, 1);
    MG_CHECK_EQ_INT((int)v.max_elem, 6);
    MG_CHECK_EQ_INT((int)v.storage_elems, 8);
    MG_CHECK_EQ_INT(v.contiguous, 0);
    MG_CHECK(v.data == dev);
    uintptr_t lo = 0, hi = 0;
    nnop_view_byte_range(&v, dev, &lo, &hi);
    MG_CHECK(lo == (uintptr_t)dev + 4);
    MG_CHECK(hi == (uintptr_t)dev + 28);
    /* over another base: the same offsets from it */
    nnop_view_byte_range(&v, dev + 16, &lo, &hi);
    MG_CHECK(lo == (uintptr_t)(dev + 16) + 4 && hi == (uintptr_t)(dev + 16) + 28);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    /* an empty view touches nothing: lo == hi == the base */
    const int64_t empty[2] = {0, 3}, dense[2] = {3, 1};
    t = aclCreateTensor(empty, 2, ACL_FLOAT, dense, 2, ACL_FORMAT_ND, storage, 1, dev);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "api", "x", &v), 0);
    MG_CHECK_EQ_INT((int)v.numel, 0);
    lo = hi = 1;
    nnop_view_byte_range(&v, dev, &lo, &hi);
    MG_CHECK(lo == (uintptr_t)dev && hi == (uintptr_t)dev);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    /* a destroyed tensor: refused, naming the argument */
    char want[256];
    MG_CHECK_EQ_INT(nnop_view_from_tensor(t, "api", "x", &v), ACLNN_ERR_PARAM_INVALID);
    snprintf(want, sizeof want, "api: x (aclTensor %p) " STALE, (void *)t);
    REL_CHECK_MESSAGE(want);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(NULL, "api", "x", &v), ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("Expected a proper Tensor but got null for argument x.");
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
}

/* ---- executors ------------------------------------------------------------------------------ */

static int32_t step_nothing(const void *params, void *const *buffers) {
    (void)params;
    (void)buffers;
    return 0;
}

MG_TEST(executor_slot_limits) {
    up();
    static const char *const names[17] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "o0",
                                          "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8"};
    const aclTensor *ins[9] = {NULL};
    aclTensor *outs[9] = {NULL};
    /* 8 and 8 fit; 9 inputs or 9 outputs do not */
    aclOpExecutor *e = nnop_executor_create("EdgeOp", ins, 8, outs, 8, names);
    MG_CHECK(e != NULL);
    nnop_executor_abandon(e);
    MG_CHECK(nnop_executor_create("EdgeOp", ins, 9, outs, 0, names) == NULL);
    REL_CHECK_MESSAGE("EdgeOp: too many tensors for one executor");
    MG_CHECK(nnop_executor_create("EdgeOp", ins, 0, outs, 9, names) == NULL);
    REL_CHECK_MESSAGE("EdgeOp: too many tensors for one executor");
    /* binding: slots 0..7 in order, then -1 with the message */
    e = nnop_executor_create("EdgeOp", ins, 0, outs, 0, names);
    MG_CHECK(e != NULL);
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_INPUT, NULL, names[i]), i);
    MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_INPUT, NULL, "i8"), -1);
    REL_CHECK_MESSAGE("EdgeOp: more than 8 input tensors for one executor");
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_OUTPUT, NULL, names[8 + i]), i);
    MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_OUTPUT, NULL, "o8"), -1);
    REL_CHECK_MESSAGE("EdgeOp: more than 8 output tensors for one executor");
    /* the workspace has no slot to bind */
    aclOpExecutor *w = nnop_executor_create("EdgeOp", ins, 0, outs, 0, names);
    MG_CHECK_EQ_INT(nnop_executor_bind(w, NNOP_BUFFER_WORKSPACE, NULL, "ws"), -1);
    MG_CHECK_EQ_INT(nnop_executor_bind(w, NNOP_BUFFER_INPUT, NULL, "i0"), 0); /* nothing was taken */
    nnop_executor_abandon(w);
    nnop_executor_abandon(e);
    /* a stale executor binds nothing */
    MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_INPUT, NULL, "i0"), -1);
}

MG_TEST(executor_step_limits) {
    up();
    static const char *const names[1] = {"x"};
    const aclTensor *ins[1] = {NULL};
    aclOpExecutor *e = nnop_executor_create("EdgeOp", ins, 1, NULL, 0, names);
    MG_CHECK(e != NULL);
    static unsigned char params[NNOP_MAX_STEP_PARAMS + 1];
    nnop_buffer buffers[NNOP_MAX_STEP_BUFFERS + 1];
    for (int i = 0; i <= NNOP_MAX_STEP_BUFFERS; i++) buffers[i] = (nnop_buffer){NNOP_BUFFER_INPUT, 0, 0};
    /* too many parameter bytes, too many buffers: refused, nothing added */
    MG_CHECK_EQ_INT(nnop_executor_add_step(e, "big", step_nothing, params, NNOP_MAX_STEP_PARAMS + 1, buffers, 1, 1),
                    ACLNN_ERR_INNER);
    REL_CHECK_MESSAGE("EdgeOp: step big does not fit the executor");
    MG_CHECK_EQ_INT(
        nnop_executor_add_step(e, "wide", step_nothing, params, 4, buffers, NNOP_MAX_STEP_BUFFERS + 1, 1),
        ACLNN_ERR_INNER);
    REL_CHECK_MESSAGE("EdgeOp: step wide does not fit the executor");
    /* 16 steps fit (the largest of each), the 17th does not */
    for (int i = 0; i < 16; i++)
        MG_CHECK_EQ_INT(nnop_executor_add_step(e, "s", step_nothing, params, NNOP_MAX_STEP_PARAMS, buffers,
                                               NNOP_MAX_STEP_BUFFERS, 1),
                        0);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    MG_CHECK_EQ_INT(nnop_executor_add_step(e, "s17", step_nothing, NULL, 0, NULL, 0, 1), ACLNN_ERR_INNER);
    REL_CHECK_MESSAGE("EdgeOp: step s17 does not fit the executor");
    nnop_executor_abandon(e);
    MG_CHECK_EQ_INT(nnop_executor_add_step(e, "late", step_nothing, NULL, 0, NULL, 0, 1), ACLNN_ERR_INNER);
    REL_CHECK_MESSAGE("step late: the executor is not live");
}

/* A slot bound without a view (nnop_executor_set_view never called for it) is resolved for
   the steps and gives the runtime nothing to check: binding starts the slot empty (seed 50's
   survivor: bind clearing the slot with ones, so that it claimed a view of garbage). */
static void *seen_input;
static int32_t step_note_input(const void *params, void *const *buffers) {
    (void)params;
    seen_input = buffers[0];
    return 0;
}

/* Launches an executor whose one input slot has no view, its step noting the address it gets. */
static void launch_viewless(aclOpExecutor *e, const void *want) {
    nnop_buffer input = {NNOP_BUFFER_INPUT, 0, 0};
    MG_CHECK_EQ_INT(nnop_executor_add_step(e, "note", step_note_input, NULL, 0, &input, 1, 1), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    seen_input = NULL;
    const aclnnStatus launched = nnop_executor_launch("aclnnEdgeOp", NULL, 0, e, stream);
    if (launched != ACLNN_SUCCESS) MG_FAIL("launch refused (%d): %s", (int)launched, aclGetRecentErrMsg());
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK(seen_input == want);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
}

MG_TEST(executor_slot_bound_without_a_view_is_not_checked) {
    up();
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {16};
    aclTensor *x = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev);
    MG_CHECK(x != NULL);
    static const char *const names[1] = {"x"};
    const aclTensor *ins[1] = {x};
    /* bound by nnop_executor_create */
    aclOpExecutor *e = nnop_executor_create("EdgeOp", ins, 1, NULL, 0, names);
    MG_CHECK(e != NULL);
    launch_viewless(e, dev);
    /* bound by nnop_executor_bind (opdev's way) */
    e = nnop_executor_create("EdgeOp", NULL, 0, NULL, 0, names);
    MG_CHECK(e != NULL);
    MG_CHECK_EQ_INT(nnop_executor_bind(e, NNOP_BUFFER_INPUT, x, "x"), 0);
    launch_viewless(e, dev);
    MG_CHECK_EQ_INT(aclDestroyTensor(x), 0);
    MG_CHECK_EQ_INT(aclrtFree(dev), 0);
}

static int freed;
static void free_it(void *p) {
    (void)p;
    freed++;
}

/* Workspace regions are rounded up to 64 bytes each, in order; an attachment's free
   function runs when the executor goes (or at once, when it is offered to a stale one). */
MG_TEST(executor_workspace_rounding_and_attachments) {
    up();
    static const char *const names[1] = {"x"};
    const aclTensor *ins[1] = {NULL};
    aclOpExecutor *e = nnop_executor_create("EdgeOp", ins, 1, NULL, 0, names);
    MG_CHECK_EQ_INT((int)nnop_executor_workspace_size(e), 0);
    const uint64_t asks[5] = {1, 64, 65, 0, 128};
    const uint64_t offsets[5] = {0, 64, 128, 256, 256};
    for (int i = 0; i < 5; i++) {
        nnop_buffer b = nnop_executor_reserve_workspace(e, asks[i]);
        MG_CHECK_EQ_INT(b.kind, NNOP_BUFFER_WORKSPACE);
        if (b.byte_offset != offsets[i])
            MG_FAIL("region %d at %llu, expected %llu", i, (unsigned long long)b.byte_offset,
                    (unsigned long long)offsets[i]);
    }
    MG_CHECK_EQ_INT((int)nnop_executor_workspace_size(e), 384);
    int payload = 5;
    nnop_executor_attach(e, &payload, NULL); /* no free function: nothing to call */
    MG_CHECK(nnop_executor_attachment(e) == &payload);
    nnop_executor_attach(e, &payload, free_it);
    MG_CHECK_EQ_INT(freed, 0);
    nnop_executor_abandon(e);
    MG_CHECK_EQ_INT(freed, 1);
    /* stale: no size, no attachment; an attachment offered to it is freed at once */
    MG_CHECK_EQ_INT((int)nnop_executor_workspace_size(e), 0);
    MG_CHECK(nnop_executor_attachment(e) == NULL);
    nnop_buffer late = nnop_executor_reserve_workspace(e, 64);
    MG_CHECK(late.kind == NNOP_BUFFER_WORKSPACE && late.byte_offset == 0);
    nnop_executor_attach(e, &payload, free_it);
    MG_CHECK_EQ_INT(freed, 2);
    nnop_executor_attach(e, &payload, NULL); /* nothing to free: nothing called */
    MG_CHECK_EQ_INT(freed, 2);
}

MG_TEST(handle_describe_live) {
    up();
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), 0);
    MG_CHECK(strcmp(mgrt_handle_describe(s, MGRT_HANDLE_STREAM), "is live") == 0);
    MG_CHECK(strcmp(mgrt_handle_describe(NULL, MGRT_HANDLE_STREAM), "is NULL") == 0);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s), 0);
    MG_CHECK(strcmp(mgrt_handle_describe(s, MGRT_HANDLE_STREAM), STALE) == 0);
}

/* ---- aclInitTensor: what is kept, what grows ----------------------------------------------- */

/* The tensor's whole descriptor against what is expected. */
static int same_array(const int64_t *got_values, uint64_t got_count, const int64_t *want, uint64_t want_count) {
    if (got_count != want_count) return 0;
    for (uint64_t i = 0; i < want_count; i++)
        if (got_values[i] != want[i]) return 0;
    return 1;
}

static void check_descriptor(const aclTensor *t, const int64_t *dims, uint64_t rank, const int64_t *strides,
                             const int64_t *storage, uint64_t storage_rank, int64_t offset, aclDataType dtype,
                             void *data, int line) {
    int64_t *v = NULL, *st = NULL, *sd = NULL;
    uint64_t nv = 0, nst = 0, nsd = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(t, &v, &nv), 0);
    MG_CHECK_EQ_INT(aclGetViewStrides(t, &st, &nst), 0);
    MG_CHECK_EQ_INT(aclGetStorageShape(t, &sd, &nsd), 0);
    int64_t off = -1;
    aclDataType dt = ACL_DT_UNDEFINED;
    void *addr = NULL;
    MG_CHECK_EQ_INT(aclGetViewOffset(t, &off), 0);
    MG_CHECK_EQ_INT(aclGetDataType(t, &dt), 0);
    MG_CHECK_EQ_INT(aclGetRawTensorAddr(t, &addr), 0);
    if (!same_array(v, nv, dims, rank)) MG_FAIL("line %d: view dims differ (rank %llu)", line, (unsigned long long)nv);
    if (!same_array(st, nst, strides, rank)) MG_FAIL("line %d: strides differ", line);
    if (!same_array(sd, nsd, storage, storage_rank))
        MG_FAIL("line %d: storage dims differ (rank %llu)", line, (unsigned long long)nsd);
    if (off != offset || dt != dtype || addr != data)
        MG_FAIL("line %d: offset %lld dtype %d data %p, expected %lld %d %p", line, (long long)off, (int)dt, addr,
                (long long)offset, (int)dtype, data);
    free(v);
    free(st);
    free(sd);
}

MG_TEST(init_tensor_keeps_and_grows) {
    up();
    static float data[64], other[64];
    const int64_t d4[1] = {4}, s1[1] = {1};
    aclTensor *t = aclCreateTensor(d4, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d4, 1, data);
    MG_CHECK(t != NULL);
    /* non-NULL arrays with count 0: the view and the storage are kept, strides made row-major */
    const int64_t ignored[3] = {9, 9, 9};
    MG_CHECK_EQ_INT(aclInitTensor(t, ignored, 0, ACL_FLOAT16, NULL, 2, ACL_FORMAT_ND, ignored, 0, NULL), 0);
    check_descriptor(t, d4, 1, s1, d4, 1, 2, ACL_FLOAT16, data, __LINE__);
    /* larger: the arrays move to a new room (2 * 3 + 1 values > the 3 the tensor was made with) */
    const int64_t d234[3] = {2, 3, 4}, s234[3] = {12, 4, 1}, st24[1] = {24};
    MG_CHECK_EQ_INT(aclInitTensor(t, d234, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, st24, 1, other), 0);
    check_descriptor(t, d234, 3, s234, st24, 1, 0, ACL_FLOAT, other, __LINE__);
    /* larger again: a second move (the first room is freed) */
    const int64_t d5[5] = {2, 2, 2, 2, 2}, s5[5] = {16, 8, 4, 2, 1}, st32[2] = {32, 1};
    MG_CHECK_EQ_INT(aclInitTensor(t, d5, 5, ACL_FLOAT, NULL, 1, ACL_FORMAT_ND, st32, 2, NULL), 0);
    check_descriptor(t, d5, 5, s5, st32, 2, 1, ACL_FLOAT, other, __LINE__);
    /* smaller, in the room it has; the storage kept (NULL storage dims), given strides */
    const int64_t d2[2] = {3, 2}, s2[2] = {1, 3};
    MG_CHECK_EQ_INT(aclInitTensor(t, d2, 2, ACL_FLOAT, s2, 0, ACL_FORMAT_ND, NULL, 5, data), 0);
    check_descriptor(t, d2, 2, s2, st32, 2, 0, ACL_FLOAT, data, __LINE__);
    /* strides for another rank than the view kept: refused, the descriptor untouched */
    const int64_t s3[3] = {1, 1, 1};
    MG_CHECK_EQ_INT(aclInitTensor(t, NULL, 3, ACL_INT32, s3, 7, ACL_FORMAT_ND, NULL, 0, other), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE("aclInitTensor: stride gives 3 dims but the view keeps its 2 (viewDims is NULL or viewDimsNum 0)");
    check_descriptor(t, d2, 2, s2, st32, 2, 0, ACL_FLOAT, data, __LINE__);
    /* 1025 storage dims: refused before anything changes */
    static int64_t ones[1025];
    for (int i = 0; i < 1025; i++) ones[i] = 1;
    MG_CHECK_EQ_INT(aclInitTensor(t, NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, ones, 1025, NULL),
                    ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE("aclInitTensor: 1025 dims is beyond any tensor (at most 1024)");
    check_descriptor(t, d2, 2, s2, st32, 2, 0, ACL_FLOAT, data, __LINE__);
    /* one dim is a view too */
    const int64_t d7[1] = {7};
    MG_CHECK_EQ_INT(aclInitTensor(t, d7, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d7, 1, NULL), 0);
    check_descriptor(t, d7, 1, s1, d7, 1, 0, ACL_FLOAT, data, __LINE__);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
    char want[200];
    MG_CHECK_EQ_INT(aclInitTensor(t, d4, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d4, 1, data), ACLNN_ERR_PARAM_INVALID);
    snprintf(want, sizeof want, "aclInitTensor: tensor (aclTensor %p) " STALE, (void *)t);
    REL_CHECK_MESSAGE(want);
    MG_CHECK_EQ_INT(aclInitTensor(NULL, d4, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d4, 1, data),
                    ACLNN_ERR_PARAM_NULLPTR);
    REL_CHECK_MESSAGE("aclInitTensor: tensor is NULL");
    /* a rank-0 tensor (a scalar) keeps rank 0 and its storage */
    aclTensor *z = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d4, 1, data);
    MG_CHECK(z != NULL);
    MG_CHECK_EQ_INT(aclInitTensor(z, NULL, 0, ACL_INT8, NULL, 3, ACL_FORMAT_ND, NULL, 0, NULL), 0);
    check_descriptor(z, NULL, 0, NULL, d4, 1, 3, ACL_INT8, data, __LINE__);
    MG_CHECK_EQ_INT(aclDestroyTensor(z), 0);
}

/* aclInitTensor when memory runs out (MISHGRAD_FAULT_ALLOC=N fails the N-th allocation after
   aclInit): for exactly the two allocations it makes when the room grows (the kept arrays and
   the new room), 561000 with its message, the descriptor as it was, and the tensor still
   destroyable (what it took given back: LeakSanitizer sees any that is not). */
MG_TEST(init_tensor_out_of_memory) {
    static float data[16];
    const int64_t d4[1] = {4}, s1[1] = {1}, d234[3] = {2, 3, 4}, st24[1] = {24};
    int refused = 0, created = 0;
    for (int n = 1; n <= 40; n++) {
        char value[16];
        snprintf(value, sizeof value, "%d", n);
        setenv("MISHGRAD_FAULT_ALLOC", value, 1);
        setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        unsetenv("MISHGRAD_FAULT_ALLOC");
        if (aclrtSetDevice(0) != 0) {
            MG_CHECK_EQ_INT(aclFinalize(), 0);
            continue;
        }
        aclTensor *t = aclCreateTensor(d4, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d4, 1, data);
        if (t != NULL) {
            created++;
            (void)aclGetRecentErrMsg();
            aclnnStatus st = aclInitTensor(t, d234, 3, ACL_FLOAT16, NULL, 1, ACL_FORMAT_ND, st24, 1, NULL);
            if (st != 0) {
                refused++;
                MG_CHECK_EQ_INT(st, ACLNN_ERR_INNER);
                REL_CHECK_MESSAGE("aclInitTensor: out of memory (an allocation failed)");
                check_descriptor(t, d4, 1, s1, d4, 1, 0, ACL_FLOAT, data, __LINE__);
            } else {
                check_descriptor(t, d234, 3, (const int64_t[3]){12, 4, 1}, st24, 1, 1, ACL_FLOAT16, data, __LINE__);
            }
            MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
            MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID); /* gone: stale */
        }
        MG_CHECK_EQ_INT(aclFinalize(), 0);
    }
    MG_CHECK(created > 2);
    MG_CHECK_EQ_INT(refused, 2);
}

/* ---- a forked child's threads still exclude each other on an object's lock ------------------ */

/* nnop_lock.c: the first lock of an object in a child of a later fork makes its mutex afresh
   (its holder may not exist there), and only the first: a lock remade at every take would let
   two threads of the child into one object's critical section at once. The child runs one
   threads re-describing a tensor made before the fork (aclInitTensor) and two reading its
   storage shape; every shape read must be one of the two descriptors whole. */
static aclTensor *forked_tensor;
static atomic_int child_stop, child_wrong, child_reads;
static float forked_data[64];

/* Two descriptors with long storage shapes (long critical sections): 1024 dims of 1, or 1000
   dims of 2. */
static int64_t ones_1024[1024], twos_1000[1000];

static void *child_describer(void *arg) {
    (void)arg;
    const int64_t flat[1] = {64};
    for (int odd = 0; !atomic_load(&child_stop); odd ^= 1)
        (void)aclInitTensor(forked_tensor, flat, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, odd ? twos_1000 : ones_1024,
                            odd ? 1000 : 1024, forked_data);
    return NULL;
}

static void *child_reader(void *arg) {
    (void)arg;
    while (!atomic_load(&child_stop)) {
        int64_t *dims = NULL;
        uint64_t n = 0;
        if (aclGetStorageShape(forked_tensor, &dims, &n) != 0) {
            atomic_fetch_add(&child_wrong, 1);
            continue;
        }
        int ok = n == 1024 || n == 1000;
        for (uint64_t i = 0; ok && i < n; i++) ok = dims[i] == (n == 1024 ? 1 : 2);
        if (!ok) atomic_fetch_add(&child_wrong, 1);
        atomic_fetch_add(&child_reads, 1);
        free(dims);
    }
    return NULL;
}

MG_TEST(forked_child_threads_share_an_object_lock) {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    MG_SKIP("threads started in a forked child: not under a sanitizer's runtime");
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
    MG_SKIP("threads started in a forked child: not under a sanitizer's runtime");
#endif
#endif
    /* no aclInit: the parent has this thread only, and the tensor calls need none */
    for (int i = 0; i < 1024; i++) ones_1024[i] = 1;
    for (int i = 0; i < 1000; i++) twos_1000[i] = 2;
    const int64_t flat[1] = {64};
    forked_tensor = aclCreateTensor(flat, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, flat, 1, forked_data);
    MG_CHECK(forked_tensor != NULL);
    int64_t *dims = NULL;
    uint64_t n = 0;
    MG_CHECK_EQ_INT(aclGetViewShape(forked_tensor, &dims, &n), 0); /* the lock used before the fork */
    free(dims);
    /* Start from a state the readers accept: with the 1-dim storage above, a reader scheduled
       before the first describer counted that valid descriptor as a torn one (CI, 2 cores). */
    MG_CHECK_EQ_INT(aclInitTensor(forked_tensor, flat, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, ones_1024, 1024,
                                  forked_data),
                    0);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(20); /* a hang dies of SIGALRM */
        pthread_t a[2], b[2];
        for (int i = 0; i < 2; i++) {
            pthread_create(&a[i], NULL, child_describer, NULL);
            pthread_create(&b[i], NULL, child_reader, NULL);
        }
        struct timespec t = {0, 500 * 1000 * 1000};
        nanosleep(&t, NULL);
        atomic_store(&child_stop, 1);
        for (int i = 0; i < 2; i++) {
            pthread_join(a[i], NULL);
            pthread_join(b[i], NULL);
        }
        printf("  child: %d reads, %d wrong\n", atomic_load(&child_reads), atomic_load(&child_wrong));
        fflush(stdout);
        _exit(atomic_load(&child_wrong) == 0 && atomic_load(&child_reads) > 0 ? 0 : 3);
    }
    MG_CHECK(pid > 0);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        MG_FAIL("the child %s %d", WIFEXITED(status) ? "exited with" : "died of signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    else
        MG_CHECK(1);
    MG_CHECK_EQ_INT(aclDestroyTensor(forked_tensor), 0);
}

/* ---- the self-overlap proof ignores size-1 dims ------------------------------------------ */

/* nnop.h: "Size-1 dims' strides are ignored". A view [1, 2, 2] with strides {0, 1, 2^27}:
   its moving dims nest (1 < 2^27), so no two elements meet, whatever the size-1 dim's stride;
   its span (2^27 + 2 elements) is beyond what the exact walk enumerates, so only the quick
   proof can say so. The same without the size-1 dim, and with the strides in any order (the
   proof sorts them); and two moving dims that do collide
   (strides {2^27, 2^27}) are refused, with the message. */
MG_TEST(self_overlap_ignores_size_one_dims) {
    up();
    const int64_t big = INT64_C(1) << 27;
    const int64_t d3[3] = {1, 2, 2}, s3[3] = {0, 1, big};
    nnop_view v = rel_view_by_hand(3, d3, s3);
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), 0);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    const int64_t s3b[3] = {INT64_MAX / 4, 1, big}; /* any stride on the size-1 dim */
    v = rel_view_by_hand(3, d3, s3b);
    v.max_elem = 1 + big;
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), 0);
    const int64_t d2[2] = {2, 2}, s2[2] = {1, big};
    v = rel_view_by_hand(2, d2, s2);
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), 0);
    /* the moving dims sorted by stride first: row-major order (largest stride first) nests */
    const int64_t s2r[2] = {big, 1};
    v = rel_view_by_hand(2, d2, s2r);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    const int64_t d3r[3] = {2, 2, 2}, s3r[3] = {2 * big, big, 1}, s3m[3] = {big, 2 * big, 1};
    v = rel_view_by_hand(3, d3r, s3r);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    v = rel_view_by_hand(3, d3r, s3m);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    const int64_t s2c[2] = {big, big};
    v = rel_view_by_hand(2, d2, s2c);
    (void)aclGetRecentErrMsg();
    MG_CHECK_EQ_INT(nnop_view_check_overlaps_itself(&v, "api", "out"), ACLNN_ERR_PARAM_INVALID);
    REL_CHECK_MESSAGE("api: out's strides map two elements to one memory location (or interleave over more than 2^26 "
                  "elements, too many to prove they do not)");
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 1);
    /* small enough to walk: [1, 3, 2] strides {0, 2, 1} is dense, [3, 2] strides {1, 1} collides */
    const int64_t d3s[3] = {1, 3, 2}, s3s[3] = {0, 2, 1};
    v = rel_view_by_hand(3, d3s, s3s);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 0);
    const int64_t d2s[2] = {3, 2}, s2s[2] = {1, 1};
    v = rel_view_by_hand(2, d2s, s2s);
    MG_CHECK_EQ_INT(nnop_view_overlaps_itself(&v), 1);
}

/* ---- the array getters when malloc fails -------------------------------------------------- */

#if REL_PLAIN_BUILD
/* glibc's allocator under its own names; the definitions below take the place of malloc for
   the libraries too (the executable comes first in symbol lookup). One malloc of the size
   armed, on the thread that armed it, returns NULL; everything else goes to glibc. Default
   visibility: the build hides symbols (-fvisibility=hidden), and a hidden malloc would not
   be exported for the libraries to find. */
#define INTERPOSED __attribute__((visibility("default")))
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

static _Thread_local size_t fail_malloc_of_size; /* 0: none armed */

INTERPOSED void *malloc(size_t size) {
    if (fail_malloc_of_size != 0 && size == fail_malloc_of_size) {
        fail_malloc_of_size = 0;
        return NULL;
    }
    return __libc_malloc(size);
}
INTERPOSED void *calloc(size_t count, size_t size) { return __libc_calloc(count, size); }
INTERPOSED void *realloc(void *ptr, size_t size) { return __libc_realloc(ptr, size); }
INTERPOSED void free(void *ptr) { __libc_free(ptr); }
#endif

/* nnopbase/acl_tensor.c copy_array: a copy that cannot be allocated is ACLNN_ERR_INNER_NULLPTR
   (561103) with "out of memory", and neither output is written (nothing copied to NULL). The
   sizes armed (rank 7: 56 bytes; storage rank 3: 24 bytes) are the copies' exact sizes. */
MG_TEST(array_getters_out_of_memory) {
#if !REL_PLAIN_BUILD
    MG_SKIP("a sanitizer owns malloc in this build");
#else
    up();
    static float data[64];
    const int64_t dims[7] = {1, 2, 1, 2, 1, 2, 1}, strides[7] = {8, 4, 4, 2, 2, 1, 1}, storage[3] = {2, 2, 16};
    aclTensor *t = aclCreateTensor(dims, 7, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 3, data);
    MG_CHECK(t != NULL);
    if (t == NULL) return;
    (void)aclGetRecentErrMsg();
    typedef aclnnStatus (*getter)(const aclTensor *, int64_t **, uint64_t *);
    const struct {
        const char *name;
        getter get;
        size_t bytes;
        const int64_t *want;
        uint64_t count;
    } cases[3] = {{"aclGetViewShape", aclGetViewShape, 7 * sizeof(int64_t), dims, 7},
                  {"aclGetViewStrides", aclGetViewStrides, 7 * sizeof(int64_t), strides, 7},
                  {"aclGetStorageShape", aclGetStorageShape, 3 * sizeof(int64_t), storage, 3}};
    for (int i = 0; i < 3; i++) {
        int64_t sentinel = 0;
        int64_t *values = &sentinel;
        uint64_t count = 99;
        fail_malloc_of_size = cases[i].bytes;
        aclnnStatus status = cases[i].get(t, &values, &count);
        const int fired = fail_malloc_of_size == 0;
        fail_malloc_of_size = 0;
        MG_CHECK(fired); /* the getter's malloc met the interposer */
        MG_CHECK_EQ_INT(status, ACLNN_ERR_INNER_NULLPTR);
        char want[128];
        snprintf(want, sizeof want, "%s: out of memory (an allocation failed)", cases[i].name);
        REL_CHECK_MESSAGE(want);
        MG_CHECK(values == &sentinel);
        MG_CHECK_EQ_INT(count, 99);
        /* Allocation back: the copy. */
        MG_CHECK_EQ_INT(cases[i].get(t, &values, &count), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(count, cases[i].count);
        for (uint64_t k = 0; values != &sentinel && k < count && k < cases[i].count; k++)
            MG_CHECK_EQ_INT(values[k], cases[i].want[k]);
        if (values != &sentinel) free(values);
    }
    MG_CHECK_EQ_INT(aclDestroyTensor(t), 0);
#endif
}

/* runtime/handle_registry.c mgrt_handle_reclaim_all (aclFinalize's sweep) when its list of the
   objects to destroy cannot be allocated: every live handle is still released and counted,
   none destroyed (a leak rather than a crash), none live after. The list holds an object and
   its destructor per live handle: the size armed. */
MG_TEST(handle_reclaim_without_memory_for_its_list) {
#if !REL_PLAIN_BUILD
    MG_SKIP("a sanitizer owns malloc in this build");
#else
    up();
    static float data[4];
    const int64_t dims[1] = {4};
    for (int i = 0; i < 2; i++) MG_CHECK(aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, data) != NULL);
    const float one = 1.0f;
    for (int i = 0; i < 3; i++) MG_CHECK(aclCreateScalar((void *)&one, ACL_FLOAT) != NULL);
    size_t live = 0;
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) live += mgrt_handle_live_count((mgrt_handle_kind)k);
    MG_CHECK(live >= 5);
    fail_malloc_of_size = live * (sizeof(void *) + sizeof(void (*)(void *)));
    const size_t total = mgrt_handle_reclaim_all();
    const int fired = fail_malloc_of_size == 0;
    fail_malloc_of_size = 0;
    MG_CHECK(fired); /* the list's malloc met the interposer */
    MG_CHECK_EQ_INT(total, live);
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) MG_CHECK_EQ_INT(mgrt_handle_live_count((mgrt_handle_kind)k), 0);
    (void)aclFinalize();
#endif
}

MG_TEST_MAIN()
