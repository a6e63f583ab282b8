/*
 * tests/ascendc/test_twin_locks.c: the twin core's locks are taken and given back in pairs.
 * The registry, the GmAlloc table, a launch's error lock (reports, warnings, SyncAll, the
 * helper threads' join) and the atomic moves' lock each guard shared state; a lock missing
 * before an unlock lets two threads into it (a race only ThreadSanitizer would see), an
 * unlock missing leaves the next caller waiting forever. This test sees both without a
 * sanitizer: it replaces pthread_mutex_lock / trylock / unlock with versions that keep, per
 * thread, the mutexes it holds; an unlock of a mutex the thread does not hold is counted, and
 * every call of the core must return holding nothing. (Not under a sanitizer, whose own
 * versions these would displace: skipped there; the ThreadSanitizer job judges races itself.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_heap.h"
#include "mg_test.h"
#include "twin_test_util.h"

static atomic_int g_bad_unlocks;
static _Thread_local int t_nheld;

#if !MG_UNDER_SANITIZER
static _Thread_local pthread_mutex_t *t_held[64]; /* only the replacements below use it */
typedef int (*mutex_fn)(pthread_mutex_t *);
static mutex_fn real_fn(const char *name) {
    void *sym = dlsym(RTLD_NEXT, name);
    mutex_fn f;
    memcpy(&f, &sym, sizeof f);
    return f;
}
static void held(pthread_mutex_t *m) {
    if (t_nheld < 64) t_held[t_nheld] = m;
    t_nheld++;
}
__attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t *m) {
    static mutex_fn real;
    if (real == NULL) real = real_fn("pthread_mutex_lock");
    int r = real(m);
    if (r == 0) held(m);
    return r;
}
__attribute__((visibility("default"))) int pthread_mutex_trylock(pthread_mutex_t *m) {
    static mutex_fn real;
    if (real == NULL) real = real_fn("pthread_mutex_trylock");
    int r = real(m);
    if (r == 0) held(m);
    return r;
}
__attribute__((visibility("default"))) int pthread_mutex_unlock(pthread_mutex_t *m) {
    static mutex_fn real;
    if (real == NULL) real = real_fn("pthread_mutex_unlock");
    int found = 0;
    for (int i = (t_nheld < 64 ? t_nheld : 64) - 1; i >= 0 && !found; i--) {
        if (t_held[i] == m) {
            memmove(&t_held[i], &t_held[i + 1], (size_t)((t_nheld < 64 ? t_nheld : 64) - 1 - i) * sizeof t_held[0]);
            t_nheld--;
            found = 1;
        }
    }
    if (!found) atomic_fetch_add(&g_bad_unlocks, 1);
    return real(m);
}
#endif

/* ---- what runs ---------------------------------------------------------------------------- */

static uint8_t *g_gm;
static int g_ends_holding; /* kernel blocks returning with a lock held */

/* a block ends holding what it held when it began (its thread may hold the runtime's own) */
static void kernel(uint8_t *const *args) {
    (void)args;
    int at_start = t_nheld;
    asc_twin_ub_ref t = tt_ub(0, 4096, ASC_TWIN_F32);
    asc_twin_duplicate(t, 1.0, 64);
    /* a warning (Tanh in place), atomic moves, a SyncAll over every block */
    asc_twin_unary("Tanh", ASC_TWIN_TANH, t, t, 16);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_ADD, ASC_TWIN_F32);
    asc_twin_copy_ub_to_gm(tt_gm(g_gm, 4096, ASC_TWIN_F32), t, 64);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_NONE, ASC_TWIN_F32);
    asc_twin_sync_all("SyncAll", 0);
    double v;
    asc_twin_gm_get_value(tt_gm(g_gm, 4096, ASC_TWIN_F32), 3, &v);
    if (t_nheld != at_start) __atomic_add_fetch(&g_ends_holding, 1, __ATOMIC_RELAXED);
}
static const asc_twin_kernel k_locks = {"twin_locks", 0, 1, kernel};
static void breaks(uint8_t *const *args) {
    (void)args;
    asc_twin_report("Break", "block %lld", (long long)asc_twin_block_idx());
    asc_twin_sync_all("SyncAll", 0);
}
static const asc_twin_kernel k_breaks = {"twin_locks_breaks", 0, 1, breaks};
static void nothing(uint8_t *const *args) { (void)args; }

#define CHECK_HOLDS_NOTHING(call)                                                       \
    do {                                                                                \
        call;                                                                           \
        if (t_nheld != 0) MG_FAIL("%s returned holding %d lock(s)", #call, t_nheld);   \
        t_nheld = 0;                                                                    \
    } while (0)

MG_TEST(every_lock_is_given_back) {
    if (MG_UNDER_SANITIZER) MG_SKIP("the sanitizer's own pthread_mutex_* are not replaced");
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    atomic_store(&g_bad_unlocks, 0);
    t_nheld = 0;
    static asc_twin_kernel regs[40];
    for (int i = 0; i < 40; i++) {
        regs[i] = (asc_twin_kernel){"twin_locks_reg", (uint64_t)i, 0, nothing};
        CHECK_HOLDS_NOTHING(asc_twin_register(&regs[i]));
    }
    CHECK_HOLDS_NOTHING(asc_twin_register(&regs[3])); /* refused: already there */
    CHECK_HOLDS_NOTHING(asc_twin_find("twin_locks_reg", 39));
    CHECK_HOLDS_NOTHING(asc_twin_find("twin_locks_none", 0));
    uint8_t *blocks[20];
    for (int i = 0; i < 20; i++) CHECK_HOLDS_NOTHING(blocks[i] = asc_twin_gm_alloc(64));
    uint8_t *base = NULL;
    uint64_t bytes = 0;
    CHECK_HOLDS_NOTHING(asc_twin_gm_extent(blocks[7] + 5, &base, &bytes));
    CHECK_HOLDS_NOTHING(asc_twin_gm_extent(&bytes, &base, &bytes));
    for (int i = 0; i < 20; i++) CHECK_HOLDS_NOTHING(asc_twin_gm_free(blocks[i]));
    CHECK_HOLDS_NOTHING(asc_twin_gm_free(&bytes)); /* not a block */
    aclGetRecentErrMsg();
    g_gm = asc_twin_gm_alloc(4096);
    for (uint32_t dim = 1; dim <= 8; dim *= 2) {
        uint8_t *args[1] = {g_gm};
        asc_twin_launch_args a = {&k_locks, dim, args, 1, NULL, 0};
        int status;
        CHECK_HOLDS_NOTHING(status = asc_twin_run_sync(&a));
        MG_CHECK_EQ_INT(status, 0);
        asc_twin_launch_args b = {&k_breaks, dim, args, 1, NULL, 0};
        CHECK_HOLDS_NOTHING(status = asc_twin_run_sync(&b));
        MG_CHECK_EQ_INT(status, ACL_ERROR_RT_AICORE_EXCEPTION);
        aclGetRecentErrMsg();
    }
    MG_CHECK_EQ_INT(g_ends_holding, 0);
    MG_CHECK_EQ_INT(atomic_load(&g_bad_unlocks), 0);
    asc_twin_gm_free(g_gm);
}

MG_TEST_MAIN()
