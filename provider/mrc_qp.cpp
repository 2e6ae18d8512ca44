// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Queue pairs: work requests go into rings mapped from the uverbs fd. A
// post_send call publishes its batch and rings the kernel's doorbell once;
// post_recv only publishes, the kernel reads the ring when data arrives.
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

struct Qp {
    verbs_qp vqp;  // what libibverbs sees; filled by ibv_cmd_create_qp
    SpinLock sq_lock;
    MappedRing sq;
    SpinLock rq_lock;
    MappedRing rq;  // empty when the QP receives through an SRQ
};

Qp* to_qp(ibv_qp* qp) noexcept {
    verbs_qp* vqp = container_of<verbs_qp>(qp, offsetof(verbs_qp, qp));
    return container_of<Qp>(vqp, offsetof(Qp, vqp));
}

using QpResp = DriverResp<ib_uverbs_create_qp_resp, mrc_create_qp_resp>;

// Maps the queues the kernel describes; a ring with no slots is absent.
int map_queues(int fd, const mrc_create_qp_resp& info, Qp& qp) noexcept {
    int ret = 0;
    if (info.sq.num_slots != 0) {
        ret = map_ring(fd, info.sq, sizeof(mrc_send_wqe), qp.sq);
    }
    if (ret == 0 && info.rq.num_slots != 0) {
        ret = map_ring(fd, info.rq, sizeof(mrc_recv_wqe), qp.rq);
    }
    return ret;
}

// Tells the kernel the SQ has new work: an empty post_send command.
int ring_doorbell(ibv_qp* qp) noexcept {
    ibv_send_wr* unused = nullptr;
    return ibv_cmd_post_send(qp, nullptr, &unused);
}

}  // namespace

ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) noexcept {
    ObjPtr<Qp> qp = make_object<Qp>();
    if (!qp) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_create_qp cmd {};  // "struct": ibv_create_qp is also a function
    QpResp resp;
    int ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd, sizeof(cmd), resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }

    ret = map_queues(pd->context->cmd_fd, resp.driver(), *qp);
    if (ret != 0) {
        ibv_cmd_destroy_qp(&qp->vqp.qp);
        errno = ret;
        return nullptr;
    }
    return &qp.release()->vqp.qp;
}

int query_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask, ibv_qp_init_attr* init_attr) noexcept {
    struct ibv_query_qp cmd {};
    return ibv_cmd_query_qp(qp, attr, attr_mask, init_attr, &cmd, sizeof(cmd));
}

int modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask) noexcept {
    struct ibv_modify_qp cmd {};
    return ibv_cmd_modify_qp(qp, attr, attr_mask, &cmd, sizeof(cmd));
}

int destroy_qp(ibv_qp* ibqp) noexcept {
    int ret = ibv_cmd_destroy_qp(ibqp);
    if (ret != 0) {
        return ret;  // the kernel still holds the QP and its rings
    }
    ObjPtr<Qp> qp(to_qp(ibqp));  // unmaps the rings, frees the object
    return 0;
}

int post_send(ibv_qp* ibqp, ibv_send_wr* wr, ibv_send_wr** bad_wr) noexcept {
    // A send slot has no address handle, remote QPN or Q_Key: UD sends
    // cannot be expressed in the ring.
    if (ibqp->qp_type == IBV_QPT_UD && wr != nullptr) {
        *bad_wr = wr;
        return EINVAL;
    }

    Qp* qp = to_qp(ibqp);
    PostResult res;
    {
        std::lock_guard<SpinLock> guard(qp->sq_lock);
        res = post_to_ring(qp->sq.ring, wr, bad_wr, build_send_wqe);
    }
    if (res.posted == 0) {
        return res.err;
    }
    // The published requests stay posted whatever the doorbell says; a
    // failed doorbell is reported when nothing else failed.
    int db = ring_doorbell(ibqp);
    return res.err != 0 ? res.err : db;
}

int post_recv(ibv_qp* ibqp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) noexcept {
    if (ibqp->srq != nullptr && wr != nullptr) {
        *bad_wr = wr;  // receives of this QP are posted to its SRQ
        return EINVAL;
    }

    Qp* qp = to_qp(ibqp);
    std::lock_guard<SpinLock> guard(qp->rq_lock);
    return post_to_ring(qp->rq.ring, wr, bad_wr, build_recv_wqe).err;
}

}  // namespace mrc
