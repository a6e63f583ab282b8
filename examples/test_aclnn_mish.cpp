/*
 * examples/test_aclnn_mish.cpp: aclnnMish in the style of CANN's C++ operator samples.
 *
 * Init -> CreateAclTensor (self, out) -> aclnnMishGetWorkspaceSize -> workspace ->
 * aclnnMish -> aclrtSynchronizeStream -> copy back, check against a double-precision mish
 * on the host -> release. self is a float16 [2, 5] tensor here (the 16-bit path); the
 * results must be within one float16 unit of the reference. Prints "passed" or "FAILED".
 *
 *   g++ test_aclnn_mish.cpp -I$PREFIX/include -L$PREFIX/lib -Wl,-rpath,$PREFIX/lib \
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

int64_t GetShapeSize(const std::vector<int64_t> &shape)
{
    int64_t size = 1;
    for (int64_t d : shape) size *= d;
    return size;
}

int Init(int32_t deviceId, aclrtStream *stream)
{
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape, void **deviceAddr,
                    aclDataType dataType, aclTensor **tensor)
{
    auto size = GetShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                              shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return 1);
    return 0;
}

double MishReference(double x)
{
    return x * std::tanh(x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)));
}

/* Distance from `want` to `got` in float16 units at want's magnitude. */
double Float16Units(double got, double want)
{
    int exponent = 0;
    std::frexp(want, &exponent);
    if (exponent < -13) exponent = -13; /* the subnormal range has a fixed unit */
    return std::fabs(got - want) / std::ldexp(1.0, exponent - 11);
}

}  // namespace

int main()
{
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return 1);

    std::vector<int64_t> shape = {2, 5};
    std::vector<float> values = {-4.0f, -1.5f, -0.5f, 0.0f, 0.25f, 0.75f, 1.0f, 2.5f, 6.0f, 20.0f};
    std::vector<aclFloat16> selfHostData, outHostData(values.size(), 0);
    for (float v : values) selfHostData.push_back(aclFloatToFloat16(v));

    void *selfDeviceAddr = nullptr, *outDeviceAddr = nullptr, *workspaceAddr = nullptr;
    aclTensor *self = nullptr, *out = nullptr;
    int failures = 0;
    ret = CreateAclTensor(selfHostData, shape, &selfDeviceAddr, ACL_FLOAT16, &self);
    if (ret == 0) ret = CreateAclTensor(outHostData, shape, &outDeviceAddr, ACL_FLOAT16, &out);

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    if (ret == 0) {
        ret = aclnnMishGetWorkspaceSize(self, out, &workspaceSize, &executor);
        if (ret != 0) LOG_PRINT("aclnnMishGetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
    }
    if (ret == 0 && workspaceSize > 0) ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    if (ret == 0) {
        ret = aclnnMish(workspaceAddr, workspaceSize, executor, stream);
        if (ret != 0) LOG_PRINT("aclnnMish failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
    }
    if (ret == 0) ret = aclrtSynchronizeStream(stream);
    if (ret == 0) {
        auto size = GetShapeSize(shape);
        ret = aclrtMemcpy(outHostData.data(), size * sizeof(aclFloat16), outDeviceAddr, size * sizeof(aclFloat16),
                          ACL_MEMCPY_DEVICE_TO_HOST);
        for (int64_t i = 0; ret == 0 && i < size; i++) {
            double x = aclFloat16ToFloat(selfHostData[i]);
            double got = aclFloat16ToFloat(outHostData[i]);
            double want = MishReference(x);
            bool ok = Float16Units(got, want) <= 1.5; /* within 1 unit of the rounded value */
            LOG_PRINT("result[%ld] is: %f (mish(%g) = %f)%s\n", static_cast<long>(i), got, x, want,
                      ok ? "" : "  MISMATCH");
            failures += ok ? 0 : 1;
        }
    }

    if (self != nullptr) aclDestroyTensor(self);
    if (out != nullptr) aclDestroyTensor(out);
    if (selfDeviceAddr != nullptr) aclrtFree(selfDeviceAddr);
    if (outDeviceAddr != nullptr) aclrtFree(outDeviceAddr);
    if (workspaceAddr != nullptr) aclrtFree(workspaceAddr);
    if (stream != nullptr) aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    bool passed = ret == 0 && failures == 0;
    LOG_PRINT("%s\n", passed ? "passed" : "FAILED");
    return passed ? 0 : 1;
}
