// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios whose operations must fail: remote access errors
// (bad rkey, out of bounds, missing MR rights) and retry exhaustion after the
// link is cut. The requester must report the right status, leave the target
// memory alone and flush what is posted afterwards.

#include "rc_check_scenarios.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace rc_check {

namespace {

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;
constexpr size_t kLen = 4096;

struct ErrPair {
    Pair p;
    Region* a = nullptr;  // A's local buffer: WRITE source or READ destination
    Region* b = nullptr;  // B's target
};

// A pair with a kLen buffer on each side, both filled with patterns. B's
// region has b_access and, past its registered end, b_slack more bytes.
Err make_err_pair(Env& env, Rng& rng, int b_access, size_t b_slack, ErrPair* out) {
    if (auto err = make_pair(env, rng, QpCaps{}, &out->p))
        return err;
    if (auto err = out->p.a.add_region(kLen, kLocal, &out->a))
        return err;
    if (auto err = out->p.b.add_region(kLen, b_access, &out->b, b_slack))
        return err;
    out->a->reset(rng.next());
    out->b->reset(rng.next());
    return std::nullopt;
}

// After an error completion, a new WR on A must complete with WR_FLUSH_ERR.
Err expect_flushed(Env& env, ErrPair& e, uint64_t wr_id) {
    if (auto err = post_rdma(e.p.a, IBV_WR_RDMA_WRITE, wr_id, {e.a->sge(0, kLen)}, e.b->addr(0),
                             e.b->rkey()))
        return err;
    return in("WR posted after the error",
              expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {wr_id, IBV_WC_WR_FLUSH_ERR}));
}

}  // namespace

Err scenario_bad_rkey(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    if (auto err = post_rdma(e.p.a, IBV_WR_RDMA_WRITE, 1, {e.a->sge(0, kLen)}, e.b->addr(0),
                             e.b->rkey() ^ 0x80))
        return err;
    if (auto err = expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_REM_ACCESS_ERR}))
        return err;
    if (auto err = e.b->verify("B memory after the rejected WRITE"))
        return err;
    if (auto err = expect_flushed(env, e, 2))
        return err;
    if (auto err = e.b->verify("B memory after the flushed WRITE"))
        return err;
    return expect_quiet(e.p);
}

Err scenario_out_of_bounds(Env& env, Rng& rng) {
    // B's buffer is 2 * kLen bytes of which the first kLen are registered.
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, kLen, &e))
        return err;
    const size_t n = 101;
    if (auto err = post_rdma(e.p.a, IBV_WR_RDMA_WRITE, 1, {e.a->sge(0, n)}, e.b->addr(kLen - n + 1),
                             e.b->rkey()))
        return err;
    if (auto err = expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_REM_ACCESS_ERR}))
        return err;
    if (auto err = e.b->verify("B memory (MR and the bytes past it)"))
        return err;
    return expect_quiet(e.p);
}

Err scenario_no_remote_write(Env& env, Rng& rng) {
    {
        ErrPair e;
        if (auto err = make_err_pair(env, rng, kLocal | IBV_ACCESS_REMOTE_READ, 0, &e))
            return err;
        if (auto err = post_rdma(e.p.a, IBV_WR_RDMA_WRITE, 1, {e.a->sge(0, kLen)}, e.b->addr(0),
                                 e.b->rkey()))
            return err;
        if (auto err =
                in("WRITE to an MR without REMOTE_WRITE",
                   expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_REM_ACCESS_ERR})))
            return err;
        if (auto err = e.b->verify("B memory after the rejected WRITE"))
            return err;
        if (auto err = expect_quiet(e.p))
            return err;
    }
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kLocal | IBV_ACCESS_REMOTE_WRITE, 0, &e))
        return err;
    if (auto err =
            post_rdma(e.p.a, IBV_WR_RDMA_READ, 1, {e.a->sge(0, kLen)}, e.b->addr(0), e.b->rkey()))
        return err;
    if (auto err = in("READ from an MR without REMOTE_READ",
                      expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_REM_ACCESS_ERR})))
        return err;
    if (auto err = e.b->verify("B memory after the rejected READ"))
        return err;
    if (auto err = e.a->verify("A buffer after the rejected READ"))
        return err;
    return expect_quiet(e.p);
}

