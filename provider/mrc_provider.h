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
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "verbs_provider_abi.h"

namespace mrc {

// Plain objects (context, PD, MR, AH) are created by calloc(), either by
// libibverbs (_verbs_init_and_alloc_context) or by us, and released by
// free(): they must be C-compatible aggregates that are valid when
// zero-filled. Objects with C++ members use make_object() below.
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

// Objects with C++ members (ring mappings, locks) come from calloc() too,
// constructed in place: the module then needs no operator new, so no
// libstdc++. The C struct libibverbs sees stays first and zero-filled.
struct DestroyDeleter {
    template <typename T>
    void operator()(T* p) const noexcept {
        p->~T();
        std::free(p);
    }
};

template <typename T>
using ObjPtr = std::unique_ptr<T, DestroyDeleter>;

// Value-initialised object owned by an ObjPtr; null on allocation failure.
template <typename T>
ObjPtr<T> make_object() noexcept {
    static_assert(std::is_standard_layout_v<T>, "container_of needs offsetof");
    static_assert(alignof(T) <= alignof(std::max_align_t));
    void* mem = std::calloc(1, sizeof(T));
    return ObjPtr<T>(mem != nullptr ? new (mem) T() : nullptr);
}

// A core uverbs response followed by the provider's driver data (the kernel
// driver's udata), laid out as the ibv_cmd_* helpers expect: they take
// core() and size() and write the core part; the kernel writes the rest.
template <typename Core, typename Driver>
class DriverResp {
    static_assert(sizeof(Core) % alignof(Driver) == 0, "driver data would be misaligned");

public:
    Core* core() noexcept { return reinterpret_cast<Core*>(buf_); }
    static constexpr size_t size() noexcept { return sizeof(buf_); }
    Driver driver() const noexcept {
        Driver d;
        std::memcpy(&d, buf_ + sizeof(Core), sizeof(d));
        return d;
    }

private:
    alignas(8) unsigned char buf_[sizeof(Core) + sizeof(Driver)] = {};
};

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

// mrc_verbs.cpp: device, port and protection domain verbs.
int query_device_ex(ibv_context* context, const ibv_query_device_ex_input* input,
                    ibv_device_attr_ex* attr, size_t attr_size) noexcept;
int query_port(ibv_context* context, uint8_t port_num, ibv_port_attr* port_attr) noexcept;
ibv_pd* alloc_pd(ibv_context* context) noexcept;
int dealloc_pd(ibv_pd* pd) noexcept;

// mrc_mr.cpp
ibv_mr* reg_mr(ibv_pd* pd, void* addr, size_t length, uint64_t hca_va, int access) noexcept;
int dereg_mr(verbs_mr* vmr) noexcept;
ibv_mw* alloc_mw(ibv_pd* pd, ibv_mw_type type) noexcept;
int dealloc_mw(ibv_mw* mw) noexcept;
int bind_mw(ibv_qp* qp, ibv_mw* mw, ibv_mw_bind* mw_bind) noexcept;

// mrc_ah.cpp
ibv_ah* create_ah(ibv_pd* pd, ibv_ah_attr* attr) noexcept;
int destroy_ah(ibv_ah* ah) noexcept;
// The number the kernel gave the AH, which a UD send names; 0 for null.
uint32_t ah_number(ibv_ah* ah) noexcept;

// mrc_cq.cpp (req_notify_cq is ibv_cmd_req_notify_cq itself)
ibv_cq* create_cq(ibv_context* context, int cqe, ibv_comp_channel* channel,
                  int comp_vector) noexcept;
// wc_flags as rxe accepts them (mrc_cqe.h), else EOPNOTSUPP.
ibv_cq_ex* create_cq_ex(ibv_context* context, ibv_cq_init_attr_ex* attr) noexcept;
int poll_cq(ibv_cq* cq, int num_entries, ibv_wc* wc) noexcept;
int resize_cq(ibv_cq* cq, int cqe) noexcept;
int destroy_cq(ibv_cq* cq) noexcept;

// mrc_qp.cpp
ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) noexcept;
// With IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, a QP with the ibv_wr_* interface.
ibv_qp* create_qp_ex(ibv_context* context, ibv_qp_init_attr_ex* attr) noexcept;
int query_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask, ibv_qp_init_attr* init_attr) noexcept;
int modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask) noexcept;
int destroy_qp(ibv_qp* qp) noexcept;
int post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr) noexcept;
int post_recv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) noexcept;

// mrc_srq.cpp
ibv_srq* create_srq(ibv_pd* pd, ibv_srq_init_attr* attr) noexcept;
int modify_srq(ibv_srq* srq, ibv_srq_attr* attr, int attr_mask) noexcept;
int query_srq(ibv_srq* srq, ibv_srq_attr* attr) noexcept;
int destroy_srq(ibv_srq* srq) noexcept;
int post_srq_recv(ibv_srq* srq, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) noexcept;

}  // namespace mrc

// The provider description, exported (like upstream providers' static-link
// alias) so tests can inspect the match table of the built module.
extern "C" __attribute__((visibility("default"))) const verbs_device_ops verbs_provider_mrc;

#endif  // MRC_PROVIDER_H
