// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-qp-scale: many connected RC QPs on one device, made and torn down
// through rdma_cm, for make bench's scale_* steps (issue 36: the scale of a
// cluster node: what each QP costs the kernel, how fast connections come
// up and go away, and that a quiet QP costs no CPU).
//
//   mrc-qp-scale server --dev D --port P --count N [options]
//   mrc-qp-scale client --dev D --host ADDR --port P --count N --hold-s S [options]
//
// Each side has one PD and one CQ, shared by all its QPs; each QP has 1
// send WR, 1 receive WR and 1 SGE of each, and nothing is ever posted.
// Everything runs on one rdma_cm event channel, asynchronously: the client
// keeps at most --window connections being set up at once (and as many
// being torn down), so that N connects are in flight together without
// flooding the CM's MAD queues. The client times the set-up (from the
// first connection's address resolution to the last ESTABLISHED), writes
// --ready-file, holds every QP connected and quiet for --hold-s seconds,
// then disconnects them all and destroys every object (the teardown:
// from the first rdma_disconnect to the PD's release). The server accepts
// until it has served --count connections and seen all of them go.
//
// Each prints one JSON line on stdout, also when it fails: then "error"
// names the failing step and errno, the counts say how far it came, and
// the exit status is 1.

#include "prog_args.h"
#include "rc_check_harness.h"
#include "stream_report.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using mrc_stream::json_quote;
using rc_check::Err;
using rc_check::fail;
using Clock = std::chrono::steady_clock;

// How often one connection is tried before the run fails: a REJECTED or
// UNREACHABLE now and then is the CM's timers under emulation, not a
// verdict on the device.
constexpr unsigned kTries = 4;
constexpr int kResolveMs = 5000;  // rdma_resolve_addr/route timeouts
constexpr int kBacklog = 1024;    // rdma_listen; ucma caps it at its max_backlog

volatile sig_atomic_t g_stop = 0;

void on_signal(int) {
    g_stop = 1;
}

struct Options {
    bool server = false;
    std::string dev;
    std::string host;
    std::string bind = "0.0.0.0";
    uint16_t port = 0;
    unsigned count = 0;
    unsigned window = 64;
    double hold_s = -1;
    int timeout_s = 300;
    std::string ready_file;
};

struct ChannelDeleter {
    void operator()(rdma_event_channel* ch) const { rdma_destroy_event_channel(ch); }
};
using Channel = std::unique_ptr<rdma_event_channel, ChannelDeleter>;

// Owns an rdma_cm id and the QP on it (destroyed first).
class CmId {
public:
    CmId() = default;
    explicit CmId(rdma_cm_id* id) : id_(id) {}
    CmId(CmId&& o) noexcept : id_(std::exchange(o.id_, nullptr)) {}
    CmId& operator=(CmId&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, nullptr);
        }
        return *this;
    }
    CmId(const CmId&) = delete;
    CmId& operator=(const CmId&) = delete;
    ~CmId() { reset(); }

    rdma_cm_id* get() const { return id_; }
    explicit operator bool() const { return id_ != nullptr; }
    // rdma_destroy_id waits until every event of the id is acknowledged:
    // next_event acknowledges each one before it is handled.
    void reset() {
        if (!id_)
            return;
        if (id_->qp)
            rdma_destroy_qp(id_);
        rdma_destroy_id(id_);
        id_ = nullptr;
    }

private:
    rdma_cm_id* id_ = nullptr;
};

// What the side's QPs share: made on the device of the first connection
// (rdma_cm opens the devices; the context is librdmacm's).
struct Shared {
    ibv_context* ctx = nullptr;
    rc_check::Pd pd;
    rc_check::Cq cq;  // declared after pd: destroyed before it
};

// One event, acknowledged already: what the handlers need of it.
struct Event {
    rdma_cm_event_type type = RDMA_CM_EVENT_ADDR_RESOLVED;
    rdma_cm_id* id = nullptr;
    int status = 0;
};

double secs(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

int ms_left(Clock::time_point deadline) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, INT_MAX));
}

Err errno_fail(const std::string& what) {
    return fail("%s: %s", what.c_str(), std::strerror(errno));
}

