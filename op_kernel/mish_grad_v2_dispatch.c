/*
 * op_kernel/mish_grad_v2_dispatch.c: picks the kernel table once per process.
 *
 * The CPU is asked once (CPUID plus XGETBV, so an OS that does not save the wide registers
 * is not trusted with them); MISHGRAD_ISA=scalar|avx2|avx512|neon|auto overrides, and an
 * ISA the CPU lacks falls back to the best one it has, with a warning.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt.h"
#include "mish_grad_v2_isa.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

/* 0: none, 1: AVX2+FMA+F16C, 2: that plus AVX-512 F/DQ/BW/VL, 3: that plus AVX512_BF16 */
static int x86_simd_level(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int osxsave = (ecx >> 27) & 1, fma = (ecx >> 12) & 1, f16c = (ecx >> 29) & 1;
    if (!osxsave || !fma || !f16c) return 0;
    const uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return 0; /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    if (!((ebx >> 5) & 1)) return 0; /* AVX2 */
    const int avx512 = ((ebx >> 16) & 1) && ((ebx >> 17) & 1) && ((ebx >> 30) & 1) && ((ebx >> 31) & 1);
    if (!avx512 || (xcr0 & 0xE0) != 0xE0) return 1; /* opmask, ZMM_Hi256, Hi16_ZMM state */
    if (!__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx)) return 2;
    return ((eax >> 5) & 1) ? 3 : 2; /* leaf 7 subleaf 1: EAX bit 5 is AVX512_BF16 */
}
#endif

static int isa_available(const char *isa) {
    if (strcmp(isa, "scalar") == 0) return 1;
#if defined(MG_HAVE_AVX2)
    if (strcmp(isa, "avx2") == 0) return x86_simd_level() >= 1;
#endif
#if defined(MG_HAVE_AVX512)
    if (strcmp(isa, "avx512") == 0) return x86_simd_level() >= 2;
#endif
#if defined(MG_HAVE_NEON)
    if (strcmp(isa, "neon") == 0) return 1; /* Advanced SIMD is part of every AArch64 CPU */
#endif
    return 0;
}

static const mish_grad_v2_kernels *table_of(const char *isa) {
#if defined(MG_HAVE_AVX512_BF16) && (defined(__x86_64__) || defined(__i386__))
    if (strcmp(isa, "avx512") == 0 && x86_simd_level() >= 3) return &mish_grad_v2_kernels_avx512bf16;
#endif
#if defined(MG_HAVE_AVX512)
    if (strcmp(isa, "avx512") == 0) return &mish_grad_v2_kernels_avx512;
#endif
#if defined(MG_HAVE_AVX2)
    if (strcmp(isa, "avx2") == 0) return &mish_grad_v2_kernels_avx2;
#endif
#if defined(MG_HAVE_NEON)
    if (strcmp(isa, "neon") == 0) return &mish_grad_v2_kernels_neon;
#endif
    if (strcmp(isa, "scalar") == 0) return &mish_grad_v2_kernels_scalar;
    return NULL;
}

static const mish_grad_v2_kernels *best_available(void) {
    static const char *const preference[] = {"avx512", "avx2", "neon", "scalar"};
    for (size_t i = 0; i < sizeof preference / sizeof preference[0]; i++)
        if (isa_available(preference[i])) return table_of(preference[i]);
    return &mish_grad_v2_kernels_scalar;
}

const mish_grad_v2_kernels *mish_grad_v2_kernels_for(const char *isa) {
    if (isa == NULL) return NULL;
    if (strcmp(isa, "auto") == 0) return best_available();
    return isa_available(isa) ? table_of(isa) : NULL;
}

static const mish_grad_v2_kernels *chosen_kernels;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose_kernels(void) {
    const char *wanted = getenv("MISHGRAD_ISA");
    const mish_grad_v2_kernels *best = best_available();
    chosen_kernels = best;
    if (wanted == NULL || wanted[0] == '\0' || strcmp(wanted, "auto") == 0) return;
    const mish_grad_v2_kernels *table = mish_grad_v2_kernels_for(wanted);
    if (table != NULL) {
        chosen_kernels = table;
    } else if (table_of(wanted) != NULL || strcmp(wanted, "avx2") == 0 ||
               strcmp(wanted, "avx512") == 0 || strcmp(wanted, "neon") == 0) {
        mgrt_log(MGRT_LOG_WARNING, "MISHGRAD", "MISHGRAD_ISA=%s: this CPU or build lacks it, using %s",
                 wanted, best->isa);
    } else {
        mgrt_log(MGRT_LOG_WARNING, "MISHGRAD",
                 "MISHGRAD_ISA=%s is not one of scalar|avx2|avx512|neon|auto, using %s", wanted, best->isa);
    }
}

const mish_grad_v2_kernels *mish_grad_v2_kernels_get(void) {
    pthread_once(&choose_once, choose_kernels);
    return chosen_kernels;
}
