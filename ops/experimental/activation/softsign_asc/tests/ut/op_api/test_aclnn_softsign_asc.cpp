// aclnnSoftsignAsc's op_api UT: the entry opbuild generates from the OpDef (there is no
// written op_api), on the project's harness (TestPrecision runs the per-dtype kernel on the
// twin and compares with the float64 softsign). Every dtype with strides, an empty tensor,
// and the refusals the generated entry takes from the definition (required tensors, a dtype
// combination it lists, the infershape's output shape).
#include "gtest/gtest.h"

#include "aclnn_softsign_asc.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/tensor_desc.h"

class l2_softsign_asc_test : public testing::Test {};

TEST_F(l2_softsign_asc_test, float32_large_values)
{
    auto x = TensorDesc({3, 1000}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-1e6, 1e6);
    auto y = TensorDesc({3, 1000}, ACL_FLOAT, ACL_FORMAT_ND).Precision(1e-6, 1e-6);
    auto ut = OP_API_UT(aclnnSoftsignAsc, INPUT(x), OUTPUT(y));
    ut.TestPrecision();
}

TEST_F(l2_softsign_asc_test, strided_input_and_output_every_dtype)
{
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    const double tolerance[] = {1e-6, 1e-3, 8e-3};
    for (int i = 0; i < 3; i++) {
        auto x = TensorDesc({5, 4}, types[i], ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).ValueRange(-8, 8);
        auto y = TensorDesc({5, 4}, types[i], ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).Precision(tolerance[i], tolerance[i]);
        auto ut = OP_API_UT(aclnnSoftsignAsc, INPUT(x), OUTPUT(y));
        ut.TestPrecision();
    }
}

TEST_F(l2_softsign_asc_test, empty)
{
    auto x = TensorDesc({2, 0}, ACL_FLOAT, ACL_FORMAT_ND);
    auto y = TensorDesc({2, 0}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnSoftsignAsc, INPUT(x), OUTPUT(y));
    uint64_t ws = 1;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
    EXPECT_EQ(ws, 0u);
    ut.TestPrecision();
}

TEST_F(l2_softsign_asc_test, refusals)
{
    auto f = TensorDesc({2, 3}, ACL_FLOAT, ACL_FORMAT_ND);
    uint64_t ws = 0;
    auto null_in = OP_API_UT(aclnnSoftsignAsc, INPUT(nullptr), OUTPUT(f));
    EXPECT_EQ(null_in.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
    auto null_out = OP_API_UT(aclnnSoftsignAsc, INPUT(f), OUTPUT(nullptr));
    EXPECT_EQ(null_out.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
    auto ints = TensorDesc({2, 3}, ACL_INT32, ACL_FORMAT_ND);
    auto bad_dtype = OP_API_UT(aclnnSoftsignAsc, INPUT(ints), OUTPUT(ints));
    EXPECT_EQ(bad_dtype.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto half = TensorDesc({2, 3}, ACL_FLOAT16, ACL_FORMAT_ND);
    auto mixed = OP_API_UT(aclnnSoftsignAsc, INPUT(f), OUTPUT(half));
    EXPECT_EQ(mixed.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    auto other = TensorDesc({3, 2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto shape = OP_API_UT(aclnnSoftsignAsc, INPUT(f), OUTPUT(other));
    EXPECT_EQ(shape.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(op_api_ut::RecentError().find("infershape"), std::string::npos) << op_api_ut::RecentError();
}
