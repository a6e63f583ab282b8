/*
 * tests/kernel/kernel_tester.h: what an operator's test descriptor (tests/kernel/ops/
 * kt_op_<op>.h) is written against: the descriptor type kt_op, the helpers (bit casts,
 * pseudo-random values, buffers fenced by an inaccessible page) and the shared engines
 * kernel_tester.c defines (every table against scalar bit for bit, in every placement).
 * Included by kernel_tester.c only, before the descriptors: one program, one test registry.
 *
 * A table is an operator's <op>_kernels (its first member the ISA name); the tester calls
 * its tiles through the descriptor's `run` (one or two inputs, cached or streaming).
 * dtype: 0 float32, 1 float16, 2 bfloat16.
 */
#ifndef KERNEL_TESTER_H_
#define KERNEL_TESTER_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel_names.h"
#include "kt_cpu.h"
#include "mg_test.h"

enum { KT_MAX_INPUTS = 2, KT_MAX_TABLES = 6 };

/* One test of a suite: its name as the run prints it, and its body (it reads kt_op_now) */
typedef struct kt_case {
    const char *name;
    void (*fn)(void);
} kt_case;

/* Runs one tile of `table` (cached, or streaming when `streamed`) on the inputs in[0..inputs) */
typedef void (*kt_run_fn)(const void *table, int dtype, int streamed, const void *const *in, void *out, size_t n);
/* Fills the inputs with n values of one dtype from a seed */
typedef void (*kt_fill_fn)(int dtype, void *const *in, size_t n, uint32_t seed);
/* The same, mostly on the kernel's fast path, with the lanes at[0..count) off it */
typedef void (*kt_fill_at_fn)(int dtype, void *const *in, size_t n, uint32_t seed, const size_t *at, size_t count);

typedef struct kt_op {
    const char *name;  /* as in op_kernel/kernel_ops.inc */
    int inputs;        /* 1 or 2; the tile is (in[0], [in[1],] out, n) */
    const void *(*get)(void);
    const void *(*for_isa)(const char *isa);
    const void *plain_avx512; /* the plain AVX-512 table where AVX512_BF16 also has one (else NULL) */
    const void *avx512bf16;   /* the AVX512_BF16 table (NULL where not compiled) */
    const char *(*isa_of)(const void *table);
    int (*complete)(const void *table); /* every tile set */
    kt_run_fn run;
    kt_run_fn evaluated; /* lookup16 operators: the 16-bit tiles that evaluate (else NULL) */
    /* loops: values over every region of the kernel; and mostly-fast values with lanes off it */
    kt_fill_fn fill;
    kt_fill_at_fn fill_at;
    /* bitexact: per 16-bit dtype, values each input is held at while the other sweeps every
       pattern (two-input operators); the dense float32 windows' centres and half width */
    const uint16_t *fixed16[3];
    size_t fixed16_count[3];
    size_t (*window_centres)(float *centres, size_t capacity);
    size_t window_half; /* 0: 32768 */
    /* the streaming tiles at small sizes: how many offsets from a 64-byte line (from 0),
       the at/fill seeds for size index i (the operator's own choice). Optional: sizes NULL
       takes the tester's (0 to 1000 around the loop boundaries, every offset 0..15), seeds
       NULL index + 9, large_stream_seed NULL n and n + 3 */
    size_t small_stream_offsets;
    const size_t *small_stream_sizes;
    size_t small_stream_size_count;
    void (*small_stream_seeds)(size_t n, int dtype, size_t index, uint32_t *at_seed, uint32_t *fill_seed);
    uint32_t (*large_stream_seed)(size_t n, int which); /* which 0: lanes, 1: fill */
    /* its own tests per suite */
    const kt_case *accuracy, *bitexact, *loops;
    size_t accuracy_count, bitexact_count, loops_count;
} kt_op;

/* The operator under test (set by main before any test runs) */
static const kt_op *kt_op_now;

