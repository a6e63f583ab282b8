/*
 * tests/reliability/rel_fixtures.h: objects the runtime and tensor-base tests build by hand
 * (test_refusals.c, test_edges_runtime.c, test_capacity_nnopbase.c, test_edges_nnopbase.c):
 * a runtime launch whose task only counts its runs, and a tensor-base view from dims and
 * strides alone.
 */
#ifndef REL_FIXTURES_H_
#define REL_FIXTURES_H_

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "mgrt.h"
#include "nnop.h"

/* ---- a launch whose task counts its runs ---- */

static atomic_int rel_launch_runs __attribute__((unused));
static inline void rel_launch_fill(void *task, void *ctx) { memcpy(task, &ctx, sizeof ctx); }
static inline int32_t rel_launch_run(void *task) {
    (void)task;
    atomic_fetch_add(&rel_launch_runs, 1);
    return 0;
}
static inline void rel_launch_release(void *task) { mgrt_free(task); } /* the task is the runtime's allocation */

/* A one-step launch of `api` / `op_name` over `tensors`, no workspace; the run count reset. */
static inline mgrt_launch rel_counting_launch(const char *api, const char *op_name, const mgrt_launch_tensor *tensors,
                                              size_t tensor_count, uint64_t work_elements) {
    mgrt_launch l;
    memset(&l, 0, sizeof l);
    l.api = api;
    l.op_name = op_name;
    l.tensors = tensors;
    l.tensor_count = tensor_count;
    l.task_bytes = sizeof(void *);
    l.fill = rel_launch_fill;
    l.steps = 1;
    l.run = rel_launch_run;
    l.release = rel_launch_release;
    l.work_elements = work_elements;
    atomic_store(&rel_launch_runs, 0);
    return l;
}

/* ---- a view by hand ---- */

/* A float32 view at element 0 with these dims and strides (>= 0), its storage exactly the
   elements it reaches; entries past the rank zero. */
static inline nnop_view rel_view_by_hand(int rank, const int64_t *dims, const int64_t *strides) {
    nnop_view v;
    memset(&v, 0, sizeof v);
    v.rank = rank;
    v.dtype = ACL_FLOAT;
    v.elem_size = 4;
    v.numel = 1;
    int64_t last = 0;
    for (int i = 0; i < rank; i++) {
        v.dims[i] = dims[i];
        v.strides[i] = strides[i];
        v.numel *= dims[i];
        last += (dims[i] - 1) * strides[i];
    }
    v.max_elem = last;
    v.storage_elems = last + 1;
    return v;
}

#endif /* REL_FIXTURES_H_ */
