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
#include <optional>

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

// The wc_flags ibv_create_cq_ex accepts: the fields every MRC completion
// carries, the same set as rxe. Others (timestamps, CVLAN, flow tag, TM
// info) fail with EOPNOTSUPP, as on rxe.
constexpr uint64_t kCqExWcFlags =
    IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |
    IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL | IBV_WC_EX_WITH_DLID_PATH_BITS;

// 0, or EOPNOTSUPP for a wc_flags bit outside kCqExWcFlags.
inline int check_cq_wc_flags(uint64_t wc_flags) noexcept {
    return (wc_flags & ~kCqExWcFlags) != 0 ? EOPNOTSUPP : 0;
}

// The extended poll of a CQ ring (ibv_start_poll, ibv_next_poll,
// ibv_end_poll): one completion at a time, read once into current(), the
// ring's cons stored at end() and whenever the completions seen by the
// last read of prod are used up. The caller holds the consumer lock from
// a successful start() until end().
class PollCursor {
public:
    // 0 with current() the oldest completion; else nothing is held and
    // the result is ENOENT (empty), EOVERFLOW (the CQ overflowed and all
    // that was queued is returned) or EIO (the kernel's prod is corrupt,
    // or the CQ is gone), as poll_ring() reports those.
    int start(const Ring& ring) noexcept {
        ring_ = &ring;
        taken_ = 0;
        int ret = refill();
        if (ret != 0) {
            batch_.reset();
        }
        return ret;
    }
    // 0 with current() the next completion, or ENOENT and the like when
    // there is none (end() must still follow).
    int next() noexcept {
        if (taken_ == batch_->ready()) {
            batch_->release(taken_);
            taken_ = 0;
            return refill();
        }
        take();
        return 0;
    }
    // Hands back every completion returned since start().
    void end() noexcept {
        if (batch_) {
            batch_->release(taken_);
            batch_.reset();
        }
        taken_ = 0;
    }
    const mrc_cqe& current() const noexcept { return cur_; }

private:
    int refill() noexcept {
        // Read before prod: the kernel sets the flags after its last completion.
        uint32_t flags = ring_->acquire_flags();
        batch_.emplace(*ring_);
        if (batch_->overrun()) {
            return EIO;
        }
        if (batch_->ready() == 0) {
            if ((flags & MRC_RING_F_CQ_GONE) != 0) {
                return EIO;
            }
            return (flags & MRC_RING_F_CQ_OVERFLOW) != 0 ? EOVERFLOW : ENOENT;
        }
        take();
        return 0;
    }
    void take() noexcept {
        std::memcpy(&cur_, batch_->slot(taken_).data, sizeof(cur_));
        ++taken_;
    }

    const Ring* ring_ = nullptr;
    std::optional<ConsumeBatch> batch_;
    uint32_t taken_ = 0;
    mrc_cqe cur_{};
};

}  // namespace mrc

#endif  // MRC_CQE_H
