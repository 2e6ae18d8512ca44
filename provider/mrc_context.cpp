// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Device contexts: one per ibv_open_device(), holding the uverbs command fd
// and the table of verbs this provider implements.
#include <cerrno>
#include <utility>

#include "mrc-abi.h"
#include "mrc_provider.h"

namespace mrc {
namespace {

// Undo _verbs_init_and_alloc_context(): drop fds and the device reference,
// then the memory it calloc()ed for us.
void destroy_context(Context* ctx) noexcept {
    verbs_uninit_context(&ctx->vctx);
    std::free(ctx);
}

// Owns a half-built context until alloc_context() hands it to libibverbs.
class ContextGuard {
public:
    explicit ContextGuard(Context* ctx) noexcept : ctx_(ctx) {}
    ContextGuard(const ContextGuard&) = delete;
    ContextGuard& operator=(const ContextGuard&) = delete;
    ~ContextGuard() {
        if (ctx_ != nullptr) {
            int saved = errno;  // keep the failing command's errno for the caller
            destroy_context(ctx_);
            errno = saved;
        }
    }
    Context* get() const noexcept { return ctx_; }
    Context* release() noexcept { return std::exchange(ctx_, nullptr); }

private:
    Context* ctx_;
};

void free_context(ibv_context* ibctx) noexcept {
    destroy_context(to_context(ibctx));
}

// Verbs left NULL keep libibverbs' EOPNOTSUPP defaults. Built by assignment
// rather than designated initializers: C++17 has none for a 76-member table.
constexpr verbs_context_ops make_context_ops() {
    verbs_context_ops ops{};
    ops.alloc_mw = alloc_mw;
    ops.alloc_pd = alloc_pd;
    ops.bind_mw = bind_mw;
    ops.create_ah = create_ah;
    ops.create_cq = create_cq;
    ops.create_cq_ex = create_cq_ex;
    ops.create_qp = create_qp;
    ops.create_qp_ex = create_qp_ex;
    ops.create_srq = create_srq;
    ops.dealloc_mw = dealloc_mw;
    ops.dealloc_pd = dealloc_pd;
    ops.dereg_mr = dereg_mr;
    ops.destroy_ah = destroy_ah;
    ops.destroy_cq = destroy_cq;
    ops.destroy_qp = destroy_qp;
    ops.destroy_srq = destroy_srq;
    ops.free_context = free_context;
    ops.modify_qp = modify_qp;
    ops.modify_srq = modify_srq;
    ops.poll_cq = poll_cq;
    ops.post_recv = post_recv;
    ops.post_send = post_send;
    ops.post_srq_recv = post_srq_recv;
    ops.query_device_ex = query_device_ex;
    ops.query_port = query_port;
    ops.query_qp = query_qp;
    ops.query_srq = query_srq;
    ops.reg_mr = reg_mr;
    ops.req_notify_cq = ibv_cmd_req_notify_cq;  // the kernel arms the CQ
    ops.resize_cq = resize_cq;
    return ops;
}

constexpr verbs_context_ops kContextOps = make_context_ops();

}  // namespace

verbs_context* alloc_context(ibv_device* ibdev, int cmd_fd, void* /*private_data*/) noexcept {
    // libibverbs wants the offset of our verbs_context encoded as a pointer.
    auto* offset = reinterpret_cast<verbs_context*>(offsetof(Context, vctx));
    auto* raw = static_cast<Context*>(
        _verbs_init_and_alloc_context(ibdev, cmd_fd, sizeof(Context), offset, MRC_DRIVER_ID));
    if (raw == nullptr) {
        return nullptr;  // cmd_fd already closed, errno set
    }
    ContextGuard ctx(raw);

    // No driver-specific udata yet: the bare core command and response.
    ibv_get_context cmd{};
    ib_uverbs_get_context_resp resp{};
    int ret = ibv_cmd_get_context(&ctx.get()->vctx, &cmd, sizeof(cmd), &resp, sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }

    verbs_set_ops(&ctx.get()->vctx, &kContextOps);
    return &ctx.release()->vctx;
}

}  // namespace mrc
