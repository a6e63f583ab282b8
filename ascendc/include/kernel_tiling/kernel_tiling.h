/*
 * kernel_tiling/kernel_tiling.h: how a kernel reads its tiling data. The tiling argument
 * points at the bytes the host tiling wrote (a copy the launch owns); the structure is the
 * operator's own (REGISTER_TILING_DEFAULT names it). The tiling key of the instantiation
 * running is what TILING_KEY_IS compares against.
 */
#ifndef ASC_FACE_KERNEL_TILING_H_
#define ASC_FACE_KERNEL_TILING_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "asc_twin/face_state.h"

// Names the structure GET_TILING_DATA fills (a local alias in the kernel's body).
#define REGISTER_TILING_DEFAULT(Type) using AscTwinDefaultTilingType [[maybe_unused]] = Type
#define REGISTER_TILING_FOR_TILINGKEY(cond, Type)
#define GET_TILING_DATA_WITH_STRUCT(Type, name, tiling)                                                             \
    Type name;                                                                                                     \
    std::memcpy(static_cast<void *>(&(name)), reinterpret_cast<const void *>(tiling), sizeof(Type))
#define GET_TILING_DATA(name, tiling) GET_TILING_DATA_WITH_STRUCT(AscTwinDefaultTilingType, name, tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(Type, name, tiling) const Type *name = reinterpret_cast<const Type *>(tiling)
#define GET_TILING_DATA_MEMBER(Type, member, var, tiling)                                                           \
    decltype(Type::member) var;                                                                                    \
    std::memcpy(static_cast<void *>(&(var)), reinterpret_cast<const uint8_t *>(tiling) + offsetof(Type, member),   \
                sizeof(var))
#define TILING_KEY_IS(key) (asc_twin_face_block_key() == static_cast<uint64_t>(key))
#define TILING_KEY_LIST(...) (AscendC::TwinKeyIn(asc_twin_face_block_key(), {__VA_ARGS__}))

namespace AscendC {
inline bool TwinKeyIn(uint64_t key, std::initializer_list<uint64_t> keys)
{
    for (uint64_t k : keys)
        if (k == key) return true;
    return false;
}
} // namespace AscendC

#endif // ASC_FACE_KERNEL_TILING_H_