// The QP gives up once it has tried, without an answer, for the timeout
// attribute (1.024 us * 2^t, no less than the timer's 4 ms floor) times
// retry_cnt + 1, as a NIC does; never before (Documentation/multipath.rst).
double retry_budget_ms(const Options& opt) {
    const double attr_ms = std::max(1.024e-3 * double(1ULL << opt.timeout), 4.0);
    return attr_ms * (opt.retry_cnt + 1);
}

Err scenario_retry_exceeded(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    // The test script cuts the link between these two lines.
    std::printf("connected\n");
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    const auto t0 = std::chrono::steady_clock::now();
    if (auto err =
            post_rdma(e.p.a, IBV_WR_RDMA_WRITE, 1, {e.a->sge(0, kLen)}, e.b->addr(0), e.b->rkey()))
        return err;
    if (auto err = expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_RETRY_EXC_ERR}))
        return err;
    const double took =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double budget = retry_budget_ms(env.opt);
    std::printf("# retry-exceeded: timeout %u retry_cnt %u failed after %.1f ms (budget %.1f ms)\n",
                env.opt.timeout, env.opt.retry_cnt, took, budget);
    if (took < budget)
        return fail("retry-exceeded: failed after %.1f ms, before the %.1f ms the attributes allow",
                    took, budget);
    if (auto err = expect_flushed(env, e, 2))
        return err;
    return expect_quiet(e.p);
}

// A trimmed copy of A's next WRITE reaches B first (the test script sends
// it between these lines, as a trimming switch would pass it on: headers
// only, TRIM set). B must not take that PSN as delivered: the real WRITE
// then lands and B's memory holds it.
Err scenario_trimmed_write(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    const size_t n = 1000;
    std::printf("trim-target qpn %u psn %u\n", e.p.b.qp->qp_num, e.p.a.sq_psn);
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    if (auto err =
            post_rdma(e.p.a, IBV_WR_RDMA_WRITE, 1, {e.a->sge(0, n)}, e.b->addr(0), e.b->rkey()))
        return err;
    if (auto err = expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_SUCCESS}))
        return err;
    e.b->expect(0, e.a->data(), n);
    if (auto err = e.b->verify("B memory after the WRITE whose trimmed copy came first"))
        return err;
    return expect_quiet(e.p);
}

// Two one-packet WRITEs that reach B as one train (the test script sends
// them as one UDP GSO datagram from A's address: mrc-craft.py
// write-train), with B's R_Key: 512 bytes (i & 0xff) at the MR's start,
// then the same just past its end. A train keeps the MR its first WRITE
// found and checks the later packets against it: the second is refused
// as if looked up, B's QP fails, and nothing past the MR changes.
Err scenario_train_bounds(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, kLen, &e))
        return err;
    std::printf("train-target qpn %u psn %u rkey %u va %llu len %zu\n", e.p.b.qp->qp_num,
                e.p.a.sq_psn, e.b->rkey(), static_cast<unsigned long long>(e.b->addr(0)), kLen);
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    // The packets were counted as they arrived: give B the time to place.
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(env.opt.wait_ms);
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    for (;;) {
        if (int ret = ibv_query_qp(e.p.b.qp.get(), &attr, IBV_QP_STATE, &init))
            return fail("ibv_query_qp of B: %s", std::strerror(ret));
        if (attr.qp_state == IBV_QPS_ERR)
            break;
        if (std::chrono::steady_clock::now() >= end)
            return fail("B's QP in state %d, not ERR: the WRITE past the MR passed", attr.qp_state);
        usleep(10000);
    }
    std::vector<uint8_t> first(512);
    for (size_t i = 0; i < first.size(); i++)
        first[i] = static_cast<uint8_t>(i);
    e.b->expect(0, first.data(), first.size());
    return e.b->verify("B memory after the train (the MR and the bytes past it)");
}

// A SEND longer than B's receive buffer: A's WQE completes with
// IBV_WC_REM_INV_REQ_ERR and B's receive with IBV_WC_LOC_LEN_ERR (not merely
// flushed), as on other RC transports.
Err scenario_recv_too_small(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    if (auto err = post_recv(e.p.b, 9, {e.b->sge(0, 100)}))
        return err;
    if (auto err = post_msg(e.p.a, 1, {e.a->sge(0, 1000)}))
        return err;
    if (auto err = in("A's SEND",
                      expect_wc(e.p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_REM_INV_REQ_ERR})))
        return err;
    return in("B's receive",
              expect_wc(e.p.b, Queue::kRecv, env.opt.wait_ms, {9, IBV_WC_LOC_LEN_ERR}));
}