// Waits until deadline for the next event on ch; *got is false if none
// came. The event is acknowledged before this returns.
Err next_event(rdma_event_channel* ch, Clock::time_point deadline, bool* got, Event* ev) {
    *got = false;
    for (;;) {
        if (g_stop)
            return fail("stopped by a signal");
        pollfd pfd{ch->fd, POLLIN, 0};
        int n = poll(&pfd, 1, ms_left(deadline));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno_fail("poll on the rdma_cm event channel");
        if (n == 0)
            return std::nullopt;
        rdma_cm_event* e = nullptr;
        if (rdma_get_cm_event(ch, &e)) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            return errno_fail("rdma_get_cm_event");
        }
        ev->type = e->event;
        ev->id = e->id;
        ev->status = e->status;
        rdma_ack_cm_event(e);
        *got = true;
        return std::nullopt;
    }
}

Err open_channel(Channel* out) {
    Channel ch(rdma_create_event_channel());
    if (!ch)
        return errno_fail("rdma_create_event_channel");
    // Non-blocking: poll says when to read, and a read never hangs.
    int fl = fcntl(ch->fd, F_GETFL);
    if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return errno_fail("making the event channel non-blocking");
    *out = std::move(ch);
    return std::nullopt;
}

// The PD and the CQ, on the device rdma_cm chose for the first connection,
// which must be dev. Later connections must come on the same device.
Err shared_for(ibv_context* ctx, const Options& o, Shared* s) {
    if (s->ctx) {
        if (ctx != s->ctx)
            return fail("rdma_cm chose device %s for a connection, not %s",
                        ibv_get_device_name(ctx->device), o.dev.c_str());
        return std::nullopt;
    }
    const char* name = ibv_get_device_name(ctx->device);
    if (o.dev != name)
        return fail("rdma_cm chose device %s, not %s (check the address and namespace)", name,
                    o.dev.c_str());
    ibv_device_attr attr{};
    if (int rc = ibv_query_device(ctx, &attr))
        return fail("ibv_query_device on %s: %s", name, std::strerror(rc));
    if (static_cast<long long>(o.count) > attr.max_qp)
        return fail("%s allows %d QPs, fewer than --count %u", name, attr.max_qp, o.count);
    s->pd.reset(ibv_alloc_pd(ctx));
    if (!s->pd)
        return errno_fail("ibv_alloc_pd");
    // Room for every WR of every QP, as a real application would size it.
    int cqe = static_cast<int>(std::min<long long>(attr.max_cqe, 2LL * o.count + 1));
    s->cq.reset(ibv_create_cq(ctx, cqe, nullptr, nullptr, 0));
    if (!s->cq)
        return fail("ibv_create_cq of %d entries: %s", cqe, std::strerror(errno));
    s->ctx = ctx;
    return std::nullopt;
}

// rdma_create_qp: an RC QP of 1 WR and 1 SGE each way on the shared CQ.
Err create_qp(rdma_cm_id* id, Shared& s) {
    ibv_qp_init_attr qa{};
    qa.send_cq = s.cq.get();
    qa.recv_cq = s.cq.get();
    qa.qp_type = IBV_QPT_RC;
    qa.cap.max_send_wr = 1;
    qa.cap.max_recv_wr = 1;
    qa.cap.max_send_sge = 1;
    qa.cap.max_recv_sge = 1;
    if (rdma_create_qp(id, s.pd.get(), &qa))
        return errno_fail("rdma_create_qp");
    return std::nullopt;
}

rdma_conn_param conn_param() {
    rdma_conn_param p{};
    p.retry_count = 7;
    p.rnr_retry_count = 7;
    return p;
}

// Writes path atomically (a file renamed into place), for scripts that
// wait for it to exist.
Err write_ready(const std::string& path, const std::string& text) {
    if (path.empty())
        return std::nullopt;
    std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f)
        return errno_fail("creating " + tmp);
    bool ok = std::fputs(text.c_str(), f) >= 0;
    ok = std::fclose(f) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()))
        return errno_fail("writing " + path);
    return std::nullopt;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

// ---- client ----

enum class St : uint8_t { kIdle, kResolving, kConnecting, kUp, kClosing, kGone };

struct Slot {
    CmId id;
    St st = St::kIdle;
    uint8_t tries = 0;
};

struct ClientReport {
    unsigned established = 0;
    unsigned retries = 0;
    unsigned disconnected = 0;
    unsigned hold_events = 0;
    double setup_s = -1;
    double teardown_s = -1;
    std::string last_retry;  // why the last retry was needed
};

class Client {
public:
    Client(const Options& o, ClientReport* r) : o_(o), r_(r), slots_(o.count) {}
    Err run();

private:
    Err resolve_dst();
    Err start(unsigned i);
    Err retry(unsigned i, const Event& ev);
    Err on_setup_event(const Event& ev);
    Err setup();
    Err hold();
    Err teardown();
    unsigned index(const Event& ev) const {
        return static_cast<unsigned>(reinterpret_cast<uintptr_t>(ev.id->context));
    }

