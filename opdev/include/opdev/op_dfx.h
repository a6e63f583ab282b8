/* opdev/op_dfx.h: the DFX macros. L2_DFX_PHASE_1/2 name the API for the thread (messages
   and the executor say "aclnnMishBackward", not an internal function), and DFX_IN/DFX_OUT
   record each tensor argument's name, so a descriptor refused later in the plan is named
   as the caller wrote it. L0_DFX logs the l0 op at debug level. */
#ifndef MG_OPDEV_OP_DFX_H_
#define MG_OPDEV_OP_DFX_H_

#include <type_traits>

#include "opdev/common_types.h"
#include "opdev/op_log.h"

namespace op {
namespace mg {
void DfxBegin(const char *api);
const char *CurrentApi();
void DfxName(const aclTensor *t, const char *name, size_t length);
/* Splits "a, b, c" and records each tensor argument under its name. */
template <typename T> void DfxOne(const char *&names, const T &value)
{
    while (*names == ' ') names++;
    const char *end = names;
    int depth = 0;
    while (*end != '\0' && (*end != ',' || depth > 0)) {
        depth += (*end == '(') - (*end == ')');
        end++;
    }
    if constexpr (std::is_convertible<T, const aclTensor *>::value) DfxName(value, names, end - names);
    names = *end == ',' ? end + 1 : end;
}
template <typename... A> int DfxArgs(const char *names, const A &...args)
{
    (DfxOne(names, args), ...);
    return 0;
}
inline int DfxArgs(const char *) { return 0; }
} // namespace mg
} // namespace op

#define DFX_IN(...) op::mg::DfxArgs(#__VA_ARGS__, ##__VA_ARGS__)
#define DFX_OUT(...) op::mg::DfxArgs(#__VA_ARGS__, ##__VA_ARGS__)
#define L2_DFX_PHASE_1(api, in, out) \
    op::mg::DfxBegin(#api);          \
    (void)(in);                      \
    (void)(out)
#define L2_DFX_PHASE_2(api) op::mg::DfxBegin(#api)
#define L0_DFX(op_type, ...) OP_LOGD(#op_type, "l0 op %s of %s", #op_type, op::mg::CurrentApi())

#endif
