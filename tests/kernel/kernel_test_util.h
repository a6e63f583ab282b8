/*
 * tests/kernel/kernel_test_util.h: helpers shared by the kernel tests: bit casts, the list
 * of ISA tables this CPU can run, and buffers that end right before an inaccessible page,
 * so that a kernel reading or writing one element past n faults.
 */
#ifndef KERNEL_TEST_UTIL_H_
#define KERNEL_TEST_UTIL_H_

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mish_grad_v2_kernel.h"
#define MG_KERNEL_OP mish_grad_v2
#include "kernel_tables.h"
#undef MG_KERNEL_OP
#include "mish_grad_v2_kernel.h"

static inline uint32_t kt_bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float kt_float(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

/* Every ISA name the dispatcher knows; kt_tables() keeps those this machine can run. */
static const char *const kt_isa_names[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) #name,
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
};

/* With MISHGRAD_ISA naming one ISA, only "scalar" and that one are listed. */
static inline int kt_isa_listed(const char *isa) {
    const char *wanted = getenv("MISHGRAD_ISA");
    if (wanted == NULL || wanted[0] == '\0' || strcmp(wanted, "auto") == 0) return 1;
    return strcmp(isa, "scalar") == 0 || strcmp(isa, wanted) == 0;
}

/* The plain AVX-512 table of an operator, where this build has both AVX-512 tables (else NULL) */
#if defined(MG_HAVE_AVX512) && defined(MG_HAVE_AVX512BF16)
#define KT_PLAIN_AVX512(table) (table)
#else
#define KT_PLAIN_AVX512(table) NULL
#endif

/* Defines fn_name(tables, capacity): every table of one operator this machine can run,
   TABLE_FOR(isa) for each listed ISA, and the plain AVX-512 table too where the CPU has
   AVX512_BF16 ("avx512" then names the table that narrows bfloat16 with vcvtneps2bf16; the
   plain one is what CPUs without it get). */
#define KT_DEFINE_TABLES(fn_name, table_t, TABLE_FOR, plain_avx512)                                   \
    static inline size_t fn_name(const table_t **tables, size_t capacity) {                          \
        size_t count = 0;                                                                            \
        for (size_t i = 0; i < sizeof kt_isa_names / sizeof kt_isa_names[0] && count < capacity; i++) { \
            if (!kt_isa_listed(kt_isa_names[i])) continue;                                           \
            const table_t *t = TABLE_FOR(kt_isa_names[i]);                                           \
            if (t != NULL) tables[count++] = t;                                                      \
        }                                                                                            \
        const table_t *plain = KT_PLAIN_AVX512(plain_avx512);                                        \
        const table_t *avx512 = TABLE_FOR("avx512");                                                 \
        if (plain != NULL && kt_isa_listed("avx512") && avx512 != NULL && avx512 != plain && count < capacity) \
            tables[count++] = plain;                                                                 \
        return count;                                                                                \
    }

/* The backward's tables */
KT_DEFINE_TABLES(kt_tables, mish_grad_v2_kernels, mish_grad_v2_kernels_for, &mish_grad_v2_kernels_avx512)

static inline mish_grad_v2_tile_fn kt_fn(const mish_grad_v2_kernels *t, int dtype) {
    return dtype == 0 ? t->f32 : dtype == 1 ? t->f16 : t->bf16;
}
static inline mish_grad_v2_tile_fn kt_fn_stream(const mish_grad_v2_kernels *t, int dtype) {
    return dtype == 0 ? t->f32_stream : dtype == 1 ? t->f16_stream : t->bf16_stream;
}
static inline const char *kt_dtype_name(int dtype) { return dtype == 0 ? "f32" : dtype == 1 ? "f16" : "bf16"; }
static inline size_t kt_dtype_size(int dtype) { return dtype == 0 ? 4 : 2; }

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

/* Deterministic pseudo-random 32-bit values (xorshift32). */
static inline uint32_t kt_next(uint32_t *state) {
    uint32_t s = *state;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return *state = s;
}

#endif /* KERNEL_TEST_UTIL_H_ */
