/*
 * tests/kernel/kernel_tester.c: the one kernel tester. It calls the operators' per-ISA kernel
 * tables directly, each operator described once (tests/kernel/ops/kt_op_<op>.h) and listed
 * once (op_kernel/kernel_ops.inc, the list the kernels' build reads too):
 *
 *   kernel_tester accuracy <op>   the operator's math against its reference (its own tests)
 *                                 on the table MISHGRAD_ISA asks for, which must be that ISA
 *   kernel_tester bitexact <op>   every table this CPU runs against scalar, bit for bit: every
 *                                 16-bit pattern, a stride through the float32 bit space,
 *                                 dense windows, the operator's special values
 *   kernel_tester loops <op>      every size up to three 16-lane vectors + 1 in every
 *                                 placement (out apart, out is an input) between fenced
 *                                 pages; canaries; the streaming tiles at every offset from a
 *                                 64-byte line; a large odd size; the operator's own loops
 *   kernel_tester table16 <op>    lookup16 operators: the 16-bit tables filled by racing first
 *                                 calls, then every pattern against the evaluated tile
 *   kernel_tester dispatch        every operator's dispatch for the MISHGRAD_ISA setting
 *                                 against the CPU itself (kt_cpu.h), not the runtime
 * A third argument runs only the tests whose name contains it. Asked (MISHGRAD_ISA) for an
 * ISA the CPU lacks, accuracy and bitexact exit 77: CTest reports them skipped.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_tester.h"
#include "mg_log_file.h"
#include "mgrt.h"

/* Every operator's descriptor: the build writes one #include per line of the operator list */
#include "kt_op_headers.h"

static const struct {
    const kt_op *op;
    const char *traits;
} kt_ops[] = {
#define MG_KERNEL_OPERATOR(op, table_macro, traits) {&KT_OP_##op, traits},
#include "kernel_ops.inc"
#undef MG_KERNEL_OPERATOR
};
enum { KT_OP_COUNT = sizeof kt_ops / sizeof kt_ops[0] };

/* Every ISA name of the ISA list (runtime/mgrt_isa_list.inc) */
static const char *const kt_isa_names[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) #name,
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
};
enum { KT_ISA_COUNT = sizeof kt_isa_names / sizeof kt_isa_names[0], MAX_N = 3 * 16 + 1, CANARY = 64 };

static const char *kt_wanted_isa(void) {
    const char *w = getenv("MISHGRAD_ISA");
    return (w == NULL || w[0] == '\0') ? "auto" : w;
}

/* With MISHGRAD_ISA naming one ISA, only "scalar" and that one are listed. */
static int kt_isa_listed(const char *isa) {
    const char *wanted = kt_wanted_isa();
    return strcmp(wanted, "auto") == 0 || strcmp(isa, "scalar") == 0 || strcmp(isa, wanted) == 0;
}

/* ---- the engines ---------------------------------------------------------------------- */

/* TABLE_FOR(isa) for each listed ISA, and the plain AVX-512 table too where the CPU has
   AVX512_BF16 ("avx512" then names the table that narrows bfloat16 with vcvtneps2bf16; the
   plain one is what CPUs without it get). */
static size_t kt_tables(const void **tables, size_t capacity) {
    size_t count = 0;
    for (size_t i = 0; i < KT_ISA_COUNT && count < capacity; i++) {
        if (!kt_isa_listed(kt_isa_names[i])) continue;
        const void *t = kt_op_now->for_isa(kt_isa_names[i]);
        if (t != NULL) tables[count++] = t;
    }
    const void *plain = kt_op_now->plain_avx512, *avx512 = kt_op_now->for_isa("avx512");
    if (plain != NULL && kt_isa_listed("avx512") && avx512 != NULL && avx512 != plain && count < capacity)
        tables[count++] = plain;
    return count;
}

static const void *kt_scalar(void) { return kt_op_now->for_isa("scalar"); }
static const char *kt_isa(const void *t) { return kt_op_now->isa_of(t); }

static int kt_compared; /* tables other than scalar compared with it */

/* Prints the first element that differs, with the inputs that gave it */
static void kt_report_first_difference(const void *table, int dtype, const void *const *in, const unsigned char *want,
                                       const unsigned char *got, size_t n, const char *what) {
    const size_t es = kt_dtype_size(dtype);
    for (size_t i = 0; i < n; i++) {
        if (memcmp(want + i * es, got + i * es, es) == 0) continue;
        uint32_t a = 0, b = 0, w = 0, h = 0;
        memcpy(&a, (const unsigned char *)in[0] + i * es, es);
        if (kt_op_now->inputs > 1) memcpy(&b, (const unsigned char *)in[1] + i * es, es);
        memcpy(&w, want + i * es, es);
        memcpy(&h, got + i * es, es);
        MG_FAIL("%s %s %s %s[%zu]: in 0x%08x 0x%08x scalar 0x%08x, %s 0x%08x", kt_op_now->name, kt_isa(table),
                kt_dtype_name(dtype), what, i, a, b, w, kt_isa(table), h);
        return;
    }
}

