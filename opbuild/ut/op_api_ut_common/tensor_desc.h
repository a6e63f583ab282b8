/* op_api_ut_common/tensor_desc.h: the op_api UT harness's tensor description (ops-nn's
   names: TensorDesc(shape, dtype, format[, strides, offset, storage shape]).ValueRange()
   .Precision()), written for this project: each description becomes a real aclTensor over
   aclrtMalloc'd storage filled with seeded random values in its range. */
#ifndef MG_OP_API_UT_TENSOR_DESC_H_
#define MG_OP_API_UT_TENSOR_DESC_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "acl/acl.h"

class TensorDesc {
public:
    TensorDesc(std::vector<int64_t> shape, aclDataType dtype, aclFormat format, std::vector<int64_t> strides = {},
               int64_t offset = 0, std::vector<int64_t> storage = {})
        : shape_(std::move(shape)), dtype_(dtype), format_(format), strides_(std::move(strides)), offset_(offset),
          storage_(std::move(storage))
    {
    }
    TensorDesc &ValueRange(double lo, double hi)
    {
        lo_ = lo;
        hi_ = hi;
        return *this;
    }
    TensorDesc &Precision(double atol, double rtol)
    {
        atol_ = atol;
        rtol_ = rtol;
        return *this;
    }
    /* Explicit values (the view's elements in row-major order). */
    TensorDesc &Value(std::vector<double> v)
    {
        values_ = std::move(v);
        return *this;
    }
    /* the same from a vector of another arithmetic type (ops-nn's UTs pass vector<float>) */
    template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value && !std::is_same<T, double>::value>>
    TensorDesc &Value(const std::vector<T> &v)
    {
        values_.assign(v.begin(), v.end());
        return *this;
    }

    std::vector<int64_t> shape_;
    aclDataType dtype_;
    aclFormat format_;
    std::vector<int64_t> strides_;
    int64_t offset_;
    std::vector<int64_t> storage_;
    double lo_ = -1.0, hi_ = 1.0;
    double atol_ = 1e-4, rtol_ = 1e-4;
    std::vector<double> values_;
};

/* A scalar argument (aclScalar) of an op_api call. */
class ScalarDesc {
public:
    template <typename T> ScalarDesc(T v, aclDataType dtype) : value_(static_cast<double>(v)), dtype_(dtype) {}
    /* ops-nn's UTs also give the value alone: its C++ type names the dtype */
    template <typename T> explicit ScalarDesc(T v) : value_(static_cast<double>(v)), dtype_(DtypeOf<T>()) {}
    double value_;
    aclDataType dtype_;

private:
    template <typename T> static constexpr aclDataType DtypeOf()
    {
        return std::is_same<T, bool>::value            ? ACL_BOOL
               : std::is_same<T, float>::value         ? ACL_FLOAT
               : std::is_same<T, double>::value        ? ACL_DOUBLE
               : std::is_integral<T>::value && sizeof(T) == 8 ? ACL_INT64
                                                       : ACL_INT32;
    }
};

#endif
