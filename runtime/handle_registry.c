/*
 * runtime/handle_registry.c: the shared handle registry (see mgrt_handle.h).
 *
 * Slots live in fixed chunks (never moved), found by index. A token is
 *     TAG << 48 | generation << 24 | slot
 * with 24 bits each for the slot and its generation. Freed slots are reused first in,
 * first out, and a slot whose generation would wrap is retired for good, so no token is
 * ever valid twice. The tag in bits 48..55 keeps tokens off any mapped address.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

_Static_assert(sizeof(void *) == 8, "handle tokens need 64-bit pointers");

#define SLOT_BITS 24
#define GEN_BITS 24
#define SLOT_MASK ((UINT64_C(1) << SLOT_BITS) - 1)
#define GEN_MASK ((UINT64_C(1) << GEN_BITS) - 1)
#define TOKEN_TAG UINT64_C(0x5A)
#define TOKEN_TAG_SHIFT 48
#define TOKEN_TAG_MASK (UINT64_C(0xFFFF) << TOKEN_TAG_SHIFT)

#define CHUNK_BITS 12
#define CHUNK_SLOTS (1u << CHUNK_BITS)
#define MAX_CHUNKS (1u << (SLOT_BITS - CHUNK_BITS))
#define NO_SLOT UINT32_MAX

typedef struct slot {
    void *object;
    mgrt_handle_destroy_fn destroy;
    uint32_t generation;    /* of the current (or next) registration */
    uint32_t pins;
    uint32_t next_free;     /* free list link */
    uint8_t kind;
    uint8_t live;           /* registered and not released */
    uint8_t occupied;       /* live, or released but still pinned */
} slot;

static pthread_mutex_t registry_lock = RT_MUTEX_INITIALIZER;
static slot *chunks[MAX_CHUNKS];
static uint32_t slots_made;                  /* slots ever handed out of the chunks */
static uint32_t free_head = NO_SLOT, free_tail = NO_SLOT;
static size_t live_by_kind[MGRT_HANDLE_KIND_COUNT];

static const char *const kind_names[MGRT_HANDLE_KIND_COUNT] = {
    "aclTensor",     "aclOpExecutor",  "aclScalar",   "aclIntArray",   "aclFloatArray", "aclBoolArray",
    "aclTensorList", "aclScalarList",  "aclrtStream", "aclrtEvent",    "aclDataBuffer", "aclrtContext",
    "aclTensorDesc", "aclopAttr",
};

const char *mgrt_handle_kind_name(mgrt_handle_kind kind) {
    return (unsigned)kind < MGRT_HANDLE_KIND_COUNT ? kind_names[kind] : "handle";
}

/* fork(): a child must not inherit the lock held by a thread that does not exist there
   (round-3 attack: 75 of 300 children forked while other threads made tensors hung in
   aclCreateTensor). */
RT_FORK_SAFE_LOCK(registry_lock, lock_registry)

static slot *slot_at(uint32_t index) { return &chunks[index >> CHUNK_BITS][index & (CHUNK_SLOTS - 1)]; }

static void *make_token(uint32_t index, uint32_t generation) {
    uint64_t bits = TOKEN_TAG << TOKEN_TAG_SHIFT | (uint64_t)generation << SLOT_BITS | index;
    return (void *)(uintptr_t)bits;
}

/* The slot a token names, if its bits are a token's and the slot exists; lock held. */
static slot *decode(const void *token, uint32_t *generation) {
    uint64_t bits = (uint64_t)(uintptr_t)token;
    if ((bits & TOKEN_TAG_MASK) != TOKEN_TAG << TOKEN_TAG_SHIFT) return NULL;
    uint32_t index = (uint32_t)(bits & SLOT_MASK);
    if (index >= slots_made) return NULL;
    *generation = (uint32_t)((bits >> SLOT_BITS) & GEN_MASK);
    return slot_at(index);
}

/* The slot if `token` is its current, live registration; lock held. */
static slot *live_slot(const void *token) {
    uint32_t generation = 0;
    slot *s = decode(token, &generation);
    return s != NULL && s->live && s->generation == generation ? s : NULL;
}

