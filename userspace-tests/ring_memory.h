// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A ring laid out as mrc-abi.h describes, in ordinary memory: the same bytes
// the kernel would share through mmap(), so the provider's ring code runs
// unchanged over it. The test plays the other side by touching the control
// block directly.
#ifndef MRC_TESTS_RING_MEMORY_H
#define MRC_TESTS_RING_MEMORY_H

#include <cstdint>
#include <vector>

#include "mrc-abi.h"
#include "mrc_ring.h"

namespace mrc_test {

class RingMemory {
public:
    RingMemory(uint32_t num_slots, uint32_t slot_size)
        : words_((MRC_RING_SLOTS_OFFSET + std::size_t{num_slots} * slot_size) / 8, 0),
          ring_(words_.data(), num_slots, slot_size) {}
    RingMemory(const RingMemory&) = delete;
    RingMemory& operator=(const RingMemory&) = delete;

    const mrc::Ring& ring() const { return ring_; }
    mrc_ring_ctrl& ctrl() { return *reinterpret_cast<mrc_ring_ctrl*>(words_.data()); }
    // Both counters at v: an empty ring whose indices start anywhere.
    void start_at(uint32_t v) {
        ctrl().prod = v;
        ctrl().cons = v;
    }

private:
    std::vector<uint64_t> words_;  // 8-byte aligned, like a page
    mrc::Ring ring_;
};

}  // namespace mrc_test

#endif  // MRC_TESTS_RING_MEMORY_H
