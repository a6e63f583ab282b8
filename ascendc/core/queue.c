/*
 * ascendc/core/queue.c: TQue's Alloc -> EnQue -> DeQue -> Free protocol (queue.h).
 */
#include "queue.h"

#include "twin_block.h"

static const char *state_name(asc_twin_buf_state s) {
    return s == ASC_TWIN_BUF_FREE ? "free" : s == ASC_TWIN_BUF_ALLOCATED ? "allocated" : "enqueued";
}

int asc_twin_pipe_add_buffers(uint32_t *pipe_buffers, int64_t num) {
    if (num < 1 || num > ASC_TWIN_PIPE_MAX_BUFFERS) {
        asc_twin_report("InitBuffer", "num %lld outside [1, %d]", (long long)num, ASC_TWIN_PIPE_MAX_BUFFERS);
        return -1;
    }
    /* *pipe_buffers <= 64 always (only this function adds to it), so the sum cannot wrap */
    if (*pipe_buffers + (uint64_t)num > ASC_TWIN_PIPE_MAX_BUFFERS) {
        asc_twin_report("InitBuffer", "%llu buffers in one TPipe, at most %d (QBUF_MAX_LEN)",
                        (unsigned long long)(*pipe_buffers + (uint64_t)num), ASC_TWIN_PIPE_MAX_BUFFERS);
        return -1;
    }
    *pipe_buffers += (uint32_t)num;
    return 0;
}

void asc_twin_que_init(asc_twin_que *q, int depth, int buf_num) {
    *q = (asc_twin_que){0};
    q->depth = depth;
    q->buf_num = buf_num < 0 ? 0 : buf_num > ASC_TWIN_QUE_MAX_BUFFERS ? ASC_TWIN_QUE_MAX_BUFFERS : buf_num;
}

int asc_twin_que_alloc(asc_twin_que *q) {
    for (int i = 0; i < q->buf_num; i++) {
        if (q->state[i] == ASC_TWIN_BUF_FREE) {
            q->state[i] = ASC_TWIN_BUF_ALLOCATED;
            return i;
        }
    }
    asc_twin_report("AllocTensor", "all %d buffers of the queue are in use (FreeTensor returns one)", q->buf_num);
    return -1;
}

int asc_twin_que_enque(asc_twin_que *q, int buf) {
    if (buf < 0 || buf >= q->buf_num || q->state[buf] != ASC_TWIN_BUF_ALLOCATED) {
        asc_twin_report("EnQue", "buffer %d is %s, not allocated by this queue's AllocTensor", buf,
                        buf < 0 || buf >= q->buf_num ? "foreign" : state_name(q->state[buf]));
        return -1;
    }
    if (q->enqueued >= q->depth) {
        asc_twin_report("EnQue", "queue of depth %d already holds %d tensors", q->depth, q->enqueued);
        return -1;
    }
    q->order[(q->head + q->enqueued) % ASC_TWIN_QUE_MAX_BUFFERS] = buf;
    q->enqueued++;
    q->state[buf] = ASC_TWIN_BUF_ENQUEUED;
    return buf;
}

int asc_twin_que_deque(asc_twin_que *q) {
    if (q->enqueued == 0) {
        asc_twin_report("DeQue", "the queue is empty (no EnQue before it)");
        return -1;
    }
    int buf = q->order[q->head];
    q->head = (q->head + 1) % ASC_TWIN_QUE_MAX_BUFFERS;
    q->enqueued--;
    q->state[buf] = ASC_TWIN_BUF_ALLOCATED;
    return buf;
}

int asc_twin_que_free(asc_twin_que *q, int buf) {
    if (buf < 0 || buf >= q->buf_num || q->state[buf] != ASC_TWIN_BUF_ALLOCATED) {
        asc_twin_report("FreeTensor", "buffer %d is %s, not allocated or dequeued", buf,
                        buf < 0 || buf >= q->buf_num ? "foreign" : state_name(q->state[buf]));
        return -1;
    }
    q->state[buf] = ASC_TWIN_BUF_FREE;
    return buf;
}
