/* opbuild/generated_aclnn.h: what the aclnn entries opbuild generates from an OpDef call
   (opbuild/src/aclnn_gen.cpp writes them for an operator directory without a written
   op_api, as CANN's build does). A generated aclnnXxxGetWorkspaceSize passes its tensors
   and attributes here with the definition's description: phase 1 checks them against the
   definition (required tensors present, a dtype combination it lists, the infershape's
   output shapes), makes each input dense, launches the operator type's kernel through the
   AI-core launcher into dense outputs and copies them into the caller's views. */
#ifndef MG_OPBUILD_GENERATED_ACLNN_H_
#define MG_OPBUILD_GENERATED_ACLNN_H_

#include <cstddef>
#include <cstdint>

#include "aclnn/acl_meta.h"

namespace opbuild {
/* One tensor parameter: its name as the header spells it, whether the definition makes it
   optional, and its dtype per combination (ge::DataType values; the definition's columns). */
struct GenParam {
    const char *name;
    int optional;
    const int *dtypes;
};
enum GenAttrKind { GEN_FLOAT = 0, GEN_INT, GEN_BOOL, GEN_UNSUPPORTED };
struct GenAttr {
    const char *name;
    int kind;
};
/* An attribute's value as the caller passed it (the parameter's C type by kind). */
struct GenValue {
    double f;
    int64_t i;
    bool b;
};
inline GenValue GenFloat(double v) { return GenValue{v, 0, false}; }
inline GenValue GenInt(int64_t v) { return GenValue{0.0, v, false}; }
inline GenValue GenBool(bool v) { return GenValue{0.0, 0, v}; }
inline GenValue GenNone() { return GenValue{0.0, 0, false}; }

struct GenOp {
    const char *api;  /* aclnnXxx */
    const char *type; /* the OpDef's type: the tiling and kernel registered for it */
    size_t input_num;
    const GenParam *inputs;
    size_t output_num;
    const GenParam *outputs;
    size_t attr_num;
    const GenAttr *attrs;
    size_t combinations; /* length of every dtypes list */
};

aclnnStatus GeneratedPhase1(const GenOp &op, const aclTensor *const *inputs, const aclTensor *const *outputs,
                            const GenValue *attrs, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus GeneratedPhase2(const GenOp &op, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                            aclrtStream stream);
} // namespace opbuild

#endif
