/* exe_graph/runtime/storage_shape.h: gert::StorageShape, an origin and a storage shape. */
#ifndef MG_GERT_STORAGE_SHAPE_H_
#define MG_GERT_STORAGE_SHAPE_H_

#include "exe_graph/runtime/shape.h"

namespace gert {
class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape &GetOriginShape() const { return origin_; }
    const Shape &GetStorageShape() const { return storage_; }
    Shape &MutableOriginShape() { return origin_; }
    Shape &MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape &o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape &o) const { return !(*this == o); }

private:
    Shape origin_, storage_;
};
} // namespace gert

#endif
