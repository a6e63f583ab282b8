/*
 * tests/reliability/test_fork.c: fork() of a process that uses the runtime (PyTorch's
 * DataLoader forks by default). The child gets 100001 and a message on every runtime call,
 * never a hang (its worker threads do not exist there: issue 25.5); the parent's runtime is
 * untouched; children forked while other threads hold the handle registry's lock do not
 * inherit it held, nor the locks of the tensor base's objects, nor those of the runtime's data
 * buffers and tensor descriptions. One process per case (CTest reliability_fork_<case>).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "rel_setup.h"

/* ---- 5. fork(): the child gets a status and a message, never a hang --------------------------- */

static int child_checks(aclrtStream s) {
    int bad = 0;
#define CHILD_EXPECT(call)                                                                   \
    do {                                                                                     \
        const aclError r_ = (call);                                                          \
        if (r_ != ACL_ERROR_UNINITIALIZE || !rel_message_has("forked")) {                        \
            printf("FAIL child: %s returned %d (want 100001 and a message about fork)\n", #call, r_); \
            bad++;                                                                           \
        }                                                                                    \
    } while (0)
    CHILD_EXPECT(aclrtSynchronizeStreamWithTimeout(s, 200));
    CHILD_EXPECT(aclrtSynchronizeStream(s));
    void *p = NULL;
    CHILD_EXPECT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHILD_EXPECT(aclrtDestroyStream(s));
    CHILD_EXPECT(aclrtResetDevice(0));
    CHILD_EXPECT(aclFinalize());
    CHILD_EXPECT(aclInit(NULL));
#undef CHILD_EXPECT
    fflush(stdout);
    return bad;
}

MG_TEST(fork_child) {
    rel_start_runtime();
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    void *dev = NULL;
    enum { BYTES = 1 << 20 };
    REL_CHECK(aclrtMalloc(&dev, BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemsetAsync(dev, BYTES, 1, BYTES, s) == ACL_SUCCESS, "work ran before the fork");
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
    REL_CHECK(aclrtMemsetAsync(dev, BYTES, 2, BYTES, s) == ACL_SUCCESS, "work queued at the fork");
    fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        alarm(10); /* default action: the child dies, the parent sees the signal */
        _exit(child_checks(s) ? 2 : 0);
    }
    REL_CHECK(child > 0, "fork");
    int status = 0;
    const double t0 = rel_now_s();
    pid_t done = 0;
    while ((done = waitpid(child, &status, WNOHANG)) == 0 && rel_now_s() - t0 < 20.0) rel_sleep_ms(10);
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        REL_CHECK(0, "the child hung");
    } else {
        REL_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x (signal %d = hung)", status,
              WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    /* The parent's runtime is untouched. */
    REL_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, "parent: aclrtSynchronizeStream");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "parent: aclrtDestroyStream");
    REL_CHECK(aclrtFree(dev) == ACL_SUCCESS, "parent: aclrtFree");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "parent: aclFinalize");
}

/* Round 3's fork attack: children forked while other threads make and destroy tensors. The
   handle registry's lock could be copied held into the child, whose first aclCreateTensor then
   hung (75 of 300 children). */
static atomic_int hammer_stop;

static void *tensor_hammer(void *arg) {
    (void)arg;
    int64_t shape[1] = {4}, strides[1] = {1};
    static float data[4];
    while (!atomic_load(&hammer_stop)) {
        aclTensor *t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
        (void)aclDestroyTensor(t);
    }
    return NULL;
}

/* A child's wall-clock limit: one takes about 15 ms, under TSan too, so 2 s is a hang. Under
   TSan a child also sets up and checks the sanitizer's state, and CI's TSan job shares two
   cores with other jobs: it once saw one child of 200 past 2 s that 5000 children run alone
   never reproduced, so the sanitizer builds wait longer before they call it a hang. */
#if defined(REL_UNDER_TSAN) || defined(REL_UNDER_ASAN)
enum { CHILD_LIMIT_S = 10 };
#else
enum { CHILD_LIMIT_S = 2 };
#endif

/* Forks `forks` children one after another; each runs `child` under an alarm and exits 0
   when it returns 1. Counts the children that hung (killed by the alarm) and those that
   answered wrong. */
