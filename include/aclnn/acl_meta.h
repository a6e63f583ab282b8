/*
 * aclnn/acl_meta.h: tensors and executors, the objects every ACLNN operator takes.
 *
 * Element idx of a tensor's view lives at
 *     tensorData + (offset + sum(idx[i] * stride[i])) * sizeof(dtype)
 * with strides and offset in elements. storageDims is the extent of the buffer behind it.
 * aclCreateTensor only records the descriptor; an operator's first phase validates it.
 */
#ifndef ACLNN_ACL_META_H_
#define ACLNN_ACL_META_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NULLPTR 561103

typedef struct aclTensor aclTensor;
typedef struct aclOpExecutor aclOpExecutor;

/* Returns NULL (and sets the recent error message) when the descriptor cannot be stored:
   viewDims NULL with viewDimsNum > 0, storageDims NULL with storageDimsNum > 0, or out of
   memory. stride NULL means the row-major strides of the view. Other faults (negative
   dims, a view outside its storage, ...) are reported by the operator that receives it. */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t *stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t *storageDims, uint64_t storageDimsNum,
                                               void *tensorData);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);

/* Getters. Arrays come back in memory from malloc that the caller releases with free(). */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims,
                                                uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                                  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);

/* Executors. By default an executor runs once and its second phase releases it.
   aclSetAclOpExecutorRepeatable, called right after the first phase, keeps it for many
   runs; the caller then releases it with aclDestroyAclOpExecutor. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);
/* Point input `index` (output `index`) of a repeatable executor at new memory `addr`; the
   tensor's descriptor must be the one the first phase saw. Also updates `tensor`. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
                                                      aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
                                                       aclTensor *tensor, void *addr);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_ACL_META_H_ */
