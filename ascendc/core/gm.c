/*
 * ascendc/core/gm.c: GmAlloc's blocks (asc_twin/gm.h). A test allocates a handful, so a
 * plain array searched linearly under one lock is enough; a lookup happens once per data
 * move, not per element.
 */
#define _GNU_SOURCE /* PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP (rt_lock.h) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_lock.h"
#include "acl/acl.h"
#include "asc_twin/gm.h"
#include "mgrt.h"

typedef struct gm_block {
    uint8_t *base;
    uint64_t bytes;
} gm_block;

static pthread_mutex_t gm_lock = RT_MUTEX_INITIALIZER;
static gm_block *gm_blocks;
static size_t gm_count, gm_capacity;

void *asc_twin_gm_alloc(size_t bytes) {
    size_t rounded = bytes == 0 ? 32 : bytes > SIZE_MAX - 31 ? 0 : (bytes + 31) & ~(size_t)31;
    uint8_t *p = rounded == 0 ? NULL : aligned_alloc(32, rounded);
    if (p == NULL) {
        mgrt_fail(ACL_ERROR_BAD_ALLOC, "GmAlloc: no memory for %zu bytes", bytes);
        return NULL;
    }
    memset(p, 0, rounded);
    RT_LOCK(&gm_lock);
    if (gm_count == gm_capacity) {
        /* a new table rather than realloc: through mgrt_malloc, so that a test's
           MISHGRAD_FAULT_ALLOC reaches the path where the table cannot grow */
        size_t capacity = gm_capacity ? gm_capacity * 2 : 16;
        gm_block *grown = mgrt_malloc(capacity * sizeof *grown);
        if (grown != NULL) {
            if (gm_count > 0) memcpy(grown, gm_blocks, gm_count * sizeof *grown);
            mgrt_free(gm_blocks);
            gm_blocks = grown;
            gm_capacity = capacity;
        }
    }
    int stored = gm_count < gm_capacity;
    /* the block's bound is what was asked for: a kernel reading the rounding is out of bounds */
    if (stored) gm_blocks[gm_count++] = (gm_block){p, bytes};
    RT_UNLOCK(&gm_lock);
    if (!stored) {
        free(p);
        mgrt_fail(ACL_ERROR_BAD_ALLOC, "GmAlloc: no memory for %zu bytes", bytes);
        return NULL;
    }
    return p;
}

void asc_twin_gm_free(void *p) {
    if (p == NULL) return;
    int found = 0;
    RT_LOCK(&gm_lock);
    for (size_t i = 0; i < gm_count; i++) {
        if (gm_blocks[i].base == p) {
            gm_blocks[i] = gm_blocks[--gm_count];
            found = 1;
            break;
        }
    }
    RT_UNLOCK(&gm_lock);
    if (found)
        free(p);
    else
        mgrt_fail(ACL_ERROR_INVALID_PARAM, "GmFree: %p is not a block from GmAlloc (not freed)", p);
}

int asc_twin_gm_extent(const void *p, uint8_t **base, uint64_t *bytes) {
    uintptr_t at = (uintptr_t)p;
    int found = 0;
    RT_LOCK(&gm_lock);
    for (size_t i = 0; i < gm_count && !found; i++) {
        uintptr_t lo = (uintptr_t)gm_blocks[i].base;
        uint64_t span = gm_blocks[i].bytes == 0 ? 1 : gm_blocks[i].bytes;
        if (at >= lo && at - lo < span) {
            *base = gm_blocks[i].base;
            *bytes = gm_blocks[i].bytes;
            found = 1;
        }
    }
    RT_UNLOCK(&gm_lock);
    return found;
}