// A SEND with Invalidate naming a key that is no fast-registration MR (B's
// own user MR, which no one may invalidate): B's receive fails with
// IBV_WC_REM_INV_REQ_ERR (IB's class J). A's side of it is not judged:
// its SEND may be acknowledged before B's QP fails.
Err scenario_send_inv_bad_key(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    if (auto err = post_recv(e.p.b, 9, {e.b->sge(0, kLen)}))
        return err;
    ibv_sge sge = e.a->sge(0, 1000);
    ibv_send_wr wr{};
    wr.wr_id = 1;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND_WITH_INV;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.invalidate_rkey = e.b->rkey();
    if (auto err = post_send_wr(e.p.a, &wr))
        return err;
    return in("B's receive of the SEND with Invalidate",
              expect_wc(e.p.b, Queue::kRecv, env.opt.wait_ms, {9, IBV_WC_REM_INV_REQ_ERR}));
}

// The test script sends B, from A's address, a SEND whose packets (FIRST
// and LAST, consecutive PSNs) bring fewer bytes than the length they state.
// Every PSN of the message arrived, but not its bytes: B must not complete
// the receive as a success of the stated length.
Err scenario_short_send(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    if (auto err = post_recv(e.p.b, 7, {e.b->sge(0, kLen)}))
        return err;
    std::printf("short-target qpn %u psn %u\n", e.p.b.qp->qp_num, e.p.a.sq_psn);
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    ibv_wc wc{};
    if (auto err = poll_wc(e.p.b, Queue::kRecv, env.opt.wait_ms, &wc))
        return in("the receive the short SEND consumed", err);
    if (wc.wr_id != 7 || wc.status != IBV_WC_LOC_LEN_ERR)
        return fail(
            "short SEND: receive completed wr_id %llu status %s byte_len %u, want wr_id 7 "
            "IBV_WC_LOC_LEN_ERR",
            static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status), wc.byte_len);
    return {};
}

// The test script sends B, from A's address, a one-packet SEND of the bytes
// 0..15 and then the same packet again as a retransmission, and watches
// B's ACK (the script judges its echo). The receive completes once, with
// those bytes.
Err scenario_duplicate_send(Env& env, Rng& rng) {
    ErrPair e;
    if (auto err = make_err_pair(env, rng, kDefaultAccess, 0, &e))
        return err;
    if (auto err = post_recv(e.p.b, 5, {e.b->sge(0, kLen)}))
        return err;
    std::printf("dup-target qpn %u psn %u\n", e.p.b.qp->qp_num, e.p.a.sq_psn);
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    ibv_wc wc{};
    if (auto err = poll_wc(e.p.b, Queue::kRecv, env.opt.wait_ms, &wc))
        return in("the receive the SEND consumed", err);
    const size_t n = 16;
    if (wc.wr_id != 5 || wc.status != IBV_WC_SUCCESS || wc.byte_len != n)
        return fail("SEND sent twice: receive completed wr_id %llu status %s byte_len %u, want "
                    "wr_id 5 success byte_len %zu",
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                    wc.byte_len, n);
    uint8_t want[n];
    for (size_t i = 0; i < n; i++)
        want[i] = static_cast<uint8_t>(i);
    e.b->expect(0, want, n);
    if (auto err = e.b->verify("B memory after a SEND and its duplicate"))
        return err;
    return expect_quiet(e.p);
}

