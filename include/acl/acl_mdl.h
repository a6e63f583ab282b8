/*
 * acl/acl_mdl.h: where CANN declares its offline-model API (aclmdl*: loading and running .om
 * models built by ATC). MishGradV2 runs no models, so, like the placeholder acl_base_mdl.h
 * that CANN's runtime package ships until the model package is installed, this header only
 * brings what CANN's includes (acl_base.h, acl_rt.h) and declares the model handle types; it
 * declares no aclmdl* function, so a program that calls one fails at compile time here
 * rather than at run time on a device without the model package (docs/runtime.md,
 * "Single-operator and model APIs").
 */
#ifndef ACL_ACL_MDL_H_
#define ACL_ACL_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlAIPP aclmdlAIPP;
typedef struct aclAippExtendInfo aclAippExtendInfo;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;
typedef struct aclmdlBundleQueryInfo aclmdlBundleQueryInfo;

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_MDL_H_ */
