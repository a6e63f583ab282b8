// MishGradAsc's definition: x_grad = grad * mish'(x), float32/float16/bfloat16, ND.
#include "register/op_def_registry.h"

namespace ops {
class MishGradAsc : public OpDef {
public:
    explicit MishGradAsc(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::Format> formats = {ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("grad").ParamType(REQUIRED).DataType(types).Format(formats).UnknownShapeFormat(formats);
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(formats).UnknownShapeFormat(formats);
        this->Output("x_grad").ParamType(REQUIRED).DataType(types).Format(formats).UnknownShapeFormat(formats);
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value",
                                                                                          "mish_grad_asc");
        this->AICore().AddConfig("ascend910b", config);
    }
};
OP_ADD(MishGradAsc);
} // namespace ops
