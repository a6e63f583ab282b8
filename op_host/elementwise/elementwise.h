/*
 * op_host/elementwise/elementwise.h: what every elementwise operator shares.
 *
 * An elementwise operator (out[i] = f(in0[i], ...), every tensor of one dtype and one shape)
 * declares itself once, in an ew_operator (argument names, dtypes per product, L0 launch),
 * and the layer does the rest: phase 1 (ew_get_workspace_size: CANN's checks in CANN's
 * order, the empty-tensor shortcut, the aliasing-aware plan), L0 (ew_add_kernel: the tiling
 * and the kernel step on the thread pool) and phase 2 (ew_launch, nnopbase's executor).
 * Invariant: nothing here knows which function an operator computes, and L0 (_l0.c) never
 * calls L2 (_l2.c) (tools/check_layers.py). The checks, the plan and an operator's own part:
 * docs/adding_an_operator.md.
 */
#ifndef OP_HOST_ELEMENTWISE_H_
#define OP_HOST_ELEMENTWISE_H_

#include <stddef.h>
#include <stdint.h>

#include "mgrt.h"
#include "nnop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inputs an elementwise operator may take. */
#define EW_MAX_INPUTS 3
/* The inputs and the output: the length of every per-tensor array, written once so that no
   array can be a different size from the others. */
#define EW_MAX_TENSORS (EW_MAX_INPUTS + 1)
/* dtypes one product may list. */
#define EW_MAX_DTYPES 8

/* ---- the operator's declaration ------------------------------------------------------- */

/* The dtypes an operator takes on one product; count 0: the operator does not run there
   (phase 1 judges the arguments against the operator's Ascend910 list, as CANN's default
   list for chips before the 910B, or against every product's dtypes when it has none, then
   returns 561003 naming the product). */
typedef struct ew_dtype_list {
    int count;
    aclDataType dtypes[EW_MAX_DTYPES];
} ew_dtype_list;

/* The lists most operators' tables are made of. */
#define EW_FLOAT_FLOAT16 {2, {ACL_FLOAT, ACL_FLOAT16}}
#define EW_FLOAT_FLOAT16_BF16 {3, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}}
#define EW_NOT_CARRIED {0, {0}}

/* An operator's tile functions: n dense elements, `out` may be exactly one of the inputs
   (in place), no other overlap. One of the two by the operator's input count. */
typedef void (*ew_unary_fn)(const void *x, void *out, size_t n);
typedef void (*ew_binary_fn)(const void *a, const void *b, void *out, size_t n);
typedef void (*ew_ternary_fn)(const void *a, const void *b, const void *c, void *out, size_t n);
typedef union ew_tile_fn {
    ew_unary_fn unary;
    ew_binary_fn binary;
    ew_ternary_fn ternary;
} ew_tile_fn;

/* The L0 launch: adds the kernel over `numel` dense elements of `dtype` (one of the
   operator's dtypes) reading `inputs` and writing `out` (which may be exactly an input). */
typedef aclnnStatus (*ew_l0_fn)(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out,
                                int64_t numel, aclDataType dtype);

typedef struct ew_operator {
    const char *op_type;          /* the L0 operator, "MishGradV2": executor and log name */
    int input_count;              /* 1..EW_MAX_INPUTS */
    /* Argument names, the inputs in the order the L2 entry takes them, then the output.
       Checks name the first tensor at fault in this order; dtypes and shapes are compared
       with the first input's. */
    const char *const *names;
    /* Indexed by mgrt_soc_generation; a product missing from the table runs nothing. */
    const ew_dtype_list *dtypes_by_product;
    ew_l0_fn l0;
} ew_operator;

/* ---- phase 1 and phase 2 ------------------------------------------------------------ */

/* The whole first phase for `op` called as `api` with `inputs` (op->input_count of them,
   in the order of op->names) and `out` (which may be the same tensor as an input: the
   in-place form). */
aclnnStatus ew_get_workspace_size(const ew_operator *op, const char *api, const aclTensor *const *inputs,
                                  aclTensor *out, uint64_t *workspace_size, aclOpExecutor **executor);

/* The second phase (nnopbase's executor run), as `api`. */
aclnnStatus ew_launch(const char *api, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                      aclrtStream stream);

/* ---- L0: tiling and the kernel step --------------------------------------------------- */

/* How an element range is split, like CANN's host tiling for an AI core: blocks (one unit of
   parallel work, aligned to 512 bytes so no two threads share a cache line) spread over
   `threads` threads of the pool, each block walked in tiles (one kernel call each). Small
   ranges get one block on one thread: they run on the calling thread, no wake-up. */
typedef struct ew_tiling {
    int64_t total_elems;
    int64_t block_elems;   /* elements per block (the last may have fewer) */
    int64_t block_count;
    int64_t tile_elems;    /* elements per kernel call inside a block */
    int32_t threads;       /* threads the blocks run on, the caller included */
    int32_t elem_size;
    int32_t stream_out;    /* 1: write the output with streaming stores (too large to cache) */
} ew_tiling;

/* Fills `tiling` for `total_elems` elements of `elem_size` bytes with at most `threads`
   threads. ACLNN_SUCCESS, or ACLNN_ERR_INNER_TILING_ERROR with the message set. */
aclnnStatus ew_tile(int64_t total_elems, int64_t elem_size, int32_t threads, ew_tiling *tiling);

/* The kernels an L0 launch chose for one dtype: `cached` for outputs that stay in cache,
   `streaming` (the same results, written with non-temporal stores) for those that do not;
   `isa` names the instruction set, for the log. */
typedef struct ew_kernel {
    ew_tile_fn cached;
    ew_tile_fn streaming;
    const char *isa;
} ew_kernel;

/* Tiles `numel` elements of `dtype` over the pool and appends the step named `op_type`
   that runs `kernel` over them: out = f(inputs) (`input_count` inputs, all dense). */
aclnnStatus ew_add_kernel(aclOpExecutor *executor, const char *op_type, const ew_kernel *kernel, int input_count,
                          const nnop_buffer *inputs, nnop_buffer out, int64_t numel, aclDataType dtype);

/* ---- shared helpers ------------------------------------------------------------------- */

/* CANN's name of a dtype ("FLOAT", "BFLOAT16", ...). */
const char *ew_dtype_name(aclDataType dtype);

#ifdef __cplusplus
}
#endif

#endif /* OP_HOST_ELEMENTWISE_H_ */
