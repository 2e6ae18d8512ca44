// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared receive queues: one receive ring mapped from the uverbs fd, filled
// by post_srq_recv without a system call.
#include <cerrno>
#include <mutex>

#include "mrc-abi.h"
#include "mrc_lock.h"
#include "mrc_mapping.h"
#include "mrc_post.h"
#include "mrc_provider.h"
#include "mrc_wqe.h"

namespace mrc {
namespace {

struct Srq {
    ibv_srq srq;  // what libibverbs sees; filled by ibv_cmd_create_srq
    SpinLock lock;
    MappedRing ring;
    uint32_t max_sge;  // granted at create; posts beyond it fail
};

Srq* to_srq(ibv_srq* srq) noexcept {
    return container_of<Srq>(srq, offsetof(Srq, srq));
}

using SrqResp = DriverResp<ib_uverbs_create_srq_resp, mrc_create_srq_resp>;

}  // namespace

ibv_srq* create_srq(ibv_pd* pd, ibv_srq_init_attr* attr) noexcept {
    ObjPtr<Srq> srq = make_object<Srq>();
    if (!srq) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_create_srq cmd {};  // "struct": ibv_create_srq is also a function
    SrqResp resp;
    int ret = ibv_cmd_create_srq(pd, &srq->srq, attr, &cmd, sizeof(cmd), resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }

    // ibv_cmd_create_srq copied the granted max_wr and max_sge into attr.
    mrc_ring_info info = resp.driver().ring;
    ret = check_recv_queue(info, attr->attr.max_wr, attr->attr.max_sge);
    if (ret == 0) {
        ret = map_ring(pd->context->cmd_fd, info, sizeof(mrc_recv_wqe), srq->ring);
    }
    if (ret == 0) {
        srq->ring.ring.limit_depth(attr->attr.max_wr);
        srq->max_sge = attr->attr.max_sge;
    }
    if (ret != 0) {
        ibv_cmd_destroy_srq(&srq->srq);
        errno = ret;
        return nullptr;
    }
    return &srq.release()->srq;
}

int modify_srq(ibv_srq* srq, ibv_srq_attr* attr, int attr_mask) noexcept {
    // Growing the ring would need a new mapping, and modify_srq has no
    // response to describe one: only the limit can change.
    if ((attr_mask & IBV_SRQ_MAX_WR) != 0) {
        return EOPNOTSUPP;
    }
    struct ibv_modify_srq cmd {};
    return ibv_cmd_modify_srq(srq, attr, attr_mask, &cmd, sizeof(cmd));
}

int query_srq(ibv_srq* srq, ibv_srq_attr* attr) noexcept {
    struct ibv_query_srq cmd {};
    return ibv_cmd_query_srq(srq, attr, &cmd, sizeof(cmd));
}

int destroy_srq(ibv_srq* ibsrq) noexcept {
    int ret = ibv_cmd_destroy_srq(ibsrq);
    if (ret != 0) {
        return ret;  // the kernel still holds the SRQ and its ring
    }
    ObjPtr<Srq> srq(to_srq(ibsrq));  // unmaps the ring, frees the object
    return 0;
}

int post_srq_recv(ibv_srq* ibsrq, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) noexcept {
    Srq* srq = to_srq(ibsrq);
    uint32_t max_sge = srq->max_sge;
    std::lock_guard<SpinLock> guard(srq->lock);
    return post_to_ring(srq->ring.ring, wr, bad_wr,
                        [max_sge](const ibv_recv_wr& w, Slot slot) {
                            return build_recv_wqe(w, max_sge, slot);
                        })
        .err;
}

}  // namespace mrc
