/* op_kernel/mish_scalar.c: the Mish forward kernel's portable path (any CPU).

   First version: each element in double, x * n / (n + 2) with n = e^x (e^x + 2), then
   rounded once to float32 (and from there to the 16-bit format). Correct to within about
   half an ulp; the vectorised one-source body replaces it. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "simd/mg_simd_scalar.h"
#include "mish_isa.h"

static float mish_one(float x) {
    if (isnan(x) || x == -INFINITY) return NAN; /* PyTorch: -inf * tanh(softplus(-inf)) = -inf * 0 */
    if (x > 20.0f) return x;                    /* 1 - tanh(softplus(x)) < 2^-57 */
    const double e = exp((double)x);
    const double n = e * (e + 2.0);
    return (float)((double)x * (n / (n + 2.0)));
}

static void mish_f32_scalar(const void *x_v, void *out_v, size_t n) {
    const float *x = (const float *)x_v;
    float *out = (float *)out_v;
    for (size_t i = 0; i < n; i++) out[i] = mish_one(x[i]);
}
static void mish_f16_scalar(const void *x_v, void *out_v, size_t n) {
    const uint16_t *x = (const uint16_t *)x_v;
    uint16_t *out = (uint16_t *)out_v;
    for (size_t i = 0; i < n; i++) out[i] = mg_f32_to_f16_(mish_one(mg_f16_to_f32_(x[i])));
}
static void mish_bf16_scalar(const void *x_v, void *out_v, size_t n) {
    const uint16_t *x = (const uint16_t *)x_v;
    uint16_t *out = (uint16_t *)out_v;
    for (size_t i = 0; i < n; i++) out[i] = mg_f32_to_bf16_(mish_one(mg_bf16_to_f32_(x[i])));
}

#define MISH_SCALAR_TABLE(isa_label)                                                   \
    {                                                                                  \
        .isa = isa_label, .f32 = mish_f32_scalar, .f16 = mish_f16_scalar,              \
        .bf16 = mish_bf16_scalar, .f32_stream = mish_f32_scalar,                        \
        .f16_stream = mish_f16_scalar, .bf16_stream = mish_bf16_scalar,                 \
    }
const mish_kernels mish_kernels_scalar = MISH_SCALAR_TABLE("scalar");
/* Until the vector paths land, every ISA's table runs the portable code. */
const mish_kernels mish_kernels_interim_avx2 = MISH_SCALAR_TABLE("avx2");
const mish_kernels mish_kernels_interim_avx512 = MISH_SCALAR_TABLE("avx512");
const mish_kernels mish_kernels_interim_neon = MISH_SCALAR_TABLE("neon");
