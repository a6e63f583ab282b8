/*
 * tests/common/mg_test.h: the one assertion header the tests share.
 *
 *   MG_TEST(name) { ... MG_CHECK(cond); MG_CHECK_EQ_INT(a, b); ... }
 *   int main(void) { return mg_test_run_all(); }   (or MG_TEST_MAIN())
 *
 * Each test is a function registered at start-up; a failed check prints the file, line,
 * the expression and values, marks the test failed and goes on. A test that makes no check
 * at all fails ("made no checks"): a test that cannot fail proves nothing. A test that
 * cannot run here (a missing ISA, tool or file) calls MG_SKIP("why"), which leaves it.
 *
 * The run ends with "N passed, M failed, K skipped" and exits 1 if any failed (or none
 * ran), else MG_SKIP_RETURN_CODE (77) if any was skipped, so CTest (SKIP_RETURN_CODE 77,
 * set for every test in tests/CMakeLists.txt) reports a skip instead of a silent pass,
 * else 0.
 */
#ifndef MG_TEST_H_
#define MG_TEST_H_

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*mg_test_fn)(void);
typedef struct {
    const char *name;
    mg_test_fn fn;
} mg_test_case;

#define MG_MAX_TESTS 512
static mg_test_case mg_tests[MG_MAX_TESTS];
static int mg_test_count;
static int mg_current_failed;
static int mg_current_skipped;
static long mg_checks_done;

#define MG_SKIP_RETURN_CODE 77

static inline void mg_test_register(const char *name, mg_test_fn fn) {
    if (mg_test_count < MG_MAX_TESTS) {
        mg_tests[mg_test_count].name = name;
        mg_tests[mg_test_count].fn = fn;
        mg_test_count++;
    }
}

#define MG_TEST(name)                                                         \
    static void mg_test_##name(void);                                         \
    __attribute__((constructor)) static void mg_test_register_##name(void) { \
        mg_test_register(#name, mg_test_##name);                              \
    }                                                                         \
    static void mg_test_##name(void)

#define MG_FAIL(...)                                             \
    do {                                                         \
        fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);        \
        fprintf(stderr, __VA_ARGS__);                            \
        fprintf(stderr, "\n");                                   \
        mg_current_failed = 1;                                   \
    } while (0)

/* Leaves the current test as skipped (say why); only in the test's own function. */
#define MG_SKIP(...)                                             \
    do {                                                         \
        printf("  skipped: ");                                   \
        printf(__VA_ARGS__);                                     \
        printf("\n");                                            \
        mg_current_skipped = 1;                                  \
        return;                                                  \
    } while (0)

#define MG_CHECK(cond)                                           \
    do {                                                         \
        mg_checks_done++;                                        \
        if (!(cond)) MG_FAIL("check failed: %s", #cond);         \
    } while (0)

#define MG_CHECK_EQ_INT(actual, expected)                                              \
    do {                                                                               \
        long long mg_a_ = (long long)(actual), mg_e_ = (long long)(expected);          \
        mg_checks_done++;                                                              \
        if (mg_a_ != mg_e_)                                                            \
            MG_FAIL("%s == %lld, expected %s == %lld", #actual, mg_a_, #expected, mg_e_); \
    } while (0)

#define MG_CHECK_STR_CONTAINS(haystack, needle)                                          \
    do {                                                                                 \
        const char *mg_h_ = (haystack);                                                  \
        mg_checks_done++;                                                                \
        if (mg_h_ == NULL || strstr(mg_h_, (needle)) == NULL)                            \
            MG_FAIL("\"%s\" does not contain \"%s\"", mg_h_ ? mg_h_ : "(null)", (needle)); \
    } while (0)

#define MG_CHECK_NEAR(actual, expected, tol)                                            \
    do {                                                                                \
        double mg_a_ = (double)(actual), mg_e_ = (double)(expected);                    \
        mg_checks_done++;                                                               \
        if (!(fabs(mg_a_ - mg_e_) <= (tol)))                                            \
            MG_FAIL("%s == %.9g, expected %.9g (tolerance %g)", #actual, mg_a_, mg_e_, (double)(tol)); \
    } while (0)

/* Whether `text` contains `word`, ignoring case (NULL text: no). For checks on what a
   message says ("memory", "alloc") without fixing its whole wording. */
static inline int mg_mentions(const char *text, const char *word) {
    if (text == NULL) return 0;
    size_t n = strlen(word);
    for (; *text; text++) {
        size_t i = 0;
        while (i < n && text[i] && tolower((unsigned char)text[i]) == tolower((unsigned char)word[i])) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* Runs the tests whose name contains argv[1] (all without an argument). */
static inline int mg_test_run_filtered(const char *filter) {
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < mg_test_count; i++) {
        if (filter && !strstr(mg_tests[i].name, filter)) continue;
        mg_current_failed = 0;
        mg_current_skipped = 0;
        long checks_before = mg_checks_done;
        mg_tests[i].fn();
        if (!mg_current_failed && !mg_current_skipped && mg_checks_done == checks_before) {
            fprintf(stderr, "  %s made no checks\n", mg_tests[i].name);
            mg_current_failed = 1;
        }
        if (mg_current_failed) {
            failed++;
            fprintf(stderr, "[FAIL] %s\n", mg_tests[i].name);
        } else if (mg_current_skipped) {
            skipped++;
            printf("[SKIP] %s\n", mg_tests[i].name);
        } else {
            passed++;
            printf("[ OK ] %s\n", mg_tests[i].name);
        }
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    if (passed + failed + skipped == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    if (failed) return 1;
    return skipped ? MG_SKIP_RETURN_CODE : 0;
}

#define MG_TEST_MAIN() \
    int main(int argc, char **argv) { return mg_test_run_filtered(argc > 1 ? argv[1] : NULL); }

#endif /* MG_TEST_H_ */
