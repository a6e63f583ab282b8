/*
 * runtime/acl_memory.c: device memory and host memory: the block tables, pins, allocation,
 * release and host registration. Copies and sets, and the memory calls that wait for
 * streams, sit above both memory and streams (acl_copy.c).
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
static pthread_mutex_t memory_lock = RT_MUTEX_INITIALIZER;
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

rt_device_range rt_memory_device_range(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return RT_RANGE_NOT_DEVICE;
    RT_LOCK(&memory_lock);
    const block *b = table_covering(&device_blocks, (uintptr_t)ptr, bytes);
    rt_device_range kind = b == NULL ? RT_RANGE_NOT_DEVICE : b->registered ? RT_RANGE_REGISTERED : RT_RANGE_MALLOCED;
    RT_UNLOCK(&memory_lock);
    return kind;
}

int mgrt_range_is_live(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    RT_LOCK(&memory_lock);
    int live = table_covering(&device_blocks, (uintptr_t)ptr, bytes) != NULL;
    RT_UNLOCK(&memory_lock);
    return live;
}

int mgrt_device_extent(const void *ptr, uintptr_t *base, uint64_t *bytes) {
    if (ptr == NULL) return 0;
    RT_LOCK(&memory_lock);
    const block *b = table_covering(&device_blocks, (uintptr_t)ptr, 1);
    if (b != NULL) {
        *base = b->base;
        *bytes = b->size;
    }
    RT_UNLOCK(&memory_lock);
    return b != NULL;
}

int mgrt_mem_pin(const void *ptr, uint64_t bytes) {
    if (ptr == NULL) return 0;
    RT_LOCK(&memory_lock);
    block *b = (block *)table_covering(&device_blocks, (uintptr_t)ptr, bytes);
    if (b != NULL) b->pins++;
    RT_UNLOCK(&memory_lock);
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
    RT_LOCK(&memory_lock);
    size_t at = ptr == NULL ? (size_t)-1 : find_block_at_or_below(&device_blocks, (uintptr_t)ptr);
    void *memory = at == (size_t)-1 ? NULL : unpin_locked(&device_blocks, &device_blocks.blocks[at]);
    RT_UNLOCK(&memory_lock);
    free(memory);
}

/* A hold token: the block's base with bit 0 set for the aclrtMallocHost table (every base
   is at least 64-byte aligned). */
#define HOLD_HOST_BIT ((uintptr_t)1)

size_t rt_memory_hold(const void *ptr, uint64_t bytes, int live_only, uintptr_t tokens[2]) {
    size_t count = 0;
    if (ptr == NULL || bytes == 0) return 0;
    RT_LOCK(&memory_lock);
    for (int host = 0; host <= 1; host++) {
        block_table *table = host ? &host_blocks : &device_blocks;
        block *b = (block *)(live_only ? table_covering : table_holding)(table, (uintptr_t)ptr, bytes);
        if (b == NULL) continue;
        b->pins++;
        tokens[count++] = b->base | (host ? HOLD_HOST_BIT : 0);
    }
    RT_UNLOCK(&memory_lock);
    return count;
}

void rt_memory_drop(uintptr_t token) {
    block_table *table = token & HOLD_HOST_BIT ? &host_blocks : &device_blocks;
    RT_LOCK(&memory_lock);
    block *b = table_find(table, token & ~HOLD_HOST_BIT);
    void *memory = b == NULL ? NULL : unpin_locked(table, b);
    RT_UNLOCK(&memory_lock);
    free(memory);
}

/* The first step of aclrtHostUnregister (acl_copy.c): marks the range dying and waits until
   no pin is held (runtime_internal.h). */
int rt_memory_unregister_begin(const void *ptr) {
    const uintptr_t base = (uintptr_t)ptr;
    RT_LOCK(&memory_lock);
    block *b = table_find(&device_blocks, base);
    int found = b != NULL && !b->dying && b->registered;
    if (found) {
        b->dying = 1;
        for (;;) { /* the table may move while we wait: look the block up again each time */
            b = table_find(&device_blocks, base);
            if (b->pins == 0) break;
            RT_WAIT(&pins_dropped, &memory_lock);
        }
    }
    RT_UNLOCK(&memory_lock);
    return found;
}

int rt_memory_is_page_locked_host(const void *ptr, uint64_t bytes) {
    RT_LOCK(&memory_lock);
    int pinned = table_covering(&host_blocks, (uintptr_t)ptr, bytes) != NULL;
    RT_UNLOCK(&memory_lock);
    return pinned || rt_memory_device_range(ptr, bytes) == RT_RANGE_REGISTERED;
}

int rt_memory_in_host_block(const void *ptr, uint64_t bytes) {
    RT_LOCK(&memory_lock);
    int host_block = table_covering(&host_blocks, (uintptr_t)ptr, bytes) != NULL;
    RT_UNLOCK(&memory_lock);
    return host_block;
}

void rt_memory_unregister_end(const void *ptr) {
    RT_LOCK(&memory_lock);
    block *b = table_find(&device_blocks, (uintptr_t)ptr);
    if (b != NULL) table_remove(&device_blocks, b);
    RT_UNLOCK(&memory_lock);
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

/* Like enter(), but a zero count succeeds once the runtime is initialized: CANN returns
   before every other check (NULL pointers, the kind, the context) when there is nothing
   to copy or set. *done is then 1, and nothing is held. */
aclError rt_memory_enter_sized(const char *api, size_t count, int *done) {
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

aclError rt_memory_enter(const char *api) { return enter(api); }

aclError rt_memory_leave(aclError status) { return leave(status); }

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
    RT_LOCK(&memory_lock);
    int recorded = table_insert(table, (uintptr_t)memory, size, 0);
    RT_UNLOCK(&memory_lock);
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
    RT_LOCK(&memory_lock);
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
    RT_UNLOCK(&memory_lock);
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
aclError rt_memory_free_device(const char *api, void *devPtr) { return release(api, &device_blocks, devPtr); }

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
    RT_LOCK(&memory_lock);
    const block *clash = table_overlapping(&device_blocks, (uintptr_t)ptr, size);
    int registered_clash = clash != NULL && clash->registered;
    uintptr_t clash_base = clash ? clash->base : 0;
    size_t clash_size = clash ? clash->size : 0;
    int recorded = clash == NULL && table_insert(&device_blocks, (uintptr_t)ptr, (size_t)size, 1);
    RT_UNLOCK(&memory_lock);
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
    RT_LOCK(&memory_lock);
    size_t count = release_table(&device_blocks) + release_table(&host_blocks);
    RT_UNLOCK(&memory_lock);
    pthread_rwlock_unlock(&life);
    return count;
}
