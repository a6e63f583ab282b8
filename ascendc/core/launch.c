/*
 * ascendc/core/launch.c: a launch runs block_dim blocks of one kernel instantiation on the
 * runtime's thread pool (each block on one pool thread at a time, as a vector core runs one
 * block), now (asc_twin_run_sync, ICPU_RUN_KF) or queued on a stream (asc_twin_launch). The
 * first rule a block breaks becomes the launch's error: ACL_ERROR_RT_AICORE_EXCEPTION, the
 * code CANN's runtime gives a kernel that faulted, with the twin's one-line report.
 *
 * Blocks are claimed in index order from the launch's own counter by as many pool threads as
 * there are (the pool itself may give only the caller). A kernel that never calls SyncAll
 * runs exactly so. SyncAll needs every participating block live at once: the first block
 * to arrive at a barrier while some participants are still unclaimed claims them itself and
 * starts a helper thread for each (joined at the end of the launch), so the barrier never
 * waits on a block that no thread will run. The barrier is abort-aware: a rule break in any
 * block, or a participant returning while others wait (or before they arrive), releases
 * every waiter and fails the launch with a report instead of hanging.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_lock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mgrt.h"
#include "twin_block.h"
#include "asc_twin/vec.h"
#include "vec_internal.h"

/* The most GM_ADDR parameters a kernel may take: far above any ops-nn kernel's. */
#define TWIN_MAX_ARGS 64
#define TWIN_MAX_BLOCKS 65535u

typedef struct twin_launch {
    const asc_twin_kernel *kernel;
    uint32_t block_dim;
    int nargs;
    uint8_t *args[TWIN_MAX_ARGS];
    uint8_t *tiling_copy;               /* owned: the tiling the kernel reads, in "GM" */
    size_t tiling_size;
    pthread_mutex_t error_lock;
    int32_t error;                      /* first report's code, 0 while none */
    char message[512];
    int strict;                         /* MISHGRAD_TWIN_STRICT=1 at launch: warnings are errors */
    const char *warned[32];             /* APIs already warned about in this launch */
    int warned_count;
    _Atomic uint32_t next_block;        /* the next unclaimed block index */
    /* SyncAll's barrier, under error_lock (a report wakes its waiters) */
    pthread_cond_t barrier_cv;
    uint32_t barrier_target;            /* participants of the barrier being filled (0: none yet) */
    uint32_t barrier_arrived;           /* blocks waiting at it */
    uint64_t barrier_generation;        /* barriers completed */
    int64_t first_finished;             /* lowest index of a block that returned, -1 while none */
    pthread_t *helpers;                 /* threads started for unclaimed participants */
    uint32_t helper_count;
} twin_launch;

typedef struct twin_block {
    twin_launch *launch;
    int64_t idx;
    int aborted;
    uint8_t *ub;                        /* this block's Unified Buffer */
    uint64_t ub_bytes;
    uint32_t *shadow;                   /* one bit per UB byte: 1 once written */
    int mask_counter;                   /* the vector mask (asc_twin/vec.h): counter mode, */
    uint64_t mask_hi, mask_lo;          /* and its lanes (normal) or count (counter, lo) */
    int atomic_op;                      /* SetAtomicAdd/Max/Min: asc_twin_atomic_op, NONE at start */
    asc_twin_dtype atomic_dtype;
    uint64_t syncs;                     /* SyncAll calls this block passed */
} twin_block;

static _Thread_local twin_block *current_block;

int64_t asc_twin_block_idx(void) { return current_block ? current_block->idx : 0; }
int64_t asc_twin_block_num(void) { return current_block ? (int64_t)current_block->launch->block_dim : 1; }
const char *asc_twin_kernel_name(void) { return current_block ? current_block->launch->kernel->name : ""; }
int asc_twin_block_aborted(void) { return current_block ? current_block->aborted : 0; }

