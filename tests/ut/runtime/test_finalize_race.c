/*
 * tests/ut/runtime/test_finalize_race.c: issue 10 defect 4. aclFinalize on one thread while
 * another copies from and sets device memory: the program misbehaves, but the library must
 * not touch freed memory; the late call gets an error status (ACL_ERROR_UNINITIALIZE, or
 * ACL_ERROR_RT_CONTEXT_NULL once its context is gone with aclFinalize, ACL_ERROR_INVALID_PARAM once
 * its block is). Before the fix, aclFinalize freed the
 * blocks under a running aclrtMemcpy (heap-use-after-free under ASan; TSan reports the race).
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_test.h"

#define BLOCK_BYTES ((size_t)64 << 10) /* many short calls: finalize lands between check and copy */

typedef struct racer {
    void *block;
    unsigned char *host;
    atomic_int started;
    int ok, late, wrong;   /* statuses seen */
    int wrong_status;
} racer;

static void *copy_until_refused(void *arg) {
    racer *r = arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        r->wrong++;
        atomic_store(&r->started, 1);
        return NULL;
    }
    for (int i = 0; i < 100000; i++) {
        aclError e = (i % 3 == 2) ? aclrtMemset(r->block, BLOCK_BYTES, i & 0xff, BLOCK_BYTES)
                                  : aclrtMemcpy(r->host, BLOCK_BYTES, r->block, BLOCK_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        atomic_store(&r->started, 1);
        if (e == ACL_SUCCESS) {
            r->ok++;
        } else if (e == ACL_ERROR_UNINITIALIZE || e == ACL_ERROR_RT_CONTEXT_NULL || e == ACL_ERROR_INVALID_PARAM) {
            r->late++;
            (void)aclGetRecentErrMsg();
            break;
        } else {
            r->wrong++;
            r->wrong_status = e;
            break;
        }
    }
    return NULL;
}

MG_TEST(finalize_racing_memcpy_and_memset_never_touches_freed_memory) {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);
    for (int cycle = 0; cycle < 40; cycle++) {
        MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
        racer r;
        memset(&r, 0, sizeof r);
        r.host = malloc(BLOCK_BYTES);
        MG_CHECK_EQ_INT(aclrtMalloc(&r.block, BLOCK_BYTES, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        memset(r.block, 0x3c, BLOCK_BYTES);
        pthread_t thread;
        MG_CHECK_EQ_INT(pthread_create(&thread, NULL, copy_until_refused, &r), 0);
        while (!atomic_load(&r.started)) usleep(100);
        usleep((useconds_t)((cycle % 10) * 100)); /* land the finalize at different points of a copy */
        /* The block is still allocated: aclFinalize releases it, with a warning. */
        MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
        pthread_join(thread, NULL);
        MG_CHECK_EQ_INT(r.wrong, 0);
        if (r.wrong) MG_FAIL("cycle %d: the racing call returned %d", cycle, r.wrong_status);
        MG_CHECK_EQ_INT(r.late, 1); /* the late call got an error and the thread stopped */
        free(r.host);
    }
    /* After all that, the runtime still starts and works. */
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtFree(p), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST_MAIN()
