// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Translation of a CQ ring slot (struct mrc_cqe of mrc-abi.h) into the
// libibverbs work completion, and the poll of a CQ ring. The kernel writes
// libibverbs' own values, so this is a field-for-field copy with no
// remapping.
#ifndef MRC_CQE_H
#define MRC_CQE_H

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <infiniband/verbs.h>

#include "mrc-abi.h"
#include "mrc_ring.h"

namespace mrc {

inline void cqe_to_wc(const mrc_cqe& cqe, ibv_wc& wc) noexcept {
    wc.wr_id = cqe.wr_id;
    wc.status = static_cast<ibv_wc_status>(cqe.status);
    wc.opcode = static_cast<ibv_wc_opcode>(cqe.opcode);
    wc.vendor_err = cqe.vendor_err;
    wc.byte_len = cqe.byte_len;
    wc.imm_data = cqe.imm_data;  // network byte order on both sides
    wc.qp_num = cqe.qp_num;
    wc.src_qp = cqe.src_qp;
    wc.wc_flags = cqe.wc_flags;
    wc.pkey_index = cqe.pkey_index;
    wc.slid = cqe.slid;
    wc.sl = cqe.sl;
    wc.dlid_path_bits = cqe.dlid_path_bits;
}

// Reads one completion out of a CQ slot. The copy is taken once, so a slot
// the producer rewrites later cannot change a completion already returned.
inline void slot_to_wc(Slot slot, ibv_wc& wc) noexcept {
    mrc_cqe cqe;
    std::memcpy(&cqe, slot.data, sizeof(cqe));
    cqe_to_wc(cqe, wc);
}

// Moves up to num_entries completions from a CQ ring to wc; the caller holds
// the ring's consumer lock. Returns how many, -EIO when the kernel's prod is
// corrupt (no slot can be trusted), or -EOVERFLOW when the CQ overflowed and
// everything queued before the overflow has been returned: the kernel
// produces nothing more into it, so an empty poll would otherwise look like
// an idle CQ forever. Likewise -EIO once the kernel destroyed the CQ under
// us because the device went away (MRC_RING_F_CQ_GONE).
inline int poll_ring(const Ring& ring, int num_entries, ibv_wc* wc) noexcept {
    // Read before prod: the kernel sets the flags after its last completion.
    uint32_t flags = ring.acquire_flags();
    ConsumeBatch batch(ring);
    if (batch.overrun()) {
        return -EIO;
    }
    if (batch.ready() == 0) {
        if ((flags & MRC_RING_F_CQ_GONE) != 0) {
            return -EIO;
        }
        if ((flags & MRC_RING_F_CQ_OVERFLOW) != 0) {
            return -EOVERFLOW;
        }
    }
    uint32_t n = batch.ready();
    if (num_entries < 0) {
        n = 0;
    } else if (static_cast<uint32_t>(num_entries) < n) {
        n = static_cast<uint32_t>(num_entries);
    }
    for (uint32_t i = 0; i < n; ++i) {
        slot_to_wc(batch.slot(i), wc[i]);
    }
    batch.release(n);
    return static_cast<int>(n);
}

}  // namespace mrc

#endif  // MRC_CQE_H
