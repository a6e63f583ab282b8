/*
 * mg_hostmem.h: the caller's host memory (a NumPy array's or torch tensor's buffer) made
 * usable as device memory for one operator call, through the public runtime API.
 *
 * With aclrtHostRegister (the zero-copy route): each span is widened to whole
 * 4 KiB pages (CANN requires a page-aligned pointer), spans of one call whose pages overlap
 * are merged into one registration, and a registration is shared, with a count, by every
 * call in flight that lies inside it. A call whose pages overlap a registration in use
 * without lying inside it waits until that one is released (the runtime does not take
 * overlapping registrations). A registration no call uses stays registered (idle, at most
 * MG_IDLE_KEEP, the oldest unregistered first) so that the next call on the same buffer
 * pays nothing; an idle one that a new range overlaps is unregistered first, and
 * mg_mem_flush unregisters them all (at exit, and on request). Pages the caller freed and
 * got back are the same pages, so reusing a registration over them is right.
 *
 * Where the runtime does not take host registrations (CANN's Atlas inference and training
 * series do not; mg_mem_probe finds out once, after aclInit), each span is staged through
 * an aclrtMalloc block instead: the view's bytes copied in before the call, the output's
 * copied back after a success (never the whole buffer: other calls may be writing other
 * views of it).
 */
#ifndef MG_HOSTMEM_H_
#define MG_HOSTMEM_H_

#include <stddef.h>
#include <stdint.h>

/* One operand's bytes: [lo, hi) on the host, the storage its tensor is described over (the
   whole underlying buffer). [view_lo, view_hi), inside it, is the extent of the bytes the
   view's elements occupy (first to last element; empty when view_lo == view_hi): calls are
   ordered by it, and the staging fallback copies only it. dev is filled in by
   mg_mem_acquire: the device address of lo. written marks an output (copied back in the
   staging fallback). */
typedef struct mg_span {
    uintptr_t lo, hi;
    uintptr_t view_lo, view_hi;
    void *dev;
    int written;
    int region; /* private: index of the region used (staging: 1 owns a block, 0 shares one) */
} mg_span;

#define MG_MEM_MAX_SPANS 4

/* Makes every span device-reachable. Returns 0, or an ACL/ACLNN status with msg filled in
   (nothing acquired then). Spans with lo == hi get dev = NULL and nothing else.
   First waits while a call in flight holds a view extent that overlaps one of this call's
   with at least one of the two written: the whole storage is shared by every view of a
   buffer, so only the view extents tell calls that touch the same bytes apart (the
   runtime's race detector compares those byte ranges across streams, and the staging
   fallback must not copy a stale extent back over another call's results). Calls on
   disjoint extents, and readers among themselves, run at once. */
int mg_mem_acquire(mg_span *spans, int count, char *msg, size_t msg_size);
/* Releases what mg_mem_acquire took. ok: the call succeeded (the fallback copies outputs
   back only then). */
void mg_mem_release(mg_span *spans, int count, int ok);
/* Unregisters every idle registration. */
void mg_mem_flush(void);
/* Registrations (or staging blocks) in use by calls right now; 0 between calls. */
int mg_mem_live(void);
/* Decides the route (once; the runtime must be initialized): 1 = aclrtHostRegister. */
int mg_mem_probe(void);
/* The route decided: 1 = zero copy, 0 = staging (or not probed yet). */
int mg_mem_zero_copy(void);

/* A workspace of at least `bytes` for phase 2. On the zero-copy route it is pages of its
   own (mmap), registered: an aclrtMalloc block could share a page with the caller's arrays,
   and the runtime refuses a registration that overlaps aclrtMalloc memory. On the staging
   route it is an aclrtMalloc block. Returns 0 or a status (msg filled in). */
typedef struct mg_workspace {
    void *host, *dev;
    uint64_t bytes;
} mg_workspace;
int mg_workspace_alloc(mg_workspace *w, uint64_t bytes, char *msg, size_t msg_size);
void mg_workspace_free(mg_workspace *w);

#endif /* MG_HOSTMEM_H_ */
