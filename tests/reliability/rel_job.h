/*
 * tests/reliability/rel_job.h: one aclnnMishBackward call with its own tensors, made up at
 * random (dtype, rank, dims, contiguous / transposed / strided-with-gaps views), checked
 * against mish_ref.h through the views, with every byte outside the output view compared
 * to a snapshot taken when the job was made.
 *
 * Functions return counts or statuses instead of asserting, so worker threads can use them
 * (mg_test.h is single-threaded); the test's main thread checks the totals.
 */
#ifndef REL_JOB_H_
#define REL_JOB_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mish_ref.h"

#define REL_MAX_RANK 4

enum { REL_GRAD_OUTPUT = 0, REL_SELF = 1, REL_GRAD_INPUT = 2 };

/* View layouts a job can give each tensor. */
enum { REL_CONTIGUOUS = 0, REL_TRANSPOSED = 1, REL_GAPS = 2, REL_LAYOUTS = 3 };

typedef struct rel_tensor {
    int layout;
    int64_t strides[REL_MAX_RANK];
    int64_t offset;
    int64_t storage;   /* elements */
    size_t bytes;
    unsigned char *data;   /* aclrtMalloc */
    unsigned char *snapshot;
    aclTensor *tensor;
} rel_tensor;

typedef struct rel_job {
    aclDataType dtype;
    size_t es;
    int rank;
    int64_t dims[REL_MAX_RANK];
    int64_t numel;
    rel_tensor t[3];
    aclOpExecutor *executor;
    uint64_t workspace_size;
    void *workspace;
} rel_job;

/* Row-major (or column-major) strides, times `scale`. */
static inline void rel_strides(const rel_job *job, int layout, int64_t *strides) {
    int64_t running = 1;
    if (layout == REL_TRANSPOSED) {
        for (int d = 0; d < job->rank; d++) {
            strides[d] = running;
            running *= job->dims[d];
        }
        return;
    }
    int64_t scale = layout == REL_GAPS ? 2 : 1;
    for (int d = job->rank; d-- > 0;) {
        strides[d] = running * scale;
        running *= job->dims[d];
    }
}

/* Element offsets of the view, in index order (row-major over the view's index). */
static inline void rel_element_offsets(const rel_job *job, const rel_tensor *t, int64_t *out) {
    int64_t idx[REL_MAX_RANK] = {0};
    for (int64_t n = 0; n < job->numel; n++) {
        int64_t e = t->offset;
        for (int d = 0; d < job->rank; d++) e += idx[d] * t->strides[d];
        out[n] = e;
        for (int d = job->rank; d-- > 0;) {
            if (++idx[d] < job->dims[d]) break;
            idx[d] = 0;
        }
    }
}

/* Makes the tensors (data from aclrtMalloc) of a random job with about `max_numel`
   elements at most; `layout` < 0 picks one per tensor at random. Returns 0 or the status
   of the first call that failed. */
