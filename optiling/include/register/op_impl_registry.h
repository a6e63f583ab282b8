/* register/op_impl_registry.h: IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE / IMPL_OP. Each chain
   call writes into the C registry (optiling/src/registry.c) under the operator type. */
#ifndef MG_REGISTER_OP_IMPL_REGISTRY_H_
#define MG_REGISTER_OP_IMPL_REGISTRY_H_

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "optiling/mg_registry.h"

namespace gert {
class OpImplRegisterV2 {
public:
    using TilingKernelFunc = ge::graphStatus (*)(TilingContext *);
    using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext *);
    template <typename T> using TilingParseFunc = ge::graphStatus (*)(TilingParseContext *);

    explicit OpImplRegisterV2(const char *type) : type_(type) {}
    OpImplRegisterV2 &Tiling(TilingKernelFunc f)
    {
        mg_registry_set_tiling(type_, reinterpret_cast<mg_fn>(f));
        return *this;
    }
    /* Records how to make the compile info T (value-initialised) and the parse function. */
    template <typename T> OpImplRegisterV2 &TilingParse(ge::graphStatus (*f)(TilingParseContext *))
    {
        mg_registry_set_parse(type_, reinterpret_cast<mg_fn>(f), &Create<T>, &Destroy<T>);
        return *this;
    }
    OpImplRegisterV2 &InferShape(InferShapeKernelFunc f)
    {
        mg_registry_set_infer_shape(type_, reinterpret_cast<mg_fn>(f));
        return *this;
    }
    template <typename F> OpImplRegisterV2 &InferDataType(F) { return *this; }
    template <typename F> OpImplRegisterV2 &InferShapeRange(F) { return *this; }
    OpImplRegisterV2 &InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplRegisterV2 &PrivateAttr(const char *, int64_t) { return *this; }

private:
    template <typename T> static void *Create() { return new T(); }
    template <typename T> static void Destroy(void *p) { delete static_cast<T *>(p); }
    const char *type_;
};
} // namespace gert

#define MG_IMPL_CAT2(a, b) a##b
#define MG_IMPL_CAT(a, b) MG_IMPL_CAT2(a, b)
#define IMPL_OP(op_type)                                                                                  \
    static gert::OpImplRegisterV2 MG_IMPL_CAT(mg_op_impl_, __COUNTER__) __attribute__((unused)) =        \
        gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)

#endif
