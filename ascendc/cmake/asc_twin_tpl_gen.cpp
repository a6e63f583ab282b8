// asc_twin_tpl_gen: writes the registration unit of one template kernel (AscendcTwin.cmake).
// Built per kernel with its <op>_tiling_key.h included (ASC_TWIN_TPL_HEADER), it walks
// ASCENDC_TPL_SEL's combinations and, for each, writes the instantiation and its tiling key,
// computed by template_argument.h's own encoder (the one the host tiling calls).
//   asc_twin_tpl_gen <kernel name> <nargs> <kinds> <register.cpp> <dispatch.cpp> <kernel source>...
// <kinds> says, per template parameter of the kernel, T (a type) or V (a value), as the
// kernel's own template header declares it ("-": unknown, then a data type is a type): ops-nn
// also declares value parameters with ASCENDC_TPL_DTYPE_DECL.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"
#include ASC_TWIN_TPL_HEADER

namespace {

const char *TypeName(uint64_t code)
{
    static const std::map<uint64_t, const char *> names = {
        {C_DT_FLOAT, "float"},      {C_DT_FLOAT16, "half"},     {C_DT_BF16, "bfloat16_t"}, {C_DT_INT8, "int8_t"},
        {C_DT_UINT8, "uint8_t"},    {C_DT_INT16, "int16_t"},    {C_DT_UINT16, "uint16_t"}, {C_DT_INT32, "int32_t"},
        {C_DT_UINT32, "uint32_t"},  {C_DT_INT64, "int64_t"},    {C_DT_UINT64, "uint64_t"}, {C_DT_DOUBLE, "double"},
        {C_DT_BOOL, "bool"}};
    const auto it = names.find(code);
    return it == names.end() ? nullptr : it->second;
}

bool IsTemplateParam(const AscendC::TplParam &p)
{
    return p.kind == ASCENDC_TPL_DTYPE || p.kind == ASCENDC_TPL_FORMAT || p.kind == ASCENDC_TPL_UINT ||
           p.kind == ASCENDC_TPL_BOOL;
}

// The template argument spelling of value v of declared parameter d (a type, or a value).
bool Spell(const AscendC::TplParam &d, char kind, uint64_t v, std::string *out)
{
    if (d.kind == ASCENDC_TPL_DTYPE && kind != 'V') {
        const char *t = TypeName(v);
        if (t == nullptr) return false;
        *out = t;
    } else if (d.kind == ASCENDC_TPL_BOOL) {
        *out = v != 0 ? "true" : "false";
    } else {
        *out = std::to_string(v) + "U";
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 7) {
        std::fprintf(stderr, "usage: %s <kernel> <nargs> <kinds> <register.cpp> <dispatch.cpp> <source>...\n",
                     argv[0]);
        return 2;
    }
    const std::string kernel = argv[1];
    const int nargs = std::atoi(argv[2]);
    const std::string kinds = argv[3];
    const char *reg_path = argv[4], *dis_path = argv[5];
    const int first_source = 6;
    const bool plain = kinds == "-";
    const TilingDeclareParams &decl = g_tilingDeclareParams;
    std::vector<const AscendC::TplParam *> params; // the kernel's template parameters, in order
    for (const auto &d : decl)
        if (IsTemplateParam(d)) params.push_back(&d);

    std::string body;
    std::set<uint64_t> keys;
    for (const auto &sel : g_tilingSelectParams) {
        // each declared parameter's selected values (by name), then every combination
        std::vector<std::vector<uint64_t>> choices;
        for (const auto *d : params) {
            const AscendC::TplParam *s = nullptr;
            for (const auto &p : sel)
                if (std::string(p.name) == d->name) s = &p;
            if (s == nullptr) {
                std::fprintf(stderr, "%s: an ASCENDC_TPL_ARGS_SEL does not select %s\n", kernel.c_str(), d->name);
                return 1;
            }
            std::vector<uint64_t> vals;
            for (uint64_t v : s->vals)
                if (v < ASCENDC_TPL_INPUT_BIAS) vals.push_back(v); // input/output markers are not values
            if (d->kind == ASCENDC_TPL_BOOL && vals.empty()) vals = {0, 1};
            choices.push_back(vals);
        }
        std::vector<size_t> at(choices.size(), 0);
        bool done = false;
        for (const auto &c : choices) done = done || c.empty();
        while (!done) {
            std::vector<uint64_t> values;
            std::string args;
            for (size_t i = 0; i < choices.size(); i++) {
                values.push_back(choices[i][at[i]]);
                std::string spelled;
                const char kind = i < kinds.size() ? kinds[i] : '-';
                if (!Spell(*params[i], kind, choices[i][at[i]], &spelled)) {
                    std::fprintf(stderr, "%s: %s = %llu has no C++ type in the twin\n", kernel.c_str(),
                                 params[i]->name, static_cast<unsigned long long>(choices[i][at[i]]));
                    return 1;
                }
                args += (i ? ", " : "") + spelled;
            }
            const uint64_t key = AscendC::TplEncodeTilingKey(decl, values);
            if (key == INVALID_TILING_KEY) return 1;
            // a kernel that is no template (kinds "-") is registered as itself under every key
            if (keys.insert(key).second)
                body += "ASC_TWIN_REGISTER_KERNEL(\"" + kernel + "\", " + std::to_string(key) + "ULL, " + kernel +
                        (plain ? std::string() : "<" + args + ">") + ")\n";
            size_t i = 0;
            for (; i < at.size(); i++) {
                if (++at[i] < choices[i].size()) break;
                at[i] = 0;
            }
            done = i == at.size();
        }
    }

    FILE *reg = std::fopen(reg_path, "w");
    if (reg == nullptr) return 1;
    std::fprintf(reg, "// Generated by asc_twin_tpl_gen (ascendc/cmake/AscendcTwin.cmake): one registration per\n"
                      "// ASCENDC_TPL_SEL combination of %s.\n", kernel.c_str());
    for (int i = first_source; i < argc; i++) std::fprintf(reg, "#include \"%s\"\n", argv[i]);
    std::fprintf(reg, "#include \"asc_face/entry.h\"\n\n%s", body.c_str());
    std::fclose(reg);

    // extern "C" <kernel>(GM_ADDR...): the symbol ops-nn's kernel UTs declare; it runs the
    // instantiation ICPU_SET_TILING_KEY selects (a separate unit: the template has the name)
    FILE *dis = std::fopen(dis_path, "w");
    if (dis == nullptr) return 1;
    if (plain) { // the kernel's own extern "C" symbol is the one the UTs call
        std::fprintf(dis, "// %s is no template: its own symbol is the entry.\n", kernel.c_str());
        std::fclose(dis);
        return 0;
    }
    std::string params_text, args_text;
    for (int i = 0; i < nargs; i++) {
        params_text += std::string(i ? ", " : "") + "uint8_t *a" + std::to_string(i);
        args_text += std::string(i ? ", " : "") + "a" + std::to_string(i);
    }
    std::fprintf(dis, "// Generated by asc_twin_tpl_gen: %s's extern \"C\" symbol, dispatching on the tiling key.\n"
                      "#include \"asc_face/entry.h\"\n\n"
                      "extern \"C\" __attribute__((visibility(\"default\"))) void %s(%s)\n{\n"
                      "    uint8_t *const args[] = {%s};\n"
                      "    AscendC::TwinDispatch(\"%s\", %d, args);\n}\n",
                 kernel.c_str(), kernel.c_str(), params_text.c_str(), args_text.c_str(), kernel.c_str(), nargs);
    std::fclose(dis);
    return 0;
}
