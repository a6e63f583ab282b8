/*
 * runtime/acl_tensor_desc.c: the tensor description of acl/acl_base_mdl.h (aclTensorDesc), the
 * descriptor CANN's model and single-operator APIs take: a data type, an origin shape and
 * format, a storage shape and format, shape and value ranges, a name, a dynamic-input name,
 * const data, a memory placement.
 *
 * A description is a registry handle (MGRT_HANDLE_TENSOR_DESC): a destroyed or foreign one
 * is refused with a message, never dereferenced. Setters build the new arrays first and
 * swap them in under one lock, so a getter racing a setter sees the old value or the new
 * one. No current context is needed (as for data buffers).
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

struct tensor_desc {
    aclDataType data_type;
    aclFormat format;            /* origin format (aclSetTensorOriginFormat) */
    aclFormat storage_format;    /* aclSetTensorFormat / aclSetTensorStorageFormat */
    size_t num_dims;
    int64_t *dims;               /* origin shape */
    size_t num_storage_dims;
    int64_t *storage_dims;       /* aclSetTensorShape / aclSetTensorStorageShape */
    size_t num_shape_ranges;
    int64_t (*shape_ranges)[ACL_TENSOR_SHAPE_RANGE_NUM];
    size_t num_value_ranges;
    int64_t (*value_ranges)[ACL_TENSOR_VALUE_RANGE_NUM];
    char *name;                  /* never NULL: "" when unset */
    char *dynamic_input;
    void *const_data;
    size_t const_length;
    aclMemType mem_type;
};

static pthread_mutex_t desc_lock = RT_MUTEX_INITIALIZER;

/* fork(): a child must not inherit this lock held (its first getter or setter of a tensor
   description would hang for ever); every critical section is a few loads and stores. */
RT_FORK_SAFE_LOCK(desc_lock, lock_descs)
static char empty_name[1];

static void desc_destroy(void *object) {
    struct tensor_desc *d = object;
    mgrt_free(d->dims);
    mgrt_free(d->storage_dims);
    mgrt_free(d->shape_ranges);
    mgrt_free(d->value_ranges);
    if (d->name != empty_name) mgrt_free(d->name);
    mgrt_free(d->dynamic_input);
    mgrt_free(d);
}

/* A copy of n int64 values (NULL for n == 0); *ok 0 when memory ran out. */
static int64_t *copy_dims(const int64_t *dims, size_t n, int *ok) {
    *ok = 1;
    if (n == 0) return NULL;
    int64_t *copy = n <= SIZE_MAX / sizeof *copy ? mgrt_malloc(n * sizeof *copy) : NULL;
    if (copy == NULL) {
        *ok = 0;
        return NULL;
    }
    memcpy(copy, dims, n * sizeof *copy);
    return copy;
}

static char *copy_string(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = mgrt_malloc(n);
    if (copy != NULL) memcpy(copy, text, n);
    return copy;
}

aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims, aclFormat format) {
    static const char api[] = "aclCreateTensorDesc";
    if (numDims < 0) {
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: numDims %d is negative", api, numDims);
        return NULL;
    }
    if (numDims > 0 && dims == NULL) {
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dims is NULL while numDims is %d", api, numDims);
        return NULL;
    }
    struct tensor_desc *d = mgrt_calloc(1, sizeof *d);
    int ok = d != NULL;
    if (ok) {
        d->data_type = dataType;
        d->format = format;
        d->storage_format = ACL_FORMAT_UNDEFINED;
        d->num_dims = (size_t)numDims;
        d->dims = copy_dims(dims, (size_t)numDims, &ok);
        d->name = empty_name;
        d->mem_type = ACL_MEMTYPE_DEVICE;
    }
    void *token = ok ? mgrt_handle_register(MGRT_HANDLE_TENSOR_DESC, d, desc_destroy) : NULL;
    if (token == NULL) {
        if (d != NULL) desc_destroy(d);
        mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    }
    return token;
}

/* The description behind `handle`, pinned; NULL with the message set ("desc" names the
   argument as CANN's parameter list does). */
static struct tensor_desc *pin_desc(const char *api, const char *arg, const aclTensorDesc *handle) {
    if (handle == NULL) {
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, arg);
        return NULL;
    }
    struct tensor_desc *d = mgrt_handle_pin(handle, MGRT_HANDLE_TENSOR_DESC);
    if (d == NULL)
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s %p %s", api, arg, (const void *)handle,
                     mgrt_handle_describe(handle, MGRT_HANDLE_TENSOR_DESC));
    return d;
}

