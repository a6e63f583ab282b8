/*
 * acl/acl.h: what a CANN application includes. Initialisation, the recent error message,
 * and the runtime (acl_rt.h).
 */
#ifndef ACL_ACL_H_
#define ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the runtime. `configPath` may be NULL; a file given must exist. A second call
   returns ACL_ERROR_REPEAT_INITIALIZE, which callers treat as harmless. An unknown
   MISHGRAD_SOC_VERSION fails here with ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Drains and releases every stream; live allocations are reported (log) and released. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/* The message of the most recent failure on the calling thread ("" if none). */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_H_ */
