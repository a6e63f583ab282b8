/*
 * nnopbase/acl_tensor.c: aclTensor, its getters, and the validation every operator runs
 * on a descriptor before it trusts it.
 */
#include <stdlib.h>
#include <string.h>

#include "mgrt.h"
#include "nnop.h"

/* aclCreateTensor stores any rank up to this (operators refuse above NNOP_MAX_RANK with a
   status, which needs the tensor to exist); past it the descriptor is nonsense. */
#define MAX_STORED_RANK 1024

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    if ((viewDims == NULL && viewDimsNum > 0) || (storageDims == NULL && storageDimsNum > 0)) {
        mgrt_fail_at("aclCreateTensor", ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: %s is NULL but %s is %llu",
                     viewDims == NULL && viewDimsNum > 0 ? "viewDims" : "storageDims",
                     viewDims == NULL && viewDimsNum > 0 ? "viewDimsNum" : "storageDimsNum",
                     (unsigned long long)(viewDims == NULL && viewDimsNum > 0 ? viewDimsNum : storageDimsNum));
        return NULL;
    }
    if (viewDimsNum > MAX_STORED_RANK || storageDimsNum > MAX_STORED_RANK) {
        mgrt_fail_at("aclCreateTensor", ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: %llu dims is beyond any tensor",
                     (unsigned long long)(viewDimsNum > storageDimsNum ? viewDimsNum : storageDimsNum));
        return NULL;
    }
    size_t arrays = (size_t)(2 * viewDimsNum + storageDimsNum) * sizeof(int64_t);
    aclTensor *t = mgrt_malloc(sizeof *t + arrays);
    if (t == NULL) {
        mgrt_fail_at("aclCreateTensor", ACLNN_ERR_INNER, "aclCreateTensor: out of memory");
        return NULL;
    }
    t->rank = viewDimsNum;
    t->storage_rank = storageDimsNum;
    t->dtype = dataType;
    t->format = format;
    t->offset = offset;
    t->data = tensorData;
    t->view_dims = (int64_t *)(t + 1);
    t->strides = t->view_dims + viewDimsNum;
    t->storage_dims = t->strides + viewDimsNum;
    if (viewDimsNum > 0) memcpy(t->view_dims, viewDims, viewDimsNum * sizeof(int64_t));
    if (storageDimsNum > 0) memcpy(t->storage_dims, storageDims, storageDimsNum * sizeof(int64_t));
    if (stride != NULL) {
        if (viewDimsNum > 0) memcpy(t->strides, stride, viewDimsNum * sizeof(int64_t));
    } else {
        /* Row-major strides; unsigned so that absurd dims wrap instead of overflowing, and
           validation later rejects the result. */
        uint64_t step = 1;
        for (uint64_t i = viewDimsNum; i-- > 0;) {
            t->strides[i] = (int64_t)step;
            step *= (uint64_t)viewDims[i];
        }
    }
    return t;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    mgrt_free((void *)tensor);
    return ACLNN_SUCCESS;
}

