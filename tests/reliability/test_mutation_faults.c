/*
 * tests/reliability/test_mutation_faults.c: an allocation fault (MISHGRAD_FAULT_ALLOC=N, read
 * at aclInit) planted in every allocation of a program that uses every allocating call of
 * the runtime and the tensor base: devices, streams, events, contexts, blocks, queued
 * copies and memsets, event records and waits, data buffers, tensors, scalars, arrays and
 * lists. For N = 1, 2, ... until the program runs through:
 *
 *   - the program stops at the first call that fails; that call must be one that allocates,
 *     and it must fail the documented way: its out-of-memory status (or NULL for a creator)
 *     and a message saying memory or an allocation failed;
 *   - the same session then runs the whole program again, cleanly (the fault fired once):
 *     nothing was left half made, and the copies give the expected bytes;
 *   - every call that must allocate fails for some N (a fault swallowed by a call that then
 *     reports success shows here, or as a failure of a later call).
 */
#include <stdbool.h>

#include "mg_test.h"
#include "mg_acl_session.h"
#include "mgrt.h"

#define MAX_FAULT_INDEX 200

enum {
    STEP_SET_DEVICE, STEP_CREATE_STREAM, STEP_CREATE_EVENT, STEP_MALLOC, STEP_MEMCPY_ASYNC, STEP_MEMSET_ASYNC,
    STEP_RECORD_EVENT, STEP_CREATE_STREAM2, STEP_WAIT_EVENT, STEP_COPY_BACK, STEP_SYNC_STREAM, STEP_SYNC_EVENT,
    STEP_SYNC_DEVICE, STEP_MALLOC_HOST, STEP_DATA_BUFFER, STEP_TENSOR, STEP_SCALAR, STEP_INT_ARRAY,
    STEP_FLOAT_ARRAY, STEP_BOOL_ARRAY, STEP_TENSOR_LIST, STEP_SCALAR_LIST, STEP_CONTEXT, STEP_COUNT
};

typedef struct step_info {
    const char *name;
    int64_t oom_status; /* the status an allocation failure must give; 0: a creator (NULL) */
    int must_allocate;  /* it makes an injectable allocation on every call, so some N fails it
                           (aclrtMalloc's blocks and contexts come from plain allocations, and
                           their tables grow only now and then) */
} step_info;

