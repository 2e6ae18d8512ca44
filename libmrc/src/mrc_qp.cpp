// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OCP MRC application API, second half: QP hints, QPs and posting.
#include <algorithm>
#include <cerrno>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>

#include "ctl_entry.h"
#include "ctl_qp_bind.h"
#include "mrc.h"
#include "mrc_checks.h"
#include "mrc_errors.h"
#include "mrc_objects.h"

using mrc::lib::fail;
using mrc::lib::fail_null;
using mrc::lib::fail_rc;
namespace ctl = mrc::lib::ctl;

namespace {

constexpr uint64_t kSendOpsAllowed = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;

// A QP's MRC attributes before the program sets any: the device's limits,
// a 67 ms ACK timeout and seven retries.
mrc_qp_attr default_qp_attr(const mrc_device_attr& dev) noexcept {
    mrc_qp_attr a{};
    a.mpr.mpr = dev.mpr_attr.max_mpr;
    a.mpr.mpr_dest = dev.mpr_attr.max_mpr;
    a.wimm.max_wimm = dev.wimm_attr.max_wimm;
    a.wimm.max_wimm_dest = dev.wimm_attr.max_wimm_dest;
    a.timeout = 16;
    a.retry.linear_cnt = mrc::lib::kMaxLinearRetries;
    return a;
}

// The verbs modify of a checked transition: 0 or an errno value.
int verbs_modify(ibv_qp* qp, ibv_qp_attr& v, int vmask) noexcept {
    return vmask ? ibv_modify_qp(qp, &v, vmask) : 0;
}

// RESET->INIT naming profiles: the driver binds the QP to them first
// (QP_BIND), then the verbs transition; when that fails, the QP is bound
// back. 0 or an errno value.
int init_with_profiles(mrc_qp* qp, const ctl::ProfileIds& ids, ibv_qp_attr& v,
                       int vmask) noexcept {
    return ctl::with_link(qp->ctx, [&](ctl::Link& link, const char* dev) {
        auto bind = [&](const ctl::ProfileIds& want, ctl::QpBinding& out) {
            return ctl::bind_qp(link, dev, qp->qp->qp_num, want, out);
        };
        return ctl::init_with_profiles(ids, bind,
                                       [&] { return verbs_modify(qp->qp, v, vmask); });
    });
}

// A move to RTR or RTS naming PSN ranges: the driver takes them first
// (QP_BIND), then the verbs transition; when that fails, the QP gets back
// the ranges the library had set. 0 or an errno value.
int move_with_ranges(mrc_qp* qp, const ctl::PsnRanges& ranges, ibv_qp_attr& v, int vmask) noexcept {
    ctl::PsnRanges was;
    was.mpr = qp->attr.mpr.mpr;
    was.mpr_dest = qp->attr.mpr.mpr_dest;
    return ctl::with_link(qp->ctx, [&](ctl::Link& link, const char* dev) {
        auto set = [&](const ctl::PsnRanges& want) {
            ctl::QpBinding out;
            return ctl::set_qp_ranges(link, dev, qp->qp->qp_num, want, out);
        };
        return ctl::move_with_ranges(ranges, was, set,
                                     [&] { return verbs_modify(qp->qp, v, vmask); });
    });
}

// Puts the QP on its send CQ's list, so that polling that CQ returns its
// WIMM credits (mrc_objects.h).
void link_sender(mrc_qp* qp) noexcept {
    mrc_cq* cq = qp->init.send_cq;
    std::lock_guard<mrc::lib::Mutex> guard(cq->senders_lock);
    qp->next_sender = cq->senders;
    cq->senders = qp;
}

void unlink_sender(mrc_qp* qp) noexcept {
    mrc_cq* cq = qp->init.send_cq;
    std::lock_guard<mrc::lib::Mutex> guard(cq->senders_lock);
    for (mrc_qp** p = &cq->senders; *p; p = &(*p)->next_sender) {
        if (*p == qp) {
            *p = qp->next_sender;
            break;
        }
    }
}

// Moves the QP's hint reference from old to now.
void swap_hint(mrc_qp_hint* old, mrc_qp_hint* now) noexcept {
    if (now)
        now->users++;
    if (old)
        old->users--;
}

}  // namespace

