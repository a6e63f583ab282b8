/*
 * Issue 3: results are bit-identical across thread counts and across every ISA path, for
 * all three dtypes, through the public API (tiling, thread pool, Contiguous / ViewCopy).
 *
 * The library reads MISHGRAD_NUM_THREADS and MISHGRAD_ISA once per process, so the test
 * runs itself as a child once per (ISA, threads) setting; each child computes MishGradV2
 * over the same inputs (dense and strided, large enough to be split over every thread)
 * and prints one FNV-1a hash per case. Every child must print the same hashes as the first
 * (scalar, 1 thread).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_test.h"

/* 3 blocks of at least 32768 elements per thread for 3 threads, plus an odd tail; large
   enough that the float32 output streams (>= 1 MiB per thread, see the host tiling) with
   1 and 2 threads but not 3, and the 16-bit output with 1 thread only, so the streaming
   and the cached tiles are compared with each other too. */
#define ELEMENTS 600011
#define ROWS 547   /* the strided case: a [ROWS, COLS] view of a [ROWS, COLS + 3] storage */
#define COLS 548

static uint64_t fnv1a(const void *data, size_t bytes, uint64_t hash) {
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) hash = (hash ^ p[i]) * UINT64_C(1099511628211);
    return hash;
}

/* Deterministic inputs over the interesting range, special values included. */
static float input_value(uint64_t i, int which) {
    uint64_t z = (i + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)which * UINT64_C(0xD1B54A32D192ED03);
    z = (z ^ (z >> 29)) * UINT64_C(0xBF58476D1CE4E5B9);
    z ^= z >> 32;
    static const float specials[] = {0.0f, -0.0f, 1e-40f, -1e-40f, 20.5f, -90.0f, -110.0f, -1.19243f, 1e30f};
    if (z % 97 == 0) return specials[(z >> 8) % (sizeof specials / sizeof specials[0])];
    return ((float)(z >> 40) / (float)(1u << 24)) * 60.0f - 40.0f;
}

static void fill(void *buffer, aclDataType dtype, size_t count, int which) {
    for (size_t i = 0; i < count; i++) {
        float v = input_value(i, which);
        if (dtype == ACL_FLOAT) {
            ((float *)buffer)[i] = v;
        } else if (dtype == ACL_FLOAT16) {
            ((uint16_t *)buffer)[i] = aclFloatToFloat16(v);
        } else {
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            ((uint16_t *)buffer)[i] = (uint16_t)(bits >> 16); /* any bf16 pattern will do */
        }
    }
}

/* One case: out = MishGradV2(g, x) with the given view; returns the hash of out's storage. */
static uint64_t run_case(aclDataType dtype, int strided) {
    size_t es = dtype == ACL_FLOAT ? 4 : 2;
    int64_t dims1[1] = {ELEMENTS}, dims2[2] = {ROWS, COLS};
    int64_t storage2[2] = {ROWS, COLS + 3}, strides2[2] = {COLS + 3, 1};
    size_t count = strided ? (size_t)ROWS * (COLS + 3) : ELEMENTS;
    void *g = NULL, *x = NULL, *y = NULL, *workspace = NULL;
    if (aclrtMalloc(&g, count * es, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&x, count * es, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&y, count * es, ACL_MEM_MALLOC_HUGE_FIRST)) {
        fprintf(stderr, "aclrtMalloc failed\n");
        exit(2);
    }
    fill(g, dtype, count, 1);
    fill(x, dtype, count, 2);
    memset(y, 0x5A, count * es);
    aclTensor *t[3];
    void *data[3] = {g, x, y};
    for (int i = 0; i < 3; i++)
        t[i] = strided ? aclCreateTensor(dims2, 2, dtype, strides2, 0, ACL_FORMAT_ND, storage2, 2, data[i])
                       : aclCreateTensor(dims1, 1, dtype, NULL, 0, ACL_FORMAT_ND, dims1, 1, data[i]);
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus status = aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &workspace_size, &executor);
    if (status == ACLNN_SUCCESS && workspace_size > 0)
        status = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (status == ACLNN_SUCCESS) status = aclnnMishBackward(workspace, workspace_size, executor, NULL);
    if (status == ACLNN_SUCCESS) status = aclrtSynchronizeStream(NULL);
    if (status != ACLNN_SUCCESS) {
        fprintf(stderr, "MishGradV2 failed: %d %s\n", (int)status, aclGetRecentErrMsg());
        exit(2);
    }
    uint64_t hash = fnv1a(y, count * es, UINT64_C(1469598103934665603));
    for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    aclrtFree(g);
    aclrtFree(x);
    aclrtFree(y);
    if (workspace != NULL) aclrtFree(workspace);
    return hash;
}

static int child(void) {
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
    const aclDataType dtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int d = 0; d < 3; d++)
        for (int strided = 0; strided <= 1; strided++) printf("%016" PRIx64 "\n", run_case(dtypes[d], strided));
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

static const char *self_path;

/* Runs a child with the given settings; its hashes go into `out` (one line per case). */
static int run_child(const char *isa, int threads, char *out, size_t capacity) {
    char command[4096];
    /* Cross builds run their tests under an emulator (qemu), which the child needs too. */
    const char *emulator = getenv("MISHGRAD_TEST_EMULATOR");
    snprintf(command, sizeof command, "MISHGRAD_ISA=%s MISHGRAD_NUM_THREADS=%d %s '%s' --child", isa, threads,
             emulator ? emulator : "", self_path);
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) return -1;
    size_t used = fread(out, 1, capacity - 1, pipe);
    out[used] = '\0';
    return pclose(pipe);
}

MG_TEST(every_isa_and_thread_count_gives_the_same_bits) {
    static const char *const isas[] = {"scalar", "avx2", "avx512", "neon", "auto"};
    char reference[1024], each[1024];
    MG_CHECK_EQ_INT(run_child("scalar", 1, reference, sizeof reference), 0);
    MG_CHECK(strlen(reference) == 6 * 17); /* 6 cases, 16 hex digits and a newline each */
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        for (int threads = 1; threads <= 3; threads++) {
            /* An ISA this CPU lacks falls back to the best it has: still a valid run. */
            MG_CHECK_EQ_INT(run_child(isas[i], threads, each, sizeof each), 0);
            if (strcmp(each, reference) != 0)
                MG_FAIL("MISHGRAD_ISA=%s MISHGRAD_NUM_THREADS=%d differs from scalar, 1 thread:\n%s\nvs\n%s", isas[i],
                        threads, each, reference);
        }
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    self_path = argv[0];
    return mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
}