static aclnnStatus copy_array(const char *api, const aclTensor *tensor, const int64_t *values, uint64_t count,
                              int64_t **out, uint64_t *out_count, const char *out_name) {
    if (tensor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: tensor is NULL", api);
    if (out == NULL || out_count == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, out == NULL ? out_name : "count");
    int64_t *copy = malloc(count ? count * sizeof(int64_t) : sizeof(int64_t));
    if (copy == NULL) return mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory", api);
    if (count > 0) memcpy(copy, values, count * sizeof(int64_t));
    *out = copy;
    *out_count = count;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    return copy_array("aclGetViewShape", tensor, tensor ? tensor->view_dims : NULL, tensor ? tensor->rank : 0,
                      viewDims, viewDimsNum, "viewDims");
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    return copy_array("aclGetViewStrides", tensor, tensor ? tensor->strides : NULL, tensor ? tensor->rank : 0,
                      stridesValue, stridesNum, "stridesValue");
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    return copy_array("aclGetStorageShape", tensor, tensor ? tensor->storage_dims : NULL,
                      tensor ? tensor->storage_rank : 0, storageDims, storageDimsNum, "storageDims");
}

#define DEFINE_SCALAR_GETTER(function, type, argument, field)                                           \
    aclnnStatus function(const aclTensor *tensor, type *argument) {                                     \
        if (tensor == NULL) return mgrt_fail_at(#function, ACLNN_ERR_PARAM_NULLPTR, #function ": tensor is NULL"); \
        if (argument == NULL)                                                                           \
            return mgrt_fail_at(#function, ACLNN_ERR_PARAM_NULLPTR, #function ": " #argument " is NULL"); \
        *argument = tensor->field;                                                                      \
        return ACLNN_SUCCESS;                                                                           \
    }

DEFINE_SCALAR_GETTER(aclGetViewOffset, int64_t, offset, offset)
DEFINE_SCALAR_GETTER(aclGetFormat, aclFormat, format, format)
DEFINE_SCALAR_GETTER(aclGetDataType, aclDataType, dataType, dtype)
DEFINE_SCALAR_GETTER(aclGetRawTensorAddr, void *, addr, data)

/* ---- validation ---------------------------------------------------------------------- */

/* a * b into *out; 0 on int64 overflow. Both non-negative. */
static int mul_checked(int64_t a, int64_t b, int64_t *out) {
    if (a != 0 && b > INT64_MAX / a) return 0;
    *out = a * b;
    return 1;
}

static int add_checked(int64_t a, int64_t b, int64_t *out) {
    if (b > INT64_MAX - a) return 0;
    *out = a + b;
    return 1;
}

#define INVALID(...) mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, __VA_ARGS__)

aclnnStatus nnop_view_from_tensor(const aclTensor *t, const char *api, const char *name, nnop_view *view) {
    memset(view, 0, sizeof *view);
    if (t->rank > NNOP_MAX_RANK)
        return INVALID("%s: %s has %llu dims; at most %d are supported", api, name, (unsigned long long)t->rank,
                       NNOP_MAX_RANK);
    view->rank = (int)t->rank;
    view->dtype = t->dtype;
    view->elem_size = (int64_t)aclDataTypeSize(t->dtype);
    if (view->elem_size == 0) view->elem_size = 1;
    if (t->offset < 0) return INVALID("%s: %s has offset %lld; it must be >= 0", api, name, (long long)t->offset);
    view->offset = t->offset;
    view->data = t->data;
    int empty = 0;
    for (int i = 0; i < view->rank; i++) {
        view->dims[i] = t->view_dims[i];
        view->strides[i] = t->strides[i];
        if (t->view_dims[i] < 0)
            return INVALID("%s: %s has dim %d = %lld; dims must be >= 0", api, name, i, (long long)t->view_dims[i]);
        if (t->strides[i] < 0)
            return INVALID("%s: %s has stride %d = %lld; negative strides are not supported", api, name, i,
                           (long long)t->strides[i]);
        if (t->view_dims[i] == 0) empty = 1;
    }
    int64_t numel = 1;
    if (empty) {
        numel = 0;
    } else {
        for (int i = 0; i < view->rank; i++)
            if (!mul_checked(numel, view->dims[i], &numel))
                return INVALID("%s: %s has more elements than int64 can count", api, name);
    }
    view->numel = numel;
    int64_t storage = 1;
    for (uint64_t i = 0; i < t->storage_rank; i++) {
        if (t->storage_dims[i] < 0)
            return INVALID("%s: %s has storage dim %llu = %lld; dims must be >= 0", api, name, (unsigned long long)i,
                           (long long)t->storage_dims[i]);
        if (!mul_checked(storage, t->storage_dims[i], &storage))
            return INVALID("%s: %s has a storage larger than int64 can count", api, name);
    }
    view->storage_elems = storage;
    /* Row-major strides (size-1 dims do not matter, as in PyTorch) make the view dense. */
    int64_t expected = 1;
    view->contiguous = 1;
    for (int i = view->rank - 1; i >= 0; i--) {
        if (view->dims[i] == 1) continue;
        if (view->strides[i] != expected) view->contiguous = 0;
        if (!mul_checked(expected, view->dims[i], &expected)) view->contiguous = 0;
    }
    if (numel == 0) {
        view->min_elem = view->max_elem = view->offset;
        return ACLNN_SUCCESS;
    }
    int64_t last = view->offset;
    for (int i = 0; i < view->rank; i++) {
        int64_t reach;
        if (!mul_checked(view->dims[i] - 1, view->strides[i], &reach) || !add_checked(last, reach, &last))
            return INVALID("%s: %s reaches beyond int64 element offsets (dims and strides too large)", api, name);
    }
    view->min_elem = view->offset;
    view->max_elem = last;
    if (last >= storage)
        return INVALID("%s: %s reads element %lld of its storage, which holds %lld (offset %lld, strides and dims "
                       "reach outside it)",
                       api, name, (long long)last, (long long)storage, (long long)view->offset);
    if (t->data == NULL) return INVALID("%s: %s has %lld elements but its data is NULL", api, name, (long long)numel);
    int64_t storage_bytes;
    if (!mul_checked(storage, view->elem_size, &storage_bytes))
        return INVALID("%s: %s has a storage larger than memory", api, name);
    if (!mgrt_range_is_live(t->data, (uint64_t)storage_bytes))
        return INVALID("%s: %s's storage [%p, +%lld bytes) is not inside one live aclrtMalloc block", api, name,
                       t->data, (long long)storage_bytes);
    return ACLNN_SUCCESS;
}

void nnop_view_byte_range(const nnop_view *view, const void *data, uintptr_t *lo, uintptr_t *hi) {
    uintptr_t base = (uintptr_t)data;
    if (view->numel == 0) {
        *lo = *hi = base;
        return;
    }
    *lo = base + (uintptr_t)(view->min_elem * view->elem_size);
    *hi = base + (uintptr_t)((view->max_elem + 1) * view->elem_size);
}

int nnop_views_conflict(const nnop_view *a, const void *a_data, const nnop_view *b, const void *b_data) {
    if (a->numel == 0 || b->numel == 0) return 0;
    uintptr_t a_lo, a_hi, b_lo, b_hi;
    nnop_view_byte_range(a, a_data, &a_lo, &a_hi);
    nnop_view_byte_range(b, b_data, &b_lo, &b_hi);
    if (!(a_lo < b_hi && b_lo < a_hi)) return 0;
    int exact = a_lo == b_lo && a_hi == b_hi && a->contiguous && b->contiguous && a->elem_size == b->elem_size;
    return !exact;
}

aclDataType nnop_tensor_dtype(const aclTensor *t) { return t->dtype; }

uint64_t nnop_tensor_shape(const aclTensor *t, int64_t *dims, int capacity) {
    for (uint64_t i = 0; i < t->rank && i < (uint64_t)capacity; i++) dims[i] = t->view_dims[i];
    return t->rank;
}

/* Views spanning more elements than this are not enumerated: one that fails the quick
   proof is refused as "cannot prove" (a 64 Mi-element span needs an 8 MiB bitmap). */
#define MAX_ENUMERATED_SPAN (INT64_C(1) << 26)

/* Exact answer by visiting every element once and marking its offset. */
static int view_revisits_an_element(const nnop_view *view) {
    int64_t span = view->max_elem - view->min_elem + 1;
    unsigned char *seen = mgrt_calloc((size_t)(span + 7) / 8, 1);
    if (seen == NULL) return 1; /* cannot tell: refuse rather than risk a racy scatter */
    int64_t index[NNOP_MAX_RANK] = {0};
    int64_t element = 0; /* relative to min_elem */
    int revisit = 0;
    for (int64_t visited = 0; visited < view->numel && !revisit; visited++) {
        unsigned char bit = (unsigned char)(1u << (element & 7));
        revisit = (seen[element >> 3] & bit) != 0;
        seen[element >> 3] |= bit;
        for (int d = view->rank - 1; d >= 0; d--) {
            element += view->strides[d];
            if (++index[d] < view->dims[d]) break;
            element -= index[d] * view->strides[d];
            index[d] = 0;
        }
    }
    mgrt_free(seen);
    return revisit;
}

int nnop_view_overlaps_itself(const nnop_view *view) {
    if (view->numel <= 1) return 0;
    /* The quick proof: sort the dims that move (size > 1) by stride; if each stride steps
       past everything the smaller ones can reach, no two elements meet. */
    int order[NNOP_MAX_RANK], count = 0;
    for (int i = 0; i < view->rank; i++)
        if (view->dims[i] > 1) order[count++] = i;
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && view->strides[order[j]] < view->strides[order[j - 1]]; j--) {
            int swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
    int64_t reach = 0; /* farthest element offset the smaller dims reach */
    int nested = 1;
    for (int k = 0; k < count && nested; k++) {
        int d = order[k];
        if (view->strides[d] <= reach) nested = 0;
        reach += (view->dims[d] - 1) * view->strides[d]; /* bounded: validated against storage */
    }
    if (nested) return 0;
    /* Interleaved strides (dims [4,5] strides [2,5]) can still be free of overlap. */
    if (view->max_elem - view->min_elem + 1 > MAX_ENUMERATED_SPAN) return 1;
    return view_revisits_an_element(view);
}