static void report_v(const char *api, const char *fmt, va_list ap) {
    char text[384];
    vsnprintf(text, sizeof text, fmt, ap);
    twin_block *b = current_block;
    if (b == NULL) {
        /* a kernel function called outside a launch: nothing to fail but the log */
        mgrt_log(MGRT_LOG_ERROR, "ASCENDC", "%s: %s", api, text);
        return;
    }
    b->aborted = 1;
    twin_launch *l = b->launch;
    RT_LOCK(&l->error_lock);
    if (l->error == 0) {
        l->error = ACL_ERROR_RT_AICORE_EXCEPTION;
        snprintf(l->message, sizeof l->message, "%s block %lld: %s: %s", l->kernel->name,
                 (long long)b->idx, api, text);
        /* blocks waiting at SyncAll would wait for this one forever: release them */
        pthread_cond_broadcast(&l->barrier_cv);
    }
    RT_UNLOCK(&l->error_lock);
}

void asc_twin_report(const char *api, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_v(api, fmt, ap);
    va_end(ap);
}

int asc_twin_warn(const char *api, const char *fmt, ...) {
    twin_block *b = current_block;
    char text[384];
    va_list ap;
    va_start(ap, fmt);
    if (b != NULL && b->launch->strict) report_v(api, fmt, ap);
    else vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (b != NULL && b->launch->strict) return -1;
    int first = 1;
    if (b != NULL) {
        twin_launch *l = b->launch;
        RT_LOCK(&l->error_lock);
        for (int i = 0; i < l->warned_count && first; i++) first = strcmp(l->warned[i], api) != 0;
        if (first && l->warned_count < (int)(sizeof l->warned / sizeof l->warned[0])) l->warned[l->warned_count++] = api;
        RT_UNLOCK(&l->error_lock);
    }
    if (first)
        mgrt_log(MGRT_LOG_WARNING, "ASCENDC", "%s block %lld: %s: %s (MISHGRAD_TWIN_STRICT=1 makes this an error)",
                 asc_twin_kernel_name(), (long long)asc_twin_block_idx(), api, text);
    return 0;
}

int asc_twin_launch_extent(const void *p, uint8_t **base, uint64_t *bytes) {
    twin_block *b = current_block;
    if (b == NULL || b->launch->tiling_copy == NULL) return 0;
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)b->launch->tiling_copy;
    if (at < lo || at - lo >= b->launch->tiling_size) return 0;
    *base = b->launch->tiling_copy;
    *bytes = b->launch->tiling_size;
    return 1;
}

void asc_twin_set_mask_counter(int counter) {
    if (current_block) current_block->mask_counter = counter != 0;
}
void asc_twin_set_vector_mask(uint64_t hi, uint64_t lo) {
    if (current_block) current_block->mask_hi = hi, current_block->mask_lo = lo;
}
void asc_twin_reset_mask(void) { asc_twin_set_vector_mask(UINT64_MAX, UINT64_MAX); }
int asc_twin_mask_counter(void) { return current_block ? current_block->mask_counter : 0; }
void asc_twin_vector_mask(uint64_t *hi, uint64_t *lo) {
    *hi = current_block ? current_block->mask_hi : 0;
    *lo = current_block ? current_block->mask_lo : 0;
}

uint32_t *asc_twin_ub_shadow(void) { return current_block ? current_block->shadow : NULL; }
uint8_t *asc_twin_ub_base(void) { return current_block ? current_block->ub : NULL; }
uint64_t asc_twin_ub_bytes(void) { return current_block ? current_block->ub_bytes : 0; }

int64_t asc_twin_ub_init_buffer(uint64_t *pipe_used, uint64_t bytes) {
    uint64_t ub = asc_twin_ub_bytes();
    uint64_t aligned = bytes > UINT64_MAX - 31 ? UINT64_MAX : (bytes + 31) & ~(uint64_t)31;
    if (aligned > ub || *pipe_used > ub - aligned) {
        uint64_t total = aligned > UINT64_MAX - *pipe_used ? UINT64_MAX : *pipe_used + aligned;
        asc_twin_report("InitBuffer", "%llu bytes requested, UB holds %llu", (unsigned long long)total,
                        (unsigned long long)ub);
        return -1;
    }
    int64_t offset = (int64_t)*pipe_used;
    *pipe_used += aligned;
    return offset;
}

/* ---- atomic GM writes (SetAtomicAdd / Max / Min) ------------------------------------- */

