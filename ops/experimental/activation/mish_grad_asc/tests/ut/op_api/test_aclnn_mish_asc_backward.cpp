// aclnnMishAscBackward's op_api UT (the project's harness: TestPrecision runs the twin's
// kernel and compares with grad * mish'(x) in float64). Every dtype, strides, refusals.
#include "gtest/gtest.h"

#include "../../../op_host/op_api/aclnn_mish_asc_backward.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/tensor_desc.h"

class l2_mish_asc_backward_test : public testing::Test {};

TEST_F(l2_mish_asc_backward_test, float32_values)
{
    auto g = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-2, 2);
    auto x = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-20, 20);
    auto out = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).Precision(1e-5, 1e-4);
    auto ut = OP_API_UT(aclnnMishAscBackward, INPUT(g, x), OUTPUT(out));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_backward_test, float16_values)
{
    auto g = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-1, 1);
    auto x = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-8, 8);
    auto out = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).Precision(1e-3, 2e-3);
    auto ut = OP_API_UT(aclnnMishAscBackward, INPUT(g, x), OUTPUT(out));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_backward_test, bfloat16_values)
{
    auto g = TensorDesc({3, 129}, ACL_BF16, ACL_FORMAT_ND).ValueRange(-1, 1);
    auto x = TensorDesc({3, 129}, ACL_BF16, ACL_FORMAT_ND).ValueRange(-8, 8);
    auto out = TensorDesc({3, 129}, ACL_BF16, ACL_FORMAT_ND).Precision(1e-2, 1e-2);
    auto ut = OP_API_UT(aclnnMishAscBackward, INPUT(g, x), OUTPUT(out));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_backward_test, strided)
{
    auto g = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).ValueRange(-2, 2);
    auto x = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-4, 4);
    auto out = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).Precision(1e-5, 1e-4);
    auto ut = OP_API_UT(aclnnMishAscBackward, INPUT(g, x), OUTPUT(out));
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_backward_test, empty)
{
    auto e = TensorDesc({0, 3}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnMishAscBackward, INPUT(e, e), OUTPUT(e));
    uint64_t ws = 1;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    EXPECT_EQ(ws, 0u);
    ut.TestPrecision();
}

TEST_F(l2_mish_asc_backward_test, refusals)
{
    auto f = TensorDesc({2, 3}, ACL_FLOAT, ACL_FORMAT_ND);
    uint64_t ws = 0;
    auto a = OP_API_UT(aclnnMishAscBackward, INPUT(f, nullptr), OUTPUT(f));
    EXPECT_EQ(a.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
    auto b = OP_API_UT(aclnnMishAscBackward, INPUT(f, f), OUTPUT(nullptr));
    EXPECT_EQ(b.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
    auto d = TensorDesc({2, 3}, ACL_DOUBLE, ACL_FORMAT_ND);
    auto c = OP_API_UT(aclnnMishAscBackward, INPUT(d, d), OUTPUT(d));
    EXPECT_EQ(c.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto h = TensorDesc({2, 3}, ACL_FLOAT16, ACL_FORMAT_ND);
    auto mixed = OP_API_UT(aclnnMishAscBackward, INPUT(f, h), OUTPUT(f));
    EXPECT_EQ(mixed.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto other = TensorDesc({2, 2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto shape = OP_API_UT(aclnnMishAscBackward, INPUT(f, f), OUTPUT(other));
    EXPECT_EQ(shape.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
}
