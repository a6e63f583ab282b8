// MishGradAsc's infershape: x_grad has grad's shape.
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShapeMishGradAsc(gert::InferShapeContext *context)
{
    const gert::Shape *grad = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, grad);
    gert::Shape *y = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, y);
    *y = *grad;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(MishGradAsc).InferShape(InferShapeMishGradAsc);
} // namespace ops
