/*
 * mg_hostmem.c: see mg_hostmem.h.
 */
#include "mg_hostmem.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_lock.h"

static const char *recent_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m != NULL && m[0] != '\0' ? m : "(the runtime gave no message)";
}

/* CANN: "Host内存地址需4KB页对齐" (the host pointer must be 4 KiB aligned). */
static uintptr_t page_size(void) {
    static uintptr_t cached;
    if (cached == 0) {
        long p = sysconf(_SC_PAGESIZE);
        cached = p > 4096 ? (uintptr_t)p : 4096;
    }
    return cached;
}


typedef struct region {
    uintptr_t lo, hi; /* page-aligned */
    void *dev;
    int registered; /* 0: a free slot */
    int users;      /* calls in flight inside it; 0: idle (kept for the next call) */
    uint64_t stamp; /* when it went idle, for evicting the oldest */
} region;

/* Idle registrations kept between calls (unregistering costs more than the call at 1e4). */
#define MG_IDLE_KEEP 64

static pthread_mutex_t lock = MG_MUTEX_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static region *regions;
static int region_count, region_capacity;
static uint64_t idle_clock;

static int registered_live(void) {
    int live = 0;
    MG_LOCK(lock);
    for (int i = 0; i < region_count; i++) live += regions[i].users > 0;
    MG_UNLOCK(lock);
    return live;
}

/* Lock held. Index of a live region containing [lo, hi), -1 if none; *conflict set when a
   live region overlaps it without containing it. */
static int find_region(uintptr_t lo, uintptr_t hi, int *conflict) {
    for (int i = 0; i < region_count; i++) {
        const region *r = &regions[i];
        if (!r->registered) continue;
        if (r->lo <= lo && hi <= r->hi) return i;
        if (r->users > 0 && r->lo < hi && lo < r->hi) *conflict = 1;
    }
    return -1;
}

static int new_slot(void) {
    for (int i = 0; i < region_count; i++)
        if (!regions[i].registered) return i;
    if (region_count == region_capacity) {
        int capacity = region_capacity ? region_capacity * 2 : 32;
        region *grown = realloc(regions, (size_t)capacity * sizeof *grown);
        if (grown == NULL) return -1;
        regions = grown;
        region_capacity = capacity;
    }
    regions[region_count].registered = 0;
    regions[region_count].users = 0;
    return region_count++;
}

/* Lock held. */
static void evict(region *r) {
    if (aclrtHostUnregister((void *)r->lo) != ACL_SUCCESS) {
        /* Still registered in the runtime (no context on this thread, say): forgetting it
           would make the next registration of these pages fail as overlapping. The
           failure's message is ours, not the next caller's. */
        (void)aclGetRecentErrMsg();
        return;
    }
    r->registered = 0;
    r->users = 0;
}

/* Lock held. Unregisters the idle registrations that overlap [lo, hi). */
static void evict_overlapping(uintptr_t lo, uintptr_t hi) {
    for (int i = 0; i < region_count; i++) {
        region *r = &regions[i];
        if (r->registered && r->users == 0 && r->lo < hi && lo < r->hi) evict(r);
    }
}

static void drop_user(int index) {
    region *r = &regions[index];
    if (--r->users > 0) return;
    r->stamp = ++idle_clock;
    pthread_cond_broadcast(&released);
    int idle = 0, oldest = -1;
    for (int i = 0; i < region_count; i++)
        if (regions[i].registered && regions[i].users == 0) {
            idle++;
            if (oldest < 0 || regions[i].stamp < regions[oldest].stamp) oldest = i;
        }
    if (idle > MG_IDLE_KEEP) evict(&regions[oldest]);
}

void mg_mem_flush(void) {
    MG_LOCK(lock);
    for (int i = 0; i < region_count; i++)
        if (regions[i].registered && regions[i].users == 0) evict(&regions[i]);
    MG_UNLOCK(lock);
}

