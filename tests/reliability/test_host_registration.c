/*
 * tests/reliability/test_host_registration.c: memory registration (aclrtHostRegister) against
 * the block's lifetime. aclrtFreeHost of a block with a live registration, of the whole block
 * or of an inner page, is refused with a message saying to unregister first (issue 25.3: it
 * freed the block, and launches through the device address read freed memory); the block
 * stays usable. aclrtHostUnregister waiting for work that still uses the range: the range is
 * already unregistering (no longer device memory, a second unregister refused at once) while
 * the first waits. CTest reliability_host_registration_<case>.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "mgrt.h"
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

/* ---- aclrtHostUnregister while queued work still uses the range ------------------------------ */

/* A task that holds its stream until the test opens the gate (no time limit of its own: the
   watchdog ends a hang). */
static atomic_int gate_open, gate_entered;
static int32_t gate_run(void *task) {
    (void)task;
    atomic_store(&gate_entered, 1);
    while (!atomic_load(&gate_open)) rel_sleep_ms(1);
    return 0;
}
static void gate_release(void *task) { (void)task; }

typedef struct unregister_call {
    void *ptr;
    atomic_int done;
    aclError status;
} unregister_call;

static void *unregister_thread(void *arg) {
    unregister_call *call = arg;
    aclError status = aclrtSetDevice(0);
    if (status == ACL_SUCCESS) status = aclrtHostUnregister(call->ptr);
    call->status = status;
    atomic_store(&call->done, 1);
    return NULL;
}

/* runtime/acl_memory.c rt_memory_unregister_begin marks the range dying before it waits for
   the pins of work that uses it (here a copy from it, queued behind a gate): while the first
   aclrtHostUnregister waits, the range is no longer registered device memory (aclrtMemset of
   it: "not inside one live aclrtMalloc block", 100000, instead of the registered range's
   107000) and a second aclrtHostUnregister is refused at once (507911) instead of waiting too.
   Once the gate opens, the copy runs and the first returns 0. */
MG_TEST(unregister_while_work_uses_the_range) {
    REL_WATCHDOG(60);
    rel_start_runtime();
    enum { BYTES = 2 * 4096 };
    aclrtStream stream = NULL;
    REL_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    void *host = NULL, *dev = NULL, *target = NULL;
    REL_CHECK(posix_memalign(&host, 4096, BYTES) == 0, "posix_memalign");
    memset(host, 0x5a, BYTES);
    REL_CHECK(aclrtHostRegister(host, BYTES, ACL_HOST_REGISTER_MAPPED, &dev) == ACL_SUCCESS, "aclrtHostRegister");
    REL_CHECK(aclrtMalloc(&target, BYTES, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REL_CHECK(aclrtMemset(target, BYTES, 0, BYTES) == ACL_SUCCESS, "aclrtMemset(target)");
    /* Registered, not yet unregistering: its device address takes no memory operations. */
    REL_CHECK(aclrtMemset(host, BYTES, 0, BYTES) == ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset of a registered range");
    REL_CHECK(rel_message_has("is host memory registered by aclrtHostRegister"), "the message names the registration");

    atomic_store(&gate_open, 0);
    atomic_store(&gate_entered, 0);
    REL_CHECK(mgrt_stream_submit("test", stream, gate_run, gate_release, NULL, (uint64_t)1 << 40) == 0, "the gate");
    for (int i = 0; i < 10000 && !atomic_load(&gate_entered); i++) rel_sleep_ms(1);
    REL_CHECK(atomic_load(&gate_entered), "the gate runs");
    /* Queued behind the gate: it pins the registered range until it has run. */
    REL_CHECK(aclrtMemcpyAsync(target, BYTES, host, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS,
              "aclrtMemcpyAsync from the registered range");

    unregister_call call = {.ptr = host, .done = 0, .status = -1};
    pthread_t thread;
    REL_CHECK(pthread_create(&thread, NULL, unregister_thread, &call) == 0, "pthread_create");
    /* The first unregister has begun once the range stops being registered device memory. */
    aclError seen = ACL_ERROR_RT_PARAM_INVALID;
    for (int i = 0; i < 10000 && seen == ACL_ERROR_RT_PARAM_INVALID; i++) {
        seen = aclrtMemset(host, BYTES, 0, BYTES);
        if (seen != ACL_ERROR_RT_PARAM_INVALID) break;
        (void)aclGetRecentErrMsg(); /* the messages add up until read */
        rel_sleep_ms(1);
    }
    REL_CHECK(seen == ACL_ERROR_INVALID_PARAM,
              "while aclrtHostUnregister waits, the range is not device memory (aclrtMemset: %d, expected 100000)",
              (int)seen);
    if (seen == ACL_ERROR_INVALID_PARAM) {
        char want[256];
        snprintf(want, sizeof want, "aclrtMemset: devPtr range [%p, +%d bytes) is not inside one live aclrtMalloc block",
                 host, BYTES);
        const char *message = rel_message();
        REL_CHECK(strcmp(message, want) == 0, "the message: %s", message);
        REL_CHECK(!atomic_load(&call.done), "the first aclrtHostUnregister waits for the queued copy");
        /* A second unregister does not find the range: refused at once, not a second waiter. */
        REL_CHECK(aclrtHostUnregister(host) == ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "a second aclrtHostUnregister");
        snprintf(want, sizeof want,
                 "aclrtHostUnregister: %p is not the start of a range registered by aclrtHostRegister (never "
                 "registered, or unregistered already)",
                 host);
        message = rel_message();
        REL_CHECK(strcmp(message, want) == 0, "the message: %s", message);
        REL_CHECK(!atomic_load(&call.done), "the first aclrtHostUnregister still waits");
    }
    atomic_store(&gate_open, 1);
    REL_CHECK(pthread_join(thread, NULL) == 0, "pthread_join");
    REL_CHECK(call.status == ACL_SUCCESS, "the first aclrtHostUnregister returns 0 (got %d)", (int)call.status);
    REL_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    unsigned char back[BYTES];
    REL_CHECK(aclrtMemcpy(back, BYTES, target, BYTES, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
    int copied = 1;
    for (int i = 0; i < BYTES; i++) copied &= back[i] == 0x5a;
    REL_CHECK(copied, "the queued copy ran before the range was unregistered");
    /* Unregistered for good. */
    REL_CHECK(aclrtHostUnregister(host) == ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "unregister after the end");
    (void)aclGetRecentErrMsg();
    REL_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclrtFree(target) == ACL_SUCCESS, "aclrtFree");
    free(host);
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
    alarm(0);
}

MG_TEST_MAIN()
