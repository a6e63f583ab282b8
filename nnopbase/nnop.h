/*
 * nnopbase/nnop.h: what libnnopbase offers operators beyond the public aclnn API: the
 * tensor layout, descriptor validation, and the executor's plan of steps.
 *
 * Phase 1 of an operator builds an executor: it binds the operator's tensors to input and
 * output slots, reserves workspace regions, and appends steps (Contiguous, the kernel
 * launch, ViewCopy). Phase 2 resolves every buffer to an address and queues one task that
 * runs the steps in order on the stream. Not installed; not for applications.
 */
#ifndef NNOP_H_
#define NNOP_H_

#include <stdint.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NNOP_API __attribute__((visibility("default")))

/* Operators accept at most this rank (the seed's limit). */
#define NNOP_MAX_RANK 8

/* Handles. Every aclTensor * / aclOpExecutor * a program holds is a token of the shared
   handle registry (runtime/mgrt_handle.h), not an object address: never dereference one.
   Read tensors through the functions below (each resolves and pins the handle for the
   duration of the call), so a destroyed or foreign tensor gets a status and a message. */

/* 0 for a live tensor; 161001 "Expected a proper Tensor but got null for argument
   <name>." for NULL; 161002 naming `name` for a destroyed, reclaimed or foreign handle
   (nnop_tensor_snapshot_of answers the same for a handle it cannot read). */
NNOP_API aclnnStatus nnop_tensor_check(const aclTensor *t, const char *api, const char *name);

/* A tensor's view as a plan sees it, rank <= NNOP_MAX_RANK, after validation. */
typedef struct nnop_view {
    int rank;
    aclDataType dtype;
    int64_t elem_size;
    int64_t numel;                  /* product of dims */
    int64_t offset;                 /* elements from data */
    void *data;                     /* the tensor's storage start (aclGetRawTensorAddr) */
    int64_t dims[NNOP_MAX_RANK];
    int64_t strides[NNOP_MAX_RANK];
    int64_t min_elem, max_elem;     /* element range the view touches, relative to data */
    int64_t storage_elems;          /* product of storage dims */
    int contiguous;                 /* strides are row-major for dims (size-1 dims ignored) */
} nnop_view;

/* A tensor's descriptor copied at one instant (under the tensor's lock), so that every
   check and the plan of one call judge the same descriptor however another thread calls
   aclInitTensor meanwhile. The view's dims and strides are kept up to NNOP_MAX_RANK (a
   larger rank is refused by validation, which needs only the count); the storage dims,
   which may be up to 1024, are judged while the descriptor is held: their element count,
   or the first fault, in the order validation reports them. */
typedef struct nnop_tensor_snapshot {
    uint64_t rank;                  /* view dims (dims/strides hold the first NNOP_MAX_RANK) */
    uint64_t storage_rank;
    aclDataType dtype;
    aclFormat format;
    int64_t offset;
    void *data;
    int64_t dims[NNOP_MAX_RANK];
    int64_t strides[NNOP_MAX_RANK];
    int64_t storage_elems;          /* product of the storage dims (when storage_fault is 0) */
    int storage_fault;              /* 0; 1 storage dim storage_fault_dim is negative
                                       (storage_fault_value); 2 the product overflows int64 */
    uint64_t storage_fault_dim;
    int64_t storage_fault_value;
} nnop_tensor_snapshot;

/* Copies `t`'s descriptor into `snapshot`: 0, or 161001 for NULL / 161002 for a stale or
   foreign handle, with the message naming argument `name` of `api`. Phase 1 takes one per
   tensor and runs everything on it (CANN's checks look at dtype, rank and shape before the
   storage: read those from the snapshot, then nnop_view_from_snapshot). */
NNOP_API aclnnStatus nnop_tensor_snapshot_of(const aclTensor *t, const char *api, const char *name,
                                             nnop_tensor_snapshot *snapshot);