static inline uint32_t kt_bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float kt_float(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
/* A float's place on the float line (-0 and +0 both 0, each step one float) and back:
   consecutive floats around a point, walking down through the negatives. */
static inline int64_t kt_ordinal(float f) {
    const int64_t magnitude = (int64_t)(kt_bits(f) & 0x7FFFFFFFu);
    return kt_bits(f) >> 31 ? -magnitude : magnitude;
}
static inline float kt_float_at(int64_t o) { return o < 0 ? kt_float(0x80000000u | (uint32_t)(-o)) : kt_float((uint32_t)o); }
static inline const char *kt_dtype_name(int dtype) { return dtype == 0 ? "f32" : dtype == 1 ? "f16" : "bf16"; }
static inline size_t kt_dtype_size(int dtype) { return dtype == 0 ? 4 : 2; }

/* Deterministic pseudo-random 32-bit values (xorshift32). */
static inline uint32_t kt_next(uint32_t *state) {
    uint32_t s = *state;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return *state = s;
}

/* A buffer of `bytes` whose last byte is followed by a PROT_NONE page. */
typedef struct {
    unsigned char *map;
    size_t map_bytes;
    unsigned char *data;
} kt_fenced;

static inline int kt_fenced_alloc(kt_fenced *f, size_t bytes) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t data_pages = (bytes + page - 1) / page + 1;
    f->map_bytes = (data_pages + 1) * page;
    void *m = mmap(NULL, f->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -1;
    f->map = (unsigned char *)m;
    if (mprotect(f->map + data_pages * page, page, PROT_NONE) != 0) return -1;
    f->data = f->map + data_pages * page - bytes;
    return 0;
}
static inline void kt_fenced_free(kt_fenced *f) { munmap(f->map, f->map_bytes); }

/* The operator's current table (the ISA MISHGRAD_ISA asks for, else the best) */
static inline const void *kt_table(void) { return kt_op_now->get(); }
static inline const char *kt_table_isa(void) { return kt_op_now->isa_of(kt_table()); }
/* Runs the current table's cached tile */
static inline void kt_run1(int dtype, const void *x, void *out, size_t n) {
    const void *in[1] = {x};
    kt_op_now->run(kt_table(), dtype, 0, in, out, n);
}
static inline void kt_run2(int dtype, const void *a, const void *b, void *out, size_t n) {
    const void *in[2] = {a, b};
    kt_op_now->run(kt_table(), dtype, 0, in, out, n);
}

/* The engines (kernel_tester.c) */

/* Every table this machine runs (only scalar and the asked one with MISHGRAD_ISA=<isa>) */
static size_t kt_tables(const void **tables, size_t capacity);
/* Every table's output against the scalar table's, bit for bit (one failure per table) */
static void kt_same_bits(int dtype, const void *const *in, size_t n, const char *what);
/* The same for another way of running a table (an operator's own entry, such as a path of
   its kernel) */
static void kt_same_bits_run(kt_run_fn run, int dtype, const void *const *in, size_t n, const char *what);
/* Placements: KT_OUT_APART (out a buffer of its own) or KT_OUT_IS(k) (out is input k) */
#define KT_OUT_APART 1u
#define KT_OUT_IS(k) (2u << (k))
/* Every table against scalar with each placement in `modes`, inputs and output in fenced
   buffers (touching element n faults); the inputs not written stay as they were */
static void kt_fenced_against_scalar(int dtype, const void *const *in, size_t n, unsigned modes, const char *what);
/* The streaming tiles against scalar, the output (and in place, the input) at each element
   offset 0..offsets-1 from a 64-byte boundary, with canaries on both sides */
static void kt_streaming_against_scalar(int dtype, size_t n, uint32_t at_seed, uint32_t fill_seed, size_t offsets,
                                        unsigned modes);

/* A descriptor's basics, from the operator's name and input count: its get/for/isa/run
   functions over <op>_kernels (whose members are isa, f32, f16, bf16, f32_stream,
   f16_stream, bf16_stream, as op_kernel/<op>_kernel.h declares them). */
#if defined(MG_HAVE_AVX512) && defined(MG_HAVE_AVX512BF16)
#define KT_PLAIN_AVX512_(op) ((const void *)&MG_KERNEL_TABLE_NAME(op, avx512))
#else
#define KT_PLAIN_AVX512_(op) NULL
#endif
#define KT_OP_FUNCTIONS(op)                                                                          \
    typedef MG_KERNEL_TYPE(op) kt_##op##_table;                                                     \
    static const void *kt_##op##_get(void) { return MG_KERNEL_CAT_(op, _kernels_get)(); }             \
    static const void *kt_##op##_for(const char *isa) { return MG_KERNEL_CAT_(op, _kernels_for)(isa); } \
    static const char *kt_##op##_isa(const void *t) { return ((const kt_##op##_table *)t)->isa; }     \
    static int kt_##op##_complete(const void *t) {                                                   \
        const kt_##op##_table *k = t;                                                                \
        return k->f32 && k->f16 && k->bf16 && k->f32_stream && k->f16_stream && k->bf16_stream;      \
    }
#define KT_OP_TILE_(k, dtype, streamed)                                                               \
    ((streamed) ? ((dtype) == 0 ? (k)->f32_stream : (dtype) == 1 ? (k)->f16_stream : (k)->bf16_stream) \
                : ((dtype) == 0 ? (k)->f32 : (dtype) == 1 ? (k)->f16 : (k)->bf16))
#define KT_OP_BASICS(op, input_count)                                                       \
    .name = #op, .inputs = input_count, .get = kt_##op##_get, .for_isa = kt_##op##_for,     \
    .plain_avx512 = KT_PLAIN_AVX512_(op), .avx512bf16 = (const void *)&MG_KERNEL_TABLE_NAME(op, avx512bf16), \
    .isa_of = kt_##op##_isa, .complete = kt_##op##_complete, .run = kt_##op##_run

#endif /* KERNEL_TESTER_H_ */
