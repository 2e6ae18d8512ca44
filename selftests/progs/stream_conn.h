// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream's side channel, as perftest has one: a TCP connection over
// which the two ends swap what each needs to reach the other's QP and
// memory, and over which the client says when it is done.

#ifndef MRC_SELFTESTS_STREAM_CONN_H
#define MRC_SELFTESTS_STREAM_CONN_H

#include "rc_check_harness.h"

#include <cstdint>
#include <string>

namespace mrc_stream {

using rc_check::Err;

// Owns a file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& o) noexcept : fd_(o.release()) {}
    Fd& operator=(Fd&& o) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();

    int get() const { return fd_; }
    int release();

private:
    int fd_ = -1;
};

// What one end tells the other.
struct PeerInfo {
    uint32_t qpn = 0;
    uint32_t psn = 0;
    uint8_t gid[16] = {};
    uint64_t addr = 0;  // the target buffer of the RDMA WRITEs
    uint32_t rkey = 0;
    uint32_t len = 0;  // its length
    uint32_t mtu = 0;  // an ibv_mtu: the port's active MTU
};

// Server: listens on port (all addresses) and accepts one client within
// wait_ms.
Err accept_one(uint16_t port, int wait_ms, Fd* out);
// Client: connects to host:port, retrying refused connections for up to
// wait_ms (the server may not be listening yet).
Err connect_to(const std::string& host, uint16_t port, int wait_ms, Fd* out);

// Sends ours, then receives and checks the peer's (within wait_ms).
Err exchange(const Fd& fd, const PeerInfo& ours, int wait_ms, PeerInfo* theirs);

// The client's last word, and the server waiting for it.
Err send_done(const Fd& fd);
Err wait_done(const Fd& fd, int wait_ms);

}  // namespace mrc_stream

#endif  // MRC_SELFTESTS_STREAM_CONN_H
