/* op_host/tiling_templates_registry.h: ops-nn's own header, modelled only as far as
   seed-style tilings include it: the gert/log faces and the Ops::NN::OpTiling namespace. */
#ifndef MG_OP_HOST_TILING_TEMPLATES_REGISTRY_H_
#define MG_OP_HOST_TILING_TEMPLATES_REGISTRY_H_

#include "exe_graph/runtime/tiling_context.h"
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "securec.h"
#include "graph/utils/type_utils.h"

namespace Ops {
namespace NN {
namespace OpTiling {
}
} // namespace NN
} // namespace Ops

#endif
