/*
 * runtime/mgrt.h: what libascendcl offers the other two libraries (libnnopbase and
 * libcust_opapi) beyond the public ACL API. Not installed; not for applications.
 */
#ifndef MGRT_H_
#define MGRT_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MGRT_API __attribute__((visibility("default")))

#if defined(__GNUC__)
#define MGRT_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define MGRT_PRINTF(fmt_index, first_arg)
#endif

/* ---- errors and logs ---------------------------------------------------------------- */

/* CANN's levels for ASCEND_GLOBAL_LOG_LEVEL. */
enum { MGRT_LOG_DEBUG = 0, MGRT_LOG_INFO = 1, MGRT_LOG_WARNING = 2, MGRT_LOG_ERROR = 3, MGRT_LOG_NULL = 4 };

/* Records `code` and the formatted message as the calling thread's recent error (what
   aclGetRecentErrMsg returns), logs it at error level, and returns `code`. */
MGRT_API int32_t mgrt_fail(int32_t code, const char *fmt, ...) MGRT_PRINTF(2, 3);
/* Same, but `where` (a function name) prefixes the log line. */
MGRT_API int32_t mgrt_fail_at(const char *where, int32_t code, const char *fmt, ...) MGRT_PRINTF(3, 4);
/* Sets the calling thread's recent error message verbatim, without logging. */
MGRT_API void mgrt_set_recent_error(const char *message);
MGRT_API int mgrt_log_enabled(int level);
MGRT_API void mgrt_log(int level, const char *module, const char *fmt, ...) MGRT_PRINTF(3, 4);

/* ---- state ------------------------------------------------------------------------- */

/* 1 between aclInit and aclFinalize. */
MGRT_API int mgrt_initialized(void);

/* The product families (CANN's SoC versions), oldest first. The runtime knows only which
   product it pretends to be; each operator decides what it accepts on which (see
   op_host/elementwise/elementwise.h). MGRT_SOC_CPU, the default profile, is this CPU. */
typedef enum mgrt_soc_generation {
    MGRT_SOC_CPU = 0,          /* MishGradV2-CPU: no Ascend product */
    MGRT_SOC_ASCEND910,        /* Atlas training series: Ascend910, 910A, 910ProA/B, 910PremiumA */
    MGRT_SOC_ASCEND310P,       /* Atlas inference series: Ascend310P* */
    MGRT_SOC_ASCEND310B,       /* Atlas 200I/500 A2 inference product: Ascend310B* */
    MGRT_SOC_ASCEND910B,       /* Atlas A2 training/inference series: Ascend910B1..B4, B2C, B4-1 */
    MGRT_SOC_ASCEND910_93,     /* Atlas A3 training/inference series: Ascend910_93* */
    MGRT_SOC_ASCEND950,        /* Ascend 950PR / 950DT: Ascend950* */
    MGRT_SOC_GENERATION_COUNT
} mgrt_soc_generation;

/* The product profile chosen by MISHGRAD_SOC_VERSION (read at aclInit). */
typedef struct mgrt_soc_profile {
    const char *soc_name;            /* what aclrtGetSocName() returns */
    const char *product;             /* the product line, for messages */
    mgrt_soc_generation generation;
    /* The vector core's facts the AscendC twin (ascendc/) and host tiling read, from CANN's
       published platform facts for the product. The default `cpu` profile models Ascend910B
       (the Atlas A2 part the seed targets): 48 AIV cores, 192 KiB UB, 16 MiB library
       workspace (asc-devkit's GetLibApiWorkSpaceSize on DAV_2201). Unverified on an NPU. */
    uint32_t aiv_core_num;           /* vector (AIV) cores: GetCoreNumAiv() */
    uint64_t ub_bytes;               /* Unified Buffer bytes per vector core */
    uint64_t lib_workspace_bytes;    /* GetLibApiWorkSpaceSize() */
} mgrt_soc_profile;
MGRT_API const mgrt_soc_profile *mgrt_soc(void);

/* ---- memory ------------------------------------------------------------------------ */

/* 1 when [ptr, ptr + bytes) lies inside one live aclrtMalloc block (bytes may be 0: then
   ptr itself must lie inside one, or be its end). */
MGRT_API int mgrt_range_is_live(const void *ptr, uint64_t bytes);
/* 1 when ptr lies inside a live aclrtMalloc block (or aclrtHostRegister range): its base
   and size are returned (the AscendC twin bounds a kernel's GM accesses by them). */
