/*
 * tests/reliability/test_regress_nnopbase.c: regression tests for issue 10's defects in the
 * tensor base (libnnopbase), each written from the sequence, through the public API
 * only, so the same file builds against the old library (df53ac8) and fails there:
 *
 *   1  stale executor handles recognised by address (relaunch, destroy)
 *   2  executor not pinned during phase 2 (destroy racing launch; aclSetOutputTensorAddr
 *      racing launch)                                           -- threads, run under TSan
 *   3  aclrtFree(workspace) racing a launch                     -- threads
 *   5  a failed internal allocation in the overlap proof blamed on the caller (161002)
 *   6  signed overflow in the overlap proof from a size-1 dim's stride (UBSan)
 *   7  misaligned data / workspace accepted
 *   8  tensors not tracked (double destroy, destroyed tensor to phase 1 / set-address)
 *   9  abandoned executors never reclaimed by aclFinalize
 * and the mutant that survived in this layer: phase 2 must count the BYTES of a refreshed
 * output (a 64-byte block for a 256-byte view is refused).
 *
 * Every thread that calls the runtime sets device 0 first (CANN's per-thread context).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_log_file.h"
#include "mg_test.h"
#include "mish_reference.h"
#include "nnop.h"

/* ---- helpers ------------------------------------------------------------------------ */

static void pause_us(long us) {
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static char last_message[1024];

/* Reads (and so clears) the calling thread's recent error message once. */
static const char *message(void) {
    const char *m = aclGetRecentErrMsg();
    snprintf(last_message, sizeof last_message, "%s", m ? m : "");
    return last_message;
}

static void runtime_up(void) {
    static int up;
    if (!up) {
        if (aclInit(NULL) != ACL_SUCCESS) {
            fprintf(stderr, "aclInit failed: %s\n", message());
            exit(1);
        }
        up = 1;
    }
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "aclrtSetDevice failed: %s\n", message());
        exit(1);
    }
}

/* mish'(x): the project's one reference (reference/mish_reference.h) */
static double mish_grad_ref(double x) { return (double)mish_ref_grad_ld((long double)x); }

#define MAXN 4096

/* gradOutput and self dense [dims]; gradInput with its own strides and storage. */
typedef struct job {
    int rank;
    int64_t dims[8], out_strides[8];
    int64_t numel, out_storage;
    void *grad, *self, *out;
    aclTensor *tg, *ts, *to;
    float host_grad[MAXN], host_self[MAXN];
} job;

static void *device_block(size_t bytes) {
    void *p = NULL;
    if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return NULL;
    return p;
}

