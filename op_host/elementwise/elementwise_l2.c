/*
 * op_host/elementwise/elementwise_l2.c: the first phase every elementwise operator shares
 * (see elementwise.h): CANN's checks in CANN's order, then the aliasing-aware plan.
 */
#include <stdio.h>
#include <string.h>

#include "elementwise.h"

static void format_shape(const int64_t *dims, int rank, char *text, size_t capacity) {
    size_t used = (size_t)snprintf(text, capacity, "[");
    for (int i = 0; i < rank && used < capacity; i++)
        used += (size_t)snprintf(text + used, capacity - used, i ? ",%lld" : "%lld", (long long)dims[i]);
    if (used < capacity) snprintf(text + used, capacity - used, "]");
}

static void format_dtypes(const ew_dtype_list *list, char *text, size_t capacity) {
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < list->count && used < capacity; i++)
        used += (size_t)snprintf(text + used, capacity - used, i ? ", %s" : "%s", ew_dtype_name(list->dtypes[i]));
}

static int list_has(const ew_dtype_list *list, aclDataType dtype) {
    for (int i = 0; i < list->count; i++)
        if (list->dtypes[i] == dtype) return 1;
    return 0;
}

/* The first product (in the generation order) that takes `dtype`, for the hint of a
   refusal; NULL when none does. */
static const char *first_product_taking(const ew_operator *op, aclDataType dtype) {
    static const char *const names[MGRT_SOC_GENERATION_COUNT] = {
        [MGRT_SOC_CPU] = "the CPU profile",
        [MGRT_SOC_ASCEND910] = "an Ascend910-class SoC",
        [MGRT_SOC_ASCEND310P] = "an Ascend310P-class SoC",
        [MGRT_SOC_ASCEND310B] = "an Ascend310B-class SoC",
        [MGRT_SOC_ASCEND910B] = "an Ascend910B-class SoC or later",
        [MGRT_SOC_ASCEND910_93] = "an Ascend910_93-class SoC or later",
        [MGRT_SOC_ASCEND950] = "an Ascend950-class SoC",
    };
    for (int g = MGRT_SOC_ASCEND910; g < MGRT_SOC_GENERATION_COUNT; g++)
        if (list_has(&op->dtypes_by_product[g], dtype)) return names[g];
    return NULL;
}

/* Step 1 of CANN's order: the output pointers, then every tensor, first NULL named. */
static aclnnStatus check_pointers(const ew_operator *op, const char *api, const aclTensor *const *tensors,
                                  const uint64_t *workspace_size, aclOpExecutor *const *executor) {
    if (workspace_size == NULL || executor == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api,
                            workspace_size == NULL ? "workspaceSize" : "executor");
    for (int i = 0; i <= op->input_count; i++)
        if (tensors[i] == NULL)
            return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument %s.",
                                op->names[i]);
    return ACLNN_SUCCESS;
}

/* The operator's dtypes on this product; NULL when the product does not carry it. */
static const ew_dtype_list *product_dtypes(const ew_operator *op) {
    const mgrt_soc_profile *soc = mgrt_soc();
    if (soc->generation >= MGRT_SOC_GENERATION_COUNT) return NULL;
    const ew_dtype_list *list = &op->dtypes_by_product[soc->generation];
    return list->count > 0 ? list : NULL;
}

/* The list a product that does not carry the operator judges the arguments against, so
   that they are checked as on any other product before the kernel lookup fails (CANN's
   order: the parameter checks, then the kernel). CANN's operators pick their dtype list by
   chip generation with the pre-910B list as the default for every other chip (ops-nn's
   GetDtypeSupportListV2 and aclnn_mish_backward.cpp's switch), so a product without the
   operator is judged by the operator's Ascend910 list: BFLOAT16 there is a dtype error
   (161002), FLOAT a missing kernel (561003). An operator that has no Ascend910 list is
   judged by every dtype it takes anywhere. */
