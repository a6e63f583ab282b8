/* opdev/op_def.h: OP_TYPE_REGISTER. The op type is carried by name: the launch macro
   stringifies it, and opbuild finds the tiling and kernel by that name. */
#ifndef MG_OPDEV_OP_DEF_H_
#define MG_OPDEV_OP_DEF_H_

#include "opdev/common_types.h"

#define OP_TYPE_REGISTER(op_type) \
    [[maybe_unused]] static constexpr const char *mg_op_type_##op_type = #op_type

#endif
