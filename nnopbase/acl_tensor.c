/*
 * nnopbase/acl_tensor.c: aclTensor (create, destroy, re-initialise, getters, the raw
 * address), and the validation every operator runs on a descriptor before it trusts it.
 *
 * A program holds a handle (a registry token, runtime/mgrt_handle.h), never the object:
 * every call resolves it, so a destroyed or foreign tensor gets 161002 and a message, a
 * second aclDestroyTensor included, and the object cannot be freed under a call using it.
 */
#include <stdlib.h>
#include <string.h>

#include "mg_strided.h"
#include "mgrt.h"
#include "nnop.h"
#include "nnop_internal.h"

/* aclCreateTensor stores any rank up to this (operators refuse above NNOP_MAX_RANK with a
   status, which needs the tensor to exist); past it the descriptor is nonsense. */
#define MAX_STORED_RANK 1024

/* The object and, behind it, room for `capacity` int64 values (2 * rank + storage_rank);
   aclInitTensor reuses the room when the new descriptor fits. */
typedef struct tensor_block {
    nnop_tensor tensor;
    int64_t *arrays;        /* the room in use: inline, or an own allocation */
    uint64_t capacity;      /* int64 values the room holds */
    int64_t inline_arrays[];
} tensor_block;

static void destroy_tensor(void *object) {
    tensor_block *b = object;
    nnop_lock_destroy(&b->tensor.lock);
    if (b->arrays != b->inline_arrays) mgrt_free(b->arrays);
    mgrt_free(b);
}

nnop_tensor *nnop_tensor_pin(const aclTensor *handle) { return mgrt_handle_pin(handle, MGRT_HANDLE_TENSOR); }

void nnop_tensor_unpin(const aclTensor *handle) { mgrt_handle_unpin(handle); }

aclnnStatus nnop_check_handle(const void *handle, mgrt_handle_kind kind, const char *api, const char *name,
                              aclnnStatus null_code) {
    if (handle == NULL) return mgrt_fail_at(api, null_code, "%s: %s is NULL", api, name);
    if (mgrt_handle_state_of(handle, kind) == MGRT_HANDLE_LIVE) return ACLNN_SUCCESS;
    return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: %s (%s %p) %s", api, name, mgrt_handle_kind_name(kind),
                        handle, mgrt_handle_describe(handle, kind));
}

aclnnStatus nnop_tensor_check(const aclTensor *t, const char *api, const char *name) {
    if (t == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument %s.",
                            name);
    return nnop_check_handle(t, MGRT_HANDLE_TENSOR, api, name, ACLNN_ERR_PARAM_NULLPTR);
}

/* Writes the descriptor into `t`'s room (which holds 2 * viewDimsNum + storageDimsNum). */
static void fill_tensor(nnop_tensor *t, int64_t *room, const int64_t *viewDims, uint64_t viewDimsNum,
                        aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format,
                        const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    t->rank = viewDimsNum;
    t->storage_rank = storageDimsNum;
    t->dtype = dataType;
    t->format = format;
    t->offset = offset;
    atomic_store_explicit(&t->data, tensorData, memory_order_relaxed);
    t->view_dims = room;
    t->strides = room + viewDimsNum;
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
}