static void fill_device(void *dev, const void *host, size_t bytes) {
    aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

/* out_strides NULL: dense output. */
static int job_make(job *j, int rank, const int64_t *dims, const int64_t *out_strides, int64_t out_storage) {
    memset(j, 0, sizeof *j);
    j->rank = rank;
    j->numel = 1;
    for (int i = 0; i < rank; i++) {
        j->dims[i] = dims[i];
        j->numel *= dims[i];
    }
    if (j->numel > MAXN) return -1;
    int64_t step = 1;
    for (int i = rank - 1; i >= 0; i--) {
        j->out_strides[i] = out_strides ? out_strides[i] : step;
        step *= dims[i];
    }
    j->out_storage = out_strides ? out_storage : j->numel;
    for (int64_t i = 0; i < j->numel; i++) {
        j->host_self[i] = (float)(-4.0 + 8.0 * (double)i / (double)j->numel);
        j->host_grad[i] = 1.0f + 0.25f * (float)(i % 5);
    }
    size_t in_bytes = (size_t)j->numel * sizeof(float), out_bytes = (size_t)j->out_storage * sizeof(float);
    j->grad = device_block(in_bytes);
    j->self = device_block(in_bytes);
    j->out = device_block(out_bytes);
    if (!j->grad || !j->self || !j->out) return -1;
    fill_device(j->grad, j->host_grad, in_bytes);
    fill_device(j->self, j->host_self, in_bytes);
    aclrtMemset(j->out, out_bytes, 0, out_bytes);
    int64_t in_storage = j->numel;
    j->tg = aclCreateTensor(j->dims, (uint64_t)rank, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &in_storage, 1, j->grad);
    j->ts = aclCreateTensor(j->dims, (uint64_t)rank, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &in_storage, 1, j->self);
    j->to = aclCreateTensor(j->dims, (uint64_t)rank, ACL_FLOAT, j->out_strides, 0, ACL_FORMAT_ND, &j->out_storage, 1,
                            j->out);
    return j->tg && j->ts && j->to ? 0 : -1;
}

static void job_free(job *j) {
    aclDestroyTensor(j->tg);
    aclDestroyTensor(j->ts);
    aclDestroyTensor(j->to);
    if (j->grad) aclrtFree(j->grad);
    if (j->self) aclrtFree(j->self);
    if (j->out) aclrtFree(j->out);
    memset(j, 0, sizeof *j);
}

/* Phase 1; *ws gets a workspace block when one is needed. */
static aclnnStatus job_phase1(job *j, aclOpExecutor **executor, uint64_t *ws_size, void **ws) {
    *executor = NULL;
    *ws = NULL;
    aclnnStatus status = aclnnMishBackwardGetWorkspaceSize(j->tg, j->ts, j->to, ws_size, executor);
    if (status == ACLNN_SUCCESS && *ws_size > 0) *ws = device_block(*ws_size);
    return status;
}

/* Number of output elements that differ from the reference (dense index -> strided). */
static int64_t job_wrong(const job *j) {
    size_t bytes = (size_t)j->out_storage * sizeof(float);
    float *host = malloc(bytes);
    aclrtMemcpy(host, bytes, j->out, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    int64_t wrong = 0;
    for (int64_t i = 0; i < j->numel; i++) {
        int64_t rest = i, at = 0;
        for (int d = j->rank - 1; d >= 0; d--) {
            int64_t idx = rest % j->dims[d];
            rest /= j->dims[d];
            if (j->dims[d] > 1) at += idx * j->out_strides[d];
        }
        double ref = mish_grad_ref((double)j->host_self[i]) * (double)j->host_grad[i];
        if (!(fabs((double)host[at] - ref) <= 1e-5 * fmax(1.0, fabs(ref)))) wrong++;
    }
    free(host);
    return wrong;
}

static int bytes_all_zero(const void *dev, size_t bytes) {
    unsigned char *host = malloc(bytes);
    aclrtMemcpy(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    int zero = 1;
    for (size_t i = 0; i < bytes; i++) zero &= host[i] == 0;
    free(host);
    return zero;
}

/* ---- defect 1: stale executor handles ---------------------------------------------- */

/* Phase 1 A, launch A (single-use: released), phase 1 B -- the allocator may hand B A's
   old address -- launch A again: refused, B untouched; B's own launch still works. Many
   A's and B's, so that on an allocator that reuses addresses some B lands on an old A. */
MG_TEST(defect1_stale_single_use_executor_does_not_run_another_plan) {
    runtime_up();
    enum { ROUNDS = 48 };
    int64_t dims[2] = {16, 16};
    static job a, b[ROUNDS];
    static aclOpExecutor *stale[ROUNDS], *live[ROUNDS];
    static uint64_t wb[ROUNDS];
    static void *sb[ROUNDS];
    /* Every buffer first, so that between A's release and B's creation nothing else
       allocates. */
    MG_CHECK_EQ_INT(job_make(&a, 2, dims, NULL, 0), 0);
    for (int i = 0; i < ROUNDS; i++) MG_CHECK_EQ_INT(job_make(&b[i], 2, dims, NULL, 0), 0);
    for (int i = 0; i < ROUNDS; i++) {
        uint64_t wa = 0;
        void *sa = NULL;
        MG_CHECK_EQ_INT(job_phase1(&a, &stale[i], &wa, &sa), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclnnMishBackward(sa, wa, stale[i], NULL), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(job_phase1(&b[i], &live[i], &wb[i], &sb[i]), ACLNN_SUCCESS);
    }
    MG_CHECK_EQ_INT(job_wrong(&a), 0);
    int reused = 0;
    for (int i = 0; i < ROUNDS; i++)
        for (int k = 0; k < ROUNDS; k++) reused += stale[i] == live[k];
    if (reused) fprintf(stderr, "  %d new executor(s) got an old handle value\n", reused);
    MG_CHECK_EQ_INT(reused, 0); /* handles are never valid twice */
    for (int i = 0; i < ROUNDS; i++) {
        MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, stale[i], NULL), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(message(), "executor");
    }
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) /* no B's plan ran */
        MG_CHECK(bytes_all_zero(b[k].out, (size_t)b[k].numel * sizeof(float)));
    for (int k = 0; k < ROUNDS; k++) MG_CHECK_EQ_INT(aclnnMishBackward(sb[k], wb[k], live[k], NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        MG_CHECK_EQ_INT(job_wrong(&b[k]), 0);
        job_free(&b[k]);
    }
    job_free(&a);
}

/* A destroyed repeatable executor's handle must not destroy a newer live executor. */
MG_TEST(defect1_stale_repeatable_handle_does_not_destroy_another_executor) {
    runtime_up();
    int64_t dims[1] = {300};
    job a, b;
    MG_CHECK_EQ_INT(job_make(&a, 1, dims, NULL, 0), 0);
    MG_CHECK_EQ_INT(job_make(&b, 1, dims, NULL, 0), 0);
    aclOpExecutor *ea = NULL, *eb = NULL;
    uint64_t wa = 0, wb = 0;
    void *sa = NULL, *sb = NULL;
    MG_CHECK_EQ_INT(job_phase1(&a, &ea, &wa, &sa), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(ea), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(ea), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(job_phase1(&b, &eb, &wb, &sb), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(eb), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(ea), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "executor");
    /* B is alive and runs twice. */
    for (int run = 0; run < 2; run++) MG_CHECK_EQ_INT(aclnnMishBackward(sb, wb, eb, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(job_wrong(&b), 0);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(eb), ACLNN_SUCCESS);
    job_free(&a);
    job_free(&b);
}

/* ---- defect 2: executors pinned while phase 2 uses them ------------------------------ */

typedef struct race {
    aclOpExecutor *executor;
    void *ws;
    uint64_t ws_size;
    job *j;
    void *alternative;      /* a second output block (defect 2b), or NULL */
    atomic_int stop;          /* the launcher stops early */
    atomic_int done;          /* the launcher has finished */
    int launches, refused, other;
    int flip_failures;
} race;

static void *launcher(void *opaque) {
    race *r = opaque;
    aclrtSetDevice(0);
    for (int i = 0; i < 400 && !atomic_load(&r->stop); i++) {
        aclnnStatus status = aclnnMishBackward(r->ws, r->ws_size, r->executor, NULL);
        if (status == ACLNN_SUCCESS)
            r->launches++;
        else if (status == ACLNN_ERR_PARAM_INVALID)
            r->refused++;
        else
            r->other++;
        (void)aclGetRecentErrMsg(); /* clear */
    }
    aclrtSynchronizeStream(NULL);
    atomic_store(&r->done, 1);
    return NULL;
}

MG_TEST(defect2_destroy_racing_launch) {
    runtime_up();
    int64_t dims[2] = {8, 64};
    for (int round = 0; round < 20; round++) {
        job j;
        MG_CHECK_EQ_INT(job_make(&j, 2, dims, NULL, 0), 0);
        race r;
        memset(&r, 0, sizeof r);
        r.j = &j;
        MG_CHECK_EQ_INT(job_phase1(&j, &r.executor, &r.ws_size, &r.ws), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(r.executor), ACLNN_SUCCESS);
        pthread_t thread;
        pthread_create(&thread, NULL, launcher, &r);
        pause_us(round * 50);
        MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(r.executor), ACLNN_SUCCESS);
        pthread_join(thread, NULL);
        MG_CHECK_EQ_INT(r.other, 0);
        /* once destroyed it never runs again: the refusals come last */
        MG_CHECK(r.launches + r.refused == 400);
        MG_CHECK_EQ_INT(aclnnMishBackward(r.ws, r.ws_size, r.executor, NULL), ACLNN_ERR_PARAM_INVALID);
        (void)message();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        if (r.launches > 0) MG_CHECK_EQ_INT(job_wrong(&j), 0);
        if (r.ws) aclrtFree(r.ws);
        job_free(&j);
    }
}

static void *address_flipper(void *opaque) {
    race *r = opaque;
    aclrtSetDevice(0);
    for (int i = 0; !atomic_load(&r->done); i++) {
        void *addr = i % 3 == 0 ? NULL : i % 3 == 1 ? r->alternative : r->j->out;
        if (aclSetOutputTensorAddr(r->executor, 0, r->j->to, addr) != ACLNN_SUCCESS) r->flip_failures++;
    }
    return NULL;
}

/* Phase 2 must use the address it checked: with the output flipping between a valid
   block, another valid block and NULL, every launch either runs on a valid block or is
   refused -- never a NULL store. */
MG_TEST(defect2_set_output_address_racing_launch) {
    runtime_up();
    int64_t dims[1] = {1024};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 1, dims, NULL, 0), 0);
    race r;
    memset(&r, 0, sizeof r);
    r.j = &j;
    r.alternative = device_block(1024 * sizeof(float));
    MG_CHECK_EQ_INT(job_phase1(&j, &r.executor, &r.ws_size, &r.ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(r.executor), ACLNN_SUCCESS);
    pthread_t a, b;
    pthread_create(&b, NULL, address_flipper, &r);
    pthread_create(&a, NULL, launcher, &r);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    MG_CHECK_EQ_INT(r.flip_failures, 0);
    MG_CHECK_EQ_INT(r.other, 0);
    MG_CHECK_EQ_INT(r.launches + r.refused, 400);
    MG_CHECK_EQ_INT(aclSetOutputTensorAddr(r.executor, 0, j.to, j.out), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(r.ws, r.ws_size, r.executor, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(job_wrong(&j), 0);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(r.executor), ACLNN_SUCCESS);
    aclrtFree(r.alternative);
    if (r.ws) aclrtFree(r.ws);
    job_free(&j);
}

/* ---- defect 3: aclrtFree(workspace) racing a launch --------------------------------- */

/* One freeing thread for every round: both sides meet at a spin barrier, then the freer
   waits `delay` spins and frees the workspace while the main thread launches. The delays
   sweep the whole launch, so some frees land between its check and its queueing. */
typedef struct free_race {
    void *_Atomic ws;
    atomic_int round;       /* set by the main thread to start a round */
    atomic_int arrived;     /* the freer is at the barrier of this round */
    atomic_int freed;       /* the freer's aclrtFree of this round returned */
    atomic_int delay;
    atomic_int quit;
} free_race;

static void *workspace_freer(void *opaque) {
    free_race *f = opaque;
    aclrtSetDevice(0);
    for (int seen = 0;;) {
        while (atomic_load(&f->round) == seen && !atomic_load(&f->quit)) {
        }
        if (atomic_load(&f->quit)) break;
        seen = atomic_load(&f->round);
        atomic_store(&f->arrived, seen);
        for (volatile int spin = atomic_load(&f->delay); spin > 0; spin--) {
        }
        aclrtFree(atomic_load(&f->ws));
        atomic_store(&f->freed, seen);
    }
    return NULL;
}

/* A transposed output goes through the workspace (kernel -> dense -> ViewCopy). The free
   lands before the launch's check (refused), or after its work is queued (the free waits
   for it); never in between. */
MG_TEST(defect3_free_workspace_racing_launch) {
    runtime_up();
    enum { ROUNDS = 400 };
    int64_t dims[2] = {32, 48}, strides[2] = {1, 32};
    int ran = 0, refused = 0;
    static free_race f;
    atomic_init(&f.ws, NULL);
    atomic_init(&f.round, 0);
    atomic_init(&f.arrived, 0);
    atomic_init(&f.freed, 0);
    atomic_init(&f.delay, 0);
    atomic_init(&f.quit, 0);
    pthread_t thread;
    pthread_create(&thread, NULL, workspace_freer, &f);
    for (int round = 1; round <= ROUNDS; round++) {
        job j;
        MG_CHECK_EQ_INT(job_make(&j, 2, dims, strides, 32 * 48), 0);
        aclOpExecutor *e = NULL;
        uint64_t ws_size = 0;
        void *ws = NULL;
        MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_SUCCESS);
        MG_CHECK(ws_size > 0 && ws != NULL);
        atomic_store(&f.ws, ws);
        atomic_store(&f.delay, (round * 37) % 4000);
        atomic_store(&f.round, round);
        while (atomic_load(&f.arrived) != round) {
        }
        aclnnStatus status = aclnnMishBackward(ws, ws_size, e, NULL);
        (void)message();
        while (atomic_load(&f.freed) != round) {
        }
        MG_CHECK(status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        if (status == ACLNN_SUCCESS) {
            ran++;
            MG_CHECK_EQ_INT(job_wrong(&j), 0);
        } else {
            refused++;
        }
        job_free(&j);
    }
    atomic_store(&f.quit, 1);
    pthread_join(thread, NULL);
    fprintf(stderr, "  %d launches ran, %d were refused (the workspace already freed)\n", ran, refused);
    MG_CHECK_EQ_INT(ran + refused, ROUNDS);
}

/* ---- defect 5: a failed allocation in the overlap proof ----------------------------- */

/* An interleaved output (dims [4,5], strides [2,5]: no two elements meet, but the proof
   must enumerate them, which allocates). Every internal allocation in turn fails; no
   failure may come back as the caller's fault (161002), and the overlap proof's failure
   is a 561xxx whose message says an allocation failed. */
MG_TEST(defect5_failed_allocation_in_overlap_proof_is_an_inner_error) {
    runtime_up();
    int saw_inner_in_phase1 = 0, completed = 0;
    for (int n = 1; n <= 12; n++) {
        MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
        char value[16];
        snprintf(value, sizeof value, "%d", n);
        setenv("MISHGRAD_FAULT_ALLOC", value, 1);
        MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
        unsetenv("MISHGRAD_FAULT_ALLOC");
        aclrtSetDevice(0);
        int64_t dims[2] = {4, 5}, strides[2] = {2, 5};
        job j;
        if (job_make(&j, 2, dims, strides, 2 * 3 + 5 * 4 + 1) != 0) { /* a tensor's allocation failed */
            (void)message();
            job_free(&j);
            continue;
        }
        aclOpExecutor *e = NULL;
        uint64_t ws_size = 0;
        void *ws = NULL;
        aclnnStatus status = job_phase1(&j, &e, &ws_size, &ws);
        const char *m = message();
        MG_CHECK(status != ACLNN_ERR_PARAM_INVALID && status != ACLNN_ERR_PARAM_NULLPTR);
        if (status != ACLNN_SUCCESS) {
            MG_CHECK(status / 1000 == 561);
            MG_CHECK_STR_CONTAINS(m, "allocation failed");
            saw_inner_in_phase1 = 1;
        } else {
            status = aclnnMishBackward(ws, ws_size, e, NULL);
            (void)message();
            MG_CHECK(status != ACLNN_ERR_PARAM_INVALID && status != ACLNN_ERR_PARAM_NULLPTR);
            if (aclrtSynchronizeStream(NULL) == ACL_SUCCESS && status == ACLNN_SUCCESS) {
                MG_CHECK_EQ_INT(job_wrong(&j), 0);
                completed++;
            }
            (void)message();
        }
        if (ws) aclrtFree(ws);
        job_free(&j);
    }
    /* A clean session for the tests after this one. */
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    aclrtSetDevice(0);
    MG_CHECK(saw_inner_in_phase1);
    MG_CHECK(completed > 0); /* the sweep went past every allocation */
}

/* ---- defect 6: size-1 dims' strides stay out of the overlap proof --------------------- */

MG_TEST(defect6_size_one_dim_with_huge_stride) {
    runtime_up();
    /* dims [4,1,5] strides [2, INT64_MAX, 5]: interleaved (enumerated), no overlap. */
    int64_t dims[3] = {4, 1, 5}, strides[3] = {2, INT64_MAX, 5};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 3, dims, strides, 2 * 3 + 5 * 4 + 1), 0);
    aclOpExecutor *e = NULL;
    uint64_t ws_size = 0;
    void *ws = NULL;
    aclnnStatus status = job_phase1(&j, &e, &ws_size, &ws);
    MG_CHECK_EQ_INT(status, ACLNN_SUCCESS);
    if (status == ACLNN_SUCCESS) {
        MG_CHECK_EQ_INT(aclnnMishBackward(ws, ws_size, e, NULL), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(job_wrong(&j), 0);
    } else {
        fprintf(stderr, "  phase 1: %s\n", message());
    }
    if (ws) aclrtFree(ws);
    job_free(&j);
    /* The same dims with a colliding interleave ([4,1,5] strides [3, INT64_MAX, 2]: 3*2 ==
       2*3) is refused, and so is the off-by-one the mutation run planted: [2,2] / [1,1]. */
    int64_t collide[3] = {3, INT64_MAX, 2};
    MG_CHECK_EQ_INT(job_make(&j, 3, dims, collide, 3 * 3 + 2 * 4 + 1), 0);
    MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "gradInput");
    job_free(&j);
    int64_t square[2] = {2, 2}, ones[2] = {1, 1};
    MG_CHECK_EQ_INT(job_make(&j, 2, square, ones, 3), 0);
    MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "gradInput");
    job_free(&j);
}

/* ---- defect 7: misaligned data and workspace ------------------------------------------ */

MG_TEST(defect7_misaligned_data_is_refused_naming_the_tensor) {
    runtime_up();
    int64_t dims[1] = {64};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 1, dims, NULL, 0), 0);
    /* self one byte into its block (storage still inside it: 63 elements) */
    int64_t storage = 63, small[1] = {63};
    aclTensor *odd = aclCreateTensor(small, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1,
                                     (unsigned char *)j.self + 1);
    aclTensor *grad = aclCreateTensor(small, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, j.grad);
    aclTensor *out = aclCreateTensor(small, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, j.out);
    aclOpExecutor *e = NULL;
    uint64_t ws_size = 0;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(grad, odd, out, &ws_size, &e), ACLNN_ERR_PARAM_INVALID);
    const char *m = message();
    MG_CHECK_STR_CONTAINS(m, "self");
    MG_CHECK_STR_CONTAINS(m, "aligned");
    MG_CHECK(bytes_all_zero(j.out, 64 * sizeof(float)));
    /* a refreshed input address two bytes off */
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(grad, grad, out, &ws_size, &e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetInputTensorAddr(e, 1, odd, (unsigned char *)j.self + 2), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, e, NULL), ACLNN_ERR_PARAM_INVALID);
    m = message();
    MG_CHECK_STR_CONTAINS(m, "self");
    MG_CHECK_STR_CONTAINS(m, "aligned");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK(bytes_all_zero(j.out, 64 * sizeof(float)));
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    aclDestroyTensor(odd);
    aclDestroyTensor(grad);
    aclDestroyTensor(out);
    job_free(&j);
}

