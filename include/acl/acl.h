/*
 * acl/acl.h: what a CANN application includes. As in CANN it collects the other headers:
 * the runtime (acl_rt.h), the single-operator API (acl_op.h: declared, running refused with
 * ACL_ERROR_API_NOT_SUPPORT) and the model header (acl_mdl.h: the model types only).
 */
#ifndef ACL_ACL_H_
#define ACL_ACL_H_

#include "acl/acl_rt.h"
#include "acl/acl_op.h"
#include "acl/acl_mdl.h"

#endif /* ACL_ACL_H_ */
