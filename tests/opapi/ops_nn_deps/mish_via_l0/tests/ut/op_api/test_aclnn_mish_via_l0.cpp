// aclnnMishViaL0 through phase 2: the other directory's l0 op, its tiling and its kernel on
// the twin, against the float64 mish (opbuild/ut/references.cpp).
#include "gtest/gtest.h"

#include "../../../op_host/op_api/aclnn_mish_via_l0.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/tensor_desc.h"

class l2_mish_via_l0_test : public testing::Test {};

TEST_F(l2_mish_via_l0_test, float32_values)
{
    auto x = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-20, 20);
    auto y = TensorDesc({4, 33, 7}, ACL_FLOAT, ACL_FORMAT_ND).Precision(1e-5, 1e-4);
    auto ut = OP_API_UT(aclnnMishViaL0, INPUT(x), OUTPUT(y));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    ut.TestPrecision();
}

TEST_F(l2_mish_via_l0_test, float16_values)
{
    auto x = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-8, 8);
    auto y = TensorDesc({1000}, ACL_FLOAT16, ACL_FORMAT_ND).Precision(1e-3, 2e-3);
    auto ut = OP_API_UT(aclnnMishViaL0, INPUT(x), OUTPUT(y));
    ut.TestPrecision();
}