    const Options& o_;
    ClientReport* r_;
    sockaddr_storage dst_{};
    Channel ch_;
    Shared shared_;
    std::vector<Slot> slots_;  // declared after shared_: QPs go first
    std::deque<unsigned> again_;
    unsigned inflight_ = 0;
};

Err Client::resolve_dst() {
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICSERV;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    std::string port = std::to_string(o_.port);
    if (int rc = getaddrinfo(o_.host.c_str(), port.c_str(), &hints, &res))
        return fail("resolving %s: %s", o_.host.c_str(), gai_strerror(rc));
    std::memcpy(&dst_, res->ai_addr, std::min<size_t>(res->ai_addrlen, sizeof(dst_)));
    freeaddrinfo(res);
    return std::nullopt;
}

Err Client::start(unsigned i) {
    rdma_cm_id* id = nullptr;
    void* ctx = reinterpret_cast<void*>(static_cast<uintptr_t>(i));
    if (rdma_create_id(ch_.get(), &id, ctx, RDMA_PS_TCP))
        return errno_fail("rdma_create_id for connection " + std::to_string(i));
    Slot& s = slots_[i];
    s.id = CmId(id);
    if (rdma_resolve_addr(id, nullptr, reinterpret_cast<sockaddr*>(&dst_), kResolveMs))
        return errno_fail("rdma_resolve_addr for connection " + std::to_string(i));
    s.st = St::kResolving;
    s.tries++;
    inflight_++;
    return std::nullopt;
}

// A connection attempt that failed on the way: again, kTries at most.
Err Client::retry(unsigned i, const Event& ev) {
    Slot& s = slots_[i];
    s.id.reset();
    s.st = St::kIdle;
    inflight_--;
    char why[96];
    std::snprintf(why, sizeof(why), "%s (status %d)", rdma_event_str(ev.type), ev.status);
    if (s.tries >= kTries)
        return fail("connection %u: %s, %u times", i, why, s.tries);
    r_->retries++;
    r_->last_retry = why;
    again_.push_back(i);
    return std::nullopt;
}

Err Client::on_setup_event(const Event& ev) {
    unsigned i = index(ev);
    if (i >= slots_.size() || slots_[i].id.get() != ev.id)
        return std::nullopt;  // of an id retried since
    Slot& s = slots_[i];
    rdma_cm_id* id = ev.id;
    std::string which = " for connection " + std::to_string(i);
    switch (ev.type) {
        case RDMA_CM_EVENT_ADDR_RESOLVED:
            if (auto err = shared_for(id->verbs, o_, &shared_))
                return err;
            if (rdma_resolve_route(id, kResolveMs))
                return errno_fail("rdma_resolve_route" + which);
            return std::nullopt;
        case RDMA_CM_EVENT_ROUTE_RESOLVED: {
            if (auto err = create_qp(id, shared_))
                return rc_check::in("connection " + std::to_string(i), err);
            rdma_conn_param p = conn_param();
            if (rdma_connect(id, &p))
                return errno_fail("rdma_connect" + which);
            s.st = St::kConnecting;
            return std::nullopt;
        }
        case RDMA_CM_EVENT_ESTABLISHED:
            s.st = St::kUp;
            inflight_--;
            r_->established++;
            return std::nullopt;
        case RDMA_CM_EVENT_ADDR_ERROR:
        case RDMA_CM_EVENT_ROUTE_ERROR:
        case RDMA_CM_EVENT_CONNECT_ERROR:
        case RDMA_CM_EVENT_UNREACHABLE:
        case RDMA_CM_EVENT_REJECTED:
            return retry(i, ev);
        case RDMA_CM_EVENT_DISCONNECTED:
            if (s.st == St::kUp)
                return fail("connection %u was lost during the set-up (status %d)", i, ev.status);
            return retry(i, ev);
        case RDMA_CM_EVENT_DEVICE_REMOVAL:
            return fail("the device went away");
        default:
            return std::nullopt;  // TIMEWAIT_EXIT, ADDR_CHANGE: nothing to do
    }
}

