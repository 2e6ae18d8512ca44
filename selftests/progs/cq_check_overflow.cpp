// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-cq-check overflow scenarios: a CQ of depth D that is given D + 1
// completions keeps the first D intact and in order, reports
// IBV_EVENT_CQ_ERR once, and takes nothing more: once they are polled,
// ibv_poll_cq returns -EOVERFLOW. The QP whose completion did not fit goes
// to the error state (IBV_EVENT_QP_FATAL).

#include "cq_check.h"

#include <cstdio>

namespace cq_check {

using rc_check::expect_wc;
using rc_check::fail;
using rc_check::in;
using rc_check::post_msg;
using rc_check::post_rdma;
using rc_check::QpCaps;

namespace {

constexpr int kDepth = 8;  // asked for; the CQ may be deeper
constexpr int kSettleMs = 300;

}  // namespace

Err scenario_overflow_send(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.scq_depth = kDepth;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Events ea(p.a);
    Events eb(p.b);
    const int depth = p.a.scq->cqe;
    if (depth < kDepth || depth + 4 > static_cast<int>(caps.send_wr))
        return fail("A send CQ: depth %d for %d asked", depth, kDepth);
    const size_t kLen = 64;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region((depth + 4) * kLen, IBV_ACCESS_LOCAL_WRITE, &src))
        return err;
    if (auto err = p.b.add_region((depth + 4) * kLen, rc_check::kDefaultAccess, &dst))
        return err;
    src->reset(rng.next());

    // One signaled WRITE more than the CQ holds; nobody polls.
    for (uint64_t i = 0; i <= static_cast<uint64_t>(depth); i++)
        if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE, i, {src->sge(i * kLen, kLen)},
                                 dst->addr(i * kLen), dst->rkey()))
            return err;
    char what[64];
    std::snprintf(what, sizeof(what), "%d WRITEs into a send CQ of depth %d", depth + 1, depth);
    if (auto err = in(what, ea.wait_for(IBV_EVENT_CQ_ERR, p.a.scq.get(), wait)))
        return err;
    if (auto err = in(what, ea.wait_for(IBV_EVENT_QP_FATAL, p.a.qp.get(), wait)))
        return err;
    if (auto err = expect_qp_state(p.a, IBV_QPS_ERR))
        return err;

    // The completions queued before the overflow, in order, and no other.
    for (uint64_t i = 0; i < static_cast<uint64_t>(depth); i++)
        if (auto err = in(
                what, expect_wc(p.a, Queue::kSend, wait, {i, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE})))
            return err;
    if (auto err = in(what, expect_overflowed(p.a, Queue::kSend)))
        return err;
    for (uint64_t i = 0; i < static_cast<uint64_t>(depth); i++) {
        dst->expect(i * kLen, src->data() + i * kLen, kLen);
        if (auto err = rc_check::compare("B memory", dst->data() + i * kLen,
                                         dst->want.data() + i * kLen, kLen))
            return err;
    }

    // Work posted to the QP in error is flushed into the CQ in error: its
    // completions are dropped as well, and no second event is raised.
    for (uint64_t i = depth + 1; i < static_cast<uint64_t>(depth) + 4; i++)
        (void)post_rdma(p.a, IBV_WR_RDMA_WRITE, i, {src->sge(i * kLen, kLen)}, dst->addr(i * kLen),
                        dst->rkey());
    if (auto err = ea.collect(kSettleMs))
        return err;
    if (auto err = in("after the flush", expect_overflowed(p.a, Queue::kSend)))
        return err;
    if (auto err = ea.expect_exactly(
            {{IBV_EVENT_CQ_ERR, p.a.scq.get()}, {IBV_EVENT_QP_FATAL, p.a.qp.get()}}))
        return err;
    if (auto err = eb.collect(0))
        return err;
    return eb.expect_exactly({});
}

Err scenario_overflow_recv(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.rcq_depth = kDepth;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Events eb(p.b);
    Msgs m;
    if (auto err = m.setup(p, wait, rng))
        return err;
    const int depth = p.b.rcq->cqe;
    if (depth < kDepth || depth + 1 > static_cast<int>(caps.recv_wr))
        return fail("B recv CQ: depth %d for %d asked", depth, kDepth);
    const auto d = static_cast<uint64_t>(depth);
    if (auto err = m.post_recvs(0, d + 1))
        return err;

    // Exactly full is not an overflow. B queued the event, had there been
    // one, before it acknowledged the last SEND.
    if (auto err = m.send(0, d))
        return err;
    if (auto err = eb.collect(0))
        return err;
    if (auto err = in("recv CQ exactly full", eb.expect_exactly({})))
        return err;

    if (auto err = post_msg(p.a, d, {m.src->sge(d * Msgs::kSlotLen, Msgs::len(d))}))
        return err;
    char what[64];
    std::snprintf(what, sizeof(what), "%d SENDs into a recv CQ of depth %d", depth + 1, depth);
    if (auto err = in(what, eb.wait_for(IBV_EVENT_CQ_ERR, p.b.rcq.get(), wait)))
        return err;
    if (auto err = in(what, eb.wait_for(IBV_EVENT_QP_FATAL, p.b.qp.get(), wait)))
        return err;
    if (auto err = expect_qp_state(p.b, IBV_QPS_ERR))
        return err;
    if (auto err = in(what, m.expect_recvs(0, d)))
        return err;
    if (auto err = in(what, expect_overflowed(p.b, Queue::kRecv)))
        return err;

    if (auto err = eb.collect(kSettleMs))
        return err;
    if (auto err = in("after the overflow", expect_overflowed(p.b, Queue::kRecv)))
        return err;
    // A's last SEND may or may not be acknowledged: the IB spec leaves the
    // peer of a QP that lost a completion undefined. It is not checked.
    return eb.expect_exactly(
        {{IBV_EVENT_CQ_ERR, p.b.rcq.get()}, {IBV_EVENT_QP_FATAL, p.b.qp.get()}});
}

}  // namespace cq_check