MGRT_API int mgrt_device_extent(const void *ptr, uintptr_t *base, uint64_t *bytes);
/* The same check, and on success a pin on that block: the block stops being live as soon as
   an aclrtFree of it begins, but its memory stays allocated until the pin is dropped
   (mgrt_mem_unpin with any address inside the block). Phase 2 holds pins from its checks
   until its work is queued, and the queued task pins the blocks of the ranges it declares
   (mgrt_stream_submit_access) until it has run, so a racing free never frees memory that
   work checked or queued still uses (issue 10, defect 3). */
MGRT_API int mgrt_mem_pin(const void *ptr, uint64_t bytes);
MGRT_API void mgrt_mem_unpin(const void *ptr);

/* The library's own allocations go through these, so a test can make one fail: the
   environment variable MISHGRAD_FAULT_ALLOC=N (N >= 1), read at aclInit, makes the N-th
   allocation after aclInit return NULL (runtime/fault_injection.c). */
MGRT_API void *mgrt_malloc(size_t bytes);
MGRT_API void *mgrt_calloc(size_t count, size_t bytes);
MGRT_API void mgrt_free(void *ptr);
/* Tests: how many calls MISHGRAD_FAULT_LATE holds now (0 or 1): a test waits for its call
   to be held before it calls aclFinalize (docs/reliability.md, "Fault injection"). A build
   without tests keeps it local (MISHGRAD_TEST_ONLY_EXPORTS_ascendcl): a package exports no
   test hook. */
MGRT_API int mgrt_late_calls_held(void);

/* ---- streams ----------------------------------------------------------------------- */

/* A unit of queued work. run() returns a status (0 or an aclnn/acl code, with the message
   set via mgrt_fail); release() frees the task once it has run or been dropped. */
typedef int32_t (*mgrt_task_run_fn)(void *task);
typedef void (*mgrt_task_release_fn)(void *task);

/* Queues `task` on `stream` (NULL: default stream) for `api` (named in messages). On
   failure the task is released and an aclnn code returned (nothing was queued): 161002 for
   a stream that is not live, 361001 after aclFinalize, 561000 when memory runs out.
   `work_elements` measures the task's cost: a lone task is left for the thread that
   synchronizes unless it is very large; a very large one, or a second task queued behind
   an unfinished one, wakes the stream's worker so the work overlaps with the host. */
MGRT_API int32_t mgrt_stream_submit(const char *api, aclrtStream stream, mgrt_task_run_fn run,
                                    mgrt_task_release_fn release, void *task, uint64_t work_elements);

#define MGRT_ACCESS_MAX_RANK 8

/* A byte range a queued task reads (write == 0) or writes (write == 1): every byte of
   [ptr, ptr + bytes) when rank is 0. A strided view sets rank > 0: then only its elements
   are touched, elem_bytes each, element idx at ptr + sum(idx[i] * strides[i]) (strides in
   bytes, >= 0), all inside the range. The race check compares the elements when two
   ranges meet, so views that interleave without sharing a byte (the two halves of each
   row) are not a race. A strided access that breaks these rules (rank above
   MGRT_ACCESS_MAX_RANK, elem_bytes 0, a dim below 1, a negative stride, an element outside
   the range) is checked as its whole range. */
typedef struct mgrt_access {
    const void *ptr;
    uint64_t bytes;
    int write;
    int rank;
    uint64_t elem_bytes;
    int64_t dims[MGRT_ACCESS_MAX_RANK];
    int64_t strides[MGRT_ACCESS_MAX_RANK];
} mgrt_access;
/* mgrt_stream_submit with the ranges the task reads and writes (copied; may be NULL with
   access_count 0). A task whose ranges overlap, one side writing, those of unfinished work
   queued on another stream that no event wait orders before it is refused: 161002, with a
   message naming both streams and the ranges (on a device the two would race). Also 361001
   when the calling thread has no current context. */
MGRT_API int32_t mgrt_stream_submit_access(const char *api, aclrtStream stream, mgrt_task_run_fn run,
                                           mgrt_task_release_fn release, void *task, uint64_t work_elements,
                                           const mgrt_access *accesses, size_t access_count);
/* 1 when `stream` is NULL or a live stream created by aclrtCreateStream (and the runtime
   is initialized). */
MGRT_API int mgrt_stream_is_valid(aclrtStream stream);

/* ---- a planned launch, in one trip (runtime/stream_launch.c) -------------------------- */

