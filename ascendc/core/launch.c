/*
 * ascendc/core/launch.c: a launch runs block_dim blocks of one kernel instantiation on the
 * runtime's thread pool (each block on one pool thread at a time, as a vector core runs one
 * block), now (asc_twin_run_sync, ICPU_RUN_KF) or queued on a stream (asc_twin_launch). The
 * first rule a block breaks becomes the launch's error: ACL_ERROR_RT_AICORE_EXCEPTION, the
 * code CANN's runtime gives a kernel that faulted, with the twin's one-line report.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/error_codes/rt_error_codes.h"
#include "mgrt.h"
#include "twin_block.h"
#include "asc_twin/vec.h"

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
    pthread_mutex_lock(&l->error_lock);
    if (l->error == 0) {
        l->error = ACL_ERROR_RT_AICORE_EXCEPTION;
        snprintf(l->message, sizeof l->message, "%s block %lld: %s: %s", l->kernel->name,
                 (long long)b->idx, api, text);
    }
    pthread_mutex_unlock(&l->error_lock);
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
        pthread_mutex_lock(&l->error_lock);
        for (int i = 0; i < l->warned_count && first; i++) first = strcmp(l->warned[i], api) != 0;
        if (first && l->warned_count < (int)(sizeof l->warned / sizeof l->warned[0])) l->warned[l->warned_count++] = api;
        pthread_mutex_unlock(&l->error_lock);
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

static void run_block(void *ctx, int64_t idx) {
    twin_launch *l = ctx;
    /* a block starts in normal mask mode with every lane on */
    twin_block block = {l, idx, 0, NULL, mgrt_soc()->ub_bytes, NULL, 0, UINT64_MAX, UINT64_MAX};
    twin_block *outer = current_block;
    current_block = &block;
    /* zeroed so that a read before any write is at least defined; the rule that reports
       such reads keeps its own record of what was written */
    block.ub = mgrt_calloc(1, (size_t)block.ub_bytes);
    block.shadow = block.ub == NULL ? NULL : mgrt_calloc((size_t)(block.ub_bytes + 31) / 32 + 1, sizeof(uint32_t));
    if (block.shadow == NULL) asc_twin_report("launch", "no memory for a %llu-byte UB", (unsigned long long)block.ub_bytes);
    else l->kernel->entry(l->args);
    mgrt_free(block.shadow);
    mgrt_free(block.ub);
    current_block = outer;
}

static int32_t launch_run(void *task) {
    twin_launch *l = task;
    mgrt_parallel_for((int64_t)l->block_dim, run_block, l);
    if (l->error != 0) return mgrt_fail(l->error, "%s", l->message);
    return 0;
}

static void launch_release(void *task) {
    twin_launch *l = task;
    pthread_mutex_destroy(&l->error_lock);
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
    pthread_mutex_init(&l->error_lock, NULL);
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
