// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ibv_wr_* interface of an extended QP (ibv_create_qp_ex with
// IBV_QP_INIT_ATTR_SEND_OPS_FLAGS): a session from wr_start to wr_complete
// or wr_abort in which each builder (ibv_wr_send, ibv_wr_rdma_write, ...)
// opens one request and the setters that follow give it its payload and,
// on UD, its destination. Every request goes through the same build steps
// as ibv_post_send (mrc_wqe.h), so both make the same slot bytes.
//
// As in rxe, a session publishes all of its requests or none: the first
// refusal is remembered, later calls do nothing, and wr_complete returns it.
// ENOSPC: the queue is full, or the payload exceeds max_send_sge or
// max_inline_data; EINVAL: anything else the build steps refuse.
//
// Pure logic over a Ring, free of libibverbs calls, for the unit tests.
#ifndef MRC_WR_H
#define MRC_WR_H

#include <cstddef>
#include <cstdint>
#include <optional>

#include <infiniband/verbs.h>

#include "mrc-abi.h"
#include "mrc_ring.h"
#include "mrc_wqe.h"

namespace mrc {

// The ibv_wr_* builders each QP type offers: what the kernel executes on
// it (an RC QP all MRC carries; UC and UD what mrc_uc.c and mrc_ud.c send).
// ATOMIC_WRITE and TSO are not among them.
constexpr uint64_t kRcSendOps = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
                                IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
                                IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
                                IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV |
                                IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW;
constexpr uint64_t kUcSendOps = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
                                IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
                                IBV_QP_EX_WITH_SEND_WITH_INV;
constexpr uint64_t kUdSendOps = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;

// The comp_mask bits ibv_create_qp_ex accepts (as rxe: no create_flags).
constexpr uint32_t kQpInitAttrMask =
    IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

// The builders a QP of type may be given; 0 for a type MRC has none for.
uint64_t supported_send_ops(ibv_qp_type type) noexcept;

// Checks what ibv_create_qp_ex asks beyond ibv_create_qp: 0, or EOPNOTSUPP
// (rxe's answer) for a comp_mask bit outside kQpInitAttrMask, a non-zero
// create_flags, or send_ops_flags outside supported_send_ops(qp_type).
int check_qp_init_attr_ex(const ibv_qp_init_attr_ex& attr) noexcept;

// One wr_start .. wr_complete session of a send queue. The caller holds
// the queue's producer lock for the whole session.
class WrSession {
public:
    // wr_start. ud: the QP is UD, so each request needs set_ud_addr.
    void start(const Ring& ring, const SendCaps& caps, bool ud) noexcept;

    // A builder: closes the open request and opens one for op.
    void begin(uint64_t wr_id, uint32_t wr_flags, ibv_wr_opcode op,
               const SendOperands& operands) noexcept;
    // wr_bind_mw's builder: EINVAL for a missing window or bind_info, or a
    // length without an MR (as ibv_post_send refuses them).
    void begin_bind_mw(uint64_t wr_id, uint32_t wr_flags, const ibv_mw* mw, uint32_t rkey,
                       const ibv_mw_bind_info* info) noexcept;

    // Setters for the open request. A local operation (LOCAL_INV) has no
    // payload: its payload setters are ignored, as in rxe.
    void set_ud_addr(uint32_t ah_num, uint32_t remote_qpn, uint32_t remote_qkey) noexcept;
    void set_sge(uint32_t lkey, uint64_t addr, uint32_t length) noexcept;
    void set_sge_list(std::size_t num_sge, const ibv_sge* sg_list) noexcept;
    void set_inline_data(const void* addr, std::size_t length) noexcept;
    void set_inline_data_list(std::size_t num_buf, const ibv_data_buf* buf_list) noexcept;

    // wr_complete: 0 with every request published (published() of them),
    // or the session's first error with none published.
    int complete() noexcept;
    // wr_abort: nothing is published.
    void abort() noexcept;
    uint32_t published() const noexcept { return published_; }

private:
    void fail(int err) noexcept {
        if (err_ == 0) {
            err_ = err;
        }
    }
    bool accepting() const noexcept { return err_ == 0 && open_; }
    bool payload_ignored() const noexcept { return is_local_op(cur_.opcode); }
    void close_open() noexcept;

    const Ring* ring_ = nullptr;
    SendCaps caps_{};
    bool ud_ = false;
    std::optional<ProduceBatch> batch_;
    int err_ = 0;
    uint32_t published_ = 0;

    // The open request: its header, slot and what its setters gave.
    bool open_ = false;
    mrc_send_wqe cur_{};
    Slot slot_{};
    uint32_t first_sge_length_ = 0;
    mrc_ud_dest ud_dest_{};
};

}  // namespace mrc

#endif  // MRC_WR_H
