/*
 * op_kernel/mish_grad_v2_kernel.h: the MishGradV2 kernel, one tile at a time.
 *
 *   out[i] = grad[i] * mish'(x[i])
 *
 * computed in float32 for all three dtypes (16-bit inputs widened exactly, results rounded
 * to nearest-even; float32 held to 1 unit of its error measure (1.5 for g other than 1), the 16-bit dtypes by a
 * shorter evaluation to within 1 ulp of their format). Every ISA path runs the same
 * sequence of IEEE operations, so their results are identical bit for bit. `out` may be the same pointer as `grad` or `x`
 * (in-place); no other overlap is allowed. No element outside [0, n) is read or written.
 */
#ifndef MISH_GRAD_V2_KERNEL_H_
#define MISH_GRAD_V2_KERNEL_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*mish_grad_v2_tile_fn)(const void *grad, const void *x, void *out, size_t n);

typedef struct mish_grad_v2_kernels {
    const char *isa;              /* a name of the ISA list (runtime/mgrt_isa_list.inc) */
    mish_grad_v2_tile_fn f32;
    mish_grad_v2_tile_fn f16;
    mish_grad_v2_tile_fn bf16;
    /* The same results, with the output written by streaming (non-temporal) stores where
       the ISA has them and `out` is aligned for them: for outputs too large to stay in
       cache. They return after a store fence. */
    mish_grad_v2_tile_fn f32_stream;
    mish_grad_v2_tile_fn f16_stream;
    mish_grad_v2_tile_fn bf16_stream;
    /* The general path (grad_general) on every lane, float32: what defines every result;
       for tests and tools, not used by the operator. */
    mish_grad_v2_tile_fn f32_general;
} mish_grad_v2_kernels;

/* The kernels for this process: chosen once (thread-safe) from the CPU's features, or
   from MISHGRAD_ISA=<an ISA of runtime/mgrt_isa_list.inc>|auto. An ISA the CPU lacks falls back to the
   best one it has (with a warning in the log). */
const mish_grad_v2_kernels *mish_grad_v2_kernels_get(void);
/* The kernels of one named ISA, or NULL if it is not compiled in or the CPU lacks it. */
const mish_grad_v2_kernels *mish_grad_v2_kernels_for(const char *isa);

#ifdef __cplusplus
}
#endif

#endif /* MISH_GRAD_V2_KERNEL_H_ */
