// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-cq-check support: asynchronous events, numbered messages from A to
// B, and CQ and QP state checks.

#include "cq_check.h"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace cq_check {

using rc_check::fail;

namespace {

using Clock = std::chrono::steady_clock;

// The CQ or QP an event is about; nullptr for unaffiliated events.
const void* element_of(const ibv_async_event& ev) {
    switch (ev.event_type) {
        case IBV_EVENT_CQ_ERR:
            return ev.element.cq;
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_COMM_EST:
        case IBV_EVENT_SQ_DRAINED:
        case IBV_EVENT_PATH_MIG:
        case IBV_EVENT_PATH_MIG_ERR:
        case IBV_EVENT_QP_LAST_WQE_REACHED:
            return ev.element.qp;
        case IBV_EVENT_SRQ_ERR:
        case IBV_EVENT_SRQ_LIMIT_REACHED:
            return ev.element.srq;
        default:
            return nullptr;
    }
}

std::string describe(const Endpoint& ep, const Event& e) {
    const char* what = "another object";
    if (e.element == ep.scq.get())
        what = "send CQ";
    else if (e.element == ep.rcq.get())
        what = "recv CQ";
    else if (e.element == ep.qp.get())
        what = "QP";
    return std::string(ibv_event_type_str(e.type)) + " on " + ep.tag + " " + what;
}

std::string describe_all(const Endpoint& ep, const std::vector<Event>& events) {
    if (events.empty())
        return "none";
    std::string s;
    for (const Event& e : events)
        s += (s.empty() ? "" : ", ") + describe(ep, e);
    return s;
}

bool same(const Event& a, const Event& b) {
    return a.type == b.type && a.element == b.element;
}

}  // namespace

Events::Events(Endpoint& ep) : ep_(ep) {
    int fd = ep.dev->ctx->async_fd;
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

Err Events::read(int timeout_ms, bool* got) {
    *got = false;
    pollfd pfd{ep_.dev->ctx->async_fd, POLLIN, 0};
    int n = poll(&pfd, 1, std::max(timeout_ms, 0));
    if (n < 0 && errno == EINTR)
        return std::nullopt;
    if (n < 0)
        return fail("%s: poll(async_fd): %s", ep_.tag, std::strerror(errno));
    if (n == 0)
        return std::nullopt;
    ibv_async_event ev{};
    if (ibv_get_async_event(ep_.dev->ctx.get(), &ev)) {
        if (errno == EAGAIN || errno == EINTR)
            return std::nullopt;
        return fail("%s: ibv_get_async_event: %s", ep_.tag, std::strerror(errno));
    }
    const void* element = element_of(ev);
    ibv_ack_async_event(&ev);
    if (element) {
        seen_.push_back({ev.event_type, element});
        *got = true;
    }
    return std::nullopt;
}

Err Events::wait_for(ibv_event_type type, const void* element, int wait_ms) {
    const Event want{type, element};
    const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
        for (const Event& e : seen_)
            if (same(e, want))
                return std::nullopt;
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return fail("no %s within %d ms (events: %s)", describe(ep_, want).c_str(), wait_ms,
                        describe_all(ep_, seen_).c_str());
        bool got = false;
        if (auto err = read(static_cast<int>(left), &got))
            return err;
    }
}

Err Events::collect(int wait_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        bool got = false;
        if (auto err = read(static_cast<int>(std::max<long long>(left, 0)), &got))
            return err;
        if (!got && left <= 0)
            return std::nullopt;
    }
}

Err Events::expect_exactly(const std::vector<Event>& want) const {
    std::vector<Event> rest = seen_;
    bool match = rest.size() == want.size();
    for (const Event& w : want) {
        auto it =
            std::find_if(rest.begin(), rest.end(), [&](const Event& e) { return same(e, w); });
        if (it == rest.end()) {
            match = false;
            break;
        }
        rest.erase(it);
    }
    if (match)
        return std::nullopt;
    return fail("%s events: got %s; want %s", ep_.tag, describe_all(ep_, seen_).c_str(),
                describe_all(ep_, want).c_str());
}

