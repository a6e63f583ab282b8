/*
 * ascendc/host_api/tiling/template_argument.h: tiling templates (ASCENDC_TPL_*). An
 * operator's <op>_tiling_key.h declares its kernel's template parameters
 * (ASCENDC_TPL_ARGS_DECL) and the combinations built (ASCENDC_TPL_SEL); the host tiling
 * turns chosen values into the tiling key (ASCENDC_TPL_SEL_PARAM / GET_TPL_TILING_KEY) and
 * the twin's registration (ascendc/cmake/AscendcTwin.cmake) registers each combination's
 * instantiation under the same key, computed by the same function below.
 *
 * The key, as CANN encodes it: the declared parameters in order, each in its own bit field
 * from bit 0 up: a data type or format its code (8 bits), a bool its value (1 bit), a uint
 * the index of its value in the declared list (the width the declaration gives). A value a
 * uint does not declare, or more than 64 bits, gives INVALID_TILING_KEY.
 *
 * Compiled with ASCENDC_TPL_KERNEL (kernel side) the declarations expand to nothing and
 * TypeFromId maps a type code to its C++ type; otherwise (host side, plain C++17) they are
 * the tables g_tilingDeclareParams and g_tilingSelectParams.
 */
#ifndef ASC_FACE_TEMPLATE_ARGUMENT_H_
#define ASC_FACE_TEMPLATE_ARGUMENT_H_

#include <cstdint>

#include "graph/c_types.h"

// kernel types a selection may name
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12
// bit widths
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// parameter kinds
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
constexpr uint32_t ASCENDC_TPL_KERNEL_TYPE = 4;
constexpr uint32_t ASCENDC_TPL_DETERMINISTIC = 5;
constexpr uint32_t ASCENDC_TPL_SHARED_KERNEL_TYPE = 6;
// which input or output a data type follows (markers in a declaration's value list)
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))
// how a uint's values are listed
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
constexpr uint8_t MAX_BITS_NUM = 64;
constexpr uint64_t INVALID_TILING_KEY = 0xFFFFFFFFFFFFFFFFULL;

// TypeFromId<C_DT_*>::type: the C++ type of a type code, wherever the kernel types are known
// (kernel side, or a kernel UT that included kernel_operator.h first).
#if defined(ASCENDC_TPL_KERNEL) || defined(ASC_FACE_TYPES_H_)
#include "asc_face/types.h"

template <int dataTypeId> struct TypeFromId {
    using type = void;
};
#define ASC_TWIN_TYPE_FROM_ID(id, T)                                                                                \
    template <> struct TypeFromId<id> {                                                                            \
        using type = T;                                                                                            \
    }
ASC_TWIN_TYPE_FROM_ID(C_DT_FLOAT, float);
ASC_TWIN_TYPE_FROM_ID(C_DT_FLOAT16, half);
ASC_TWIN_TYPE_FROM_ID(C_DT_BF16, bfloat16_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_INT8, int8_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_UINT8, uint8_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_INT16, int16_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_UINT16, uint16_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_INT32, int32_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_UINT32, uint32_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_INT64, int64_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_UINT64, uint64_t);
ASC_TWIN_TYPE_FROM_ID(C_DT_DOUBLE, double);
ASC_TWIN_TYPE_FROM_ID(C_DT_BOOL, bool);
#undef ASC_TWIN_TYPE_FROM_ID
#endif

#if defined(ASCENDC_TPL_KERNEL)
// ---- kernel side: the declarations are read by the registration, not by the kernel -----
#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#else
// ---- host side ----------------------------------------------------------------------------
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

