// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenario of UC QPs, checked byte for byte: SENDs of sizes
// around the packet boundaries and WRITEs with immediate land whole; a
// WRITE beyond the target MR completes at the sender (UC reports nothing
// back) while the receiver drops it, writes nothing and keeps its receive
// WQE for the next message; a SEND with Invalidate naming a user MR's key
// fails the receive; an opcode UC lacks (READ) fails the send. And a UC
// QP on an SRQ: the same rules with receives taken from it.

#include "rc_check_scenarios.h"

#include <arpa/inet.h>

#include <cstring>

namespace rc_check {

namespace {

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;
constexpr size_t KiB = 1024;

}  // namespace

Err scenario_uc(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.type = IBV_QPT_UC;
    caps.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    const size_t big = 200 * KiB;
    const size_t guard = 256;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(big + 64, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(big + 2 * guard, caps.access, &dst))
        return err;

    // SENDs: one packet, around the 1024 and 1408-byte segments, many.
    const size_t sizes[] = {0, 1, 1024, 1025, 1408, 1409, 3 * 1408 + 7, 64 * KiB, big};
    uint64_t id = 1;
    for (size_t n : sizes) {
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = post_recv(p.b, id, {dst->sge(guard, big)}))
            return err;
        if (auto err = post_msg(p.a, id, {src->sge(3, n)}))
            return err;
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {id, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return in(label("UC SEND of %zu bytes", n), err);
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait, {id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return in(label("UC SEND of %zu bytes", n), err);
        if (wc.byte_len != n)
            return fail("UC SEND of %zu bytes: byte_len %u", n, wc.byte_len);
        dst->expect(guard, src->data() + 3, n);
        if (auto err = dst->verify(label("B memory after a UC SEND of %zu bytes", n).c_str()))
            return err;
        id++;
    }

    // A WRITE with immediate, then one that runs past the end of an MR
    // of B's: B drops it (what it placed before the end is undefined, as
    // in IB; nothing past the end is written) and keeps the receive it
    // would have used for the third.
    Region* edge = nullptr;
    if (auto err = p.b.add_region(4 * KiB, caps.access, &edge, 4 * KiB))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    edge->reset(rng.next());
    const uint32_t imm = static_cast<uint32_t>(rng.next());
    if (auto err = post_recv(p.b, 100, {}))
        return err;
    if (auto err = post_recv(p.b, 101, {}))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 100, {src->sge(0, 50 * KiB)},
                             dst->addr(guard), dst->rkey(), IBV_SEND_SIGNALED, imm))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 101, {src->sge(0, 8 * KiB)},
                             edge->addr(0), edge->rkey(), IBV_SEND_SIGNALED, imm))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 102, {src->sge(60 * KiB, 4 * KiB)},
                             dst->addr(guard + 60 * KiB), dst->rkey(), IBV_SEND_SIGNALED, imm + 1))
        return err;
    for (uint64_t w = 100; w <= 102; w++)
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {w, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE}))
            return in("UC WRITE_WITH_IMM (the sender learns nothing of a drop)", err);
    for (uint64_t w = 100; w <= 101; w++) {
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait,
                                 {w, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM}, &wc))
            return in("UC WRITE_WITH_IMM, the one past the MR dropped", err);
        const uint32_t want = w == 100 ? imm : imm + 1;
        if (!(wc.wc_flags & IBV_WC_WITH_IMM) || wc.imm_data != htonl(want))
            return fail("B recv %llu: imm 0x%08x (flags 0x%x), want 0x%08x",
                        static_cast<unsigned long long>(w), ntohl(wc.imm_data), wc.wc_flags, want);
    }
    dst->expect(guard, src->data(), 50 * KiB);
    dst->expect(guard + 60 * KiB, src->data() + 60 * KiB, 4 * KiB);
    if (auto err = dst->verify("B memory after two UC WRITEs"))
        return err;
    edge->expect(0, edge->data(), 4 * KiB);
    if (auto err = edge->verify("B memory past the MR the dropped WRITE ran over"))
        return err;

    // SEND with Invalidate naming a key that is no fast-registration MR
    // (a program has none): the sender completes (UC learns nothing), the
    // receive fails with IBV_WC_REM_INV_REQ_ERR, as on RC.
    if (auto err = post_recv(p.b, 300, {dst->sge(guard, 4 * KiB)}))
        return err;
    {
        ibv_sge sge = src->sge(0, 1000);
        ibv_send_wr wr{};
        wr.wr_id = 300;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = IBV_WR_SEND_WITH_INV;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.invalidate_rkey = dst->rkey();
        if (auto err = post_send_wr(p.a, &wr))
            return err;
    }
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {300, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return in("UC SEND_WITH_INV", err);
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {300, IBV_WC_REM_INV_REQ_ERR}))
        return in("B's receive of a UC SEND_WITH_INV naming a user MR's key", err);

    // READ is not a UC operation: the send fails, the QP goes to error.
    if (auto err =
            post_rdma(p.a, IBV_WR_RDMA_READ, 200, {src->sge(0, 64)}, dst->addr(guard), dst->rkey()))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {200, IBV_WC_LOC_QP_OP_ERR}))
        return in("READ on a UC QP", err);
    return std::nullopt;
}

