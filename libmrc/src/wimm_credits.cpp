// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// WIMM credits (wimm_credits.h).
#include "wimm_credits.h"

#include <cerrno>
#include <new>

namespace mrc::lib {

bool WimmCredits::init(uint32_t max_send_wr, uint32_t cq_depth) noexcept {
    uint64_t cap = uint64_t{max_send_wr} + cq_depth + 1;
    if (cap > UINT32_MAX)
        return false;
    marks_.reset(new (std::nothrow) uint64_t[cap]);
    if (!marks_)
        return false;
    cap_ = static_cast<uint32_t>(cap);
    clear();
    return true;
}

int WimmCredits::admit(ibv_send_wr* chain, bool sig_all, ibv_send_wr** bad) const noexcept {
    uint64_t wimms = in_flight();
    uint32_t marks = count_;
    for (ibv_send_wr* wr = chain; wr; wr = wr->next) {
        bool over = false;
        if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
            over = ++wimms > limit_;
        if (signaled(*wr, sig_all))
            over = over || ++marks > cap_;
        if (over) {
            *bad = wr;
            return ENOMEM;
        }
    }
    return 0;
}

void WimmCredits::record(const ibv_send_wr* chain, const ibv_send_wr* stop, bool sig_all) noexcept {
    for (const ibv_send_wr* wr = chain; wr && wr != stop; wr = wr->next) {
        if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
            posted_++;
        if (signaled(*wr, sig_all) && count_ < cap_) {
            marks_[(head_ + count_) % cap_] = posted_;
            count_++;
        }
    }
}

void WimmCredits::complete(const ibv_wc& wc) noexcept {
    if (wc.status != IBV_WC_SUCCESS) {
        clear();
        return;
    }
    if ((wc.opcode & IBV_WC_RECV) || !count_)
        return;
    done_ = marks_[head_];
    head_ = (head_ + 1) % cap_;
    count_--;
}

void WimmCredits::clear() noexcept {
    done_ = posted_;
    head_ = 0;
    count_ = 0;
}

}  // namespace mrc::lib
