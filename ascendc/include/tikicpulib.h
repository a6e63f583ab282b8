/*
 * tikicpulib.h: CANN's CPU-twin entry points, on this project's twin: GM allocation the
 * twin knows the bounds of, ICPU_SET_TILING_KEY, ICPU_RUN_KF (runs blockDim blocks on the
 * runtime's thread pool and waits) and SetKernelMode. Where CANN's twin forks a process per
 * block, this one runs blocks as threads and checks the device's rules as they run.
 *
 * A kernel that breaks a rule fails its ICPU_RUN_KF: the message goes to stderr and, when
 * gtest.h was included before this header, the running test fails (ADD_FAILURE); without
 * gtest the process's exit status becomes 1. ICPU_RUN_KF's value is 0 or CANN's error code.
 */
#ifndef ASC_FACE_TIKICPULIB_H_
#define ASC_FACE_TIKICPULIB_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "acl/acl_rt.h"

#include "asc_face/entry.h"
#include "asc_twin/gm.h"
#include "kernel_operator.h"

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {
using ::KernelMode;

inline void *GmAlloc(size_t size) { return asc_twin_gm_alloc(size); }
inline void GmFree(void *ptr) { asc_twin_gm_free(ptr); }
// Every block is one vector core in the twin, whatever the mode.
inline void SetKernelMode(KernelMode mode) { (void)mode; }

// ICPU_RUN_KF's kernel: a function pointer known only at run time, so one slot per kernel
// signature holds it while a run is in flight (runs are serialised: CANN's are too).
inline std::mutex &TwinIcpuLock()
{
    static std::mutex lock;
    return lock;
}
template <typename R, typename... P> struct TwinIcpuSlot {
    static inline R (*fn)(P...) = nullptr;
    static inline uint64_t key = 0;
    static void Entry(uint8_t *const *args)
    {
        asc_twin_face_set_block_key(key);
        TwinCallKernel(fn, args);
    }
};

inline void TwinIcpuFailed(const char *func, int status);

template <typename R, typename... P, typename... A>
int TwinIcpuRun(const char *name, R (*func)(P...), uint64_t blockDim, A... args)
{
    static_assert(sizeof...(P) == sizeof...(A), "ICPU_RUN_KF: the kernel takes another number of arguments");
    std::lock_guard<std::mutex> hold(TwinIcpuLock());
    using Slot = TwinIcpuSlot<R, P...>;
    Slot::fn = func;
    Slot::key = asc_twin_face_icpu_key();
    uint8_t *gm[sizeof...(A) > 0 ? sizeof...(A) : 1] = {(uint8_t *)(args)...};
    const asc_twin_kernel kernel = {name, Slot::key, static_cast<int>(sizeof...(P)), &Slot::Entry};
    asc_twin_launch_args launch = {};
    launch.kernel = &kernel;
    launch.block_dim = static_cast<uint32_t>(blockDim);
    launch.gm_args = gm;
    launch.nargs = static_cast<int>(sizeof...(A));
    const int status = asc_twin_run_sync(&launch);
    if (status != 0) TwinIcpuFailed(name, status);
    return status;
}
// A kernel given as a lambda without captures (ops-nn's kernel UTs wrap template kernels so).
template <typename F, typename... A, typename = std::enable_if_t<std::is_class_v<F>>>
int TwinIcpuRun(const char *name, F func, uint64_t blockDim, A... args)
{
    return TwinIcpuRun(name, +func, blockDim, args...);
}
} // namespace AscendC


#if defined(GTEST_INCLUDE_GTEST_GTEST_H_) || defined(GOOGLETEST_INCLUDE_GTEST_GTEST_H_)
inline void AscendC::TwinIcpuFailed(const char *func, int status)
{
    const char *msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "ICPU_RUN_KF(%s) failed (%d): %s\n", func, status, msg != nullptr ? msg : "");
    ADD_FAILURE() << "ICPU_RUN_KF(" << func << ") failed (" << status << "): " << (msg != nullptr ? msg : "");
}
#else
inline void AscendC::TwinIcpuFailed(const char *func, int status)
{
    const char *msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "ICPU_RUN_KF(%s) failed (%d): %s\n", func, status, msg != nullptr ? msg : "");
    // no test framework to tell: the process fails at exit instead
    static const int registered = std::atexit([] { std::_Exit(1); });
    (void)registered;
}
#endif

#define ICPU_SET_TILING_KEY(key) asc_twin_face_set_icpu_key(static_cast<uint64_t>(key))
#define ICPU_RUN_KF(func, blockDim, ...) AscendC::TwinIcpuRun(#func, func, blockDim, __VA_ARGS__)

#endif // ASC_FACE_TIKICPULIB_H_