namespace {

Err post_srq_recv(Endpoint& ep, uint64_t wr_id, ibv_sge sge) {
    ibv_recv_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (int ret = ibv_post_srq_recv(ep.srq.get(), &wr, &bad))
        return fail("%s: ibv_post_srq_recv(wr_id %llu): %s", ep.tag,
                    static_cast<unsigned long long>(wr_id), std::strerror(ret));
    return std::nullopt;
}

}  // namespace

// A UC QP on an SRQ. A SEND too long for the receive it takes is dropped
// and the QP keeps that receive for the next message, which lands in it;
// the next takes the SRQ's next receive. A receive the QP holds after a
// drop is not lost when the QP fails: it completes flushed.
Err scenario_uc_srq(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.type = IBV_QPT_UC;
    caps.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    QpCaps caps_b = caps;
    caps_b.srq_wr = 8;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p, &caps_b))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(256 * KiB, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(256 * KiB, caps.access, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    // r1: 100 bytes at 0; r2 and r3: 64 KiB each, at 64 and 128 KiB.
    if (auto err = post_srq_recv(p.b, 1, dst->sge(0, 100)))
        return err;
    if (auto err = post_srq_recv(p.b, 2, dst->sge(64 * KiB, 64 * KiB)))
        return err;
    if (auto err = post_srq_recv(p.b, 3, dst->sge(128 * KiB, 64 * KiB)))
        return err;
    // 4 KiB, too long for r1: dropped; 50 bytes then land in r1, 40 KiB
    // in r2; 100 KiB, too long for r3: dropped, r3 held.
    const size_t sizes[] = {4 * KiB, 50, 40 * KiB, 100 * KiB};
    size_t off = 0;
    for (uint64_t i = 0; i < 4; i++) {
        if (auto err = post_msg(p.a, 10 + i, {src->sge(off, sizes[i])}))
            return err;
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {10 + i, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return in(label("UC SEND of %zu bytes to a QP on an SRQ", sizes[i]), err);
        off += sizes[i];
    }
    const struct {
        uint64_t wr_id;
        size_t len, at, from;
    } got[] = {{1, 50, 0, 4 * KiB}, {2, 40 * KiB, 64 * KiB, 4 * KiB + 50}};
    for (const auto& g : got) {
        ibv_wc wc{};
        if (auto err =
                expect_wc(p.b, Queue::kRecv, wait, {g.wr_id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return in("UC SENDs through an SRQ (a SEND too long dropped before each)", err);
        if (wc.byte_len != g.len || wc.qp_num != p.b.qp->qp_num)
            return fail("SRQ receive %llu: byte_len %u qp 0x%x, want %zu 0x%x",
                        static_cast<unsigned long long>(g.wr_id), wc.byte_len, wc.qp_num, g.len,
                        p.b.qp->qp_num);
        dst->expect(g.at, src->data() + g.from, g.len);
    }
    if (auto err = dst->verify("B memory after UC SENDs through the SRQ"))
        return err;
    // B fails: the receive it holds (r3) comes back flushed.
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    if (int ret = ibv_modify_qp(p.b.qp.get(), &attr, IBV_QP_STATE))
        return fail("B: ibv_modify_qp(ERR): %s", std::strerror(ret));
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {3, IBV_WC_WR_FLUSH_ERR}))
        return in("the SRQ receive a failed UC QP held", err);
    return expect_quiet(p);
}

}  // namespace rc_check
