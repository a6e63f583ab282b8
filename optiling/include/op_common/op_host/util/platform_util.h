/* op_common/op_host/util/platform_util.h: the same as util/platform_util.h. */
#include "util/platform_util.h"