static void kt_same_bits(int dtype, const void *const *in, size_t n, const char *what) {
    kt_same_bits_run(kt_op_now->run, dtype, in, n, what);
}

static void kt_same_bits_run(kt_run_fn run, int dtype, const void *const *in, size_t n, const char *what) {
    const void *tables[KT_MAX_TABLES];
    const size_t count = kt_tables(tables, KT_MAX_TABLES);
    const size_t bytes = n * kt_dtype_size(dtype);
    unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    MG_CHECK(want != NULL && got != NULL);
    const void *scalar = kt_scalar();
    if (want != NULL && got != NULL) {
        run(scalar, dtype, 0, in, want, n);
        for (size_t t = 0; t < count; t++) {
            if (tables[t] == scalar) continue;
            kt_compared++;
            run(tables[t], dtype, 0, in, got, n);
            mg_checks_done++;
            if (memcmp(want, got, bytes) != 0) kt_report_first_difference(tables[t], dtype, in, want, got, n, what);
        }
    }
    free(want);
    free(got);
}

static const char *kt_mode_name(unsigned mode) {
    return mode == KT_OUT_APART ? "out apart" : mode == KT_OUT_IS(0) ? "out is input 0" : "out is input 1";
}

static void kt_fenced_against_scalar(int dtype, const void *const *in, size_t n, unsigned modes, const char *what) {
    const void *tables[KT_MAX_TABLES];
    const size_t count = kt_tables(tables, KT_MAX_TABLES);
    const size_t es = kt_dtype_size(dtype), bytes = n * es;
    const int inputs = kt_op_now->inputs;
    unsigned char *want = malloc(bytes + 1);
    MG_CHECK(want != NULL && count >= 1);
    if (want == NULL) return;
    kt_op_now->run(kt_scalar(), dtype, 0, in, want, n);
    for (unsigned mode = KT_OUT_APART; mode <= KT_OUT_IS(KT_MAX_INPUTS - 1); mode <<= 1) {
        if (!(modes & mode) || (mode != KT_OUT_APART && mode >= KT_OUT_IS(inputs))) continue;
        int written = inputs; /* buf[inputs]: the output of its own, where it has one */
        for (int k = 0; k < inputs; k++)
            if (mode == KT_OUT_IS(k)) written = k;
        const int buffers = written == inputs ? inputs + 1 : inputs;
        for (size_t t = 0; t < count; t++) {
            kt_fenced buf[KT_MAX_INPUTS + 1];
            int made = 0, failed = 0;
            for (; made < buffers; made++)
                if (kt_fenced_alloc(&buf[made], bytes) != 0) { failed = 1; break; }
            if (failed) {
                MG_FAIL("mmap failed");
                for (int k = 0; k < made; k++) kt_fenced_free(&buf[k]);
                free(want);
                return;
            }
            const void *args[KT_MAX_INPUTS];
            for (int k = 0; k < inputs; k++) {
                memcpy(buf[k].data, in[k], bytes);
                args[k] = buf[k].data;
            }
            unsigned char *dst = buf[written].data;
            kt_op_now->run(tables[t], dtype, 0, args, dst, n);
            mg_checks_done++;
            if (memcmp(dst, want, bytes) != 0) {
                size_t i = 0;
                while (memcmp(dst + i * es, want + i * es, es) == 0) i++;
                MG_FAIL("%s %s %s n=%zu %s %s: element %zu differs from scalar", kt_op_now->name, kt_isa(tables[t]),
                        kt_dtype_name(dtype), n, what, kt_mode_name(mode), i);
            }
            /* the inputs not written are left as they were */
            for (int k = 0; k < inputs; k++)
                if (k != written) MG_CHECK(memcmp(buf[k].data, in[k], bytes) == 0);
            for (int k = 0; k < buffers; k++) kt_fenced_free(&buf[k]);
        }
    }
    free(want);
}

