/*
 * op_host/op_api/aclnn_mish_backward_v2.c: L2, the public two-phase aclnnMishBackward.
 *
 * Phase 1 does all the thinking: the seed's checks (first failure wins), the empty-tensor
 * shortcut, and the plan: Contiguous for each input that cannot be read in place, the L0
 * kernel launch, ViewCopy when the output is not dense. Phase 2 runs the plan.
 */
#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_mish_backward.h"
#include "mgrt.h"
#include "mish_grad_v2.h"
#include "nnop.h"

static const char PHASE1[] = "aclnnMishBackwardGetWorkspaceSize";
static const char PHASE2[] = "aclnnMishBackward";

enum { GRAD_OUTPUT = 0, SELF = 1, INPUT_COUNT = 2 };
static const char *const tensor_names[] = {"gradOutput", "self", "gradInput"};

static const char *dtype_name(aclDataType dtype) {
    switch (dtype) {
    case ACL_FLOAT: return "FLOAT";
    case ACL_FLOAT16: return "FLOAT16";
    case ACL_BF16: return "BFLOAT16";
    case ACL_DOUBLE: return "DOUBLE";
    case ACL_INT8: return "INT8";
    case ACL_INT16: return "INT16";
    case ACL_INT32: return "INT32";
    case ACL_INT64: return "INT64";
    case ACL_UINT8: return "UINT8";
    case ACL_BOOL: return "BOOL";
    default: return "not a known aclDataType";
    }
}

static void format_shape(const nnop_view *view, char *text, size_t capacity) {
    size_t used = (size_t)snprintf(text, capacity, "[");
    for (int i = 0; i < view->rank && used < capacity; i++)
        used += (size_t)snprintf(text + used, capacity - used, i ? ",%lld" : "%lld", (long long)view->dims[i]);
    if (used < capacity) snprintf(text + used, capacity - used, "]");
}

static aclnnStatus check_dtypes(const aclTensor *const tensors[3]) {
    const mgrt_soc_profile *soc = mgrt_soc();
    for (int i = 0; i < 3; i++) {
        aclDataType dtype = tensors[i]->dtype;
        int allowed = dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || (dtype == ACL_BF16 && soc->supports_bf16);
        if (!allowed)
            return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s has dtype %s (value %d); supported: FLOAT, FLOAT16%s", PHASE1, tensor_names[i],
                                dtype_name(dtype), (int)dtype,
                                soc->supports_bf16 ? ", BFLOAT16" : " (BFLOAT16 needs an Ascend910B-class SoC or later)");
    }
    for (int i = 1; i < 3; i++)
        if (tensors[i]->dtype != tensors[0]->dtype)
            return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s has dtype %s but gradOutput has %s; the three dtypes must be equal (no "
                                "promotion)",
                                PHASE1, tensor_names[i], dtype_name(tensors[i]->dtype), dtype_name(tensors[0]->dtype));
    return ACLNN_SUCCESS;
}

