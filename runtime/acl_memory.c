/*
 * runtime/acl_memory.c: device memory, host memory, copies and sets.
 *
 * Device 0 is this CPU, so a device block is host memory; the runtime keeps every live
 * block (address and size, sorted by address, found in O(log n)) so an operator can prove
 * that a tensor lies inside one, and so a bad free or copy is an error instead of heap
 * corruption. aclrtHostRegister adds a host range to the same table: registered memory is
 * device memory in place (zero copy) until aclrtHostUnregister.
 *
 * Every memory call holds `life` for reading while it works; aclFinalize takes it for
 * writing before it releases the blocks, so a call racing aclFinalize on another thread
 * either finishes first or gets ACL_ERROR_UNINITIALIZE, and never touches freed memory.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime_internal.h"

#define DEVICE_ALIGNMENT 64
/* CANN: aclrtHostRegister takes 4 KiB page-aligned host memory. */
#define HOST_REGISTER_ALIGNMENT 4096

typedef struct block {
    uintptr_t base;
    size_t size;
    int registered;     /* host memory from aclrtHostRegister (not ours to free) */
    uint32_t pins;      /* mgrt_mem_pin holders (a launch between its check and its queueing),
                           and queued tasks that use the block (rt_memory_hold) */
    int dying;          /* aclrtFree[Host] / aclrtHostUnregister has begun: no new pins, not
                           live; a freed block stays allocated until its last pin drops */
} block;

/* One table for device blocks (and registered host ranges), one for aclrtMallocHost. */
typedef struct block_table {
    block *blocks;
    size_t count, capacity;
} block_table;

static pthread_rwlock_t life = PTHREAD_RWLOCK_INITIALIZER;
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

static int table_insert(block_table *table, uintptr_t base, size_t size, int registered) {
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
    table->blocks[at].registered = registered;
    table->blocks[at].pins = 0;
    table->blocks[at].dying = 0;
    table->count++;
    return 1;
}

/* The block starting exactly at base, or NULL. Lock held. */
static block *table_find(block_table *table, uintptr_t base) {
    size_t at = find_block_at_or_below(table, base);
    return at == (size_t)-1 || table->blocks[at].base != base ? NULL : &table->blocks[at];
}

static void table_remove(block_table *table, block *b) {
    size_t at = (size_t)(b - table->blocks);
    memmove(&table->blocks[at], &table->blocks[at + 1], (table->count - at - 1) * sizeof(block));
    table->count--;
}

/* The block of `table` holding all of [address, address + bytes), dying or not, or NULL.
   Lock held. */
static const block *table_holding(const block_table *table, uintptr_t address, uint64_t bytes) {
    size_t at = find_block_at_or_below(table, address);
    if (at == (size_t)-1) return NULL;
    const block *b = &table->blocks[at];
    uint64_t from_base = (uint64_t)(address - b->base);
    return from_base <= b->size && bytes <= b->size - from_base ? b : NULL;
}

/* The live block that holds all of [address, address + bytes), or NULL. Lock held. */
static const block *table_covering(const block_table *table, uintptr_t address, uint64_t bytes) {
    const block *b = table_holding(table, address, bytes);
    return b != NULL && !b->dying ? b : NULL;
}

/* A block overlapping [address, address + bytes) (bytes > 0), or NULL. Lock held. */
static const block *table_overlapping(const block_table *table, uintptr_t address, uint64_t bytes) {
    size_t at = find_block_at_or_below(table, address + bytes - 1);
    if (at == (size_t)-1) return NULL;
    const block *b = &table->blocks[at];
    return b->base + b->size > address ? b : NULL;
}

/* What [ptr, ptr + bytes) is among the device blocks, in one lookup: inside no block,
   inside an aclrtMalloc block, or inside a range from aclrtHostRegister. */