MG_TEST(defect7_misaligned_workspace_is_refused) {
    runtime_up();
    int64_t dims[2] = {16, 8}, strides[2] = {1, 16};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 2, dims, strides, 128), 0);
    aclOpExecutor *e = NULL;
    uint64_t ws_size = 0;
    void *ws = NULL;
    MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_SUCCESS);
    MG_CHECK(ws_size > 0);
    void *big = device_block((size_t)ws_size + 64);
    MG_CHECK_EQ_INT(aclnnMishBackward((unsigned char *)big + 2, ws_size, e, NULL), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "workspace");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK(bytes_all_zero(j.out, 128 * sizeof(float)));
    aclrtFree(big);
    if (ws) aclrtFree(ws);
    job_free(&j);
}

/* ---- defect 8: tensors are tracked ------------------------------------------------- */

MG_TEST(defect8_double_destroy_is_a_status) {
    runtime_up();
    int64_t dims[1] = {4}, storage = 4;
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, NULL);
    MG_CHECK(t != NULL);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "aclTensor");
    /* a newer tensor is unaffected by the stale handle */
    aclTensor *u = aclCreateTensor(dims, 1, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, &storage, 1, NULL);
    MG_CHECK_EQ_INT(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID);
    (void)message();
    aclDataType dtype = ACL_DT_UNDEFINED;
    MG_CHECK_EQ_INT(aclGetDataType(u, &dtype), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT16);
    MG_CHECK_EQ_INT(aclGetDataType(t, &dtype), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    MG_CHECK_EQ_INT(dtype, ACL_FLOAT16); /* nothing written on failure */
    MG_CHECK_EQ_INT(aclDestroyTensor(u), ACLNN_SUCCESS);
}

