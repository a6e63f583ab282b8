/*
 * runtime/acl_memory.c: device memory. Device 0 is this CPU, so a device block is host
 * memory; the runtime keeps every live block (address and size, sorted by address) so an
 * operator can prove that a tensor lies inside one, and so a bad free or copy is an error
 * instead of heap corruption.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime_internal.h"

#define DEVICE_ALIGNMENT 64

typedef struct block {
    uintptr_t base;
    size_t size;
    uint32_t pins;      /* mgrt_mem_pin holders (a launch between its check and its queueing) */
    int dying;          /* aclrtFree has begun: no new pins, not live any more */
} block;

/* One table for device blocks, one for aclrtMallocHost blocks. */
typedef struct block_table {
    block *blocks;
    size_t count, capacity;
} block_table;

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static block_table device_blocks;
static block_table host_blocks;
static pthread_cond_t pins_dropped = PTHREAD_COND_INITIALIZER;

/* Index of the last block whose base <= address, or (size_t)-1. Lock held. */
static size_t find_block_at_or_below(const block_table *table, uintptr_t address) {
    size_t lo = 0, hi = table->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (table->blocks[mid].base <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? (size_t)-1 : lo - 1;
}

static int table_insert(block_table *table, uintptr_t base, size_t size) {
    if (table->count == table->capacity) {
        size_t capacity = table->capacity ? table->capacity * 2 : 64;
        block *grown = realloc(table->blocks, capacity * sizeof *grown);
        if (grown == NULL) return 0;
        table->blocks = grown;
        table->capacity = capacity;
    }
    size_t at = find_block_at_or_below(table, base) + 1; /* (size_t)-1 + 1 == 0 */
    memmove(&table->blocks[at + 1], &table->blocks[at], (table->count - at) * sizeof(block));
    table->blocks[at].base = base;
    table->blocks[at].size = size;
    table->blocks[at].pins = 0;
    table->blocks[at].dying = 0;
    table->count++;
    return 1;
}

/* Removes the block starting exactly at base; 0 if there is none. */
static int table_remove(block_table *table, uintptr_t base) {
    size_t at = find_block_at_or_below(table, base);
    if (at == (size_t)-1 || table->blocks[at].base != base) return 0;
    memmove(&table->blocks[at], &table->blocks[at + 1], (table->count - at - 1) * sizeof(block));
    table->count--;
    return 1;
}

/* Lock held. */
static int table_covers(const block_table *table, uintptr_t address, uint64_t bytes) {
    size_t at = find_block_at_or_below(table, address);
    if (at == (size_t)-1) return 0;
    const block *b = &table->blocks[at];
    uint64_t from_base = (uint64_t)(address - b->base);
    return !b->dying && from_base <= b->size && bytes <= b->size - from_base;
}

int mgrt_range_is_live(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    pthread_mutex_lock(&memory_lock);
    int live = table_covers(&device_blocks, (uintptr_t)ptr, bytes);
    pthread_mutex_unlock(&memory_lock);
    return live;
}

int mgrt_mem_pin(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    pthread_mutex_lock(&memory_lock);
    int live = table_covers(&device_blocks, (uintptr_t)ptr, bytes);
    if (live) device_blocks.blocks[find_block_at_or_below(&device_blocks, (uintptr_t)ptr)].pins++;
    pthread_mutex_unlock(&memory_lock);
    return live;
}

void mgrt_mem_unpin(const void *ptr) {
    pthread_mutex_lock(&memory_lock);
    size_t at = ptr == NULL ? (size_t)-1 : find_block_at_or_below(&device_blocks, (uintptr_t)ptr);
    if (at != (size_t)-1 && device_blocks.blocks[at].pins > 0 && --device_blocks.blocks[at].pins == 0)
        pthread_cond_broadcast(&pins_dropped);
    pthread_mutex_unlock(&memory_lock);
}

/* aclrtFree's first step: marks the block starting at `base` dying (no new pins, not live)
   and waits until no pin is held, so a launch that checked it has queued its work before
   the streams are drained. 0 if there is no such block, or another free has it. */
static int begin_free(uintptr_t base) {
    pthread_mutex_lock(&memory_lock);
    size_t at = find_block_at_or_below(&device_blocks, base);
    int found = at != (size_t)-1 && device_blocks.blocks[at].base == base && !device_blocks.blocks[at].dying;
    if (found) {
        device_blocks.blocks[at].dying = 1;
        for (;;) { /* the table may move while we wait: look the block up again each time */
            at = find_block_at_or_below(&device_blocks, base);
            if (device_blocks.blocks[at].pins == 0) break;
            pthread_cond_wait(&pins_dropped, &memory_lock);
        }
    }
    pthread_mutex_unlock(&memory_lock);
    return found;
}

/* Exactly `size` bytes (not rounded up to the alignment), so AddressSanitizer sees an
   overrun of even one byte past a block. */
static void *aligned_block(size_t size) {
    void *memory = NULL;
    return posix_memalign(&memory, DEVICE_ALIGNMENT, size) == 0 ? memory : NULL;
}

static aclError allocate(const char *api, block_table *table, void **ptr, size_t size) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    const char *argument = table == &device_blocks ? "devPtr" : "hostPtr";
    if (ptr == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, argument);
    if (size == 0) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    void *memory = aligned_block(size);
    if (memory == NULL)
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot allocate %zu bytes", api, size);
    pthread_mutex_lock(&memory_lock);
    int recorded = table_insert(table, (uintptr_t)memory, size);
    pthread_mutex_unlock(&memory_lock);
    if (!recorded) {
        free(memory);
        return mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot record a new block", api);
    }
    *ptr = memory;
    return ACL_SUCCESS;
}