static void fallback_dtypes(const ew_operator *op, ew_dtype_list *list) {
    if (op->dtypes_by_product[MGRT_SOC_ASCEND910].count > 0) {
        *list = op->dtypes_by_product[MGRT_SOC_ASCEND910];
        return;
    }
    list->count = 0;
    for (int g = 0; g < MGRT_SOC_GENERATION_COUNT; g++)
        for (int i = 0; i < op->dtypes_by_product[g].count; i++) {
            aclDataType dtype = op->dtypes_by_product[g].dtypes[i];
            int seen = 0;
            for (int j = 0; j < list->count; j++) seen |= list->dtypes[j] == dtype;
            if (!seen && list->count < EW_MAX_DTYPES) list->dtypes[list->count++] = dtype;
        }
}

/* The dtype list, then equal dtypes. */
static aclnnStatus check_dtypes(const ew_operator *op, const char *api, const nnop_tensor_snapshot *tensors) {
    const mgrt_soc_profile *soc = mgrt_soc();
    ew_dtype_list fallback;
    const ew_dtype_list *allowed = product_dtypes(op);
    if (allowed == NULL) {
        fallback_dtypes(op, &fallback);
        allowed = &fallback;
    }
    const int count = op->input_count + 1;
    for (int i = 0; i < count; i++) {
        aclDataType dtype = tensors[i].dtype;
        if (list_has(allowed, dtype)) continue;
        char supported[160], hint[160] = "";
        format_dtypes(allowed, supported, sizeof supported);
        const char *elsewhere = first_product_taking(op, dtype);
        if (elsewhere != NULL)
            snprintf(hint, sizeof hint, " (%s needs %s; this is %s)", ew_dtype_name(dtype), elsewhere, soc->soc_name);
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s (value %d); supported: %s%s", api,
                            op->names[i], ew_dtype_name(dtype), (int)dtype, supported, hint);
    }
    aclDataType first = tensors[0].dtype;
    for (int i = 1; i < count; i++) {
        aclDataType dtype = tensors[i].dtype;
        if (dtype != first)
            return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s has dtype %s but %s has %s; the dtypes must be equal (no promotion)", api,
                                op->names[i], ew_dtype_name(dtype), op->names[0], ew_dtype_name(first));
    }
    return ACLNN_SUCCESS;
}

/* Rank <= 8 for every tensor, then equal shapes. */
static aclnnStatus check_shapes(const ew_operator *op, const char *api, const nnop_tensor_snapshot *tensors) {
    const int count = op->input_count + 1;
    const int64_t *dims[EW_MAX_TENSORS];
    int rank[EW_MAX_TENSORS];
    for (int i = 0; i < count; i++) {
        uint64_t r = tensors[i].rank;
        dims[i] = tensors[i].dims;
        if (r > NNOP_MAX_RANK)
            return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu dims; at most %d are supported", api,
                                op->names[i], (unsigned long long)r, NNOP_MAX_RANK);
        rank[i] = (int)r;
    }
    for (int i = 1; i < count; i++) {
        int same = rank[i] == rank[0];
        for (int d = 0; same && d < rank[0]; d++) same = dims[i][d] == dims[0][d];
        if (same) continue;
        char shape[160], reference[160];
        format_shape(dims[i], rank[i], shape, sizeof shape);
        format_shape(dims[0], rank[0], reference, sizeof reference);
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: %s has shape %s but %s has %s; shapes must be equal (no broadcast)", api,
                            op->names[i], shape, op->names[0], reference);
    }
    return ACLNN_SUCCESS;
}

static int same_view(const nnop_view *a, const nnop_view *b) {
    if (a->data != b->data || a->offset != b->offset || a->rank != b->rank || a->elem_size != b->elem_size)
        return 0;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d] || (a->dims[d] > 1 && a->strides[d] != b->strides[d])) return 0;
    return 1;
}

static nnop_buffer dense_workspace(aclOpExecutor *executor, const nnop_view *view) {
    return nnop_executor_reserve_workspace(executor, (uint64_t)(view->numel * view->elem_size));
}

