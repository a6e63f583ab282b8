/*
 * ascendc/core/registry.c: the (name, tiling key) -> kernel instantiation table the generated
 * registration TUs fill from static constructors (ascendc/cmake/AscendcTwin.cmake).
 */
#define _GNU_SOURCE /* PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP (rt_lock.h) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_lock.h"
#include "asc_twin/launch.h"
#include "mgrt.h"

/* A plain growing array: a process registers tens of instantiations, looked up once per
   launch; a linear search costs less than the launch's own queueing. */
static pthread_mutex_t registry_lock = RT_MUTEX_INITIALIZER;
static const asc_twin_kernel **registry;
static size_t registry_count, registry_capacity;

static const asc_twin_kernel *find_locked(const char *name, uint64_t key) {
    for (size_t i = 0; i < registry_count; i++)
        if (registry[i]->tiling_key == key && strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

int asc_twin_register(const asc_twin_kernel *k) {
    if (k == NULL || k->name == NULL || k->entry == NULL || k->nargs < 0) return -1;
    int status = -1;
    RT_LOCK(&registry_lock);
    if (find_locked(k->name, k->tiling_key) == NULL) {
        if (registry_count == registry_capacity) {
            /* a new table rather than realloc: through mgrt_malloc, so that a test's
               MISHGRAD_FAULT_ALLOC reaches the path where the table cannot grow */
            size_t capacity = registry_capacity ? registry_capacity * 2 : 32;
            const asc_twin_kernel **grown = mgrt_malloc(capacity * sizeof *grown);
            if (grown != NULL) {
                if (registry_count > 0) memcpy(grown, registry, registry_count * sizeof *grown);
                mgrt_free(registry);
                registry = grown;
                registry_capacity = capacity;
            }
        }
        if (registry_count < registry_capacity) {
            registry[registry_count++] = k;
            status = 0;
        }
    }
    RT_UNLOCK(&registry_lock);
    return status;
}

const asc_twin_kernel *asc_twin_find(const char *name, uint64_t tiling_key) {
    if (name == NULL) return NULL;
    RT_LOCK(&registry_lock);
    const asc_twin_kernel *k = find_locked(name, tiling_key);
    RT_UNLOCK(&registry_lock);
    return k;
}
