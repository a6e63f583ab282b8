// SoftsignAsc's infershape: y has x's shape.
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShapeSoftsignAsc(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    gert::Shape *y = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, y);
    *y = *x;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(SoftsignAsc).InferShape(InferShapeSoftsignAsc);
} // namespace ops