typedef enum device_range { RANGE_NOT_DEVICE, RANGE_MALLOCED, RANGE_REGISTERED } device_range;
static device_range device_range_of(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return RANGE_NOT_DEVICE;
    pthread_mutex_lock(&memory_lock);
    const block *b = table_covering(&device_blocks, (uintptr_t)ptr, bytes);
    device_range kind = b == NULL ? RANGE_NOT_DEVICE : b->registered ? RANGE_REGISTERED : RANGE_MALLOCED;
    pthread_mutex_unlock(&memory_lock);
    return kind;
}

int mgrt_range_is_live(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    pthread_mutex_lock(&memory_lock);
    int live = table_covering(&device_blocks, (uintptr_t)ptr, bytes) != NULL;
    pthread_mutex_unlock(&memory_lock);
    return live;
}

int mgrt_device_extent(const void *ptr, uintptr_t *base, uint64_t *bytes) {
    if (ptr == NULL) return 0;
    pthread_mutex_lock(&memory_lock);
    const block *b = table_covering(&device_blocks, (uintptr_t)ptr, 1);
    if (b != NULL) {
        *base = b->base;
        *bytes = b->size;
    }
    pthread_mutex_unlock(&memory_lock);
    return b != NULL;
}

int mgrt_mem_pin(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    pthread_mutex_lock(&memory_lock);
    block *b = (block *)table_covering(&device_blocks, (uintptr_t)ptr, bytes);
    if (b != NULL) b->pins++;
    pthread_mutex_unlock(&memory_lock);
    return b != NULL;
}

/* Drops one pin of `b` (lock held). Returns the memory to free when that was the last pin
   of a block aclrtFree / aclrtFreeHost has already released (the block leaves the table),
   else NULL. */
static void *unpin_locked(block_table *table, block *b) {
    if (b->pins == 0 || --b->pins > 0) return NULL;
    pthread_cond_broadcast(&pins_dropped);
    if (!b->dying || b->registered) return NULL;
    void *memory = (void *)b->base;
    table_remove(table, b);
    return memory;
}

void mgrt_mem_unpin(const void *ptr) {
    pthread_mutex_lock(&memory_lock);
    size_t at = ptr == NULL ? (size_t)-1 : find_block_at_or_below(&device_blocks, (uintptr_t)ptr);
    void *memory = at == (size_t)-1 ? NULL : unpin_locked(&device_blocks, &device_blocks.blocks[at]);
    pthread_mutex_unlock(&memory_lock);
    free(memory);
}

/* A hold token: the block's base with bit 0 set for the aclrtMallocHost table (every base
   is at least 64-byte aligned). */
#define HOLD_HOST_BIT ((uintptr_t)1)

size_t rt_memory_hold(const void *ptr, uint64_t bytes, int live_only, uintptr_t tokens[2]) {
    size_t count = 0;
    if (ptr == NULL || bytes == 0) return 0;
    pthread_mutex_lock(&memory_lock);
    for (int host = 0; host <= 1; host++) {
        block_table *table = host ? &host_blocks : &device_blocks;
        block *b = (block *)(live_only ? table_covering : table_holding)(table, (uintptr_t)ptr, bytes);
        if (b == NULL) continue;
        b->pins++;
        tokens[count++] = b->base | (host ? HOLD_HOST_BIT : 0);
    }
    pthread_mutex_unlock(&memory_lock);
    return count;
}

void rt_memory_drop(uintptr_t token) {
    block_table *table = token & HOLD_HOST_BIT ? &host_blocks : &device_blocks;
    pthread_mutex_lock(&memory_lock);
    block *b = table_find(table, token & ~HOLD_HOST_BIT);
    void *memory = b == NULL ? NULL : unpin_locked(table, b);
    pthread_mutex_unlock(&memory_lock);
    free(memory);
}

/* The first step of aclrtHostUnregister: marks the registered range starting at `base`
   dying (no new pins, not live) and waits until no pin is held: a launch that checked it has
   queued its work, and the queued work holding it has run. 0 when no live registered range
   starts there (or another call has it). */