/* The page ranges a call needs, overlapping ones merged into groups: sorted by start, a range
   that starts before the last group's end joins it, so one sweep merges every chain. Writes
   each span's group (-1 for an empty span) and returns the number of groups. */
static int page_groups(const mg_span *spans, int count, uintptr_t *lo, uintptr_t *hi, int *group) {
    const uintptr_t page = page_size();
    uintptr_t a[MG_MEM_MAX_SPANS], b[MG_MEM_MAX_SPANS];
    int order[MG_MEM_MAX_SPANS], n = 0;
    for (int i = 0; i < count; i++) {
        group[i] = -1;
        if (spans[i].lo == spans[i].hi) continue;
        a[i] = spans[i].lo & ~(page - 1);
        b[i] = (spans[i].hi + page - 1) & ~(page - 1);
        int at = n++;
        for (; at > 0 && a[order[at - 1]] > a[i]; at--) order[at] = order[at - 1];
        order[at] = i;
    }
    int groups = 0;
    for (int t = 0; t < n; t++) {
        const int i = order[t];
        if (groups > 0 && a[i] < hi[groups - 1]) {
            if (b[i] > hi[groups - 1]) hi[groups - 1] = b[i];
        } else {
            lo[groups] = a[i];
            hi[groups] = b[i];
            groups++;
        }
        group[i] = groups - 1;
    }
    return groups;
}

static int register_acquire(mg_span *spans, int count, char *msg, size_t msg_size) {
    uintptr_t lo[MG_MEM_MAX_SPANS], hi[MG_MEM_MAX_SPANS];
    int group[MG_MEM_MAX_SPANS];
    const int groups = page_groups(spans, count, lo, hi, group);

    int taken[MG_MEM_MAX_SPANS];
    MG_LOCK(lock);
    /* Take every range at once or none, so two calls never wait on each other. */
    for (;;) {
        int conflict = 0;
        for (int k = 0; k < groups; k++) {
            int overlaps = 0;
            taken[k] = find_region(lo[k], hi[k], &overlaps);
            if (taken[k] < 0 && overlaps) conflict = 1;
        }
        if (!conflict) break;
        MG_WAIT(released, lock);
    }
    /* An idle registration that contains one range but overlaps another of this call cannot
       stay: the ranges it holds are registered anew once it is evicted. The runtime's
       registrations never overlap, so no registration contains a range that another one
       overlaps: the ranges an evicted one held are met by no registration that one pass
       would not find already (a registration that overlaps a range without containing it). */
    for (int j = 0; j < groups; j++) {
        if (taken[j] < 0 || regions[taken[j]].users > 0) continue;
        const region *r = &regions[taken[j]];
        for (int k = 0; k < groups; k++)
            if (r->lo < hi[k] && lo[k] < r->hi && !(r->lo <= lo[k] && hi[k] <= r->hi)) {
                taken[j] = -1;
                break;
            }
    }
    /* The registrations that contain a range are taken first, so that evicting idle ones
       for the new ranges cannot drop one of them. */
    int held[MG_MEM_MAX_SPANS], nheld = 0;
    for (int k = 0; k < groups; k++)
        if (taken[k] >= 0) {
            regions[taken[k]].users++;
            held[nheld++] = taken[k];
        }
    for (int k = 0; k < groups; k++) {
        if (taken[k] >= 0) continue;
        evict_overlapping(lo[k], hi[k]);
        int slot = new_slot();
        void *dev = NULL;
        aclError e = slot < 0 ? ACL_ERROR_BAD_ALLOC
                              : aclrtHostRegister((void *)lo[k], (uint64_t)(hi[k] - lo[k]),
                                                  ACL_HOST_REGISTER_MAPPED, &dev);
        if (e != ACL_SUCCESS) {
            snprintf(msg, msg_size, "aclrtHostRegister of %zu bytes at %p failed: %s",
                     (size_t)(hi[k] - lo[k]), (void *)lo[k],
                     slot < 0 ? "out of memory" : recent_message());
            for (int j = 0; j < nheld; j++) drop_user(held[j]);
            MG_UNLOCK(lock);
            return e;
        }
        regions[slot].lo = lo[k];
        regions[slot].hi = hi[k];
        regions[slot].dev = dev;
        regions[slot].registered = 1;
        regions[slot].users = 1;
        taken[k] = slot;
        held[nheld++] = slot;
    }
    for (int i = 0; i < count; i++) {
        if (group[i] < 0) continue;
        const region *r = &regions[taken[group[i]]];
        spans[i].region = taken[group[i]];
        spans[i].dev = (char *)r->dev + (spans[i].lo - r->lo);
    }
    /* spans[].region of the first span of each group carries the reference. */
    for (int i = 0; i < count; i++) {
        int first = 1;
        for (int j = 0; j < i; j++)
            if (group[j] >= 0 && group[j] == group[i]) first = 0;
        if (!first) spans[i].region = -1;
    }
    MG_UNLOCK(lock);
    return 0;
}