void aclDestroyTensorDesc(const aclTensorDesc *desc) {
    static const char api[] = "aclDestroyTensorDesc";
    if (desc == NULL) return;  /* as CANN's: deleting nothing */
    if (!mgrt_handle_release(desc, MGRT_HANDLE_TENSOR_DESC))
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: desc %p %s", api, (const void *)desc,
                     mgrt_handle_describe(desc, MGRT_HANDLE_TENSOR_DESC));
}

/* Ranges: count pairs copied from `ranges` (which may be NULL only with count 0). */
static aclError set_ranges(const char *api, aclTensorDesc *desc, size_t count, int64_t (*ranges)[2], int value) {
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    if (count > 0 && ranges == NULL) {
        mgrt_handle_unpin(desc);
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL while %s is %zu", api,
                            value ? "valueRange" : "dimsRange", value ? "valueCount" : "dimsCount", count);
    }
    int64_t (*copy)[2] = NULL;
    if (count > 0) {
        copy = count <= SIZE_MAX / sizeof *copy ? mgrt_malloc(count * sizeof *copy) : NULL;
        if (copy == NULL) {
            mgrt_handle_unpin(desc);
            return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory for %zu ranges", api, count);
        }
        memcpy(copy, ranges, count * sizeof *copy);
    }
    lock_descs();
    int64_t (*old)[2];
    if (value) {
        old = d->value_ranges;
        d->value_ranges = copy;
        d->num_value_ranges = count;
    } else {
        old = d->shape_ranges;
        d->shape_ranges = copy;
        d->num_shape_ranges = count;
    }
    RT_UNLOCK(&desc_lock);
    mgrt_free(old);
    mgrt_handle_unpin(desc);
    return ACL_SUCCESS;
}

aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
    return set_ranges("aclSetTensorShapeRange", desc, dimsCount, dimsRange, 0);
}

aclError aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
                                int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
    return set_ranges("aclSetTensorValueRange", desc, valueCount, valueRange, 1);
}

aclDataType aclGetTensorDescType(const aclTensorDesc *desc) {
    struct tensor_desc *d = pin_desc("aclGetTensorDescType", "desc", desc);
    if (d == NULL) return ACL_DT_UNDEFINED;
    aclDataType type = d->data_type;
    mgrt_handle_unpin(desc);
    return type;
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) {
    struct tensor_desc *d = pin_desc("aclGetTensorDescFormat", "desc", desc);
    if (d == NULL) return ACL_FORMAT_UNDEFINED;
    lock_descs();
    aclFormat format = d->format;
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    return format;
}

/* The element count of the origin shape, as CANN's: 1 for a scalar (no dims), 0 when a
   dim is negative (unknown) or the product overflows size_t. */
static size_t element_count(const char *api, const aclTensorDesc *desc) {
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return 0;
    size_t count = 1;
    lock_descs();
    for (size_t i = 0; i < d->num_dims; i++) {
        int64_t dim = d->dims[i];
        if (dim < 0 || (dim > 0 && count > SIZE_MAX / (uint64_t)dim)) {
            count = 0;
            break;
        }
        count *= (size_t)dim;
    }
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    return count;
}

size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) {
    return element_count("aclGetTensorDescElementCount", desc);
}

/* Element count times aclDataTypeSize; 0 on overflow, as CANN's. */
size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
    size_t count = element_count("aclGetTensorDescSize", desc);
    if (count == 0) return 0;
    struct tensor_desc *d = mgrt_handle_pin(desc, MGRT_HANDLE_TENSOR_DESC);
    if (d == NULL) return 0;  /* destroyed in between */
    size_t type_size = aclDataTypeSize(d->data_type);
    mgrt_handle_unpin(desc);
    return type_size != 0 && count > SIZE_MAX / type_size ? 0 : count * type_size;
}

/* ACL_UNKNOWN_RANK when the shape is the unknown-rank marker (first dim -2), as CANN's. */
size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
    struct tensor_desc *d = pin_desc("aclGetTensorDescNumDims", "desc", desc);
    if (d == NULL) return 0;
    lock_descs();
    size_t n = d->num_dims > 0 && d->dims[0] == -2 ? (size_t)ACL_UNKNOWN_RANK : d->num_dims;
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    return n;
}

