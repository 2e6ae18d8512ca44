// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream: one RC QP and its resources (see stream_qp.h).

#include "stream_qp.h"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>

namespace mrc_stream {

using rc_check::fail;

namespace {

using Clock = std::chrono::steady_clock;

Err modify(ibv_qp* qp, ibv_qp_attr* attr, int mask, const char* step) {
    if (int err = ibv_modify_qp(qp, attr, mask))
        return fail("%s: ibv_modify_qp: %s", step, std::strerror(err));
    return std::nullopt;
}

}  // namespace

Err StreamQp::open(const QpConfig& cfg) {
    cfg_ = cfg;
    if (auto err = rc_check::open_device(cfg.dev, cfg.gid_index, &dev_))
        return err;
    ibv_context* ctx = dev_.ctx.get();
    if (cfg.events) {
        channel_.reset(ibv_create_comp_channel(ctx));
        if (!channel_)
            return fail("%s: ibv_create_comp_channel: %s", cfg.dev.c_str(), std::strerror(errno));
        int flags = fcntl(channel_->fd, F_GETFL);
        if (flags < 0 || fcntl(channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0)
            return fail("completion channel: fcntl: %s", std::strerror(errno));
    }
    pd_.reset(ibv_alloc_pd(ctx));
    if (!pd_)
        return fail("%s: ibv_alloc_pd: %s", cfg.dev.c_str(), std::strerror(errno));
    int cqe = static_cast<int>(cfg.depth) + 16;
    cq_.reset(ibv_create_cq(ctx, cqe, nullptr, channel_.get(), 0));
    if (!cq_)
        return fail("%s: ibv_create_cq(%d): %s", cfg.dev.c_str(), cqe, std::strerror(errno));

    size_t rounded = (cfg.buf_len + 4095) & ~size_t{4095};
    buf_.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, rounded)));
    if (!buf_)
        return fail("cannot allocate %zu bytes", rounded);
    std::memset(buf_.get(), 0x5a, rounded);
    mr_.reset(ibv_reg_mr(pd_.get(), buf_.get(), cfg.buf_len,
                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
    if (!mr_)
        return fail("%s: ibv_reg_mr(%zu bytes): %s", cfg.dev.c_str(), cfg.buf_len,
                    std::strerror(errno));

    ibv_qp_init_attr ia{};
    ia.send_cq = cq_.get();
    ia.recv_cq = cq_.get();
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_wr = cfg.depth;
    ia.cap.max_recv_wr = 1;
    ia.cap.max_send_sge = 1;
    ia.cap.max_recv_sge = 1;
    qp_.reset(ibv_create_qp(pd_.get(), &ia));
    if (!qp_)
        return fail("%s: ibv_create_qp(RC, send_wr %u): %s", cfg.dev.c_str(), cfg.depth,
                    std::strerror(errno));
    psn_ = std::random_device{}() & 0xffffff;

    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.port_num = rc_check::kPort;
    attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
    return modify(qp_.get(), &attr,
                  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
                  "RESET->INIT");
}

PeerInfo StreamQp::local() const {
    PeerInfo p;
    p.qpn = qp_->qp_num;
    p.psn = psn_;
    std::memcpy(p.gid, dev_.gid.raw, sizeof(p.gid));
    p.addr = reinterpret_cast<uintptr_t>(buf_.get());
    p.rkey = mr_->rkey;
    p.len = static_cast<uint32_t>(cfg_.buf_len);
    p.mtu = dev_.port.active_mtu;
    return p;
}

Err StreamQp::connect(const PeerInfo& peer) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTR;
    attr.path_mtu = std::min(dev_.port.active_mtu, static_cast<ibv_mtu>(peer.mtu));
    attr.dest_qp_num = peer.qpn;
    attr.rq_psn = peer.psn;
    attr.max_dest_rd_atomic = 1;
    attr.min_rnr_timer = 12;
    attr.ah_attr.is_global = 1;
    std::memcpy(attr.ah_attr.grh.dgid.raw, peer.gid, sizeof(peer.gid));
    attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(dev_.gid_index);
    attr.ah_attr.grh.hop_limit = 64;
    attr.ah_attr.port_num = rc_check::kPort;
    if (auto err = modify(qp_.get(), &attr,
                          IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                              IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
                          "INIT->RTR"))
        return err;

    attr = {};
    attr.qp_state = IBV_QPS_RTS;
    attr.timeout = cfg_.timeout;
    attr.retry_cnt = cfg_.retry_cnt;
    attr.rnr_retry = 7;
    attr.sq_psn = psn_;
    attr.max_rd_atomic = 1;
    return modify(qp_.get(), &attr,
                  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                      IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
                  "RTR->RTS");
}

Err StreamQp::post_write(uint64_t wr_id, size_t off, size_t len, uint64_t raddr, uint32_t rkey) {
    ibv_sge sge{};
    sge.addr = reinterpret_cast<uintptr_t>(buf_.get()) + off;
    sge.length = static_cast<uint32_t>(len);
    sge.lkey = mr_->lkey;
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    ibv_send_wr* bad = nullptr;
    if (int err = ibv_post_send(qp_.get(), &wr, &bad))
        return fail("ibv_post_send(wr_id %llu): %s", static_cast<unsigned long long>(wr_id),
                    std::strerror(err));
    return std::nullopt;
}

Err StreamQp::wait_event(int wait_ms) {
    pollfd pfd{channel_->fd, POLLIN, 0};
    int n = ::poll(&pfd, 1, wait_ms);
    if (n < 0 && errno != EINTR)
        return fail("poll(completion channel): %s", std::strerror(errno));
    if (n <= 0)
        return std::nullopt;  // the caller checks its deadline
    ibv_cq* cq = nullptr;
    void* cq_ctx = nullptr;
    if (ibv_get_cq_event(channel_.get(), &cq, &cq_ctx) == 0)
        ibv_ack_cq_events(cq, 1);
    else if (errno != EAGAIN)
        return fail("ibv_get_cq_event: %s", std::strerror(errno));
    return std::nullopt;
}

Err StreamQp::poll(ibv_wc* wc, int max, int wait_ms, int* n) {
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
        int got = ibv_poll_cq(cq_.get(), max, wc);
        if (got == 0 && channel_) {
            // Arm, then look again: a completion that came in between
            // would raise no event.
            if (int err = ibv_req_notify_cq(cq_.get(), 0))
                return fail("ibv_req_notify_cq: %s", std::strerror(err));
            got = ibv_poll_cq(cq_.get(), max, wc);
        }
        if (got < 0)
            return fail("ibv_poll_cq: %d", got);
        if (got > 0) {
            for (int i = 0; i < got; i++) {
                if (wc[i].status != IBV_WC_SUCCESS)
                    return fail("error completion: wr_id %llu status %s (%d, vendor_err 0x%x)",
                                static_cast<unsigned long long>(wc[i].wr_id),
                                ibv_wc_status_str(wc[i].status), wc[i].status,
                                wc[i].vendor_err);
                if (wc[i].opcode != IBV_WC_RDMA_WRITE)
                    return fail("unexpected completion: wr_id %llu opcode %d",
                                static_cast<unsigned long long>(wc[i].wr_id), wc[i].opcode);
            }
            *n = got;
            return std::nullopt;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return fail("no completion within %d ms", wait_ms);
        if (channel_) {
            if (auto err = wait_event(static_cast<int>(left.count())))
                return err;
        }
    }
}

}  // namespace mrc_stream
