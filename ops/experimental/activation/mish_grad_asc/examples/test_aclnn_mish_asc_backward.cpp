// aclnnMishAscBackward as a CANN program uses it (build with CANN's flags against the
// package, run after `source <prefix>/set_env.sh`): float32 values against
// grad * mish'(x) in double.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_asc_backward.h"

static double MishGrad(double g, double x)
{
    const double sp = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    const double t = std::tanh(sp);
    return g * (t + x * (1.0 - t * t) / (1.0 + std::exp(-x)));
}

int main()
{
    const std::vector<float> g = {1.0f, -0.5f, 0.25f, 1.5f, -1.0f, 0.75f, 0.5f, -0.25f};
    const std::vector<float> x = {-3.0f, -1.0f, -0.1f, 0.0f, 0.2f, 1.5f, 3.0f, 25.0f};
    const int64_t n = static_cast<int64_t>(x.size());
    const size_t bytes = x.size() * sizeof(float);
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS)
        return 1;
    void *gd = nullptr, *xd = nullptr, *od = nullptr, *ws = nullptr;
    aclrtMalloc(&gd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&od, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(gd, bytes, g.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    int64_t stride = 1;
    aclTensor *gt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, gd);
    aclTensor *xt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, xd);
    aclTensor *ot = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, od);
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    aclnnStatus ret = aclnnMishAscBackwardGetWorkspaceSize(gt, xt, ot, &size, &executor);
    if (ret != ACL_SUCCESS) {
        std::printf("aclnnMishAscBackwardGetWorkspaceSize failed: %d %s\n", ret, aclGetRecentErrMsg());
        return 1;
    }
    if (size > 0) aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST);
    ret = aclnnMishAscBackward(ws, size, executor, stream);
    if (ret != ACL_SUCCESS || aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::printf("aclnnMishAscBackward failed: %d %s\n", ret, aclGetRecentErrMsg());
        return 1;
    }
    std::vector<float> out(x.size());
    aclrtMemcpy(out.data(), bytes, od, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++) {
        const double want = MishGrad(g[i], x[i]);
        const bool ok = std::fabs(out[i] - want) <= 1e-5 + 1e-4 * std::fabs(want);
        bad += !ok;
        std::printf("grad %g, x %g: %.7g (float64 %.7g)%s\n", g[i], x[i], out[i], want, ok ? "" : "  MISMATCH");
    }
    aclDestroyTensor(gt);
    aclDestroyTensor(xt);
    aclDestroyTensor(ot);
    aclrtFree(gd);
    aclrtFree(xd);
    aclrtFree(od);
    if (ws != nullptr) aclrtFree(ws);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("%s\n", bad == 0 ? "passed" : "FAILED");
    return bad == 0 ? 0 : 1;
}
