// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream's verbs side: one RC QP on any RDMA device (mrc or rxe), its
// buffer, its CQ (optionally with a completion channel, so waiting costs no
// CPU), connected to a peer described by a PeerInfo.

#ifndef MRC_SELFTESTS_STREAM_QP_H
#define MRC_SELFTESTS_STREAM_QP_H

#include "rc_check_harness.h"
#include "stream_conn.h"

#include <infiniband/verbs.h>

#include <cstdint>
#include <memory>
#include <string>

namespace mrc_stream {

struct ChannelDeleter {
    void operator()(ibv_comp_channel* ch) const { ibv_destroy_comp_channel(ch); }
};
using Channel = std::unique_ptr<ibv_comp_channel, ChannelDeleter>;

struct QpConfig {
    std::string dev;
    int gid_index = 0;
    size_t buf_len = 0;      // registered for local writes and remote writes
    uint32_t depth = 1;      // send queue depth
    bool events = true;      // wait on a completion channel, not by spinning
    uint8_t timeout = 14;    // local ACK timeout attribute
    uint8_t retry_cnt = 7;
};

class StreamQp {
public:
    Err open(const QpConfig& cfg);
    PeerInfo local() const;
    Err connect(const PeerInfo& peer);
    // A signaled RDMA WRITE of [off, off + len) of our buffer to raddr.
    Err post_write(uint64_t wr_id, size_t off, size_t len, uint64_t raddr, uint32_t rkey);
    // Waits up to wait_ms for completions; stores up to max of them in wc
    // and their number in *n (at least 1). Any completion that is not a
    // successful RDMA WRITE fails.
    Err poll(ibv_wc* wc, int max, int wait_ms, int* n);

private:
    Err wait_event(int wait_ms);

    QpConfig cfg_;
    rc_check::Device dev_;
    // Declared in the order of creation, so destroyed in reverse.
    Channel channel_;
    rc_check::Pd pd_;
    rc_check::Cq cq_;
    rc_check::Buf buf_;
    rc_check::Mr mr_;
    rc_check::Qp qp_;
    uint32_t psn_ = 0;
};

}  // namespace mrc_stream

#endif  // MRC_SELFTESTS_STREAM_QP_H