static inline int rel_job_make(rel_job *job, mg_rng *rng, aclDataType dtype, int layout, int64_t max_numel) {
    memset(job, 0, sizeof *job);
    job->dtype = dtype;
    job->es = dtype == ACL_FLOAT ? 4 : 2;
    job->rank = (int)mish_ref_below(rng, REL_MAX_RANK + 1);
    job->numel = 1;
    for (int d = 0; d < job->rank; d++) {
        int64_t room = max_numel / job->numel;
        int64_t limit = room < 1 ? 1 : room;
        if (d < job->rank - 1 && limit > 24) limit = 24;
        job->dims[d] = 1 + mish_ref_below(rng, limit);
        job->numel *= job->dims[d];
    }
    for (int i = 0; i < 3; i++) {
        rel_tensor *t = &job->t[i];
        t->layout = layout >= 0 ? layout : (int)mish_ref_below(rng, REL_LAYOUTS);
        rel_strides(job, t->layout, t->strides);
        t->offset = t->layout == REL_CONTIGUOUS ? 0 : mish_ref_below(rng, 5);
        int64_t max_elem = t->offset;
        for (int d = 0; d < job->rank; d++) max_elem += (job->dims[d] - 1) * t->strides[d];
        t->storage = max_elem + 1 + mish_ref_below(rng, 3);
        t->bytes = (size_t)t->storage * job->es;
        void *p = NULL;
        int status = aclrtMalloc(&p, t->bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        if (status != ACL_SUCCESS) return status;
        t->data = p;
        /* inputs: valid values everywhere; output storage: arbitrary bytes (sentinels) */
        for (int64_t e = 0; e < t->storage; e++) {
            if (i == REL_GRAD_INPUT) {
                for (size_t b = 0; b < job->es; b++) t->data[e * (int64_t)job->es + (int64_t)b] = (unsigned char)mg_rng_next(rng);
            } else {
                double v = i == REL_SELF ? mish_ref_random_x(rng, dtype, 1) : mish_ref_random_g(rng, 1);
                mish_ref_store(dtype, t->data, e, v);
            }
        }
        t->snapshot = malloc(t->bytes);
        memcpy(t->snapshot, t->data, t->bytes);
        t->tensor = aclCreateTensor(job->dims, (uint64_t)job->rank, dtype, t->strides, t->offset, ACL_FORMAT_ND,
                                    &t->storage, 1, t->data);
        if (t->tensor == NULL) return ACLNN_ERR_INNER_NULLPTR;
    }
    return 0;
}

/* Phase 1 and the workspace. */
static inline int rel_job_prepare(rel_job *job) {
    int status = aclnnMishBackwardGetWorkspaceSize(job->t[0].tensor, job->t[1].tensor, job->t[2].tensor,
                                                   &job->workspace_size, &job->executor);
    if (status != ACLNN_SUCCESS) return status;
    if (job->workspace_size > 0) {
        status = aclrtMalloc(&job->workspace, (size_t)job->workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (status != ACL_SUCCESS) return status;
    }
    return 0;
}

static inline int rel_job_launch(rel_job *job, aclrtStream stream) {
    return aclnnMishBackward(job->workspace, job->workspace_size, job->executor, stream);
}

/* Wrong values or changed bytes after the job ran (0: all right). Prints the first few. */
static inline long rel_job_check(const rel_job *job, const char *what) {
    long bad = 0;
    const rel_tensor *g = &job->t[0], *x = &job->t[1], *o = &job->t[2];
    int64_t n = job->numel;
    int64_t *go = malloc(sizeof(int64_t) * (size_t)n), *xo = malloc(sizeof(int64_t) * (size_t)n),
            *oo = malloc(sizeof(int64_t) * (size_t)n);
    unsigned char *written = calloc(o->bytes, 1);
    rel_element_offsets(job, g, go);
    rel_element_offsets(job, x, xo);
    rel_element_offsets(job, o, oo);
    for (int64_t k = 0; k < n; k++) {
        double gv = mish_ref_load(job->dtype, g->snapshot, go[k]);
        double xv = mish_ref_load(job->dtype, x->snapshot, xo[k]);
        double got = mish_ref_load(job->dtype, o->data, oo[k]);
        memset(written + oo[k] * (int64_t)job->es, 1, job->es);
        if (!mish_ref_close(job->dtype, got, gv, xv)) {
            if (bad++ < 3)
                fprintf(stderr, "  %s: element %lld of %lld (dtype %d): got %.9g for g=%.9g x=%.9g, want %.9g\n",
                        what, (long long)k, (long long)n, (int)job->dtype, got, gv, xv, mish_ref_grad(gv, xv, NULL));
        }
    }
    for (size_t b = 0; b < o->bytes; b++) {
        if (!written[b] && o->data[b] != o->snapshot[b]) {
            if (bad++ < 3) fprintf(stderr, "  %s: output byte %zu outside the view changed\n", what, b);
        }
    }
    for (int i = 0; i < 2; i++) {
        if (memcmp(job->t[i].data, job->t[i].snapshot, job->t[i].bytes) != 0) {
            if (bad++ < 3) fprintf(stderr, "  %s: input %d changed\n", what, i);
        }
    }
    free(go);
    free(xo);
    free(oo);
    free(written);
    return bad;
}

/* 1 when no byte of the three tensors changed since the job was made. */
static inline int rel_job_untouched(const rel_job *job) {
    for (int i = 0; i < 3; i++)
        if (job->t[i].snapshot && memcmp(job->t[i].data, job->t[i].snapshot, job->t[i].bytes) != 0) return 0;
    return 1;
}

/* Frees what the job holds; `free_memory` 0 leaves the aclrtMalloc blocks (aclFinalize
   took them). */
static inline void rel_job_release(rel_job *job, int free_memory) {
    for (int i = 0; i < 3; i++) {
        rel_tensor *t = &job->t[i];
        if (t->tensor) aclDestroyTensor(t->tensor);
        if (t->data && free_memory) aclrtFree(t->data);
        free(t->snapshot);
        t->tensor = NULL;
        t->data = NULL;
        t->snapshot = NULL;
    }
    if (job->workspace && free_memory) aclrtFree(job->workspace);
    job->workspace = NULL;
}

static inline aclDataType rel_random_dtype(mg_rng *rng) {
    static const aclDataType dtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    return dtypes[mish_ref_below(rng, 3)];
}

/* aclInit (a repeat is fine) and device 0, quiet logs unless the caller set a level. */
static inline int rel_runtime_up(void) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);
    int status = aclInit(NULL);
    if (status != ACL_SUCCESS && status != ACL_ERROR_REPEAT_INITIALIZE) return status;
    return aclrtSetDevice(0);
}

#endif /* REL_JOB_H_ */
