/*
 * examples/test_aclnn_inplace_mish.cpp: aclnnInplaceMish in the style of CANN's C++
 * operator samples, on a non-contiguous selfRef.
 *
 * The device buffer holds a [3, 8] float matrix; selfRef is every other column of it, a
 * [3, 4] view with strides {8, 2}. aclnnInplaceMish overwrites exactly those 12 elements
 * with mish(x) (a dense copy in the workspace, computed in place, scattered back) and
 * leaves the other 12 as they were. Checked against a double-precision mish on the host;
 * prints "passed" or "FAILED".
 *
 *   g++ test_aclnn_inplace_mish.cpp -I$PREFIX/include -L$PREFIX/lib -Wl,-rpath,$PREFIX/lib \
 *       -lcust_opapi -lnnopbase -lascendcl
 */
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(...) std::printf(__VA_ARGS__)

namespace {

constexpr int64_t kRows = 3;
constexpr int64_t kBufferCols = 8;
constexpr int64_t kViewCols = 4;

double MishReference(double x)
{
    return x * std::tanh(x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)));
}

struct Sample {
    aclrtStream stream = nullptr;
    void *bufferDevice = nullptr;
    void *workspace = nullptr;
    aclTensor *selfRef = nullptr;

    ~Sample()
    {
        if (selfRef != nullptr) aclDestroyTensor(selfRef);
        if (bufferDevice != nullptr) aclrtFree(bufferDevice);
        if (workspace != nullptr) aclrtFree(workspace);
        if (stream != nullptr) aclrtDestroyStream(stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
};

int Run(Sample &s, const std::vector<float> &host, std::vector<float> &result)
{
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(0);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(&s.stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);

    size_t bytes = host.size() * sizeof(float);
    ret = aclrtMalloc(&s.bufferDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(s.bufferDevice, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

    std::vector<int64_t> viewShape = {kRows, kViewCols}, strides = {kBufferCols, 2};
    std::vector<int64_t> storageShape = {kRows, kBufferCols};
    s.selfRef = aclCreateTensor(viewShape.data(), viewShape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                storageShape.data(), storageShape.size(), s.bufferDevice);
    CHECK_RET(s.selfRef != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return 1);

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnInplaceMishGetWorkspaceSize(s.selfRef, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnInplaceMishGetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    LOG_PRINT("workspace: %llu bytes (selfRef is not contiguous)\n", static_cast<unsigned long long>(workspaceSize));
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&s.workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = aclnnInplaceMish(s.workspace, workspaceSize, executor, s.stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceMish failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(s.stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    result.assign(host.size(), 0.0f);
    ret = aclrtMemcpy(result.data(), bytes, s.bufferDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    return 0;
}

}  // namespace

int main()
{
    std::vector<float> host;
    for (int64_t i = 0; i < kRows * kBufferCols; i++) host.push_back(-3.0f + 0.375f * static_cast<float>(i));
    std::vector<float> result;
    int failures = 0;
    int ret;
    {
        Sample sample;
        ret = Run(sample, host, result);
    }
    for (size_t i = 0; ret == 0 && i < host.size(); i++) {
        bool inView = (i % kBufferCols) % 2 == 0;
        double want = inView ? MishReference(host[i]) : host[i];
        bool ok = std::fabs(result[i] - want) <= 1e-6 * (1 + std::fabs(want));
        LOG_PRINT("buffer[%zu] = %f: %s %f%s\n", i, result[i], inView ? "mish of" : "untouched", host[i],
                  ok ? "" : "  MISMATCH");
        failures += ok ? 0 : 1;
    }
    bool passed = ret == 0 && failures == 0;
    LOG_PRINT("%s\n", passed ? "passed" : "FAILED");
    return passed ? 0 : 1;
}