namespace AscendC {
// One declared or selected parameter; a uint's listing (range, list or mix) is expanded
// into its values when the parameter is made.
struct TplParam {
    const char *name;
    uint32_t kind;
    uint8_t bitWidth;
    std::vector<uint64_t> vals;
    bool declared;
    TplParam(const char *n, uint32_t k, uint8_t bw, std::vector<uint64_t> v, bool decl)
        : name(n), kind(k), bitWidth(bw), vals(std::move(v)), declared(decl)
    {
        if (kind == ASCENDC_TPL_UINT) ExpandUint();
    }

private:
    // [LIST, v...] | [RANGE, n, lo, hi, ...] | [MIX, n, lo, hi, ..., v...]
    void ExpandUint()
    {
        if (vals.empty()) return;
        const uint64_t mode = vals[0];
        std::vector<uint64_t> out;
        size_t next = 1;
        if (mode != ASCENDC_TPL_UI_LIST && vals.size() >= 2) {
            const uint64_t ranges = vals[1];
            next = 2;
            for (uint64_t r = 0; r < ranges && next + 1 < vals.size(); r++, next += 2)
                for (uint64_t v = vals[next]; v <= vals[next + 1]; v++) out.push_back(v);
        }
        if (mode != ASCENDC_TPL_UI_RANGE)
            for (; next < vals.size(); next++) out.push_back(vals[next]);
        vals = std::move(out);
    }
};
using TilingDeclareParams = std::vector<TplParam>;
using TilingSelectParams = std::vector<std::vector<TplParam>>;

// The key of one combination: `values` in declaration order (see the header's comment).
inline uint64_t TplEncodeTilingKey(const TilingDeclareParams &decl, const std::vector<uint64_t> &values)
{
    uint64_t key = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < decl.size() && i < values.size(); i++) {
        uint64_t field = values[i];
        if (decl[i].kind == ASCENDC_TPL_UINT) {
            const auto it = std::find(decl[i].vals.begin(), decl[i].vals.end(), field);
            if (it == decl[i].vals.end()) {
                std::fprintf(stderr, "[ERROR] tiling key: %s = %llu is not among the values ASCENDC_TPL_UINT_DECL "
                             "declares\n", decl[i].name, static_cast<unsigned long long>(field));
                return INVALID_TILING_KEY;
            }
            field = static_cast<uint64_t>(it - decl[i].vals.begin());
        }
        if (bits + decl[i].bitWidth > MAX_BITS_NUM) {
            std::fprintf(stderr, "[ERROR] tiling key: the parameters need more than %u bits\n", MAX_BITS_NUM);
            return INVALID_TILING_KEY;
        }
        if (bits < 64) key |= field << bits;
        bits += decl[i].bitWidth;
    }
    return key;
}
template <typename... A> inline uint64_t TplTilingKey(const TilingDeclareParams &decl, A... values)
{
    return TplEncodeTilingKey(decl, std::vector<uint64_t>{static_cast<uint64_t>(values)...});
}
} // namespace AscendC

using AscendC::TilingDeclareParams;
using AscendC::TilingSelectParams;

#define ASC_TWIN_TPL_PARAM(name, kind, bw, decl, ...) AscendC::TplParam{name, kind, bw, {__VA_ARGS__}, decl}
#define ASCENDC_TPL_DTYPE_DECL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, true, __VA_ARGS__)
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, true, __VA_ARGS__)
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, true, __VA_ARGS__)
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_UINT, bw, true, __VA_ARGS__)
#define ASCENDC_TPL_BOOL_DECL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, true, __VA_ARGS__)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...)                                                                       \
    ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, true, __VA_ARGS__)
#define ASCENDC_TPL_DTYPE_SEL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_UINT_SEL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_UINT, 0, false, __VA_ARGS__)
#define ASCENDC_TPL_BOOL_SEL(x, ...) ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)                                                                      \
    ASC_TWIN_TPL_PARAM("tiling_struct", ASCENDC_TPL_KERNEL_TYPE, 0, false, 0)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)                                                                           \
    ASC_TWIN_TPL_PARAM("kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)                                                                         \
    ASC_TWIN_TPL_PARAM("deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, false, __VA_ARGS__)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...)                                                                 \
    ASC_TWIN_TPL_PARAM(#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, false, __VA_ARGS__)
// Braced lists, so that a trailing comma (ops-nn writes `ASCENDC_TPL_SEL(a, b, )`) is accepted.
#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) {__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) static TilingSelectParams g_tilingSelectParams{__VA_ARGS__}

#define GET_TPL_TILING_KEY(...) AscendC::TplTilingKey(g_tilingDeclareParams, __VA_ARGS__)
#define ASCENDC_TPL_SEL_PARAM(context, ...)                                                                        \
    do {                                                                                                           \
        uint64_t ascTwinTplKey_ = GET_TPL_TILING_KEY(__VA_ARGS__);                                                  \
        (context)->SetTilingKey(ascTwinTplKey_);                                                                   \
    } while (0)
#endif

#endif // ASC_FACE_TEMPLATE_ARGUMENT_H_