Err Client::setup() {
    auto t0 = Clock::now();
    auto deadline = t0 + std::chrono::seconds(o_.timeout_s);
    unsigned next = 0;
    while (r_->established < o_.count) {
        while (inflight_ < o_.window && (!again_.empty() || next < o_.count)) {
            unsigned i = next;
            if (!again_.empty()) {
                i = again_.front();
                again_.pop_front();
            } else {
                next++;
            }
            if (auto err = start(i))
                return err;
        }
        Event ev;
        bool got = false;
        if (auto err = next_event(ch_.get(), deadline, &got, &ev))
            return err;
        if (!got)
            return fail("set-up timed out after %d s, %u connections being made", o_.timeout_s,
                        inflight_);
        if (auto err = on_setup_event(ev))
            return err;
    }
    r_->setup_s = secs(Clock::now() - t0);
    return std::nullopt;
}

// Every QP connected and quiet: no event should come; any that does is
// counted, and a lost connection fails the run.
Err Client::hold() {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(o_.hold_s));
    for (;;) {
        Event ev;
        bool got = false;
        if (auto err = next_event(ch_.get(), deadline, &got, &ev))
            return err;
        if (!got)
            return std::nullopt;
        r_->hold_events++;
        if (ev.type == RDMA_CM_EVENT_DISCONNECTED)
            return fail("connection %u was lost while held (status %d)", index(ev), ev.status);
    }
}

Err Client::teardown() {
    auto t0 = Clock::now();
    auto deadline = t0 + std::chrono::seconds(o_.timeout_s);
    unsigned next = 0, closing = 0;
    while (r_->disconnected < o_.count) {
        for (; closing < o_.window && next < o_.count; next++) {
            Slot& s = slots_[next];
            if (rdma_disconnect(s.id.get()))
                return errno_fail("rdma_disconnect of connection " + std::to_string(next));
            s.st = St::kClosing;
            closing++;
        }
        Event ev;
        bool got = false;
        if (auto err = next_event(ch_.get(), deadline, &got, &ev))
            return err;
        if (!got)
            return fail("teardown timed out after %d s, %u disconnects outstanding", o_.timeout_s,
                        closing);
        unsigned i = index(ev);
        if (ev.type != RDMA_CM_EVENT_DISCONNECTED || i >= slots_.size() ||
            slots_[i].id.get() != ev.id)
            continue;
        // DISCONNECTED also when the DREQ timed out (status -ETIMEDOUT):
        // the QP is gone either way.
        if (slots_[i].st == St::kClosing)
            closing--;
        slots_[i].id.reset();
        slots_[i].st = St::kGone;
        r_->disconnected++;
    }
    shared_.cq.reset();
    shared_.pd.reset();
    r_->teardown_s = secs(Clock::now() - t0);
    return std::nullopt;
}

Err Client::run() {
    if (auto err = resolve_dst())
        return err;
    if (auto err = open_channel(&ch_))
        return err;
    if (auto err = setup())
        return err;
    if (auto err = write_ready(o_.ready_file, std::to_string(o_.count) + " established\n"))
        return err;
    if (auto err = hold())
        return err;
    return teardown();
}

std::string client_json(const Options& o, const ClientReport& r, const Err& err) {
    std::string j = "{\"role\":\"client\",\"device\":" + json_quote(o.dev);
    j += ",\"count\":" + std::to_string(o.count);
    j += ",\"window\":" + std::to_string(o.window);
    j += ",\"established\":" + std::to_string(r.established);
    j += ",\"setup_s\":" + (r.setup_s >= 0 ? num(r.setup_s) : "null");
    j += ",\"per_s\":" + (r.setup_s > 0 ? num(o.count / r.setup_s) : "null");
    j += ",\"hold_s\":" + num(o.hold_s);
    j += ",\"hold_events\":" + std::to_string(r.hold_events);
    j += ",\"disconnected\":" + std::to_string(r.disconnected);
    j += ",\"teardown_s\":" + (r.teardown_s >= 0 ? num(r.teardown_s) : "null");
    j += ",\"retries\":" + std::to_string(r.retries);
    j += ",\"last_retry\":" + (r.retries ? json_quote(r.last_retry) : "null");
    j += ",\"error\":" + (err ? json_quote(*err) : "null");
    return j + "}";
}

// ---- server ----

struct ServerReport {
    unsigned accepted = 0;
    unsigned established = 0;
    unsigned disconnected = 0;
    unsigned failed = 0;  // accepted, then never established
    double setup_s = -1;
    double teardown_s = -1;
};

class Server {
public:
    Server(const Options& o, ServerReport* r) : o_(o), r_(r) {}
    Err run();

private:
    Err listen();
    Err on_request(rdma_cm_id* id);
    Err on_event(const Event& ev);

