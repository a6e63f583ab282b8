/*
 * acl/acl_base_rt.h: what every ACL header shares: the handle types, the ACL_ERROR_* status
 * codes, aclDataType and aclFormat (all with CANN's values), float16 conversion, data
 * buffers, aclDataTypeSize and aclrtGetSocName. Reached through acl/acl_base.h.
 *
 * CANN declares the ACL_ERROR_* codes as `static const int`; here they are macros of the
 * same values and type (int), so they also serve in C constant expressions (case labels,
 * _Static_assert) and a header that is included but not used costs no unused variable.
 */
#ifndef ACL_ACL_BASE_RT_H_
#define ACL_ACL_BASE_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The libraries export their symbols whatever the including program's visibility default. */
#if defined(_MSC_VER)
#define ACL_FUNC_VISIBILITY
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#if defined(__clang__) || (defined(__GNUC__) && (__GNUC__ >= 6))
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER)
#define ACL_DEPRECATED __declspec(deprecated)
#define ACL_DEPRECATED_MESSAGE(message) __declspec(deprecated(message))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* Handles. A stream, event or context handle is an opaque token the runtime checks on every
   call; it is never a pointer to be dereferenced. */
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef int aclError;
typedef uint16_t aclFloat16;
typedef struct aclDataBuffer aclDataBuffer;

#define ACL_ERROR_NONE 0
#define ACL_SUCCESS 0

#define ACL_ERROR_NONE                               0

#define ACL_ERROR_INVALID_PARAM                      100000
#define ACL_ERROR_UNINITIALIZE                       100001
#define ACL_ERROR_REPEAT_INITIALIZE                  100002
#define ACL_ERROR_INVALID_FILE                       100003
#define ACL_ERROR_WRITE_FILE                         100004
#define ACL_ERROR_INVALID_FILE_SIZE                  100005
#define ACL_ERROR_PARSE_FILE                         100006
#define ACL_ERROR_FILE_MISSING_ATTR                  100007
#define ACL_ERROR_FILE_ATTR_INVALID                  100008
#define ACL_ERROR_INVALID_DUMP_CONFIG                100009
#define ACL_ERROR_INVALID_PROFILING_CONFIG           100010
#define ACL_ERROR_INVALID_MODEL_ID                   100011
#define ACL_ERROR_DESERIALIZE_MODEL                  100012
#define ACL_ERROR_PARSE_MODEL                        100013
#define ACL_ERROR_READ_MODEL_FAILURE                 100014
#define ACL_ERROR_MODEL_SIZE_INVALID                 100015
#define ACL_ERROR_MODEL_MISSING_ATTR                 100016
#define ACL_ERROR_MODEL_INPUT_NOT_MATCH              100017
#define ACL_ERROR_MODEL_OUTPUT_NOT_MATCH             100018
#define ACL_ERROR_MODEL_NOT_DYNAMIC                  100019
#define ACL_ERROR_OP_TYPE_NOT_MATCH                  100020
#define ACL_ERROR_OP_INPUT_NOT_MATCH                 100021
#define ACL_ERROR_OP_OUTPUT_NOT_MATCH                100022
#define ACL_ERROR_OP_ATTR_NOT_MATCH                  100023
#define ACL_ERROR_OP_NOT_FOUND                       100024
#define ACL_ERROR_OP_LOAD_FAILED                     100025
#define ACL_ERROR_UNSUPPORTED_DATA_TYPE              100026
#define ACL_ERROR_FORMAT_NOT_MATCH                   100027
#define ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED        100028
#define ACL_ERROR_KERNEL_NOT_FOUND                   100029
#define ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED    100030
#define ACL_ERROR_KERNEL_ALREADY_REGISTERED          100031
#define ACL_ERROR_INVALID_QUEUE_ID                   100032
#define ACL_ERROR_REPEAT_SUBSCRIBE                   100033
#define ACL_ERROR_STREAM_NOT_SUBSCRIBE               100034
#define ACL_ERROR_THREAD_NOT_SUBSCRIBE               100035
#define ACL_ERROR_WAIT_CALLBACK_TIMEOUT              100036
#define ACL_ERROR_REPEAT_FINALIZE                    100037
#define ACL_ERROR_NOT_STATIC_AIPP                    100038
#define ACL_ERROR_COMPILING_STUB_MODE                100039
#define ACL_ERROR_GROUP_NOT_SET                      100040
#define ACL_ERROR_GROUP_NOT_CREATE                   100041
#define ACL_ERROR_PROF_ALREADY_RUN                   100042
#define ACL_ERROR_PROF_NOT_RUN                       100043
#define ACL_ERROR_DUMP_ALREADY_RUN                   100044
#define ACL_ERROR_DUMP_NOT_RUN                       100045
#define ACL_ERROR_PROF_REPEAT_SUBSCRIBE              148046
#define ACL_ERROR_PROF_API_CONFLICT                  148047
#define ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG     148048
#define ACL_ERROR_INVALID_OPP_PATH                   148049
#define ACL_ERROR_OP_UNSUPPORTED_DYNAMIC             148050
#define ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED      148051
#define ACL_ERROR_UNSUPPORTED_JPEG                   148052
#define ACL_ERROR_INVALID_BUNDLE_MODEL_ID            148053

