/*
 * tests/common/mg_acl_session.h: the session set-up the reliability tests share.
 *
 * mg_acl_session_up() starts the runtime once per process with the log at error level 4
 * (quiet: these tests provoke warnings on purpose and check statuses and messages, not
 * log lines), then gives the calling thread its context, as every CANN thread must.
 * mg_acl_restart_failing_allocation(n) ends the runtime and starts it again with
 * MISHGRAD_FAULT_ALLOC=n planted (the n-th allocation after aclInit fails, once).
 * Include after mg_test.h.
 */
#ifndef MG_ACL_SESSION_H_
#define MG_ACL_SESSION_H_

#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"

static inline void mg_acl_session_up(void) {
    static int started;
    if (!started) {
        setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
        (void)aclInit(NULL);
        started = 1;
    }
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
}

static inline void mg_acl_restart_failing_allocation(int n) {
    (void)aclFinalize();
    char value[16];
    snprintf(value, sizeof value, "%d", n);
    setenv("MISHGRAD_FAULT_ALLOC", value, 1);
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    unsetenv("MISHGRAD_FAULT_ALLOC");
}

#endif /* MG_ACL_SESSION_H_ */
