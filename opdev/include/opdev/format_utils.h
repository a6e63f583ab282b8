/* opdev/format_utils.h: format helpers. Only ND-like formats are modelled: the private
   (fractal, C0-split) formats are recognised, never converted. */
#ifndef MG_OPDEV_FORMAT_UTILS_H_
#define MG_OPDEV_FORMAT_UTILS_H_

#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"

namespace op {
inline bool IsPrivateFormat(Format f)
{
    switch (f) {
    case Format::FORMAT_NC1HWC0: case Format::FORMAT_FRACTAL_Z: case Format::FORMAT_FRACTAL_NZ:
    case Format::FORMAT_NDC1HWC0: case Format::FORMAT_FRACTAL_Z_3D: case Format::FORMAT_C1HWNCoC0:
    case Format::FORMAT_NC1HWC0_C04: case Format::FORMAT_FRACTAL_Z_C04: return true;
    default: return false;
    }
}
inline Format GetPrimaryFormat(Format f) { return static_cast<Format>(static_cast<int32_t>(f) & 0xff); }
inline MgString ToString(Format f) { return MgString("FORMAT_" + std::to_string(static_cast<int>(f))); }
} // namespace op

#endif
