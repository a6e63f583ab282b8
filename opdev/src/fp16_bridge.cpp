// opdev/src/fp16_bridge.cpp: the l0 kernels (C) convert float16 with op::fp16_t's own
// functions, so host helpers and the l0 Cast cannot disagree on a rounding.
#include "aclnn/opdev/fp16_t.h"
#include "l0_kernels.h"

extern "C" uint16_t mg_half_from_double(double value) { return op::fp16_detail::FromDouble(value); }

extern "C" double mg_half_to_double(uint16_t bits) { return op::fp16_detail::ToDouble(bits); }
