/*
 * runtime/acl_base.c: what acl_base_rt.h declares besides the SoC name: element sizes, the
 * float16 conversions, data buffers and application log lines.
 */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid): the thread id CANN's app log lines carry */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

/* CANN's table: the sub-byte types count one byte, the 8-bit floats one, COMPLEX32 four;
   ACL_STRING and ACL_DT_UNDEFINED are 0, and any other value (the 6- and 4-bit floats
   among them) takes CANN's default of 8. */
size_t aclDataTypeSize(aclDataType dataType) {
    switch (dataType) {
    case ACL_STRING: case ACL_DT_UNDEFINED: return 0;
    case ACL_UINT1: case ACL_INT4: return 1;
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: return 1;
    case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_COMPLEX128: return 16;
    default: return 8;
    }
}

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* CANN's conversions work in saturation mode (what chips without infinities do): binary16's
   top exponent is an ordinary one, so 0x7c00 (+inf in IEEE) reads as 65536 and a NaN pattern
   such as 0x7e00 as 98304; the other way, NaN, infinities and everything that would round
   beyond 65504 become +-65504 (0x7bff / 0xfbff). Everything else is IEEE, rounded to
   nearest-even. */
float aclFloat16ToFloat(aclFloat16 value) {
    uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
    uint32_t exponent = (value >> 10) & 0x1fu;
    uint32_t mantissa = value & 0x3ffu;
    if (exponent == 0) {
        /* Subnormal binary16: mantissa * 2^-24, exact in float32. */
        float magnitude = (float)mantissa * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

aclFloat16 aclFloatToFloat16(float value) {
    uint32_t u = float_bits(value);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs_bits = u & 0x7fffffffu;
    /* NaN, infinity, or a value that rounds past 65504: the largest finite, signed. */
    if (abs_bits >= 0x477ff000u) return (aclFloat16)(sign | 0x7bffu);
    if (abs_bits < 0x38800000u) {
        /* Result is subnormal (or zero): scale so the binary16 unit is 1.0 and let the FPU
           round to nearest-even; the value is exact in float32 at that scale. */
        float scaled = bits_float(abs_bits) * 0x1p24f;
        uint32_t rounded = (uint32_t)(long)(scaled + 0x1p23f - 0x1p23f);
        return (aclFloat16)(sign | rounded);
    }
    /* Normal: re-bias the exponent, then round the 13 dropped bits to nearest-even. */
    uint32_t half = (abs_bits - 0x38000000u) >> 13;
    uint32_t rest = abs_bits & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
    return (aclFloat16)(sign | half);
}

/* ---- data buffers ------------------------------------------------------------------------ */

/* A data buffer is a registry handle (MGRT_HANDLE_DATA_BUFFER): a destroyed or foreign one is
   refused with a message, never dereferenced. Its two fields change under one lock, so a
   getter racing aclUpdateDataBuffer sees the old pair or the new one. */
struct buffer_object {
    void *data;
    size_t size;
};

static pthread_mutex_t buffer_lock = RT_MUTEX_INITIALIZER;

/* fork(): a child must not inherit this lock held (its first getter or update of a data buffer
   would hang for ever); every critical section is a few loads and stores. */
RT_FORK_SAFE_LOCK(buffer_lock, lock_buffers)

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
    struct buffer_object *buffer = mgrt_malloc(sizeof *buffer);
    void *token = NULL;
    if (buffer != NULL) {
        buffer->data = data;
        buffer->size = size;
        token = mgrt_handle_register(MGRT_HANDLE_DATA_BUFFER, buffer, mgrt_free);
        if (token == NULL) mgrt_free(buffer);
    }
    if (token == NULL) mgrt_fail_at("aclCreateDataBuffer", ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer: out of memory");
    return token;
}

/* The buffer behind `handle`, pinned; NULL with the message set. */
static struct buffer_object *pin_buffer(const char *api, const aclDataBuffer *handle) {
    if (handle == NULL) {
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dataBuffer is NULL", api);
        return NULL;
    }
    struct buffer_object *buffer = mgrt_handle_pin(handle, MGRT_HANDLE_DATA_BUFFER);
    if (buffer == NULL)
        mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: dataBuffer %p %s", api, (const void *)handle,
                     mgrt_handle_describe(handle, MGRT_HANDLE_DATA_BUFFER));
    return buffer;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
    static const char api[] = "aclDestroyDataBuffer";
    if (dataBuffer == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is NULL");
    if (!mgrt_handle_release(dataBuffer, MGRT_HANDLE_DATA_BUFFER))
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer %p %s",
                            (const void *)dataBuffer, mgrt_handle_describe(dataBuffer, MGRT_HANDLE_DATA_BUFFER));
    return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
    struct buffer_object *buffer = pin_buffer("aclUpdateDataBuffer", dataBuffer);
    if (buffer == NULL) return ACL_ERROR_INVALID_PARAM;
    lock_buffers();
    buffer->data = data;
    buffer->size = size;
    RT_UNLOCK(&buffer_lock);
    mgrt_handle_unpin(dataBuffer);
    return ACL_SUCCESS;
}

static int read_buffer(const char *api, const aclDataBuffer *handle, void **data, size_t *size) {
    struct buffer_object *buffer = pin_buffer(api, handle);
    if (buffer == NULL) return 0;
    lock_buffers();
    *data = buffer->data;
    *size = buffer->size;
    RT_UNLOCK(&buffer_lock);
    mgrt_handle_unpin(handle);
    return 1;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
    void *data = NULL;
    size_t size = 0;
    return read_buffer("aclGetDataBufferAddr", dataBuffer, &data, &size) ? data : NULL;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
    void *data = NULL;
    size_t size = 0;
    return read_buffer("aclGetDataBufferSizeV2", dataBuffer, &data, &size) ? size : 0;
}

/* Deprecated in CANN: the size cut to 32 bits, as CANN's does. */
uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
    void *data = NULL;
    size_t size = 0;
    return read_buffer("aclGetDataBufferSize", dataBuffer, &data, &size) ? (uint32_t)size : 0;
}

/* ---- application logs ------------------------------------------------------------------ */

/* As CANN's aclAppLog: nothing without a format, a function or a file name; the line's text
   is `<thread id> <func>:<file>:<line>: "<message>"`, the message cut at 1023 bytes. */
void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...) {
    int level = (int)logLevel;
    if (fmt == NULL || func == NULL || file == NULL) return;
    if (level < MGRT_LOG_DEBUG || level > MGRT_LOG_ERROR || !mgrt_log_enabled(level)) return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    int written = vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    if (written >= (int)sizeof text) memcpy(text + sizeof text - 16, "...[truncated]", 15);
    mgrt_log(level, "APP", "%ld %s:%s:%u: \"%s\"", (long)syscall(SYS_gettid), func, file, (unsigned)line, text);
}