static void kt_streaming_against_scalar(int dtype, size_t n, uint32_t at_seed, uint32_t fill_seed, size_t offsets,
                                        unsigned modes) {
    const void *tables[KT_MAX_TABLES];
    const size_t count = kt_tables(tables, KT_MAX_TABLES);
    const int inputs = kt_op_now->inputs;
    const size_t es = kt_dtype_size(dtype);
    const size_t bytes = ((n + 16) * es + 2 * CANARY + 63) / 64 * 64; /* aligned_alloc: a multiple of 64 */
    unsigned char *ref[KT_MAX_INPUTS] = {NULL, NULL}, *buf[KT_MAX_INPUTS] = {NULL, NULL};
    unsigned char *want = malloc(n * es + 1), *out = aligned_alloc(64, bytes);
    int ok = want != NULL && out != NULL;
    for (int k = 0; k < inputs; k++) {
        ref[k] = malloc(n * es + 1);
        buf[k] = aligned_alloc(64, bytes);
        ok &= ref[k] != NULL && buf[k] != NULL;
    }
    MG_CHECK(ok);
    if (ok) {
        size_t at[6];
        uint32_t st = at_seed | 1u;
        for (size_t k = 0; k < 6; k++) at[k] = n ? kt_next(&st) % n : 0;
        kt_op_now->fill_at(dtype, (void *const *)ref, n, fill_seed, at, n > 100 ? 6 : 0);
        const void *const *in = (const void *const *)ref;
        kt_op_now->run(kt_scalar(), dtype, 0, in, want, n);
        for (size_t t = 0; t < count; t++) {
            for (size_t offset = 0; offset < offsets; offset++) {
#if defined(KT_EMULATED)
                if (n > 100000 && offset != 0 && offset != 4 && offset != 15) continue;
#endif
                for (unsigned mode = KT_OUT_APART; mode <= KT_OUT_IS(KT_MAX_INPUTS - 1); mode <<= 1) {
                    if (!(modes & mode) || (mode != KT_OUT_APART && mode >= KT_OUT_IS(inputs))) continue;
                    memset(out, 0xA5, bytes);
                    const void *args[KT_MAX_INPUTS];
                    for (int k = 0; k < inputs; k++) {
                        memset(buf[k], 0x5A, bytes);
                        memcpy(buf[k] + CANARY + offset * es, ref[k], n * es);
                        args[k] = buf[k] + CANARY + offset * es;
                    }
                    unsigned char *written = out;
                    for (int k = 0; k < inputs; k++)
                        if (mode == KT_OUT_IS(k)) written = buf[k];
                    unsigned char *dst = written + CANARY + offset * es;
                    kt_op_now->run(tables[t], dtype, 1, args, dst, n);
                    mg_checks_done++;
                    if (memcmp(dst, want, n * es) != 0)
                        MG_FAIL("%s %s %s n=%zu offset %zu %s: streaming tile differs from scalar", kt_op_now->name,
                                kt_isa(tables[t]), kt_dtype_name(dtype), n, offset, kt_mode_name(mode));
                    const unsigned char fill = written == out ? 0xA5 : 0x5A;
                    int intact = 1;
                    for (unsigned char *q = written; q < dst; q++) intact &= *q == fill;
                    for (unsigned char *q = dst + n * es; q < written + bytes; q++) intact &= *q == fill;
                    mg_checks_done++;
                    if (!intact)
                        MG_FAIL("%s %s %s n=%zu offset %zu %s: bytes outside the output changed", kt_op_now->name,
                                kt_isa(tables[t]), kt_dtype_name(dtype), n, offset, kt_mode_name(mode));
                    for (int k = 0; k < inputs; k++)
                        if (buf[k] != written) MG_CHECK(memcmp(args[k], ref[k], n * es) == 0);
                }
            }
        }
    }
    for (int k = 0; k < inputs; k++) {
        free(ref[k]);
        free(buf[k]);
    }
    free(want);
    free(out);
}

/* ---- accuracy (and the operator's own tests) ---------------------------------------- */

static void kt_table_is_the_requested_isa(void) {
    const char *wanted = kt_wanted_isa();
    const char *expect = strcmp(wanted, "auto") == 0 ? kt_cpu_best_isa() : wanted;
    MG_CHECK_STR_CONTAINS(kt_table_isa(), expect);
    MG_CHECK(strcmp(kt_table_isa(), expect) == 0);
}

/* ---- bitexact ----------------------------------------------------------------------- */

/* Every 16-bit pattern in each input, the others held at each of the operator's values
   (a one-input operator: every pattern once) */
static void kt_every_16bit_pattern(int dtype) {
    enum { N = 65536 };
    const int inputs = kt_op_now->inputs;
    uint16_t *buf[KT_MAX_INPUTS] = {NULL, NULL};
    int ok = 1;
    for (int k = 0; k < inputs; k++) ok &= (buf[k] = malloc(N * 2)) != NULL;
    MG_CHECK(ok);
    if (ok) {
        const void *in[KT_MAX_INPUTS] = {buf[0], buf[1]};
        if (inputs == 1) {
            for (uint32_t i = 0; i < N; i++) buf[0][i] = (uint16_t)i;
            kt_same_bits(dtype, in, N, dtype == 1 ? "all f16" : "all bf16");
        }
        for (size_t v = 0; inputs > 1 && v < kt_op_now->fixed16_count[dtype]; v++) {
            for (int sweep = inputs - 1; sweep >= 0; sweep--) {
                for (int k = 0; k < inputs; k++)
                    for (uint32_t i = 0; i < N; i++) buf[k][i] = k == sweep ? (uint16_t)i : kt_op_now->fixed16[dtype][v];
                char what[32];
                snprintf(what, sizeof what, "input %d sweep", sweep);
                kt_same_bits(dtype, in, N, what);
            }
        }
    }
    for (int k = 0; k < inputs; k++) free(buf[k]);
}
static void kt_f16_every_pattern_matches_scalar(void) { kt_every_16bit_pattern(1); }
static void kt_bf16_every_pattern_matches_scalar(void) { kt_every_16bit_pattern(2); }