static const step_info steps[STEP_COUNT] = {
    [STEP_SET_DEVICE] = {"aclrtSetDevice", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_CREATE_STREAM] = {"aclrtCreateStream", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_CREATE_EVENT] = {"aclrtCreateEvent", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_MALLOC] = {"aclrtMalloc", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_MEMCPY_ASYNC] = {"aclrtMemcpyAsync", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_MEMSET_ASYNC] = {"aclrtMemsetAsync", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_RECORD_EVENT] = {"aclrtRecordEvent", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_CREATE_STREAM2] = {"aclrtCreateStream (second)", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_WAIT_EVENT] = {"aclrtStreamWaitEvent", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_COPY_BACK] = {"aclrtMemcpyAsync (back)", ACL_ERROR_RT_MEMORY_ALLOCATION, 1},
    [STEP_SYNC_STREAM] = {"aclrtSynchronizeStream", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_SYNC_EVENT] = {"aclrtSynchronizeEvent", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_SYNC_DEVICE] = {"aclrtSynchronizeDevice", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_MALLOC_HOST] = {"aclrtMallocHost", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
    [STEP_DATA_BUFFER] = {"aclCreateDataBuffer", 0, 1},
    [STEP_TENSOR] = {"aclCreateTensor", 0, 1},
    [STEP_SCALAR] = {"aclCreateScalar", 0, 1},
    [STEP_INT_ARRAY] = {"aclCreateIntArray", 0, 1},
    [STEP_FLOAT_ARRAY] = {"aclCreateFloatArray", 0, 1},
    [STEP_BOOL_ARRAY] = {"aclCreateBoolArray", 0, 1},
    [STEP_TENSOR_LIST] = {"aclCreateTensorList", 0, 1},
    [STEP_SCALAR_LIST] = {"aclCreateScalarList", 0, 1},
    [STEP_CONTEXT] = {"aclrtCreateContext", ACL_ERROR_RT_MEMORY_ALLOCATION, 0},
};

/* What one run of the program did. */
typedef struct outcome {
    int failed_step;     /* -1: ran through */
    int64_t status;      /* of the failed step */
    char message[512];
    int bytes_ok;        /* the copies gave the expected bytes (when it ran through) */
} outcome;

static void fail_at(outcome *o, int step, int64_t status) {
    o->failed_step = step;
    o->status = status;
    const char *m = aclGetRecentErrMsg();
    snprintf(o->message, sizeof o->message, "%s", m ? m : "");
}

/* The program. Everything made is destroyed before returning. */
static void program(outcome *o) {
    o->failed_step = -1;
    o->bytes_ok = 0;
    o->message[0] = '\0';
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent ev = NULL;
    aclrtContext ctx = NULL;
    void *dev = NULL, *host = NULL;
    aclDataBuffer *buffer = NULL;
    aclTensor *tensor = NULL;
    aclScalar *scalar = NULL;
    aclIntArray *ints = NULL;
    aclFloatArray *floats = NULL;
    aclBoolArray *bools = NULL;
    aclTensorList *tensors = NULL;
    aclScalarList *scalars = NULL;
    unsigned char src[256], back[256];
    for (int i = 0; i < 256; i++) src[i] = (unsigned char)(i * 3 + 1);
    memset(back, 0, sizeof back);
    int64_t status;
    (void)aclGetRecentErrMsg();

#define STEP(id, call)                                       \
    do {                                                     \
        if ((status = (call)) != 0) {                        \
            fail_at(o, id, status);                          \
            goto done;                                       \
        }                                                    \
    } while (0)
#define MAKE(id, var, call)                                  \
    do {                                                     \
        if (((var) = (call)) == NULL) {                      \
            fail_at(o, id, 0);                               \
            goto done;                                       \
        }                                                    \
    } while (0)

    STEP(STEP_SET_DEVICE, aclrtSetDevice(0));
    STEP(STEP_CREATE_STREAM, aclrtCreateStream(&s));
    STEP(STEP_CREATE_EVENT, aclrtCreateEvent(&ev));
    STEP(STEP_MALLOC, aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    STEP(STEP_MEMCPY_ASYNC, aclrtMemcpyAsync(dev, 256, src, 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
    STEP(STEP_MEMSET_ASYNC, aclrtMemsetAsync(dev, 256, 0x5A, 16, s));
    STEP(STEP_RECORD_EVENT, aclrtRecordEvent(ev, s));
    STEP(STEP_CREATE_STREAM2, aclrtCreateStream(&s2));
    STEP(STEP_WAIT_EVENT, aclrtStreamWaitEvent(s2, ev));
    STEP(STEP_COPY_BACK, aclrtMemcpyAsync(back, 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    STEP(STEP_SYNC_STREAM, aclrtSynchronizeStream(s2));
    STEP(STEP_SYNC_EVENT, aclrtSynchronizeEvent(ev));
    STEP(STEP_SYNC_DEVICE, aclrtSynchronizeDevice());
    {
        int ok = 1;
        for (int i = 0; i < 256; i++) ok &= back[i] == (i < 16 ? 0x5A : src[i]);
        o->bytes_ok = ok;
    }
    STEP(STEP_MALLOC_HOST, aclrtMallocHost(&host, 64));
    MAKE(STEP_DATA_BUFFER, buffer, aclCreateDataBuffer(dev, 64));
    {
        int64_t dims[2] = {4, 16}, strides[2] = {16, 1};
        MAKE(STEP_TENSOR, tensor, aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dev));
    }
    {
        float value = 2.5f;
        MAKE(STEP_SCALAR, scalar, aclCreateScalar(&value, ACL_FLOAT));
    }
    {
        int64_t iv[3] = {1, 2, 3};
        float fv[2] = {1.0f, 2.0f};
        bool bv[2] = {true, false};
        MAKE(STEP_INT_ARRAY, ints, aclCreateIntArray(iv, 3));
        MAKE(STEP_FLOAT_ARRAY, floats, aclCreateFloatArray(fv, 2));
        MAKE(STEP_BOOL_ARRAY, bools, aclCreateBoolArray(bv, 2));
    }
    {
        /* the lists own what they hold: give them their own objects */
        int64_t dims[1] = {8};
        aclTensor *member = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev);
        if (member == NULL) {
            fail_at(o, STEP_TENSOR_LIST, 0);
            goto done;
        }
        tensors = aclCreateTensorList((const aclTensor *const *)&member, 1);
        if (tensors == NULL) {
            fail_at(o, STEP_TENSOR_LIST, 0);
            aclDestroyTensor(member);
            goto done;
        }
        float value = 1.0f;
        aclScalar *one = aclCreateScalar(&value, ACL_FLOAT);
        if (one == NULL) {
            fail_at(o, STEP_SCALAR_LIST, 0);
            goto done;
        }
        scalars = aclCreateScalarList((const aclScalar *const *)&one, 1);
        if (scalars == NULL) {
            fail_at(o, STEP_SCALAR_LIST, 0);
            aclDestroyScalar(one);
            goto done;
        }
    }
    STEP(STEP_CONTEXT, aclrtCreateContext(&ctx, 0));
done:
    if (ctx != NULL) {
        (void)aclrtDestroyContext(ctx);
        (void)aclrtSetDevice(0); /* the thread's context again */
    }
    if (scalars) aclDestroyScalarList(scalars);
    if (tensors) aclDestroyTensorList(tensors);
    if (bools) aclDestroyBoolArray(bools);
    if (floats) aclDestroyFloatArray(floats);
    if (ints) aclDestroyIntArray(ints);
    if (scalar) aclDestroyScalar(scalar);
    if (tensor) aclDestroyTensor(tensor);
    if (buffer) aclDestroyDataBuffer(buffer);
    if (host) aclrtFreeHost(host);
    if (s2) {
        (void)aclrtSynchronizeStream(s2);
        (void)aclrtDestroyStream(s2);
    }
    if (s) {
        (void)aclrtSynchronizeStream(s);
        (void)aclrtDestroyStream(s);
    }
    if (ev) (void)aclrtDestroyEvent(ev);
    if (dev) aclrtFree(dev);
#undef STEP
#undef MAKE
}

MG_TEST(every_allocation_of_a_whole_program_fails_cleanly) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    int failed_somewhere[STEP_COUNT] = {0};
    int ran_through_at = 0;
    for (int n = 1; n <= MAX_FAULT_INDEX && !ran_through_at; n++) {
        mg_acl_restart_failing_allocation(n);
        outcome first, second;
        program(&first);
        if (first.failed_step < 0) {
            ran_through_at = n;
            MG_CHECK(first.bytes_ok);
        } else {
            const step_info *st = &steps[first.failed_step];
            failed_somewhere[first.failed_step]++;
            if (first.status != st->oom_status)
                MG_FAIL("fault %d: %s failed with %lld, expected %lld", n, st->name, (long long)first.status,
                        (long long)st->oom_status);
            else
                MG_CHECK(1);
            if (!mg_mentions(first.message, "memory") && !mg_mentions(first.message, "alloc"))
                MG_FAIL("fault %d: %s's message \"%s\" does not say an allocation failed", n, st->name, first.message);
            else
                MG_CHECK(1);
        }
        if (ran_through_at) break; /* the fault is still armed: nothing more to judge */
        /* the fault has fired: the same session runs the program through */
        program(&second);
        if (second.failed_step >= 0)
            MG_FAIL("fault %d: the session's second run failed at %s (%lld: %s)", n, steps[second.failed_step].name,
                    (long long)second.status, second.message);
        else
            MG_CHECK(second.bytes_ok);
    }
    MG_CHECK(ran_through_at > 0);
    for (int i = 0; i < STEP_COUNT; i++)
        if (steps[i].must_allocate && failed_somewhere[i] == 0)
            MG_FAIL("no planted fault failed %s (it allocates on every call)", steps[i].name);
    printf("  the program makes %d allocations\n", ran_through_at - 1);
    (void)aclFinalize();
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
}

MG_TEST_MAIN()
