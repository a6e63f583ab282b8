/*
 * tests/reliability/test_host_registration.c: memory registration (aclrtHostRegister) against
 * the block's lifetime. aclrtFreeHost of a block with a live registration, of the whole block
 * or of an inner page, is refused with a message saying to unregister first (issue 25.3: it
 * freed the block, and launches through the device address read freed memory); the block
 * stays usable. CTest reliability_host_registration_<case>.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "rel_setup.h"

/* ---- 3. aclrtFreeHost of memory still registered ---------------------------------------------- */

MG_TEST(freehost_registered) {
    rel_start_runtime();
    void *host = NULL, *dev = NULL;
    REL_CHECK(aclrtMallocHost(&host, 3 * 4096) == ACL_SUCCESS, "aclrtMallocHost");
    REL_CHECK(aclrtHostRegister(host, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &dev) == ACL_SUCCESS, "aclrtHostRegister");
    REL_CHECK(aclrtFreeHost(host) == ACL_ERROR_INVALID_PARAM, "aclrtFreeHost of a registered block is refused");
    REL_CHECK(rel_message_has("aclrtHostUnregister"), "the message says to unregister first");
    /* Still usable: the block is alive. */
    REL_CHECK(aclrtMemset(host, 3 * 4096, 0x11, 3 * 4096) == ACL_SUCCESS, "the block is still live");
    REL_CHECK(aclrtHostUnregister(host) == ACL_SUCCESS, "aclrtHostUnregister");
    REL_CHECK(aclrtFreeHost(host) == ACL_SUCCESS, "aclrtFreeHost after unregistering");
    /* A registration of an inner page holds the block too. */
    REL_CHECK(aclrtMallocHost(&host, 3 * 4096) == ACL_SUCCESS, "aclrtMallocHost");
    void *inner = (char *)host + 4096;
    REL_CHECK(aclrtHostRegister(inner, 4096, ACL_HOST_REGISTER_MAPPED, &dev) == ACL_SUCCESS, "register an inner page");
    REL_CHECK(aclrtFreeHost(host) == ACL_ERROR_INVALID_PARAM, "aclrtFreeHost with an inner page registered");
    (void)aclGetRecentErrMsg();
    REL_CHECK(aclrtHostUnregister(inner) == ACL_SUCCESS, "aclrtHostUnregister(inner)");
    REL_CHECK(aclrtFreeHost(host) == ACL_SUCCESS, "aclrtFreeHost");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

MG_TEST_MAIN()
