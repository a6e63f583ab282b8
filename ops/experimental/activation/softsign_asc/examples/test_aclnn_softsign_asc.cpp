// aclnnSoftsignAsc as a CANN program uses it (build with CANN's flags against the package,
// run after `source <prefix>/set_env.sh`): float32 values against softsign in double.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
// the package's master header (every aclnn header of it), as ops-nn's custom-package examples include it
#include "aclnnop/aclnn_ops_nn_custom.h"

static double Softsign(double x) { return x / (1.0 + std::fabs(x)); }

int main()
{
    const std::vector<float> x = {-20.0f, -3.0f, -1.0f, -0.5f, 0.0f, 0.25f, 1.0f, 2.5f, 6.0f, 30.0f};
    const int64_t n = static_cast<int64_t>(x.size());
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS)
        return 1;
    void *xd = nullptr, *yd = nullptr, *ws = nullptr;
    aclrtMalloc(&xd, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&yd, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xd, n * sizeof(float), x.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    int64_t stride = 1;
    aclTensor *xt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, xd);
    aclTensor *yt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, yd);
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    aclnnStatus ret = aclnnSoftsignAscGetWorkspaceSize(xt, yt, &size, &executor);
    if (ret != ACL_SUCCESS) {
        std::printf("aclnnSoftsignAscGetWorkspaceSize failed: %d %s\n", ret, aclGetRecentErrMsg());
        return 1;
    }
    if (size > 0) aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST);
    ret = aclnnSoftsignAsc(ws, size, executor, stream);
    if (ret != ACL_SUCCESS || aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::printf("aclnnSoftsignAsc failed: %d %s\n", ret, aclGetRecentErrMsg());
        return 1;
    }
    std::vector<float> y(x.size());
    aclrtMemcpy(y.data(), n * sizeof(float), yd, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++) {
        const double want = Softsign(x[i]);
        const bool ok = std::fabs(y[i] - want) <= 1e-6 + 1e-6 * std::fabs(want);
        bad += !ok;
        std::printf("softsign(%g) = %.7g (float64 %.7g)%s\n", x[i], y[i], want, ok ? "" : "  MISMATCH");
    }
    aclDestroyTensor(xt);
    aclDestroyTensor(yt);
    aclrtFree(xd);
    aclrtFree(yd);
    if (ws != nullptr) aclrtFree(ws);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("%s\n", bad == 0 ? "passed" : "FAILED");
    return bad == 0 ? 0 : 1;
}