/* 0, or the failure (message set) for arrays that cannot be stored. */
static aclnnStatus check_descriptor(const char *api, const int64_t *viewDims, uint64_t viewDimsNum,
                                    const int64_t *storageDims, uint64_t storageDimsNum) {
    if ((viewDims == NULL && viewDimsNum > 0) || (storageDims == NULL && storageDimsNum > 0)) {
        int view = viewDims == NULL && viewDimsNum > 0;
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL but %s is %llu", api,
                            view ? "viewDims" : "storageDims", view ? "viewDimsNum" : "storageDimsNum",
                            (unsigned long long)(view ? viewDimsNum : storageDimsNum));
    }
    if (viewDimsNum > MAX_STORED_RANK || storageDimsNum > MAX_STORED_RANK)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: %llu dims is beyond any tensor (at most %d)", api,
                            (unsigned long long)(viewDimsNum > storageDimsNum ? viewDimsNum : storageDimsNum),
                            MAX_STORED_RANK);
    return ACLNN_SUCCESS;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    static const char api[] = "aclCreateTensor";
    if (check_descriptor(api, viewDims, viewDimsNum, storageDims, storageDimsNum) != ACLNN_SUCCESS) return NULL;
    uint64_t values = 2 * viewDimsNum + storageDimsNum;
    tensor_block *b = mgrt_malloc(sizeof *b + (size_t)values * sizeof(int64_t));
    if (b == NULL) {
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory (an allocation failed)", api);
        return NULL;
    }
    b->arrays = b->inline_arrays;
    b->capacity = values; /* the room allocated behind the block */
    nnop_lock_init(&b->tensor.lock);
    fill_tensor(&b->tensor, b->arrays, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                storageDimsNum, tensorData);
    aclTensor *handle = mgrt_handle_register(MGRT_HANDLE_TENSOR, b, destroy_tensor);
    if (handle == NULL) {
        destroy_tensor(b);
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory registering the tensor (an allocation failed)", api);
    }
    return handle;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    static const char api[] = "aclDestroyTensor";
    if (tensor == NULL) return ACLNN_SUCCESS; /* as CANN: destroying nothing succeeds */
    if (mgrt_handle_release(tensor, MGRT_HANDLE_TENSOR)) return ACLNN_SUCCESS;
    return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: tensor (aclTensor %p) %s", api, (const void *)tensor,
                        mgrt_handle_describe(tensor, MGRT_HANDLE_TENSOR));
}

/* As CANN's aclTensor::InitTensor: a field is replaced only when given -- the view shape
   when viewDims is non-NULL with viewDimsNum > 0, the storage shape likewise, the address
   when non-NULL -- and kept otherwise; dtype, format and offset are always set; strides are
   `stride` (viewDimsNum of them) or, when NULL, row-major over the resulting view. One case
   CANN leaves inconsistent is refused: strides given for viewDimsNum dims while the view
   kept has another rank (161002). */
aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr) {
    static const char api[] = "aclInitTensor";
    aclnnStatus status = nnop_check_handle(tensor, MGRT_HANDLE_TENSOR, api, "tensor", ACLNN_ERR_PARAM_NULLPTR);
    if (status != ACLNN_SUCCESS) return status;
    const int new_view = viewDims != NULL && viewDimsNum > 0;
    const int new_storage = storageDims != NULL && storageDimsNum > 0;
    status = check_descriptor(api, new_view ? viewDims : NULL, new_view ? viewDimsNum : 0,
                              new_storage ? storageDims : NULL, new_storage ? storageDimsNum : 0);
    if (status != ACLNN_SUCCESS) return status;
    tensor_block *b = mgrt_handle_pin(tensor, MGRT_HANDLE_TENSOR);
    if (b == NULL) return nnop_check_handle(tensor, MGRT_HANDLE_TENSOR, api, "tensor", ACLNN_ERR_PARAM_NULLPTR);
    nnop_tensor *t = &b->tensor;
    /* Readers copy under the lock; the old arrays are freed after it, when none can hold them. */
    nnop_lock_take(&t->lock);
    const uint64_t rank = new_view ? viewDimsNum : t->rank;
    const uint64_t storage_rank = new_storage ? storageDimsNum : t->storage_rank;
    if (stride != NULL && viewDimsNum != rank) {
        nnop_lock_give(&t->lock);
        mgrt_handle_unpin(tensor);
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                            "%s: stride gives %llu dims but the view keeps its %llu (viewDims is NULL or "
                            "viewDimsNum 0)",
                            api, (unsigned long long)viewDimsNum, (unsigned long long)rank);
    }
    /* The kept arrays move into the new room, which may be the old one: copy the old view and
       storage dims first (both, whichever are kept: a handful of values, and no condition to
       get wrong). */
    const uint64_t values = 2 * rank + storage_rank;
    int64_t *kept = mgrt_malloc((size_t)(t->rank + t->storage_rank + 1) * sizeof(int64_t));
    int64_t *room = values > b->capacity ? mgrt_malloc((size_t)values * sizeof(int64_t)) : b->arrays;
    if (kept == NULL || room == NULL) {
        nnop_lock_give(&t->lock);
        if (room != b->arrays) mgrt_free(room);
        mgrt_free(kept);
        mgrt_handle_unpin(tensor);
        return mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory (an allocation failed)", api);
    }
    memcpy(kept, t->view_dims, (size_t)t->rank * sizeof(int64_t));
    int64_t *kept_storage = kept + t->rank;
    memcpy(kept_storage, t->storage_dims, (size_t)t->storage_rank * sizeof(int64_t));
    int64_t *old = NULL;
    if (room != b->arrays) {
        if (b->arrays != b->inline_arrays) old = b->arrays;
        b->arrays = room;
        b->capacity = values;
    }
    void *data = tensorDataAddr != NULL ? tensorDataAddr : atomic_load_explicit(&t->data, memory_order_relaxed);
    fill_tensor(t, room, new_view ? viewDims : kept, rank, dataType, stride, offset, format,
                new_storage ? storageDims : kept_storage, storage_rank, data);
    nnop_lock_give(&t->lock);
    mgrt_handle_unpin(tensor);
    mgrt_free(old);
    mgrt_free(kept);
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
    static const char api[] = "aclSetRawTensorAddr";
    nnop_tensor *t = nnop_tensor_pin(tensor);
    if (t == NULL) return nnop_check_handle(tensor, MGRT_HANDLE_TENSOR, api, "tensor", ACLNN_ERR_PARAM_NULLPTR);
    atomic_store_explicit(&t->data, addr, memory_order_relaxed);
    nnop_tensor_unpin(tensor);
    return ACLNN_SUCCESS;
}