void asc_twin_set_atomic(asc_twin_atomic_op op, asc_twin_dtype dtype) {
    twin_block *b = current_block;
    if (b == NULL || b->aborted) return;
    if ((int)op < 0 || op > ASC_TWIN_ATOMIC_MIN) {
        asc_twin_report("SetAtomic", "unknown atomic operation %d", (int)op);
        return;
    }
    /* the types the A2/A3 vector core's atomic writes take (set_atomic_s8/s16/s32/f16/bf16/f32) */
    if (op != ASC_TWIN_ATOMIC_NONE && dtype != ASC_TWIN_F32 && dtype != ASC_TWIN_F16 && dtype != ASC_TWIN_BF16 &&
        dtype != ASC_TWIN_I8 && dtype != ASC_TWIN_I16 && dtype != ASC_TWIN_I32) {
        asc_twin_report(twin_atomic_name(op), "type %s is not one of float, half, bfloat16_t, int8_t, int16_t, int32_t",
                        twin_dtype_name(dtype));
        return;
    }
    b->atomic_op = (int)op;
    b->atomic_dtype = dtype;
}

const char *twin_atomic_name(asc_twin_atomic_op op) {
    static const char *const names[] = {"SetAtomicNone", "SetAtomicAdd", "SetAtomicMax", "SetAtomicMin"};
    return (int)op >= 0 && op <= ASC_TWIN_ATOMIC_MIN ? names[op] : "SetAtomic";
}

asc_twin_atomic_op asc_twin_atomic(asc_twin_dtype *dtype) {
    twin_block *b = current_block;
    if (b == NULL) return ASC_TWIN_ATOMIC_NONE;
    *dtype = b->atomic_dtype;
    return (asc_twin_atomic_op)b->atomic_op;
}

/* ---- blocks, helpers and SyncAll -------------------------------------------------------- */

static void run_block(twin_launch *l, int64_t idx) {
    /* a block starts in normal mask mode with every lane on, no atomic mode */
    twin_block block = {l, idx, 0, NULL, mgrt_soc()->ub_bytes, NULL, 0, UINT64_MAX, UINT64_MAX,
                        ASC_TWIN_ATOMIC_NONE, ASC_TWIN_F32, 0};
    twin_block *outer = current_block;
    current_block = &block;
    /* zeroed so that a read before any write is at least defined; the rule that reports
       such reads keeps its own record of what was written */
    block.ub = mgrt_calloc(1, (size_t)block.ub_bytes);
    block.shadow = block.ub == NULL ? NULL : mgrt_calloc((size_t)(block.ub_bytes + 31) / 32 + 1, sizeof(uint32_t));
    if (block.shadow == NULL) asc_twin_report("launch", "no memory for a %llu-byte UB", (unsigned long long)block.ub_bytes);
    else l->kernel->entry(l->args);
    /* a participant leaving while others wait at a SyncAll it never reaches: on the device
       they would wait forever */
    RT_LOCK(&l->error_lock);
    if (l->first_finished < 0 || idx < l->first_finished) l->first_finished = idx;
    int strands = l->error == 0 && l->barrier_arrived > 0 && (uint64_t)idx < l->barrier_target;
    uint32_t waiting = l->barrier_arrived;
    uint64_t gen = l->barrier_generation;
    RT_UNLOCK(&l->error_lock);
    if (strands)
        asc_twin_report("SyncAll", "the block returned after %llu SyncAll calls while %u block(s) wait at SyncAll "
                        "number %llu (on the device they would wait forever)", (unsigned long long)block.syncs,
                        waiting, (unsigned long long)gen + 1);
    mgrt_free(block.shadow);
    mgrt_free(block.ub);
    current_block = outer;
}

/* Claims the next block index; -1 when all are claimed. */
static int64_t claim_block(twin_launch *l) {
    uint32_t idx = atomic_fetch_add_explicit(&l->next_block, 1, memory_order_relaxed);
    return idx < l->block_dim ? (int64_t)idx : -1;
}

static void run_claimed(twin_launch *l) {
    for (int64_t idx; (idx = claim_block(l)) >= 0;) run_block(l, idx);
}

/* A pool thread's share: blocks claimed one at a time until none is left. */
static void pool_worker(void *ctx, int64_t worker) {
    (void)worker;
    run_claimed(ctx);
}

typedef struct helper_start {
    twin_launch *l;
    int64_t idx;
} helper_start;