/* The last input (x) at every 1021st bit pattern (all signs, exponents, NaN and inf
   encodings); the others 1, then pseudo-random of any exponent */
static void kt_f32_strided_bit_space_matches_scalar(void) {
    const size_t n = (size_t)(((uint64_t)1 << 32) / 1021) + 1;
    const int inputs = kt_op_now->inputs;
    float *buf[KT_MAX_INPUTS] = {NULL, NULL};
    int ok = 1;
    for (int k = 0; k < inputs; k++) ok &= (buf[k] = malloc(n * 4)) != NULL;
    MG_CHECK(ok);
    if (ok) {
        float *x = buf[inputs - 1];
        const void *in[KT_MAX_INPUTS] = {buf[0], buf[1]};
        for (size_t i = 0; i < n; i++) {
            x[i] = kt_float((uint32_t)(i * 1021u));
            for (int k = 0; k < inputs - 1; k++) buf[k][i] = 1.0f;
        }
        kt_same_bits(0, in, n, inputs > 1 ? "stride 1021, others 1" : "stride 1021");
        if (inputs > 1) {
            uint32_t state = 0x9E3779B9u;
            for (int k = 0; k < inputs - 1; k++)
                for (size_t i = 0; i < n; i++) buf[k][i] = kt_float(kt_next(&state));
            kt_same_bits(0, in, n, "stride 1021, random others");
        }
    }
    for (int k = 0; k < inputs; k++) free(buf[k]);
}

/* 2 * half consecutive floats centred on each of the operator's centres (walking the float
   line: down for negatives, from -0 to +0); the other inputs alternately 1 and random */
static void kt_f32_dense_windows_match_scalar(void) {
    const size_t half = kt_op_now->window_half ? kt_op_now->window_half : 32768;
    const int inputs = kt_op_now->inputs;
    float centres[64];
    const size_t centre_count = kt_op_now->window_centres(centres, sizeof centres / sizeof centres[0]);
    float *buf[KT_MAX_INPUTS] = {NULL, NULL};
    int ok = centre_count > 0;
    for (int k = 0; k < inputs; k++) ok &= (buf[k] = malloc(2 * half * 4)) != NULL;
    MG_CHECK(ok);
    uint32_t state = 12345u;
    for (size_t c = 0; ok && c < centre_count; c++) {
        const int64_t ordinal = kt_ordinal(centres[c]);
        float *x = buf[inputs - 1];
        for (int64_t i = 0; i < (int64_t)(2 * half); i++) {
            x[i] = kt_float_at(ordinal - (int64_t)half + i);
            for (int k = 0; k < inputs - 1; k++)
                buf[k][i] = (i & 1) ? 1.0f : kt_float((kt_next(&state) & 0x807FFFFFu) | 0x3F000000u) * 3.0f;
        }
        const void *in[KT_MAX_INPUTS] = {buf[0], buf[1]};
        kt_same_bits(0, in, 2 * half, "dense window");
    }
    for (int k = 0; k < inputs; k++) free(buf[k]);
}

static void kt_something_was_compared(void) {
    /* with MISHGRAD_ISA=<isa> (not scalar), that ISA's table must have been compared */
    if (strcmp(kt_wanted_isa(), "scalar") == 0) MG_SKIP("MISHGRAD_ISA=scalar: nothing to compare scalar with");
    printf("  %d comparisons against scalar\n", kt_compared);
    MG_CHECK(kt_compared > 0);
}

/* ---- loops -------------------------------------------------------------------------- */

/* Every size from 0 to MAX_N in one placement, inputs over every region of the kernel */
static void kt_sizes(unsigned mode) {
    for (int dtype = 0; dtype < 3; dtype++) {
        for (size_t n = 0; n <= MAX_N; n++) {
            unsigned char ref[KT_MAX_INPUTS][MAX_N * 4];
            void *refs[KT_MAX_INPUTS] = {ref[0], ref[1]};
            kt_op_now->fill(dtype, refs, n, (uint32_t)(n * 7919u + (unsigned)dtype));
            const void *in[KT_MAX_INPUTS] = {ref[0], ref[1]};
            kt_fenced_against_scalar(dtype, in, n, mode, "size");
        }
    }
}
static void kt_sizes_out_apart(void) { kt_sizes(KT_OUT_APART); }
static void kt_sizes_out_is_input_0(void) { kt_sizes(KT_OUT_IS(0)); }
static void kt_sizes_out_is_input_1(void) { kt_sizes(KT_OUT_IS(1)); }

