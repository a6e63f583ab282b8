/*
 * runtime/cpu_features.c: what this CPU can run, asked once per process by the kernels'
 * dispatch (op_kernel/kernel_dispatch.c) and by nothing else.
 *
 * x86: CPUID plus XGETBV, so that an OS that does not save the wide registers is not
 * trusted with them. AArch64: Advanced SIMD is part of every AArch64 CPU.
 *
 * MISHGRAD_ISA=<an ISA of mgrt_isa_list.inc>|auto is read here and only here, once (the first
 * call). An ISA the CPU lacks, or a name that is none of these, falls back to the best ISA
 * the CPU has, with a warning that is printed at the default log level too.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h" /* rt_log_notice: a warning printed at the default level */

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static unsigned detect(void) {
    unsigned eax, ebx, ecx, edx, features = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int osxsave = (ecx >> 27) & 1, fma = (ecx >> 12) & 1, f16c = (ecx >> 29) & 1;
    if (!osxsave || !fma || !f16c) return 0;
    const uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return 0; /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    if (!((ebx >> 5) & 1)) return 0; /* AVX2 */
    features |= MGRT_CPU_AVX2;
    /* F (16), DQ (17), BW (30), VL (31); opmask, ZMM_Hi256 and Hi16_ZMM state */
    const int avx512 = ((ebx >> 16) & 1) && ((ebx >> 17) & 1) && ((ebx >> 30) & 1) && ((ebx >> 31) & 1);
    if (!avx512 || (xcr0 & 0xE0) != 0xE0) return features;
    features |= MGRT_CPU_AVX512;
    /* leaf 7 subleaf 1: EAX bit 5 is AVX512_BF16 */
    if (__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && ((eax >> 5) & 1)) features |= MGRT_CPU_AVX512_BF16;
    return features;
}
#elif defined(__aarch64__)
static unsigned detect(void) { return MGRT_CPU_NEON; }
#else
static unsigned detect(void) { return 0; }
#endif

/* The ISAs by name, worst first (mgrt_isa_list.inc). */
typedef struct isa_entry {
    const char *name;
    unsigned needs;
} isa_entry;
static const isa_entry isa_list[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) {#name, needs},
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
};
enum { ISA_LIST_COUNT = sizeof isa_list / sizeof isa_list[0] };

static unsigned cpu_features;
static const char *chosen_isa = "scalar";
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void run_detect(void) { cpu_features = detect(); }

unsigned mgrt_cpu_features(void) {
    pthread_once(&detect_once, run_detect);
    return cpu_features;
}

static int isa_index(const char *isa) {
    if (isa == NULL) return -1;
    for (int i = 0; i < ISA_LIST_COUNT; i++)
        if (strcmp(isa, isa_list[i].name) == 0) return i;
    return -1;
}

int mgrt_cpu_supports_isa(const char *isa) {
    const int i = isa_index(isa);
    return i >= 0 && (mgrt_cpu_features() & isa_list[i].needs) == isa_list[i].needs;
}

/* The list runs worst first: the last ISA this CPU runs is its best. */
const char *mgrt_cpu_best_isa(void) {
    for (int i = ISA_LIST_COUNT - 1; i >= 0; i--)
        if (mgrt_cpu_supports_isa(isa_list[i].name))
            return isa_list[i].name;
    return "scalar";
}

static void choose(void) {
    const char *wanted = getenv("MISHGRAD_ISA");
    const char *best = mgrt_cpu_best_isa();
    chosen_isa = best;
    if (wanted == NULL || wanted[0] == '\0' || strcmp(wanted, "auto") == 0) return;
    const int i = isa_index(wanted);
    if (i < 0) {
        char names[128] = "";
        for (int k = 0; k < ISA_LIST_COUNT; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s|", isa_list[k].name);
        rt_log_notice("MISHGRAD", "MISHGRAD_ISA=%s is not one of %sauto; using %s", wanted, names, best);
    } else if (!mgrt_cpu_supports_isa(wanted)) {
        rt_log_notice("MISHGRAD", "MISHGRAD_ISA=%s: this CPU lacks it; using %s", wanted, best);
    } else {
        chosen_isa = isa_list[i].name;
    }
}

const char *mgrt_cpu_isa(void) {
    pthread_once(&choose_once, choose);
    return chosen_isa;
}
