/*
 * tests/reliability/test_mutation_settings.c: the settings the library reads once per
 * process (MISHGRAD_NUM_THREADS, MISHGRAD_ISA), each judged in a child process of its own
 * (this program run with --child) against written expectations:
 *
 *   MISHGRAD_NUM_THREADS  1..256 used as given, silently; unset or empty: the online CPUs
 *                         (at most 256); 0, negative or not a number: a warning
 *                         "... is not a positive number; using N"; above 256 (or out of
 *                         range for a long): "... is above the limit of 256 threads; using N";
 *   MISHGRAD_ISA          an ISA of the list (runtime/mgrt_isa_list.inc) taken when the CPU has it; auto, unset or
 *                         empty: the best the CPU has (judged here from the CPU itself with
 *                         __builtin_cpu_supports, not from the library's detection); an ISA
 *                         the CPU lacks or an unknown name: the best, with a warning naming
 *                         the setting.
 *
 * Warnings come at the default log level ([WARNING] lines; printed to stdout here); a setting used as given
 * prints nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <unistd.h>

#include "mg_test.h"
#include "mgrt.h"

static int task_count(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}
static void nothing(void *ctx, int64_t block) { (void)ctx, (void)block; }

static int child(void) {
    /* the pool: mgrt_num_threads() - 1 workers besides the caller, started at its first job */
    const int before = task_count();
    /* a caller's stale ERANGE must not make a valid count look out of range (seed 40,
       thread_pool.c:66: errno not cleared before strtol) */
    errno = ERANGE;
    mgrt_parallel_for(64, nothing, NULL);
    printf("pool_workers=%d\n", task_count() - before);
    printf("threads=%d isa=%s\n", mgrt_num_threads(), mgrt_cpu_isa());
    printf("supports scalar=%d bogus=%d null=%d\n", mgrt_cpu_supports_isa("scalar"), mgrt_cpu_supports_isa("bogus"),
           mgrt_cpu_supports_isa(NULL));
    return 0;
}

static const char *self_path;

/* Runs the child with `assignments` in its environment; stdout and stderr into out, the
   log lines among them (ASCEND_SLOG_PRINT_TO_STDOUT=1: the default is a log file). */
static int run_child(const char *assignments, char *out, size_t capacity) {
    char command[4096];
    const char *emulator = getenv("MISHGRAD_TEST_EMULATOR");
    snprintf(command, sizeof command,
             "env -u MISHGRAD_NUM_THREADS -u MISHGRAD_ISA -u ASCEND_GLOBAL_LOG_LEVEL -u ASCEND_LOG_PRINT_TO_STDOUT "
             "ASCEND_SLOG_PRINT_TO_STDOUT=1 %s %s '%s' --child 2>&1",
             assignments, emulator ? emulator : "", self_path);
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) return -1;
    size_t used = fread(out, 1, capacity - 1, pipe);
    out[used] = '\0';
    return pclose(pipe);
}

static long online_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > 256 ? 256 : n;
}

static int count_of(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) n++;
    return n;
}