static uint32_t take_free_slot(void) {
    if (free_head != NO_SLOT) {
        uint32_t index = free_head;
        free_head = slot_at(index)->next_free;
        if (free_head == NO_SLOT) free_tail = NO_SLOT;
        return index;
    }
    if (slots_made == MAX_CHUNKS * CHUNK_SLOTS) return NO_SLOT;
    uint32_t chunk = slots_made >> CHUNK_BITS;
    if (chunks[chunk] == NULL) {
        /* Plain calloc: the registry is not one of the allocations MISHGRAD_FAULT_ALLOC counts. */
        chunks[chunk] = calloc(CHUNK_SLOTS, sizeof(slot));
        if (chunks[chunk] == NULL) return NO_SLOT;
    }
    uint32_t index = slots_made++;
    slot_at(index)->generation = 1;
    return index;
}

/* The slot's object is gone: move its generation on and queue it for reuse; lock held. */
static void retire_slot(uint32_t index, slot *s) {
    s->object = NULL;
    s->destroy = NULL;
    s->occupied = 0;
    s->pins = 0;
    if (s->generation == GEN_MASK) return; /* every generation used: never reused */
    s->generation++;
    s->next_free = NO_SLOT;
    if (free_tail == NO_SLOT)
        free_head = index;
    else
        slot_at(free_tail)->next_free = index;
    free_tail = index;
}

static uint32_t index_of(const void *token) { return (uint32_t)((uint64_t)(uintptr_t)token & SLOT_MASK); }

void *mgrt_handle_register(mgrt_handle_kind kind, void *object, mgrt_handle_destroy_fn destroy) {
    if ((unsigned)kind >= MGRT_HANDLE_KIND_COUNT || object == NULL) return NULL;
    /* A planted fault (MISHGRAD_FAULT_HANDLE) stands for a table that cannot grow. */
    if (rt_fault_registration_fails()) return NULL;
    lock_registry();
    void *token = NULL;
    uint32_t index = take_free_slot();
    if (index != NO_SLOT) {
        slot *s = slot_at(index);
        s->object = object;
        s->destroy = destroy;
        s->kind = (uint8_t)kind;
        s->pins = 0;
        s->live = 1;
        s->occupied = 1;
        live_by_kind[kind]++;
        token = make_token(index, s->generation);
    }
    RT_UNLOCK(&registry_lock);
    return token;
}

void *mgrt_handle_pin(const void *token, mgrt_handle_kind kind) {
    lock_registry();
    void *object = NULL;
    slot *s = live_slot(token);
    if (s != NULL && s->kind == (uint8_t)kind && s->pins < UINT32_MAX) {
        s->pins++;
        object = s->object;
    }
    RT_UNLOCK(&registry_lock);
    return object;
}

void mgrt_handle_unpin(const void *token) {
    void *object = NULL;
    mgrt_handle_destroy_fn destroy = NULL;
    lock_registry();
    uint32_t generation = 0;
    slot *s = decode(token, &generation);
    if (s != NULL && s->occupied && s->generation == generation && s->pins > 0) {
        s->pins--;
        if (s->pins == 0 && !s->live) {
            object = s->object;
            destroy = s->destroy;
            retire_slot(index_of(token), s);
        }
    }
    RT_UNLOCK(&registry_lock);
    if (destroy != NULL) destroy(object);
}

/* Lock held; returns whether the object must be destroyed now (by the caller, unlocked). */
static int release_locked(uint32_t index, slot *s, void **object, mgrt_handle_destroy_fn *destroy) {
    s->live = 0;
    live_by_kind[s->kind]--;
    if (s->pins > 0) return 0; /* the last unpin destroys it */
    *object = s->object;
    *destroy = s->destroy;
    retire_slot(index, s);
    return 1;
}

int mgrt_handle_release(const void *token, mgrt_handle_kind kind) {
    void *object = NULL;
    mgrt_handle_destroy_fn destroy = NULL;
    int released = 0, now = 0;
    lock_registry();
    slot *s = live_slot(token);
    if (s != NULL && s->kind == (uint8_t)kind) {
        released = 1;
        now = release_locked(index_of(token), s, &object, &destroy);
    }
    RT_UNLOCK(&registry_lock);
    if (now && destroy != NULL) destroy(object);
    return released;
}

mgrt_handle_state mgrt_handle_state_of(const void *token, mgrt_handle_kind kind) {
    mgrt_handle_state state = MGRT_HANDLE_FOREIGN;
    lock_registry();
    uint32_t generation = 0;
    slot *s = decode(token, &generation);
    if (s != NULL && generation >= 1 && generation <= s->generation) {
        if (generation < s->generation)
            state = MGRT_HANDLE_STALE; /* a generation this slot has used and left */
        else if (s->live)
            state = s->kind == (uint8_t)kind ? MGRT_HANDLE_LIVE : MGRT_HANDLE_OTHER_KIND;
        else if (s->occupied || s->generation == GEN_MASK)
            state = MGRT_HANDLE_STALE; /* released, still pinned; or a retired slot */
    }
    RT_UNLOCK(&registry_lock);
    return state;
}