/* Dim `index` of the origin shape into *dim; ACL_ERROR_INVALID_PARAM and a message when out
   of range. */
static aclError get_dim(const char *api, const aclTensorDesc *desc, size_t index, int64_t *dim) {
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    size_t n = 0;
    lock_descs();
    n = d->num_dims;
    if (index < n) *dim = d->dims[index];
    else status = ACL_ERROR_INVALID_PARAM;
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    if (status != ACL_SUCCESS)
        return mgrt_fail_at(api, status, "%s: index %zu is out of range (the shape has %zu dims)", api, index, n);
    return ACL_SUCCESS;
}

int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index) {
    int64_t dim = -1;
    return get_dim("aclGetTensorDescDim", desc, index, &dim) == ACL_SUCCESS ? dim : -1;
}

aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) {
    static const char api[] = "aclGetTensorDescDimV2";
    if (desc != NULL && dimSize == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dimSize is NULL", api);
    int64_t dim = 0;
    aclError status = get_dim(api, desc, index, &dim);
    if (status == ACL_SUCCESS) *dimSize = dim;
    return status;
}

aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum, int64_t *dimRange) {
    static const char api[] = "aclGetTensorDescDimRange";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    size_t n = 0;
    if (dimRange == NULL) {
        status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dimRange is NULL", api);
    } else if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM) {
        status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dimRangeNum %zu is less than %d", api, dimRangeNum,
                              ACL_TENSOR_SHAPE_RANGE_NUM);
    } else {
        lock_descs();
        n = d->num_shape_ranges;
        if (index < n) {
            dimRange[0] = d->shape_ranges[index][0];
            dimRange[1] = d->shape_ranges[index][1];
        } else {
            status = ACL_ERROR_INVALID_PARAM;
        }
        RT_UNLOCK(&desc_lock);
        if (status != ACL_SUCCESS)
            mgrt_fail_at(api, status, "%s: index %zu is out of range (%zu shape ranges set)", api, index, n);
    }
    mgrt_handle_unpin(desc);
    return status;
}

/* CANN keeps the name as a string inside the description: the pointer aclGetTensorDescName
   returns stays valid until the next aclSetTensorDescName or the destroy. */
void aclSetTensorDescName(aclTensorDesc *desc, const char *name) {
    static const char api[] = "aclSetTensorDescName";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return;
    char *copy = name == NULL || name[0] == '\0' ? empty_name : copy_string(name);
    if (copy == NULL) {
        mgrt_handle_unpin(desc);
        mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
        return;
    }
    lock_descs();
    char *old = d->name;
    d->name = copy;
    RT_UNLOCK(&desc_lock);
    if (old != empty_name) mgrt_free(old);
    mgrt_handle_unpin(desc);
}

const char *aclGetTensorDescName(aclTensorDesc *desc) {
    if (desc == NULL) return "";  /* CANN: an empty string, no message */
    struct tensor_desc *d = pin_desc("aclGetTensorDescName", "desc", desc);
    if (d == NULL) return "";
    lock_descs();
    const char *name = d->name;
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    return name;
}

