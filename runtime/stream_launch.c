/*
 * runtime/stream_launch.c: phase 2 of a planned executor in one trip (mgrt_launch_submit):
 * the executor hands over its tensors and workspace once; here they are pinned, their
 * liveness, alignment, in-place overlap (geometry's conservative policy, the rule phase 1
 * planned with) and the workspace's separation are checked, the task is made, and it is
 * queued with its accesses for the race check. Above both the memory layer (pins) and the
 * streams (queueing); neither calls up here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg_strided.h"
#include "runtime_internal.h"

enum { MAX_PINS = 1 + 2 * 16 };

typedef struct pins {
    const void *ptr[MAX_PINS];
    int count;
} pins;

static void unpin_all(pins *p) {
    for (int i = 0; i < p->count; i++) mgrt_mem_unpin(p->ptr[i]);
    p->count = 0;
}

static int32_t check_workspace(const mgrt_launch *l, pins *p) {
    const uint64_t needed = l->workspace_needed;
    if (needed == 0) return 0;
    if (l->workspace == NULL)
        return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_NULLPTR, "%s: workspace is NULL but %llu bytes are needed", l->api,
                            (unsigned long long)needed);
    if (l->workspace_size < needed)
        return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                            "%s: workspaceSize %llu is smaller than the %llu bytes the first phase reported", l->api,
                            (unsigned long long)l->workspace_size, (unsigned long long)needed);
    if ((uintptr_t)l->workspace % (uintptr_t)l->workspace_align != 0)
        return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                            "%s: workspace %p is not aligned to the %lld-byte elements it holds (aclrtMalloc gives "
                            "64-byte aligned memory)",
                            l->api, l->workspace, (long long)l->workspace_align);
    if (!mgrt_mem_pin(l->workspace, needed))
        return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                            "%s: workspace [%p, +%llu bytes) is not inside one live aclrtMalloc block", l->api,
                            l->workspace, (unsigned long long)needed);
    p->ptr[p->count++] = l->workspace;
    return 0;
}

/* What the conservative policy reads of an access: its range, its element size and whether
   it is strided (rank); its dims and strides are left unset (phase 2 is on every call's
   path), as mg_overlap_conservative never reads them. */
static void geometry_of(const mgrt_launch_tensor *t, mg_strided *g) {
    g->base = (uintptr_t)t->access.ptr;
    g->bytes = t->access.bytes;
    g->elem_bytes = t->access.rank != 0 ? t->access.elem_bytes : t->elem_bytes;
    g->rank = t->access.rank;
}

/* Each tensor's address (aclSet*TensorAddr may have changed it since phase 1), pinning its
   storage: alignment, the whole storage (in bytes) inside one live block; then the overlap
   rule between the direct tensors read and written. */
static int32_t check_tensors(const mgrt_launch *l, pins *p) {
    for (size_t i = 0; i < l->tensor_count; i++) {
        const mgrt_launch_tensor *t = &l->tensors[i];
        if (t->storage != NULL && (uintptr_t)t->storage % (uintptr_t)t->elem_bytes != 0)
            return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s (%s) at %p is not aligned to its %lld-byte elements", l->api, t->name,
                                l->op_name, t->storage, (long long)t->elem_bytes);
        if (p->count == MAX_PINS || !mgrt_mem_pin(t->storage, t->storage_bytes))
            return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                                "%s: %s (%s) at %p, %llu bytes, is not inside one live aclrtMalloc block "
                                "or aclrtHostRegister range (freed, unregistered, or a refreshed "
                                "address that is too small)",
                                l->api, t->name, l->op_name, t->storage, (unsigned long long)t->storage_bytes);
        p->ptr[p->count++] = t->storage;
    }
    for (size_t o = 0; o < l->tensor_count; o++) {
        const mgrt_launch_tensor *out = &l->tensors[o];
        if (!out->access.write || !out->direct) continue;
        for (size_t i = 0; i < l->tensor_count; i++) {
            const mgrt_launch_tensor *in = &l->tensors[i];
            if (in->access.write || !in->direct) continue;
            mg_strided a, b;
            geometry_of(in, &a);
            geometry_of(out, &b);
            if (mg_overlap_conservative(&a, &b))
                return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                                    "%s: refreshed addresses make %s overlap %s partially; only exact in-place "
                                    "is allowed for a planned executor (run the first phase again)",
                                    l->api, in->name, out->name);
        }
    }
    return 0;
}

