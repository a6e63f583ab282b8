/* opdev/src/opdev_internal.h: where a tensor of a plan lives, for opdev's l0 ops and for
   opbuild's launcher (installed with opdev's headers for opbuild only). */
#ifndef MG_OPDEV_INTERNAL_H_
#define MG_OPDEV_INTERNAL_H_

#include <vector>

#include "nnop.h"
#include "opdev/op_executor.h"

namespace op {
namespace mg {
/* A tensor's place in the plan: a slot of the caller's (with its validated view) or a
   dense region of the workspace (intermediates, AllocTensor). */
struct Place {
    nnop_buffer buffer;      /* the storage start (slots) or the dense data (workspace) */
    nnop_view view;          /* the tensor's view over `buffer` (dense for the workspace) */
    bool dense;              /* `buffer` + view.offset holds view.numel elements row-major */
    nnop_buffer DenseData() const
    {
        nnop_buffer b = buffer;
        b.byte_offset += static_cast<uint64_t>(view.offset * view.elem_size);
        return b;
    }
};
/* Where `t` lives; a caller's tensor is validated and bound to a slot on first use (as an
   input, or an output when `written`). Another status than ACLNN_SUCCESS, with the message
   set, when it cannot be used. */
aclnnStatus Locate(aclOpExecutor *executor, const aclTensor *t, bool written, Place *place);
/* A new dense tensor in the workspace (or sharing `alias`'s dense data when given). */
aclTensor *NewTensor(aclOpExecutor *executor, const Shape &shape, DataType dtype, Format format,
                     const Place *alias);
/* `t`'s view dims and strides, all of them (a snapshot keeps NNOP_MAX_RANK). */
bool FullView(const aclTensor *t, std::vector<int64_t> *dims, std::vector<int64_t> *strides);
/* The same elements in as few dims as they allow: size-1 dims dropped, a dim merged into the
   one before it when that one steps over it exactly. true when NNOP_MAX_RANK dims hold it. */
bool CollapseView(std::vector<int64_t> *dims, std::vector<int64_t> *strides);
/* A host tensor's values (ConvertToTensor), in its dtype; NULL for any other tensor. */
const std::vector<unsigned char> *HostValues(aclOpExecutor *executor, const aclTensor *t);
/* The name DFX_IN/DFX_OUT recorded for `t` on this thread, or "tensor". */
const char *NameOf(const aclTensor *t);
} // namespace mg
} // namespace op

#endif
