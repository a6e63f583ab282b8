/*
 * ascendc/core/queue.h: TQue's buffer protocol, the state the face's TQue keeps and the rule
 * it enforces: each of a queue's buffers goes AllocTensor -> EnQue -> DeQue -> FreeTensor (a
 * VECCALC TBuf has no queue); a queue holds at most `depth` enqueued tensors at once.
 */
#ifndef ASC_TWIN_QUEUE_H_
#define ASC_TWIN_QUEUE_H_

#include <stdint.h>

#include "asc_twin/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CANN's QBUF_MAX_LEN: the most buffers one TPipe hands out, over all its queues and TBufs
   (a single queue may take them all, so it is also a queue's most). */
#define ASC_TWIN_PIPE_MAX_BUFFERS 64
#define ASC_TWIN_QUE_MAX_BUFFERS ASC_TWIN_PIPE_MAX_BUFFERS

typedef enum { ASC_TWIN_BUF_FREE = 0, ASC_TWIN_BUF_ALLOCATED, ASC_TWIN_BUF_ENQUEUED } asc_twin_buf_state;

typedef struct asc_twin_que {
    int depth;          /* the TQue's depth template argument */
    int buf_num;        /* buffers given by InitBuffer */
    int enqueued;       /* tensors now in the queue */
    int head;           /* the buffer the next DeQue returns (FIFO) */
    int order[ASC_TWIN_QUE_MAX_BUFFERS]; /* enqueue order ring */
    asc_twin_buf_state state[ASC_TWIN_QUE_MAX_BUFFERS];
} asc_twin_que;

/* TPipe::InitBuffer's count rule, checked before any UB is placed: a queue's `num` lies in
   [1, 64] and the pipe's buffers (each queue's num, 1 per TBuf) total at most 64. Adds num
   to *pipe_buffers and returns 0, or returns -1 after reporting
   "InitBuffer: num 0 outside [1, 64]" or
   "InitBuffer: 65 buffers in one TPipe, at most 64 (QBUF_MAX_LEN)" (nothing added). */
ASC_TWIN_API int asc_twin_pipe_add_buffers(uint32_t *pipe_buffers, int64_t num);

/* Each returns the buffer index, or -1 after reporting the broken rule (the block is aborted):
   alloc: "AllocTensor: all <n> buffers of the queue are in use"; */
ASC_TWIN_API void asc_twin_que_init(asc_twin_que *q, int depth, int buf_num);
ASC_TWIN_API int asc_twin_que_alloc(asc_twin_que *q);
/* "EnQue: buffer <i> is <state>, not allocated"; "EnQue: queue of depth <d> already holds <d>" */
ASC_TWIN_API int asc_twin_que_enque(asc_twin_que *q, int buf);
/* "DeQue: the queue is empty" */
ASC_TWIN_API int asc_twin_que_deque(asc_twin_que *q);
/* "FreeTensor: buffer <i> is <state>" (free only what was allocated and not enqueued) */
ASC_TWIN_API int asc_twin_que_free(asc_twin_que *q, int buf);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_QUEUE_H_ */
