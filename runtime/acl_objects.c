/*
 * runtime/acl_objects.c: the set of live runtime objects (data buffers, events, contexts),
 * so that every handle is checked on entry and aclFinalize reclaims what is left. A sorted
 * array of (address, kind) searched in O(log n) under one lock.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

typedef struct object_entry {
    uintptr_t address;
    int kind;
} object_entry;

static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static object_entry *entries;
static size_t entry_count, entry_capacity;

void rt_object_lock(void) { pthread_mutex_lock(&objects_lock); }
void rt_object_unlock(void) { pthread_mutex_unlock(&objects_lock); }

/* Index of the first entry whose address >= `address`. Lock held. */
static size_t lower_bound(uintptr_t address) {
    size_t lo = 0, hi = entry_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entries[mid].address < address)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int rt_object_add(int kind, const void *object) {
    uintptr_t address = (uintptr_t)object;
    rt_object_lock();
    if (entry_count == entry_capacity) {
        size_t capacity = entry_capacity ? entry_capacity * 2 : 64;
        object_entry *grown = realloc(entries, capacity * sizeof *grown);
        if (grown == NULL) {
            rt_object_unlock();
            return 0;
        }
        entries = grown;
        entry_capacity = capacity;
    }
    size_t at = lower_bound(address);
    memmove(&entries[at + 1], &entries[at], (entry_count - at) * sizeof *entries);
    entries[at].address = address;
    entries[at].kind = kind;
    entry_count++;
    rt_object_unlock();
    return 1;
}

int rt_object_live_locked(int kind, const void *object) {
    size_t at = lower_bound((uintptr_t)object);
    return at < entry_count && entries[at].address == (uintptr_t)object && entries[at].kind == kind;
}

int rt_object_remove_locked(int kind, const void *object) {
    if (!rt_object_live_locked(kind, object)) return 0;
    size_t at = lower_bound((uintptr_t)object);
    memmove(&entries[at], &entries[at + 1], (entry_count - at - 1) * sizeof *entries);
    entry_count--;
    return 1;
}

size_t rt_object_release_all(int kind, void (*release)(void *object)) {
    size_t released = 0;
    rt_object_lock();
    size_t kept = 0;
    for (size_t i = 0; i < entry_count; i++) {
        if (entries[i].kind == kind) {
            if (release) release((void *)entries[i].address);
            released++;
        } else {
            entries[kept++] = entries[i];
        }
    }
    entry_count = kept;
    rt_object_unlock();
    return released;
}
