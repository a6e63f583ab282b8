/* register/tilingdata_base.h: the older way of declaring an operator's tiling data
   (metadef's macro names): BEGIN_TILING_DATA_DEF(Name) ... TILING_DATA_FIELD_DEF(type, field)
   ... END_TILING_DATA_DEF declares a class with set_<field>/get_<field>, SaveToBuffer and
   GetDataSize. Here the class's fields are its only data, in declaration order, so its bytes
   are those of the plain struct with the same fields: the struct opbuild generates for the
   kernel from the same declaration (CANN's build does the same), which the kernel reads
   with GET_TILING_DATA. */
#ifndef MG_REGISTER_TILINGDATA_BASE_H_
#define MG_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "register/op_impl_registry.h"

namespace optiling {
/* The base of every declared tiling data class (empty: the derived class's first field
   starts at offset 0). */
template <typename Derived> class MgTilingDef {
public:
    /* Copies the fields into `buffer` (nothing when it holds fewer than GetDataSize bytes). */
    void SaveToBuffer(void *buffer, size_t capacity) const
    {
        if (buffer != nullptr && capacity >= sizeof(Derived))
            std::memcpy(buffer, static_cast<const Derived *>(this), sizeof(Derived));
    }
    size_t GetDataSize() const { return sizeof(Derived); }
};
} // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name) \
    class class_name : public optiling::MgTilingDef<class_name> { \
    public:
#define TILING_DATA_FIELD_DEF(data_type, field_name)                      \
    data_type field_name = 0;                                             \
    void set_##field_name(data_type value) { field_name = value; }        \
    data_type get_##field_name() const { return field_name; }
#define TILING_DATA_FIELD_DEF_ARR(data_type, arr_size, field_name)                       \
    data_type field_name[arr_size] = {};                                                 \
    void set_##field_name(const data_type *value)                                        \
    {                                                                                    \
        if (value != nullptr) std::memcpy(field_name, value, sizeof(field_name));        \
    }                                                                                    \
    data_type *get_##field_name() { return field_name; }
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) \
    struct_type field_name;                                   \
    struct_type &get_##field_name() { return field_name; }
#define END_TILING_DATA_DEF }
/* The class an operator type's tiling writes: the kernel-side struct is generated from the
   declaration itself, so the registration records nothing here. */
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)
#endif
