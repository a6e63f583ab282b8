/* aclnn_kernels/broadcast_to.h: the same as level0/broadcast_to.h. */
#include "level0/broadcast_to.h"
