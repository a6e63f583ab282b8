/*
 * Issue 3: results are bit-identical across thread counts and across every ISA path, for
 * all three dtypes, through the public API (tiling, thread pool, Contiguous / ViewCopy).
 *
 * The library reads MISHGRAD_NUM_THREADS and MISHGRAD_ISA once per process, so the test
 * runs itself as a child once per (ISA, threads) setting; each child runs every operator
 * (aclnnMishBackward, aclnnMish, aclnnInplaceMish) through the one test runner
 * (tests/ut/ut_ops.h) over the same inputs (dense and strided, large enough to be split over
 * every thread) and prints one FNV-1a hash per case. Every child must print the same hashes
 * as the first (scalar, 1 thread).
 */
#include <inttypes.h>

#include "ut_util.h"

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

/* Special values, as float32 bit patterns: zeros, subnormals, the kernels' boundaries,
   infinities, the largest floats, and NaNs with payloads, signalling and negative ones (a
   kernel that passes a NaN's payload through on one ISA and not on another must show
   here). Their upper halves are the bfloat16 patterns; float16 takes its own below. */
static const uint32_t special_bits[] = {
    0x00000000u, 0x80000000u, 0x000116C2u /* 1e-40 */, 0x800116C2u, 0x41A40000u /* 20.5 */,
    0xC2B40000u /* -90 */, 0xC2DC0000u /* -110 */, 0xBF98A18Cu /* -1.19243 */, 0x7149F2CAu /* 1e30 */,
    0x7F800000u, 0xFF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
    0x7FC00000u, 0x7F810000u /* signalling */, 0xFFC10000u /* negative, payload */, 0x7FE5A000u};
#define SPECIAL_COUNT (sizeof special_bits / sizeof special_bits[0])
/* Float16 NaNs with the same kinds of payload, for the NaN entries above */
static const uint16_t f16_nans[] = {0x7E00u, 0x7C01u, 0xFE01u, 0x7F5Au};

/* Deterministic inputs over the interesting range, special values included: the float32
   value, and *special (the index into special_bits, or -1). */
static float input_value(uint64_t i, int which, int *special) {
    uint64_t z = (i + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)which * UINT64_C(0xD1B54A32D192ED03);
    z = (z ^ (z >> 29)) * UINT64_C(0xBF58476D1CE4E5B9);
    z ^= z >> 32;
    *special = -1;
    if (z % 97 == 0) {
        *special = (int)((z >> 8) % SPECIAL_COUNT);
        float v;
        memcpy(&v, &special_bits[*special], 4);
        return v;
    }
    return ((float)(z >> 40) / (float)(1u << 24)) * 60.0f - 40.0f;
}

/* One case: `op` over the given view, inputs from input_value; the hash of the output's
   whole storage (bytes outside a strided view included). */
static uint64_t run_case(const ut_op *op, aclDataType dtype, int strided) {
    int64_t dims1[1] = {ELEMENTS}, dims2[2] = {ROWS, COLS}, strides2[2] = {COLS + 3, 1};
    ut_tensor t[3];
    for (int i = 0; i < ut_op_tensor_count(op); i++) {
        if (strided) ut_tensor_make(&t[i], dtype, 2, dims2, strides2, 0, (int64_t)ROWS * (COLS + 3), ACL_FORMAT_ND);
        else ut_tensor_dense(&t[i], dtype, 1, dims1);
    }
    for (int i = 0; i < op->input_count; i++) {
        size_t count = t[i].bytes / ut_elem_size(dtype);
        for (size_t e = 0; e < count; e++) {
            int special;
            float v = input_value(e, i + 1, &special);
            if (dtype == ACL_FLOAT) {
                memcpy(t[i].host + 4 * e, &v, 4);
            } else {
                uint16_t bits = dtype == ACL_FLOAT16 ? aclFloatToFloat16(v) : 0;
                if (dtype == ACL_FLOAT16 && isnan(v)) bits = f16_nans[(e + (uint64_t)special) % 4];
                if (dtype == ACL_BF16) { /* any bfloat16 pattern will do */
                    uint32_t wide;
                    memcpy(&wide, &v, 4);
                    bits = (uint16_t)(wide >> 16);
                }
                memcpy(t[i].host + 2 * e, &bits, 2);
            }
        }
        ut_upload(&t[i]);
    }
    aclnnStatus status = ut_op_run(op, t, NULL, NULL);
    if (status != ACLNN_SUCCESS) {
        fprintf(stderr, "%s failed: %d %s\n", op->phase2_name, (int)status, aclGetRecentErrMsg());
        exit(2);
    }
    ut_tensor *out = ut_op_output(op, t);
    ut_download(out);
    uint64_t hash = fnv1a(out->host, out->bytes, UINT64_C(1469598103934665603));
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_free(&t[i]);
    return hash;
}

#define CASES (UT_OP_COUNT * 3 * 2)
#define MAX_CASES (UT_MAX_OPS * 3 * 2)

static int child(void) {
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
    const aclDataType dtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (int k = 0; k < UT_OP_COUNT; k++)
        for (int d = 0; d < 3; d++)
            for (int strided = 0; strided <= 1; strided++)
                printf("%016" PRIx64 "\n", run_case(UT_OPS[k], dtypes[d], strided));
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
    static const char *const isas[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) #name,
#include "mgrt_isa_list.inc" /* every ISA the runtime knows */
#undef MGRT_ISA
        "auto"};
    static char reference[MAX_CASES * 17 + 64], each[MAX_CASES * 17 + 64];
    MG_CHECK_EQ_INT(run_child("scalar", 1, reference, sizeof reference), 0);
    MG_CHECK(strlen(reference) == (size_t)CASES * 17); /* 16 hex digits and a newline per case */
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
