/* aclnn/aclnn_base.h: CANN programs include either name; both give the same declarations. */
#ifndef ACLNN_ACLNN_BASE_H_
#define ACLNN_ACLNN_BASE_H_
#include "aclnn/acl_meta.h"
#endif
