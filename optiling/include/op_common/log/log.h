/* op_common/log/log.h: opbase's path of the operator log header (log/log.h). */
#include "log/log.h"
