// SoftsignAsc's definition: y = x / (1 + |x|), float32/float16/bfloat16, ND. There is no
// written op_api: opbuild generates aclnnSoftsignAsc and aclnn_softsign_asc.h from this
// definition (inputs, then outputs: aclnnSoftsignAscGetWorkspaceSize(x, out, ...)), and the
// kernel, written against DTYPE_X/DTYPE_Y, is compiled once per dtype column below.
#include "register/op_def_registry.h"

namespace ops {
class SoftsignAsc : public OpDef {
public:
    explicit SoftsignAsc(const char *name) : OpDef(name)
    {
        const std::vector<ge::Format> formats = {ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16}).Format(formats);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16}).Format(formats);
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value",
                                                                                          "softsign_asc");
        this->AICore().AddConfig("ascend910b", config);
    }
};
OP_ADD(SoftsignAsc);
} // namespace ops
