/*
 * tests/reliability/test_finalize_race.c: aclFinalize racing a thread that makes streams.
 * The late call gets an error (100001) or finishes before the runtime goes; aclFinalize
 * returns, whatever the timing (it used to wait forever for a stream created between its
 * snapshot of the live streams and the end of that stream's creation). Each round:
 * aclInit, a thread that creates and destroys streams (or queues work on the NULL stream,
 * whose default stream is made on first use), aclFinalize after a random delay. A round
 * that does not finish within 20 s fails the test (SIGALRM), instead of hanging CI.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "mg_test.h"

enum { ROUNDS = 400, CALLS_PER_ROUND = 40 };

static atomic_int finalize_done;
static atomic_int bad_status;
static atomic_int current_round;
static pthread_barrier_t start_line;

static void on_alarm(int sig) {
    (void)sig;
    char line[120];
    const int n = snprintf(line, sizeof line, "FAIL: aclFinalize did not return within 20 s in round %d\n",
                           atomic_load(&current_round));
    if (write(STDOUT_FILENO, line, (size_t)n) < 0) _exit(3);
    _exit(1);
}

static void pause_us(unsigned max_us, unsigned *seed) {
    const struct timespec t = {0, (long)(rand_r(seed) % max_us) * 1000L};
    nanosleep(&t, NULL);
}

typedef struct worker_args {
    int queue_on_null_stream; /* 0: create and destroy streams; 1: synchronize the NULL stream */
    unsigned seed;
} worker_args;

static void *worker(void *arg) {
    worker_args *w = arg;
    aclrtSetDevice(0);
    pthread_barrier_wait(&start_line);
    pause_us(120, &w->seed);
    for (int i = 0; i < CALLS_PER_ROUND; i++) {
        if (w->queue_on_null_stream) {
            const aclError r = aclrtSynchronizeStream(NULL);
            /* 0 before aclFinalize, 100001 after; 107002 if the context went first */
            if (r != ACL_SUCCESS && r != ACL_ERROR_UNINITIALIZE && r != ACL_ERROR_RT_CONTEXT_NULL)
                atomic_store(&bad_status, (int)r);
        } else {
            aclrtStream s = NULL;
            const aclError created = aclrtCreateStream(&s);
            if (created == ACL_SUCCESS) {
                const aclError destroyed = aclrtDestroyStream(s);
                /* 100001 once aclFinalize is over; 107002 while it runs, once it has reclaimed
                   this thread's context; 100000 if it has already released the stream */
                if (destroyed != ACL_SUCCESS && destroyed != ACL_ERROR_UNINITIALIZE &&
                    destroyed != ACL_ERROR_RT_CONTEXT_NULL && destroyed != ACL_ERROR_INVALID_PARAM)
                    atomic_store(&bad_status, (int)destroyed);
            } else if (created != ACL_ERROR_UNINITIALIZE && created != ACL_ERROR_RT_CONTEXT_NULL) {
                atomic_store(&bad_status, (int)created);
            }
        }
        (void)aclGetRecentErrMsg();
    }
    return NULL;
}

static void run_rounds(int queue_on_null_stream) {
    signal(SIGALRM, on_alarm);
    atomic_store(&bad_status, 0); /* each test judges its own rounds */
    unsigned seed = 12345u + (unsigned)queue_on_null_stream;
    for (int round = 0; round < ROUNDS; round++) {
        atomic_store(&current_round, round);
        MG_CHECK_EQ_INT(aclInit(NULL), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
        worker_args args = {queue_on_null_stream, seed + (unsigned)round};
        pthread_barrier_init(&start_line, NULL, 2);
        pthread_t thread;
        MG_CHECK_EQ_INT(pthread_create(&thread, NULL, worker, &args), 0);
        pthread_barrier_wait(&start_line);
        pause_us(100, &seed);
        alarm(20);
        const aclError finalized = aclFinalize();
        alarm(0);
        atomic_store(&finalize_done, 1);
        pthread_join(thread, NULL);
        pthread_barrier_destroy(&start_line);
        MG_CHECK_EQ_INT(finalized, ACL_SUCCESS);
        (void)aclGetRecentErrMsg();
    }
    MG_CHECK_EQ_INT(atomic_load(&bad_status), 0);
}

MG_TEST(finalize_racing_stream_creation_returns) { run_rounds(0); }
MG_TEST(finalize_racing_the_first_use_of_the_null_stream_returns) { run_rounds(1); }

MG_TEST_MAIN()