/* Canary bytes before and after the output stay as they were, at every offset 0..3 */
static void kt_canaries_around_output_untouched(void) {
    const void *tables[KT_MAX_TABLES];
    const size_t count = kt_tables(tables, KT_MAX_TABLES);
    for (size_t t = 0; t < count; t++) {
        for (int dtype = 0; dtype < 3; dtype++) {
            const size_t es = kt_dtype_size(dtype);
            for (size_t offset = 0; offset < 4; offset++) {
                for (size_t n = 0; n <= MAX_N; n++) {
                    unsigned char ref[KT_MAX_INPUTS][MAX_N * 4];
                    unsigned char out[(CANARY * 2 + MAX_N + 4) * 4];
                    void *refs[KT_MAX_INPUTS] = {ref[0], ref[1]};
                    const void *in[KT_MAX_INPUTS] = {ref[0], ref[1]};
                    memset(out, 0xA5, sizeof out);
                    kt_op_now->fill(dtype, refs, n, (uint32_t)n + 17u);
                    unsigned char *dst = out + (CANARY + offset) * es;
                    kt_op_now->run(tables[t], dtype, 0, in, dst, n);
                    int intact = 1;
                    for (unsigned char *p = out; p < dst; p++) intact &= *p == 0xA5;
                    for (unsigned char *p = dst + n * es; p < out + sizeof out; p++) intact &= *p == 0xA5;
                    mg_checks_done++;
                    if (!intact)
                        MG_FAIL("%s %s %s n=%zu offset=%zu: canary overwritten", kt_op_now->name, kt_isa(tables[t]),
                                kt_dtype_name(dtype), n, offset);
                }
            }
        }
    }
}

static unsigned kt_every_mode(void) { return KT_OUT_APART | KT_OUT_IS(0) | (kt_op_now->inputs > 1 ? KT_OUT_IS(1) : 0); }

/* The streaming tiles at the operator's small sizes (sizes around every loop boundary);
   an operator that names none gets these, at every offset 0..15 */
static const size_t kt_default_small_sizes[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 129, 1000};
static void kt_streaming_small_sizes(void) {
    const size_t *sizes = kt_op_now->small_stream_sizes;
    size_t count = kt_op_now->small_stream_size_count, offsets = kt_op_now->small_stream_offsets;
    if (sizes == NULL) {
        sizes = kt_default_small_sizes;
        count = sizeof kt_default_small_sizes / sizeof kt_default_small_sizes[0];
        offsets = 16;
    }
    for (int dtype = 0; dtype < 3; dtype++)
        for (size_t i = 0; i < count; i++) {
            uint32_t at_seed = (uint32_t)(i + 9u), fill_seed = at_seed;
            if (kt_op_now->small_stream_seeds != NULL)
                kt_op_now->small_stream_seeds(sizes[i], dtype, i, &at_seed, &fill_seed);
            kt_streaming_against_scalar(dtype, sizes[i], at_seed, fill_seed, offsets, kt_every_mode());
        }
}

/* ... and at every element offset 0..15 at 1000 and 2^20 + 3 elements, out apart and in
   place over the first input: an alignment fallback that tested 16 bytes instead of 64
   streams to a misaligned address and faults at offset 4 */
