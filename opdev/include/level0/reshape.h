/* level0/reshape.h: the same as aclnn_kernels/reshape.h. */
#include "aclnn_kernels/reshape.h"
