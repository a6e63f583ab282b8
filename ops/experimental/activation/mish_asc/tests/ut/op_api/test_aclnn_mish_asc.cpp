// aclnnMishAsc's op_api UT (the project's harness: TestPrecision runs the twin's kernel
// and compares with the float64 mish). Every dtype, a strided input, the refusals.
#include "gtest/gtest.h"

#include "../../../op_host/op_api/aclnn_mish_asc.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/tensor_desc.h"

class l2_mish_asc_test : public testing::Test {};

TEST_F(l2_mish_asc_test, float32_values)
{
    auto x = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-20, 20);
    auto y = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).Precision(1e-5, 1e-4);
    auto ut = OP_API_UT(aclnnMishAsc, INPUT(x), OUTPUT(y));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_test, float16_values)
{
    auto x = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-8, 8);
    auto y = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).Precision(1e-3, 2e-3);
    auto ut = OP_API_UT(aclnnMishAsc, INPUT(x), OUTPUT(y));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_test, bfloat16_values)
{
    auto x = TensorDesc({3, 129}, ACL_BF16, ACL_FORMAT_ND).ValueRange(-8, 8);
    auto y = TensorDesc({3, 129}, ACL_BF16, ACL_FORMAT_ND).Precision(1e-2, 1e-2);
    auto ut = OP_API_UT(aclnnMishAsc, INPUT(x), OUTPUT(y));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_test, strided_input_and_output)
{
    auto x = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).ValueRange(-4, 4);
    auto y = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).Precision(1e-5, 1e-4);
    auto ut = OP_API_UT(aclnnMishAsc, INPUT(x), OUTPUT(y));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_test, empty)
{
    auto x = TensorDesc({2, 0}, ACL_FLOAT, ACL_FORMAT_ND);
    auto y = TensorDesc({2, 0}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnMishAsc, INPUT(x), OUTPUT(y));
    uint64_t ws = 1;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    EXPECT_EQ(ws, 0u);
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_test, refusals)
{
    auto f = TensorDesc({2, 3}, ACL_FLOAT, ACL_FORMAT_ND);
    uint64_t ws = 0;
    auto null_in = OP_API_UT(aclnnMishAsc, INPUT(nullptr), OUTPUT(f));
    EXPECT_EQ(null_in.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
    auto ints = TensorDesc({2, 3}, ACL_INT32, ACL_FORMAT_ND);
    auto bad_dtype = OP_API_UT(aclnnMishAsc, INPUT(ints), OUTPUT(ints));
    EXPECT_EQ(bad_dtype.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto half = TensorDesc({2, 3}, ACL_FLOAT16, ACL_FORMAT_ND);
    auto mixed = OP_API_UT(aclnnMishAsc, INPUT(f), OUTPUT(half));
    EXPECT_EQ(mixed.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto other = TensorDesc({3, 2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto shape = OP_API_UT(aclnnMishAsc, INPUT(f), OUTPUT(other));
    EXPECT_EQ(shape.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto rank9 = TensorDesc({1, 2, 1, 2, 1, 2, 1, 2, 1}, ACL_FLOAT, ACL_FORMAT_ND);
    auto deep = OP_API_UT(aclnnMishAsc, INPUT(rank9), OUTPUT(rank9));
    EXPECT_EQ(deep.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
}
