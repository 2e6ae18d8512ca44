// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Posting a chain of work requests to a producer ring, shared by post_send,
// post_recv and post_srq_recv: every request that fits is written to a slot,
// then all of them are published with one store of prod.
#ifndef MRC_POST_H
#define MRC_POST_H

#include <cerrno>
#include <cstdint>

#include "mrc_ring.h"

namespace mrc {

// What one post call achieved.
struct PostResult {
    int err;          // 0, or the errno for *bad_wr
    uint32_t posted;  // requests published, all before *bad_wr
};

// Writes wr and its successors to ring with build(const Wr&, Slot) -> errno
// and publishes the ones that succeeded. On the first failure *bad_wr is that
// request (the ones before it are posted, it and the rest are not) and err
// is build's errno, or ENOMEM when the ring is full. The caller holds the
// ring's producer lock; an empty ring counts as one with no room.
template <typename Wr, typename Build>
PostResult post_to_ring(const Ring& ring, Wr* wr, Wr** bad_wr, Build build) noexcept {
    *bad_wr = nullptr;
    if (wr == nullptr) {
        return {0, 0};
    }
    if (ring.empty()) {
        *bad_wr = wr;
        return {ENOMEM, 0};
    }
    ProduceBatch batch(ring);
    int err = 0;
    for (; wr != nullptr; wr = wr->next) {
        if (!batch.reserve()) {
            err = ENOMEM;
            break;
        }
        err = build(*wr, batch.next());
        if (err != 0) {
            break;
        }
        batch.commit();
    }
    if (err != 0) {
        *bad_wr = wr;
    }
    batch.publish();
    return {err, batch.count()};
}

// The result of a post_send whose published requests were announced by a
// doorbell system call returning doorbell (0 or an errno). A failed doorbell
// means the kernel heard of none of this call's requests, so the call fails
// from its first request: *bad_wr is first and the doorbell's errno is
// returned (an error always comes with a *bad_wr). The requests stay in the
// ring; the kernel sees them only at a later doorbell, if one succeeds, or
// flushes them when the QP goes to the error state. Without a doorbell
// failure, res decides.
template <typename Wr>
int finish_doorbell(const PostResult& res, int doorbell, Wr* first, Wr** bad_wr) noexcept {
    if (doorbell != 0) {
        *bad_wr = first;
        return doorbell;
    }
    return res.err;
}

}  // namespace mrc

#endif  // MRC_POST_H