static int begin_unregister(uintptr_t base) {
    pthread_mutex_lock(&memory_lock);
    block *b = table_find(&device_blocks, base);
    int found = b != NULL && !b->dying && b->registered;
    if (found) {
        b->dying = 1;
        for (;;) { /* the table may move while we wait: look the block up again each time */
            b = table_find(&device_blocks, base);
            if (b->pins == 0) break;
            pthread_cond_wait(&pins_dropped, &memory_lock);
        }
    }
    pthread_mutex_unlock(&memory_lock);
    return found;
}

/* 1 when [ptr, ptr + bytes) is page-locked host memory: inside one aclrtMallocHost block,
   or a range aclrtHostRegister locked. */
static int range_is_page_locked_host(const void *ptr, uint64_t bytes) {
    pthread_mutex_lock(&memory_lock);
    int pinned = table_covering(&host_blocks, (uintptr_t)ptr, bytes) != NULL;
    pthread_mutex_unlock(&memory_lock);
    return pinned || device_range_of(ptr, bytes) == RANGE_REGISTERED;
}

/* ---- entering a memory call ------------------------------------------------------------------ */

/* Holds `life` for reading and checks the runtime and the calling thread's context. On
   failure nothing is held and the status (message set) is returned. */
static aclError enter(const char *api) {
    /* A call that will fail anyway does not take `life`: glibc's rwlock prefers readers, so
       threads that kept calling while aclFinalize waited for the write side starved it for
       good (issue 25). Once aclFinalize began, no new reader comes; the ones already past this
       check are finitely many. */
    if (!mgrt_initialized()) return rt_require_init(api);
    pthread_rwlock_rdlock(&life);
    aclError status = rt_require_context(api);
    if (status != ACL_SUCCESS) pthread_rwlock_unlock(&life);
    return status;
}

static aclError leave(aclError status) {
    pthread_rwlock_unlock(&life);
    return status;
}

/* ---- allocation ---------------------------------------------------------------------------------- */

/* Exactly `size` bytes (not rounded up to the alignment), so AddressSanitizer sees an
   overrun of even one byte past a block. */
static void *aligned_block(size_t alignment, size_t size) {
    void *memory = NULL;
    return posix_memalign(&memory, alignment, size) == 0 ? memory : NULL;
}

static aclError allocate(const char *api, block_table *table, void **ptr, size_t size) {
    const char *argument = table == &device_blocks ? "devPtr" : "hostPtr";
    if (ptr == NULL) return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, argument));
    if (size == 0) return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: size is 0", api));
    /* aclrtMallocHost's blocks are page aligned, as the driver's page-locked memory is, so
       they can be passed to aclrtHostRegister as CANN documents. */
    void *memory = aligned_block(table == &device_blocks ? DEVICE_ALIGNMENT : HOST_REGISTER_ALIGNMENT, size);
    if (memory == NULL)
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot allocate %zu bytes", api, size));
    pthread_mutex_lock(&memory_lock);
    int recorded = table_insert(table, (uintptr_t)memory, size, 0);
    pthread_mutex_unlock(&memory_lock);
    if (!recorded) {
        free(memory);
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot record a new block", api));
    }
    *ptr = memory;
    return leave(ACL_SUCCESS);
}

/* CANN pads every device allocation by 64 bytes; a size whose padding wraps is refused
   before allocating. */
#define CANN_MALLOC_PADDING 64

/* Any policy value is accepted: CANN takes a value outside aclrtMemMallocPolicy as the
   default policy, and every policy means the same memory here. */
static aclError device_malloc(const char *api, void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    (void)policy;
    aclError status = enter(api);
    if (status != ACL_SUCCESS) return status;
    if (devPtr != NULL && size > SIZE_MAX - CANN_MALLOC_PADDING)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "%s: size %zu too large (with CANN's %d bytes of padding it overflows size_t)", api,
                                  size, CANN_MALLOC_PADDING));
    return allocate(api, &device_blocks, devPtr, size);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return device_malloc("aclrtMalloc", devPtr, size, policy);
}

/* Every device block is 64-byte aligned and exactly `size` long, which covers CANN's 32-byte
   alignment without padding. */
aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return device_malloc("aclrtMallocAlign32", devPtr, size, policy);
}

