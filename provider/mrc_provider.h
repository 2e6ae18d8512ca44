// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Internal types of the MRC libibverbs provider and the entry points shared
// between its files. Every object that libibverbs sees is a C struct that we
// embed first in our own struct; libibverbs hands the embedded struct back to
// us and we step out to the container.
#ifndef MRC_PROVIDER_H
#define MRC_PROVIDER_H

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <type_traits>

#include "verbs_provider_abi.h"

namespace mrc {

// Our objects are created by calloc(), either by libibverbs
// (_verbs_init_and_alloc_context) or by us, and released by free(): they must
// be plain C-compatible aggregates that are valid when zero-filled.
template <typename T>
constexpr bool kCObject = std::conjunction_v<std::is_standard_layout<T>, std::is_trivial<T>>;

struct FreeDeleter {
    void operator()(void* p) const noexcept { std::free(p); }
};

template <typename T>
using CPtr = std::unique_ptr<T, FreeDeleter>;

// Zeroed heap object owned by a CPtr; null on allocation failure.
template <typename T>
CPtr<T> calloc_object() noexcept {
    static_assert(kCObject<T>);
    return CPtr<T>(static_cast<T*>(std::calloc(1, sizeof(T))));
}

// Step from a member back to the object containing it.
template <typename Outer, typename Member>
Outer* container_of(Member* member, std::size_t offset) noexcept {
    return reinterpret_cast<Outer*>(reinterpret_cast<char*>(member) - offset);
}

struct Device {
    verbs_device vdev;  // must stay first: libibverbs frees nothing, we do
};
static_assert(kCObject<Device> && offsetof(Device, vdev) == 0);

struct Context {
    verbs_context vctx;  // libibverbs allocates Context and initialises this
};
static_assert(kCObject<Context>);

struct Pd {
    ibv_pd pd;
};
static_assert(kCObject<Pd>);

inline Context* to_context(ibv_context* ctx) noexcept {
    verbs_context* vctx = container_of<verbs_context>(ctx, offsetof(verbs_context, context));
    return container_of<Context>(vctx, offsetof(Context, vctx));
}

inline Pd* to_pd(ibv_pd* pd) noexcept {
    return container_of<Pd>(pd, offsetof(Pd, pd));
}

// mrc_context.cpp
verbs_context* alloc_context(ibv_device* ibdev, int cmd_fd, void* private_data) noexcept;

// mrc_verbs.cpp: the verbs implemented so far.
int query_device_ex(ibv_context* context, const ibv_query_device_ex_input* input,
                    ibv_device_attr_ex* attr, size_t attr_size) noexcept;
int query_port(ibv_context* context, uint8_t port_num, ibv_port_attr* port_attr) noexcept;
ibv_pd* alloc_pd(ibv_context* context) noexcept;
int dealloc_pd(ibv_pd* pd) noexcept;

}  // namespace mrc

// The provider description, exported (like upstream providers' static-link
// alias) so tests can inspect the match table of the built module.
extern "C" __attribute__((visibility("default"))) const verbs_device_ops verbs_provider_mrc;

#endif  // MRC_PROVIDER_H