/* A helper thread: the block it was started for, then any still unclaimed. */
static void *helper_main(void *arg) {
    helper_start h = *(helper_start *)arg;
    mgrt_free(arg);
    run_block(h.l, h.idx);
    run_claimed(h.l);
    return NULL;
}

/* Under error_lock: starts a helper for every participant below `target` no thread has
   claimed yet (claimed here by compare-and-swap, so no index past `target` is taken from the
   pool's share). Returns 0, or -1 when a thread could not be started (its block is lost:
   the caller reports). */
static int start_helpers(twin_launch *l, uint32_t target) {
    uint32_t cur = atomic_load_explicit(&l->next_block, memory_order_relaxed);
    while (cur < target) {
        if (!atomic_compare_exchange_weak_explicit(&l->next_block, &cur, cur + 1, memory_order_relaxed,
                                                   memory_order_relaxed))
            continue;
        if (l->helpers == NULL) l->helpers = mgrt_calloc(l->block_dim, sizeof *l->helpers);
        helper_start *h = mgrt_malloc(sizeof *h);
        if (l->helpers == NULL || h == NULL) {
            mgrt_free(h);
            return -1;
        }
        *h = (helper_start){l, (int64_t)cur};
        if (pthread_create(&l->helpers[l->helper_count], NULL, helper_main, h) != 0) {
            mgrt_free(h);
            return -1;
        }
        l->helper_count++;
        cur = atomic_load_explicit(&l->next_block, memory_order_relaxed);
    }
    return 0;
}

void asc_twin_sync_all(const char *api, int64_t used_cores) {
    twin_block *b = current_block;
    if (b == NULL || b->aborted) return;
    twin_launch *l = b->launch;
    uint32_t target = used_cores > 0 ? (uint32_t)used_cores : l->block_dim;
    if (used_cores < 0 || used_cores > (int64_t)l->block_dim) {
        asc_twin_report(api, "usedCores %lld outside [0, blockDim %u]", (long long)used_cores, l->block_dim);
        return;
    }
    if ((uint64_t)b->idx >= target) {
        asc_twin_report(api, "block %lld is not one of the %u blocks this SyncAll synchronises", (long long)b->idx,
                        target);
        return;
    }
    /* SyncAll's constraint: every block must be resident on its own core, or the device hangs */
    if (l->block_dim > mgrt_soc()->aiv_core_num) {
        asc_twin_report(api, "blockDim %u exceeds the %u vector cores of %s: the blocks cannot all be resident "
                        "(the device would hang)", l->block_dim, mgrt_soc()->aiv_core_num, mgrt_soc()->soc_name);
        return;
    }
    if (target == 1) {
        b->syncs++;
        return;
    }
    char why[160] = "";
    RT_LOCK(&l->error_lock);
    if (l->error != 0) {
        /* the launch already failed: nothing may wait on it any more */
    } else if (l->barrier_arrived > 0 && l->barrier_target != target) {
        snprintf(why, sizeof why, "synchronises %u blocks while %u block(s) already wait at one of %u", target,
                 l->barrier_arrived, l->barrier_target);
    } else if (l->first_finished >= 0 && (uint64_t)l->first_finished < target) {
        snprintf(why, sizeof why, "block %lld already returned without reaching this SyncAll (the device would "
                 "wait forever)", (long long)l->first_finished);
    } else if (start_helpers(l, target) != 0) {
        snprintf(why, sizeof why, "no thread could be started for a block it waits on");
    } else {
        uint64_t gen = l->barrier_generation;
        l->barrier_target = target;
        if (++l->barrier_arrived == target) {
            l->barrier_arrived = 0;
            l->barrier_generation++;
            pthread_cond_broadcast(&l->barrier_cv);
        } else {
            while (l->barrier_generation == gen && l->error == 0) RT_WAIT(&l->barrier_cv, &l->error_lock);
        }
    }
    /* released by a failure rather than by the last arrival: this block stops too */
    int failed = l->error != 0;
    RT_UNLOCK(&l->error_lock);
    if (why[0] != '\0') asc_twin_report(api, "%s", why);
    else if (failed) b->aborted = 1;
    else b->syncs++;
}

