/*
 * runtime/acl_init.c: aclInit / aclFinalize, the run mode and version, and the product
 * profile that MISHGRAD_SOC_VERSION selects. Devices and contexts: acl_context.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt_handle.h"
#include "mishgrad/version.h"
#include "runtime_internal.h"

#define DEFAULT_SOC_NAME "MishGradV2-CPU"

static pthread_mutex_t init_lock = RT_MUTEX_INITIALIZER;
/* Guarded by init_lock. CANN counts aclInit calls for aclFinalizeReference: the first sets
   1, each repeated one (still ACL_ERROR_REPEAT_INITIALIZE) adds 1. */
static uint64_t init_references;
/* A finalize has completed and no aclInit has succeeded since: the next finalize is a
   repeat. Starts 0, so a process that never initialized may finalize once, as in CANN. */
static int finalized;

/* ---- product profiles -------------------------------------------------------------- */

typedef struct soc_rule {
    const char *pattern;   /* exact name, or a prefix when it ends in '*' */
    const char *product;
    mgrt_soc_generation generation;
    uint32_t aiv_core_num;
    uint64_t ub_bytes;
    uint64_t lib_workspace_bytes;
} soc_rule;

#define KIB(n) ((uint64_t)(n) * 1024u)
#define MIB(n) ((uint64_t)(n) * 1024u * 1024u)
/* Ascend910B's vector core facts (910B1/B2: 48 AIV, 192 KiB UB; 16 MiB library workspace on
   DAV_2201), which the default `cpu` profile models too. */
#define A2_CORE 48u, KIB(192), MIB(16)
/* Older parts: one AI Core type whose vector unit the twin models; UB 256 KiB, 2 MiB workspace
   (asc-devkit: the 16 MiB figure is for DAV_2201/3510 only). */
#define A1_CORE 32u, KIB(256), MIB(2)
#define P310_CORE 8u, KIB(256), MIB(2)
#define B310_CORE 1u, KIB(256), MIB(2)
#define A5_CORE 64u, KIB(248), MIB(16)

/* The products CANN names. Which dtypes each operator takes on which is the operator's
   business (op_host/), not the runtime's. */
static const soc_rule soc_rules[] = {
    {"Ascend910", "Atlas training series", MGRT_SOC_ASCEND910, A1_CORE},
    {"Ascend910A", "Atlas training series", MGRT_SOC_ASCEND910, A1_CORE},
    {"Ascend910ProA", "Atlas training series", MGRT_SOC_ASCEND910, A1_CORE},
    {"Ascend910ProB", "Atlas training series", MGRT_SOC_ASCEND910, A1_CORE},
    {"Ascend910PremiumA", "Atlas training series", MGRT_SOC_ASCEND910, A1_CORE},
    {"Ascend310P*", "Atlas inference series", MGRT_SOC_ASCEND310P, P310_CORE},
    /* the generation's own name, as the seed and the operator contract use it ("Ascend910B
       and later take BFLOAT16"); CANN's runtime also knows the bare name for an early 910
       part, but a program that names the generation means this one */
    {"Ascend910B", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B1", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B2", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B2C", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B3", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B4", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910B4-1", "Atlas A2 training/inference series", MGRT_SOC_ASCEND910B, A2_CORE},
    {"Ascend910_93*", "Atlas A3 training/inference series", MGRT_SOC_ASCEND910_93, A2_CORE},
    {"Ascend950*", "Ascend 950PR/Ascend 950DT", MGRT_SOC_ASCEND950, A5_CORE},
    {"Ascend310B*", "Atlas 200I/500 A2 inference product", MGRT_SOC_ASCEND310B, B310_CORE},
};

static char soc_name[64] = DEFAULT_SOC_NAME;
static mgrt_soc_profile soc_profile = {soc_name, "CPU device (MishGradV2)", MGRT_SOC_CPU, A2_CORE};

static int soc_matches(const char *pattern, const char *name) {
    size_t length = strlen(pattern);
    if (length > 0 && pattern[length - 1] == '*') return strncmp(pattern, name, length - 1) == 0;
    return strcmp(pattern, name) == 0;
}

/* Called with init_lock held, before `initialized` is set. */
static aclError select_soc_profile(void) {
    const char *requested = getenv("MISHGRAD_SOC_VERSION");
    if (requested == NULL || *requested == '\0' || strcmp(requested, "cpu") == 0 ||
        strcmp(requested, "CPU") == 0 || strcmp(requested, DEFAULT_SOC_NAME) == 0) {
        snprintf(soc_name, sizeof soc_name, "%s", DEFAULT_SOC_NAME);
        soc_profile.product = "CPU device (MishGradV2)";
        soc_profile.generation = MGRT_SOC_CPU;
        soc_profile.aiv_core_num = 48u;
        soc_profile.ub_bytes = KIB(192);
        soc_profile.lib_workspace_bytes = MIB(16);
        return ACL_SUCCESS;
    }
    for (size_t i = 0; i < sizeof soc_rules / sizeof soc_rules[0]; i++) {
        if (soc_matches(soc_rules[i].pattern, requested) && strlen(requested) < sizeof soc_name) {
            snprintf(soc_name, sizeof soc_name, "%s", requested);
            soc_profile.product = soc_rules[i].product;
            soc_profile.generation = soc_rules[i].generation;
            soc_profile.aiv_core_num = soc_rules[i].aiv_core_num;
            soc_profile.ub_bytes = soc_rules[i].ub_bytes;
            soc_profile.lib_workspace_bytes = soc_rules[i].lib_workspace_bytes;
            return ACL_SUCCESS;
        }
    }
    return mgrt_fail_at("aclInit", ACL_ERROR_INVALID_PARAM,
                        "MISHGRAD_SOC_VERSION=\"%s\" names no known SoC; use cpu, Ascend910, "
                        "Ascend910B1..Ascend910B4, Ascend910_93, Ascend950PR, Ascend310P3 or "
                        "Ascend310B1",
                        requested);
}

