// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-cq-check resize scenarios: ibv_resize_cq up and down while
// completions are queued keeps every one, in order; the resized CQ holds
// exactly its new depth; a size below what is queued fails with EINVAL and
// leaves the CQ as it was, and so does a resize whose new ring cannot be
// mapped.

#include "cq_check.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cq_check {

using rc_check::fail;
using rc_check::in;
using rc_check::QpCaps;

namespace {

constexpr uint64_t kRecvs = 200;  // receives posted at B up front

Err resize(Endpoint& ep, Queue q, int cqe) {
    ibv_cq* cq = q == Queue::kSend ? ep.scq.get() : ep.rcq.get();
    const char* name = q == Queue::kSend ? "send" : "recv";
    const int before = cq->cqe;
    if (int err = ibv_resize_cq(cq, cqe))
        return fail("%s %s CQ: ibv_resize_cq(%d) from depth %d: %s", ep.tag, name, cqe, before,
                    std::strerror(err));
    if (cq->cqe < cqe)
        return fail("%s %s CQ: depth %d after ibv_resize_cq(%d)", ep.tag, name, cq->cqe, cqe);
    return std::nullopt;
}

Err resize_fails(Endpoint& ep, int cqe, const char* why) {
    const int before = ep.rcq->cqe;
    int err = ibv_resize_cq(ep.rcq.get(), cqe);
    if (err != EINVAL)
        return fail("%s recv CQ: ibv_resize_cq(%d) %s: %s, want EINVAL", ep.tag, cqe, why,
                    err ? std::strerror(err) : "succeeded");
    if (ep.rcq->cqe != before)
        return fail("%s recv CQ: depth %d after a failed resize, was %d", ep.tag, ep.rcq->cqe,
                    before);
    return std::nullopt;
}

// A pair, B's receive CQ asked for rcq_depth, kRecvs receives posted at B.
Err start(Env& env, Rng& rng, int rcq_depth, Pair* p, Msgs* m) {
    QpCaps caps;
    caps.rcq_depth = rcq_depth;
    if (auto err = make_pair(env, rng, caps, p))
        return err;
    if (auto err = m->setup(*p, env.opt.wait_ms, rng))
        return err;
    return m->post_recvs(0, kRecvs);
}

// Caps the address space just above what the process maps now, so that no
// ring of a few hundred KiB can be mapped; restores the limit on scope exit.
class AddressSpaceCap {
public:
    static constexpr rlim_t kSlack = 128 * 1024;  // room for the stack to grow
    AddressSpaceCap() { getrlimit(RLIMIT_AS, &saved_); }
    AddressSpaceCap(const AddressSpaceCap&) = delete;
    AddressSpaceCap& operator=(const AddressSpaceCap&) = delete;
    ~AddressSpaceCap() {
        if (applied_)
            setrlimit(RLIMIT_AS, &saved_);
    }
    Err apply() {
        unsigned long pages = 0;
        FILE* f = std::fopen("/proc/self/statm", "r");
        if (!f)
            return fail("/proc/self/statm: %s", std::strerror(errno));
        int got = std::fscanf(f, "%lu", &pages);
        std::fclose(f);
        if (got != 1)
            return fail("/proc/self/statm: no size");
        rlimit lim = saved_;
        lim.rlim_cur = pages * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + kSlack;
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            return fail("setrlimit(RLIMIT_AS): %s", std::strerror(errno));
        applied_ = true;
        return std::nullopt;
    }

private:
    rlimit saved_{};
    bool applied_ = false;
};

}  // namespace