Err Msgs::setup(Pair& pair, int wait, Rng& rng) {
    p = &pair;
    wait_ms = wait;
    if (auto err = p->a.add_region(kSlots * kSlotLen, IBV_ACCESS_LOCAL_WRITE, &src))
        return err;
    if (auto err = p->b.add_region(kSlots * kSlotLen, IBV_ACCESS_LOCAL_WRITE, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    return std::nullopt;
}

Err Msgs::post_recvs(uint64_t first, uint64_t n) {
    for (uint64_t id = first; id < first + n; id++)
        if (auto err = rc_check::post_recv(p->b, id, {dst->sge(id % kSlots * kSlotLen, kSlotLen)}))
            return err;
    return std::nullopt;
}

Err Msgs::send(uint64_t first, uint64_t n) {
    constexpr uint64_t kBatch = 128;  // within A's send queue
    for (uint64_t done = 0; done < n;) {
        const uint64_t batch = std::min(kBatch, n - done);
        for (uint64_t id = first + done; id < first + done + batch; id++)
            if (auto err =
                    rc_check::post_msg(p->a, id, {src->sge(id % kSlots * kSlotLen, len(id))}))
                return err;
        for (uint64_t id = first + done; id < first + done + batch; id++)
            if (auto err = rc_check::expect_wc(p->a, Queue::kSend, wait_ms,
                                               {id, IBV_WC_SUCCESS, IBV_WC_SEND}))
                return err;
        done += batch;
    }
    return std::nullopt;
}

Err Msgs::expect_recvs(uint64_t first, uint64_t n) {
    for (uint64_t id = first; id < first + n; id++) {
        ibv_wc wc{};
        if (auto err = rc_check::expect_wc(p->b, Queue::kRecv, wait_ms,
                                           {id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return err;
        if (wc.byte_len != len(id))
            return fail("B recv CQ: wr_id %llu: byte_len %u, want %zu",
                        static_cast<unsigned long long>(id), wc.byte_len, len(id));
        const size_t off = id % kSlots * kSlotLen;
        char what[64];
        std::snprintf(what, sizeof(what), "message %llu", static_cast<unsigned long long>(id));
        if (auto err = rc_check::compare(what, dst->data() + off, src->data() + off, len(id)))
            return err;
    }
    return std::nullopt;
}

Err expect_empty(Endpoint& ep, Queue q) {
    ibv_cq* cq = q == Queue::kSend ? ep.scq.get() : ep.rcq.get();
    const char* name = q == Queue::kSend ? "send" : "recv";
    ibv_wc wc{};
    int n = ibv_poll_cq(cq, 1, &wc);
    if (n < 0)
        return fail("%s %s CQ: ibv_poll_cq: %d", ep.tag, name, n);
    if (n > 0)
        return fail("%s %s CQ: unexpected completion wr_id %llu status %s opcode %s", ep.tag, name,
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                    rc_check::opcode_str(wc.opcode));
    return std::nullopt;
}

Err expect_overflowed(Endpoint& ep, Queue q) {
    ibv_cq* cq = q == Queue::kSend ? ep.scq.get() : ep.rcq.get();
    const char* name = q == Queue::kSend ? "send" : "recv";
    for (int i = 0; i < 2; i++) {
        ibv_wc wc{};
        int n = ibv_poll_cq(cq, 1, &wc);
        if (n > 0)
            return fail("%s %s CQ: unexpected completion wr_id %llu status %s opcode %s", ep.tag,
                        name, static_cast<unsigned long long>(wc.wr_id),
                        ibv_wc_status_str(wc.status), rc_check::opcode_str(wc.opcode));
        if (n != -EOVERFLOW)
            return fail("%s %s CQ: ibv_poll_cq: %d after the overflow, want -EOVERFLOW (%d)",
                        ep.tag, name, n, -EOVERFLOW);
    }
    return std::nullopt;
}

Err expect_qp_state(Endpoint& ep, ibv_qp_state want) {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (int err = ibv_query_qp(ep.qp.get(), &attr, IBV_QP_STATE, &init))
        return fail("%s: ibv_query_qp: %s", ep.tag, std::strerror(err));
    if (attr.qp_state != want)
        return fail("%s: QP state %d, want %d", ep.tag, attr.qp_state, want);
    return std::nullopt;
}

}  // namespace cq_check