// B's QP receives from an SRQ. The test script sends B, from A's address,
// the first packet of a 3000-byte SEND and never the rest: B takes an SRQ
// WQE for the message. When B's QP then enters the error state, that WQE,
// which only this QP can give back, completes as flushed; the SRQ's other
// WQEs stay in the SRQ for its other QPs.
Err scenario_srq_flush_taken(Env& env, Rng& rng) {
    QpCaps caps;
    caps.recv_sge = 1;
    caps.srq_wr = 8;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Region* buf = nullptr;
    if (auto err = p.b.add_region(4 * kLen, kLocal, &buf))
        return err;
    for (uint64_t i = 0; i < 4; i++) {
        ibv_sge sge = buf->sge(i * kLen, kLen);
        ibv_recv_wr wr{};
        wr.wr_id = 100 + i;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        ibv_recv_wr* bad = nullptr;
        if (int ret = ibv_post_srq_recv(p.b.srq.get(), &wr, &bad))
            return fail("ibv_post_srq_recv: %s", std::strerror(ret));
    }
    std::printf("srq-target qpn %u psn %u\n", p.b.qp->qp_num, p.a.sq_psn);
    std::fflush(stdout);
    if (auto err = wait_go(env.opt))
        return err;
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    if (int ret = ibv_modify_qp(p.b.qp.get(), &attr, IBV_QP_STATE))
        return fail("B: ibv_modify_qp(ERR): %s", std::strerror(ret));
    if (auto err = in("the SRQ WQE the unfinished SEND took",
                      expect_wc(p.b, Queue::kRecv, env.opt.wait_ms, {100, IBV_WC_WR_FLUSH_ERR})))
        return err;
    ibv_wc wc{};
    if (ibv_poll_cq(p.b.rcq.get(), 1, &wc) != 0)
        return fail(
            "B recv CQ: a second completion (wr_id %llu, %s): the SRQ's own WQEs "
            "must stay in it",
            static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status));
    return {};
}

Err scenario_dereg_in_flight(Env& env, Rng& rng) {
    // An 8 MiB WRITE whose source MR is deregistered, and its memory
    // unmapped, right after posting: packets still in local queues may
    // point at those pages (zero-copy transmit). The WRITE completes with
    // SUCCESS (everything left before), or with LOC_PROT_ERR at the first
    // packet built after; either way each byte of B's target holds what
    // was there before or the source's byte, and nothing beyond it moves.
    constexpr size_t n = 8 << 20;
    constexpr size_t doff = 4096 + 7;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* dst = nullptr;
    if (auto err = p.b.add_region(n + 8192, kDefaultAccess, &dst))
        return err;
    dst->reset(rng.next());
    const std::vector<uint8_t> before = dst->want;

    void* src = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (src == MAP_FAILED)
        return fail("mmap of %zu bytes: %s", n, std::strerror(errno));
    fill_pattern(static_cast<uint8_t*>(src), n, rng.next());
    const std::vector<uint8_t> sent(static_cast<uint8_t*>(src), static_cast<uint8_t*>(src) + n);
    ibv_mr* mr = ibv_reg_mr(p.a.pd.get(), src, n, kLocal);
    if (!mr) {
        munmap(src, n);
        return fail("A: ibv_reg_mr(%zu bytes): %s", n, std::strerror(errno));
    }
    const uint32_t lkey = mr->lkey;
    Err posted = post_rdma(p.a, IBV_WR_RDMA_WRITE, 1,
                           {ibv_sge{reinterpret_cast<uintptr_t>(src), uint32_t{n}, lkey}},
                           dst->addr(doff), dst->rkey());
    const int dereg = ibv_dereg_mr(mr);
    munmap(src, n);
    if (posted)
        return posted;
    if (dereg)
        return fail("A: ibv_dereg_mr with the WRITE in flight: %s", std::strerror(dereg));

    ibv_wc wc{};
    if (auto err = poll_wc(p.a, Queue::kSend, env.opt.wait_ms, &wc))
        return err;
    if (wc.wr_id != 1 || (wc.status != IBV_WC_SUCCESS && wc.status != IBV_WC_LOC_PROT_ERR))
        return fail("A: completion of wr_id %llu with %s, want wr_id 1 with success or %s",
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                    ibv_wc_status_str(IBV_WC_LOC_PROT_ERR));
    const bool whole = wc.status == IBV_WC_SUCCESS;
    const uint8_t* got = dst->data();
    size_t landed = 0;
    for (size_t i = 0; i < dst->alloc; i++) {
        const bool inside = i >= doff && i < doff + n;
        if (inside && got[i] == sent[i - doff]) {
            landed++;
            continue;
        }
        if (got[i] == before[i] && !(inside && whole))
            continue;
        return fail("B memory byte %zu: 0x%02x, want %s", i, got[i],
                    !inside ? "it untouched"
                    : whole ? "the source's byte"
                            : "the source's or its own");
    }
    std::printf("# dereg-in-flight: %s, %zu of %zu bytes written\n", ibv_wc_status_str(wc.status),
                landed, n);
    return expect_quiet(p);
}

}  // namespace rc_check
