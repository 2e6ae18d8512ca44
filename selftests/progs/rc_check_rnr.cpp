// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios for receiver-not-ready: a SEND that finds no
// receive WQE is NACKed with the responder's RNR timer; the requester waits
// that long and sends again, until the receive is posted or rnr_retry runs
// out. Nothing posted after the SEND may take effect before it.

#include "rc_check_scenarios.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace rc_check {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;
// Local ACK timeout 18: 1.024 us * 2^18 = 268 ms, so the QP keeps trying
// for 8 x 268 ms (retry_cnt 7) without progress, far longer than any RNR
// delay here: a SEND can only fail by its RNR retries. (The
// retransmission timer itself follows the RTT and is off during each RNR
// wait.)
constexpr uint8_t kSlowTimeout = 18;
constexpr int kPostDelayMs = 50;
// An RNR round is an RTT plus the 0.01 ms timer: well under a millisecond
// on an idle machine. How long a recovery takes is printed, not judged:
// a loaded TCG VM stalls for tens of milliseconds now and then, so the
// figures belong to `make bench`. What is judged is a counter: the waits
// must end by RNR retries, not by the retransmission timer (the QP's
// rto_fired, from `rdma -dd res show qp`). A stall longer than an RTO in
// some RNR round may fire it now and then, but waits that all ended by
// RTOs (a requester deaf to the RNR timer) fire it once per SEND at least.
constexpr int kSamples = 5;  // single-packet SENDs besides the two above

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A driver attribute of ep's QP as `rdma -dd res show qp` prints it
// ("drv_NAME VALUE"), e.g. rto_fired.
Err qp_attr(const Endpoint& ep, const char* name, uint64_t* out) {
    std::ostringstream cmd;
    cmd << "rdma -dd res show qp link " << ep.dev->name << "/" << int{kPort} << " lqpn "
        << ep.qp->qp_num << " 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> f(popen(cmd.str().c_str(), "r"), pclose);
    if (!f)
        return fail("cannot run %s", cmd.str().c_str());
    std::string text;
    char buf[512];
    while (std::fgets(buf, sizeof(buf), f.get()))
        text += buf;
    std::istringstream words(text);
    const std::string key = std::string("drv_") + name;
    std::string w;
    while (words >> w)
        if (w == key && words >> *out)
            return std::nullopt;
    return fail("%s: no %s in: %s", cmd.str().c_str(), key.c_str(), text.c_str());
}

// Fails if the queue already holds a completion.
Err expect_empty(Endpoint& ep, Queue q, const char* when) {
    ibv_cq* cq = q == Queue::kSend ? ep.scq.get() : ep.rcq.get();
    ibv_wc wc{};
    if (ibv_poll_cq(cq, 1, &wc) > 0)
        return fail("%s: %s %s CQ holds wr_id %llu status %s", when, ep.tag,
                    q == Queue::kSend ? "send" : "recv", static_cast<unsigned long long>(wc.wr_id),
                    ibv_wc_status_str(wc.status));
    return std::nullopt;
}