/* ---- getters ------------------------------------------------------------------------- */

/* Pins `tensor` and checks the output pointers: 0 with *object set, or the failure. */
static aclnnStatus pin_for_getter(const char *api, const aclTensor *tensor, const void *out, const char *out_name,
                                  const void *out2, const char *out2_name, nnop_tensor **object) {
    if (tensor == NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: tensor is NULL", api);
    if (out == NULL || (out2_name != NULL && out2 == NULL))
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, out == NULL ? out_name : out2_name);
    *object = nnop_tensor_pin(tensor);
    if (*object == NULL) return nnop_check_handle(tensor, MGRT_HANDLE_TENSOR, api, "tensor", ACLNN_ERR_PARAM_NULLPTR);
    return ACLNN_SUCCESS;
}

typedef enum { VIEW_SHAPE, VIEW_STRIDES, STORAGE_SHAPE } array_field;

static aclnnStatus copy_array(const char *api, const aclTensor *tensor, array_field field, int64_t **out,
                              uint64_t *out_count, const char *out_name, const char *count_name) {
    nnop_tensor *t = NULL;
    aclnnStatus status = pin_for_getter(api, tensor, out, out_name, out_count, count_name, &t);
    if (status != ACLNN_SUCCESS) return status;
    nnop_lock_take(&t->lock); /* the count and the values of one descriptor */
    const int64_t *values = field == VIEW_SHAPE ? t->view_dims : field == VIEW_STRIDES ? t->strides : t->storage_dims;
    uint64_t count = field == STORAGE_SHAPE ? t->storage_rank : t->rank;
    /* malloc, not mgrt_malloc: the caller releases it with free(). */
    int64_t *copy = malloc(count ? count * sizeof(int64_t) : sizeof(int64_t));
    if (copy != NULL && count > 0) memcpy(copy, values, count * sizeof(int64_t));
    nnop_lock_give(&t->lock);
    nnop_tensor_unpin(tensor);
    if (copy == NULL) return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: out of memory (an allocation failed)", api);
    *out = copy;
    *out_count = count;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    return copy_array("aclGetViewShape", tensor, VIEW_SHAPE, viewDims, viewDimsNum, "viewDims", "viewDimsNum");
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    return copy_array("aclGetViewStrides", tensor, VIEW_STRIDES, stridesValue, stridesNum, "stridesValue", "stridesNum");
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    return copy_array("aclGetStorageShape", tensor, STORAGE_SHAPE, storageDims, storageDimsNum, "storageDims",
                      "storageDimsNum");
}

