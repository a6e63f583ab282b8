/*
 * tests/ut/ops/ut_op_list.h: THE list of the operators the API unit tests run, one line per
 * operator: its header (tests/ut/ops/ut_op_<op>.h), which defines its ut_ops and lists each
 * with UT_OP_LISTED (tests/ut/ut_ops.h). The contract tests, the bit-identity test and the
 * product-table test loop over them (UT_OPS, UT_OP_COUNT), in the order listed here.
 */
#include "ops/ut_op_mish_backward.h"
#include "ops/ut_op_mish.h"
