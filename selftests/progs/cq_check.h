// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-cq-check: completion queue overflow and ibv_resize_cq between two
// devices, on the mrc-rc-check harness. The scenarios use SENDs from A to B
// and fill B's receive CQ: B completes a receive before it acknowledges the
// message, so once A's SEND has completed, B's CQ is known to hold its
// completion, without polling it.

#ifndef MRC_SELFTESTS_CQ_CHECK_H
#define MRC_SELFTESTS_CQ_CHECK_H

#include "rc_check_harness.h"

#include <cstdint>
#include <vector>

namespace cq_check {

using rc_check::Endpoint;
using rc_check::Env;
using rc_check::Err;
using rc_check::Pair;
using rc_check::Queue;
using rc_check::Region;
using rc_check::Rng;

// An affiliated asynchronous event: the CQ or QP it names.
struct Event {
    ibv_event_type type;
    const void* element;
};

// The asynchronous events of one device, read without blocking and
// acknowledged as soon as they are read (destroying a CQ or QP waits until
// the events read for it are acknowledged). Events that name no CQ or QP
// (port, GID, device) are ignored.
class Events {
public:
    explicit Events(Endpoint& ep);
    // Reads events until one of type for element arrives.
    Err wait_for(ibv_event_type type, const void* element, int wait_ms);
    // Reads what arrives within wait_ms.
    Err collect(int wait_ms);
    // Fails unless the events read so far are exactly `want`, in any order.
    Err expect_exactly(const std::vector<Event>& want) const;

private:
    Err read(int timeout_ms, bool* got);

    Endpoint& ep_;
    std::vector<Event> seen_;
};

// Messages: wr_id N carries len(N) bytes from slot N of A's source region to
// slot N of B's receive region.
struct Msgs {
    Pair* p = nullptr;
    Region* src = nullptr;
    Region* dst = nullptr;
    int wait_ms = 0;

    static constexpr uint64_t kSlots = 512;
    static constexpr size_t kSlotLen = 64;
    static size_t len(uint64_t wr_id) { return 1 + wr_id % kSlotLen; }

    // Registers the regions on a connected pair, filled with patterns.
    Err setup(Pair& pair, int wait, Rng& rng);
    // Posts receives wr_id first .. first + n - 1 at B.
    Err post_recvs(uint64_t first, uint64_t n);
    // Sends wr_id first .. first + n - 1 and waits until A completed each,
    // in order: B has then queued every one of their receive completions.
    Err send(uint64_t first, uint64_t n);
    // Polls n receive completions at B: wr_id first .. first + n - 1 in
    // order, each with its length and bytes.
    Err expect_recvs(uint64_t first, uint64_t n);
};

// Fails if the CQ holds a completion.
Err expect_empty(Endpoint& ep, Queue q);
// ibv_poll_cq of an overflowed CQ whose queued completions were all polled:
// -EOVERFLOW, every time, never an empty CQ that looks merely idle.
Err expect_overflowed(Endpoint& ep, Queue q);
// Fails unless the QP is in state `want`.
Err expect_qp_state(Endpoint& ep, ibv_qp_state want);

// cq_check_overflow.cpp
Err scenario_overflow_send(Env& env, Rng& rng);
Err scenario_overflow_recv(Env& env, Rng& rng);

// cq_check_resize.cpp
Err scenario_resize_grow(Env& env, Rng& rng);
Err scenario_resize_shrink(Env& env, Rng& rng);
Err scenario_resize_below_pending(Env& env, Rng& rng);
Err scenario_resize_in_flight(Env& env, Rng& rng);
Err scenario_resize_map_fails(Env& env, Rng& rng);

}  // namespace cq_check

#endif  // MRC_SELFTESTS_CQ_CHECK_H