static aclError release(const char *api, block_table *table, void *ptr) {
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (ptr == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api,
                            table == &device_blocks ? "devPtr" : "hostPtr");
    /* A launch holding a pin queues its work first; then work still queued may use the
       block: let it finish. */
    if (table == &device_blocks) {
        if (!begin_free((uintptr_t)ptr))
            return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                "%s: %p is not the start of a live block (freed twice, or not from aclrtMalloc)",
                                api, ptr);
        rt_streams_wait_all();
    }
    pthread_mutex_lock(&memory_lock);
    int removed = table_remove(table, (uintptr_t)ptr);
    pthread_mutex_unlock(&memory_lock);
    if (!removed)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "%s: %p is not the start of a live block (freed twice, or not from %s)",
                            api, ptr, table == &device_blocks ? "aclrtMalloc" : "aclrtMallocHost");
    free(ptr);
    return ACL_SUCCESS;
}

/* A page policy (0..7), optionally with CANN's memory-type and access flags. */
static int policy_is_valid(aclrtMemMallocPolicy policy) {
    unsigned value = (unsigned)policy;
    unsigned flags = (unsigned)ACL_MEM_TYPE_LOW_BAND_WIDTH | (unsigned)ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                     (unsigned)ACL_MEM_ACCESS_USER_SPACE_READONLY;
    return (value & ~flags) <= (unsigned)ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (!policy_is_valid(policy)) {
        aclError status = rt_require_init("aclrtMalloc");
        if (status != ACL_SUCCESS) return status;
        return mgrt_fail_at("aclrtMalloc", ACL_ERROR_INVALID_PARAM, "aclrtMalloc: policy %d is not a aclrtMemMallocPolicy",
                            (int)policy);
    }
    return allocate("aclrtMalloc", &device_blocks, devPtr, size);
}

aclError aclrtFree(void *devPtr) { return release("aclrtFree", &device_blocks, devPtr); }
aclError aclrtMallocHost(void **hostPtr, size_t size) {
    return allocate("aclrtMallocHost", &host_blocks, hostPtr, size);
}
aclError aclrtFreeHost(void *hostPtr) { return release("aclrtFreeHost", &host_blocks, hostPtr); }

