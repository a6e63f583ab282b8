/*
 * nnopbase/acl_meta_objects.c: the argument objects of acl_meta.h besides aclTensor --
 * aclScalar, aclIntArray, aclFloatArray, aclBoolArray, aclTensorList, aclScalarList --
 * and aclnnInit / aclnnFinalize (aclnn_base.h).
 *
 * Each object is one allocation, registered in the shared handle registry: the program
 * holds a token, so a destroyed, reclaimed or foreign handle gets 161002 and a message.
 * As in CANN, a list owns the tensors (scalars) it was created from: destroying the list
 * destroys them, and they need no destroy of their own (one that was destroyed already is
 * skipped, never freed twice). Destroying NULL succeeds, as in CANN.
 */
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "aclnn/aclnn_base.h"
#include "mgrt.h"
#include "nnop.h"
#include "nnop_internal.h"

/* The widest scalar: ACL_COMPLEX128. */
#define SCALAR_BYTES 16

typedef struct scalar_object {
    aclDataType dtype;
    size_t size;
    alignas(16) unsigned char value[SCALAR_BYTES];
} scalar_object;

/* Arrays and lists: a count and the values behind it. */
typedef struct array_object {
    uint64_t size;
    alignas(16) unsigned char values[];
} array_object;

static void free_object(void *object) { mgrt_free(object); }

static void destroy_list(void *object, mgrt_handle_kind element_kind) {
    array_object *list = object;
    const void *const *elements = (const void *const *)(void *)list->values;
    for (uint64_t i = 0; i < list->size; i++)
        if (elements[i] != NULL) mgrt_handle_release(elements[i], element_kind);
    mgrt_free(list);
}

static void destroy_tensor_list(void *object) { destroy_list(object, MGRT_HANDLE_TENSOR); }
static void destroy_scalar_list(void *object) { destroy_list(object, MGRT_HANDLE_SCALAR); }

/* Registers `object`, or frees it and reports; returns the handle or NULL. */
static void *register_or_fail(const char *api, mgrt_handle_kind kind, void *object, mgrt_handle_destroy_fn destroy) {
    void *handle = mgrt_handle_register(kind, object, destroy);
    if (handle == NULL) {
        mgrt_free(object);
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory registering the %s (an allocation failed)", api,
                     mgrt_handle_kind_name(kind));
    }
    return handle;
}

/* ---- aclScalar ------------------------------------------------------------------------ */

/* The bytes an aclScalar of `dtype` reads from `value`, 0 for a dtype CANN's aclScalar does
   not take (its constructor's list). Not aclDataTypeSize: that gives 8 for the FP6 / FP4
   dtypes (the tensor-size convention), whose scalar is one byte. */
static size_t scalar_bytes(aclDataType dtype) {
    switch (dtype) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
        return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16:
        return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32:
        return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64:
        return 8;
    case ACL_COMPLEX128:
        return 16;
    default:
        return 0;
    }
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    static const char api[] = "aclCreateScalar";
    if (value == NULL) {
        mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: value is NULL", api);
        return NULL;
    }
    size_t size = scalar_bytes(dataType);
    if (size == 0) {
        mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID,
                     "%s: dataType %d is not a scalar type; supported: FLOAT, FLOAT16, INT8, INT32, UINT8, INT16, "
                     "UINT16, UINT32, INT64, UINT64, DOUBLE, BOOL, COMPLEX64, COMPLEX128, BF16, HIFLOAT8, "
                     "FLOAT8_E5M2, FLOAT8_E4M3FN, FLOAT8_E8M0, FLOAT6_E3M2, FLOAT6_E2M3, FLOAT4_E2M1, FLOAT4_E1M2",
                     api, (int)dataType);
        return NULL;
    }
    scalar_object *s = mgrt_calloc(1, sizeof *s);
    if (s == NULL) {
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory (an allocation failed)", api);
        return NULL;
    }
    s->dtype = dataType;
    s->size = size;
    memcpy(s->value, value, size);
    return register_or_fail(api, MGRT_HANDLE_SCALAR, s, free_object);
}

/* ---- arrays ------------------------------------------------------------------------- */

/* As CANN's: values are taken only from a non-NULL `value` with size > 0; NULL (whatever
   the size) makes an empty object, size 0. */
