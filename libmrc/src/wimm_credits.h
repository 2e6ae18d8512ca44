// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// WIMM credits: the WRITEs with immediate one QP has in flight, against its
// max_wimm. MRC has no RNR (OCP README, "Protocol Restrictions"): the
// requester keeps at most max_wimm of them outstanding, so a responder that
// posted max_wimm_dest receives never runs out. libmrc refuses the post
// that would exceed the credit, as ibv_post_send() refuses one that would
// overfill the send queue.
//
// A WRITE with immediate is outstanding from mrc_post_send() until the
// program polls the completion of a signaled request posted at or after it
// (RC completes in order, so an unsignaled request is done once a later
// signaled one is). An error completion ends the QP's traffic: every
// credit comes back then, and when the QP is reset.
#ifndef MRC_WIMM_CREDITS_H
#define MRC_WIMM_CREDITS_H

#include <infiniband/verbs.h>

#include <cstdint>
#include <memory>

namespace mrc::lib {

class WimmCredits {
public:
    // Room for marks of signaled requests not yet polled: the send queue's
    // depth plus the send CQ's, beyond which the program overflows its CQ.
    // False when the memory could not be had.
    bool init(uint32_t max_send_wr, uint32_t cq_depth) noexcept;

    void set_limit(uint16_t max_wimm) noexcept { limit_ = max_wimm; }
    uint16_t limit() const noexcept { return limit_; }
    uint64_t in_flight() const noexcept { return posted_ - done_; }

    // Whether the chain may be posted: 0, or ENOMEM with *bad naming the
    // first WRITE with immediate beyond the credit (or the first signaled
    // request with no room for its mark). Nothing is recorded.
    int admit(ibv_send_wr* chain, bool sig_all, ibv_send_wr** bad) const noexcept;

    // Records the requests of chain ibv_post_send() took: those before stop
    // (null: the whole chain). Only after admit() said yes.
    void record(const ibv_send_wr* chain, const ibv_send_wr* stop, bool sig_all) noexcept;

    // A completion of this QP's: a successful receive changes nothing, a
    // successful send retires its mark, an error clears.
    void complete(const ibv_wc& wc) noexcept;

    // The QP went back to RESET, or its traffic ended: nothing in flight.
    void clear() noexcept;

private:
    static bool signaled(const ibv_send_wr& wr, bool sig_all) noexcept {
        return sig_all || (wr.send_flags & IBV_SEND_SIGNALED);
    }

    uint16_t limit_ = 0xffff;
    uint64_t posted_ = 0;  // WRITEs with immediate posted, ever
    uint64_t done_ = 0;    // of those, known complete
    // For each signaled request not yet polled, oldest first, posted_ just
    // after it: its completion makes that many done.
    std::unique_ptr<uint64_t[]> marks_;
    uint32_t cap_ = 0;
    uint32_t head_ = 0;
    uint32_t count_ = 0;
};

}  // namespace mrc::lib

#endif  // MRC_WIMM_CREDITS_H
