// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Queue pairs: work requests go into rings mapped from the uverbs fd. A
// post_send call publishes its batch and rings the kernel's doorbell once;
// post_recv only publishes, the kernel reads the ring when data arrives.
#include <cerrno>
#include <mutex>

#include "mrc-abi.h"
#include "mrc_env.h"
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
    SendCaps send_caps;  // granted at create; posts beyond them fail
    SpinLock rq_lock;
    MappedRing rq;  // empty when the QP receives through an SRQ
    uint32_t max_recv_sge;
};

Qp* to_qp(ibv_qp* qp) noexcept {
    verbs_qp* vqp = container_of<verbs_qp>(qp, offsetof(verbs_qp, qp));
    return container_of<Qp>(vqp, offsetof(Qp, vqp));
}

using QpResp = DriverResp<ib_uverbs_create_qp_resp, mrc_create_qp_resp>;

// The create command followed by its driver input, as ibv_cmd_create_qp
// sends a command longer than the core's.
struct QpCmd {
    struct ibv_create_qp core;
    mrc_qp_profile_cmd profiles;
};
static_assert(offsetof(QpCmd, profiles) == sizeof(struct ibv_create_qp),
              "no padding before driver input");

// Checks the queues a create reply describes against the caps it grants
// (ibv_cmd_create_qp copied them into cap): a send ring always, a receive
// ring exactly when the QP has no SRQ. 0 or EPROTO.
int check_queues(const mrc_create_qp_resp& info, const ibv_qp_cap& cap, bool has_srq) noexcept {
    SendCaps send{cap.max_send_sge, cap.max_inline_data};
    if (check_send_queue(info.sq, cap.max_send_wr, send) != 0) {
        return EPROTO;
    }
    if (has_srq) {
        return info.rq.num_slots == 0 ? 0 : EPROTO;
    }
    return check_recv_queue(info.rq, cap.max_recv_wr, cap.max_recv_sge);
}

// Maps the queues of a checked reply and records the caps posts obey.
int map_queues(int fd, const mrc_create_qp_resp& info, const ibv_qp_cap& cap, Qp& qp) noexcept {
    int ret = map_ring(fd, info.sq, sizeof(mrc_send_wqe), qp.sq);
    if (ret != 0) {
        return ret;
    }
    qp.sq.ring.limit_depth(cap.max_send_wr);
    qp.send_caps = {cap.max_send_sge, cap.max_inline_data};
    if (info.rq.num_slots == 0) {
        return 0;
    }
    ret = map_ring(fd, info.rq, sizeof(mrc_recv_wqe), qp.rq);
    if (ret != 0) {
        return ret;
    }
    qp.rq.ring.limit_depth(cap.max_recv_wr);
    qp.max_recv_sge = cap.max_recv_sge;
    return 0;
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

    // MRC_EV_PROFILE / MRC_CC_PROFILE point unmodified programs at the
    // control plane's profiles (mrc-ip evprofile, ccprofile).
    QpCmd cmd{};
    mrc_qp_profile_cmd& p = cmd.profiles;
    int ret = qp_profiles_from_env(p);
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    QpResp resp;
    // Without a profile the driver input stays empty, as older kernels want.
    size_t cmd_size = p.flags != 0 ? sizeof(cmd) : sizeof(cmd.core);
    ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd.core, cmd_size, resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }

    // The caps the kernel granted are what the program now sees in
    // attr->cap; posts are held to exactly those.
    ret = check_queues(resp.driver(), attr->cap, attr->srq != nullptr);
    if (ret == 0) {
        ret = map_queues(pd->context->cmd_fd, resp.driver(), attr->cap, *qp);
    }
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
    Qp* qp = to_qp(ibqp);
    const SendCaps& caps = qp->send_caps;
    const bool ud = ibqp->qp_type == IBV_QPT_UD;
    PostResult res;
    {
        std::lock_guard<SpinLock> guard(qp->sq_lock);
        res = post_to_ring(qp->sq.ring, wr, bad_wr, [&caps, ud](const ibv_send_wr& w, Slot slot) {
            return ud ? build_ud_send_wqe(w, caps, ah_number(w.wr.ud.ah), slot)
                      : build_send_wqe(w, caps, slot);
        });
    }
    if (res.posted == 0) {
        return res.err;
    }
    return finish_doorbell(res, ring_doorbell(ibqp), wr, bad_wr);
}

int post_recv(ibv_qp* ibqp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) noexcept {
    if (ibqp->srq != nullptr && wr != nullptr) {
        *bad_wr = wr;  // receives of this QP are posted to its SRQ
        return EINVAL;
    }

    Qp* qp = to_qp(ibqp);
    uint32_t max_sge = qp->max_recv_sge;
    std::lock_guard<SpinLock> guard(qp->rq_lock);
    return post_to_ring(qp->rq.ring, wr, bad_wr,
                        [max_sge](const ibv_recv_wr& w, Slot slot) {
                            return build_recv_wqe(w, max_sge, slot);
                        })
        .err;
}

}  // namespace mrc
