/*
 * asc_face/control.h: block identity, pipe barriers and flags, workspaces, atomics. The twin
 * runs every instruction to completion in program order, so PipeBarrier, SetFlag and
 * WaitFlag have nothing left to order and do nothing.
 */
#ifndef ASC_FACE_CONTROL_H_
#define ASC_FACE_CONTROL_H_

#include "../../core/twin_block.h"
#include <cstdio>

#include "asc_face/tensor.h"
#include "asc_face/types.h"
#include "asc_twin/face_state.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return asc_twin_block_idx(); }
inline int64_t GetBlockNum() { return asc_twin_block_num(); }
// One vector core per block: its sub-block is the only one.
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetTaskRation() { return 1; }

template <pipe_t pipe> inline void PipeBarrier() {}
template <HardEvent event> inline void SetFlag(int32_t eventID) { (void)eventID; }
template <HardEvent event> inline void WaitFlag(int32_t eventID) { (void)eventID; }

// a cycle counter for kernels that time themselves: the twin has no cycles, it counts calls
inline int64_t GetSystemCycle()
{
    static thread_local int64_t calls = 0;
    return ++calls;
}

// The vector mask (level-0 calls): the block's state in the core (asc_twin/vec.h).
inline void SetMaskCount() { asc_twin_set_mask_counter(1); }
inline void SetMaskNorm() { asc_twin_set_mask_counter(0); }
inline void ResetMask() { asc_twin_reset_mask(); }
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow)
{
    asc_twin_set_vector_mask(maskHigh, maskLow);
}
// one length: a count in counter mode, the first `len` lanes in normal mode
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(int32_t len)
{
    const uint64_t n = len < 0 ? 0 : static_cast<uint64_t>(len);
    if (mode == MaskMode::COUNTER || asc_twin_mask_counter()) {
        asc_twin_set_vector_mask(0, n);
    } else {
        const uint64_t lo = n >= 64 ? UINT64_MAX : (uint64_t{1} << n) - 1;
        const uint64_t hi = n <= 64 ? 0 : n >= 128 ? UINT64_MAX : (uint64_t{1} << (n - 64)) - 1;
        asc_twin_set_vector_mask(hi, lo);
    }
}

// The same mask setters under their utility names (ops-nn's norm kernels call these).
struct AscendCUtils {
    template <typename T> static void SetMask(const uint64_t &maskHigh, const uint64_t &maskLow)
    {
        SetVectorMask<T>(maskHigh, maskLow);
    }
    template <typename T> static void SetMask(int32_t len) { SetVectorMask<T>(len); }
    static void ResetMask() { asc_twin_reset_mask(); }
};

// The data cache between GM and the core: the twin's GM is the host's memory, coherent.
template <typename T, CacheLine entireType, DcciDst dcciDst> inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &)
{
}
template <typename T, CacheLine entireType> inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &) {}

// InitGlobalMemory: `size` elements of GM set to `value` (bounds-checked by the core).
template <typename T> inline void InitGlobalMemory(GlobalTensor<T> &gmWorkspaceAddr, const uint64_t size, const T value)
{
    asc_twin_gm_fill(gmWorkspaceAddr.TwinRef(), size, TwinScalar<T>(value));
}

// ScalarCast: a float scalar converted as Cast converts an element in roundMode.
template <typename T, typename U, RoundMode roundMode> inline U ScalarCast(T valueIn)
{
    double out = 0;
    asc_twin_scalar_cast(static_cast<float>(valueIn), TwinDtype<U>::value, static_cast<asc_twin_round_mode>(roundMode),
                         &out);
    return TwinFromDouble<U>(out);
}

// SyncAll: every block of the launch (or the soft form's first usedCores) waits for the
// others (asc_twin_sync_all: blocks are made live at once; a block that never arrives is a
// report, not a hang). isAIVOnly = false (mixed cube and vector) synchronises the same
// blocks: the twin has vector cores only.
template <bool isAIVOnly = true> inline void SyncAll() { asc_twin_sync_all("SyncAll", 0); }
// The soft form: a zeroed int32 GM workspace and an int32 UB workspace of at least 32 bytes
// per synchronised core (checked); the twin keeps its flags elsewhere and writes neither.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                    const int32_t usedCores = 0)
{
    asc_twin_face_sync_all_soft(gmWorkspace.TwinRef(), ubWorkspace.TwinRef(), usedCores);
}

// Kernel-side checks and prints: a failed ASSERT stops the block with a report naming it;
// PRINTF prints on the host's stdout (the twin's blocks are host threads).
#define ASSERT(...)                                                                                                \
    ((__VA_ARGS__) ? static_cast<void>(0) : asc_twin_face_unsupported("ASSERT", "assertion failed: " #__VA_ARGS__))
#define ENABLE_PRINTF(...)
#define ENABLE_PRINTF_DUMP_SIZE(...)
template <typename... A> inline void PRINTF(const char *fmt, A... args) { std::printf(fmt, args...); }

// GM atomics: while set, UB->GM data moves combine with GM in T (asc_twin_set_atomic).
inline void SetAtomicNone() { asc_twin_set_atomic(ASC_TWIN_ATOMIC_NONE, ASC_TWIN_F32); }
template <typename T> inline void SetAtomicAdd() { asc_twin_set_atomic(ASC_TWIN_ATOMIC_ADD, TwinDtype<T>::value); }
template <typename T> inline void SetAtomicMax() { asc_twin_set_atomic(ASC_TWIN_ATOMIC_MAX, TwinDtype<T>::value); }
template <typename T> inline void SetAtomicMin() { asc_twin_set_atomic(ASC_TWIN_ATOMIC_MIN, TwinDtype<T>::value); }

// Workspace: the host tiling asks for the library's workspace in front of the user's.
inline thread_local GM_ADDR twinSysWorkspace = nullptr;
inline void SetSysWorkspace(GM_ADDR workspace) { twinSysWorkspace = workspace; }
inline GM_ADDR GetSysWorkSpacePtr() { return twinSysWorkspace; }
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace)
{
    return workspace == nullptr ? nullptr : workspace + asc_twin_face_lib_workspace_bytes();
}

} // namespace AscendC

// CANN declares these at global scope as well (kernels call them unqualified).
using AscendC::GetSysWorkSpacePtr;
using AscendC::GetUserWorkspace;
using AscendC::SetSysWorkspace;

#endif // ASC_FACE_CONTROL_H_
