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

// Writes wr into slot. Returns 0, or EINVAL for an opcode MRC does not carry
// (only SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ and
// the two atomics), a negative or too large num_sge, inline data on an
// opcode other than SEND/WRITE or larger than the slot, or an atomic whose
// local buffer is not one 8-byte SGE. Inline data is copied from the SGEs'
// addresses now, so the caller may reuse them on return.
int build_send_wqe(const ibv_send_wr& wr, Slot slot) noexcept;

// Writes wr into slot. Returns 0, or EINVAL for a negative num_sge or more
// SGEs than the slot holds.
int build_recv_wqe(const ibv_recv_wr& wr, Slot slot) noexcept;

}  // namespace mrc

#endif  // MRC_WQE_H
