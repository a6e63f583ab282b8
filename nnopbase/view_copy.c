/*
 * nnopbase/view_copy.c: Contiguous (gather a strided view into a dense buffer) and
 * ViewCopy (scatter a dense buffer into a strided view), the two steps that let an
 * operator's kernel see only dense memory.
 *
 * Phase 1 simplifies the view once: dims of size 1 go, and neighbours that are contiguous
 * together merge, so a transposed matrix is 2-D and a sliced one moves whole rows with
 * memcpy. Large copies are split over the thread pool by rows.
 */
#include <string.h>

#include "mgrt.h"
#include "nnop.h"

/* Below this many bytes a copy runs on one thread: waking others costs more. */
#define PARALLEL_COPY_BYTES (256 * 1024)

typedef struct copy_plan {
    int32_t rank;            /* >= 1 after simplification */
    int32_t elem_size;
    int64_t offset;          /* elements */
    int64_t numel;
    int64_t dims[NNOP_MAX_RANK];
    int64_t strides[NNOP_MAX_RANK];
} copy_plan;

static copy_plan simplify(const nnop_view *view) {
    copy_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.elem_size = (int32_t)view->elem_size;
    plan.offset = view->offset;
    plan.numel = view->numel;
    for (int i = 0; i < view->rank; i++) {
        if (view->dims[i] == 1) continue;
        int r = plan.rank;
        if (r > 0 && plan.strides[r - 1] == view->strides[i] * view->dims[i]) {
            plan.dims[r - 1] *= view->dims[i]; /* the outer dim steps exactly over this one */
            plan.strides[r - 1] = view->strides[i];
        } else {
            plan.dims[r] = view->dims[i];
            plan.strides[r] = view->strides[i];
            plan.rank++;
        }
    }
    if (plan.rank == 0) {
        plan.rank = 1;
        plan.dims[0] = 1;
        plan.strides[0] = 1;
    }
    return plan;
}

/* Moves rows [row_begin, row_end) of the view; a row is the innermost dim. */
static void copy_rows(const copy_plan *plan, unsigned char *strided, unsigned char *dense, int to_dense,
                      int64_t row_begin, int64_t row_end) {
    const int last = plan->rank - 1;
    const int64_t row_length = plan->dims[last];
    const int64_t inner_stride = plan->strides[last];
    const size_t es = (size_t)plan->elem_size;
    int64_t index[NNOP_MAX_RANK] = {0};
    /* Position of row_begin in the outer dims. */
    int64_t rest = row_begin, element = plan->offset;
    for (int d = last - 1; d >= 0; d--) {
        index[d] = rest % plan->dims[d];
        rest /= plan->dims[d];
        element += index[d] * plan->strides[d];
    }
    unsigned char *packed = dense + (size_t)(row_begin * row_length) * es;
    for (int64_t row = row_begin; row < row_end; row++) {
        unsigned char *scattered = strided + (size_t)element * es;
        if (inner_stride == 1) {
            if (to_dense)
                memcpy(packed, scattered, (size_t)row_length * es);
            else
                memcpy(scattered, packed, (size_t)row_length * es);
        } else {
            size_t step = (size_t)inner_stride * es;
            unsigned char *from = to_dense ? scattered : packed, *to = to_dense ? packed : scattered;
            size_t from_step = to_dense ? step : es, to_step = to_dense ? es : step;
            if (es == 4) {
                for (int64_t i = 0; i < row_length; i++, from += from_step, to += to_step) memcpy(to, from, 4);
            } else if (es == 2) {
                for (int64_t i = 0; i < row_length; i++, from += from_step, to += to_step) memcpy(to, from, 2);
            } else {
                for (int64_t i = 0; i < row_length; i++, from += from_step, to += to_step) memcpy(to, from, es);
            }
        }
        packed += (size_t)row_length * es;
        /* Next row: odometer over the outer dims. */
        for (int d = last - 1; d >= 0; d--) {
            element += plan->strides[d];
            if (++index[d] < plan->dims[d]) break;
            element -= index[d] * plan->strides[d];
            index[d] = 0;
        }
    }
}

typedef struct copy_job {
    const copy_plan *plan;
    unsigned char *strided, *dense;
    int to_dense;
    int64_t rows, rows_per_block;
} copy_job;

static void copy_block(void *ctx, int64_t block) {
    const copy_job *job = ctx;
    int64_t begin = block * job->rows_per_block;
    int64_t end = begin + job->rows_per_block < job->rows ? begin + job->rows_per_block : job->rows;
    copy_rows(job->plan, job->strided, job->dense, job->to_dense, begin, end);
}

static void run_copy(const copy_plan *plan, unsigned char *strided, unsigned char *dense, int to_dense) {
    int64_t rows = plan->numel / plan->dims[plan->rank - 1];
    int64_t bytes = plan->numel * plan->elem_size;
    int64_t blocks = 1;
    if (bytes >= PARALLEL_COPY_BYTES && rows > 1) {
        blocks = (int64_t)mgrt_num_threads() * 4;
        if (blocks > rows) blocks = rows;
    }
    copy_job job = {plan, strided, dense, to_dense, rows, (rows + blocks - 1) / blocks};
    blocks = (rows + job.rows_per_block - 1) / job.rows_per_block;
    mgrt_parallel_for(blocks, copy_block, &job);
}

/* A step's buffer count, from its array: a count written beside the array could disagree. */
#define BUFFER_COUNT(array) ((uint32_t)(sizeof(array) / sizeof((array)[0])))

/* buffers: [0] the strided tensor's storage, [1] the dense buffer. */
static int32_t contiguous_step(const void *params, void *const *buffers) {
    run_copy(params, buffers[0], buffers[1], 1);
    return 0;
}

/* buffers: [0] the dense buffer, [1] the strided tensor's storage. */
static int32_t view_copy_step(const void *params, void *const *buffers) {
    run_copy(params, buffers[1], buffers[0], 0);
    return 0;
}

aclnnStatus nnop_add_contiguous(aclOpExecutor *executor, const nnop_view *view, nnop_buffer source,
                                nnop_buffer dense) {
    copy_plan plan = simplify(view);
    nnop_buffer buffers[2] = {source, dense};
    return nnop_executor_add_step(executor, "Contiguous", contiguous_step, &plan, sizeof plan, buffers,
                                  BUFFER_COUNT(buffers), (uint64_t)plan.numel);
}

aclnnStatus nnop_add_view_copy(aclOpExecutor *executor, const nnop_view *view, nnop_buffer dense,
                               nnop_buffer destination) {
    copy_plan plan = simplify(view);
    nnop_buffer buffers[2] = {dense, destination};
    return nnop_executor_add_step(executor, "ViewCopy", view_copy_step, &plan, sizeof plan, buffers,
                                  BUFFER_COUNT(buffers), (uint64_t)plan.numel);
}
