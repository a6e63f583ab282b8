/*
 * acl/error_codes/ge_error_codes.h: the graph engine's status codes (ACL_ERROR_GE_*), with
 * CANN's values and type (uint32_t). Nothing in MishGradV2 returns them; they are here so
 * that a CANN program naming them compiles. Included by acl/acl_base.h.
 */
#ifndef ACL_ERROR_CODES_GE_ERROR_CODES_H_
#define ACL_ERROR_CODES_GE_ERROR_CODES_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_MSC_VER)
#define GE_FUNC_VISIBILITY
#else
#define GE_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#define ACL_ERROR_GE_PARAM_INVALID                       ((uint32_t)145000U)
#define ACL_ERROR_GE_EXEC_NOT_INIT                       ((uint32_t)145001U)
#define ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID             ((uint32_t)145002U)
#define ACL_ERROR_GE_EXEC_MODEL_ID_INVALID               ((uint32_t)145003U)
#define ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID        ((uint32_t)145006U)
#define ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID             ((uint32_t)145007U)
#define ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID         ((uint32_t)145008U)
#define ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED            ((uint32_t)145009U)
#define ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID          ((uint32_t)145011U)
#define ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID        ((uint32_t)145012U)
#define ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID          ((uint32_t)145013U)
#define ACL_ERROR_GE_AIPP_BATCH_EMPTY                    ((uint32_t)145014U)
#define ACL_ERROR_GE_AIPP_NOT_EXIST                      ((uint32_t)145015U)
#define ACL_ERROR_GE_AIPP_MODE_INVALID                   ((uint32_t)145016U)
#define ACL_ERROR_GE_OP_TASK_TYPE_INVALID                ((uint32_t)145017U)
#define ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID              ((uint32_t)145018U)
#define ACL_ERROR_GE_PLGMGR_PATH_INVALID                 ((uint32_t)145019U)
#define ACL_ERROR_GE_FORMAT_INVALID                      ((uint32_t)145020U)
#define ACL_ERROR_GE_SHAPE_INVALID                       ((uint32_t)145021U)
#define ACL_ERROR_GE_DATATYPE_INVALID                    ((uint32_t)145022U)
#define ACL_ERROR_GE_MEMORY_ALLOCATION                   ((uint32_t)245000U)
#define ACL_ERROR_GE_MEMORY_OPERATE_FAILED               ((uint32_t)245001U)
#define ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED        ((uint32_t)245002U)
#define ACL_ERROR_GE_SUBHEALTHY                          ((uint32_t)345102U)
#define ACL_ERROR_GE_USER_RAISE_EXCEPTION                ((uint32_t)345103U)
#define ACL_ERROR_GE_DATA_NOT_ALIGNED                    ((uint32_t)345104U)
#define ACL_ERROR_GE_INTERNAL_ERROR                      ((uint32_t)545000U)
#define ACL_ERROR_GE_LOAD_MODEL                          ((uint32_t)545001U)
#define ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED    ((uint32_t)545002U)
#define ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED   ((uint32_t)545003U)
#define ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED     ((uint32_t)545004U)
#define ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED   ((uint32_t)545005U)
#define ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA             ((uint32_t)545006U)
#define ACL_ERROR_GE_COMMAND_HANDLE                      ((uint32_t)545007U)
#define ACL_ERROR_GE_GET_TENSOR_INFO                     ((uint32_t)545008U)
#define ACL_ERROR_GE_UNLOAD_MODEL                        ((uint32_t)545009U)
#define ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT               ((uint32_t)545601U)
#define ACL_ERROR_GE_REDEPLOYING                         ((uint32_t)545602U)

#endif /* ACL_ERROR_CODES_GE_ERROR_CODES_H_ */
