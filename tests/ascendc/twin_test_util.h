/*
 * tests/ascendc/twin_test_util.h: what the vector core's tests share: UB and GM tensor
 * references built the way the C++ face builds them, and a synchronous run that keeps the
 * launch's message (aclGetRecentErrMsg clears what it returns: read once).
 */
#ifndef TWIN_TEST_UTIL_H_
#define TWIN_TEST_UTIL_H_

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "asc_twin/gm.h"
#include "asc_twin/launch.h"
#include "asc_twin/vec.h"
#include "twin_block.h"

/* A UB tensor at `offset` bytes into the running block's UB, `bytes` long. */
static inline asc_twin_ub_ref tt_ub(uint64_t offset, uint64_t bytes, asc_twin_dtype dt) {
    asc_twin_ub_ref r = {asc_twin_ub_base() + offset, bytes, dt};
    return r;
}
static inline asc_twin_gm_ref tt_gm(void *addr, uint64_t bytes, asc_twin_dtype dt) {
    asc_twin_gm_ref r = {(uint8_t *)addr, bytes, dt};
    return r;
}

/* Runs `k` on `blocks` blocks with the given GM arguments; the message lands in msg. */
static inline int tt_run(const asc_twin_kernel *k, uint32_t blocks, uint8_t **args, int nargs, char *msg,
                         size_t msg_size) {
    asc_twin_launch_args a = {k, blocks, args, nargs, NULL, 0};
    int status = asc_twin_run_sync(&a);
    const char *recent = status != 0 ? aclGetRecentErrMsg() : NULL;
    snprintf(msg, msg_size, "%s", recent ? recent : "");
    return status;
}

/* Distance in float32 units in the last place between a float result and an exact value. */
static inline double tt_ulp_f32(float got, double want) {
    if (got == want) return 0.0;
    if (want != want) return got != got ? 0.0 : 1e30;
    double aw = want < 0 ? -want : want;
    int e;
    frexp(aw, &e);                               /* aw = m * 2^e, m in [0.5, 1) */
    double ulp = ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
    double d = (double)got - want;
    return (d < 0 ? -d : d) / ulp;
}

#endif /* TWIN_TEST_UTIL_H_ */
