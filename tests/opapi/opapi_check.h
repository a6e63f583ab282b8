// tests/opapi/opapi_check.h: the framework tests' check: a failure is printed and counted,
// the test goes on, and main's exit status is the count's.
#ifndef OPAPI_CHECK_H_
#define OPAPI_CHECK_H_

#include <cstdio>

static int failures;
#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static inline int Finish()
{
    std::printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}

#endif
