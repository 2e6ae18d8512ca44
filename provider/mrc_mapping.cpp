// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mmap()/munmap() of ring memory; see mrc_mapping.h.
#include "mrc_mapping.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <limits>

namespace mrc {

int MappedRegion::map(int fd, uint64_t offset, std::size_t size) noexcept {
    if (offset > static_cast<uint64_t>(std::numeric_limits<off_t>::max()) || size == 0) {
        return EINVAL;
    }
    void* addr =
        mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
    if (addr == MAP_FAILED) {
        return errno;
    }
    reset();
    addr_ = addr;
    size_ = size;
    return 0;
}

void MappedRegion::reset() noexcept {
    if (addr_ != nullptr) {
        munmap(addr_, size_);
        addr_ = nullptr;
        size_ = 0;
    }
}

int map_ring(int fd, const mrc_ring_info& info, std::size_t min_slot_size,
             MappedRing& out) noexcept {
    int ret = check_ring_info(info, min_slot_size);
    if (ret != 0) {
        return ret;
    }
    MappedRegion region;
    ret = region.map(fd, info.mmap_offset, info.mmap_size);
    if (ret != 0) {
        return ret;
    }
    out.ring = Ring(region.data(), info.num_slots, info.slot_size);
    out.region = std::move(region);
    return 0;
}

}  // namespace mrc
