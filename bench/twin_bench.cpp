// bench/twin_bench.cpp: the project's seed-style AscendC kernel (ops/experimental/activation/
// mish_grad_asc, TPipe/TQue/DataCopyPad, run by the AscendC twin) against the project's native
// aclnnMishBackward, side by side in one process, float32 and bfloat16, 1e6 and 1e7 elements.
//
// Each twin call is what the op_api's phase 2 does for MishGradAsc: the host tiling
// (op_host/mish_grad_asc_tiling.cpp, through optiling), the instantiation its key selects,
// asc_twin_launch on an aclrtStream and the stream's synchronize. Each native call is
// aclnnMishBackwardGetWorkspaceSize + aclnnMishBackward + synchronize. Both use the runtime's
// thread pool (MISHGRAD_NUM_THREADS to pin it). Not a test: it prints the best of `repeats`
// times, the ratio, and the largest difference between the two outputs as a sanity check.
//
//   twin_bench [repeats]   (default 10)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "asc_twin/launch.h"
#include "optiling/mg_optiling.h"

namespace {
using Clock = std::chrono::steady_clock;

std::string CpuName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

uint16_t Bf16(float f) // round to nearest even (the inputs are finite)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float FromBf16(uint16_t b)
{
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

struct Buffers {
    void *grad = nullptr, *x = nullptr, *out = nullptr;
    size_t bytes = 0;
};

// The twin: tiling, kernel lookup, launch, synchronize. 0 or an error (printed).
int TwinCall(aclrtStream stream, const Buffers &b, int64_t n, int geDtype, void *workspace, size_t wsBytes)
{
    static mg_tiling_run run;
    std::memset(&run, 0, sizeof run);
    run.op_type = "MishGradAsc";
    run.input_num = 2;
    run.output_num = 1;
    for (mg_tensor_info *t : {&run.inputs[0], &run.inputs[1], &run.outputs[0]}) {
        t->present = 1;
        t->dtype = geDtype;
        t->format = 2; // ND
        t->origin.dim_num = 1;
        t->origin.dims[0] = n;
        t->storage = t->origin;
    }
    char message[256];
    if (mg_optiling_run(&run, message, sizeof message) != 0) {
        std::fprintf(stderr, "tiling: %s\n", message);
        return 1;
    }
    const asc_twin_kernel *k = asc_twin_find("mish_grad_asc", run.tiling_key);
    if (k == nullptr) {
        std::fprintf(stderr, "no kernel mish_grad_asc for key %llu\n", static_cast<unsigned long long>(run.tiling_key));
        return 1;
    }
    size_t want = 0;
    for (size_t i = 0; i < run.workspace_num; i++) want += run.workspaces[i];
    if (want > wsBytes) {
        std::fprintf(stderr, "the tiling asks for %zu workspace bytes, the bench has %zu\n", want, wsBytes);
        return 1;
    }
    uint8_t *args[5] = {static_cast<uint8_t *>(b.grad), static_cast<uint8_t *>(b.x), static_cast<uint8_t *>(b.out),
                        static_cast<uint8_t *>(workspace), nullptr};
    asc_twin_launch_args a{k, run.block_dim, args, 5, run.tiling, run.tiling_size};
    int rc = asc_twin_launch(stream, &a);
    if (rc == 0) rc = aclrtSynchronizeStream(stream);
    if (rc != 0) std::fprintf(stderr, "twin: %d %s\n", rc, aclGetRecentErrMsg());
    return rc;
}

int NativeCall(aclrtStream stream, aclTensor *g, aclTensor *x, aclTensor *out, void *workspace, size_t wsBytes)
{
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    int rc = aclnnMishBackwardGetWorkspaceSize(g, x, out, &size, &executor);
    if (rc == 0 && size > wsBytes) rc = ACLNN_ERR_INNER;
    if (rc == 0) rc = aclnnMishBackward(workspace, size, executor, stream);
    if (rc == 0) rc = aclrtSynchronizeStream(stream);
    if (rc != 0) std::fprintf(stderr, "native: %d %s\n", rc, aclGetRecentErrMsg());
    return rc;
}

template <typename F> double Best(int repeats, F call)
{
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        const auto t0 = Clock::now();
        if (call() != 0) return -1;
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
}

int Case(aclrtStream stream, int64_t n, bool bf16, int repeats)
{
    const size_t esize = bf16 ? 2 : 4;
    const aclDataType acl = bf16 ? ACL_BF16 : ACL_FLOAT;
    const int ge = bf16 ? 27 : 0; // ge::DT_BF16, ge::DT_FLOAT
    std::vector<uint8_t> gh(n * esize), xh(n * esize), a(n * esize), c(n * esize);
    uint64_t s = 12345;
    for (int64_t i = 0; i < n; i++) { // x in [-8, 8), g in [-1, 1): a deterministic LCG
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const float x = -8.0f + 16.0f * static_cast<float>(s >> 40) / 16777216.0f;
        const float g = -1.0f + 2.0f * static_cast<float>((s >> 16) & 0xFFFFFF) / 16777216.0f;
        if (bf16) {
            const uint16_t xb = Bf16(x), gb = Bf16(g);
            std::memcpy(&xh[2 * i], &xb, 2);
            std::memcpy(&gh[2 * i], &gb, 2);
        } else {
            std::memcpy(&xh[4 * i], &x, 4);
            std::memcpy(&gh[4 * i], &g, 4);
        }
    }
    Buffers b;
    b.bytes = n * esize;
    const size_t wsBytes = 64u << 20;
    void *ws = nullptr;
    if (aclrtMalloc(&b.grad, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&b.x, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&b.out, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&ws, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0)
        return 1;
    aclrtMemcpy(b.grad, b.bytes, gh.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(b.x, b.bytes, xh.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    const int64_t stride = 1;
    aclTensor *gt = aclCreateTensor(&n, 1, acl, &stride, 0, ACL_FORMAT_ND, &n, 1, b.grad);
    aclTensor *xt = aclCreateTensor(&n, 1, acl, &stride, 0, ACL_FORMAT_ND, &n, 1, b.x);
    aclTensor *ot = aclCreateTensor(&n, 1, acl, &stride, 0, ACL_FORMAT_ND, &n, 1, b.out);

    const double twin = Best(repeats, [&] { return TwinCall(stream, b, n, ge, ws, wsBytes); });
    aclrtMemcpy(a.data(), b.bytes, b.out, b.bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    const double native = Best(repeats, [&] { return NativeCall(stream, gt, xt, ot, ws, wsBytes); });
    aclrtMemcpy(c.data(), b.bytes, b.out, b.bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    double diff = 0;
    for (int64_t i = 0; i < n; i++) {
        float p, q;
        if (bf16) {
            uint16_t u, v;
            std::memcpy(&u, &a[2 * i], 2);
            std::memcpy(&v, &c[2 * i], 2);
            p = FromBf16(u);
            q = FromBf16(v);
        } else {
            std::memcpy(&p, &a[4 * i], 4);
            std::memcpy(&q, &c[4 * i], 4);
        }
        diff = std::max(diff, static_cast<double>(std::fabs(p - q)));
    }
    if (twin < 0 || native < 0) return 1;
    std::printf("%-9s %9lld  twin %9.3f ms  native %8.3f ms  twin/native %6.2fx  max |twin - native| %.3g\n",
                bf16 ? "bfloat16" : "float32", static_cast<long long>(n), twin * 1e3, native * 1e3, twin / native,
                diff);
    aclDestroyTensor(gt);
    aclDestroyTensor(xt);
    aclDestroyTensor(ot);
    aclrtFree(b.grad);
    aclrtFree(b.x);
    aclrtFree(b.out);
    aclrtFree(ws);
    return 0;
}
} // namespace

int main(int argc, char **argv)
{
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != 0 || aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0) {
        std::fprintf(stderr, "ACL could not start: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    const char *threads = std::getenv("MISHGRAD_NUM_THREADS");
    std::printf("twin_bench: mish_grad_asc (AscendC twin) vs aclnnMishBackward (native), best of %d\n", repeats);
    std::printf("CPU: %s; MISHGRAD_NUM_THREADS=%s\n", CpuName().c_str(), threads != nullptr ? threads : "(unset)");
    int rc = 0;
    for (bool bf16 : {false, true})
        for (int64_t n : {int64_t(1000000), int64_t(10000000)}) rc |= Case(stream, n, bf16, repeats);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return rc;
}