/* The plan for validated, non-empty views: views[0..n) the inputs, views[n] the output. */
static aclnnStatus plan(const ew_operator *op, aclOpExecutor *executor, const nnop_view *views) {
    const int n = op->input_count;
    const nnop_view *out_view = &views[n];
    const int out_direct = out_view->contiguous;
    nnop_buffer dense[EW_MAX_INPUTS];
    int in_place_of = -1; /* an input whose view is exactly the output's (the in-place form) */
    aclnnStatus status = ACLNN_SUCCESS;
    for (int i = 0; i < n && status == ACLNN_SUCCESS; i++) {
        /* An input is read in place when it is dense and no output written under the kernel
           overlaps it other than exactly (exactly is in-place, which the kernels allow). */
        int direct = views[i].contiguous &&
                     !(out_direct && nnop_views_conflict(&views[i], views[i].data, out_view, out_view->data));
        nnop_executor_set_view(executor, NNOP_BUFFER_INPUT, (uint32_t)i, &views[i], direct);
        nnop_buffer source = {NNOP_BUFFER_INPUT, (uint32_t)i, 0};
        if (in_place_of < 0 && same_view(&views[i], out_view)) in_place_of = i;
        if (direct) {
            source.byte_offset = (uint64_t)(views[i].offset * views[i].elem_size);
            dense[i] = source;
        } else {
            dense[i] = dense_workspace(executor, &views[i]);
            status = nnop_add_contiguous(executor, &views[i], source, dense[i]);
        }
    }
    if (status != ACLNN_SUCCESS) return status;
    nnop_executor_set_view(executor, NNOP_BUFFER_OUTPUT, 0, out_view, out_direct);
    nnop_buffer destination = {NNOP_BUFFER_OUTPUT, 0, 0};
    nnop_buffer out_dense;
    if (out_direct) {
        destination.byte_offset = (uint64_t)(out_view->offset * out_view->elem_size);
        out_dense = destination;
    } else if (in_place_of >= 0) {
        /* In place on a strided tensor: the kernel runs in place on the gathered copy,
           which then goes back; one dense copy instead of two. */
        out_dense = dense[in_place_of];
    } else {
        out_dense = dense_workspace(executor, out_view);
    }
    status = op->l0(executor, dense, out_dense, out_view->numel, out_view->dtype);
    if (status == ACLNN_SUCCESS && !out_direct) status = nnop_add_view_copy(executor, out_view, out_dense, destination);
    return status;
}

/* 361001 for a call that aclFinalize overtook: it reclaims the tensors and the executor
   under construction and frees the blocks, so whatever failed next (a stale handle, a
   storage no longer live, a plan step on a reclaimed executor) is not the caller's
   argument nor an inner error, but CANN's "called after aclFinalize". */
static aclnnStatus finalized_during(const char *api) {
    return mgrt_fail_at(api, ACLNN_ERR_RUNTIME_ERROR,
                        "%s: aclInit has not been called (aclFinalize ran during this call)", api);
}

