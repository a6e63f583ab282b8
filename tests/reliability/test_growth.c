/*
 * tests/reliability/test_growth.c: tables that must forget what is gone. A stream's vector
 * clock keeps no entry for streams that lived and went (the record-and-wait cost stays flat
 * after 6000 of them); the report subscriber table frees an unsubscribed thread (3000
 * distinct thread ids subscribe and unsubscribe; it refused after 1024: issue 25.6). One
 * process per case (CTest reliability_growth_<case>).
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

/* Two long-lived streams wait on events of thousands of short-lived ones, half of them while
   the short-lived stream lives, half after it went. Their vector clocks kept an entry per
   dead stream, and an event wait merged clock into clock entry by entry: the same
   record-and-wait cost grew with the square of the streams that ever lived (milliseconds
   after 4000). It must stay what it was at the start. */
static double record_and_wait_us(aclrtStream from, aclrtStream to, aclrtEvent ev) {
    enum { OPS = 20 };
    const double t0 = rel_now_s();
    for (int i = 0; i < OPS; i++) {
        (void)aclrtRecordEvent(ev, from);
        (void)aclrtStreamWaitEvent(to, ev);
    }
    return (rel_now_s() - t0) * 1e6 / OPS;
}

MG_TEST(clock_growth) {
    rel_start_runtime();
    aclrtStream a = NULL, b = NULL;
    aclrtEvent ev = NULL, probe = NULL;
    REL_CHECK(aclrtCreateStream(&a) == ACL_SUCCESS && aclrtCreateStream(&b) == ACL_SUCCESS, "aclrtCreateStream");
    REL_CHECK(aclrtCreateEvent(&ev) == ACL_SUCCESS && aclrtCreateEvent(&probe) == ACL_SUCCESS, "aclrtCreateEvent");
    (void)record_and_wait_us(a, b, probe); /* warm up */
    const double before = record_and_wait_us(a, b, probe);
    REL_WATCHDOG(100);
    enum { SHORT_LIVED = 6000 };
    for (int i = 0; i < SHORT_LIVED; i++) {
        aclrtStream x = NULL;
        if (aclrtCreateStream(&x) != ACL_SUCCESS) {
            REL_CHECK(0, "aclrtCreateStream %d", i);
            break;
        }
        (void)aclrtRecordEvent(ev, x);
        if (i % 2 == 0) { /* waited on while x lives: its retirement must clean the clocks */
            (void)aclrtStreamWaitEvent(a, ev);
            (void)aclrtStreamWaitEvent(b, ev);
            (void)aclrtDestroyStream(x);
        } else { /* waited on after x went: the wait must not bring x's id back */
            (void)aclrtDestroyStream(x);
            (void)aclrtStreamWaitEvent(a, ev);
            (void)aclrtStreamWaitEvent(b, ev);
        }
    }
    const double after = record_and_wait_us(a, b, probe);
    alarm(0);
    printf("record + wait: %.1f us at the start, %.1f us after %d streams lived and went\n", before, after,
           SHORT_LIVED);
    const double limit = 20.0 * before > 500.0 ? 20.0 * before : 500.0;
    REL_CHECK(after < limit, "record + wait took %.1f us after %d short-lived streams (%.1f us at the start)", after,
          SHORT_LIVED, before);
    REL_CHECK(aclrtSynchronizeStream(a) == ACL_SUCCESS && aclrtSynchronizeStream(b) == ACL_SUCCESS, "synchronize");
    REL_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS && aclrtDestroyEvent(probe) == ACL_SUCCESS, "aclrtDestroyEvent");
    REL_CHECK(aclrtDestroyStream(a) == ACL_SUCCESS && aclrtDestroyStream(b) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- 6. the subscriber table forgets unsubscribed threads ------------------------------------ */

MG_TEST(subscriber_growth) {
    rel_start_runtime();
    aclrtStream s = NULL;
    REL_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
    int refused_at = -1;
    for (int i = 0; i < 3000 && refused_at < 0; i++) {
        const uint64_t id = 0x100000u + (uint64_t)i; /* a distinct thread id each time */
        if (aclrtSubscribeReport(id, s) != ACL_SUCCESS) {
            refused_at = i;
            break;
        }
        REL_CHECK(aclrtUnSubscribeReport(id, s) == ACL_SUCCESS, "unsubscribe %d", i);
    }
    REL_CHECK(refused_at < 0, "aclrtSubscribeReport refused after %d subscribe/unsubscribe pairs: %s", refused_at,
          aclGetRecentErrMsg() ? "(message above)" : "");
    REL_CHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

/* ---- a handle slot reused past its generation count ---------------------------------------- */

/* One slot of the handle registry, reused 2^24 + 16 times (a data buffer made and destroyed
   in a loop takes the same slot each time): its generation wraps inside its own bits, and
   the handle made after that works like the first one; the one destroyed just before is
   still refused as destroyed (seed 44: a generation one bit wider than its field ran into the
   token's tag, so the 2^24-th reuse gave a handle the runtime itself refused). */
MG_TEST(a_slot_reused_past_its_generation_count) {
    rel_start_runtime();
    static char bytes[64];
    const uint32_t reuses = (UINT32_C(1) << 24) + 16;
    aclDataBuffer *last = NULL;
    uint32_t refused_at = 0;
    for (uint32_t i = 1; i <= reuses && refused_at == 0; i++) {
        aclDataBuffer *b = aclCreateDataBuffer(bytes, sizeof bytes);
        if (b == NULL || aclGetDataBufferSizeV2(b) != sizeof bytes) refused_at = i;
        if (b != NULL) (void)aclDestroyDataBuffer(b);
        last = b;
    }
    REL_CHECK(refused_at == 0, "data buffer %u of %u was not usable: %s", refused_at, reuses, rel_message());
    aclDataBuffer *fresh = aclCreateDataBuffer(bytes, sizeof bytes);
    REL_CHECK(fresh != NULL && aclGetDataBufferAddr(fresh) == bytes, "the data buffer after the reuses");
    if (fresh != last) {
        /* another slot: the destroyed one is simply stale */
        REL_CHECK(aclDestroyDataBuffer(last) != ACL_SUCCESS, "a destroyed data buffer destroyed again");
    }
    REL_CHECK(aclDestroyDataBuffer(fresh) == ACL_SUCCESS, "aclDestroyDataBuffer");
    (void)rel_message();
    REL_CHECK(aclFinalize() == ACL_SUCCESS, "aclFinalize");
}

MG_TEST_MAIN()
