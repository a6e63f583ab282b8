/*
 * tests/package/package_probe.c: a small consumer of the installed package that reports
 * what it saw, one "key=value" line per fact, for the package test scripts to judge under
 * different environments (product profiles, log switches).
 *
 *   package_probe soc              aclInit's status and aclrtGetSocName()
 *   package_probe run DTYPE        the doc's example in DTYPE (float|float16|bfloat16):
 *                                  each phase's status and whether the values are right
 *   package_probe null-argument    phase 1 with gradOutput NULL (an error to be logged)
 *   package_probe version          the version the installed headers declare
 *   package_probe leak             aclFinalize with a block and a stream left alive
 *
 * Exit status 0 when the probe ran (whatever it found), 2 on a usage error.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mishgrad/version.h"

static const float kGrad[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static const float kSelf[8] = {1, 1, 1, 2, 2, 2, 3, 3};

/* Round-to-nearest-even float32 -> 16-bit, for the doc's small integers only (exact in both
   16-bit types, so no rounding actually happens). */
static uint16_t small_integer_to_f16(float value) {
    if (value == 0.0f) return 0;
    int exponent = 0;
    float mantissa = frexpf(value, &exponent); /* value = mantissa * 2^exponent, mantissa in [0.5, 1) */
    uint16_t fraction = (uint16_t)((mantissa * 2.0f - 1.0f) * 1024.0f);
    return (uint16_t)(((exponent - 1 + 15) << 10) | fraction);
}

static uint16_t small_integer_to_bf16(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return (uint16_t)(bits >> 16);
}

