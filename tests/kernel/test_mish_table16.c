/*
 * tests/kernel/test_mish_table16.c: the forward's 16-bit tiles look results up in a table
 * that each ISA fills on its first call (op_kernel/mish_body.h). Here the first calls come
 * from 8 threads at once (the fill must happen once, completely, before any lookup: run
 * under TSan with the "threads" label), then every ISA's f16 and bf16 tiles, cached and
 * streaming, in place and out of place, give the evaluated tile's bits for every 16-bit
 * pattern.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kt_mish.h"
#include "mg_test.h"

enum { PATTERNS = 65536, RACERS = 8 };

static const mish_kernels *tables[6];
static size_t table_count;
static uint16_t every_pattern[PATTERNS];
static pthread_barrier_t start_line;

typedef struct racer {
    int dtype; /* 1 f16, 2 bf16 */
    int streaming;
    uint16_t out[6][PATTERNS];
} racer;

static void *first_calls(void *arg) {
    racer *r = arg;
    pthread_barrier_wait(&start_line);
    for (size_t t = 0; t < table_count; t++) {
        mish_tile_fn tile = r->streaming ? kt_mish_fn_stream(tables[t], r->dtype) : kt_mish_fn(tables[t], r->dtype);
        tile(every_pattern, r->out[t], PATTERNS);
    }
    return NULL;
}

static mish_tile_fn evaluated(const mish_kernels *t, int dtype) {
    return dtype == 1 ? t->f16_evaluated : t->bf16_evaluated;
}

static void expect_evaluated_bits(const mish_kernels *t, int dtype, const uint16_t *got, const char *what) {
    static uint16_t want[PATTERNS];
    evaluated(t, dtype)(every_pattern, want, PATTERNS);
    mg_checks_done++;
    if (memcmp(want, got, sizeof want) == 0) return;
    for (uint32_t i = 0; i < PATTERNS; i++)
        if (want[i] != got[i]) {
            MG_FAIL("%s %s %s: x=0x%04x evaluated 0x%04x, looked up 0x%04x", t->isa, kt_dtype_name(dtype), what, i,
                    want[i], got[i]);
            return;
        }
}

static racer *racers; /* the first calls' results, made by main before any test */

/* Every table's first 16-bit calls, from RACERS threads released together */
static int race_first_calls(void) {
    racers = calloc(RACERS, sizeof *racers);
    if (racers == NULL || pthread_barrier_init(&start_line, NULL, RACERS) != 0) return -1;
    pthread_t threads[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i].dtype = 1 + i % 2;
        racers[i].streaming = (i / 2) % 2;
        if (pthread_create(&threads[i], NULL, first_calls, &racers[i]) != 0) return -1;
    }
    for (int i = 0; i < RACERS; i++) pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_line);
    return 0;
}

MG_TEST(first_calls_from_many_threads_see_a_full_table) {
    MG_CHECK(racers != NULL);
    if (racers == NULL) return;
    for (int i = 0; i < RACERS; i++)
        for (size_t t = 0; t < table_count; t++)
            expect_evaluated_bits(tables[t], racers[i].dtype, racers[i].out[t],
                                  racers[i].streaming ? "first call, streaming" : "first call");
}

MG_TEST(every_pattern_in_place_and_at_every_offset) {
    /* the output at each word offset from a 64-byte line (aligned or not, the streaming
       tile's two ways), and in place */
    static uint16_t buffer[PATTERNS + 64];
    for (size_t t = 0; t < table_count; t++)
        for (int dtype = 1; dtype <= 2; dtype++) {
            for (int streaming = 0; streaming <= 1; streaming++) {
                mish_tile_fn tile = streaming ? kt_mish_fn_stream(tables[t], dtype) : kt_mish_fn(tables[t], dtype);
                uint16_t *in_place = (uint16_t *)(((uintptr_t)buffer + 63) & ~(uintptr_t)63);
                memcpy(in_place, every_pattern, sizeof every_pattern);
                tile(in_place, in_place, PATTERNS);
                expect_evaluated_bits(tables[t], dtype, in_place, streaming ? "in place, streaming" : "in place");
                for (size_t offset = 1; offset < 32; offset += 7) {
                    uint16_t *out = in_place + offset;
                    tile(every_pattern, out, PATTERNS - 64);
                    memcpy(out + PATTERNS - 64, every_pattern + PATTERNS - 64, 64 * sizeof *out);
                    tile(every_pattern + PATTERNS - 64, out + PATTERNS - 64, 64);
                    expect_evaluated_bits(tables[t], dtype, out, "at an offset");
                }
            }
        }
}

int main(int argc, char **argv) {
    for (uint32_t i = 0; i < PATTERNS; i++) every_pattern[i] = (uint16_t)i;
    table_count = kt_mish_tables(tables, 6);
    printf("%zu kernel tables\n", table_count);
    if (race_first_calls() != 0) {
        fprintf(stderr, "could not start the racing threads\n");
        return 1;
    }
    const int status = mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
    free(racers);
    return status;
}