/* CANN converts the shape with GE's format transfer; no format transfer exists here. */
aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc, aclFormat dstFormat, aclTensorDesc **dstDesc) {
    static const char api[] = "aclTransTensorDescFormat";
    struct tensor_desc *d = pin_desc(api, "srcDesc", srcDesc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    mgrt_handle_unpin(srcDesc);
    if (dstDesc == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dstDesc is NULL", api);
    return mgrt_fail_at(api, ACL_ERROR_API_NOT_SUPPORT,
                        "%s: converting a shape to format %d is not supported on the CPU platform (no format "
                        "transfer: every tensor is in the layout its shape and strides describe)",
                        api, (int)dstFormat);
}

enum format_field { ORIGIN_FORMAT, STORAGE_FORMAT };

static aclError set_format(const char *api, aclTensorDesc *desc, aclFormat format, enum format_field field) {
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    lock_descs();
    if (field == ORIGIN_FORMAT) d->format = format;
    else d->storage_format = format;
    RT_UNLOCK(&desc_lock);
    mgrt_handle_unpin(desc);
    return ACL_SUCCESS;
}

enum shape_field { ORIGIN_SHAPE, STORAGE_SHAPE };

static aclError set_shape(const char *api, aclTensorDesc *desc, int numDims, const int64_t *dims,
                          enum shape_field field) {
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    if (dims == NULL) status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dims is NULL", api);
    else if (numDims < 0) status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: numDims %d is negative", api, numDims);
    if (status != ACL_SUCCESS) {
        mgrt_handle_unpin(desc);
        return status;
    }
    int ok = 1;
    int64_t *copy = copy_dims(dims, (size_t)numDims, &ok);
    if (!ok) {
        mgrt_handle_unpin(desc);
        return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory for %d dims", api, numDims);
    }
    lock_descs();
    int64_t *old;
    if (field == ORIGIN_SHAPE) {
        old = d->dims;
        d->dims = copy;
        d->num_dims = (size_t)numDims;
    } else {
        old = d->storage_dims;
        d->storage_dims = copy;
        d->num_storage_dims = (size_t)numDims;
    }
    RT_UNLOCK(&desc_lock);
    mgrt_free(old);
    mgrt_handle_unpin(desc);
    return ACL_SUCCESS;
}

aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format) {
    return set_format("aclSetTensorStorageFormat", desc, format, STORAGE_FORMAT);
}

aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
    return set_shape("aclSetTensorStorageShape", desc, numDims, dims, STORAGE_SHAPE);
}

aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format) {
    return set_format("aclSetTensorFormat", desc, format, STORAGE_FORMAT);
}

aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
    return set_shape("aclSetTensorShape", desc, numDims, dims, STORAGE_SHAPE);
}

aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format) {
    return set_format("aclSetTensorOriginFormat", desc, format, ORIGIN_FORMAT);
}

aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
    return set_shape("aclSetTensorOriginShape", desc, numDims, dims, ORIGIN_SHAPE);
}

/* CANN indexes into an array of descriptions that its model API hands out; here every
   description stands alone, so index 0 is the description itself and any other index is
   refused (CANN would read past the end). */
aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, size_t index) {
    static const char api[] = "aclGetTensorDescByIndex";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return NULL;
    mgrt_handle_unpin(desc);
    if (index != 0) {
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                     "%s: index %zu is out of range (desc is a single description, not an array)", api, index);
        return NULL;
    }
    return desc;
}

/* CANN's model API fills in the address of a model's tensors; nothing sets it here. */
void *aclGetTensorDescAddress(const aclTensorDesc *desc) {
    struct tensor_desc *d = pin_desc("aclGetTensorDescAddress", "desc", desc);
    if (d != NULL) mgrt_handle_unpin(desc);
    return NULL;
}

aclError aclSetTensorDynamicInput(aclTensorDesc *desc, const char *dynamicInputName) {
    static const char api[] = "aclSetTensorDynamicInput";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    if (dynamicInputName == NULL) {
        mgrt_handle_unpin(desc);
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dynamicInputName is NULL", api);
    }
    char *copy = copy_string(dynamicInputName);
    if (copy == NULL) {
        mgrt_handle_unpin(desc);
        return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory", api);
    }
    lock_descs();
    char *old = d->dynamic_input;
    d->dynamic_input = copy;
    RT_UNLOCK(&desc_lock);
    mgrt_free(old);
    mgrt_handle_unpin(desc);
    return ACL_SUCCESS;
}

/* Records the host buffer holding the tensor's constant value (not copied: CANN keeps the
   pointer too). */
aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length) {
    static const char api[] = "aclSetTensorConst";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    if (dataBuffer == NULL) status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dataBuffer is NULL", api);
    else if (length == 0) status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: length is 0", api);
    if (status == ACL_SUCCESS) {
        lock_descs();
        d->const_data = dataBuffer;
        d->const_length = length;
        RT_UNLOCK(&desc_lock);
    }
    mgrt_handle_unpin(desc);
    return status;
}

aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType) {
    static const char api[] = "aclSetTensorPlaceMent";
    struct tensor_desc *d = pin_desc(api, "desc", desc);
    if (d == NULL) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    if (memType != ACL_MEMTYPE_DEVICE && memType != ACL_MEMTYPE_HOST && memType != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT) {
        status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: memType %d is not an aclMemType", api, (int)memType);
    } else {
        lock_descs();
        d->mem_type = memType;
        RT_UNLOCK(&desc_lock);
    }
    mgrt_handle_unpin(desc);
    return status;
}