static void register_release(mg_span *spans, int count) {
    MG_LOCK(lock);
    for (int i = 0; i < count; i++)
        if (spans[i].region >= 0) {
            drop_user(spans[i].region);
            spans[i].region = -1;
        }
    MG_UNLOCK(lock);
}

/* ---- staging through aclrtMalloc ---- */

/* Each block spans the whole [lo, hi), so the device address and the aclTensor's storage are
   the same as on the zero-copy route, but only the view extents are copied: the operator
   reads and writes view elements only, and copying the whole storage back would write
   stale copies over what other calls (on other views of the buffer) wrote meanwhile. The
   bytes of a block outside every extent are never read, nor copied back. */

static _Atomic int staged;

static void staging_release(mg_span *spans, int count, int ok);

/* Where a span's view extent lies in its staging block (s->dev holds [lo, hi)). */
static char *extent_in_block(const mg_span *s) { return (char *)s->dev + (s->view_lo - s->lo); }

static aclError copy_in(const mg_span *s) {
    size_t bytes = (size_t)(s->view_hi - s->view_lo);
    if (bytes == 0) return ACL_SUCCESS;
    return aclrtMemcpy(extent_in_block(s), bytes, (const void *)s->view_lo, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

static void copy_back(const mg_span *s) {
    size_t bytes = (size_t)(s->view_hi - s->view_lo);
    if (bytes == 0) return;
    (void)aclrtMemcpy((void *)s->view_lo, bytes, extent_in_block(s), bytes, ACL_MEMCPY_DEVICE_TO_HOST);
}

static int staging_acquire(mg_span *spans, int count, char *msg, size_t msg_size) {
    for (int i = 0; i < count; i++) {
        size_t bytes = (size_t)(spans[i].hi - spans[i].lo);
        if (bytes == 0) continue;
        /* The same host span twice (in-place, or two views of one buffer): one staging
           block, each span's own extent copied into it (region 0: shares, frees nothing). */
        int same = -1;
        for (int j = 0; j < i && same < 0; j++)
            if (spans[j].region == 1 && spans[j].lo == spans[i].lo && spans[j].hi == spans[i].hi)
                same = j;
        aclError e;
        if (same >= 0) {
            spans[i].dev = spans[same].dev;
            spans[i].region = 0;
            e = copy_in(&spans[i]);
        } else {
            e = aclrtMalloc(&spans[i].dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            if (e == ACL_SUCCESS) {
                spans[i].region = 1;
                staged++;
                e = copy_in(&spans[i]);
            } else {
                spans[i].dev = NULL;
            }
        }
        if (e != ACL_SUCCESS) {
            snprintf(msg, msg_size, "staging %zu bytes in device memory failed: %s",
                     spans[i].dev == NULL ? bytes : (size_t)(spans[i].view_hi - spans[i].view_lo),
                     recent_message());
            staging_release(spans, i + 1, 0);
            return e;
        }
    }
    return 0;
}

static void staging_release(mg_span *spans, int count, int ok) {
    /* Every written extent back first (a shared block is freed by the span that owns it). */
    for (int i = 0; ok && i < count; i++)
        if (spans[i].region >= 0 && spans[i].written) copy_back(&spans[i]);
    for (int i = 0; i < count; i++) {
        if (spans[i].region == 1) {
            (void)aclrtFree(spans[i].dev);
            staged--;
        }
        spans[i].region = -1;
    }
}

/* ---- ordering calls by view extent ---- */

/* The view extents of the calls in flight (both routes), each tagged with its call's spans
   array, which is unique while the call is in flight. Lock held to read or change. */
typedef struct extent {
    uintptr_t lo, hi;
    int written;
    const mg_span *owner;
} extent;

static extent *inflight;
static int inflight_count, inflight_capacity;

/* Lock held. Whether a call in flight holds an extent that overlaps one of these spans'
   with at least one of the two written. */
static int extents_conflict(const mg_span *spans, int count) {
    for (int k = 0; k < inflight_count; k++) {
        const extent *e = &inflight[k];
        for (int i = 0; i < count; i++) {
            const mg_span *s = &spans[i];
            if (s->view_lo == s->view_hi || !(e->written || s->written)) continue;
            if (e->lo < s->view_hi && s->view_lo < e->hi) return 1;
        }
    }
    return 0;
}

/* Waits until no call in flight conflicts with these spans, then records all their extents
   at once: a call holds nothing while it waits, so two calls never wait on each other.
   A call that holds extents may still wait for pages in register_acquire, but only for
   calls that hold registrations, and those wait for nothing: no cycle. */
static int extents_acquire(const mg_span *spans, int count, char *msg, size_t msg_size) {
    MG_LOCK(lock);
    while (extents_conflict(spans, count)) MG_WAIT(released, lock);
    if (inflight_count + count > inflight_capacity) {
        int capacity = inflight_capacity ? inflight_capacity * 2 : 64;
        while (capacity < inflight_count + count) capacity *= 2;
        extent *grown = realloc(inflight, (size_t)capacity * sizeof *grown);
        if (grown == NULL) {
            MG_UNLOCK(lock);
            snprintf(msg, msg_size, "mishgrad: out of memory for the table of calls in flight");
            return ACL_ERROR_BAD_ALLOC;
        }
        inflight = grown;
        inflight_capacity = capacity;
    }
    /* each extent written whole: a slot keeps the fields of the call that used it before */
    for (int i = 0; i < count; i++)
        if (spans[i].view_lo != spans[i].view_hi)
            inflight[inflight_count++] = (extent){
                .lo = spans[i].view_lo, .hi = spans[i].view_hi, .written = spans[i].written, .owner = spans};
    MG_UNLOCK(lock);
    return 0;
}

static void extents_release(const mg_span *spans) {
    MG_LOCK(lock);
    for (int k = 0; k < inflight_count;)
        if (inflight[k].owner == spans) inflight[k] = inflight[--inflight_count];
        else k++;
    pthread_cond_broadcast(&released);
    MG_UNLOCK(lock);
}

/* ---- the route ---- */

static atomic_int route; /* 0 not probed, 1 aclrtHostRegister, 2 staging */

int mg_mem_probe(void) {
    if (atomic_load(&route) == 0) {
        /* MISHGRAD_PY_ROUTE=staging takes the staging route on a runtime that would take
           host registrations, so that the tests (and a user chasing a bug) can run the route
           the Atlas products take on any machine. Any other value probes as usual. */
        const char *forced = getenv("MISHGRAD_PY_ROUTE");
        if (forced != NULL && strcmp(forced, "staging") == 0) {
            atomic_store(&route, 2);
            return 0;
        }
        /* One page of our own, registered and unregistered: does this runtime (this
           product) take host registrations? CANN's 310P / 910 do not. */
        static _Alignas(4096) char probe_page[4096];
        void *dev = NULL;
        aclError e = aclrtHostRegister(probe_page, sizeof probe_page, ACL_HOST_REGISTER_MAPPED, &dev);
        if (e == ACL_SUCCESS) (void)aclrtHostUnregister(probe_page);
        else (void)aclGetRecentErrMsg(); /* the probe's failure is not the caller's */
        atomic_store(&route, e == ACL_SUCCESS ? 1 : 2);
    }
    return atomic_load(&route) == 1;
}

int mg_mem_zero_copy(void) { return atomic_load(&route) == 1; }

int mg_mem_live(void) { return atomic_load(&route) == 1 ? registered_live() : staged; }

int mg_mem_acquire(mg_span *spans, int count, char *msg, size_t msg_size) {
    /* Nothing held yet, for both routes' acquires (which start from it) and for the
       caller's release, which runs after a failure too: a failure before either route's
       acquire (the table of calls in flight cannot grow) must find no region to drop -- a
       zeroed span's region 0 was the first registration's, dropped while the table of
       regions might not exist yet. */
    for (int i = 0; i < count; i++) {
        spans[i].dev = NULL;
        spans[i].region = -1;
    }
    int zero_copy = mg_mem_probe();
    int e = extents_acquire(spans, count, msg, msg_size);
    if (e != 0) return e;
    e = zero_copy ? register_acquire(spans, count, msg, msg_size)
                  : staging_acquire(spans, count, msg, msg_size);
    if (e != 0) extents_release(spans);
    return e;
}

void mg_mem_release(mg_span *spans, int count, int ok) {
    if (atomic_load(&route) == 1) register_release(spans, count);
    else staging_release(spans, count, ok);
    /* Only after the copies back: a call waiting on these extents must see the results. */
    extents_release(spans);
}

int mg_workspace_alloc(mg_workspace *w, uint64_t bytes, char *msg, size_t msg_size) {
    w->host = w->dev = NULL;
    w->bytes = 0;
    if (mg_mem_probe()) {
        uintptr_t page = page_size();
        size_t size = (size_t)((bytes + page - 1) & ~(uint64_t)(page - 1));
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            snprintf(msg, msg_size, "mishgrad: no memory for a workspace of %llu bytes",
                     (unsigned long long)bytes);
            return ACL_ERROR_BAD_ALLOC;
        }
        void *dev = NULL;
        /* Fresh pages, but an idle registration may still cover them (memory the caller
           freed, unmapped and mapped again as these). */
        MG_LOCK(lock);
        evict_overlapping((uintptr_t)p, (uintptr_t)p + size);
        aclError e = aclrtHostRegister(p, size, ACL_HOST_REGISTER_MAPPED, &dev);
        MG_UNLOCK(lock);
        if (e != ACL_SUCCESS) {
            snprintf(msg, msg_size, "aclrtHostRegister of a %zu-byte workspace failed: %s", size,
                     recent_message());
            munmap(p, size);
            return e;
        }
        w->host = p;
        w->dev = dev;
        w->bytes = size;
        return 0;
    }
    aclError e = aclrtMalloc(&w->dev, (size_t)bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (e != ACL_SUCCESS) {
        snprintf(msg, msg_size, "aclrtMalloc of a %llu-byte workspace failed: %s",
                 (unsigned long long)bytes, recent_message());
        w->dev = NULL;
        return e;
    }
    w->bytes = bytes;
    return 0;
}

void mg_workspace_free(mg_workspace *w) {
    if (w->host != NULL) {
        (void)aclrtHostUnregister(w->host);
        munmap(w->host, (size_t)w->bytes);
    } else if (w->dev != NULL) {
        (void)aclrtFree(w->dev);
    }
    w->host = w->dev = NULL;
    w->bytes = 0;
}
