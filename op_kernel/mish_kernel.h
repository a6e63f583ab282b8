/*
 * op_kernel/mish_kernel.h: the Mish forward kernel, one tile at a time.
 *
 *   out[i] = mish(x[i]) = x[i] * tanh(softplus(x[i]))
 *
 * for float32, float16 and bfloat16 (16-bit inputs widened exactly to float32, evaluated in
 * float32, rounded back to nearest-even). Every ISA path gives the same bits for the same
 * input. Special values as PyTorch's F.mish gives them: mish(+inf) = +inf, mish(-inf) = NaN
 * (PyTorch computes -inf * tanh(0)), NaN -> a quiet NaN, mish(+-0) = +-0.
 *
 * Memory: `out` may be the same pointer as `x` (in place); no other overlap is allowed.
 * Nothing outside x[0, n) is read and nothing outside out[0, n) is written (the tiles'
 * prefetch hints may name lines up to 2 KiB past x + n: a hint never faults and reads
 * nothing into the program); x and out need only the alignment of their element type.
 * The 16-bit tiles fill a table of results on their first call (pthread_once: any thread).
 */
#ifndef MISH_KERNEL_H_
#define MISH_KERNEL_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*mish_tile_fn)(const void *x, void *out, size_t n);

typedef struct mish_kernels {
    const char *isa; /* a name of the ISA list (runtime/mgrt_isa_list.inc) */
    mish_tile_fn f32;
    mish_tile_fn f16;
    mish_tile_fn bf16;
    /* The same results, with the output written by streaming (non-temporal) stores where
       the ISA has them and `out` is aligned for them (otherwise exactly the cached tile):
       for outputs too large to stay in cache. They return after a store fence. */
    mish_tile_fn f32_stream;
    mish_tile_fn f16_stream;
    mish_tile_fn bf16_stream;
    /* The 16-bit results evaluated lane by lane, as f16 / bf16 give them: those two look
       each result up in a table that these fill (for tests and bench/mish_forms) */
    mish_tile_fn f16_evaluated;
    mish_tile_fn bf16_evaluated;
} mish_kernels;

/* The kernels for this process: the ISA is chosen once (thread-safe) for every operator,
   from the CPU's features (asked of the runtime) or MISHGRAD_ISA=<an ISA of the list>|auto.
   An ISA the CPU lacks falls back to the best one it has, with a warning. */
const mish_kernels *mish_kernels_get(void);
/* The kernels of one named ISA ("auto": the best this CPU has), or NULL if it is not
   compiled in or the CPU lacks it. */
const mish_kernels *mish_kernels_for(const char *isa);

#ifdef __cplusplus
}
#endif

#endif /* MISH_KERNEL_H_ */