/* A cache policy of the device's; the same memory here. Freed by aclrtFree. */
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return device_malloc("aclrtMallocCached", devPtr, size, policy);
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    aclError status = enter("aclrtMallocHost");
    if (status != ACL_SUCCESS) return status;
    return allocate("aclrtMallocHost", &host_blocks, hostPtr, size);
}

/* aclrtFree / aclrtFreeHost: the block stops being live at once (a later use of it is
   refused), and its memory is freed now, or, when queued work still holds it (an async copy
   or set, a launch), by the task that drops the last pin: the call never waits, and nothing
   queued touches freed memory. */
static aclError release(const char *api, block_table *table, void *ptr) {
    aclError status = enter(api);
    if (status != ACL_SUCCESS) return status;
    int device = table == &device_blocks;
    if (ptr == NULL) return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, device ? "devPtr" : "hostPtr"));
    pthread_mutex_lock(&memory_lock);
    block *b = table_find(table, (uintptr_t)ptr);
    int live = b != NULL && !b->dying;
    int registered = live && b->registered;
    /* An aclrtMallocHost block with a live registration inside it (aclrtHostRegister of it,
       or of part of it) is refused: launches reach it through the device address until
       aclrtHostUnregister, and freeing it under them was a use after free (issue 25). */
    const block *mapped = live && !device ? table_overlapping(&device_blocks, b->base, b->size) : NULL;
    uintptr_t mapped_base = mapped != NULL ? mapped->base : 0;
    void *memory = NULL;
    if (live && !registered && mapped == NULL) {
        b->dying = 1;
        if (b->pins == 0) {
            memory = (void *)b->base;
            table_remove(table, b);
        }
    }
    pthread_mutex_unlock(&memory_lock);
    if (registered)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "%s: %p is host memory registered by aclrtHostRegister; release it with "
                                  "aclrtHostUnregister",
                                  api, ptr));
    if (mapped != NULL)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "%s: %p is still registered with aclrtHostRegister (the range at %p); call "
                                  "aclrtHostUnregister first, then free it",
                                  api, ptr, (void *)mapped_base));
    if (!live)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "%s: %p is not the start of a live block (freed twice, or not from %s)", api, ptr,
                                  device ? "aclrtMalloc" : "aclrtMallocHost"));
    free(memory);
    return leave(ACL_SUCCESS);
}

aclError aclrtFree(void *devPtr) { return release("aclrtFree", &device_blocks, devPtr); }

/* CANN synchronizes the device first, so the free never races work still queued; its
   errors are the synchronize's. */
aclError aclrtFreeWithDevSync(void *devPtr) {
    aclError status = aclrtSynchronizeDevice();
    if (status != ACL_SUCCESS) return status;
    return release("aclrtFreeWithDevSync", &device_blocks, devPtr);
}
aclError aclrtFreeHost(void *hostPtr) { return release("aclrtFreeHost", &host_blocks, hostPtr); }

