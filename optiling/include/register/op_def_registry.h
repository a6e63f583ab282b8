/* register/op_def_registry.h: ops::OpDef and its builders (metadef's asc register names).
   Here a definition records, for opbuild, the kernel file (ExtendCfgInfo "opFile.value")
   and the input/output counts; formats, flags and per-SoC configs are accepted and kept
   only as far as they are read back. OP_ADD also keeps a copy of each definition (its
   inputs, outputs and their dtype lists, attributes with kind and default) in
   ops::mg::OpDefs(): opbuild's aclnn generator reads them, as CANN's build reads the
   definitions to generate the aclnn entry of an operator without a written op_api. */
#ifndef MG_REGISTER_OP_DEF_REGISTRY_H_
#define MG_REGISTER_OP_DEF_REGISTRY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/types.h"
#include "optiling/mg_registry.h"
#include "register/op_impl_registry.h"

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

class OpParamDef {
public:
    explicit OpParamDef(const char *name) : name_(name) {}
    OpParamDef &ParamType(Option o) { option_ = o; return *this; }
    OpParamDef &DataType(std::vector<ge::DataType> v) { types_ = std::move(v); return *this; }
    OpParamDef &DataTypeList(std::vector<ge::DataType> v) { types_ = std::move(v); return *this; }
    OpParamDef &Format(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
    OpParamDef &FormatList(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
    OpParamDef &UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef &AutoContiguous() { return *this; }
    OpParamDef &IgnoreContiguous() { return *this; }
    OpParamDef &ValueDepend(Option) { return *this; }
    OpParamDef &Scalar() { return *this; }
    OpParamDef &ScalarList() { return *this; }
    OpParamDef &InitValue(uint64_t) { return *this; }
    OpParamDef &Follow(const char *) { return *this; }
    const std::string &Name() const { return name_; }
    Option GetParamType() const { return option_; }
    const std::vector<ge::DataType> &GetDataTypes() const { return types_; }

private:
    std::string name_;
    Option option_ = REQUIRED;
    std::vector<ge::DataType> types_;
    std::vector<ge::Format> formats_;
};

/* An attribute's kind as the definition declares it (the generated aclnn parameter's type:
   Float double, Int int64_t, Bool bool, String char *, the lists aclIntArray/aclFloatArray/
   aclBoolArray) and its default (numbers only). */
enum class MgAttrKind { NONE, FLOAT, INT, BOOL, STRING, LIST_INT, LIST_FLOAT, LIST_BOOL };

class OpAttrDef {
public:
    explicit OpAttrDef(const char *name) : name_(name) {}
    OpAttrDef &AttrType(Option o) { option_ = o; return *this; }
    /* Float() declares the kind alone; Float(v) also a default */
    OpAttrDef &Float() { return Kind(MgAttrKind::FLOAT, 0.0, false); }
    OpAttrDef &Float(float v) { return Kind(MgAttrKind::FLOAT, v); }
    OpAttrDef &Int() { return Kind(MgAttrKind::INT, 0.0, false); }
    OpAttrDef &Int(int64_t v) { return Kind(MgAttrKind::INT, static_cast<double>(v)); }
    OpAttrDef &Bool() { return Kind(MgAttrKind::BOOL, 0.0, false); }
    OpAttrDef &Bool(bool v) { return Kind(MgAttrKind::BOOL, v ? 1.0 : 0.0); }
    OpAttrDef &String(const char * = "") { return Kind(MgAttrKind::STRING, 0.0); }
    OpAttrDef &ListInt(std::vector<int64_t> = {}) { return Kind(MgAttrKind::LIST_INT, 0.0); }
    OpAttrDef &ListFloat(std::vector<float> = {}) { return Kind(MgAttrKind::LIST_FLOAT, 0.0); }
    OpAttrDef &ListBool(std::vector<bool> = {}) { return Kind(MgAttrKind::LIST_BOOL, 0.0); }
    OpAttrDef &Comment(const char *) { return *this; }
    const std::string &Name() const { return name_; }
    Option GetAttrType() const { return option_; }
    MgAttrKind GetKind() const { return kind_; }
    double GetDefault() const { return default_; }
    bool HasDefault() const { return has_default_; }

private:
    OpAttrDef &Kind(MgAttrKind k, double v, bool has_default = true)
    {
        kind_ = k;
        default_ = v;
        has_default_ = has_default;
        return *this;
    }
    std::string name_;
    Option option_ = REQUIRED;
    MgAttrKind kind_ = MgAttrKind::NONE;
    double default_ = 0.0;
    bool has_default_ = false;
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char *) {}
    OpAICoreConfig &DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig &DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig &DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig &DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig &NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig &PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig &ExtendCfgInfo(const char *key, const char *value)
    {
        if (std::string(key) == "opFile.value") kernel_file_ = value;
        return *this;
    }
    OpParamDef &Input(const char *name) { params_.emplace_back(name); return params_.back(); }
    OpParamDef &Output(const char *name) { params_.emplace_back(name); return params_.back(); }
    const std::string &KernelFile() const { return kernel_file_; }

private:
    std::string kernel_file_;
    std::vector<OpParamDef> params_;
};

class OpAICoreDef {
public:
    OpAICoreDef &AddConfig(const char *, OpAICoreConfig &cfg)
    {
        if (!cfg.KernelFile().empty()) kernel_file_ = cfg.KernelFile();
        return *this;
    }
    OpAICoreDef &AddConfig(const char *) { return *this; }
    template <typename F> OpAICoreDef &SetTiling(F) { return *this; }
    template <typename F> OpAICoreDef &SetCheckSupport(F) { return *this; }
    template <typename F> OpAICoreDef &SetOpSelectFormat(F) { return *this; }
    const std::string &KernelFile() const { return kernel_file_; }

private:
    std::string kernel_file_;
};

class OpDef {
public:
    explicit OpDef(const char *type) : type_(type) {}
    virtual ~OpDef() = default;
    OpParamDef &Input(const char *name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef &Output(const char *name) { outputs_.emplace_back(name); return outputs_.back(); }
    OpAttrDef &Attr(const char *name) { attrs_.emplace_back(name); return attrs_.back(); }
    OpAICoreDef &AICore() { return aicore_; }
    template <typename F> OpDef &SetInferShape(F) { return *this; }
    template <typename F> OpDef &SetInferShapeRange(F) { return *this; }
    template <typename F> OpDef &SetInferDataType(F) { return *this; }
    OpDef &Comment(const char *) { return *this; }
    /* OP_ADD: records what opbuild needs under the type name, and keeps the definition. */
    void Record() const;
    const char *Type() const { return type_; }
    const std::vector<OpParamDef> &Inputs() const { return inputs_; }
    const std::vector<OpParamDef> &Outputs() const { return outputs_; }
    const std::vector<OpAttrDef> &Attrs() const { return attrs_; }

private:
    const char *type_;
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    OpAICoreDef aicore_;
};

namespace mg {
/* Every definition OP_ADD added in this program, in the order of the static constructors. */
inline std::vector<OpDef> &OpDefs()
{
    static std::vector<OpDef> defs;
    return defs;
}
} // namespace mg

inline void OpDef::Record() const
{
    mg_registry_set_opdef(type_, aicore_.KernelFile().c_str(), static_cast<int>(inputs_.size()),
                          static_cast<int>(outputs_.size()));
    unsigned optional = 0;
    for (size_t i = 0; i < inputs_.size() && i < 32; i++)
        if (inputs_[i].GetParamType() == OPTIONAL) optional |= 1u << i;
    mg_registry_set_optional_inputs(type_, optional);
    mg::OpDefs().push_back(*this);
}

template <typename T> struct OpDefAdder {
    explicit OpDefAdder(const char *type) { T(type).Record(); }
};
} // namespace ops

#define OP_ADD(op_type, ...) \
    static ops::OpDefAdder<op_type> MG_IMPL_CAT(mg_op_def_, __COUNTER__) __attribute__((unused))(#op_type)

#endif
