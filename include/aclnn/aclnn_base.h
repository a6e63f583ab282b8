/*
 * aclnn/aclnn_base.h: what CANN's nnopbase/aclnn/aclnn_base.h declares -- aclnnInit and
 * aclnnFinalize -- on top of aclnn/acl_meta.h (tensors, scalars, arrays, executors).
 */
#ifndef ACLNN_ACLNN_BASE_H_
#define ACLNN_ACLNN_BASE_H_

#include <stdint.h>
#include <stdlib.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The aclnn framework's set-up and tear-down, a lighter alternative to aclInit /
   aclFinalize (calling both pairs is fine). configPath: an optional JSON file (CANN reads
   op_debug_config.enable_debug_kernel); NULL, empty or unreadable means the defaults.
   Both return ACLNN_SUCCESS here: the operators are linked in, nothing is loaded. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_ACLNN_BASE_H_ */