MG_TEST(defect8_destroyed_tensor_to_phase1_and_set_address) {
    runtime_up();
    int64_t dims[1] = {256};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 1, dims, NULL, 0), 0);
    aclOpExecutor *e = NULL;
    uint64_t ws_size = 0;
    void *ws = NULL;
    MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(j.ts), ACLNN_SUCCESS);
    aclOpExecutor *e2 = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(j.tg, j.ts, j.to, &ws_size, &e2), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "self");
    MG_CHECK(e2 == NULL);
    MG_CHECK_EQ_INT(aclSetInputTensorAddr(e, 1, j.ts, j.self), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "tensor");
    /* a foreign pointer */
    int64_t not_a_tensor[16] = {0};
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize((const aclTensor *)(void *)not_a_tensor, j.tg, j.to, &ws_size,
                                                      &e2),
                    ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "gradOutput");
    /* the executor itself still runs (its plan holds addresses, not the tensor) */
    MG_CHECK_EQ_INT(aclnnMishBackward(ws, ws_size, e, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(job_wrong(&j), 0);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    j.ts = NULL;
    job_free(&j);
}

/* ---- the mutant: phase 2 counts bytes ------------------------------------------------- */

MG_TEST(refreshed_output_too_small_in_bytes_is_refused) {
    runtime_up();
    int64_t dims[1] = {64}; /* 256 bytes of float */
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 1, dims, NULL, 0), 0);
    aclOpExecutor *e = NULL;
    uint64_t ws_size = 0;
    void *ws = NULL;
    MG_CHECK_EQ_INT(job_phase1(&j, &e, &ws_size, &ws), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    void *small = device_block(64);
    aclrtMemset(small, 64, 0, 64);
    MG_CHECK_EQ_INT(aclSetOutputTensorAddr(e, 0, j.to, small), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclnnMishBackward(ws, ws_size, e, NULL), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "gradInput");
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    MG_CHECK(bytes_all_zero(small, 64));
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    aclrtFree(small);
    job_free(&j);
}

