/* op_common/op_host/infershape_elewise_util.h: opbase's elementwise infershape: output 0
   is the inputs' shapes broadcast together (numpy's rule). */
#ifndef MG_INFERSHAPE_ELEWISE_UTIL_H_
#define MG_INFERSHAPE_ELEWISE_UTIL_H_

#include "exe_graph/runtime/infer_shape_context.h"
#include "log/log.h"

namespace Ops {
namespace Base {
inline ge::graphStatus InferShape4Elewise(gert::InferShapeContext *context)
{
    gert::Shape *out = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, out);
    out->SetDimNum(0);
    for (size_t i = 0; context->GetInputShape(i) != nullptr; i++) {
        const gert::Shape &in = *context->GetInputShape(i);
        const size_t n = in.GetDimNum() > out->GetDimNum() ? in.GetDimNum() : out->GetDimNum();
        gert::Shape merged;
        for (size_t d = 0; d < n; d++) {
            const int64_t a = d < n - out->GetDimNum() ? 1 : out->GetDim(d - (n - out->GetDimNum()));
            const int64_t b = d < n - in.GetDimNum() ? 1 : in.GetDim(d - (n - in.GetDimNum()));
            OP_CHECK_IF(a != b && a != 1 && b != 1, OP_LOGE(context, "input %zu cannot be broadcast", i),
                        return ge::GRAPH_FAILED);
            merged.AppendDim(a == 1 ? b : a);
        }
        *out = merged;
    }
    return ge::GRAPH_SUCCESS;
}
} // namespace Base
} // namespace Ops

#endif