MG_TEST(thread_count_setting) {
    const long online = online_threads();
    static const struct {
        const char *value; /* NULL: unset */
        long threads;      /* 0: the online count */
        int warning;       /* 0 none, 1 not positive, 2 above the limit */
    } cases[] = {
        {"1", 1, 0},   {"2", 2, 0},    {"3", 3, 0},    {"255", 255, 0}, {"256", 256, 0}, {NULL, 0, 0},
        {"", 0, 0},    {"0", 0, 1},    {"-1", 0, 1},   {"-300", 0, 1},  {"x", 0, 1},     {"2x", 0, 1},
        {"257", 0, 2}, {"1000", 0, 2}, {"99999999999999999999999", 0, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char assign[128] = "", out[4096];
        if (cases[i].value) snprintf(assign, sizeof assign, "MISHGRAD_NUM_THREADS='%s'", cases[i].value);
        MG_CHECK_EQ_INT(run_child(assign, out, sizeof out), 0);
        long want = cases[i].threads ? cases[i].threads : online;
        char line[64], warning[256] = "";
        snprintf(line, sizeof line, "threads=%ld ", want);
        if (cases[i].warning == 1)
            snprintf(warning, sizeof warning, "[RUNTIME] MISHGRAD_NUM_THREADS=\"%s\" is not a positive number; using %ld\n",
                     cases[i].value, online);
        else if (cases[i].warning == 2)
            snprintf(warning, sizeof warning,
                     "[RUNTIME] MISHGRAD_NUM_THREADS=\"%s\" is above the limit of 256 threads; using %ld\n", cases[i].value,
                     online);
        char workers[64];
        snprintf(workers, sizeof workers, "pool_workers=%ld\n", want - 1);
        int ok = count_of(out, line) == 1 && count_of(out, workers) == 1 &&
                 count_of(out, "[WARNING] ") == (cases[i].warning ? 1 : 0) &&
                 (!cases[i].warning || count_of(out, warning) == 1);
        if (!ok)
            MG_FAIL("MISHGRAD_NUM_THREADS=%s: got\n%s  expected \"%s\" and %s", cases[i].value ? cases[i].value : "(unset)",
                    out, line, cases[i].warning ? warning : "no warning");
        else
            MG_CHECK(ok);
    }
}

/* The best ISA, from the CPU itself. */
static const char *best_isa(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "avx512";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "avx2";
    return "scalar";
#elif defined(__aarch64__)
    return "neon";
#else
    return "scalar";
#endif
}

MG_TEST(isa_setting) {
    const char *best = best_isa();
    /* every ISA of the one list (runtime/mgrt_isa_list.inc); the CPU judgment below is this
       test's own, and an ISA it cannot judge fails the test */
    static const char *const known[] = {
#define MGRT_ISA(name, needs, arch, simd, flags) #name,
#include "mgrt_isa_list.inc"
#undef MGRT_ISA
    };
    const int known_count = (int)(sizeof known / sizeof known[0]);
    char choices[256] = ""; /* "scalar|avx2|...|auto", as the library's warning lists them */
    for (int k = 0; k < known_count; k++) {
        strncat(choices, known[k], sizeof choices - strlen(choices) - 1);
        strncat(choices, "|", sizeof choices - strlen(choices) - 1);
    }
    strncat(choices, "auto", sizeof choices - strlen(choices) - 1);
    for (int i = -4; i < known_count; i++) {
        char assign[128] = "", out[4096], line[96], warning[640] = "";
        const char *value = i >= 0 ? known[i] : i == -1 ? "auto" : i == -2 ? "" : i == -3 ? "AVX2" : NULL;
        if (value) snprintf(assign, sizeof assign, "MISHGRAD_ISA='%s'", value);
        int named = i >= 0;
        /* has the CPU got it? avx512 needs avx2 too; judged from the best ISA's rank */
        int has = !named ? 1
                  : strcmp(value, "scalar") == 0 ? 1
                  : strcmp(value, "neon") == 0   ? strcmp(best, "neon") == 0
                  : strcmp(value, "avx2") == 0   ? (strcmp(best, "avx2") == 0 || strcmp(best, "avx512") == 0)
                  : strcmp(value, "avx512") == 0 ? strcmp(best, "avx512") == 0
                                                 : -1;
        if (has < 0) {
            MG_FAIL("MISHGRAD_ISA=%s: an ISA of the list this test cannot judge (teach best_isa and this test)", value);
            continue;
        }
        const char *want = named && has ? value : best;
        MG_CHECK_EQ_INT(run_child(assign, out, sizeof out), 0);
        snprintf(line, sizeof line, " isa=%s\n", want);
        if (i == -3)
            snprintf(warning, sizeof warning,
                     "[MISHGRAD] MISHGRAD_ISA=AVX2 is not one of %s; using %s\n", choices, best);
        else if (named && !has)
            snprintf(warning, sizeof warning, "[MISHGRAD] MISHGRAD_ISA=%s: this CPU lacks it; using %s\n", value, best);
        int warned = warning[0] != '\0';
        int ok = count_of(out, line) == 1 && count_of(out, "[WARNING] ") == warned && (!warned || count_of(out, warning) == 1) &&
                 count_of(out, "supports scalar=1 bogus=0 null=0\n") == 1;
        if (!ok)
            MG_FAIL("MISHGRAD_ISA=%s: got\n%s  expected \"%s\" and %s", value ? value : "(unset)", out, line,
                    warned ? warning : "no warning");
        else
            MG_CHECK(ok);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    self_path = argv[0];
    return mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
}
