/*
 * acl/acl_base.h: as in CANN, a collector: the shared types, codes and base calls
 * (acl_base_rt.h), the tensor description (acl_base_mdl.h) and the two error-code headers.
 */
#ifndef ACL_ACL_BASE_H_
#define ACL_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/error_codes/ge_error_codes.h"

#endif /* ACL_ACL_BASE_H_ */
