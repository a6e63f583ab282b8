/*
 * acl/acl_base.h: the types, enums and status codes that CANN's ACL headers share.
 * Values are CANN's own, so a program written for CANN compiles here unchanged.
 */
#ifndef ACL_ACL_BASE_H_
#define ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define ACL_FUNC_VISIBILITY __declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

typedef int aclError;
typedef uint16_t aclFloat16;
typedef void *aclrtStream;
typedef void *aclrtContext;

#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_INVALID_DEVICE 100031
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_INTERNAL_ERROR 507000

typedef enum aclDataType {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27
} aclDataType;

typedef enum aclFormat {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30
} aclFormat;

/* Bytes of one element of `dataType`; 0 for types without a fixed size. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);
/* IEEE binary16 <-> float32; the narrowing rounds to nearest-even and keeps NaN quiet. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_H_ */