/* ---- defect 9: aclFinalize reclaims abandoned executors ------------------------------ */

/* aclFinalize; returns what it logged (its log file's new text, malloc'd). */
static char *finalize_capturing_log(aclError *status) {
    const long before = mg_log_size();
    *status = aclFinalize();
    return mg_log_text_since(before);
}

/* As the docs' own example does when the workspace allocation fails: phase 1, then give up
   without phase 2. aclFinalize must reclaim them all and say so at warning level. */
MG_TEST(defect9_abandoned_executors_reclaimed_at_finalize) {
    runtime_up();
    int64_t dims[1] = {128};
    job j;
    MG_CHECK_EQ_INT(job_make(&j, 1, dims, NULL, 0), 0);
    enum { ABANDONED = 500 };
    static aclOpExecutor *left[ABANDONED];
    for (int i = 0; i < ABANDONED; i++) {
        uint64_t ws_size = 0;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(j.tg, j.ts, j.to, &ws_size, &left[i]), ACLNN_SUCCESS);
    }
    aclError status = -1;
    char *log = finalize_capturing_log(&status);
    MG_CHECK_EQ_INT(status, ACL_SUCCESS);
    MG_CHECK(log != NULL);
    if (log) {
        MG_CHECK_STR_CONTAINS(log, "[WARNING]");
        const char *line = strstr(log, "aclOpExecutor");
        MG_CHECK(line != NULL);
        /* "... reclaimed N aclOpExecutor handle(s)": N counts these 500 (and any other test's) */
        const char *number = line;
        while (number > log && number[-1] == ' ') number--;
        while (number > log && number[-1] >= '0' && number[-1] <= '9') number--;
        MG_CHECK(strtol(number, NULL, 10) >= 500);
        MG_CHECK_STR_CONTAINS(log, "reclaimed 3 aclTensor");
    }
    free(log);
    /* A new session: the old handles are stale, never run. */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    aclrtSetDevice(0);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, left[0], NULL), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(message(), "stale");
    MG_CHECK_EQ_INT(aclDestroyTensor(j.tg), ACLNN_ERR_PARAM_INVALID);
    (void)message();
}