static void kt_streaming_every_offset(void) {
    static const size_t sizes[] = {1000, (1u << 20) + 3};
    for (int dtype = 0; dtype < 3; dtype++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            kt_streaming_against_scalar(dtype, sizes[i],
                                        kt_op_now->large_stream_seed ? kt_op_now->large_stream_seed(sizes[i], 0)
                                                                     : (uint32_t)sizes[i],
                                        kt_op_now->large_stream_seed ? kt_op_now->large_stream_seed(sizes[i], 1)
                                                                     : (uint32_t)sizes[i] + 3u,
                                        16, KT_OUT_APART | KT_OUT_IS(0));
}

/* A large odd size: every loop in one call */
static void kt_large_odd_size(void) {
    const size_t n = 100003;
    for (int dtype = 0; dtype < 3; dtype++) {
        const size_t es = kt_dtype_size(dtype);
        unsigned char *buf[KT_MAX_INPUTS] = {NULL, NULL};
        int ok = 1;
        for (int k = 0; k < kt_op_now->inputs; k++) ok &= (buf[k] = malloc(n * es)) != NULL;
        MG_CHECK(ok);
        if (ok) {
            void *refs[KT_MAX_INPUTS] = {buf[0], buf[1]};
            const void *in[KT_MAX_INPUTS] = {buf[0], buf[1]};
            kt_op_now->fill(dtype, refs, n, 99u);
            kt_same_bits(dtype, in, n, "large odd size");
        }
        for (int k = 0; k < kt_op_now->inputs; k++) free(buf[k]);
    }
}

/* ---- table16 ------------------------------------------------------------------------ */

enum { PATTERNS = 65536, RACERS = 8 };
static const void *kt16_tables[KT_MAX_TABLES];
static size_t kt16_table_count;
static uint16_t kt16_every_pattern[PATTERNS];
static pthread_barrier_t kt16_start_line;

typedef struct kt16_racer {
    int dtype; /* 1 f16, 2 bf16 */
    int streaming;
    uint16_t out[KT_MAX_TABLES][PATTERNS];
} kt16_racer;
static kt16_racer *kt16_racers; /* the first calls' results, made by main before any test */

static void *kt16_first_calls(void *arg) {
    kt16_racer *r = arg;
    const void *in[1] = {kt16_every_pattern};
    pthread_barrier_wait(&kt16_start_line);
    for (size_t t = 0; t < kt16_table_count; t++) kt_op_now->run(kt16_tables[t], r->dtype, r->streaming, in, r->out[t], PATTERNS);
    return NULL;
}

/* Every table's first 16-bit calls, from RACERS threads released together */
static int kt16_race_first_calls(void) {
    for (uint32_t i = 0; i < PATTERNS; i++) kt16_every_pattern[i] = (uint16_t)i;
    kt16_table_count = kt_tables(kt16_tables, KT_MAX_TABLES);
    printf("%zu kernel tables\n", kt16_table_count);
    kt16_racers = calloc(RACERS, sizeof *kt16_racers);
    if (kt16_racers == NULL || pthread_barrier_init(&kt16_start_line, NULL, RACERS) != 0) return -1;
    pthread_t threads[RACERS];
    for (int i = 0; i < RACERS; i++) {
        kt16_racers[i].dtype = 1 + i % 2;
        kt16_racers[i].streaming = (i / 2) % 2;
        if (pthread_create(&threads[i], NULL, kt16_first_calls, &kt16_racers[i]) != 0) return -1;
    }
    for (int i = 0; i < RACERS; i++) pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&kt16_start_line);
    return 0;
}

static void kt16_expect_evaluated_bits(const void *t, int dtype, const uint16_t *got, const char *what) {
    static uint16_t want[PATTERNS];
    const void *in[1] = {kt16_every_pattern};
    kt_op_now->evaluated(t, dtype, 0, in, want, PATTERNS);
    mg_checks_done++;
    if (memcmp(want, got, sizeof want) == 0) return;
    for (uint32_t i = 0; i < PATTERNS; i++)
        if (want[i] != got[i]) {
            MG_FAIL("%s %s %s %s: x=0x%04x evaluated 0x%04x, looked up 0x%04x", kt_op_now->name, kt_isa(t),
                    kt_dtype_name(dtype), what, i, want[i], got[i]);
            return;
        }
}

static void kt16_first_calls_from_many_threads_see_a_full_table(void) {
    MG_CHECK(kt16_racers != NULL);
    if (kt16_racers == NULL) return;
    for (int i = 0; i < RACERS; i++)
        for (size_t t = 0; t < kt16_table_count; t++)
            kt16_expect_evaluated_bits(kt16_tables[t], kt16_racers[i].dtype, kt16_racers[i].out[t],
                                       kt16_racers[i].streaming ? "first call, streaming" : "first call");
}

/* the output at each word offset from a 64-byte line (aligned or not, the streaming tile's
   two ways), and in place */
static void kt16_every_pattern_in_place_and_at_every_offset(void) {
    static uint16_t buffer[PATTERNS + 64];
    for (size_t t = 0; t < kt16_table_count; t++)
        for (int dtype = 1; dtype <= 2; dtype++) {
            for (int streaming = 0; streaming <= 1; streaming++) {
                uint16_t *in_place = (uint16_t *)(((uintptr_t)buffer + 63) & ~(uintptr_t)63);
                memcpy(in_place, kt16_every_pattern, sizeof kt16_every_pattern);
                const void *in_self[1] = {in_place};
                kt_op_now->run(kt16_tables[t], dtype, streaming, in_self, in_place, PATTERNS);
                kt16_expect_evaluated_bits(kt16_tables[t], dtype, in_place, streaming ? "in place, streaming" : "in place");
                for (size_t offset = 1; offset < 32; offset += 7) {
                    uint16_t *out = in_place + offset;
                    const void *in[1] = {kt16_every_pattern}, *tail[1] = {kt16_every_pattern + PATTERNS - 64};
                    kt_op_now->run(kt16_tables[t], dtype, streaming, in, out, PATTERNS - 64);
                    memcpy(out + PATTERNS - 64, kt16_every_pattern + PATTERNS - 64, 64 * sizeof *out);
                    kt_op_now->run(kt16_tables[t], dtype, streaming, tail, out + PATTERNS - 64, 64);
                    kt16_expect_evaluated_bits(kt16_tables[t], dtype, out, "at an offset");
                }
            }
        }
}

/* ---- dispatch ----------------------------------------------------------------------- */