/* Every field is read under the tensor's lock, the address too (atomic already, but one
   rule for every getter leaves no getter to forget it; aclInitTensor writes them all). */
#define DEFINE_SCALAR_GETTER(function, type, argument, read)                                             \
    aclnnStatus function(const aclTensor *tensor, type *argument) {                                      \
        nnop_tensor *t = NULL;                                                                           \
        aclnnStatus status = pin_for_getter(#function, tensor, argument, #argument, NULL, NULL, &t);    \
        if (status != ACLNN_SUCCESS) return status;                                                      \
        nnop_lock_take(&t->lock);                                                                        \
        type value = read;                                                                               \
        nnop_lock_give(&t->lock);                                                                        \
        nnop_tensor_unpin(tensor);                                                                       \
        *argument = value;                                                                               \
        return ACLNN_SUCCESS;                                                                            \
    }

DEFINE_SCALAR_GETTER(aclGetViewOffset, int64_t, offset, t->offset)
DEFINE_SCALAR_GETTER(aclGetFormat, aclFormat, format, t->format)
DEFINE_SCALAR_GETTER(aclGetDataType, aclDataType, dataType, t->dtype)
DEFINE_SCALAR_GETTER(aclGetRawTensorAddr, void *, addr, atomic_load_explicit(&t->data, memory_order_relaxed))

/* ---- snapshots: what an operator reads ------------------------------------------------- */

/* a * b into *out; 0 on int64 overflow. Both non-negative. */
static int mul_checked(int64_t a, int64_t b, int64_t *out) {
    if (a != 0 && b > INT64_MAX / a) return 0;
    *out = a * b;
    return 1;
}

/* Copies the descriptor of a pinned tensor (the caller holds no lock). */
static void take_snapshot(nnop_tensor *t, nnop_tensor_snapshot *s) {
    nnop_lock_take(&t->lock);
    s->rank = t->rank;
    s->storage_rank = t->storage_rank;
    s->dtype = t->dtype;
    s->format = t->format;
    s->offset = t->offset;
    s->data = atomic_load_explicit(&t->data, memory_order_relaxed);
    uint64_t kept = t->rank < NNOP_MAX_RANK ? t->rank : NNOP_MAX_RANK;
    for (uint64_t i = 0; i < kept; i++) {
        s->dims[i] = t->view_dims[i];
        s->strides[i] = t->strides[i];
    }
    /* The storage, judged here in validation's order: a negative dim, else an overflow. */
    int64_t storage = 1;
    s->storage_fault = 0;
    s->storage_fault_dim = 0;
    s->storage_fault_value = 0;
    for (uint64_t i = 0; i < t->storage_rank; i++) {
        if (t->storage_dims[i] < 0) {
            s->storage_fault = 1;
            s->storage_fault_dim = i;
            s->storage_fault_value = t->storage_dims[i];
            break;
        }
        if (!mul_checked(storage, t->storage_dims[i], &storage)) {
            s->storage_fault = 2;
            s->storage_fault_dim = i;
            break;
        }
    }
    nnop_lock_give(&t->lock);
    s->storage_elems = storage;
}

aclnnStatus nnop_tensor_snapshot_of(const aclTensor *handle, const char *api, const char *name,
                                    nnop_tensor_snapshot *snapshot) {
    nnop_tensor *t = nnop_tensor_pin(handle);
    if (t == NULL) {
        aclnnStatus status = nnop_tensor_check(handle, api, name);
        /* live when checked, destroyed just before the pin: still this call's 161002 */
        return status != ACLNN_SUCCESS ? status
                                       : mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                                                      "%s: %s (aclTensor %p) was destroyed during this call", api,
                                                      name, (const void *)handle);
    }
    take_snapshot(t, snapshot);
    nnop_tensor_unpin(handle);
    return ACLNN_SUCCESS;
}

/* ---- validation ---------------------------------------------------------------------- */

static int add_checked(int64_t a, int64_t b, int64_t *out) {
    if (b > INT64_MAX - a) return 0;
    *out = a + b;
    return 1;
}

#define INVALID(...) mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, __VA_ARGS__)