const mgrt_soc_profile *mgrt_soc(void) { return &soc_profile; }

const char *aclrtGetSocName(void) { return mgrt_initialized() ? soc_name : NULL; }

/* ---- init and finalize --------------------------------------------------------------- */

aclError aclInit(const char *configPath) {
    /* Before init_lock: another thread of the parent may have held it at the fork. */
    aclError status = rt_refuse_if_forked("aclInit");
    if (status != ACL_SUCCESS) return status;
    rt_state_watch_fork();
    RT_LOCK(&init_lock);
    rt_log_configure();
    if (mgrt_initialized()) {
        init_references++;
        status = mgrt_fail_at("aclInit", ACL_ERROR_REPEAT_INITIALIZE,
                              "aclInit: already initialized (%llu aclInit references now); call aclFinalize first",
                              (unsigned long long)init_references);
    } else if ((status = rt_config_check("aclInit", configPath)) == ACL_SUCCESS) {
        status = select_soc_profile();
    }
    if (status == ACL_SUCCESS) {
        rt_fault_configure();
        rt_streams_open();
        init_references = 1;
        finalized = 0;
        rt_state_set_initialized(1);
        mgrt_log(MGRT_LOG_INFO, "RUNTIME", "aclInit: device 0 is this CPU, SoC profile %s (%s), %d threads",
                 soc_name, soc_profile.product, mgrt_num_threads());
    }
    RT_UNLOCK(&init_lock);
    return status;
}

/* Releases everything (init_lock held, runtime initialized). */
static void finalize_locked(void) {
    /* From here on, calls racing this one on other threads get ACL_ERROR_UNINITIALIZE;
       the memory calls already in flight finish before the blocks are released. */
    rt_state_set_initialized(0);
    /* Streams first: their queued work may still use memory. */
    size_t streams = rt_streams_destroy_all();
    /* Then every handle the program left registered (tensors, executors, ...): one
       warning line per kind. Before the memory: nothing they own is device memory. */
    rt_contexts_finalize();
    mgrt_handle_reclaim_all();
    size_t blocks = rt_memory_release_all();
    if (streams > 0 || blocks > 0)
        rt_log_notice("RUNTIME",
                 "aclFinalize: released %zu stream(s) and %zu memory block(s) the program left alive", streams,
                 blocks);
    rt_fault_disarm();
    init_references = 0;
    finalized = 1;
}

static aclError repeat_finalize(const char *api) {
    return mgrt_fail_at(api, ACL_ERROR_REPEAT_FINALIZE,
                        "%s: already finalized; call aclInit before finalizing again", api);
}

aclError aclFinalize(void) {
    aclError status = rt_refuse_if_forked("aclFinalize");
    if (status != ACL_SUCCESS) return status;
    RT_LOCK(&init_lock);
    if (mgrt_initialized()) {
        /* Whatever the aclInit count: aclFinalizeReference is the counted form. */
        finalize_locked();
    } else if (finalized) {
        status = repeat_finalize("aclFinalize");
    } else {
        /* CANN finalizes a process that never initialized without complaint. */
        mgrt_log(MGRT_LOG_INFO, "RUNTIME", "aclFinalize: aclInit has not been called; nothing to release");
        finalized = 1;
    }
    RT_UNLOCK(&init_lock);
    return status;
}

aclError aclFinalizeReference(uint64_t *refCount) {
    aclError status = rt_refuse_if_forked("aclFinalizeReference");
    if (status != ACL_SUCCESS) return status;
    RT_LOCK(&init_lock);
    if (init_references == 0) {
        status = mgrt_fail_at("aclFinalizeReference", ACL_ERROR_REPEAT_FINALIZE,
                              "aclFinalizeReference: no aclInit reference is left (aclInit not called, or every "
                              "reference already finalized)");
    } else if (--init_references == 0) {
        finalize_locked();
    } else {
        mgrt_log(MGRT_LOG_INFO, "RUNTIME", "aclFinalizeReference: %llu aclInit reference(s) left",
                 (unsigned long long)init_references);
    }
    if (status == ACL_SUCCESS && refCount != NULL) *refCount = init_references;
    RT_UNLOCK(&init_lock);
    return status;
}

/* ---- run mode and version ----------------------------------------------------------------- */

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
    aclError status = rt_require_init("aclrtGetRunMode");
    if (status != ACL_SUCCESS) return status;
    if (runMode == NULL)
        return mgrt_fail_at("aclrtGetRunMode", ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is NULL");
    /* The program runs on the host; device memory is a separate (tracked) space. */
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
    const char *missing = majorVersion == NULL   ? "majorVersion"
                          : minorVersion == NULL ? "minorVersion"
                          : patchVersion == NULL ? "patchVersion"
                                                 : NULL;
    if (missing != NULL)
        return mgrt_fail_at("aclrtGetVersion", ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: %s is NULL", missing);
    *majorVersion = MISHGRAD_VERSION_MAJOR;
    *minorVersion = MISHGRAD_VERSION_MINOR;
    *patchVersion = MISHGRAD_VERSION_PATCH;
    return ACL_SUCCESS;
}
