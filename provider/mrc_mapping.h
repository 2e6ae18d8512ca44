// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ownership of the ring memory the kernel lends through mmap() of the uverbs
// command fd: a mapping is released exactly once, when its owner goes away.
#ifndef MRC_MAPPING_H
#define MRC_MAPPING_H

#include <cstddef>
#include <cstdint>
#include <utility>

#include "mrc-abi.h"
#include "mrc_ring.h"

namespace mrc {

// A shared mapping, unmapped by the destructor. Move-only.
class MappedRegion {
public:
    MappedRegion() noexcept = default;
    MappedRegion(const MappedRegion&) = delete;
    MappedRegion& operator=(const MappedRegion&) = delete;
    MappedRegion(MappedRegion&& other) noexcept
        : addr_(std::exchange(other.addr_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    MappedRegion& operator=(MappedRegion&& other) noexcept {
        if (this != &other) {
            reset();
            addr_ = std::exchange(other.addr_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    ~MappedRegion() { reset(); }

    // Maps size bytes of fd at offset, readable and writable, shared.
    // Returns 0 or the errno of mmap(); EINVAL for an offset off_t cannot hold.
    int map(int fd, uint64_t offset, std::size_t size) noexcept;
    void reset() noexcept;

    void* data() const noexcept { return addr_; }
    std::size_t size() const noexcept { return size_; }

private:
    void* addr_ = nullptr;
    std::size_t size_ = 0;
};

// A ring and the mapping it lives in.
struct MappedRing {
    MappedRegion region;
    Ring ring;
};

// Checks info (see check_ring_info), maps the ring from fd and describes it.
// Returns 0, EPROTO for a ring description that is not valid, or mmap()'s
// errno. out is left untouched on failure.
int map_ring(int fd, const mrc_ring_info& info, std::size_t min_slot_size,
             MappedRing& out) noexcept;

}  // namespace mrc

#endif  // MRC_MAPPING_H
