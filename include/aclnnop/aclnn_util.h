/*
 * aclnnop/aclnn_util.h: ACLNN_API, the visibility macro operator headers written the way
 * CANN's ops-nn writes them put on their aclnnXxx declarations.
 */
#ifndef ACLNNOP_ACLNN_UTIL_H_
#define ACLNNOP_ACLNN_UTIL_H_

/* A declaration, so that the header alone is a valid C translation unit (ISO C forbids an
   empty one; -pedantic -Werror makes that an error). */
#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define ACLNN_API __attribute__((visibility("default")))
#else
#define ACLNN_API
#endif

#endif /* ACLNNOP_ACLNN_UTIL_H_ */