extern "C" {

mrc_qp_hint* mrc_create_qp_hint(mrc_context* mrc_ctx, mrc_qp_hint_init_attr* init_attr) {
    constexpr int kAll = MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS |
                         MRC_QP_HINT_NUM_REMOTE_RECV_PEERS | MRC_QP_HINT_VENDOR_CFG;
    if (!mrc_ctx || !init_attr)
        return fail_null<mrc_qp_hint>(EINVAL);
    if (mrc::lib::check_hint_attr(init_attr->attr, kAll))
        return fail_null<mrc_qp_hint>(EINVAL);
    if (mrc_ctx->hints.fetch_add(1) >= mrc::lib::kMaxQpHints) {
        mrc_ctx->hints--;
        return fail_null<mrc_qp_hint>(ENOMEM);
    }
    auto* hint = new (std::nothrow) mrc_qp_hint;
    if (!hint) {
        mrc_ctx->hints--;
        return fail_null<mrc_qp_hint>(ENOMEM);
    }
    hint->ctx = mrc_ctx;
    hint->attr = init_attr->attr;
    mrc_ctx->children++;
    return hint;
}

int mrc_destroy_qp_hint(mrc_qp_hint* qp_hint) {
    if (!qp_hint)
        return fail(EINVAL);
    if (qp_hint->users.load() != 0)
        return fail(EBUSY);
    qp_hint->ctx->hints--;
    qp_hint->ctx->children--;
    delete qp_hint;
    return 0;
}

int mrc_query_qp_hint(mrc_qp_hint* qp_hint, mrc_qp_hint_attr* qp_hint_attr, int qp_hint_attr_mask) {
    if (!qp_hint || !qp_hint_attr)
        return fail(EINVAL);
    if (mrc::lib::check_hint_attr(mrc_qp_hint_attr{}, qp_hint_attr_mask))
        return fail(EINVAL);
    std::lock_guard<mrc::lib::Mutex> guard(qp_hint->lock);
    const mrc_qp_hint_attr& a = qp_hint->attr;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
        qp_hint_attr->num_qps_per_peer = a.num_qps_per_peer;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_SEND_PEERS)
        qp_hint_attr->num_send_peers = a.num_send_peers;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
        qp_hint_attr->num_remote_recv_peers = a.num_remote_recv_peers;
    if (qp_hint_attr_mask & MRC_QP_HINT_VENDOR_CFG)
        std::copy(std::begin(a.vendor_cfg), std::end(a.vendor_cfg), qp_hint_attr->vendor_cfg);
    return 0;
}

int mrc_modify_qp_hint(mrc_qp_hint* qp_hint, mrc_qp_hint_attr* qp_hint_attr,
                       int qp_hint_attr_mask) {
    if (!qp_hint || !qp_hint_attr)
        return fail(EINVAL);
    if (mrc::lib::check_hint_attr(*qp_hint_attr, qp_hint_attr_mask))
        return fail(EINVAL);
    std::lock_guard<mrc::lib::Mutex> guard(qp_hint->lock);
    mrc_qp_hint_attr& a = qp_hint->attr;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
        a.num_qps_per_peer = qp_hint_attr->num_qps_per_peer;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_SEND_PEERS)
        a.num_send_peers = qp_hint_attr->num_send_peers;
    if (qp_hint_attr_mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
        a.num_remote_recv_peers = qp_hint_attr->num_remote_recv_peers;
    if (qp_hint_attr_mask & MRC_QP_HINT_VENDOR_CFG)
        std::copy(std::begin(qp_hint_attr->vendor_cfg), std::end(qp_hint_attr->vendor_cfg),
                  a.vendor_cfg);
    return 0;
}