static void fork_children(int forks, int (*child)(void), int *hung, int *wrong) {
    for (int i = 0; i < forks; i++) {
        const pid_t pid = fork();
        if (pid == 0) {
            alarm(CHILD_LIMIT_S); /* a hung child dies of SIGALRM */
            _exit(child() ? 0 : 2);
        }
        if (pid < 0) {
            REL_CHECK(0, "fork");
            return;
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status))
            (*hung)++;
        else if (WEXITSTATUS(status) != 0)
            (*wrong)++;
    }
}

/* In the child: a tensor made and destroyed (the registry's lock), and the runtime refused. */
static int child_makes_a_tensor(void) {
    int64_t shape[1] = {4}, strides[1] = {1};
    static float data[4];
    aclTensor *t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
    const int made = t != NULL && aclDestroyTensor(t) == ACL_SUCCESS;
    void *p = NULL;
    return made && aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_UNINITIALIZE;
}

MG_TEST(fork_registry) {
#if defined(REL_UNDER_ASAN)
    /* ASan's allocator has locks of its own that a fork can copy held: a hang there is the
       sanitizer's, not ours. The plain and TSan builds run it. */
    MG_SKIP("AddressSanitizer's allocator locks can be copied held by the fork");
#endif
    rel_start_runtime();
    enum { HAMMERS = 2, FORKS = 100 };
    pthread_t hammers[HAMMERS];
    for (int i = 0; i < HAMMERS; i++) pthread_create(&hammers[i], NULL, tensor_hammer, NULL);
    int hung = 0, wrong = 0;
    fork_children(FORKS, child_makes_a_tensor, &hung, &wrong);
    atomic_store(&hammer_stop, 1);
    for (int i = 0; i < HAMMERS; i++) pthread_join(hammers[i], NULL);
    printf("%d forks while %d threads made tensors: %d children hung, %d answered wrong\n", FORKS, HAMMERS, hung,
           wrong);
    REL_CHECK(hung == 0 && wrong == 0, "%d hung, %d wrong", hung, wrong);
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* Round 3's second campaign: children forked while other threads use one tensor (its getters
   and aclInitTensor take the tensor's own lock). The lock could be copied held into the child,
   whose first aclGetViewShape of that tensor then hung (5 of 200 children). */
static aclTensor *shared_tensor;
static float shared_data[64];

static void *tensor_user(void *arg) {
    (void)arg;
    int64_t dims[1] = {64}, strides[1] = {1};
    while (!atomic_load(&hammer_stop)) {
        int64_t *shape = NULL;
        uint64_t n = 0;
        if (aclGetViewShape(shared_tensor, &shape, &n) == ACLNN_SUCCESS) free(shape);
        (void)aclInitTensor(shared_tensor, dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, shared_data);
    }
    return NULL;
}

/* In the child: the shared tensor read (its lock), then re-described (the lock works again). */
static int child_uses_the_shared_tensor(void) {
    int64_t dims[1] = {64}, strides[1] = {1};
    int64_t *shape = NULL;
    uint64_t n = 0;
    const int ok = aclGetViewShape(shared_tensor, &shape, &n) == ACLNN_SUCCESS && n == 1 && shape[0] == 64;
    return ok && aclInitTensor(shared_tensor, dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, shared_data) ==
                     ACLNN_SUCCESS;
}

MG_TEST(fork_object_locks) {
#if defined(REL_UNDER_ASAN)
    MG_SKIP("AddressSanitizer's allocator locks can be copied held by the fork");
#endif
    rel_start_runtime();
    int64_t dims[1] = {64}, strides[1] = {1};
    shared_tensor = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, shared_data);
    REL_CHECK(shared_tensor != NULL, "aclCreateTensor");
    atomic_store(&hammer_stop, 0);
    enum { USERS = 2, FORKS = 200 };
    pthread_t users[USERS];
    for (int i = 0; i < USERS; i++) pthread_create(&users[i], NULL, tensor_user, NULL);
    int hung = 0, wrong = 0;
    fork_children(FORKS, child_uses_the_shared_tensor, &hung, &wrong);
    atomic_store(&hammer_stop, 1);
    for (int i = 0; i < USERS; i++) pthread_join(users[i], NULL);
    printf("%d forks while %d threads used one tensor: %d children hung, %d answered wrong\n", FORKS, USERS, hung,
           wrong);
    REL_CHECK(hung == 0 && wrong == 0, "%d hung, %d wrong", hung, wrong);
    REL_CHECK(aclDestroyTensor(shared_tensor) == ACLNN_SUCCESS, "aclDestroyTensor");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* The runtime's data buffers and tensor descriptions (aclDataBuffer, aclTensorDesc) each guard
   their fields with one lock of their file. Children forked while two threads update and read
   one buffer and one description: a lock copied held hung the child's first getter. Each
   child reads both, then updates both (the locks work again in the child). */
static aclDataBuffer *shared_buffer;
static aclTensorDesc *shared_desc;
static char buffer_bytes[2][64];

static void *buffer_and_desc_user(void *arg) {
    const int which = (int)(intptr_t)arg;
    while (!atomic_load(&hammer_stop)) {
        (void)aclUpdateDataBuffer(shared_buffer, buffer_bytes[which], sizeof buffer_bytes[which]);
        (void)aclGetDataBufferAddr(shared_buffer);
        (void)aclGetDataBufferSizeV2(shared_buffer);
        (void)aclSetTensorOriginFormat(shared_desc, which ? ACL_FORMAT_NCHW : ACL_FORMAT_ND);
        (void)aclGetTensorDescFormat(shared_desc);
        (void)aclGetTensorDescNumDims(shared_desc);
    }
    return NULL;
}

static int child_uses_buffer_and_desc(void) {
    void *const data = aclGetDataBufferAddr(shared_buffer);
    const int read_ok = (data == buffer_bytes[0] || data == buffer_bytes[1]) &&
                        aclGetDataBufferSizeV2(shared_buffer) == 64 && aclGetTensorDescNumDims(shared_desc) == 2;
    const aclFormat format = aclGetTensorDescFormat(shared_desc);
    return read_ok && (format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW) &&
           aclUpdateDataBuffer(shared_buffer, buffer_bytes[1], 32) == ACL_SUCCESS &&
           aclGetDataBufferSizeV2(shared_buffer) == 32 &&
           aclSetTensorOriginFormat(shared_desc, ACL_FORMAT_NHWC) == ACL_SUCCESS &&
           aclGetTensorDescFormat(shared_desc) == ACL_FORMAT_NHWC;
}

MG_TEST(fork_buffer_and_desc_locks) {
#if defined(REL_UNDER_ASAN)
    MG_SKIP("AddressSanitizer's allocator locks can be copied held by the fork");
#endif
    rel_start_runtime();
    const int64_t dims[2] = {4, 16};
    shared_buffer = aclCreateDataBuffer(buffer_bytes[0], sizeof buffer_bytes[0]);
    shared_desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    REL_CHECK(shared_buffer != NULL && shared_desc != NULL, "aclCreateDataBuffer / aclCreateTensorDesc");
    atomic_store(&hammer_stop, 0);
    enum { USERS = 2, FORKS = 300 };
    pthread_t users[USERS];
    for (int i = 0; i < USERS; i++) pthread_create(&users[i], NULL, buffer_and_desc_user, (void *)(intptr_t)i);
    int hung = 0, wrong = 0;
    fork_children(FORKS, child_uses_buffer_and_desc, &hung, &wrong);
    atomic_store(&hammer_stop, 1);
    for (int i = 0; i < USERS; i++) pthread_join(users[i], NULL);
    printf("%d forks while %d threads used one data buffer and one tensor description: %d children hung, %d answered "
           "wrong\n",
           FORKS, USERS, hung, wrong);
    REL_CHECK(hung == 0 && wrong == 0, "%d hung, %d wrong", hung, wrong);
    REL_CHECK(aclDestroyDataBuffer(shared_buffer) == ACL_SUCCESS, "aclDestroyDataBuffer");
    aclDestroyTensorDesc(shared_desc);
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

MG_TEST_MAIN()