/* The plan writes its dense copies into the workspace while it reads and writes the
   tensors, so the range phase 1 reported must not meet any tensor's storage (CANN does not
   check this; there it gives wrong results silently). An empty plan's workspace is never
   touched: any pointer. */
static int32_t check_workspace_apart(const mgrt_launch *l) {
    if (l->workspace_needed == 0 || l->workspace == NULL) return 0;
    const uintptr_t ws_lo = (uintptr_t)l->workspace, ws_hi = ws_lo + l->workspace_needed;
    for (size_t i = 0; i < l->tensor_count; i++) {
        const mgrt_launch_tensor *t = &l->tensors[i];
        if (t->storage == NULL) continue;
        const uintptr_t lo = (uintptr_t)t->storage, hi = lo + t->storage_bytes;
        if (lo < ws_hi && ws_lo < hi)
            return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID,
                                "%s: workspace [%p, +%llu bytes) overlaps the storage of %s (%s) [%p, +%llu "
                                "bytes); the workspace must be memory no tensor of the call uses",
                                l->api, l->workspace, (unsigned long long)l->workspace_needed, t->name, l->op_name,
                                t->storage, (unsigned long long)t->storage_bytes);
    }
    return 0;
}

/* The fill callback is another library's code writing into memory the runtime allocated:
   the bytes just past the task it declared carry a pattern it must leave alone, checked
   when it returns, so a fill that writes past its task stops the process there, naming the
   operator, instead of corrupting the heap for a later call to trip on. */
enum { TASK_GUARD_BYTES = 64, TASK_GUARD_BYTE = 0xA5 };

static void check_task_guard(const mgrt_launch *l, const unsigned char *task) {
    for (size_t i = 0; i < TASK_GUARD_BYTES; i++)
        if (task[l->task_bytes + i] != TASK_GUARD_BYTE)
            rt_internal_error("%s (%s): the launch's task was written past its %zu bytes (byte %zu after it)", l->api,
                              l->op_name, l->task_bytes, i);
}

static int32_t queue(const mgrt_launch *l) {
    unsigned char *task = mgrt_malloc(l->task_bytes + TASK_GUARD_BYTES);
    if (task == NULL)
        return mgrt_fail_at(l->api, ACLNN_ERR_INNER, "%s: out of memory queueing the work (an allocation failed)",
                            l->api);
    memset(task + l->task_bytes, TASK_GUARD_BYTE, TASK_GUARD_BYTES);
    l->fill(task, l->ctx);
    check_task_guard(l, task);
    if (l->steps == 0) { /* nothing to do (an empty tensor), but the stream must be real */
        l->release(task);
        if (!mgrt_stream_is_valid(l->stream))
            return mgrt_fail_at(l->api, ACLNN_ERR_PARAM_INVALID, "%s: stream %p is not a live stream", l->api,
                                l->stream);
        return 0;
    }
    /* the bytes the task reads and writes, for the cross-stream race check: each tensor's
       elements, and the whole workspace (written) */
    mgrt_access accesses[MAX_PINS];
    size_t count = 0;
    for (size_t i = 0; i < l->tensor_count && count < MAX_PINS - 1; i++) accesses[count++] = l->tensors[i].access;
    if (l->workspace_needed > 0 && l->workspace != NULL) {
        mgrt_access *ws = &accesses[count++]; /* rank 0: a plain range, its dims never read */
        ws->ptr = l->workspace;
        ws->bytes = l->workspace_needed;
        ws->write = 1;
        ws->rank = 0;
        ws->elem_bytes = 0;
    }
    return mgrt_stream_submit_access(l->api, l->stream, l->run, l->release, task, l->work_elements, accesses, count);
}

int32_t mgrt_launch_submit(const mgrt_launch *l) {
    pins p;
    p.count = 0; /* only the first count entries are read */
    int32_t status = check_workspace(l, &p);
    if (status == 0) status = check_tensors(l, &p);
    if (status == 0) status = check_workspace_apart(l);
    if (status == 0) status = queue(l);
    /* queued (or refused): a free of these blocks may go ahead now; it waits for the work */
    unpin_all(&p);
    return status;
}
