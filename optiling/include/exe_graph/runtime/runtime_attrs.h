/* exe_graph/runtime/runtime_attrs.h: gert::RuntimeAttrs (tiling_context.h). */
#include "exe_graph/runtime/tiling_context.h"