static void *create_array(const char *api, mgrt_handle_kind kind, const void *value, uint64_t size, size_t elem) {
    if (value == NULL) size = 0;
    if (size > (SIZE_MAX - sizeof(array_object)) / elem) {
        mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: size %llu is larger than memory", api,
                     (unsigned long long)size);
        return NULL;
    }
    array_object *a = mgrt_malloc(sizeof *a + (size_t)size * elem);
    if (a == NULL) {
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory for %llu values (an allocation failed)", api,
                     (unsigned long long)size);
        return NULL;
    }
    a->size = size;
    if (size > 0) memcpy(a->values, value, (size_t)size * elem);
    return register_or_fail(api, kind, a, free_object);
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    return create_array("aclCreateIntArray", MGRT_HANDLE_INT_ARRAY, value, size, sizeof(int64_t));
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
    return create_array("aclCreateFloatArray", MGRT_HANDLE_FLOAT_ARRAY, value, size, sizeof(float));
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    return create_array("aclCreateBoolArray", MGRT_HANDLE_BOOL_ARRAY, value, size, sizeof(bool));
}

/* ---- lists ------------------------------------------------------------------------ */

/* Every element must be NULL or a live handle of `element_kind`; the list keeps the
   handles (and owns their objects from now on). */
static void *create_list(const char *api, mgrt_handle_kind kind, mgrt_handle_kind element_kind,
                         const void *const *value, uint64_t size, mgrt_handle_destroy_fn destroy) {
    if (value == NULL) size = 0; /* as for arrays: an empty list */
    if (size > (SIZE_MAX - sizeof(array_object)) / sizeof(void *)) {
        mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: size %llu is larger than memory", api,
                     (unsigned long long)size);
        return NULL;
    }
    for (uint64_t i = 0; i < size; i++) {
        if (value[i] == NULL || mgrt_handle_state_of(value[i], element_kind) == MGRT_HANDLE_LIVE) continue;
        mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: value[%llu] (%s %p) %s", api, (unsigned long long)i,
                     mgrt_handle_kind_name(element_kind), value[i], mgrt_handle_describe(value[i], element_kind));
        return NULL;
    }
    array_object *list = mgrt_malloc(sizeof *list + (size_t)size * sizeof(void *));
    if (list == NULL) {
        mgrt_fail_at(api, ACLNN_ERR_INNER, "%s: out of memory for %llu elements (an allocation failed)", api,
                     (unsigned long long)size);
        return NULL;
    }
    list->size = size;
    if (size > 0) memcpy(list->values, value, (size_t)size * sizeof(void *));
    return register_or_fail(api, kind, list, destroy);
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    return create_list("aclCreateTensorList", MGRT_HANDLE_TENSOR_LIST, MGRT_HANDLE_TENSOR,
                       (const void *const *)value, size, destroy_tensor_list);
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
    return create_list("aclCreateScalarList", MGRT_HANDLE_SCALAR_LIST, MGRT_HANDLE_SCALAR,
                       (const void *const *)value, size, destroy_scalar_list);
}

/* ---- destroy ------------------------------------------------------------------------ */

static aclnnStatus destroy_handle(const char *api, const char *name, const void *handle, mgrt_handle_kind kind) {
    if (handle == NULL) return ACLNN_SUCCESS; /* as CANN: destroying nothing succeeds */
    if (mgrt_handle_release(handle, kind)) return ACLNN_SUCCESS;
    return mgrt_fail_at(api, ACLNN_ERR_PARAM_INVALID, "%s: %s (%s %p) %s", api, name, mgrt_handle_kind_name(kind),
                        handle, mgrt_handle_describe(handle, kind));
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    return destroy_handle("aclDestroyScalar", "scalar", scalar, MGRT_HANDLE_SCALAR);
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    return destroy_handle("aclDestroyIntArray", "array", array, MGRT_HANDLE_INT_ARRAY);
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
    return destroy_handle("aclDestroyFloatArray", "array", array, MGRT_HANDLE_FLOAT_ARRAY);
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
    return destroy_handle("aclDestroyBoolArray", "array", array, MGRT_HANDLE_BOOL_ARRAY);
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    return destroy_handle("aclDestroyTensorList", "array", array, MGRT_HANDLE_TENSOR_LIST);
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
    return destroy_handle("aclDestroyScalarList", "array", array, MGRT_HANDLE_SCALAR_LIST);
}

/* ---- sizes ------------------------------------------------------------------------- */

