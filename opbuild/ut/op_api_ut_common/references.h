/* op_api_ut_common/references.h: float64 references of elementwise aclnn APIs, by API
   name, for TestPrecision (formulas in references.cpp, written from each operator's
   documented definition). `in` holds the tensor inputs in INPUT order, `attrs` the
   numbers and scalars in INPUT order. */
#ifndef MG_OP_API_UT_REFERENCES_H_
#define MG_OP_API_UT_REFERENCES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace op_api_ut {
struct Reference {
    const char *api;
    double (*fn)(const double *in, const double *attrs, size_t attr_count);
};
const Reference *FindReference(const char *api);
/* Adds a reference for an API the table does not know (an operator's own UT may bring its
   formula); the pointer must outlive the tests. Later additions win. */
void AddReference(const Reference *reference);

/* A reference that is not elementwise (a softmax: each element depends on its whole row):
   it fills `out` (row-major, `out_shape`) from the first input's values, row-major in
   `in_shape`, and the attributes. Looked up when no elementwise reference has the name. */
struct TensorReference {
    const char *api;
    void (*fn)(const std::vector<double> &in, const std::vector<int64_t> &in_shape, const double *attrs,
               size_t attr_count, const std::vector<int64_t> &out_shape, std::vector<double> &out);
};
const TensorReference *FindTensorReference(const char *api);
} // namespace op_api_ut

#endif
