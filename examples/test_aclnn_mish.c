/*
 * examples/test_aclnn_mish.c: aclnnMish called the way a CANN sample calls it, in C11.
 *
 *   aclInit -> aclrtSetDevice -> aclrtCreateStream
 *   -> aclrtMalloc + aclrtMemcpy + aclCreateTensor for self and out
 *   -> aclnnMishGetWorkspaceSize -> aclrtMalloc(workspace) if it is not 0
 *   -> aclnnMish -> aclrtSynchronizeStream -> aclrtMemcpy the result back
 *   -> aclDestroyTensor, aclrtFree, aclrtDestroyStream, aclrtResetDevice, aclFinalize
 *
 * self = {1, 2, 3, 4, 5, 7, 8, 9} as a [4, 2] float tensor (ops-nn's example data), and
 * out written through a transposed view, so the plan needs a workspace (ViewCopy). Each
 * result is compared with mish(x) = x * tanh(log(1 + e^x)) evaluated in double on the
 * host; the last line says "passed" (exit 0) or "FAILED" (exit 1).
 *
 * Build against an installed MishGradV2 (or CANN):
 *   cc -std=c11 test_aclnn_mish.c -I$PREFIX/include -L$PREFIX/lib -Wl,-rpath,$PREFIX/lib \
 *      -lcust_opapi -lnnopbase -lascendcl -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"

#define ROWS 4
#define COLS 2
#define COUNT (ROWS * COLS)

#define TRY(call, what)                                                                  \
    do {                                                                                 \
        int status_ = (int)(call);                                                       \
        if (status_ != 0) {                                                              \
            const char *message_ = aclGetRecentErrMsg();                                 \
            printf("%s failed. ERROR: %d (%s)\n", what, status_, message_ ? message_ : ""); \
            return status_;                                                              \
        }                                                                                \
    } while (0)

typedef struct Resources {
    aclrtStream stream;
    void *selfDevice, *outDevice, *workspace;
    aclTensor *self, *out;
} Resources;

static double MishReference(double x)
{
    return x * tanh(x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)));
}

static int Run(Resources *r, int *mismatches)
{
    const float selfHost[COUNT] = {1, 2, 3, 4, 5, 7, 8, 9};
    const size_t bytes = sizeof selfHost;
    TRY(aclrtMalloc(&r->selfDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(self)");
    TRY(aclrtMalloc(&r->outDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(out)");
    TRY(aclrtMemcpy(r->selfDevice, bytes, selfHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");

    /* self: a dense [4, 2]. out: a [4, 2] view of a [2, 4] buffer (strides {1, 4}), so
       out[i][j] lands at element j * 4 + i. */
    const int64_t shape[2] = {ROWS, COLS}, selfStrides[2] = {COLS, 1}, outStrides[2] = {1, ROWS};
    const int64_t storage[1] = {COUNT};
    r->self = aclCreateTensor(shape, 2, ACL_FLOAT, selfStrides, 0, ACL_FORMAT_ND, storage, 1, r->selfDevice);
    r->out = aclCreateTensor(shape, 2, ACL_FLOAT, outStrides, 0, ACL_FORMAT_ND, storage, 1, r->outDevice);
    if (r->self == NULL || r->out == NULL) {
        printf("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = NULL;
    TRY(aclnnMishGetWorkspaceSize(r->self, r->out, &workspaceSize, &executor), "aclnnMishGetWorkspaceSize");
    printf("workspace: %llu bytes (out is not contiguous)\n", (unsigned long long)workspaceSize);
    if (workspaceSize > 0) {
        TRY(aclrtMalloc(&r->workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(workspace)");
    }
    TRY(aclnnMish(r->workspace, workspaceSize, executor, r->stream), "aclnnMish");
    TRY(aclrtSynchronizeStream(r->stream), "aclrtSynchronizeStream");

    float outHost[COUNT];
    TRY(aclrtMemcpy(outHost, bytes, r->outDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            double x = selfHost[i * COLS + j], want = MishReference(x);
            float got = outHost[j * ROWS + i];
            int ok = fabs(got - want) <= 1e-6 * (1 + fabs(want));
            printf("mish(%g) = %f (expected %f)%s\n", x, got, want, ok ? "" : "  MISMATCH");
            *mismatches += !ok;
        }
    }
    return 0;
}

int main(void)
{
    Resources r = {0};
    int mismatches = 0;
    int status = aclInit(NULL);
    if (status == ACL_SUCCESS) status = aclrtSetDevice(0);
    if (status == ACL_SUCCESS) status = aclrtCreateStream(&r.stream);
    if (status == ACL_SUCCESS) {
        status = Run(&r, &mismatches);
    } else {
        printf("runtime set-up failed. ERROR: %d (%s)\n", status, aclGetRecentErrMsg());
    }

    if (r.self != NULL) aclDestroyTensor(r.self);
    if (r.out != NULL) aclDestroyTensor(r.out);
    if (r.selfDevice != NULL) aclrtFree(r.selfDevice);
    if (r.outDevice != NULL) aclrtFree(r.outDevice);
    if (r.workspace != NULL) aclrtFree(r.workspace);
    if (r.stream != NULL) aclrtDestroyStream(r.stream);
    aclrtResetDevice(0);
    aclFinalize();

    int passed = status == 0 && mismatches == 0;
    printf("%s\n", passed ? "passed" : "FAILED");
    return passed ? 0 : 1;
}