mrc_qp* mrc_create_qp(mrc_context* mrc_ctx, mrc_qp_init_attr* attr) {
    if (!mrc_ctx || !attr || !attr->send_cq || !attr->recv_cq || !attr->pd)
        return fail_null<mrc_qp>(EINVAL);
    if (attr->send_cq->ctx != mrc_ctx || attr->recv_cq->ctx != mrc_ctx ||
        attr->send_cq->ev_event_cq || attr->recv_cq->ev_event_cq ||
        attr->pd->context != mrc_ctx->vctx)
        return fail_null<mrc_qp>(EINVAL);
    if (attr->protocol_version != MRC_PROTOCOL_VERSION_0 &&
        attr->protocol_version != MRC_PROTOCOL_VERSION_1)
        return fail_null<mrc_qp>(EINVAL);
    if (attr->send_ops_flags & ~kSendOpsAllowed)
        return fail_null<mrc_qp>(EINVAL);

    std::unique_ptr<mrc_qp> qp(new (std::nothrow) mrc_qp);
    if (!qp)
        return fail_null<mrc_qp>(ENOMEM);
    ibv_qp_init_attr vinit{};
    vinit.qp_context = qp.get();
    vinit.send_cq = attr->send_cq->cq;
    vinit.recv_cq = attr->recv_cq->cq;
    vinit.cap = attr->cap;
    vinit.qp_type = IBV_QPT_RC;
    vinit.sq_sig_all = attr->sq_sig_all;
    qp->qp = ibv_create_qp(attr->pd, &vinit);
    if (!qp->qp)
        return fail_null<mrc_qp>(errno ? errno : ENOMEM);

    if (!qp->credits.init(vinit.cap.max_send_wr, static_cast<uint32_t>(vinit.send_cq->cqe))) {
        ibv_destroy_qp(qp->qp);
        return fail_null<mrc_qp>(ENOMEM);
    }

    attr->cap = vinit.cap;  // what the QP really has, as ibv_create_qp() tells
    qp->ctx = mrc_ctx;
    qp->init = *attr;
    qp->attr = default_qp_attr(mrc_ctx->dev);
    qp->credits.set_limit(qp->attr.wimm.max_wimm);
    link_sender(qp.get());
    mrc_ctx->children++;
    return qp.release();
}

int mrc_destroy_qp(mrc_qp* qp) {
    if (!qp)
        return fail_rc(EINVAL);
    // Off the send CQ's list first: a poll there reads the verbs QP.
    unlink_sender(qp);
    int ret = ibv_destroy_qp(qp->qp);
    if (ret) {
        link_sender(qp);
        return fail_rc(ret);
    }
    swap_hint(qp->attr.qp_hint, nullptr);
    qp->ctx->children--;
    delete qp;
    return 0;
}

int mrc_query_qp(mrc_qp* qp, ibv_qp_attr* vattr, int vattr_mask, mrc_qp_attr* mrc_attr,
                 int mrc_attr_mask, mrc_qp_init_attr* init_attr) {
    if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr))
        return fail_rc(EINVAL);
    if (mrc_attr_mask & ~mrc::lib::allowed_mrc_mask({IBV_QPS_RESET, IBV_QPS_INIT}) &
        ~mrc::lib::allowed_mrc_mask({IBV_QPS_INIT, IBV_QPS_RTR}) &
        ~mrc::lib::allowed_mrc_mask({IBV_QPS_RTR, IBV_QPS_RTS}))
        return fail_rc(EINVAL);
    std::lock_guard<mrc::lib::Mutex> guard(qp->lock);
    if (vattr_mask) {
        ibv_qp_init_attr vinit{};
        int ret = ibv_query_qp(qp->qp, vattr, vattr_mask, &vinit);
        if (ret)
            return fail_rc(ret);
    }
    if (mrc_attr_mask)
        mrc::lib::merge_qp_attr(*mrc_attr, qp->attr, mrc_attr_mask);
    if (init_attr)
        *init_attr = qp->init;
    return 0;
}

