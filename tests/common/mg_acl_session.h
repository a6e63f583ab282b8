/*
 * tests/common/mg_acl_session.h: the session set-up the reliability tests share.
 *
 * mg_acl_session_up() starts the runtime once per process with the log at error level 4
 * (quiet: these tests provoke warnings on purpose and check statuses and messages, not
 * log lines), then gives the calling thread its context, as every CANN thread must.
 * Include after mg_test.h.
 */
#ifndef MG_ACL_SESSION_H_
#define MG_ACL_SESSION_H_

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

#endif /* MG_ACL_SESSION_H_ */
