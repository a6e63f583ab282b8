/* opdev/fast_vector.h: op::FVector (common_types.h). */
#include "opdev/common_types.h"
