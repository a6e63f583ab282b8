// MishAsc's definition: y = x * tanh(softplus(x)), float32/float16/bfloat16, ND.
#include "register/op_def_registry.h"

namespace ops {
class MishAsc : public OpDef {
public:
    explicit MishAsc(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
        const std::vector<ge::Format> formats = {ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(formats).UnknownShapeFormat(formats);
        this->Output("y").ParamType(REQUIRED).DataType(types).Format(formats).UnknownShapeFormat(formats);
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "mish_asc");
        this->AICore().AddConfig("ascend910b", config);
    }
};
OP_ADD(MishAsc);
} // namespace ops