// Posts B's receive for a SEND of n bytes from src that waits for it, and
// checks that A's SEND completes soon after and the data arrived.
Err release_send(Env& env, Pair& p, Region* src, size_t soff, Region* dst, size_t n, uint64_t wr_id,
                 double* recovery_ms) {
    const int wait = env.opt.wait_ms;
    auto t0 = Clock::now();
    if (auto err = post_recv(p.b, wr_id, {dst->sge(0, dst->len)}))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {wr_id, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return err;
    *recovery_ms = ms_since(t0);
    ibv_wc wc{};
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {wr_id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
        return err;
    if (wc.byte_len != n)
        return fail("B recv CQ: byte_len %u, want %zu", wc.byte_len, n);
    dst->expect(0, src->data() + soff, n);
    return dst->verify("B receive buffer");
}

}  // namespace

Err scenario_rnr_wait(Env& env, Rng& rng) {
    QpCaps caps;
    caps.min_rnr_timer = 1;  // 0.01 ms
    caps.rnr_retry = 7;      // without limit
    caps.timeout = kSlowTimeout;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    const size_t n1 = 3000;  // several packets at any path MTU up to 2048
    const size_t n2 = 100;
    const size_t nw = 4096;
    const size_t ns = n2 * kSamples;
    Region* src = nullptr;
    Region* r1 = nullptr;
    Region* r2 = nullptr;
    Region* wdst = nullptr;
    if (auto err = p.a.add_region(n1 + n2 + nw + ns, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(n1, kLocal, &r1))
        return err;
    if (auto err = p.b.add_region(n2, kLocal, &r2))
        return err;
    if (auto err = p.b.add_region(nw, kDefaultAccess, &wdst))
        return err;
    for (Region* r : {src, r1, r2, wdst})
        r->reset(rng.next());

    // SEND, WRITE, SEND with no receive posted on B.
    if (auto err = post_msg(p.a, 1, {src->sge(0, n1)}))
        return err;
    if (auto err =
            post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, {src->sge(n1, nw)}, wdst->addr(0), wdst->rkey()))
        return err;
    if (auto err = post_msg(p.a, 3, {src->sge(n1 + nw, n2)}))
        return err;
    std::this_thread::sleep_for(std::chrono::milliseconds(kPostDelayMs));
    if (auto err = expect_empty(p.a, Queue::kSend, "before any receive"))
        return err;
    if (auto err = wdst->verify("B WRITE target while the SEND before it waits"))
        return err;

    double rec1 = 0, rec2 = 0;
    if (auto err = in("first SEND", release_send(env, p, src, 0, r1, n1, 1, &rec1)))
        return err;
    if (auto err =
            expect_wc(p.a, Queue::kSend, env.opt.wait_ms, {2, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE}))
        return err;
    wdst->expect(0, src->data() + n1, nw);
    if (auto err = wdst->verify("B WRITE target"))
        return err;

    // The second SEND is NACKed in turn until its receive comes.
    std::this_thread::sleep_for(std::chrono::milliseconds(kPostDelayMs));
    if (auto err = expect_empty(p.a, Queue::kSend, "before the second receive"))
        return err;
    if (auto err = in("second SEND", release_send(env, p, src, n1 + nw, r2, n2, 3, &rec2)))
        return err;

    // More samples of the recovery time, one small SEND each.
    std::vector<double> recs = {rec1, rec2};
    for (int k = 0; k < kSamples; k++) {
        uint64_t wr_id = 10 + static_cast<uint64_t>(k);
        size_t soff = n1 + nw + n2 * static_cast<size_t>(1 + k);
        if (auto err = post_msg(p.a, wr_id, {src->sge(soff, n2)}))
            return err;
        std::this_thread::sleep_for(std::chrono::milliseconds(kPostDelayMs / 2));
        if (auto err = expect_empty(p.a, Queue::kSend, "before a receive"))
            return err;
        double rec = 0;
        if (auto err = release_send(env, p, src, soff, r2, n2, wr_id, &rec))
            return err;
        recs.push_back(rec);
    }
    std::string list;
    for (double rec : recs) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), " %.2f", rec);
        list += buf;
    }
    uint64_t rtos = 0;
    if (auto err = qp_attr(p.a, "rto_fired", &rtos))
        return err;
    std::printf(
        "# rnr-wait: ms from posting the receive to the SEND's completion:%s;"
        " median %.3f; A's RTO fired %llu times\n",
        list.c_str(), median(recs), static_cast<unsigned long long>(rtos));
    if (rtos >= recs.size())
        return fail(
            "A's RTO fired %llu times for %zu SENDs that waited: RNR retries did not "
            "end the waits",
            static_cast<unsigned long long>(rtos), recs.size());
    return expect_quiet(p);
}

