// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream: the TCP side channel (see stream_conn.h).

#include "stream_conn.h"

#include <arpa/inet.h>
#include <endian.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

namespace mrc_stream {

using rc_check::fail;

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t kMagic = 0x4d524353;  // "MRCS"
constexpr uint32_t kVersion = 1;
constexpr size_t kInfoLen = 52;
constexpr uint8_t kDone = 'D';

int ms_left(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits for fd to be ready for `events` until deadline.
Err wait_fd(int fd, short events, Clock::time_point deadline, const char* what) {
    for (;;) {
        pollfd pfd{fd, events, 0};
        int n = poll(&pfd, 1, ms_left(deadline));
        if (n > 0)
            return std::nullopt;
        if (n == 0)
            return fail("%s: timed out", what);
        if (errno != EINTR)
            return fail("%s: poll: %s", what, std::strerror(errno));
    }
}

Err write_all(int fd, const uint8_t* p, size_t n) {
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return fail("send: %s", std::strerror(errno));
        p += w;
        n -= static_cast<size_t>(w);
    }
    return std::nullopt;
}

Err read_all(int fd, uint8_t* p, size_t n, Clock::time_point deadline, const char* what) {
    while (n) {
        if (auto err = wait_fd(fd, POLLIN, deadline, what))
            return err;
        ssize_t r = recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return fail("%s: recv: %s", what, std::strerror(errno));
        if (r == 0)
            return fail("%s: the peer closed the connection", what);
        p += r;
        n -= static_cast<size_t>(r);
    }
    return std::nullopt;
}

void put32(uint8_t*& p, uint32_t v) {
    v = htobe32(v);
    std::memcpy(p, &v, 4);
    p += 4;
}

void put64(uint8_t*& p, uint64_t v) {
    v = htobe64(v);
    std::memcpy(p, &v, 8);
    p += 8;
}

uint32_t get32(const uint8_t*& p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    p += 4;
    return be32toh(v);
}

uint64_t get64(const uint8_t*& p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    p += 8;
    return be64toh(v);
}

}  // namespace

Fd& Fd::operator=(Fd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0)
            close(fd_);
        fd_ = o.release();
    }
    return *this;
}

Fd::~Fd() {
    if (fd_ >= 0)
        close(fd_);
}

int Fd::release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
}

Err accept_one(uint16_t port, int wait_ms, Fd* out) {
    Fd lfd(socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (lfd.get() < 0)
        return fail("socket: %s", std::strerror(errno));
    int off = 0, on = 1;
    setsockopt(lfd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
    setsockopt(lfd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_in6 sa{};
    sa.sin6_family = AF_INET6;
    sa.sin6_addr = in6addr_any;
    sa.sin6_port = htons(port);
    if (bind(lfd.get(), reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) < 0)
        return fail("bind to port %u: %s", port, std::strerror(errno));
    if (listen(lfd.get(), 1) < 0)
        return fail("listen: %s", std::strerror(errno));
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    if (auto err = wait_fd(lfd.get(), POLLIN, deadline, "waiting for a client"))
        return err;
    Fd fd(accept4(lfd.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (fd.get() < 0)
        return fail("accept: %s", std::strerror(errno));
    setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    *out = std::move(fd);
    return std::nullopt;
}

Err connect_to(const std::string& host, uint16_t port, int wait_ms, Fd* out) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* res = nullptr;
    std::string service = std::to_string(port);
    if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res))
        return fail("%s: %s", host.c_str(), gai_strerror(rc));
    std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> list(res, freeaddrinfo);

    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
        int last = 0;
        for (addrinfo* ai = res; ai; ai = ai->ai_next) {
            Fd fd(socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
            if (fd.get() < 0)
                return fail("socket: %s", std::strerror(errno));
            if (connect(fd.get(), ai->ai_addr, ai->ai_addrlen) == 0) {
                int on = 1;
                setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
                *out = std::move(fd);
                return std::nullopt;
            }
            last = errno;
        }
        bool transient = last == ECONNREFUSED || last == ETIMEDOUT || last == EHOSTUNREACH ||
                         last == ENETUNREACH || last == EINTR;
        if (!transient || ms_left(deadline) == 0)
            return fail("cannot connect to %s port %u: %s", host.c_str(), port,
                        std::strerror(last));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

Err exchange(const Fd& fd, const PeerInfo& ours, int wait_ms, PeerInfo* theirs) {
    uint8_t buf[kInfoLen];
    uint8_t* w = buf;
    put32(w, kMagic);
    put32(w, kVersion);
    put32(w, ours.qpn);
    put32(w, ours.psn);
    std::memcpy(w, ours.gid, sizeof(ours.gid));
    w += sizeof(ours.gid);
    put64(w, ours.addr);
    put32(w, ours.rkey);
    put32(w, ours.len);
    put32(w, ours.mtu);
    if (auto err = write_all(fd.get(), buf, sizeof(buf)))
        return rc_check::in("sending the connection info", err);

    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    if (auto err = read_all(fd.get(), buf, sizeof(buf), deadline, "reading the connection info"))
        return err;
    const uint8_t* r = buf;
    uint32_t magic = get32(r);
    uint32_t version = get32(r);
    if (magic != kMagic || version != kVersion)
        return fail("the peer is not mrc-stream version %u (magic 0x%08x version %u)", kVersion,
                    magic, version);
    PeerInfo p;
    p.qpn = get32(r);
    p.psn = get32(r);
    std::memcpy(p.gid, r, sizeof(p.gid));
    r += sizeof(p.gid);
    p.addr = get64(r);
    p.rkey = get32(r);
    p.len = get32(r);
    p.mtu = get32(r);
    if (p.qpn > 0xffffff || p.psn > 0xffffff)
        return fail("peer QPN 0x%x or PSN 0x%x over 24 bits", p.qpn, p.psn);
    if (p.mtu < IBV_MTU_256 || p.mtu > IBV_MTU_4096)
        return fail("peer MTU code %u not in 1..5", p.mtu);
    static const uint8_t zero[16] = {};
    if (std::memcmp(p.gid, zero, sizeof(zero)) == 0)
        return fail("peer GID is all zero");
    *theirs = p;
    return std::nullopt;
}

Err send_done(const Fd& fd) {
    return rc_check::in("telling the server we are done", write_all(fd.get(), &kDone, 1));
}

Err wait_done(const Fd& fd, int wait_ms) {
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    uint8_t b = 0;
    if (auto err = read_all(fd.get(), &b, 1, deadline, "waiting for the client to finish"))
        return err;
    if (b != kDone)
        return fail("unexpected byte 0x%02x from the client", b);
    return std::nullopt;
}

}  // namespace mrc_stream
