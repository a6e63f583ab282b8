/*
 * kernel_operator.h: CANN's AscendC kernel programming interface, on the twin (docs/
 * ascendc_twin.md, "The kernel API face"). A kernel written for the NPU compiles unchanged
 * as C++17; each API call maps onto one call of the vector core model in C (asc_twin/vec.h,
 * the block and queue state of ascendc/core), where the rules and the numbers live.
 */
#ifndef ASC_FACE_KERNEL_OPERATOR_H_
#define ASC_FACE_KERNEL_OPERATOR_H_

#include <initializer_list>

#include "asc_face/control.h"
#include "asc_face/ops.h"
#include "asc_face/pipe.h"
#include "asc_face/tensor.h"
#include "asc_face/types.h"
#include "kernel_tiling/kernel_tiling.h"

#endif // ASC_FACE_KERNEL_OPERATOR_H_
