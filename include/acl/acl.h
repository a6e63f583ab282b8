/*
 * acl/acl.h: what a CANN application includes. As in CANN it collects the other headers;
 * CANN's acl.h also brings acl_op.h and acl_mdl.h (single operators compiled online, offline
 * models), which this CPU runtime does not provide.
 */
#ifndef ACL_ACL_H_
#define ACL_ACL_H_

#include "acl/acl_rt.h"

#endif /* ACL_ACL_H_ */