Err scenario_resize_map_fails(Env& env, Rng& rng) {
    Pair p;
    Msgs m;
    if (auto err = start(env, rng, 16, &p, &m))
        return err;
    Events eb(p.b);
    if (auto err = m.send(0, 10))
        return err;
    const int before = p.b.rcq->cqe;
    // A ring of 8192 CQEs (384 KiB) does not fit under the cap.
    int ret = 0;
    {
        AddressSpaceCap cap;
        if (auto err = cap.apply())
            return err;
        ret = ibv_resize_cq(p.b.rcq.get(), 4096);
    }
    if (ret == 0)
        return fail("B recv CQ: ibv_resize_cq(4096) with no address space left succeeded");
    std::printf("# ibv_resize_cq(4096) with no address space left: %s\n", std::strerror(ret));
    if (p.b.rcq->cqe != before)
        return fail("B recv CQ: depth %d after a failed resize (%s), was %d", p.b.rcq->cqe,
                    std::strerror(ret), before);
    // The old ring is still the CQ's: what is queued, then new completions.
    if (auto err = in("after a resize whose mmap failed", m.expect_recvs(0, 10)))
        return err;
    if (auto err = in("after a resize whose mmap failed", m.send(10, 5)))
        return err;
    if (auto err = in("after a resize whose mmap failed", m.expect_recvs(10, 5)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;
    // And it still resizes once there is room.
    if (auto err = resize(p.b, Queue::kRecv, 64))
        return err;
    if (auto err = in("after resizing with room", m.send(15, 5)))
        return err;
    if (auto err = in("after resizing with room", m.expect_recvs(15, 5)))
        return err;
    if (auto err = eb.collect(0))
        return err;
    return eb.expect_exactly({});
}

Err scenario_resize_grow(Env& env, Rng& rng) {
    Pair p;
    Msgs m;
    if (auto err = start(env, rng, 8, &p, &m))
        return err;
    Events eb(p.b);
    const uint64_t d0 = p.b.rcq->cqe;

    if (auto err = m.send(0, d0))  // full
        return err;
    // Move the consumer index off the start of the ring.
    if (auto err = m.expect_recvs(0, 3))
        return err;
    if (auto err = resize(p.b, Queue::kRecv, 40))
        return err;
    const uint64_t d1 = p.b.rcq->cqe;
    const uint64_t queued = d0 - 3;
    if (auto err = in("after growing", m.send(d0, d1 - queued)))  // full again
        return err;
    if (auto err = eb.collect(0))
        return err;
    if (auto err = in("grown CQ exactly full", eb.expect_exactly({})))
        return err;
    if (auto err = resize(p.b, Queue::kRecv, 100))  // a full CQ grows too
        return err;
    const uint64_t sent = d0 + d1 - queued;
    if (auto err = in("after growing again", m.send(sent, 10)))
        return err;
    if (auto err = in("after two resizes", m.expect_recvs(3, sent + 10 - 3)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;
    if (auto err = eb.collect(0))
        return err;
    return eb.expect_exactly({});
}

Err scenario_resize_shrink(Env& env, Rng& rng) {
    Pair p;
    Msgs m;
    if (auto err = start(env, rng, 100, &p, &m))
        return err;
    Events eb(p.b);

    if (auto err = m.send(0, 40))
        return err;
    if (auto err = resize(p.b, Queue::kRecv, 40))  // exactly what is queued
        return err;
    if (auto err = m.expect_recvs(0, 10))
        return err;
    if (auto err = resize(p.b, Queue::kRecv, 30))  // again, off the ring's start
        return err;
    const uint64_t d = p.b.rcq->cqe;
    if (auto err = in("after shrinking", m.send(40, d - 30)))  // full
        return err;
    if (auto err = eb.collect(0))
        return err;
    if (auto err = in("shrunk CQ exactly full", eb.expect_exactly({})))
        return err;
    if (auto err = in("after two resizes", m.expect_recvs(10, d)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;

    // The shrunk CQ fills to its depth again and drains.
    const uint64_t next = 40 + d - 30;
    if (auto err = in("refill", m.send(next, d)))
        return err;
    if (auto err = in("refill", m.expect_recvs(next, d)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;
    if (auto err = eb.collect(0))
        return err;
    return eb.expect_exactly({});
}

Err scenario_resize_below_pending(Env& env, Rng& rng) {
    Pair p;
    Msgs m;
    if (auto err = start(env, rng, 100, &p, &m))
        return err;
    Events eb(p.b);

    if (auto err = m.send(0, 20))
        return err;
    if (auto err = resize_fails(p.b, 19, "with 20 completions queued"))
        return err;
    if (auto err = resize_fails(p.b, 1, "with 20 completions queued"))
        return err;
    if (auto err = resize_fails(p.b, 0, "(zero)"))
        return err;
    if (auto err = resize_fails(p.b, p.b.dev->attr.max_cqe + 1, "(above max_cqe)"))
        return err;
    if (auto err = in("after failed resizes", m.expect_recvs(0, 20)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;
    if (auto err = in("after failed resizes", m.send(20, 5)))
        return err;
    if (auto err = in("after failed resizes", m.expect_recvs(20, 5)))
        return err;

    // With nothing queued, any depth will do.
    if (auto err = resize(p.b, Queue::kRecv, 4))
        return err;
    const uint64_t d = p.b.rcq->cqe;
    if (auto err = in("after shrinking an empty CQ", m.send(25, d)))
        return err;
    if (auto err = in("after shrinking an empty CQ", m.expect_recvs(25, d)))
        return err;
    if (auto err = expect_empty(p.b, Queue::kRecv))
        return err;
    if (auto err = eb.collect(0))
        return err;
    return eb.expect_exactly({});
}

Err scenario_resize_in_flight(Env& env, Rng& rng) {
    constexpr uint64_t kMsgs = 200;
    // Every depth holds all kMsgs, so no resize may fail or overflow.
    const int depths[] = {220, 300, 201, 250, 200};
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.scq_depth = kMsgs;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Msgs m;
    if (auto err = m.setup(p, wait, rng))
        return err;
    if (auto err = m.post_recvs(0, kMsgs))
        return err;
    Events ea(p.a);

    // Resize A's send CQ while the acknowledgments come in and complete
    // the SENDs, polling a few completions in between.
    for (uint64_t id = 0; id < kMsgs; id++)
        if (auto err = rc_check::post_msg(
                p.a, id, {m.src->sge(id % Msgs::kSlots * Msgs::kSlotLen, Msgs::len(id))}))
            return err;
    uint64_t next = 0;
    for (int depth : depths) {
        if (auto err = resize(p.a, Queue::kSend, depth))
            return err;
        ibv_wc wc[7];
        int n = ibv_poll_cq(p.a.scq.get(), 7, wc);
        if (n < 0)
            return fail("A send CQ: ibv_poll_cq: %d", n);
        for (int i = 0; i < n; i++, next++)
            if (wc[i].wr_id != next || wc[i].status != IBV_WC_SUCCESS)
                return fail("A send CQ after resizing to %d: wr_id %llu status %s, want %llu",
                            depth, static_cast<unsigned long long>(wc[i].wr_id),
                            ibv_wc_status_str(wc[i].status), static_cast<unsigned long long>(next));
    }
    for (; next < kMsgs; next++)
        if (auto err =
                rc_check::expect_wc(p.a, Queue::kSend, wait, {next, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return err;
    if (auto err = expect_empty(p.a, Queue::kSend))
        return err;
    if (auto err = m.expect_recvs(0, kMsgs))
        return err;
    if (auto err = ea.collect(0))
        return err;
    return ea.expect_exactly({});
}

}  // namespace cq_check