/* ---- host registration ------------------------------------------------------------------------------ */

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
    static const char api[] = "aclrtHostRegister";
    aclError status = enter(api);
    if (status != ACL_SUCCESS) return status;
    if (ptr == NULL || devPtr == NULL)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: %s is NULL", ptr == NULL ? "ptr" : "devPtr"));
    if (size == 0) return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: size is 0"));
    /* CANN's HostRegister: a type with a bit outside IOMEMORY | READONLY is 207000. */
    if ((uint32_t)type & ~(uint32_t)(ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY))
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                  "aclrtHostRegister: type %d is not supported; use ACL_HOST_REGISTER_MAPPED (0)",
                                  (int)type));
    if (type != ACL_HOST_REGISTER_MAPPED)
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                  "aclrtHostRegister: type %d (ACL_HOST_REGISTER_IOMEMORY / READONLY) is reserved and "
                                  "not supported (CANN: reserved option)",
                                  (int)type));
    if ((uintptr_t)ptr % HOST_REGISTER_ALIGNMENT != 0)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "aclrtHostRegister: ptr %p is not aligned to a 4 KiB page (CANN requires page-aligned "
                                  "host memory)",
                                  ptr));
    if (size > UINTPTR_MAX - (uintptr_t)ptr || size > SIZE_MAX)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "aclrtHostRegister: [%p, +%llu bytes) wraps around the address space", ptr,
                                  (unsigned long long)size));
    pthread_mutex_lock(&memory_lock);
    const block *clash = table_overlapping(&device_blocks, (uintptr_t)ptr, size);
    int registered_clash = clash != NULL && clash->registered;
    uintptr_t clash_base = clash ? clash->base : 0;
    size_t clash_size = clash ? clash->size : 0;
    int recorded = clash == NULL && table_insert(&device_blocks, (uintptr_t)ptr, (size_t)size, 1);
    pthread_mutex_unlock(&memory_lock);
    if (registered_clash)
        return leave(mgrt_fail_at(api, ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                                  "aclrtHostRegister: [%p, +%llu bytes) overlaps the registered range [%p, +%zu "
                                  "bytes)",
                                  ptr, (unsigned long long)size, (void *)clash_base, clash_size));
    if (clash != NULL)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                                  "aclrtHostRegister: [%p, +%llu bytes) overlaps device memory from aclrtMalloc "
                                  "[%p, +%zu bytes); only host memory can be registered",
                                  ptr, (unsigned long long)size, (void *)clash_base, clash_size));
    if (!recorded)
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtHostRegister: cannot record the range"));
    /* Zero copy: the device address is the host address. */
    *devPtr = ptr;
    return leave(ACL_SUCCESS);
}

aclError aclrtHostUnregister(void *ptr) {
    static const char api[] = "aclrtHostUnregister";
    aclError status = enter(api);
    if (status != ACL_SUCCESS) return status;
    if (ptr == NULL) return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister: ptr is NULL"));
    /* It waits for every stream, the one a blocking callback holds too: refused there. */
    if ((status = rt_refuse_in_blocking_callback(api)) != ACL_SUCCESS) return leave(status);
    /* Launches holding a pin queue first; queued work may still use the range. */
    int found = begin_unregister((uintptr_t)ptr);
    if (found) {
        rt_streams_wait_all();
        pthread_mutex_lock(&memory_lock);
        block *b = table_find(&device_blocks, (uintptr_t)ptr);
        if (b != NULL) table_remove(&device_blocks, b);
        pthread_mutex_unlock(&memory_lock);
    }
    if (!found)
        return leave(mgrt_fail_at(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                                  "aclrtHostUnregister: %p is not the start of a range registered by "
                                  "aclrtHostRegister (never registered, or unregistered already)",
                                  ptr));
    return leave(ACL_SUCCESS);
}

/* ---- copies and sets ------------------------------------------------------------------------------------ */

/* Pins on the blocks a copy or set touches, taken before its checks: a block found live by
   the checks then stays allocated until the copy is done (blocking) or queued (the queued
   task pins it in turn), whatever aclrtFree / aclrtFreeHost a racing thread calls. */
typedef struct range_holds {
    uintptr_t tokens[4];
    size_t count;
} range_holds;

static void hold_range(range_holds *h, const void *ptr, size_t count) {
    h->count += rt_memory_hold(ptr, count, 1, &h->tokens[h->count]);
}

static aclError drop_holds(range_holds *h, aclError status) {
    for (size_t i = 0; i < h->count; i++) rt_memory_drop(h->tokens[i]);
    h->count = 0;
    return status;
}

/* A side of a copy or set that must be device memory. Registered host memory is device
   memory to operators (tensors), but CANN documents that the device address
   aclrtHostRegister maps cannot be used for memory operations such as copies; here that
   address is the host pointer itself, so a device side inside a registered range is it. */
static aclError check_device_range(const char *api, const char *what, const void *ptr, size_t count) {
    const device_range kind = device_range_of(ptr, count);
    if (kind == RANGE_MALLOCED) return ACL_SUCCESS;
    if (kind == RANGE_REGISTERED)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                            "%s: %s range [%p, +%zu bytes) is host memory registered by aclrtHostRegister: its "
                            "device address cannot be used for memory operations (copies, sets); pass it as the "
                            "host side of a copy, or copy into aclrtMalloc memory",
                            api, what, ptr, count);
    return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                        "%s: %s range [%p, +%zu bytes) is not inside one live aclrtMalloc block", api, what, ptr,
                        count);
}

