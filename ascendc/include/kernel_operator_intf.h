/*
 * kernel_operator_intf.h: CANN's name for the kernel API's interface header; on the twin the
 * same face as kernel_operator.h.
 */
#ifndef ASC_FACE_KERNEL_OPERATOR_INTF_H_
#define ASC_FACE_KERNEL_OPERATOR_INTF_H_
#include "kernel_operator.h"
#endif