/* ---- views (issue 25's mutation sample) ------------------------------------------------------ */

/* nnop.h: "Empty views never conflict", whatever their addresses: an empty view whose data
   pointer lies strictly inside another view's bytes conflicts with nothing (the sample's
   survivor `a->numel == 0 || b->numel == 0` -> `&&`: each operator here has equal shapes, so
   its calls never meet one empty and one not, and only the rule itself can be asked). */
MG_TEST(empty_view_conflicts_with_nothing) {
    runtime_up();
    float *block = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc((void **)&block, 8 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t four[1] = {4}, zero[1] = {0}, one[1] = {1};
    aclTensor *full = aclCreateTensor(four, 1, ACL_FLOAT, one, 0, ACL_FORMAT_ND, four, 1, block);
    aclTensor *empty = aclCreateTensor(zero, 1, ACL_FLOAT, one, 0, ACL_FORMAT_ND, zero, 1, block + 2);
    MG_CHECK(full != NULL && empty != NULL);
    nnop_view vf, ve;
    MG_CHECK_EQ_INT(nnop_view_from_tensor(full, "test", "full", &vf), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(nnop_view_from_tensor(empty, "test", "empty", &ve), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(nnop_views_conflict(&ve, block + 2, &vf, block), 0);
    MG_CHECK_EQ_INT(nnop_views_conflict(&vf, block, &ve, block + 2), 0);
    MG_CHECK_EQ_INT(nnop_views_conflict(&ve, block + 2, &ve, block + 2), 0);
    /* and the rule does answer: the full view against itself one element on, partially */
    MG_CHECK_EQ_INT(nnop_views_conflict(&vf, block, &vf, block + 1), 1);
    MG_CHECK_EQ_INT(aclDestroyTensor(full), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclDestroyTensor(empty), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(block), ACL_SUCCESS);
}

MG_TEST_MAIN()