/* Phase 1 from the handle checks on, once the runtime was found initialized. */
static aclnnStatus plan_call(const ew_operator *op, const char *api, const aclTensor *const *inputs,
                             const aclTensor *const *tensors, aclTensor *out, uint64_t *workspace_size,
                             aclOpExecutor **executor) {
    const int n = op->input_count;
    aclnnStatus status = ACLNN_SUCCESS;
    /* One snapshot of each tensor (a tensor passed twice, in place, is read once), taken
       under its lock: every check below and the plan judge that descriptor, whatever
       aclInitTensor does on another thread meanwhile. Destroyed or foreign handles: 161002
       naming the argument (nnopbase's registry). */
    nnop_tensor_snapshot snapshots[EW_MAX_TENSORS];
    for (int i = 0; i <= n && status == ACLNN_SUCCESS; i++) {
        int seen = -1;
        for (int j = 0; j < i && seen < 0; j++)
            if (tensors[j] == tensors[i]) seen = j;
        if (seen >= 0)
            snapshots[i] = snapshots[seen];
        else
            status = nnop_tensor_snapshot_of(tensors[i], api, op->names[i], &snapshots[i]);
    }
    if (status != ACLNN_SUCCESS) return status;
    status = check_dtypes(op, api, snapshots);
    if (status == ACLNN_SUCCESS) status = check_shapes(op, api, snapshots);
    if (status != ACLNN_SUCCESS) return status;
    nnop_view views[EW_MAX_TENSORS];
    for (int i = 0; i <= n; i++) {
        status = nnop_view_from_snapshot(&snapshots[i], api, op->names[i], &views[i]);
        if (status != ACLNN_SUCCESS) return status;
    }
    /* 161002 for an output that overlaps itself; 561000 if the proof's memory fails. */
    status = nnop_view_check_overlaps_itself(&views[n], api, op->names[n]);
    if (status != ACLNN_SUCCESS) return status;
    /* Valid arguments; does this product carry the kernel at all? Asked only when there is
       work: CANN's L2 returns for an empty tensor (workspace 0) before any kernel is looked
       up, so an empty call succeeds even on a product without the operator. */
    if (views[n].numel > 0 && product_dtypes(op) == NULL) {
        const mgrt_soc_profile *soc = mgrt_soc();
        return mgrt_fail_at(api, ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "%s: %s is not supported on %s (%s)", api,
                            op->op_type, soc->soc_name, soc->product);
    }

    aclOpExecutor *planned = nnop_executor_create(op->op_type, inputs, (uint32_t)n, &out, 1, op->names);
    if (planned == NULL) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    if (views[n].numel > 0) {
        status = plan(op, planned, views);
        if (status != ACLNN_SUCCESS) {
            nnop_executor_abandon(planned);
            return status;
        }
    }
    uint64_t workspace = nnop_executor_workspace_size(planned);
    if (!mgrt_initialized()) { /* the executor went with aclFinalize: do not hand out its handle */
        nnop_executor_abandon(planned);
        return finalized_during(api);
    }
    if (mgrt_log_enabled(MGRT_LOG_INFO)) {
        char shape[160], dense[160];
        size_t used = 0;
        format_shape(views[0].dims, views[0].rank, shape, sizeof shape);
        for (int i = 0; i <= n && used < sizeof dense; i++)
            used += (size_t)snprintf(dense + used, sizeof dense - used, " %s=%d", op->names[i], views[i].contiguous);
        mgrt_log(MGRT_LOG_INFO, "OP", "%s: shape %s, dtype %s, workspace %llu bytes, contiguous%s%s", api, shape,
                 ew_dtype_name(views[0].dtype), (unsigned long long)workspace, dense,
                 views[n].numel == 0 ? " (empty: nothing to do)" : "");
    }
    *workspace_size = workspace;
    *executor = planned;
    return ACLNN_SUCCESS;
}

aclnnStatus ew_get_workspace_size(const ew_operator *op, const char *api, const aclTensor *const *inputs,
                                  aclTensor *out, uint64_t *workspace_size, aclOpExecutor **executor) {
    const int n = op->input_count;
    const aclTensor *tensors[EW_MAX_TENSORS];
    for (int i = 0; i < n; i++) tensors[i] = inputs[i];
    tensors[n] = out;
    aclnnStatus status = check_pointers(op, api, tensors, workspace_size, executor);
    if (status != ACLNN_SUCCESS) return status;
    /* The rest needs the runtime: the product profile, the live allocations. */
    if (!mgrt_initialized()) return mgrt_fail_at(api, ACLNN_ERR_RUNTIME_ERROR, "%s: aclInit has not been called", api);
    status = plan_call(op, api, inputs, tensors, out, workspace_size, executor);
    if (status != ACLNN_SUCCESS && status != ACLNN_ERR_RUNTIME_ERROR && !mgrt_initialized())
        return finalized_during(api);
    return status;
}

aclnnStatus ew_launch(const char *api, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                      aclrtStream stream) {
    aclnnStatus status = nnop_executor_launch(api, workspace, workspace_size, executor, stream);
    /* As in phase 1: a launch aclFinalize overtook (its executor reclaimed, its blocks
       freed) is a call after aclFinalize. */
    if (status != ACLNN_SUCCESS && status != ACLNN_ERR_RUNTIME_ERROR && !mgrt_initialized())
        return finalized_during(api);
    return status;
}
