/* opdev/op_log.h: op_api's log macros. They are log/log.h's (one implementation): in
   op_api code the first argument is usually an aclnn status, which becomes the thread's
   recent error with the message. */
#ifndef MG_OPDEV_OP_LOG_H_
#define MG_OPDEV_OP_LOG_H_

#include "log/log.h"

#define OP_CHECK(cond, log_func, expr) \
    do {                               \
        if (!(cond)) {                 \
            log_func;                  \
            expr;                      \
        }                              \
    } while (0)

#define CHECK_COND(cond, ret, ...)         \
    do {                                   \
        if (!(cond)) {                     \
            OP_LOGE(ret, __VA_ARGS__);     \
            return ret;                    \
        }                                  \
    } while (0)

#ifndef CHECK_RET
#define CHECK_RET(cond, ret) \
    do {                     \
        if (!(cond)) {       \
            return ret;      \
        }                    \
    } while (0)
#endif

#endif