    const Options& o_;
    ServerReport* r_;
    Channel ch_;
    CmId listen_;
    Shared shared_;
    std::vector<CmId> conns_;  // declared after shared_: QPs go first
    unsigned live_ = 0;
    Clock::time_point first_req_, first_disc_;
};

Err Server::listen() {
    rdma_cm_id* id = nullptr;
    if (rdma_create_id(ch_.get(), &id, nullptr, RDMA_PS_TCP))
        return errno_fail("rdma_create_id of the listener");
    listen_ = CmId(id);
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    std::string port = std::to_string(o_.port);
    if (int rc = getaddrinfo(o_.bind.c_str(), port.c_str(), &hints, &res))
        return fail("--bind %s: %s", o_.bind.c_str(), gai_strerror(rc));
    int rc = rdma_bind_addr(id, res->ai_addr);
    int bind_errno = errno;
    freeaddrinfo(res);
    if (rc)
        return fail("rdma_bind_addr to %s port %u: %s", o_.bind.c_str(), o_.port,
                    std::strerror(bind_errno));
    if (rdma_listen(id, kBacklog))
        return errno_fail("rdma_listen");
    return write_ready(o_.ready_file, "listening\n");
}

Err Server::on_request(rdma_cm_id* id) {
    if (r_->accepted == 0)
        first_req_ = Clock::now();
    unsigned i = static_cast<unsigned>(conns_.size());
    id->context = reinterpret_cast<void*>(static_cast<uintptr_t>(i));
    conns_.emplace_back(id);
    live_++;
    std::string which = "connection request " + std::to_string(i);
    if (auto err = shared_for(id->verbs, o_, &shared_)) {
        rdma_reject(id, nullptr, 0);
        return rc_check::in(which, err);
    }
    if (auto err = create_qp(id, shared_)) {
        rdma_reject(id, nullptr, 0);
        return rc_check::in(which, err);
    }
    rdma_conn_param p = conn_param();
    if (rdma_accept(id, &p))
        return errno_fail("rdma_accept of " + which);
    r_->accepted++;
    return std::nullopt;
}

Err Server::on_event(const Event& ev) {
    if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST)
        return on_request(ev.id);
    if (ev.type == RDMA_CM_EVENT_DEVICE_REMOVAL)
        return fail("the device went away");
    if (ev.id == listen_.get())
        return std::nullopt;
    unsigned i = static_cast<unsigned>(reinterpret_cast<uintptr_t>(ev.id->context));
    if (i >= conns_.size() || conns_[i].get() != ev.id)
        return std::nullopt;
    switch (ev.type) {
        case RDMA_CM_EVENT_ESTABLISHED:
            if (++r_->established == o_.count)
                r_->setup_s = secs(Clock::now() - first_req_);
            return std::nullopt;
        case RDMA_CM_EVENT_DISCONNECTED:
            if (r_->disconnected++ == 0)
                first_disc_ = Clock::now();
            break;
        case RDMA_CM_EVENT_CONNECT_ERROR:
        case RDMA_CM_EVENT_UNREACHABLE:
        case RDMA_CM_EVENT_REJECTED:
            r_->failed++;  // the client tries again
            break;
        default:
            return std::nullopt;
    }
    conns_[i].reset();
    live_--;
    if (r_->established >= o_.count && live_ == 0)
        r_->teardown_s = secs(Clock::now() - first_disc_);
    return std::nullopt;
}

Err Server::run() {
    if (auto err = open_channel(&ch_))
        return err;
    if (auto err = listen())
        return err;
    auto deadline = Clock::now() + std::chrono::seconds(o_.timeout_s);
    while (!(r_->established >= o_.count && live_ == 0)) {
        Event ev;
        bool got = false;
        if (auto err = next_event(ch_.get(), deadline, &got, &ev))
            return err;
        if (!got)
            return fail("timed out after %d s with %u connections open", o_.timeout_s, live_);
        if (auto err = on_event(ev))
            return err;
    }
    return std::nullopt;
}

std::string server_json(const Options& o, const ServerReport& r, const Err& err) {
    std::string j = "{\"role\":\"server\",\"device\":" + json_quote(o.dev);
    j += ",\"count\":" + std::to_string(o.count);
    j += ",\"accepted\":" + std::to_string(r.accepted);
    j += ",\"established\":" + std::to_string(r.established);
    j += ",\"disconnected\":" + std::to_string(r.disconnected);
    j += ",\"failed\":" + std::to_string(r.failed);
    j += ",\"setup_s\":" + (r.setup_s >= 0 ? num(r.setup_s) : "null");
    j += ",\"teardown_s\":" + (r.teardown_s >= 0 ? num(r.teardown_s) : "null");
    j += ",\"error\":" + (err ? json_quote(*err) : "null");
    return j + "}";
}

