// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Memory regions and windows: the kernel pins, keys and binds them; the
// provider carries the core commands, keeps libibverbs' objects, and posts
// a type 1 window's bind as the send work request IB defines it to be.
#include <cerrno>

#include "mrc_provider.h"

namespace mrc {

ibv_mr* reg_mr(ibv_pd* pd, void* addr, size_t length, uint64_t hca_va, int access) noexcept {
    CPtr<verbs_mr> vmr = calloc_object<verbs_mr>();
    if (!vmr) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_reg_mr cmd {};  // "struct": ibv_reg_mr is also a macro-wrapped function
    ib_uverbs_reg_mr_resp resp{};
    int ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr.get(), &cmd, sizeof(cmd), &resp,
                             sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return &vmr.release()->ibv_mr;
}

int dereg_mr(verbs_mr* vmr) noexcept {
    int ret = ibv_cmd_dereg_mr(vmr);
    if (ret != 0) {
        return ret;  // the kernel still holds the MR; keep our copy too
    }
    std::free(vmr);
    return 0;
}

ibv_mw* alloc_mw(ibv_pd* pd, ibv_mw_type type) noexcept {
    CPtr<ibv_mw> mw = calloc_object<ibv_mw>();
    if (!mw) {
        errno = ENOMEM;
        return nullptr;
    }
    struct ibv_alloc_mw cmd {};  // "struct": ibv_alloc_mw is also a function
    ib_uverbs_alloc_mw_resp resp{};
    int ret = ibv_cmd_alloc_mw(pd, type, mw.get(), &cmd, sizeof(cmd), &resp, sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return mw.release();
}

int dealloc_mw(ibv_mw* mw) noexcept {
    int ret = ibv_cmd_dealloc_mw(mw);
    if (ret != 0) {
        return ret;  // the kernel still holds the window; keep our copy too
    }
    std::free(mw);
    return 0;
}

// ibv_bind_mw (type 1; libibverbs has checked the type and the MR's PD): an
// IBV_WR_BIND_MW with the window's next key, which the window takes once
// posted. The completion says whether the bind took effect, as on rxe.
int bind_mw(ibv_qp* qp, ibv_mw* mw, ibv_mw_bind* mw_bind) noexcept {
    ibv_send_wr wr{};
    wr.wr_id = mw_bind->wr_id;
    wr.opcode = IBV_WR_BIND_MW;
    wr.send_flags = mw_bind->send_flags;
    wr.bind_mw.mw = mw;
    wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
    wr.bind_mw.bind_info = mw_bind->bind_info;
    ibv_send_wr* bad = nullptr;
    int ret = post_send(qp, &wr, &bad);
    if (ret == 0) {
        mw->rkey = wr.bind_mw.rkey;
    }
    return ret;
}

}  // namespace mrc
