// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Translation of libibverbs work requests into ring slots (struct
// mrc_send_wqe / mrc_recv_wqe of mrc-abi.h). Pure functions over a slot:
// they validate what the slot can carry and write nothing on failure.
// Semantic checks (keys, ranges, QP state) stay with the kernel, which
// validates every slot it copies anyway.
#ifndef MRC_WQE_H
#define MRC_WQE_H

#include <cstddef>
#include <cstdint>

#include <infiniband/verbs.h>

#include "mrc-abi.h"
#include "mrc_ring.h"

namespace mrc {

// Scatter/gather entries that fit after the header of a send slot.
constexpr uint32_t send_slot_max_sge(std::size_t slot_size) noexcept {
    return slot_size < sizeof(mrc_send_wqe)
               ? 0
               : static_cast<uint32_t>((slot_size - sizeof(mrc_send_wqe)) / sizeof(mrc_sge));
}

// Bytes of inline data that fit after the header of a send slot.
constexpr uint32_t send_slot_max_inline(std::size_t slot_size) noexcept {
    return slot_size < sizeof(mrc_send_wqe)
               ? 0
               : static_cast<uint32_t>(slot_size - sizeof(mrc_send_wqe));
}

// Scatter/gather entries that fit after the header of a receive slot.
constexpr uint32_t recv_slot_max_sge(std::size_t slot_size) noexcept {
    return slot_size < sizeof(mrc_recv_wqe)
               ? 0
               : static_cast<uint32_t>((slot_size - sizeof(mrc_recv_wqe)) / sizeof(mrc_sge));
}

// send_flags a slot may carry; the kernel fails a slot with any other bit.
constexpr uint32_t kSendFlagsKnown =
    IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE;

// The limits the kernel granted a send queue at create time: the caps of
// its create_qp reply, which ibv_create_qp also reports to the program.
struct SendCaps {
    uint32_t max_sge;
    uint32_t max_inline;
};

// Checks a create reply before anything is mapped: ring must describe a
// valid ring (check_ring_info) whose slots carry max_sge entries, or
// max_inline bytes, and hold max_wr requests (max_wr >= 1). Returns 0 or
// EPROTO. A queue the reply leaves out (num_slots 0) fails here too.
int check_send_queue(const mrc_ring_info& ring, uint32_t max_wr, const SendCaps& caps) noexcept;
int check_recv_queue(const mrc_ring_info& ring, uint32_t max_wr, uint32_t max_sge) noexcept;

// Writes wr into slot. Returns 0, or EINVAL for an opcode MRC does not carry
// (only SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ and
// the two atomics), a send_flags bit outside kSendFlagsKnown, a negative
// num_sge or one above caps.max_sge, inline data on an opcode other than
// SEND/WRITE or longer than caps.max_inline, or an atomic whose local buffer
// is not one 8-byte SGE. The slot's own size is a second bound. Inline data
// is copied from the SGEs' addresses now, so the caller may reuse them on
// return.
int build_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, Slot slot) noexcept;

// The same for a UD QP: only IBV_WR_SEND and SEND_WITH_IMM (the payload
// inline or in SGEs, under the same caps), its destination the AH
// numbered ah_num by the kernel (struct mrc_ud_dest) and wr.wr.ud's
// remote QPN and Q_Key.
// Returns 0, or EINVAL for any other opcode, ah_num 0 or what
// build_send_wqe refuses.
int build_ud_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, uint32_t ah_num,
                      Slot slot) noexcept;

// Writes wr into slot. Returns 0, or EINVAL for a negative num_sge or more
// SGEs than max_sge (the queue's granted max_recv_sge or SRQ max_sge) or
// than the slot holds.
int build_recv_wqe(const ibv_recv_wr& wr, uint32_t max_sge, Slot slot) noexcept;

}  // namespace mrc

#endif  // MRC_WQE_H