/* Like enter(), but a zero count succeeds once the runtime is initialized: CANN returns
   before every other check (NULL pointers, the kind, the context) when there is nothing
   to copy or set. *done is then 1, and nothing is held. */
static aclError enter_sized(const char *api, size_t count, int *done) {
    *done = 0;
    if (!mgrt_initialized()) return rt_require_init(api); /* as in enter(): never starve aclFinalize */
    pthread_rwlock_rdlock(&life);
    aclError status = rt_require_init(api);
    if (status == ACL_SUCCESS && count == 0) {
        mgrt_log(MGRT_LOG_INFO, "RUNTIME", "%s: count is 0, nothing to do", api);
        *done = 1;
    } else if (status == ACL_SUCCESS) {
        status = rt_require_context(api);
    }
    if (status != ACL_SUCCESS || *done) pthread_rwlock_unlock(&life);
    return status;
}

/* CANN's runtime refuses a zero or too small destination with 107000, after the acl
   layer's checks. */
static aclError check_capacity(const char *api, const char *capacity_name, size_t capacity, size_t count) {
    if (capacity == 0) return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID, "%s: %s is 0", api, capacity_name);
    if (count > capacity)
        return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID, "%s: count %zu exceeds %s %zu", api, count,
                            capacity_name, capacity);
    return ACL_SUCCESS;
}

/* Checks a copy's arguments (count > 0), in CANN's order: the pointers, the kind, the
   capacity; then, for a blocking copy (same != NULL), *same is 1 when dst == src: CANN's
   synchronous copy returns there, with nothing to copy and nothing more checked.
   Otherwise *dst_dev / *src_dev say which sides are device memory, each checked against
   the live blocks: CANN infers the direction from the pointers, but here a side the kind
   calls device memory must be a live aclrtMalloc block, so that a stale device pointer is
   refused instead of reaching freed memory. */
static aclError check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count,
                           aclrtMemcpyKind kind, int *same, int *dst_dev, int *src_dev) {
    if (same != NULL) *same = 0;
    if (dst == NULL || src == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, dst == NULL ? "dst" : "src");
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: *dst_dev = 0; *src_dev = 0; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: *dst_dev = 1; *src_dev = 0; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: *dst_dev = 0; *src_dev = 1; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: *dst_dev = 1; *src_dev = 1; break;
    case ACL_MEMCPY_DEFAULT:
        /* The runtime tells the sides apart by the blocks it knows; a registered range is
           the host pointer here (its device address takes no copies). */
        *dst_dev = device_range_of(dst, 0) == RANGE_MALLOCED;
        *src_dev = device_range_of(src, 0) == RANGE_MALLOCED;
        break;
    default:
        /* CANN's acl layer translates 0..5 only; INNER/INTER_DEVICE_TO_DEVICE (6, 7) are
           declared but refused there too. */
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM,
                            "%s: kind %d is not a copy kind; use ACL_MEMCPY_HOST_TO_HOST (0) .. "
                            "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (5)",
                            api, (int)kind);
    }
    aclError status = check_capacity(api, "destMax", destMax, count);
    if (status != ACL_SUCCESS) return status;
    if (same != NULL && dst == src) {
        *same = 1;
        return ACL_SUCCESS;
    }
    if (*dst_dev && (status = check_device_range(api, "dst", dst, count)) != ACL_SUCCESS) return status;
    if (*src_dev && (status = check_device_range(api, "src", src, count)) != ACL_SUCCESS) return status;
    /* CANN's runtime in EP mode (aclrtGetRunMode: ACL_HOST, as here) has no asynchronous copy
       within host memory: HOST_TO_HOST, or DEFAULT between two host pointers, is 207000. */
    if (same == NULL && !*dst_dev && !*src_dev)
        return mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: asynchronous host-to-host copies are not supported (%s; the run mode is "
                            "ACL_HOST, CANN's EP mode, which refuses them); copy with aclrtMemcpy or memcpy",
                            api, kind == ACL_MEMCPY_DEFAULT ? "ACL_MEMCPY_DEFAULT with two host pointers" : "kind ACL_MEMCPY_HOST_TO_HOST");
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    static const char api[] = "aclrtMemcpy";
    int done = 0;
    aclError status = enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    int same = 0, dst_dev = 0, src_dev = 0;
    range_holds holds = {{0}, 0};
    hold_range(&holds, dst, count);
    hold_range(&holds, src, count);
    if ((status = check_copy(api, dst, destMax, src, count, kind, &same, &dst_dev, &src_dev)) != ACL_SUCCESS)
        return leave(drop_holds(&holds, status));
    if (same) return leave(drop_holds(&holds, ACL_SUCCESS));
    /* CANN: the copy happens at once, with no implicit device or stream synchronization, so
       work queued on other memory is never waited for. Bytes that unfinished queued work
       writes (or reads, when the copy writes them) are copied once that work is done. */
    mgrt_access accesses[2] = {{.ptr = dst, .bytes = count, .write = 1}, {.ptr = src, .bytes = count, .write = 0}};
    rt_streams_wait_overlapping(accesses, 2);
    memmove(dst, src, count);
    return leave(drop_holds(&holds, ACL_SUCCESS));
}