/* One phrase per (state, kind) pair, built once. */
static char other_kind_phrases[MGRT_HANDLE_KIND_COUNT][MGRT_HANDLE_KIND_COUNT][80];
static pthread_once_t phrases_once = PTHREAD_ONCE_INIT;

static void build_phrases(void) {
    for (int asked = 0; asked < MGRT_HANDLE_KIND_COUNT; asked++)
        for (int actual = 0; actual < MGRT_HANDLE_KIND_COUNT; actual++)
            snprintf(other_kind_phrases[asked][actual], sizeof other_kind_phrases[asked][actual], "is an %s, not an %s",
                     kind_names[actual], kind_names[asked]);
}

const char *mgrt_handle_describe(const void *token, mgrt_handle_kind kind) {
    if (token == NULL) return "is NULL";
    if ((unsigned)kind >= MGRT_HANDLE_KIND_COUNT) return "is not a handle";
    mgrt_handle_state state = mgrt_handle_state_of(token, kind);
    switch (state) {
    case MGRT_HANDLE_LIVE: return "is live";
    case MGRT_HANDLE_STALE: return "is stale (already destroyed or released, or reclaimed by aclFinalize)";
    case MGRT_HANDLE_OTHER_KIND: {
        int actual = -1;
        lock_registry();
        slot *s = live_slot(token);
        if (s != NULL) actual = s->kind;
        RT_UNLOCK(&registry_lock);
        if (actual < 0) return "is stale (already destroyed or released, or reclaimed by aclFinalize)";
        pthread_once(&phrases_once, build_phrases);
        return other_kind_phrases[kind][actual];
    }
    default: return "was not created by this library (not a handle it handed out)";
    }
}

size_t mgrt_handle_live_count(mgrt_handle_kind kind) {
    if ((unsigned)kind >= MGRT_HANDLE_KIND_COUNT) return 0;
    lock_registry();
    size_t count = live_by_kind[kind];
    RT_UNLOCK(&registry_lock);
    return count;
}

typedef struct doomed {
    void *object;
    mgrt_handle_destroy_fn destroy;
} doomed;

size_t mgrt_handle_reclaim_all(void) {
    size_t reclaimed[MGRT_HANDLE_KIND_COUNT] = {0};
    size_t total = 0;
    /* Destructors may release further handles (a tensor list its tensors), so sweep until
       nothing is live; each sweep destroys outside the lock. */
    for (;;) {
        lock_registry();
        size_t live = 0;
        for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++) live += live_by_kind[k];
        doomed *list = live > 0 ? malloc(live * sizeof *list) : NULL;
        size_t count = 0;
        if (live > 0 && list == NULL) {
            /* No memory for the list: release them all anyway, destroying none (leak
               rather than crash), and still report them. */
            for (uint32_t i = 0; i < slots_made; i++) {
                slot *s = slot_at(i);
                if (!s->live) continue;
                reclaimed[s->kind]++;
                total++;
                s->live = 0;
                live_by_kind[s->kind]--;
                if (s->pins == 0) retire_slot(i, s);
            }
        }
        for (uint32_t i = 0; list != NULL && i < slots_made; i++) {
            slot *s = slot_at(i);
            if (!s->live) continue;
            reclaimed[s->kind]++;
            total++;
            void *object = NULL;
            mgrt_handle_destroy_fn destroy = NULL;
            if (release_locked(i, s, &object, &destroy) && destroy != NULL) {
                list[count].object = object;
                list[count].destroy = destroy;
                count++;
            }
        }
        RT_UNLOCK(&registry_lock);
        for (size_t i = 0; i < count; i++) list[i].destroy(list[i].object);
        free(list);
        if (live == 0) break;
    }
    for (int k = 0; k < MGRT_HANDLE_KIND_COUNT; k++)
        if (reclaimed[k] > 0)
            rt_log_notice("RUNTIME", "aclFinalize: reclaimed %zu %s handle(s) the program did not destroy",
                          reclaimed[k], kind_names[k]);
    return total;
}
