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
#include "mrc_wr.h"

namespace mrc {
namespace {

struct Qp {
    verbs_qp vqp;  // what libibverbs sees; filled by ibv_cmd_create_qp
    SpinLock sq_lock;
    MappedRing sq;
    SendCaps send_caps;  // granted at create; posts beyond them fail
    WrSession wr;        // ibv_wr_* session, under sq_lock
    SpinLock rq_lock;
    MappedRing rq;  // empty when the QP receives through an SRQ
    uint32_t max_recv_sge;
};

Qp* to_qp(ibv_qp* qp) noexcept {
    verbs_qp* vqp = container_of<verbs_qp>(qp, offsetof(verbs_qp, qp));
    return container_of<Qp>(vqp, offsetof(Qp, vqp));
}

Qp* to_qp(ibv_qp_ex* qp) noexcept {
    verbs_qp* vqp = container_of<verbs_qp>(qp, offsetof(verbs_qp, qp_ex));
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

namespace {

// What a create command sends and what its reply describes.
struct QpCreate {
    QpCmd cmd{};
    size_t cmd_size = 0;
    QpResp resp;
};

// The driver input: the profiles the environment names, if any.
int prepare_create(QpCreate& c) noexcept {
    // MRC_EV_PROFILE / MRC_CC_PROFILE point unmodified programs at the
    // control plane's profiles (mrc-ip evprofile, ccprofile).
    int ret = qp_profiles_from_env(c.cmd.profiles);
    // Without a profile the driver input stays empty, as older kernels want.
    c.cmd_size = c.cmd.profiles.flags != 0 ? sizeof(c.cmd) : sizeof(c.cmd.core);
    return ret;
}

// After the kernel created the QP: check and map its queues. The caps the
// kernel granted are what the program now sees in cap; posts are held to
// exactly those. On failure the QP is destroyed again.
int finish_create(int fd, const QpCreate& c, const ibv_qp_cap& cap, bool has_srq, Qp& qp) noexcept {
    int ret = check_queues(c.resp.driver(), cap, has_srq);
    if (ret == 0) {
        ret = map_queues(fd, c.resp.driver(), cap, qp);
    }
    if (ret != 0) {
        ibv_cmd_destroy_qp(&qp.vqp.qp);
    }
    return ret;
}

}  // namespace

ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) noexcept {
    ObjPtr<Qp> qp = make_object<Qp>();
    if (!qp) {
        errno = ENOMEM;
        return nullptr;
    }
    QpCreate c;
    int ret = prepare_create(c);
    if (ret == 0) {
        ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &c.cmd.core, c.cmd_size, c.resp.core(),
                                c.resp.size());
        if (ret == 0) {
            ret = finish_create(pd->context->cmd_fd, c, attr->cap, attr->srq != nullptr, *qp);
        }
    }
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return &qp.release()->vqp.qp;
}

namespace {

// The ibv_wr_* entry points: each forwards to the QP's WrSession.
void wr_start(ibv_qp_ex* ibqp) noexcept {
    Qp* qp = to_qp(ibqp);
    qp->sq_lock.lock();  // held until wr_complete or wr_abort
    qp->wr.start(qp->sq.ring, qp->send_caps, ibqp->qp_base.qp_type == IBV_QPT_UD);
}

int wr_complete(ibv_qp_ex* ibqp) noexcept {
    Qp* qp = to_qp(ibqp);
    int ret = qp->wr.complete();
    uint32_t published = qp->wr.published();
    qp->sq_lock.unlock();
    if (ret != 0 || published == 0) {
        return ret;
    }
    return ring_doorbell(&ibqp->qp_base);
}

void wr_abort(ibv_qp_ex* ibqp) noexcept {
    Qp* qp = to_qp(ibqp);
    qp->wr.abort();
    qp->sq_lock.unlock();
}

void begin(ibv_qp_ex* ibqp, ibv_wr_opcode op, const SendOperands& operands) noexcept {
    to_qp(ibqp)->wr.begin(ibqp->wr_id, ibqp->wr_flags, op, operands);
}

void wr_send(ibv_qp_ex* qp) noexcept {
    begin(qp, IBV_WR_SEND, {});
}

void wr_send_imm(ibv_qp_ex* qp, __be32 imm_data) noexcept {
    SendOperands o;
    o.imm = imm_data;
    begin(qp, IBV_WR_SEND_WITH_IMM, o);
}

void wr_send_inv(ibv_qp_ex* qp, uint32_t invalidate_rkey) noexcept {
    SendOperands o;
    o.imm = invalidate_rkey;
    begin(qp, IBV_WR_SEND_WITH_INV, o);
}

void wr_rdma_write(ibv_qp_ex* qp, uint32_t rkey, uint64_t remote_addr) noexcept {
    SendOperands o;
    o.rkey = rkey;
    o.remote_addr = remote_addr;
    begin(qp, IBV_WR_RDMA_WRITE, o);
}

void wr_rdma_write_imm(ibv_qp_ex* qp, uint32_t rkey, uint64_t remote_addr,
                       __be32 imm_data) noexcept {
    SendOperands o;
    o.rkey = rkey;
    o.remote_addr = remote_addr;
    o.imm = imm_data;
    begin(qp, IBV_WR_RDMA_WRITE_WITH_IMM, o);
}

void wr_rdma_read(ibv_qp_ex* qp, uint32_t rkey, uint64_t remote_addr) noexcept {
    SendOperands o;
    o.rkey = rkey;
    o.remote_addr = remote_addr;
    begin(qp, IBV_WR_RDMA_READ, o);
}

void wr_atomic_cmp_swp(ibv_qp_ex* qp, uint32_t rkey, uint64_t remote_addr, uint64_t compare,
                       uint64_t swap) noexcept {
    SendOperands o;
    o.rkey = rkey;
    o.remote_addr = remote_addr;
    o.compare_add = compare;
    o.swap = swap;
    begin(qp, IBV_WR_ATOMIC_CMP_AND_SWP, o);
}

void wr_atomic_fetch_add(ibv_qp_ex* qp, uint32_t rkey, uint64_t remote_addr,
                         uint64_t add) noexcept {
    SendOperands o;
    o.rkey = rkey;
    o.remote_addr = remote_addr;
    o.compare_add = add;
    begin(qp, IBV_WR_ATOMIC_FETCH_AND_ADD, o);
}

void wr_local_inv(ibv_qp_ex* qp, uint32_t invalidate_rkey) noexcept {
    SendOperands o;
    o.imm = invalidate_rkey;
    begin(qp, IBV_WR_LOCAL_INV, o);
}

void wr_bind_mw(ibv_qp_ex* qp, ibv_mw* mw, uint32_t rkey,
                const ibv_mw_bind_info* bind_info) noexcept {
    to_qp(qp)->wr.begin_bind_mw(qp->wr_id, qp->wr_flags, mw, rkey, bind_info);
}

void wr_set_ud_addr(ibv_qp_ex* qp, ibv_ah* ah, uint32_t remote_qpn, uint32_t remote_qkey) noexcept {
    to_qp(qp)->wr.set_ud_addr(ah_number(ah), remote_qpn, remote_qkey);
}

void wr_set_sge(ibv_qp_ex* qp, uint32_t lkey, uint64_t addr, uint32_t length) noexcept {
    to_qp(qp)->wr.set_sge(lkey, addr, length);
}

void wr_set_sge_list(ibv_qp_ex* qp, size_t num_sge, const ibv_sge* sg_list) noexcept {
    to_qp(qp)->wr.set_sge_list(num_sge, sg_list);
}

void wr_set_inline_data(ibv_qp_ex* qp, void* addr, size_t length) noexcept {
    to_qp(qp)->wr.set_inline_data(addr, length);
}

void wr_set_inline_data_list(ibv_qp_ex* qp, size_t num_buf, const ibv_data_buf* buf_list) noexcept {
    to_qp(qp)->wr.set_inline_data_list(num_buf, buf_list);
}

// The builders of ops (IBV_QP_EX_WITH_*), which check_qp_init_attr_ex has
// limited to those the QP type supports; the others stay NULL, as in rxe.
void set_send_ops(ibv_qp_ex& qp, uint64_t ops) noexcept {
    if ((ops & IBV_QP_EX_WITH_SEND) != 0) {
        qp.wr_send = wr_send;
    }
    if ((ops & IBV_QP_EX_WITH_SEND_WITH_IMM) != 0) {
        qp.wr_send_imm = wr_send_imm;
    }
    if ((ops & IBV_QP_EX_WITH_SEND_WITH_INV) != 0) {
        qp.wr_send_inv = wr_send_inv;
    }
    if ((ops & IBV_QP_EX_WITH_RDMA_WRITE) != 0) {
        qp.wr_rdma_write = wr_rdma_write;
    }
    if ((ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM) != 0) {
        qp.wr_rdma_write_imm = wr_rdma_write_imm;
    }
    if ((ops & IBV_QP_EX_WITH_RDMA_READ) != 0) {
        qp.wr_rdma_read = wr_rdma_read;
    }
    if ((ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP) != 0) {
        qp.wr_atomic_cmp_swp = wr_atomic_cmp_swp;
    }
    if ((ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD) != 0) {
        qp.wr_atomic_fetch_add = wr_atomic_fetch_add;
    }
    if ((ops & IBV_QP_EX_WITH_LOCAL_INV) != 0) {
        qp.wr_local_inv = wr_local_inv;
    }
    if ((ops & IBV_QP_EX_WITH_BIND_MW) != 0) {
        qp.wr_bind_mw = wr_bind_mw;
    }
    qp.wr_set_ud_addr = wr_set_ud_addr;
    qp.wr_set_sge = wr_set_sge;
    qp.wr_set_sge_list = wr_set_sge_list;
    qp.wr_set_inline_data = wr_set_inline_data;
    qp.wr_set_inline_data_list = wr_set_inline_data_list;
    qp.wr_start = wr_start;
    qp.wr_complete = wr_complete;
    qp.wr_abort = wr_abort;
}

}  // namespace

ibv_qp* create_qp_ex(ibv_context* context, ibv_qp_init_attr_ex* attr) noexcept {
    int ret = check_qp_init_attr_ex(*attr);
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    ObjPtr<Qp> qp = make_object<Qp>();
    if (!qp) {
        errno = ENOMEM;
        return nullptr;
    }
    QpCreate c;
    ret = prepare_create(c);
    if (ret == 0) {
        ret = ibv_cmd_create_qp_ex(context, &qp->vqp, attr, &c.cmd.core, c.cmd_size, c.resp.core(),
                                   c.resp.size());
        if (ret == 0) {
            ret = finish_create(context->cmd_fd, c, attr->cap, attr->srq != nullptr, *qp);
        }
    }
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) != 0) {
        set_send_ops(qp->vqp.qp_ex, attr->send_ops_flags);
        qp->vqp.comp_mask |= VERBS_QP_EX;
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