// ---- command line ----

void usage(FILE* f) {
    std::fprintf(f,
                 "usage: mrc-qp-scale server --dev DEV --port P --count N [options]\n"
                 "       mrc-qp-scale client --dev DEV --host ADDR --port P --count N --hold-s S "
                 "[options]\n"
                 "\n"
                 "  --dev DEV          the RDMA device rdma_cm must choose (e.g. mrcA)\n"
                 "  --host ADDR        client: the server's address\n"
                 "  --bind ADDR        server: the address to listen on (default 0.0.0.0)\n"
                 "  --port P           rdma_cm port\n"
                 "  --count N          connections (client: to make; server: to serve)\n"
                 "  --hold-s S         client: seconds to hold them all connected\n"
                 "  --window W         client: connections being made or closed at once (64)\n"
                 "  --timeout-s T      client: limit of the set-up and of the teardown each;\n"
                 "                     server: of its whole run (300)\n"
                 "  --ready-file F     client: written once all are established; server:\n"
                 "                     once it listens\n");
}

// Returns 0 to run, 2 on a usage error, -1 after --help.
int parse_args(int argc, char** argv, Options* o) {
    int rc = mrc_prog::parse_mode(argc, argv, "mrc-qp-scale", usage, &o->server);
    if (rc)
        return rc;
    for (int i = 2; i < argc; i++) {
        std::string arg = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!val) {
            std::fprintf(stderr, "mrc-qp-scale: %s needs a value\n", arg.c_str());
            return 2;
        }
        i++;
        uint64_t n = 0;
        auto number = [&](uint64_t lo, uint64_t hi) {
            return mrc_prog::parse_number("mrc-qp-scale", arg, val, lo, hi, &n);
        };
        bool ok = true;
        if (arg == "--dev") {
            o->dev = val;
        } else if (arg == "--host") {
            o->host = val;
        } else if (arg == "--bind") {
            o->bind = val;
        } else if (arg == "--ready-file") {
            o->ready_file = val;
        } else if (arg == "--port") {
            ok = number(1, 65535) && (o->port = static_cast<uint16_t>(n), true);
        } else if (arg == "--count") {
            ok = number(1, 1000000) && (o->count = static_cast<unsigned>(n), true);
        } else if (arg == "--window") {
            ok = number(1, 4096) && (o->window = static_cast<unsigned>(n), true);
        } else if (arg == "--timeout-s") {
            ok = number(1, 86400) && (o->timeout_s = static_cast<int>(n), true);
        } else if (arg == "--hold-s") {
            char* end = nullptr;
            errno = 0;
            o->hold_s = std::strtod(val, &end);
            ok = !errno && *end == '\0' && o->hold_s >= 0 && o->hold_s <= 86400;
            if (!ok)
                std::fprintf(stderr, "mrc-qp-scale: --hold-s needs seconds in [0, 86400]\n");
        } else {
            std::fprintf(stderr, "mrc-qp-scale: unknown option \"%s\"\n", arg.c_str());
            ok = false;
        }
        if (!ok)
            return 2;
    }
    if (o->dev.empty() || o->port == 0 || o->count == 0 ||
        (!o->server && (o->host.empty() || o->hold_s < 0))) {
        std::fprintf(stderr, "mrc-qp-scale: --dev, --port and --count are required%s\n",
                     o->server ? "" : ", and --host and --hold-s for the client");
        return 2;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    // A signal ends the run through its error path, so that the JSON line
    // still says how far it came. No SA_RESTART: poll returns EINTR.
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    Err err;
    std::string line;
    if (o.server) {
        ServerReport r;
        {
            Server s(o, &r);
            err = s.run();
        }  // every object released before the report
        line = server_json(o, r, err);
    } else {
        ClientReport r;
        {
            Client c(o, &r);
            err = c.run();
        }
        line = client_json(o, r, err);
    }
    std::printf("%s\n", line.c_str());
    if (err)
        std::fprintf(stderr, "mrc-qp-scale %s on %s: %s\n", o.server ? "server" : "client",
                     o.dev.c_str(), err->c_str());
    return std::fflush(stdout) == 0 && !err ? 0 : 1;
}
