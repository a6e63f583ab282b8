// opbuild/src/aclnn_gen.cpp: the aclnn generator. Linked with an operator directory's
// op_host/*_def.cpp (its OP_ADD definitions), it writes what CANN's build generates for an
// operator without a written op_api: for each definition of type Xxx,
//   include/aclnn_xxx.h    aclnnXxxGetWorkspaceSize(inputs, attributes, outputs,
//                          workspaceSize, executor) and aclnnXxx(workspace, size, executor,
//                          stream), CANN's parameter order and naming (an optional input
//                          <name>Optional, a single output `out`, several <name>Out)
//   generated_aclnn.cpp    their bodies: the definition's description passed to
//                          opbuild::GeneratedPhase1/2 (opbuild/generated_aclnn.h)
//   generated_ut.cpp       one op_api UT per floating dtype combination the definition lists
//                          (the first input of shape [3, 37, 18]: an even last dim, and no dtype
//                          fills whole 32-byte blocks; the later inputs of the same shape or,
//                          when phase 1 refuses that (an operator whose second input is a
//                          weight: PRelu's is 1-D), of shape [1], which broadcasts to any
//                          shape by numpy's rule the reference follows; attributes at their
//                          defaults or, declared without one, 0.5 (an int 1), the output
//                          compared with the API's float64 reference by the project's harness)
// usage: aclnn_gen OUTDIR
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "register/op_def_registry.h"