static const char *kt_expected_isa(void) {
    const char *w = kt_wanted_isa();
    if (strcmp(w, "auto") != 0 && kt_cpu_has_isa(w)) return w;
    return kt_cpu_best_isa();
}

static void *kt_first_get(void *unused) {
    (void)unused;
    return (void *)kt_ops[0].op->get();
}

/* Runs first: the first kernel request (the first operator's) from 8 threads, then every
   other operator's; the warning (or its absence) is read from the process's log file,
   where the runtime logs as CANN does. Every operator gets the same ISA. */
static void kt_first_call_from_many_threads_agrees_with_the_cpu(void) {
    const long log_start = mg_log_size();
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    void *results[THREADS];
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_create(&threads[i], NULL, kt_first_get, NULL) == 0);
    for (int i = 0; i < THREADS; i++) MG_CHECK(pthread_join(threads[i], &results[i]) == 0);
    for (size_t o = 1; o < KT_OP_COUNT; o++) (void)kt_ops[o].op->get();
    char *log = mg_log_text_since(log_start);
    MG_CHECK(log != NULL);
    if (log == NULL) return;
    for (int i = 1; i < THREADS; i++) MG_CHECK(results[i] == results[0]);
    MG_CHECK(kt_ops[0].op->get() == results[0]);
    const char *w = kt_wanted_isa(), *expect = kt_expected_isa();
    for (size_t o = 0; o < KT_OP_COUNT; o++) {
        const kt_op *op = kt_ops[o].op;
        const void *table = op->get();
        printf("  MISHGRAD_ISA=%s -> %s %s (the CPU's best: %s; runtime says %s)\n", w, op->name, op->isa_of(table),
               kt_cpu_best_isa(), mgrt_cpu_isa());
        MG_CHECK(strcmp(op->isa_of(table), expect) == 0);
        /* "avx512" is the AVX512_BF16 build of the path exactly where the CPU has it */
        if (op->avx512bf16 != NULL && strcmp(expect, "avx512") == 0)
            MG_CHECK((table == op->avx512bf16) == kt_cpu_has_isa("avx512bf16"));
    }
    MG_CHECK(strcmp(mgrt_cpu_isa(), expect) == 0);
    const int should_warn = strcmp(w, "auto") != 0 && !kt_cpu_has_isa(w);
    if (should_warn) {
        MG_CHECK_STR_CONTAINS(log, "WARNING");
        MG_CHECK_STR_CONTAINS(log, "MISHGRAD_ISA=");
        MG_CHECK_STR_CONTAINS(log, w);
        char using_best[64];
        snprintf(using_best, sizeof using_best, "using %s", expect);
        MG_CHECK_STR_CONTAINS(log, using_best);
    } else {
        MG_CHECK(strstr(log, "MISHGRAD_ISA") == NULL);
    }
    free(log);
}

static void kt_cpu_features_match_the_cpu(void) {
    const unsigned f = mgrt_cpu_features();
    MG_CHECK(((f & MGRT_CPU_AVX2) != 0) == kt_cpu_has_isa("avx2"));
    MG_CHECK(((f & MGRT_CPU_AVX512) != 0) == kt_cpu_has_isa("avx512"));
    MG_CHECK(((f & MGRT_CPU_AVX512_BF16) != 0) == kt_cpu_has_isa("avx512bf16"));
    MG_CHECK(((f & MGRT_CPU_NEON) != 0) == kt_cpu_has_isa("neon"));
    for (size_t i = 0; i < KT_ISA_COUNT; i++)
        MG_CHECK_EQ_INT(mgrt_cpu_supports_isa(kt_isa_names[i]), kt_cpu_has_isa(kt_isa_names[i]));
    MG_CHECK(strcmp(mgrt_cpu_best_isa(), kt_cpu_best_isa()) == 0);
    MG_CHECK_EQ_INT(mgrt_cpu_supports_isa("bogus"), 0);
    MG_CHECK_EQ_INT(mgrt_cpu_supports_isa(NULL), 0);
}

static void kt_tables_by_name(void) {
    for (size_t o = 0; o < KT_OP_COUNT; o++) {
        const kt_op *op = kt_ops[o].op;
        MG_CHECK(op->for_isa(NULL) == NULL);
        MG_CHECK(op->for_isa("bogus") == NULL);
        MG_CHECK(op->for_isa("") == NULL);
        for (size_t i = 0; i < KT_ISA_COUNT; i++) {
            const char *name = kt_isa_names[i];
            const void *t = op->for_isa(name);
            /* a table exactly where the CPU has the ISA, every tile set */
            MG_CHECK((t != NULL) == kt_cpu_has_isa(name));
            if (t != NULL) {
                MG_CHECK(strcmp(op->isa_of(t), name) == 0);
                MG_CHECK(op->complete(t));
            }
        }
        MG_CHECK(strcmp(op->isa_of(op->for_isa("auto")), kt_cpu_best_isa()) == 0);
    }
}