/* CANN: the memory set may be host or device memory, told apart by the address, and host
   memory must come from acl (aclrtMallocHost): a range inside one live aclrtMallocHost block
   is taken as host memory; anything else must be device memory. */
static aclError check_set(const char *api, void *devPtr, size_t maxCount, size_t count) {
    if (devPtr == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: devPtr is NULL", api);
    aclError status = check_capacity(api, "maxCount", maxCount, count);
    if (status != ACL_SUCCESS) return status;
    pthread_mutex_lock(&memory_lock);
    int host_block = table_covering(&host_blocks, (uintptr_t)devPtr, count) != NULL;
    pthread_mutex_unlock(&memory_lock);
    return host_block ? ACL_SUCCESS : check_device_range(api, "devPtr", devPtr, count);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    static const char api[] = "aclrtMemset";
    int done = 0;
    aclError status = enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    range_holds holds = {{0}, 0};
    hold_range(&holds, devPtr, count);
    if ((status = check_set(api, devPtr, maxCount, count)) != ACL_SUCCESS) return leave(drop_holds(&holds, status));
    /* Like aclrtMemcpy: waits only for queued work on the bytes it sets. */
    mgrt_access access = {.ptr = devPtr, .bytes = count, .write = 1};
    rt_streams_wait_overlapping(&access, 1);
    memset(devPtr, value, count);
    return leave(drop_holds(&holds, ACL_SUCCESS));
}

/* A queued copy or set. */
typedef struct copy_task {
    void *dst;
    const void *src; /* NULL: a set */
    size_t count;
    int value;
} copy_task;

static int32_t copy_run(void *task) {
    copy_task *t = task;
    if (t->src != NULL)
        memmove(t->dst, t->src, t->count);
    else
        memset(t->dst, t->value, t->count);
    return 0;
}

static void copy_release(void *task) { mgrt_free(task); }

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    static const char api[] = "aclrtMemcpyAsync";
    int done = 0;
    aclError status = enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    int dst_dev = 0, src_dev = 0;
    range_holds holds = {{0}, 0};
    hold_range(&holds, dst, count);
    hold_range(&holds, src, count);
    if ((status = check_copy(api, dst, destMax, src, count, kind, NULL, &dst_dev, &src_dev)) != ACL_SUCCESS)
        return leave(drop_holds(&holds, status));
    /* CANN: with page-locked host memory (aclrtMallocHost, or a range aclrtHostRegister
       locked) the copy is asynchronous; with pageable host memory (malloc) the call returns
       once the copy is done. */
    const int src_pageable = !src_dev && !range_is_page_locked_host(src, count);
    int pageable = (!dst_dev && !range_is_page_locked_host(dst, count)) || src_pageable;
    /* Inside a blocking callback the copy may be queued behind that very callback, and
       waiting for it would deadlock (issue 25): a pageable source is staged now, as a driver
       stages pageable memory, so the call can return before the copy runs. */
    const int staged = pageable && src_pageable && rt_streams_in_blocking_callback();
    copy_task *t = mgrt_malloc(sizeof *t + (staged ? count : 0));
    if (t == NULL)
        return leave(drop_holds(&holds, mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMemcpyAsync: out of memory")));
    if (staged) memcpy(t + 1, src, count);
    t->dst = dst;
    t->src = staged ? (const void *)(t + 1) : src;
    t->count = count;
    t->value = 0;
    mgrt_access accesses[2] = {{.ptr = dst, .bytes = count, .write = 1}, {.ptr = src, .bytes = count, .write = 0}};
    status = rt_stream_submit_acl(api, stream, copy_run, copy_release, t, accesses, staged ? 1 : 2, pageable);
    return leave(drop_holds(&holds, status));
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    static const char api[] = "aclrtMemsetAsync";
    int done = 0;
    aclError status = enter_sized(api, count, &done);
    if (status != ACL_SUCCESS || done) return status;
    range_holds holds = {{0}, 0};
    hold_range(&holds, devPtr, count);
    if ((status = check_set(api, devPtr, maxCount, count)) != ACL_SUCCESS) return leave(drop_holds(&holds, status));
    copy_task *t = mgrt_malloc(sizeof *t);
    if (t == NULL)
        return leave(drop_holds(&holds, mgrt_fail_at(api, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMemsetAsync: out of memory")));
    t->dst = devPtr;
    t->src = NULL;
    t->count = count;
    t->value = value;
    mgrt_access access = {.ptr = devPtr, .bytes = count, .write = 1};
    return leave(drop_holds(&holds, rt_stream_submit_acl(api, stream, copy_run, copy_release, t, &access, 1, 0)));
}

/* ---- information ---------------------------------------------------------------------------------------- */

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
    static const char api[] = "aclrtGetMemInfo";
    aclError status = enter(api);
    if (status != ACL_SUCCESS) return status;
    if (free == NULL || total == NULL)
        return leave(mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: %s is NULL", free == NULL ? "free" : "total"));
    /* CANN's MemGetInfoEx, after the acl layer's NULL checks: 107016. */
    if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G)
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_INVALID_MEMORY_TYPE,
                                  "aclrtGetMemInfo: attr %d is not a aclrtMemAttr (use 0 .. 17)", (int)attr));
    /* Device memory is this machine's memory: every kind reports the same. */
    long page = sysconf(_SC_PAGESIZE);
    long pages = sysconf(_SC_PHYS_PAGES);
    long available = sysconf(_SC_AVPHYS_PAGES);
    if (page <= 0 || pages <= 0 || available < 0)
        return leave(mgrt_fail_at(api, ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetMemInfo: the system does not report its memory"));
    *total = (size_t)pages * (size_t)page;
    *free = (size_t)available * (size_t)page;
    return leave(ACL_SUCCESS);
}

/* ---- aclFinalize ------------------------------------------------------------------------------------------ */

static size_t release_table(block_table *table) {
    size_t count = 0;
    for (size_t i = 0; i < table->count; i++) {
        if (table->blocks[i].registered) continue; /* the program's own memory */
        free((void *)table->blocks[i].base);
        if (!table->blocks[i].dying) count++; /* a freed block waiting for its last pin is no leak */
    }
    free(table->blocks);
    memset(table, 0, sizeof *table);
    return count;
}

size_t rt_memory_release_all(void) {
    /* Waits for every memory call in flight; later ones see the runtime finalized. */
    pthread_rwlock_wrlock(&life);
    pthread_mutex_lock(&memory_lock);
    size_t count = release_table(&device_blocks) + release_table(&host_blocks);
    pthread_mutex_unlock(&memory_lock);
    pthread_rwlock_unlock(&life);
    return count;
}