/* Validates `t` as argument `name` of `api` and fills `view`: rank <= NNOP_MAX_RANK, dims,
   strides and offset >= 0, no int64 overflow, the view inside its storage, the storage
   inside one live aclrtMalloc block, data non-NULL unless the view is empty. On failure
   returns ACLNN_ERR_PARAM_INVALID with a message naming `name` (also for a stale handle,
   and for data not aligned to the element size: issue 10's defect 7 is refused, never
   read misaligned). NULL `t` gives 161001. The dtype is not judged. */
NNOP_API aclnnStatus nnop_view_from_tensor(const aclTensor *t, const char *api, const char *name,
                                           nnop_view *view);
/* The same validation of a snapshot (nnop_view_from_tensor is a snapshot and this). */
NNOP_API aclnnStatus nnop_view_from_snapshot(const nnop_tensor_snapshot *snapshot, const char *api,
                                             const char *name, nnop_view *view);
/* The bytes [lo, hi) of memory that `view` over `data` can touch (hi == lo when empty). */
NNOP_API void nnop_view_byte_range(const nnop_view *view, const void *data, uintptr_t *lo,
                                   uintptr_t *hi);

/* THE overlap rule between two tensors, for phase 1's plan (op_host's elementwise layer)
   and phase 2's re-check of refreshed addresses (op_executor.c) alike: call this, never
   an own copy, so both phases judge the same way. 1 when `a` over
   `a_data` and `b` over `b_data` share memory but not exactly (the same bytes, element
   for element: dense views of one dtype with equal byte ranges), i.e. when a kernel
   writing one while reading the other could read an element it already overwrote.
   Exactly equal views (in-place) and disjoint ones give 0. Empty views never conflict. */
NNOP_API int nnop_views_conflict(const nnop_view *a, const void *a_data, const nnop_view *b,
                                 const void *b_data);

/* THE self-overlap rule for an output view, used by every operator's phase 1: 0 when no
   two elements of `view` share a memory location; 161002 naming argument `name` when two
   do (a zero stride on a dim > 1, strides that interleave and collide, or a view whose
   strides do not nest spanning more than 2^26 elements, too many to prove); 561000 with
   a message saying an internal allocation failed when the proof's memory cannot be had
   (issue 10's defect 5: never blamed on the caller). Size-1 dims' strides are ignored. */
NNOP_API aclnnStatus nnop_view_check_overlaps_itself(const nnop_view *view, const char *api, const char *name);
/* The same proof as a yes/no (1 also when its memory runs out). Prefer the check above. */
NNOP_API int nnop_view_overlaps_itself(const nnop_view *view);

/* ---- executors and their plans -------------------------------------------------------- */

typedef enum nnop_buffer_kind {
    NNOP_BUFFER_INPUT = 0,      /* data of input slot `index` */
    NNOP_BUFFER_OUTPUT = 1,     /* data of output slot `index` */
    NNOP_BUFFER_WORKSPACE = 2   /* the workspace, phase 2's pointer */
} nnop_buffer_kind;

/* A buffer named in a plan: base address of its kind, plus byte_offset. */
typedef struct nnop_buffer {
    nnop_buffer_kind kind;
    uint32_t index;
    uint64_t byte_offset;
} nnop_buffer;

/* A kernel launch step (opdev) names each GM argument: inputs, outputs and the workspace. */
#define NNOP_MAX_STEP_BUFFERS 8
#define NNOP_MAX_STEP_PARAMS 1024

/* A step runs with its own copy of its parameters and its buffers resolved to addresses.
   It returns 0 or a status (setting the message with mgrt_fail). */
typedef int32_t (*nnop_step_fn)(const void *params, void *const *buffers);

/* Creates an executor with `input_count` inputs and `output_count` outputs bound to those
   tensors; `names` holds the argument names, inputs first, for messages (static strings).
   NULL with the message set if memory runs out. */
NNOP_API aclOpExecutor *nnop_executor_create(const char *op_name, const aclTensor *const *inputs,
                                             uint32_t input_count, aclTensor *const *outputs,
                                             uint32_t output_count, const char *const *names);