#define ACL_ERROR_BAD_ALLOC                          200000
#define ACL_ERROR_API_NOT_SUPPORT                    200001
#define ACL_ERROR_INVALID_DEVICE                     200002
#define ACL_ERROR_MEMORY_ADDRESS_UNALIGNED           200003
#define ACL_ERROR_RESOURCE_NOT_MATCH                 200004
#define ACL_ERROR_INVALID_RESOURCE_HANDLE            200005
#define ACL_ERROR_FEATURE_UNSUPPORTED                200006
#define ACL_ERROR_PROF_MODULES_UNSUPPORTED           200007

#define ACL_ERROR_STORAGE_OVER_LIMIT                 300000

#define ACL_ERROR_INTERNAL_ERROR                     500000
#define ACL_ERROR_FAILURE                            500001
#define ACL_ERROR_GE_FAILURE                         500002
#define ACL_ERROR_RT_FAILURE                         500003
#define ACL_ERROR_DRV_FAILURE                        500004
#define ACL_ERROR_PROFILING_FAILURE                  500005

typedef enum {
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
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
} aclFormat;

typedef enum {
    ACL_DEBUG = 0,
    ACL_INFO = 1,
    ACL_WARNING = 2,
    ACL_ERROR = 3
} aclLogLevel;

typedef enum {
    ACL_MEMTYPE_DEVICE = 0,
    ACL_MEMTYPE_HOST = 1,
    ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2
} aclMemType;

/* IEEE binary16 <-> float32. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/* A data buffer names a block of memory (address and size); it owns nothing. NULL when
   memory runs out. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
/* Points the buffer at new memory; the old memory stays the caller's to free. */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);
/* NULL / 0 for a buffer that is not live. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/* Bytes of one element of `dataType`, by CANN's table: 1 for the sub-byte ACL_INT4 and
   ACL_UINT1 and the 8-bit types, 0 for ACL_STRING and ACL_DT_UNDEFINED, and CANN's default
   of 8 for any value the table does not list (the 6- and 4-bit floats among them). */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* An application log line through the runtime's logger (ASCEND_GLOBAL_LOG_LEVEL applies);
   the formatted text is cut at 1023 bytes. */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* The SoC profile in force (MISHGRAD_SOC_VERSION, read at aclInit); NULL before aclInit. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/* ACL_APP_LOG(level, fmt, ...): CANN's logging macro, in standard C (the format is the first
   variadic argument, so a format with no arguments needs no GNU extension). */
#define ACL_APP_LOG(level, ...) aclAppLog(level, __func__, __FILE__, __LINE__, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_RT_H_ */