/* ---- the run ------------------------------------------------------------------------ */

static void kt_register(const kt_case *cases, size_t count) {
    for (size_t i = 0; i < count; i++) mg_test_register(cases[i].name, cases[i].fn);
}

static int kt_usage(void) {
    fprintf(stderr, "usage: kernel_tester accuracy|bitexact|loops|table16 OP [FILTER]\n"
                    "       kernel_tester dispatch [FILTER]\nOP: one of");
    for (size_t o = 0; o < KT_OP_COUNT; o++) fprintf(stderr, " %s", kt_ops[o].op->name);
    fprintf(stderr, "\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return kt_usage();
    const char *suite = argv[1];
    if (strcmp(suite, "dispatch") == 0) {
        static const kt_case dispatch[] = {
            {"first_call_from_many_threads_agrees_with_the_cpu", kt_first_call_from_many_threads_agrees_with_the_cpu},
            {"cpu_features_match_the_cpu", kt_cpu_features_match_the_cpu},
            {"tables_by_name", kt_tables_by_name},
        };
        kt_register(dispatch, sizeof dispatch / sizeof dispatch[0]);
        return mg_test_run_filtered(argc > 2 ? argv[2] : NULL);
    }
    if (argc < 3) return kt_usage();
    const char *traits = NULL;
    for (size_t o = 0; o < KT_OP_COUNT; o++)
        if (strcmp(kt_ops[o].op->name, argv[2]) == 0) {
            kt_op_now = kt_ops[o].op;
            traits = kt_ops[o].traits;
        }
    if (kt_op_now == NULL) return kt_usage();
    /* the descriptor and the list agree: lookup16 exactly where there are evaluated tiles */
    if ((strstr(traits, "lookup16") != NULL) != (kt_op_now->evaluated != NULL)) {
        fprintf(stderr, "%s: kernel_ops.inc says \"%s\", its descriptor %s evaluated tiles\n", kt_op_now->name, traits,
                kt_op_now->evaluated != NULL ? "has" : "has no");
        return 1;
    }
    if (strcmp(suite, "accuracy") == 0) {
        kt_skip_unless_cpu_has_requested_isa();
        kt_register(kt_op_now->accuracy, kt_op_now->accuracy_count);
        mg_test_register("table_is_the_requested_isa", kt_table_is_the_requested_isa);
    } else if (strcmp(suite, "bitexact") == 0) {
        kt_skip_unless_cpu_has_requested_isa();
        static const kt_case shared[] = {
            {"f16_every_pattern_matches_scalar", kt_f16_every_pattern_matches_scalar},
            {"bf16_every_pattern_matches_scalar", kt_bf16_every_pattern_matches_scalar},
            {"f32_strided_bit_space_matches_scalar", kt_f32_strided_bit_space_matches_scalar},
            {"f32_dense_windows_match_scalar", kt_f32_dense_windows_match_scalar},
        };
        kt_register(shared, sizeof shared / sizeof shared[0]);
        kt_register(kt_op_now->bitexact, kt_op_now->bitexact_count);
        mg_test_register("something_was_compared", kt_something_was_compared);
    } else if (strcmp(suite, "loops") == 0) {
        static const kt_case shared[] = {
            {"sizes_out_apart", kt_sizes_out_apart},
            {"sizes_out_is_input_0", kt_sizes_out_is_input_0},
            {"canaries_around_output_untouched", kt_canaries_around_output_untouched},
            {"streaming_small_sizes", kt_streaming_small_sizes},
            {"streaming_every_offset", kt_streaming_every_offset},
            {"large_odd_size", kt_large_odd_size},
        };
        kt_register(shared, sizeof shared / sizeof shared[0]);
        if (kt_op_now->inputs > 1) mg_test_register("sizes_out_is_input_1", kt_sizes_out_is_input_1);
        kt_register(kt_op_now->loops, kt_op_now->loops_count);
    } else if (strcmp(suite, "table16") == 0) {
        if (kt_op_now->evaluated == NULL) {
            fprintf(stderr, "%s: its 16-bit tiles are not lookups (kernel_ops.inc)\n", kt_op_now->name);
            return 1;
        }
        if (kt16_race_first_calls() != 0) {
            fprintf(stderr, "could not start the racing threads\n");
            return 1;
        }
        static const kt_case table16[] = {
            {"first_calls_from_many_threads_see_a_full_table", kt16_first_calls_from_many_threads_see_a_full_table},
            {"every_pattern_in_place_and_at_every_offset", kt16_every_pattern_in_place_and_at_every_offset},
        };
        kt_register(table16, sizeof table16 / sizeof table16[0]);
    } else {
        return kt_usage();
    }
    const int status = mg_test_run_filtered(argc > 3 ? argv[3] : NULL);
    free(kt16_racers);
    return status;
}
