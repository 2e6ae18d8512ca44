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

// ---------------------------------------------------------------------------
// The steps of building one send slot. ibv_post_send (build_send_wqe below)
// and the ibv_wr_* interface (mrc_wr.h) both go through exactly these, so a
// request makes the same bytes whichever way it was posted.
//
//   1. check_send_op       the opcode and flags a slot can carry
//   2. send_op_header      the header, from the opcode's operands
//   3. place_sges or place_inline, unless the opcode is local
//   4. check_payload       what the payload must be for the opcode
//   5. set_ud_dest         (UD only) the destination over remote_addr
//   6. commit_header       the header into the slot, last
// ---------------------------------------------------------------------------

// The operands of an opcode, as ibv_send_wr's union or an ibv_wr_* builder
// gives them; each opcode reads only its own.
struct SendOperands {
    uint64_t remote_addr = 0;  // RDMA and atomics
    uint32_t rkey = 0;         // RDMA and atomics
    uint64_t compare_add = 0;  // atomics
    uint64_t swap = 0;         // compare-and-swap
    uint32_t imm = 0;          // immediate data (network order) or the key to invalidate
};

// IBV_WR_LOCAL_INV and IBV_WR_BIND_MW: executed by the local QP, no
// payload and no packet.
constexpr bool is_local_op(uint32_t op) noexcept {
    return op == IBV_WR_LOCAL_INV || op == IBV_WR_BIND_MW;
}

// A bind's operands as the slot carries them (mrc-abi.h): imm the window's
// current key, rkey its next, remote_addr and compare_add the range, swap
// the MR's L_Key (0 for an unbind) over the access flags.
SendOperands bind_mw_operands(const ibv_mw& mw, uint32_t rkey,
                              const ibv_mw_bind_info& info) noexcept;

// Step 1: 0, or EINVAL for an opcode no MRC slot carries (only SEND,
// SEND_WITH_IMM, SEND_WITH_INV, RDMA_WRITE, RDMA_WRITE_WITH_IMM,
// RDMA_READ, the two atomics, LOCAL_INV and BIND_MW) or a flag outside
// kSendFlagsKnown.
int check_send_op(ibv_wr_opcode op, uint32_t send_flags) noexcept;

// Step 2: the header of a request with no payload yet. A local operation
// never carries IBV_SEND_INLINE (the kernel fails one that does).
mrc_send_wqe send_op_header(uint64_t wr_id, ibv_wr_opcode op, uint32_t send_flags,
                            const SendOperands& operands) noexcept;

// Step 3: writes the payload after the header and records it there
// (num_sge or inline_len, and the IBV_SEND_INLINE bit). Returns 0,
// ENOSPC when it exceeds the cap or the slot (max_sge entries or
// max_inline bytes), or EINVAL for a missing list. Writes nothing on
// failure. Inline data is copied now: the buffers may be reused on return.
int place_sges(Slot slot, mrc_send_wqe& wqe, const ibv_sge* sg_list, std::size_t num_sge,
               uint32_t max_sge) noexcept;
int place_inline(Slot slot, mrc_send_wqe& wqe, const ibv_sge* sg_list, std::size_t num_sge,
                 uint32_t max_inline) noexcept;
int place_inline(Slot slot, mrc_send_wqe& wqe, const ibv_data_buf* bufs, std::size_t num_buf,
                 uint32_t max_inline) noexcept;

// Step 4: 0, or EINVAL when the payload does not suit the opcode: inline
// data on anything but SEND and WRITE, or an atomic whose local buffer is
// not one 8-byte SGE (first_sge_length: the length of its first SGE).
int check_payload(ibv_wr_opcode op, bool is_inline, uint32_t num_sge,
                  uint32_t first_sge_length) noexcept;

// Step 5 (UD): the destination where an RC slot has its remote address.
void set_ud_dest(mrc_send_wqe& wqe, const mrc_ud_dest& dest) noexcept;

// Step 6: the header into the slot (its first bytes).
void commit_header(Slot slot, const mrc_send_wqe& wqe) noexcept;

// The operands ibv_send_wr carries for its opcode.
SendOperands send_wr_operands(const ibv_send_wr& wr) noexcept;

// Writes wr into slot with the steps above. Returns 0, or EINVAL for
// anything a step refuses (ENOSPC included: ibv_post_send reports every
// refusal as EINVAL, as rxe does), a negative num_sge, or a slot smaller
// than the header. LOCAL_INV ignores its SGEs, as rxe does. Writes nothing
// on failure.
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
