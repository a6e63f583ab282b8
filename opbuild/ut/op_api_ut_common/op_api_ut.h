/* op_api_ut_common/op_api_ut.h: the op_api UT harness (ops-nn's names: OP_API_UT, INPUT,
   OUTPUT, TestGetWorkspaceSize, TestPrecision), written for this project. Unlike CANN's,
   TestPrecision runs the operator: phase 1, a workspace of the size it reports, phase 2
   on a stream, the stream's synchronize, then every output element against a float64
   reference of the API (references.cpp) within the output description's Precision. A
   failed launch, a broken kernel rule (the synchronize's error), a missing reference or a
   value out of tolerance fails the test. */
#ifndef MG_OP_API_UT_H_
#define MG_OP_API_UT_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "gtest/gtest.h"
#include "op_api_ut_common/tensor_desc.h"
/* ops-nn's harness brings the op_api's types with it: its UTs write `using namespace op;` */
#include "opdev/common_types.h"

namespace op_api_ut {
/* One materialised argument list: the objects it created, and what the reference reads. */
struct Materialized {
    std::vector<aclTensor *> tensors;
    std::vector<aclScalar *> scalars;
    std::vector<aclIntArray *> arrays;
    std::vector<void *> memory;
    std::vector<std::vector<double>> input_values;   // each input tensor's view, row-major
    std::vector<std::vector<int64_t>> input_shapes;
    std::vector<double> attrs;                        // numbers and scalars, in order
    struct Output {
        const TensorDesc *desc;
        void *device;
        std::vector<int64_t> storage;
    };
    std::vector<Output> outputs;
    ~Materialized();
};
void EnsureRuntime();
aclTensor *MakeTensor(const TensorDesc &d, bool output, Materialized &m);
aclrtStream Stream();
/* Reads the outputs back and compares them with the reference of `api`. */
void Compare(const char *api, const Materialized &m);
std::string RecentError();
/* The same without consuming it: a UT may read it after TestGetWorkspaceSize. */
std::string PeekRecentError(int32_t status);

template <typename T> T Arg(T v, bool, Materialized &m)
{
    static_assert(std::is_arithmetic<T>::value || std::is_pointer<T>::value, "unsupported OP_API_UT argument");
    if constexpr (std::is_arithmetic<T>::value) m.attrs.push_back(static_cast<double>(v));
    return v;
}
inline std::nullptr_t Arg(std::nullptr_t, bool, Materialized &) { return nullptr; }
inline aclTensor *Arg(const TensorDesc &d, bool output, Materialized &m) { return MakeTensor(d, output, m); }
aclScalar *Arg(const ScalarDesc &d, bool output, Materialized &m);
aclIntArray *Arg(const std::vector<int64_t> &v, bool output, Materialized &m);

template <typename WsFn, typename RunFn, typename In, typename Out> class OpApiUt {
public:
    OpApiUt(const char *api, WsFn ws, RunFn run, In in, Out out)
        : api_(api), ws_(ws), run_(run), in_(std::move(in)), out_(std::move(out))
    {
        EnsureRuntime();
    }
    aclnnStatus TestGetWorkspaceSize(uint64_t *workspaceSize)
    {
        Materialized m;
        aclOpExecutor *executor = nullptr;
        aclnnStatus status = Phase1(m, workspaceSize, &executor);
        if (status == ACLNN_SUCCESS && executor != nullptr) {
            aclSetAclOpExecutorRepeatable(executor);
            aclDestroyAclOpExecutor(executor);
        }
        // the log says why (a negative UT expects the status; an unexpected one needs the reason)
        if (status != ACLNN_SUCCESS)
            std::printf("  (%s's GetWorkspaceSize returned %d: %s)\n", api_, static_cast<int>(status),
                        PeekRecentError(static_cast<int32_t>(status)).c_str());
        return status;
    }
    void TestPrecision()
    {
        Materialized m;
        uint64_t size = 0;
        aclOpExecutor *executor = nullptr;
        aclnnStatus status = Phase1(m, &size, &executor);
        ASSERT_EQ(status, ACLNN_SUCCESS) << api_ << " phase 1: " << RecentError();
        void *workspace = nullptr;
        if (size > 0) {
            ASSERT_EQ(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            m.memory.push_back(workspace);
        }
        status = run_(workspace, size, executor, Stream());
        ASSERT_EQ(status, ACLNN_SUCCESS) << api_ << " phase 2: " << RecentError();
        aclError sync = aclrtSynchronizeStream(Stream());
        ASSERT_EQ(sync, ACL_SUCCESS) << api_ << " on the stream: " << RecentError();
        Compare(api_, m);
    }

private:
    aclnnStatus Phase1(Materialized &m, uint64_t *size, aclOpExecutor **executor)
    {
        // a braced list: its elements are materialised left to right (the references
        // read inputs in INPUT order; make_tuple's arguments have no order)
        auto in = std::apply(
            [&m](const auto &...a) { return std::tuple<decltype(Arg(a, false, m))...>{Arg(a, false, m)...}; }, in_);
        auto out = std::apply(
            [&m](const auto &...a) { return std::tuple<decltype(Arg(a, true, m))...>{Arg(a, true, m)...}; }, out_);
        return std::apply(ws_, std::tuple_cat(in, out, std::make_tuple(size, executor)));
    }
    const char *api_;
    WsFn ws_;
    RunFn run_;
    In in_;
    Out out_;
};

template <typename WsFn, typename RunFn, typename In, typename Out>
OpApiUt<WsFn, RunFn, In, Out> MakeOpApiUt(const char *api, WsFn ws, RunFn run, In in, Out out)
{
    return OpApiUt<WsFn, RunFn, In, Out>(api, ws, run, std::move(in), std::move(out));
}
} // namespace op_api_ut

#define INPUT(...) std::make_tuple(__VA_ARGS__)
#define OUTPUT(...) std::make_tuple(__VA_ARGS__)
#define OP_API_UT(api, in, out) op_api_ut::MakeOpApiUt(#api, &api##GetWorkspaceSize, &api, in, out)

#endif