static aclnnStatus validate(const nnop_tensor_snapshot *t, const char *api, const char *name, nnop_view *view) {
    if (t->rank > NNOP_MAX_RANK)
        return INVALID("%s: %s has %llu dims; at most %d are supported", api, name, (unsigned long long)t->rank,
                       NNOP_MAX_RANK);
    view->rank = (int)t->rank;
    view->dtype = t->dtype;
    view->elem_size = (int64_t)aclDataTypeSize(t->dtype);
    if (view->elem_size == 0) view->elem_size = 1;
    if (t->offset < 0) return INVALID("%s: %s has offset %lld; it must be >= 0", api, name, (long long)t->offset);
    view->offset = t->offset;
    void *data = t->data;
    view->data = data;
    int empty = 0;
    /* Every dim before any stride: with NULL strides aclCreateTensor derives them from the
       dims, so a negative dim also makes the strides of the dims before it negative, and
       the caller must hear of the dim they gave, not of a stride they did not. */
    for (int i = 0; i < view->rank; i++) {
        view->dims[i] = t->dims[i];
        if (t->dims[i] < 0)
            return INVALID("%s: %s's dim %d is %lld; dims must be >= 0", api, name, i, (long long)t->dims[i]);
        if (t->dims[i] == 0) empty = 1;
    }
    for (int i = 0; i < view->rank; i++) {
        view->strides[i] = t->strides[i];
        if (t->strides[i] < 0)
            return INVALID("%s: %s's stride in dim %d is %lld; negative strides are not supported", api, name,
                           i, (long long)t->strides[i]);
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
    if (t->storage_fault == 1)
        return INVALID("%s: %s has storage dim %llu = %lld; dims must be >= 0", api, name,
                       (unsigned long long)t->storage_fault_dim, (long long)t->storage_fault_value);
    if (t->storage_fault != 0) return INVALID("%s: %s has a storage larger than int64 can count", api, name);
    int64_t storage = t->storage_elems;
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
        /* "reaches", not "reads": the same check judges outputs, which are written. */
        return INVALID("%s: %s reaches element %lld of its storage, which holds %lld (offset %lld, strides and dims "
                       "go outside it)",
                       api, name, (long long)last, (long long)storage, (long long)view->offset);
    if (data == NULL) return INVALID("%s: %s has %lld elements but its data is NULL", api, name, (long long)numel);
    /* Element loads and stores need element-aligned addresses (decision for issue 10's
       defect 7: refuse, rather than read misaligned). CANN asks for 32-byte alignment and
       leaves less undefined; here only what would be undefined behaviour is refused. */
    if ((uintptr_t)data % (uintptr_t)view->elem_size != 0)
        return INVALID("%s: %s's data %p is not aligned to its %lld-byte elements", api, name, data,
                       (long long)view->elem_size);
    int64_t storage_bytes;
    if (!mul_checked(storage, view->elem_size, &storage_bytes))
        return INVALID("%s: %s has a storage larger than memory", api, name);
    if (!mgrt_range_is_live(data, (uint64_t)storage_bytes))
        return INVALID("%s: %s's storage [%p, +%lld bytes) is not inside one live aclrtMalloc block or "
                       "aclrtHostRegister range (host memory takes aclrtHostRegister first)",
                       api, name, data, (long long)storage_bytes);
    return ACLNN_SUCCESS;
}

aclnnStatus nnop_view_from_snapshot(const nnop_tensor_snapshot *snapshot, const char *api, const char *name,
                                    nnop_view *view) {
    memset(view, 0, sizeof *view);
    return validate(snapshot, api, name, view);
}

aclnnStatus nnop_view_from_tensor(const aclTensor *handle, const char *api, const char *name, nnop_view *view) {
    memset(view, 0, sizeof *view);
    nnop_tensor_snapshot snapshot;
    aclnnStatus status = nnop_tensor_snapshot_of(handle, api, name, &snapshot);
    if (status != ACLNN_SUCCESS) return status;
    return validate(&snapshot, api, name, view);
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

/* The view as an access, for the geometry leaf: dense when contiguous. */
static void view_access(const nnop_view *v, const void *data, mg_strided *out) {
    mg_strided_of_view(out, data, v->elem_size, v->rank, v->dims, v->strides, v->min_elem, v->max_elem, v->numel,
                       v->contiguous);
}

int nnop_views_conflict(const nnop_view *a, const void *a_data, const nnop_view *b, const void *b_data) {
    mg_strided ga, gb;
    view_access(a, a_data, &ga);
    view_access(b, b_data, &gb);
    return mg_overlap_conservative(&ga, &gb);
}

/* Views spanning more elements than this are not enumerated: one that fails the quick
   proof is refused as "cannot prove" (a 64 Mi-element span needs an 8 MiB bitmap). */
#define MAX_ENUMERATED_SPAN (INT64_C(1) << 26)

/* Exact answer by visiting every element once and marking its offset. Only the dims
   that move (size > 1) take part: a size-1 dim's stride is never multiplied or added, so
   any value there (INT64_MAX included) is harmless. Every offset computed stays within
   [0, span), validated against the storage. 1: revisits, 0: does not, -1: the bitmap
   could not be allocated. */
static int view_revisits_an_element(const nnop_view *view) {
    int64_t dims[NNOP_MAX_RANK], strides[NNOP_MAX_RANK];
    int rank = 0;
    for (int i = 0; i < view->rank; i++)
        if (view->dims[i] > 1) {
            dims[rank] = view->dims[i];
            strides[rank] = view->strides[i];
            rank++;
        }
    int64_t span = view->max_elem - view->min_elem + 1;
    unsigned char *seen = mgrt_calloc((size_t)(span + 7) / 8, 1);
    if (seen == NULL) return -1;
    int64_t index[NNOP_MAX_RANK] = {0};
    int64_t element = 0; /* relative to min_elem */
    int revisit = 0;
    for (int64_t visited = 0; visited < view->numel && !revisit; visited++) {
        unsigned char bit = (unsigned char)(1u << (element & 7));
        revisit = (seen[element >> 3] & bit) != 0;
        seen[element >> 3] |= bit;
        for (int d = rank - 1; d >= 0; d--) {
            if (++index[d] < dims[d]) {
                element += strides[d];
                break;
            }
            element -= (index[d] - 1) * strides[d];
            index[d] = 0;
        }
    }
    mgrt_free(seen);
    return revisit;
}

/* 1 overlaps, 0 does not, -1 the proof ran out of memory. */
static int overlaps_itself(const nnop_view *view) {
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

int nnop_view_overlaps_itself(const nnop_view *view) { return overlaps_itself(view) != 0; }

aclnnStatus nnop_view_check_overlaps_itself(const nnop_view *view, const char *api, const char *name) {
    int result = overlaps_itself(view);
    if (result == 0) return ACLNN_SUCCESS;
    if (result < 0)
        return mgrt_fail_at(api, ACLNN_ERR_INNER,
                            "%s: an internal allocation failed (out of memory) while proving that %s's strides map "
                            "no two elements to one memory location",
                            api, name);
    return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                        "%s: %s's strides map two elements to one memory location (or interleave over more than "
                        "2^26 elements, too many to prove they do not)",
                        api, name);
}

/* ---- aclDumpOpTensors ---------------------------------------------------------------- */

/* CANN hands the tensors to its dump service, which writes them when dumping is configured.
   There is none here: the arguments are checked as CANN checks them, and nothing is written. */
aclnnStatus aclDumpOpTensors(const char *opType, const char *opName, aclTensor **tensors, size_t inputTensorNum,
                             size_t outputTensorNum, aclrtStream stream) {
    static const char api[] = "aclDumpOpTensors";
    const char *missing = opType == NULL    ? "opType"
                          : opName == NULL  ? "opName"
                          : tensors == NULL ? "tensors"
                          : stream == NULL  ? "stream"
                                            : NULL;
    if (missing != NULL) return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, missing);
    mgrt_log(MGRT_LOG_INFO, "NNOPBASE",
             "%s: %s (%s), %zu input and %zu output tensors: this CPU runtime has no dump service; nothing is "
             "written",
             api, opType, opName, inputTensorNum, outputTensorNum);
    return ACLNN_SUCCESS;
}