static aclnnStatus get_size(const char *api, const char *name, const void *handle, mgrt_handle_kind kind,
                            uint64_t *size) {
    if (handle == NULL || size == NULL)
        return mgrt_fail_at(api, ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, handle == NULL ? name : "size");
    array_object *a = mgrt_handle_pin(handle, kind);
    if (a == NULL) return nnop_check_handle(handle, kind, api, name, ACLNN_ERR_PARAM_NULLPTR);
    *size = a->size;
    mgrt_handle_unpin(handle);
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
    return get_size("aclGetIntArraySize", "array", array, MGRT_HANDLE_INT_ARRAY, size);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size) {
    return get_size("aclGetFloatArraySize", "array", array, MGRT_HANDLE_FLOAT_ARRAY, size);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size) {
    return get_size("aclGetBoolArraySize", "array", array, MGRT_HANDLE_BOOL_ARRAY, size);
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
    return get_size("aclGetTensorListSize", "tensorList", tensorList, MGRT_HANDLE_TENSOR_LIST, size);
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size) {
    return get_size("aclGetScalarListSize", "scalarList", scalarList, MGRT_HANDLE_SCALAR_LIST, size);
}

aclnnStatus nnop_tensor_list_size(const aclTensorList *list, const char *api, const char *name, uint64_t *size) {
    if (list == NULL) return mgrt_fail_at(api, ACLNN_ERR_INNER_NULLPTR, "%s: %s is NULL", api, name);
    return get_size(api, name, list, MGRT_HANDLE_TENSOR_LIST, size);
}

int nnop_tensor_list_null_at(const aclTensorList *list, uint64_t index) {
    const array_object *a = mgrt_handle_pin(list, MGRT_HANDLE_TENSOR_LIST);
    if (a == NULL) return -1;
    int null_element = -1;
    if (index < a->size) null_element = ((const void *const *)(const void *)a->values)[index] == NULL;
    mgrt_handle_unpin(list);
    return null_element;
}

/* ---- aclnnInit / aclnnFinalize ------------------------------------------------------ */

/* CANN's aclnnInit loads the operator packages and reads the optional JSON debug config
   (op_debug_config.enable_debug_kernel); a missing or unreadable file is not an error.
   Here the operators are linked in, so there is nothing to load: both calls succeed,
   any number of times, with or without aclInit, and aclnnFinalize destroys no handle
   (aclFinalize reclaims those). */
aclnnStatus aclnnInit(const char *configPath) {
    if (configPath != NULL && *configPath != '\0' && access(configPath, R_OK) != 0)
        mgrt_log(MGRT_LOG_INFO, "OP", "aclnnInit: config file \"%s\" cannot be read; using the defaults", configPath);
    mgrt_log(MGRT_LOG_INFO, "OP", "aclnnInit: the operators are linked in; nothing to load");
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) {
    mgrt_log(MGRT_LOG_INFO, "OP", "aclnnFinalize: nothing to release (aclFinalize reclaims leftover handles)");
    return ACLNN_SUCCESS;
}

/* For opdev's l0 ops (Reshape, BroadcastTo to an aclIntArray shape). */
aclnnStatus nnop_int_array_values(const aclIntArray *array, int64_t *values, uint64_t capacity, uint64_t *size) {
    array_object *a = mgrt_handle_pin(array, MGRT_HANDLE_INT_ARRAY);
    if (a == NULL)
        return nnop_check_handle(array, MGRT_HANDLE_INT_ARRAY, "nnop_int_array_values", "array",
                                 ACLNN_ERR_PARAM_NULLPTR);
    *size = a->size;
    uint64_t n = a->size < capacity ? a->size : capacity;
    if (n > 0) memcpy(values, a->values, (size_t)n * sizeof(int64_t));
    mgrt_handle_unpin(array);
    return ACLNN_SUCCESS;
}

/* For opdev's aclScalar face: the scalar's dtype and value bytes (up to `capacity`). */
aclnnStatus nnop_scalar_value(const aclScalar *scalar, aclDataType *dtype, void *value, size_t capacity) {
    scalar_object *s = mgrt_handle_pin(scalar, MGRT_HANDLE_SCALAR);
    if (s == NULL)
        return nnop_check_handle(scalar, MGRT_HANDLE_SCALAR, "nnop_scalar_value", "scalar", ACLNN_ERR_PARAM_NULLPTR);
    *dtype = s->dtype;
    memcpy(value, s->value, s->size < capacity ? s->size : capacity);
    mgrt_handle_unpin(scalar);
    return ACLNN_SUCCESS;
}