static int32_t launch_run(void *task) {
    twin_launch *l = task;
    int64_t workers = (int64_t)mgrt_num_threads();
    mgrt_parallel_for(workers < (int64_t)l->block_dim ? workers : (int64_t)l->block_dim, pool_worker, l);
    /* a helper's block may start further helpers (a later SyncAll): the count is read under
       the lock each time; once every helper below it is joined no block runs, so it is final */
    for (uint32_t i = 0;; i++) {
        RT_LOCK(&l->error_lock);
        int more = i < l->helper_count;
        pthread_t t = more ? l->helpers[i] : (pthread_t){0};
        RT_UNLOCK(&l->error_lock);
        if (!more) break;
        pthread_join(t, NULL);
    }
    if (l->error != 0) return mgrt_fail(l->error, "%s", l->message);
    return 0;
}

static void launch_release(void *task) {
    twin_launch *l = task;
    pthread_cond_destroy(&l->barrier_cv);
    pthread_mutex_destroy(&l->error_lock);
    mgrt_free(l->helpers);
    mgrt_free(l->tiling_copy);
    mgrt_free(l);
}

/* Checks the arguments and builds the task; returns 0 or the error (message set). */
static int32_t launch_prepare(const char *api, const asc_twin_launch_args *a, twin_launch **out) {
    *out = NULL;
    if (a == NULL || a->kernel == NULL || a->kernel->entry == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: no kernel given", api);
    if (a->block_dim == 0 || a->block_dim > TWIN_MAX_BLOCKS)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: kernel %s: blockDim %u outside [1, %u]", api,
                            a->kernel->name, a->block_dim, TWIN_MAX_BLOCKS);
    if (a->nargs != a->kernel->nargs || a->nargs < 0 || a->nargs > TWIN_MAX_ARGS ||
        (a->nargs > 0 && a->gm_args == NULL))
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: kernel %s takes %d GM_ADDR arguments, %d given",
                            api, a->kernel->name, a->kernel->nargs, a->nargs);
    if (a->tiling_size > 0 && (a->tiling == NULL || a->nargs == 0))
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: kernel %s: tiling of %zu bytes without data or a "
                            "tiling argument", api, a->kernel->name, a->tiling_size);
    twin_launch *l = mgrt_calloc(1, sizeof *l);
    if (l == NULL) return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    l->kernel = a->kernel;
    l->block_dim = a->block_dim;
    l->nargs = a->nargs;
    if (a->nargs > 0) memcpy(l->args, a->gm_args, (size_t)a->nargs * sizeof l->args[0]);
    if (a->tiling_size > 0) {
        l->tiling_copy = mgrt_malloc(a->tiling_size);
        if (l->tiling_copy == NULL) {
            mgrt_free(l);
            return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
        }
        memcpy(l->tiling_copy, a->tiling, a->tiling_size);
        l->tiling_size = a->tiling_size;
        /* the tiling is the last GM_ADDR (CANN's kernel signature: ..., workspace, tiling) */
        l->args[a->nargs - 1] = l->tiling_copy;
    }
    rt_mutex_init_checked(&l->error_lock);
    pthread_cond_init(&l->barrier_cv, NULL);
    l->first_finished = -1;
    const char *strict = getenv("MISHGRAD_TWIN_STRICT");
    l->strict = strict != NULL && strcmp(strict, "1") == 0;
    *out = l;
    return 0;
}

int asc_twin_run_sync(const asc_twin_launch_args *a) {
    twin_launch *l;
    int32_t status = launch_prepare("asc_twin_run_sync", a, &l);
    if (status != 0) return status;
    status = launch_run(l);
    launch_release(l);
    return status;
}

int asc_twin_launch(void *stream, const asc_twin_launch_args *a) {
    twin_launch *l;
    int32_t status = launch_prepare("asc_twin_launch", a, &l);
    if (status != 0) return status;
    /* one block's work is unknown until it runs; the block count is the best cost measure
       the stream's wake-up rule can be given (a single block runs on the synchronizing thread) */
    /* mgrt_stream_submit_access, not mgrt_stream_submit: the latter is a test-only export */
    return mgrt_stream_submit_access("asc_twin_launch", (aclrtStream)stream, launch_run, launch_release, l,
                                     (uint64_t)l->block_dim << 20, NULL, 0);
}