namespace {
std::string Snake(const std::string &type)
{
    std::string r;
    for (size_t i = 0; i < type.size(); i++) {
        const unsigned char c = static_cast<unsigned char>(type[i]);
        if (std::isupper(c)) {
            const unsigned char p = i > 0 ? static_cast<unsigned char>(type[i - 1]) : 0;
            if (i > 0 && (std::islower(p) || std::isdigit(p))) r += '_';
            r += static_cast<char>(std::tolower(c));
        } else {
            r += static_cast<char>(c);
        }
    }
    return r;
}

std::string Camel(const std::string &name)
{
    std::string r;
    bool up = false;
    for (char c : name) {
        if (c == '_') {
            up = !r.empty();
            continue;
        }
        r += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
    }
    return r;
}

struct Param {
    std::string name; // as the header spells it
    bool optional;
    std::vector<ge::DataType> dtypes;
};

struct Op {
    std::string type, api, snake;
    std::vector<Param> inputs, outputs;
    std::vector<const ops::OpAttrDef *> attrs;
    size_t combinations = 0;
};

const char *AttrCType(ops::MgAttrKind k)
{
    switch (k) {
    case ops::MgAttrKind::FLOAT: return "double";
    case ops::MgAttrKind::INT: return "int64_t";
    case ops::MgAttrKind::BOOL: return "bool";
    case ops::MgAttrKind::STRING: return "char *";
    case ops::MgAttrKind::LIST_INT: return "const aclIntArray *";
    case ops::MgAttrKind::LIST_FLOAT: return "const aclFloatArray *";
    case ops::MgAttrKind::LIST_BOOL: return "const aclBoolArray *";
    default: return "double";
    }
}

const char *AttrGenKind(ops::MgAttrKind k)
{
    switch (k) {
    case ops::MgAttrKind::FLOAT: case ops::MgAttrKind::NONE: return "opbuild::GEN_FLOAT";
    case ops::MgAttrKind::INT: return "opbuild::GEN_INT";
    case ops::MgAttrKind::BOOL: return "opbuild::GEN_BOOL";
    default: return "opbuild::GEN_UNSUPPORTED";
    }
}

std::string AttrValue(const ops::OpAttrDef &a)
{
    const std::string n = Camel(a.Name());
    switch (a.GetKind()) {
    case ops::MgAttrKind::FLOAT: case ops::MgAttrKind::NONE: return "opbuild::GenFloat(" + n + ")";
    case ops::MgAttrKind::INT: return "opbuild::GenInt(" + n + ")";
    case ops::MgAttrKind::BOOL: return "opbuild::GenBool(" + n + ")";
    default: return "opbuild::GenNone()";
    }
}

Op Describe(const ops::OpDef &d)
{
    Op op;
    op.type = d.Type();
    op.api = "aclnn" + op.type;
    op.snake = Snake(op.type);
    for (const auto &p : d.Inputs()) {
        const bool optional = p.GetParamType() == ops::OPTIONAL;
        op.inputs.push_back({Camel(p.Name()) + (optional ? "Optional" : ""), optional, p.GetDataTypes()});
    }
    for (const auto &p : d.Outputs())
        op.outputs.push_back({d.Outputs().size() == 1 ? std::string("out") : Camel(p.Name()) + "Out", false,
                              p.GetDataTypes()});
    for (const auto &a : d.Attrs()) op.attrs.push_back(&a);
    for (const auto &p : op.inputs) op.combinations = std::max(op.combinations, p.dtypes.size());
    for (const auto &p : op.outputs) op.combinations = std::max(op.combinations, p.dtypes.size());
    return op;
}

// The dtype of parameter `p` in combination `c` (a shorter list repeats its last entry)
int DtypeAt(const Param &p, size_t c)
{
    if (p.dtypes.empty()) return -1;
    return static_cast<int>(p.dtypes[c < p.dtypes.size() ? c : p.dtypes.size() - 1]);
}

std::string Signature(const Op &op)
{
    std::ostringstream s;
    s << "aclnnStatus " << op.api << "GetWorkspaceSize(";
    for (const auto &p : op.inputs) s << "const aclTensor *" << p.name << ", ";
    for (const auto *a : op.attrs) {
        const std::string type = AttrCType(a->GetKind());
        s << type << (type.back() == '*' ? "" : " ") << Camel(a->Name()) << ", ";
    }
    for (const auto &p : op.outputs) s << "const aclTensor *" << p.name << ", ";
    s << "uint64_t *workspaceSize, aclOpExecutor **executor)";
    return s.str();
}

std::string Phase2(const Op &op)
{
    return "aclnnStatus " + op.api + "(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, "
           "aclrtStream stream)";
}

void Header(const Op &op, const std::string &path)
{
    std::string guard = "ACLNN_" + op.snake + "_H_";
    for (char &c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::ofstream f(path);
    f << "/* generated by opbuild from the " << op.type << " operator definition; do not edit */\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n\n#include \"aclnn/acl_meta.h\"\n\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      << "__attribute__((visibility(\"default\"))) " << Signature(op) << ";\n\n"
      << "__attribute__((visibility(\"default\"))) " << Phase2(op) << ";\n\n"
      << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
}

void Body(const Op &op, std::ostream &f)
{
    const std::string k = "k" + op.type;
    auto list = [&](const Param &p) {
        std::ostringstream s;
        s << "{";
        for (size_t c = 0; c < op.combinations; c++) s << (c ? ", " : "") << DtypeAt(p, c);
        s << "}";
        return s.str();
    };
    f << "namespace {\n";
    for (size_t i = 0; i < op.inputs.size(); i++) f << "const int " << k << "_in" << i << "[] = " << list(op.inputs[i]) << ";\n";
    for (size_t i = 0; i < op.outputs.size(); i++) f << "const int " << k << "_out" << i << "[] = " << list(op.outputs[i]) << ";\n";
    f << "const opbuild::GenParam " << k << "_inputs[] = {";
    for (size_t i = 0; i < op.inputs.size(); i++)
        f << "{\"" << op.inputs[i].name << "\", " << op.inputs[i].optional << ", " << k << "_in" << i << "}, ";
    f << "{nullptr, 0, nullptr}};\n";
    f << "const opbuild::GenParam " << k << "_outputs[] = {";
    for (size_t i = 0; i < op.outputs.size(); i++)
        f << "{\"" << op.outputs[i].name << "\", 0, " << k << "_out" << i << "}, ";
    f << "{nullptr, 0, nullptr}};\n";
    f << "const opbuild::GenAttr " << k << "_attrs[] = {";
    for (const auto *a : op.attrs) f << "{\"" << Camel(a->Name()) << "\", " << AttrGenKind(a->GetKind()) << "}, ";
    f << "{nullptr, 0}};\n";
    f << "const opbuild::GenOp " << k << " = {\"" << op.api << "\", \"" << op.type << "\", " << op.inputs.size()
      << ", " << k << "_inputs, " << op.outputs.size() << ", " << k << "_outputs, " << op.attrs.size() << ", " << k
      << "_attrs, " << op.combinations << "};\n} // namespace\n\n";
    f << "extern \"C\" " << Signature(op) << "\n{\n    const aclTensor *in[] = {";
    for (const auto &p : op.inputs) f << p.name << ", ";
    f << "nullptr};\n    const aclTensor *outs[] = {";
    for (const auto &p : op.outputs) f << p.name << ", ";
    f << "nullptr};\n    const opbuild::GenValue attrs[] = {";
    for (const auto *a : op.attrs) f << AttrValue(*a) << ", ";
    f << "opbuild::GenNone()};\n"
      << "    return opbuild::GeneratedPhase1(" << k << ", in, outs, attrs, workspaceSize, executor);\n}\n\n";
    f << "extern \"C\" " << Phase2(op) << "\n{\n    return opbuild::GeneratedPhase2(" << k
      << ", workspace, workspaceSize, executor, stream);\n}\n\n";
}

const char *AclDtype(int ge)
{
    switch (ge) {
    case ge::DT_FLOAT: return "ACL_FLOAT";
    case ge::DT_FLOAT16: return "ACL_FLOAT16";
    case ge::DT_BF16: return "ACL_BF16";
    default: return nullptr;
    }
}

// Tolerance per output dtype: CANN's precision standard (|y - exact| <= t (1 + |exact|)).
const char *Precision(int ge)
{
    switch (ge) {
    case ge::DT_FLOAT: return "1e-4, 1e-4";
    case ge::DT_FLOAT16: return "1e-3, 1e-3";
    default: return "4e-3, 4e-3";
    }
}

void Uts(const Op &op, std::ostream &f)
{
    for (const auto *a : op.attrs)
        if (std::string(AttrGenKind(a->GetKind())) == "opbuild::GEN_UNSUPPORTED") return;
    std::set<std::string> done;
    for (size_t c = 0; c < op.combinations; c++) {
        bool floating = true;
        std::string key;
        for (const auto &p : op.inputs) {
            floating = floating && AclDtype(DtypeAt(p, c)) != nullptr;
            key += std::to_string(DtypeAt(p, c)) + ",";
        }
        for (const auto &p : op.outputs) {
            floating = floating && AclDtype(DtypeAt(p, c)) != nullptr;
            key += std::to_string(DtypeAt(p, c)) + ",";
        }
        if (!floating || !done.insert(key).second) continue;
        const int out0 = DtypeAt(op.outputs[0], c);
        std::string name = op.snake + "_" + std::string(AclDtype(out0)).substr(4);
        for (char &ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        f << "TEST(generated_" << op.snake << ", " << name << "_c" << c << ")\n{\n";
        // the later inputs' shapes, tried in order until phase 1 takes one
        const bool several = op.inputs.size() > 1;
        if (several)
            f << "    const std::vector<std::vector<int64_t>> later = {{3, 37, 18}, {1}};\n"
              << "    bool accepted = false;\n"
              << "    for (const auto &shape : later) {\n";
        const char *ind = several ? "        " : "    ";
        for (size_t i = 0; i < op.inputs.size(); i++)
            f << ind << "auto i" << i << " = TensorDesc(" << (i > 0 ? "shape" : "{3, 37, 18}") << ", "
              << AclDtype(DtypeAt(op.inputs[i], c)) << ", ACL_FORMAT_ND).ValueRange(-4, 4);\n";
        for (size_t i = 0; i < op.outputs.size(); i++)
            f << ind << "auto o" << i << " = TensorDesc({3, 37, 18}, " << AclDtype(DtypeAt(op.outputs[i], c))
              << ", ACL_FORMAT_ND).Precision(" << Precision(DtypeAt(op.outputs[i], c)) << ");\n";
        f << ind << "auto ut = OP_API_UT(" << op.api << ", INPUT(";
        bool first = true;
        for (size_t i = 0; i < op.inputs.size(); i++, first = false) f << (first ? "" : ", ") << "i" << i;
        for (const auto *a : op.attrs) {
            // the definition's default; an attribute declared without one is given 0.5 (int 1)
            const double v = a->HasDefault() ? a->GetDefault() : a->GetKind() == ops::MgAttrKind::INT ? 1.0 : 0.5;
            f << (first ? "" : ", ") << "static_cast<" << AttrCType(a->GetKind()) << ">(" << v << ")";
            first = false;
        }
        f << "), OUTPUT(";
        for (size_t i = 0; i < op.outputs.size(); i++) f << (i ? ", " : "") << "o" << i;
        f << "));\n" << ind << "uint64_t ws = 0;\n";
        if (several)
            f << "        if (ut.TestGetWorkspaceSize(&ws) != ACLNN_SUCCESS) continue;\n"
              << "        accepted = true;\n        ut.TestPrecision();\n        break;\n    }\n"
              << "    EXPECT_TRUE(accepted) << \"phase 1 refused the later inputs of shape [3, 37, 18] and [1]\";\n}\n\n";
        else
            f << "    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);\n"
              << "    ut.TestPrecision();\n}\n\n";
    }
}
} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::string out = argv[1];
    std::ofstream body(out + "/generated_aclnn.cpp"), ut(out + "/generated_ut.cpp");
    body << "// generated by opbuild from the operator definitions; do not edit\n"
         << "#include \"opbuild/generated_aclnn.h\"\n\n";
    ut << "// generated by opbuild: one values UT per floating dtype combination; do not edit\n"
       << "#include \"gtest/gtest.h\"\n#include \"op_api_ut_common/op_api_ut.h\"\n"
       << "#include \"op_api_ut_common/tensor_desc.h\"\n";
    std::vector<Op> ops;
    for (const auto &d : ops::mg::OpDefs()) ops.push_back(Describe(d));
    for (const auto &op : ops) ut << "#include \"aclnn_" << op.snake << ".h\"\n";
    ut << "\n";
    for (const auto &op : ops) {
        Header(op, out + "/include/aclnn_" + op.snake + ".h");
        body << "#include \"aclnn_" << op.snake << ".h\"\n";
        Body(op, body);
        Uts(op, ut);
        std::printf("generated %s (aclnn_%s.h)\n", op.api.c_str(), op.snake.c_str());
    }
    if (!body || !ut) {
        std::fprintf(stderr, "aclnn_gen: cannot write into %s\n", out.c_str());
        return 1;
    }
    return 0;
}
