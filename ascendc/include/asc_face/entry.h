/*
 * asc_face/entry.h: how a kernel function becomes a launchable instantiation. The core
 * calls an entry with the launch's GM_ADDR array (asc_twin/launch.h); the entry below sets
 * the block's tiling key (TILING_KEY_IS) and calls the kernel with the array's elements.
 * Used by the generated registration units (AscendcTwin.cmake) and by ICPU_RUN_KF.
 */
#ifndef ASC_FACE_ENTRY_H_
#define ASC_FACE_ENTRY_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "../../core/twin_block.h"
#include "asc_twin/face_state.h"
#include "asc_twin/launch.h"

namespace AscendC {

template <typename F> struct TwinKernelArity;
template <typename R, typename... P> struct TwinKernelArity<R (*)(P...)> {
    static constexpr int value = static_cast<int>(sizeof...(P));
};

// f(args[0], ..., args[n-1]), each converted to the parameter's pointer type.
template <typename R, typename... P, size_t... I>
inline void TwinCallKernel(R (*f)(P...), uint8_t *const *args, std::index_sequence<I...>)
{
    f(reinterpret_cast<P>(args[I])...);
}
template <typename R, typename... P> inline void TwinCallKernel(R (*f)(P...), uint8_t *const *args)
{
    TwinCallKernel(f, args, std::index_sequence_for<P...>{});
}

// The entry of one registered instantiation: F under tiling key Key.
template <auto F, uint64_t Key> void TwinEntry(uint8_t *const *args)
{
    asc_twin_face_set_block_key(Key);
    TwinCallKernel(F, args);
}

// What a generated extern "C" <kernel>(GM_ADDR...) does (the symbol ops-nn's kernel UTs
// declare and pass to ICPU_RUN_KF): run the instantiation registered for the key set by
// ICPU_SET_TILING_KEY, inside the block already running.
inline void TwinDispatch(const char *name, int nargs, uint8_t *const *args)
{
    const uint64_t key = asc_twin_face_icpu_key();
    const asc_twin_kernel *k = asc_twin_find(name, key);
    if (k == nullptr) {
        asc_twin_report("ICPU_RUN_KF", "no instantiation of %s is registered for tiling key %llu "
                        "(ICPU_SET_TILING_KEY; the ASCENDC_TPL_SEL list)", name, static_cast<unsigned long long>(key));
        return;
    }
    if (k->nargs != nargs) {
        asc_twin_report("ICPU_RUN_KF", "%s takes %d GM_ADDR arguments, %d given", name, k->nargs, nargs);
        return;
    }
    k->entry(args);
}

} // namespace AscendC

#define ASC_TWIN_CAT2_(a, b) a##b
#define ASC_TWIN_CAT_(a, b) ASC_TWIN_CAT2_(a, b)
// Registers the instantiation `...` (e.g. mish_grad_v2<half>) as (name, key), from a
// static initializer of the generated unit.
#define ASC_TWIN_REGISTER_KERNEL(name, key, ...)                                                                   \
    static const asc_twin_kernel ASC_TWIN_CAT_(ascTwinKernel_, __LINE__) = {                                       \
        name, key, AscendC::TwinKernelArity<decltype(&__VA_ARGS__)>::value, &AscendC::TwinEntry<&__VA_ARGS__, key>}; \
    static const int ASC_TWIN_CAT_(ascTwinRegistered_, __LINE__) =                                                  \
        asc_twin_register(&ASC_TWIN_CAT_(ascTwinKernel_, __LINE__));

#endif // ASC_FACE_ENTRY_H_
