/* level0/cast.h: the same as aclnn_kernels/cast.h. */
#include "aclnn_kernels/cast.h"
