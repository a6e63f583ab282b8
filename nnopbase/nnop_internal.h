/*
 * nnopbase/nnop_internal.h: what the files of libnnopbase share and nothing else sees.
 * Operators reach tensors only through nnop.h (handles, nnop_view); programs only through
 * the public handles, which are registry tokens (runtime/mgrt_handle.h).
 */
#ifndef NNOP_INTERNAL_H_
#define NNOP_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>

#include "mgrt.h"
#include "mgrt_handle.h"
#include "nnop.h"

/* The lock of an object of the tensor base (nnop_lock.c): a mutex that a forked child
   makes afresh at its first use there, so no child inherits it held by a thread that does
   not exist in the child. */
typedef struct nnop_lock {
    pthread_mutex_t mutex;
    atomic_uint generation; /* the fork generation it was made in */
} nnop_lock;
void nnop_lock_init(nnop_lock *l);
void nnop_lock_take(nnop_lock *l);
void nnop_lock_give(nnop_lock *l);
void nnop_lock_destroy(nnop_lock *l);

/* The object behind an aclTensor handle. The arrays are one allocation (dims), replaced
   as a whole by aclInitTensor. `lock` guards every field but `data` (atomic): aclInitTensor
   rewrites the descriptor under it, and every reader (nnop_tensor_snapshot, the getters)
   copies what it needs under it, so no reader sees half of two descriptors or holds an
   array aclInitTensor has freed (it frees the old arrays after unlocking). */
typedef struct nnop_tensor {
    nnop_lock lock;
    uint64_t rank;          /* number of view dims */
    uint64_t storage_rank;
    aclDataType dtype;
    aclFormat format;
    int64_t offset;         /* elements */
    _Atomic(void *) data;   /* storage start; aclSet*TensorAddr may change it on any thread */
    int64_t *view_dims;     /* [rank] */
    int64_t *strides;       /* [rank], elements */
    int64_t *storage_dims;  /* [storage_rank] */
} nnop_tensor;

/* The tensor behind a handle, pinned (NULL when the handle is not a live aclTensor);
   every successful pin is matched by nnop_tensor_unpin. */
nnop_tensor *nnop_tensor_pin(const aclTensor *handle);
void nnop_tensor_unpin(const aclTensor *handle);

/* 161001 (`null_code` as given) for NULL, 161002 for a handle that is not a live object of
   `kind`, with a message naming argument `name` of `api`; 0 for a live one. */
aclnnStatus nnop_check_handle(const void *handle, mgrt_handle_kind kind, const char *api, const char *name,
                              aclnnStatus null_code);

/* aclTensorList's size (acl_meta_objects.c): 0 and *size set, or 561103 for NULL / 161002
   for a stale list with the message set, naming argument `name` of `api`. */
aclnnStatus nnop_tensor_list_size(const aclTensorList *list, const char *api, const char *name, uint64_t *size);
/* Whether element `index` of a live list is NULL: 1 or 0; -1 for a list that is not live
   or an index past its end. */
int nnop_tensor_list_null_at(const aclTensorList *list, uint64_t index);

#endif /* NNOP_INTERNAL_H_ */
