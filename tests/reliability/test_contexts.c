/*
 * tests/reliability/test_contexts.c: contexts against device resets. aclrtResetDevice
 * releases the default context, its default stream and the streams made in it (CANN's
 * documentation of aclrtResetDevice); a context the program made with aclrtCreateContext is
 * not among them, so a thread whose current context it is keeps it and can still make
 * streams in it (issue 25.11: the reset cleared the wrong thread's current context).
 * CTest reliability_contexts_<case>.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>

#include "acl/acl.h"
#include "rel_setup.h"

MG_TEST(reset_device_keeps_a_created_context_current) {
    MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext created = NULL;
    MG_CHECK_EQ_INT(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    MG_CHECK(created != NULL);
    /* the last reset: the default context goes, the created one (current here) stays */
    MG_CHECK_EQ_INT(aclrtResetDevice(0), ACL_SUCCESS);
    aclrtContext current = NULL;
    MG_CHECK_EQ_INT(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    MG_CHECK(current == created);
    aclrtStream s = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_SUCCESS);
    if (s != NULL) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtDestroyStream(s), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyContext(created), ACL_SUCCESS);
    /* the default context is gone with the reset: a thread on it would have none now */
    MG_CHECK_EQ_INT(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    MG_CHECK_EQ_INT(aclFinalize(), ACL_SUCCESS);
}

MG_TEST_MAIN()
