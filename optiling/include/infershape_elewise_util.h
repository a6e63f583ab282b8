/* infershape_elewise_util.h: the same as op_common/op_host/infershape_elewise_util.h. */
#include "op_common/op_host/infershape_elewise_util.h"
