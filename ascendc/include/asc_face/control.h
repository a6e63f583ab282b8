/*
 * asc_face/control.h: block identity, pipe barriers and flags, workspaces, atomics. The twin
 * runs every instruction to completion in program order, so PipeBarrier, SetFlag and
 * WaitFlag have nothing left to order and do nothing.
 */
#ifndef ASC_FACE_CONTROL_H_
#define ASC_FACE_CONTROL_H_

#include "../../core/twin_block.h"
#include <cstdio>

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

inline void SyncAll() { asc_twin_face_sync_all(); }
template <bool isAIVOnly = true> inline void SyncAll() { asc_twin_face_sync_all(); }

// Kernel-side checks and prints: a failed ASSERT stops the block with a report naming it;
// PRINTF prints on the host's stdout (the twin's blocks are host threads).
#define ASSERT(...)                                                                                                \
    ((__VA_ARGS__) ? static_cast<void>(0) : asc_twin_face_unsupported("ASSERT", "assertion failed: " #__VA_ARGS__))
#define ENABLE_PRINTF(...)
#define ENABLE_PRINTF_DUMP_SIZE(...)
template <typename... A> inline void PRINTF(const char *fmt, A... args) { std::printf(fmt, args...); }

// GM atomics: writing with add is not modelled; a kernel that asks for it fails with a report.
inline void SetAtomicNone() {}
template <typename T> inline void SetAtomicAdd()
{
    asc_twin_face_unsupported("SetAtomicAdd", "atomic accumulation into GM is not modelled by the twin");
}
template <typename T> inline void SetAtomicMax()
{
    asc_twin_face_unsupported("SetAtomicMax", "atomic accumulation into GM is not modelled by the twin");
}
template <typename T> inline void SetAtomicMin()
{
    asc_twin_face_unsupported("SetAtomicMin", "atomic accumulation into GM is not modelled by the twin");
}

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