// SENDs posted together into a receive queue of one slot: B posts one
// receive at a time, and the SENDs behind the one it can take wait by RNR.
// B keeps state for one message only (the QP's message records follow its
// RQ, mrc_resp.h), so every SEND past the posted WQE must be refused, not
// placed in a record another message holds. Each arrives whole and in
// order, byte for byte.
Err scenario_rnr_rq_one(Env& env, Rng& rng) {
    QpCaps caps;
    caps.recv_wr = 1;
    caps.min_rnr_timer = 1;  // 0.01 ms
    caps.rnr_retry = 7;      // without limit
    caps.timeout = kSlowTimeout;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    // One packet, several, and sizes around the 1408-byte segment.
    const std::vector<size_t> sizes = {1, 3000, 1408, 100, 1409, 9000, 0, 2817};
    size_t total = 0;
    for (size_t n : sizes)
        total += n;
    const size_t most = *std::max_element(sizes.begin(), sizes.end());
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(total, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(most * sizes.size(), kLocal, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());

    size_t soff = 0;
    for (size_t i = 0; i < sizes.size(); i++) {
        if (auto err = post_msg(p.a, i + 1, {src->sge(soff, sizes[i])}))
            return err;
        soff += sizes[i];
    }
    soff = 0;
    for (size_t i = 0; i < sizes.size(); i++) {
        const size_t doff = i * most;
        if (auto err = post_recv(p.b, i + 1, {dst->sge(doff, most)}))
            return err;
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, env.opt.wait_ms,
                                 {i + 1, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return err;
        if (wc.byte_len != sizes[i])
            return fail("B recv %zu: byte_len %u, want %zu", i + 1, wc.byte_len, sizes[i]);
        dst->expect(doff, src->data() + soff, sizes[i]);
        soff += sizes[i];
    }
    for (size_t i = 0; i < sizes.size(); i++)
        if (auto err = expect_wc(p.a, Queue::kSend, env.opt.wait_ms,
                                 {i + 1, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return err;
    if (auto err = dst->verify("B receive buffers"))
        return err;
    return expect_quiet(p);
}

Err scenario_rnr_retry_exceeded(Env& env, Rng& rng) {
    const uint8_t code = 18;  // 5.12 ms
    const double wait_ms = 5.12;
    for (uint8_t retries : {uint8_t{0}, uint8_t{2}}) {
        QpCaps caps;
        caps.min_rnr_timer = code;
        caps.rnr_retry = retries;
        caps.timeout = kSlowTimeout;
        Pair p;
        if (auto err = make_pair(env, rng, caps, &p))
            return err;
        Region* src = nullptr;
        Region* dst = nullptr;
        if (auto err = p.a.add_region(4096, kLocal, &src))
            return err;
        if (auto err = p.b.add_region(4096, kDefaultAccess, &dst))
            return err;
        src->reset(rng.next());
        dst->reset(rng.next());

        char what[64];
        std::snprintf(what, sizeof(what), "rnr_retry %u", retries);
        auto t0 = Clock::now();
        if (auto err = post_msg(p.a, 1, {src->sge(0, 100)}))
            return err;
        if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, {src->sge(0, 4096)}, dst->addr(0),
                                 dst->rkey()))
            return err;
        if (auto err = in(
                what, expect_wc(p.a, Queue::kSend, env.opt.wait_ms, {1, IBV_WC_RNR_RETRY_EXC_ERR})))
            return err;
        double took = ms_since(t0);
        std::printf("# rnr-retry-exceeded: rnr_retry %u failed after %.3f ms (timer %.2f ms)\n",
                    retries, took, wait_ms);
        if (took < retries * wait_ms)
            return fail("%s: failed after %.3f ms, before %u waits of %.2f ms", what, took, retries,
                        wait_ms);
        if (auto err =
                in(what, expect_wc(p.a, Queue::kSend, env.opt.wait_ms, {2, IBV_WC_WR_FLUSH_ERR})))
            return err;
        if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE, 3, {src->sge(0, 4096)}, dst->addr(0),
                                 dst->rkey()))
            return err;
        if (auto err = in(std::string(what) + ", WR posted after the error",
                          expect_wc(p.a, Queue::kSend, env.opt.wait_ms, {3, IBV_WC_WR_FLUSH_ERR})))
            return err;
        // The WRITE behind the refused SEND never ran.
        if (auto err = in(what, dst->verify("B memory")))
            return err;
        if (auto err = expect_quiet(p))
            return err;
    }
    return std::nullopt;
}

}  // namespace rc_check