static aclError check_device_range(const char *api, const char *what, const void *ptr, size_t count) {
    if (mgrt_range_is_live(ptr, count)) return ACL_SUCCESS;
    return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                        "%s: %s range [%p, +%zu bytes) is not inside one live aclrtMalloc block", api,
                        what, ptr, count);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    static const char api[] = "aclrtMemcpy";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (dst == NULL || src == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: %s is NULL", dst == NULL ? "dst" : "src");
    if (count > destMax)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count %zu exceeds destMax %zu", count,
                            destMax);
    int dst_on_device, src_on_device;
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: dst_on_device = 0; src_on_device = 0; break;
    case ACL_MEMCPY_HOST_TO_DEVICE: dst_on_device = 1; src_on_device = 0; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: dst_on_device = 0; src_on_device = 1; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: dst_on_device = 1; src_on_device = 1; break;
    case ACL_MEMCPY_DEFAULT:
        /* The runtime tells the sides apart by the blocks it knows. */
        dst_on_device = mgrt_range_is_live(dst, 0);
        src_on_device = mgrt_range_is_live(src, 0);
        break;
    default:
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: kind %d is not a aclrtMemcpyKind",
                            (int)kind);
    }
    if (dst_on_device && (status = check_device_range(api, "dst", dst, count)) != ACL_SUCCESS) return status;
    if (src_on_device && (status = check_device_range(api, "src", src, count)) != ACL_SUCCESS) return status;
    /* A copy is ordered after the work already queued on any stream, as a blocking copy is
       on a device: it never reads a result half written, nor overwrites an input in use. */
    if (dst_on_device || src_on_device) rt_streams_wait_all();
    if (count > 0) memmove(dst, src, count);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    static const char api[] = "aclrtMemset";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if (devPtr == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is NULL");
    if (count > maxCount)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtMemset: count %zu exceeds maxCount %zu", count,
                            maxCount);
    if ((status = check_device_range(api, "devPtr", devPtr, count)) != ACL_SUCCESS) return status;
    rt_streams_wait_all();
    memset(devPtr, value, count);
    return ACL_SUCCESS;
}

static size_t release_table(block_table *table) {
    size_t count = table->count;
    for (size_t i = 0; i < table->count; i++) free((void *)table->blocks[i].base);
    free(table->blocks);
    memset(table, 0, sizeof *table);
    return count;
}

size_t rt_memory_release_all(void) {
    pthread_mutex_lock(&memory_lock);
    size_t count = release_table(&device_blocks) + release_table(&host_blocks);
    pthread_mutex_unlock(&memory_lock);
    return count;
}

/* ---- more allocation calls ------------------------------------------------------------- */

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    /* Every device block is 64-byte aligned and exactly `size` long, which covers CANN's
       32-byte alignment without padding. */
    if (!policy_is_valid(policy)) {
        aclError status = rt_require_init("aclrtMallocAlign32");
        if (status != ACL_SUCCESS) return status;
        return mgrt_fail_at("aclrtMallocAlign32", ACL_ERROR_INVALID_PARAM,
                            "aclrtMallocAlign32: policy %d is not a aclrtMemMallocPolicy", (int)policy);
    }
    return allocate("aclrtMallocAlign32", &device_blocks, devPtr, size);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
    static const char api[] = "aclrtGetMemInfo";
    aclError status = rt_require_init(api);
    if (status != ACL_SUCCESS) return status;
    if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: attr %d is not a aclrtMemAttr", (int)attr);
    if (free == NULL || total == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: %s is NULL", free == NULL ? "free" : "total");
    /* Device memory is this machine's memory: every kind reports the same. */
    long page = sysconf(_SC_PAGESIZE);
    long pages = sysconf(_SC_PHYS_PAGES);
    long available = sysconf(_SC_AVPHYS_PAGES);
    if (page <= 0 || pages <= 0 || available < 0)
        return mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetMemInfo: the system does not report its memory");
    *total = (size_t)pages * (size_t)page;
    *free = (size_t)available * (size_t)page;
    return ACL_SUCCESS;
}
