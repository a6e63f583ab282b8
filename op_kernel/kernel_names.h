/*
 * op_kernel/kernel_names.h: how the kernels' names are made from an operator's name (op) and
 * an ISA variant's: <op>_kernel.h declares the table type <op>_kernels, <op>_body.h the
 * algorithm, <op>_kernels_<variant> is one table.
 */
#ifndef KERNEL_NAMES_H_
#define KERNEL_NAMES_H_

#define MG_KERNEL_STR2_(x) #x
#define MG_KERNEL_STR_(x) MG_KERNEL_STR2_(x)
#define MG_KERNEL_HEADER_(op) MG_KERNEL_STR_(op##_kernel.h)
#define MG_KERNEL_HEADER(op) MG_KERNEL_HEADER_(op)
#define MG_KERNEL_CAT2_(a, b) a##b
#define MG_KERNEL_CAT_(a, b) MG_KERNEL_CAT2_(a, b)
/* <op>_kernels, the table type, and <op>_kernels_<variant>, a table */
#define MG_KERNEL_TYPE(op) MG_KERNEL_CAT_(op, _kernels)
#define MG_KERNEL_TABLE_NAME(op, variant) MG_KERNEL_CAT_(MG_KERNEL_CAT_(op, _kernels_), variant)
#if defined(__GNUC__)
#define MG_KERNEL_WEAK_HIDDEN __attribute__((weak, visibility("hidden")))
#else
#define MG_KERNEL_WEAK_HIDDEN
#endif
#define MG_KERNEL_BODY_H_(op) MG_KERNEL_STR_(op##_body.h)
#define MG_KERNEL_BODY_H(op) MG_KERNEL_BODY_H_(op)
#define MG_KERNEL_SIMD_H_(v) MG_KERNEL_STR_(simd/mg_simd_##v.h)
#define MG_KERNEL_SIMD_H(v) MG_KERNEL_SIMD_H_(v)

#endif /* KERNEL_NAMES_H_ */