static int same_shape(const nnop_view *a, const nnop_view *b) {
    if (a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

static int overlaps(const nnop_view *a, const void *a_data, const nnop_view *b, const void *b_data, int *identical) {
    uintptr_t a_lo, a_hi, b_lo, b_hi;
    nnop_view_byte_range(a, a_data, &a_lo, &a_hi);
    nnop_view_byte_range(b, b_data, &b_lo, &b_hi);
    *identical = a_lo == b_lo && a_hi == b_hi;
    return a_lo < b_hi && b_lo < a_hi;
}

/* The plan for validated, non-empty views. */
static aclnnStatus plan(aclOpExecutor *executor, const aclTensor *const tensors[3], const nnop_view views[3]) {
    const nnop_view *out_view = &views[2];
    int out_direct = out_view->contiguous;
    nnop_buffer dense[3];
    aclnnStatus status = ACLNN_SUCCESS;
    for (int i = 0; i < INPUT_COUNT && status == ACLNN_SUCCESS; i++) {
        int identical = 0;
        int clash = out_direct && overlaps(&views[i], tensors[i]->data, out_view, tensors[2]->data, &identical) &&
                    !identical;
        /* An input read in place must be dense, and must not be overwritten under the kernel
           by an output that overlaps it other than exactly (exact is in-place, which the
           kernel allows). */
        int direct = views[i].contiguous && !clash;
        nnop_executor_set_view(executor, NNOP_BUFFER_INPUT, (uint32_t)i, &views[i], direct);
        nnop_buffer source = {NNOP_BUFFER_INPUT, (uint32_t)i, 0};
        if (direct) {
            source.byte_offset = (uint64_t)(views[i].offset * views[i].elem_size);
            dense[i] = source;
        } else {
            dense[i] = nnop_executor_reserve_workspace(executor, (uint64_t)(views[i].numel * views[i].elem_size));
            status = nnop_add_contiguous(executor, &views[i], source, dense[i]);
        }
    }
    if (status != ACLNN_SUCCESS) return status;
    nnop_executor_set_view(executor, NNOP_BUFFER_OUTPUT, 0, out_view, out_direct);
    nnop_buffer destination = {NNOP_BUFFER_OUTPUT, 0, 0};
    if (out_direct) {
        destination.byte_offset = (uint64_t)(out_view->offset * out_view->elem_size);
        dense[2] = destination;
    } else {
        dense[2] = nnop_executor_reserve_workspace(executor, (uint64_t)(out_view->numel * out_view->elem_size));
    }
    status = l0op_MishGradV2(executor, dense[GRAD_OUTPUT], dense[SELF], dense[2], out_view->numel, out_view->dtype);
    if (status == ACLNN_SUCCESS && !out_direct) status = nnop_add_view_copy(executor, out_view, dense[2], destination);
    return status;
}

aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, aclTensor *gradInput,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
    if (workspaceSize == NULL || executor == NULL)
        return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", PHASE1,
                            workspaceSize == NULL ? "workspaceSize" : "executor");
    const aclTensor *const tensors[3] = {gradOutput, self, gradInput};
    for (int i = 0; i < 3; i++)
        if (tensors[i] == NULL)
            return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument %s.",
                                tensor_names[i]);
    /* The rest needs the runtime: the product profile, the live allocations. */
    if (!mgrt_initialized())
        return mgrt_fail_at(PHASE1, ACLNN_ERR_RUNTIME_ERROR, "%s: aclInit has not been called", PHASE1);
    const mgrt_soc_profile *soc = mgrt_soc();
    if (!soc->supports_mish_grad)
        return mgrt_fail_at(PHASE1, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                            "%s: MishGradV2 is not supported on %s (%s)", PHASE1, soc->soc_name, soc->product);
    aclnnStatus status = check_dtypes(tensors);
    if (status != ACLNN_SUCCESS) return status;
    nnop_view views[3];
    for (int i = 0; i < 3; i++) {
        status = nnop_view_from_tensor(tensors[i], PHASE1, tensor_names[i], &views[i]);
        if (status != ACLNN_SUCCESS) return status;
    }
    for (int i = 1; i < 3; i++) {
        if (!same_shape(&views[i], &views[0])) {
            char shape[160], reference[160];
            format_shape(&views[i], shape, sizeof shape);
            format_shape(&views[0], reference, sizeof reference);
            return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s has shape %s but gradOutput has %s; shapes must be equal (no broadcast)",
                                PHASE1, tensor_names[i], shape, reference);
        }
    }
    if (nnop_view_overlaps_itself(&views[2]))
        return mgrt_fail_at(PHASE1, ACLNN_ERR_PARAM_INVALID,
                            "%s: gradInput's strides map two elements to one memory location (or interleave "
                            "over more than 2^26 elements, too many to prove they do not)",
                            PHASE1);

    aclOpExecutor *planned = nnop_executor_create("MishGradV2", tensors, INPUT_COUNT, &gradInput, 1, tensor_names);
    if (planned == NULL) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    if (views[0].numel > 0) {
        status = plan(planned, tensors, views);
        if (status != ACLNN_SUCCESS) {
            nnop_executor_abandon(planned);
            return status;
        }
    }
    uint64_t workspace = nnop_executor_workspace_size(planned);
    if (mgrt_log_enabled(MGRT_LOG_INFO)) {
        char shape[160];
        format_shape(&views[0], shape, sizeof shape);
        mgrt_log(MGRT_LOG_INFO, "OP",
                 "%s: shape %s, dtype %s, workspace %llu bytes, contiguous gradOutput=%d self=%d gradInput=%d%s", PHASE1,
                 shape, dtype_name(views[0].dtype), (unsigned long long)workspace, views[0].contiguous,
                 views[1].contiguous, views[2].contiguous, views[0].numel == 0 ? " (empty: nothing to do)" : "");
    }
    *workspaceSize = workspace;
    *executor = planned;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnMishBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream) {
    return nnop_executor_launch(PHASE2, workspace, workspaceSize, executor, stream);
}