int mrc_modify_qp(mrc_qp* qp, ibv_qp_attr* vattr, int vattr_mask, mrc_qp_attr* mrc_attr,
                  int mrc_attr_mask) {
    if (!qp)
        return fail_rc(EINVAL);
    std::lock_guard<mrc::lib::Mutex> guard(qp->lock);
    ibv_qp_attr now{};
    ibv_qp_init_attr vinit{};
    int ret = ibv_query_qp(qp->qp, &now, IBV_QP_STATE, &vinit);
    if (ret)
        return fail_rc(ret);

    const mrc_device_attr& dev = qp->ctx->dev;
    ret = mrc::lib::check_modify(now.qp_state, vattr, vattr_mask, mrc_attr, mrc_attr_mask,
                                 {dev.wimm_attr.max_wimm, dev.wimm_attr.max_wimm_dest});
    if (ret)
        return fail_rc(ret);
    mrc_qp_hint* hint = (mrc_attr_mask & MRC_QP_HINT) ? mrc_attr->qp_hint : qp->attr.qp_hint;
    if (hint && hint->ctx != qp->ctx)
        return fail_rc(EINVAL);

    mrc_qp_attr next = qp->attr;
    if (mrc_attr_mask)
        mrc::lib::merge_qp_attr(next, *mrc_attr, mrc_attr_mask);
    ibv_qp_attr v{};
    int vmask = 0;
    mrc::lib::to_verbs_modify(now.qp_state, vattr, vattr_mask, next, v, vmask);
    // check_modify() let profile ids through on RESET->INIT only, PSN
    // ranges on INIT->RTR and RTR->RTS only: never both.
    ctl::ProfileIds ids = ctl::profile_ids(mrc_attr, mrc_attr_mask);
    ctl::PsnRanges ranges = ctl::psn_ranges(mrc_attr, mrc_attr_mask);
    if (ids.any())
        ret = init_with_profiles(qp, ids, v, vmask);
    else if (ranges.any())
        ret = move_with_ranges(qp, ranges, v, vmask);
    else
        ret = verbs_modify(qp->qp, v, vmask);
    if (ret)
        return fail_rc(ret);
    swap_hint(qp->attr.qp_hint, next.qp_hint);
    qp->attr = next;
    std::lock_guard<mrc::lib::Mutex> credits(qp->credit_lock);
    qp->credits.set_limit(next.wimm.max_wimm);
    if ((vattr_mask & IBV_QP_STATE) && vattr->qp_state == IBV_QPS_RESET)
        qp->credits.clear();
    return 0;
}

int mrc_get_qpn(mrc_qp* qp, uint32_t* qpn) {
    if (!qp || !qpn)
        return fail(EINVAL);
    *qpn = qp->qp->qp_num;
    return 0;
}

int mrc_post_recv(mrc_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) {
    if (!qp || !wr || !bad_wr)
        return fail(EINVAL);
    int ret = ibv_post_recv(qp->qp, wr, bad_wr);
    return ret ? fail(ret) : 0;
}

int mrc_post_send(mrc_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr) {
    if (!qp || !wr || !bad_wr)
        return fail_rc(EINVAL);
    // The whole chain is checked first, so a refused request posts nothing.
    int ret = mrc::lib::check_send_chain(wr, bad_wr);
    if (ret)
        return fail_rc(ret);
    bool sig_all = qp->init.sq_sig_all != 0;
    std::lock_guard<mrc::lib::Mutex> guard(qp->credit_lock);
    ret = qp->credits.admit(wr, sig_all, bad_wr);
    if (ret)
        return fail_rc(ret);
    ret = ibv_post_send(qp->qp, wr, bad_wr);
    qp->credits.record(wr, ret ? *bad_wr : nullptr, sig_all);
    return ret ? fail_rc(ret) : 0;
}

}  // extern "C"
