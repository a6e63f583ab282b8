/*
 * tests/ascendc/test_twin_queue.c: TQue's protocol rule (ascendc/core/queue.h): a kernel that
 * follows Alloc -> EnQue -> DeQue -> Free within the depth passes; each break fails its launch
 * with ACL_ERROR_RT_AICORE_EXCEPTION and its message.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "asc_twin/launch.h"
#include "mg_test.h"
#include "queue.h"
#include "twin_block.h"

/* args[0]: which scenario (int32) */
static void scenario(uint8_t *const *args) {
    int32_t which;
    memcpy(&which, args[0], sizeof which);
    asc_twin_que q;
    asc_twin_que_init(&q, 2, 2);
    int a = asc_twin_que_alloc(&q), b;
    switch (which) {
    case 0: /* just inside: both buffers in flight at depth 2, then returned, twice over */
        for (int round = 0; round < 2 && !asc_twin_block_aborted(); round++) {
            b = round == 0 ? asc_twin_que_alloc(&q) : (a = asc_twin_que_alloc(&q), asc_twin_que_alloc(&q));
            asc_twin_que_enque(&q, a);
            asc_twin_que_enque(&q, b);
            asc_twin_que_free(&q, asc_twin_que_deque(&q));
            asc_twin_que_free(&q, asc_twin_que_deque(&q));
        }
        break;
    case 1: /* a third AllocTensor with two buffers */
        asc_twin_que_alloc(&q);
        asc_twin_que_alloc(&q);
        break;
    case 2: /* DeQue with nothing enqueued */
        asc_twin_que_deque(&q);
        break;
    case 3: /* FreeTensor of an enqueued tensor */
        asc_twin_que_enque(&q, a);
        asc_twin_que_free(&q, a);
        break;
    case 4: /* EnQue of a freed buffer */
        asc_twin_que_free(&q, a);
        asc_twin_que_enque(&q, a);
        break;
    case 6: { /* the pipe's 64 buffers: queues of 2, 30 and 31 and one TBuf, then every buffer of the
                 31-buffer queue allocated */
        uint32_t pipe = 0;
        static const int nums[] = {2, 30, 31, 1};
        for (int i = 0; i < 4; i++) asc_twin_pipe_add_buffers(&pipe, nums[i]);
        asc_twin_que_init(&q, 4, 31);
        for (int i = 0; i < 31; i++) asc_twin_que_alloc(&q);
        break;
    }
    case 7: { /* one buffer more: 64, then 1 */
        uint32_t pipe = 0;
        asc_twin_pipe_add_buffers(&pipe, 64);
        if (pipe != 64) asc_twin_report("test", "64 buffers refused");
        asc_twin_pipe_add_buffers(&pipe, 1);
        break;
    }
    case 8: { /* num 0 */
        uint32_t pipe = 0;
        asc_twin_pipe_add_buffers(&pipe, 0);
        break;
    }
    case 9: { /* a single queue of 64 buffers: all 64 go round the protocol */
        uint32_t pipe = 0;
        asc_twin_pipe_add_buffers(&pipe, 64);
        asc_twin_que_init(&q, 64, 64);
        for (int i = 0; i < 64; i++) asc_twin_que_enque(&q, asc_twin_que_alloc(&q));
        for (int i = 0; i < 64; i++) {
            int got = asc_twin_que_deque(&q);
            if (got != i) asc_twin_report("test", "DeQue %d gave buffer %d", i, got);
            asc_twin_que_free(&q, got);
        }
        break;
    }
    default: /* depth 1 queue holding one, a second EnQue */
        asc_twin_que_init(&q, 1, 2);
        a = asc_twin_que_alloc(&q);
        b = asc_twin_que_alloc(&q);
        asc_twin_que_enque(&q, a);
        asc_twin_que_enque(&q, b);
        break;
    }
}

static const asc_twin_kernel k = {"twin_test_queue", 0, 1, scenario};

static void expect(int32_t which, int status, const char *needle) {
    uint8_t *args[1] = {(uint8_t *)&which};
    asc_twin_launch_args a = {&k, 1, args, 1, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), status);
    if (needle != NULL) {
        const char *recent = aclGetRecentErrMsg();
        MG_CHECK_STR_CONTAINS(recent ? recent : "", needle);
    }
}

MG_TEST(protocol_inside_passes) { expect(0, 0, NULL); }
MG_TEST(alloc_beyond_buffers) {
    expect(1, ACL_ERROR_RT_AICORE_EXCEPTION,
           "twin_test_queue block 0: AllocTensor: all 2 buffers of the queue are in use");
}
MG_TEST(deque_empty) { expect(2, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: DeQue: the queue is empty"); }
MG_TEST(free_enqueued) {
    expect(3, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: FreeTensor: buffer 0 is enqueued, not allocated or dequeued");
}
MG_TEST(enque_freed) {
    expect(4, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: EnQue: buffer 0 is free, not allocated");
}
MG_TEST(enque_beyond_depth) {
    expect(5, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: EnQue: queue of depth 1 already holds 1 tensors");
}
/* TPipe's buffer count (CANN's QBUF_MAX_LEN, 64 over all InitBuffer calls of one pipe) */
MG_TEST(pipe_64_buffers_pass) { expect(6, 0, NULL); }
MG_TEST(pipe_one_queue_of_64_passes) { expect(9, 0, NULL); }
MG_TEST(pipe_65th_buffer) {
    expect(7, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: InitBuffer: 65 buffers in one TPipe, at most 64 (QBUF_MAX_LEN)");
}
MG_TEST(pipe_num_0) { expect(8, ACL_ERROR_RT_AICORE_EXCEPTION, "block 0: InitBuffer: num 0 outside [1, 64]"); }

MG_TEST_MAIN()
