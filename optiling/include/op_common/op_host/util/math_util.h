/* op_common/op_host/util/math_util.h: the same as util/math_util.h. */
#include "util/math_util.h"