/* opdev's executors start empty (CANN's CREATE_EXECUTOR comes before any tensor): binds
   `tensor` to the next input or output slot and returns its index, or -1 with the message
   set when the slots are full or the executor is not live. */
NNOP_API int nnop_executor_bind(aclOpExecutor *executor, nnop_buffer_kind kind, const aclTensor *tensor,
                                const char *name);
/* Hands the executor a caller's state, freed by `attachment_free` when the executor goes
   (destroyed, or released by its single-use phase 2); freed at once if it is not live. */
NNOP_API void nnop_executor_attach(aclOpExecutor *executor, void *attachment, void (*attachment_free)(void *));
NNOP_API void *nnop_executor_attachment(const aclOpExecutor *executor);
/* Records the validated view of a slot, and its data (view->data, the address phase 1
   validated) as the slot's address, so phase 2 can re-check an address set with
   aclSetInputTensorAddr / aclSetOutputTensorAddr. `direct`: the kernel reads or writes the
   slot in place (no dense copy in between), so phase 2 must refuse an address that makes a
   direct input overlap a direct output other than exactly (in-place). */
NNOP_API void nnop_executor_set_view(aclOpExecutor *executor, nnop_buffer_kind kind, uint32_t index,
                                     const nnop_view *view, int direct);
/* Reserves `bytes` of workspace (64-byte aligned) and returns the buffer naming it. */
NNOP_API nnop_buffer nnop_executor_reserve_workspace(aclOpExecutor *executor, uint64_t bytes);
/* Appends a step; `params` (params_size <= NNOP_MAX_STEP_PARAMS bytes) is copied.
   `elements`: how many elements the step touches, the measure of its cost that decides
   whether phase 2 hands the work to the stream's worker at once (see mgrt_stream_submit). */
NNOP_API aclnnStatus nnop_executor_add_step(aclOpExecutor *executor, const char *step_name,
                                            nnop_step_fn fn, const void *params,
                                            uint32_t params_size, const nnop_buffer *buffers,
                                            uint32_t buffer_count, uint64_t elements);
/* The workspace all reserved regions need together. */
NNOP_API uint64_t nnop_executor_workspace_size(const aclOpExecutor *executor);
/* Releases an executor that phase 1 could not finish. */
NNOP_API void nnop_executor_abandon(aclOpExecutor *executor);

/* Phase 2, shared by every operator: checks executor and workspace, re-validates tensor
   addresses against live allocations, and queues the plan on `stream`. A single-use
   executor is released here whether this succeeds or fails. */
NNOP_API aclnnStatus nnop_executor_launch(const char *api, void *workspace, uint64_t workspace_size,
                                          aclOpExecutor *executor, aclrtStream stream);

/* The values of an aclIntArray: *size set to its length, the first `capacity` copied; 0, or
   161001/161002 for a NULL or stale handle (message set). */
NNOP_API aclnnStatus nnop_int_array_values(const aclIntArray *array, int64_t *values, uint64_t capacity,
                                           uint64_t *size);

/* An aclScalar's dtype and value (its first `capacity` bytes): 0, or 161001/161002. */
NNOP_API aclnnStatus nnop_scalar_value(const aclScalar *scalar, aclDataType *dtype, void *value, size_t capacity);

/* ---- Contiguous and ViewCopy ----------------------------------------------------------- */

/* Appends a step that gathers `view` (of input slot `input_index`) into a dense buffer
   `dense`. */
NNOP_API aclnnStatus nnop_add_contiguous(aclOpExecutor *executor, const nnop_view *view,
                                         nnop_buffer source, nnop_buffer dense);
/* Appends a step that scatters dense buffer `dense` into `view` of output slot
   `output_index`, leaving the storage outside the view untouched. */
NNOP_API aclnnStatus nnop_add_view_copy(aclOpExecutor *executor, const nnop_view *view,
                                        nnop_buffer dense, nnop_buffer destination);

#ifdef __cplusplus
}
#endif

#endif /* NNOP_H_ */