static float f16_to_float(uint16_t h) {
    int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
    float magnitude = exponent == 0 ? ldexpf((float)fraction, -24) : ldexpf((float)(1024 + fraction), exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

static float bf16_to_float(uint16_t b) {
    uint32_t bits = (uint32_t)b << 16;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static double reference(double grad, double x) {
    double t = tanh(fmax(x, 0.0) + log1p(exp(-fabs(x))));
    return grad * (t + x * (1.0 - t * t) / (1.0 + exp(-x)));
}

/* 1 once aclInit succeeded: only then is there a runtime to stop. */
static int g_runtime_started;

static int start_runtime(aclrtStream *stream) {
    aclError status = aclInit(NULL);
    printf("aclInit=%d\n", status);
    g_runtime_started = status == ACL_SUCCESS;
    if (status != ACL_SUCCESS) {
        printf("message=%s\n", aclGetRecentErrMsg());
        return status;
    }
    const char *soc = aclrtGetSocName();
    printf("soc=%s\n", soc ? soc : "(null)");
    status = aclrtSetDevice(0);
    if (status == ACL_SUCCESS) status = aclrtCreateStream(stream);
    return status;
}

static void stop_runtime(aclrtStream stream) {
    if (!g_runtime_started) return;
    if (stream != NULL) aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
}

static aclTensor *make_tensor(aclDataType dtype, const void *host, size_t bytes, void **device) {
    const int64_t shape[2] = {4, 2};
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return NULL;
    if (aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return NULL;
    return aclCreateTensor(shape, 2, dtype, NULL, 0, ACL_FORMAT_ND, shape, 2, *device);
}

static int probe_run(const char *dtype_name) {
    aclDataType dtype;
    size_t element_size;
    if (strcmp(dtype_name, "float") == 0) {
        dtype = ACL_FLOAT, element_size = 4;
    } else if (strcmp(dtype_name, "float16") == 0) {
        dtype = ACL_FLOAT16, element_size = 2;
    } else if (strcmp(dtype_name, "bfloat16") == 0) {
        dtype = ACL_BF16, element_size = 2;
    } else {
        fprintf(stderr, "unknown dtype %s\n", dtype_name);
        return 2;
    }

    aclrtStream stream = NULL;
    if (start_runtime(&stream) != ACL_SUCCESS) {
        stop_runtime(stream);
        return 0;
    }
    unsigned char grad_host[32], self_host[32], out_host[32] = {0};
    for (int i = 0; i < 8; i++) {
        if (dtype == ACL_FLOAT) {
            memcpy(grad_host + 4 * i, &kGrad[i], 4);
            memcpy(self_host + 4 * i, &kSelf[i], 4);
        } else {
            uint16_t g = dtype == ACL_FLOAT16 ? small_integer_to_f16(kGrad[i]) : small_integer_to_bf16(kGrad[i]);
            uint16_t x = dtype == ACL_FLOAT16 ? small_integer_to_f16(kSelf[i]) : small_integer_to_bf16(kSelf[i]);
            memcpy(grad_host + 2 * i, &g, 2);
            memcpy(self_host + 2 * i, &x, 2);
        }
    }
    size_t bytes = 8 * element_size;
    void *grad_dev = NULL, *self_dev = NULL, *out_dev = NULL;
    aclTensor *grad = make_tensor(dtype, grad_host, bytes, &grad_dev);
    aclTensor *self = make_tensor(dtype, self_host, bytes, &self_dev);
    aclTensor *out = make_tensor(dtype, out_host, bytes, &out_dev);

    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus phase1 = aclnnMishBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor);
    printf("phase1=%d\n", phase1);
    if (phase1 != ACLNN_SUCCESS) {
        printf("message=%s\n", aclGetRecentErrMsg());
    } else {
        aclnnStatus phase2 = aclnnMishBackward(NULL, workspace_size, executor, stream);
        aclError sync = aclrtSynchronizeStream(stream);
        printf("phase2=%d\nsync=%d\n", phase2, sync);
        aclrtMemcpy(out_host, sizeof out_host, out_dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        int right = 1;
        for (int i = 0; i < 8; i++) {
            float actual;
            if (dtype == ACL_FLOAT) {
                memcpy(&actual, out_host + 4 * i, 4);
            } else {
                uint16_t h;
                memcpy(&h, out_host + 2 * i, 2);
                actual = dtype == ACL_FLOAT16 ? f16_to_float(h) : bf16_to_float(h);
            }
            double expected = reference(kGrad[i], kSelf[i]);
            /* One unit in the last place of the stored type bounds the error. */
            double relative = dtype == ACL_FLOAT ? 1e-5 : dtype == ACL_FLOAT16 ? 0x1p-10 : 0x1p-7;
            if (fabs(actual - expected) > 1e-6 + relative * fabs(expected)) right = 0;
        }
        printf("values=%s\n", right ? "right" : "wrong");
    }
    aclDestroyTensor(grad);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclrtFree(grad_dev);
    aclrtFree(self_dev);
    aclrtFree(out_dev);
    stop_runtime(stream);
    return 0;
}

static int probe_null_argument(void) {
    aclrtStream stream = NULL;
    if (start_runtime(&stream) == ACL_SUCCESS) {
        const int64_t shape[1] = {8};
        void *device = NULL;
        aclrtMalloc(&device, 32, ACL_MEM_MALLOC_HUGE_FIRST);
        aclTensor *t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, device);
        uint64_t workspace_size = 0;
        aclOpExecutor *executor = NULL;
        aclnnStatus status = aclnnMishBackwardGetWorkspaceSize(NULL, t, t, &workspace_size, &executor);
        printf("phase1=%d\nmessage=%s\n", status, aclGetRecentErrMsg());
        aclDestroyTensor(t);
        aclrtFree(device);
    }
    stop_runtime(stream);
    return 0;
}

/* A program that forgets to free: aclFinalize must say what it reclaimed. */
static int probe_leak(void) {
    aclrtStream stream = NULL;
    if (start_runtime(&stream) == ACL_SUCCESS) {
        void *device = NULL;
        printf("malloc=%d\n", aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        printf("finalize=%d\n", aclFinalize());
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "soc") == 0) {
        aclrtStream stream = NULL;
        start_runtime(&stream);
        stop_runtime(stream);
        return 0;
    }
    if (strcmp(mode, "run") == 0 && argc > 2) return probe_run(argv[2]);
    if (strcmp(mode, "null-argument") == 0) return probe_null_argument();
    if (strcmp(mode, "leak") == 0) return probe_leak();
    if (strcmp(mode, "version") == 0) {
        printf("version=%s\n", MISHGRAD_VERSION_STRING);
        return 0;
    }
    fprintf(stderr, "usage: %s soc | run float|float16|bfloat16 | null-argument | version | leak\n", argv[0]);
    return 2;
}