/* One tensor of a launch: its storage (pinned while the launch is checked and queued), the
   element size its address must be aligned to, and the bytes it touches (access: its
   geometry, write for an output). `direct`: the kernel reads or writes it where it lies, so
   a read and a written direct tensor must be apart or exactly in place. */
typedef struct mgrt_launch_tensor {
    const char *name;
    const void *storage;
    uint64_t storage_bytes;
    uint64_t elem_bytes;
    int direct;
    mgrt_access access;
} mgrt_launch_tensor;

/* Phase 2 of a planned executor, handed over at once. */
typedef struct mgrt_launch {
    const char *api;     /* named in messages */
    const char *op_name; /* the operator, named with a tensor */
    aclrtStream stream;
    void *workspace;
    uint64_t workspace_size;   /* as the caller gave it */
    uint64_t workspace_needed; /* as phase 1 reported it (0: none is used) */
    uint64_t workspace_align;  /* the widest element it holds */
    const mgrt_launch_tensor *tensors; /* every tensor with elements: inputs, then outputs */
    size_t tensor_count;
    /* the task: task_bytes allocated once every check passed, filled by fill(task, ctx),
       run and released by the stream; steps 0: nothing to run (only the stream is checked).
       A fill that writes past task_bytes aborts the process ("internal error") when it
       returns. */
    size_t task_bytes;
    void (*fill)(void *task, void *ctx);
    void *ctx;
    uint32_t steps;
    mgrt_task_run_fn run;
    mgrt_task_release_fn release;
    uint64_t work_elements;
} mgrt_launch;

/* Checks and queues a launch, in this order, the first failure returned with its message
   and nothing queued: the workspace (NULL while needed: 161001; smaller than needed, not
   aligned, not inside one live block: 161002), each tensor's address (aligned, its storage
   inside one live block: 161002), the direct tensors apart or exactly in place (161002), the
   workspace apart from every tensor (161002), the task's memory (561000), then the stream
   (live: 161002) and the race check against other streams (mgrt_stream_submit_access). The
   storages and the workspace stay pinned until the task is queued or refused. */
MGRT_API int32_t mgrt_launch_submit(const mgrt_launch *launch);

/* ---- CPU features (runtime/cpu_features.c), asked once by the kernels' dispatch -------- */

enum {
    MGRT_CPU_AVX2 = 1u << 0,        /* AVX2 + FMA + F16C, with YMM state enabled by the OS */
    MGRT_CPU_AVX512 = 1u << 1,      /* AVX-512 F/DQ/BW/VL, with opmask and ZMM state enabled */
    MGRT_CPU_AVX512_BF16 = 1u << 2, /* AVX512_BF16 too */
    MGRT_CPU_NEON = 1u << 3,        /* AArch64 Advanced SIMD */
};
/* The MGRT_CPU_* bits this CPU has (detected once). */
MGRT_API unsigned mgrt_cpu_features(void);
/* 1 when this CPU can run kernels for `isa` (a name of the ISA list, mgrt_isa_list.inc); 0
   for any other name or NULL. */
MGRT_API int mgrt_cpu_supports_isa(const char *isa);
/* The best of those this CPU can run (the last of the ISA list it has; scalar at worst). */
MGRT_API const char *mgrt_cpu_best_isa(void);
/* The kernels' ISA for this process, chosen once: MISHGRAD_ISA (a name of the ISA list, or
   auto) when the CPU has it, else the best one, with a warning printed at the default log
   level for an ISA the CPU lacks or an unknown name. */
MGRT_API const char *mgrt_cpu_isa(void);

/* ---- the device's cores: a persistent thread pool ------------------------------------ */

/* Threads the pool runs with (MISHGRAD_NUM_THREADS, default: online CPUs), >= 1. */
MGRT_API int mgrt_num_threads(void);
/* Runs fn(ctx, b) for b in [0, block_count) on the pool, the caller taking part; returns when
   all are done. block_count <= 1 runs inline with no wake-up. If the pool is busy with
   another stream's work, the caller runs every block itself (never a deadlock). */
typedef void (*mgrt_block_fn)(void *ctx, int64_t block);
MGRT_API void mgrt_parallel_for(int64_t block_count, mgrt_block_fn fn, void *ctx);
/* The same on at most `threads` threads, the caller included (<= 0: all of the pool's). */
MGRT_API void mgrt_parallel_for_threads(int64_t block_count, int threads, mgrt_block_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* MGRT_H_ */
