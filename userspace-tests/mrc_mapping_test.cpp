// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ring mappings over a real shared file (a memfd): the provider maps the
// uverbs fd the same way, at an offset, shared and writable. Checks that a
// bad ring description maps nothing and that every mapping is released
// exactly once.
#include "mrc_mapping.h"

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "mrc-abi.h"

namespace {

using mrc::MappedRegion;
using mrc::MappedRing;

// An fd with two pages of shared memory behind it.
class MemFd {
public:
    MemFd() : fd_(memfd_create("mrc-ring-test", MFD_CLOEXEC)) {
        EXPECT_GE(fd_, 0) << std::strerror(errno);
        EXPECT_EQ(ftruncate(fd_, 2 * page()), 0);
    }
    ~MemFd() { close(fd_); }
    int fd() const { return fd_; }
    static std::size_t page() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

private:
    int fd_;
};

// Whether [addr, addr+len) is mapped in this process.
bool is_mapped(void* addr, std::size_t len) {
    return msync(addr, len, MS_ASYNC) == 0;
}

mrc_ring_info second_page_ring() {
    mrc_ring_info info{};
    info.mmap_offset = MemFd::page();
    info.mmap_size = static_cast<uint32_t>(MemFd::page());
    info.num_slots = 8;
    info.slot_size = 64;
    return info;
}

TEST(MappingTest, RingSharesTheFileAtItsOffset) {
    MemFd mem;
    uint32_t prod = 7;
    ASSERT_EQ(pwrite(mem.fd(), &prod, sizeof(prod), static_cast<off_t>(MemFd::page())),
              static_cast<ssize_t>(sizeof(prod)));

    MappedRing r;
    ASSERT_EQ(mrc::map_ring(mem.fd(), second_page_ring(), sizeof(mrc_cqe), r), 0);
    EXPECT_EQ(r.ring.num_slots(), 8u);
    EXPECT_EQ(r.ring.slot_size(), 64u);
    EXPECT_EQ(r.ring.acquire_prod(), 7u);

    // Writes through the ring reach the file: the mapping is shared.
    r.ring.release_cons(5);
    uint32_t cons = 0;
    ASSERT_EQ(pread(mem.fd(), &cons, sizeof(cons),
                    static_cast<off_t>(MemFd::page() + offsetof(mrc_ring_ctrl, cons))),
              static_cast<ssize_t>(sizeof(cons)));
    EXPECT_EQ(cons, 5u);
}

TEST(MappingTest, InvalidDescriptionMapsNothing) {
    MemFd mem;
    mrc_ring_info info = second_page_ring();
    info.num_slots = 3;
    MappedRing r;
    EXPECT_EQ(mrc::map_ring(mem.fd(), info, sizeof(mrc_cqe), r), EPROTO);
    EXPECT_TRUE(r.ring.empty());
    EXPECT_EQ(r.region.data(), nullptr);

    info = second_page_ring();
    info.slot_size = 64;
    EXPECT_EQ(mrc::map_ring(mem.fd(), info, 128, r), EPROTO);  // slot below the minimum
    EXPECT_TRUE(r.ring.empty());
}

TEST(MappingTest, MmapFailureIsReported) {
    MappedRing r;
    EXPECT_EQ(mrc::map_ring(-1, second_page_ring(), sizeof(mrc_cqe), r), EBADF);
    EXPECT_TRUE(r.ring.empty());

    MappedRegion region;
    EXPECT_EQ(region.map(0, UINT64_MAX, 4096), EINVAL);  // beyond off_t
    EXPECT_EQ(region.data(), nullptr);
}

TEST(MappingTest, DestructorUnmaps) {
    MemFd mem;
    void* addr = nullptr;
    {
        MappedRing r;
        ASSERT_EQ(mrc::map_ring(mem.fd(), second_page_ring(), sizeof(mrc_cqe), r), 0);
        addr = r.region.data();
        EXPECT_TRUE(is_mapped(addr, MemFd::page()));
    }
    EXPECT_FALSE(is_mapped(addr, MemFd::page()));
}

TEST(MappingTest, MoveTransfersOwnershipAndAssignmentUnmapsTheOld) {
    MemFd mem;
    MappedRing first;
    MappedRing second;
    ASSERT_EQ(mrc::map_ring(mem.fd(), second_page_ring(), sizeof(mrc_cqe), first), 0);
    ASSERT_EQ(mrc::map_ring(mem.fd(), second_page_ring(), sizeof(mrc_cqe), second), 0);
    void* old_addr = first.region.data();
    void* new_addr = second.region.data();
    ASSERT_NE(old_addr, new_addr);

    first = std::move(second);  // as resize_cq swaps rings
    EXPECT_FALSE(is_mapped(old_addr, MemFd::page()));
    EXPECT_TRUE(is_mapped(new_addr, MemFd::page()));
    EXPECT_EQ(first.region.data(), new_addr);
    EXPECT_EQ(second.region.data(), nullptr);

    MappedRegion moved(std::move(first.region));
    EXPECT_EQ(moved.data(), new_addr);
    EXPECT_EQ(first.region.data(), nullptr);
    moved.reset();
    EXPECT_FALSE(is_mapped(new_addr, MemFd::page()));
}

TEST(MappingTest, EmptyRegionResetIsHarmless) {
    MappedRegion region;
    region.reset();
    EXPECT_EQ(region.data(), nullptr);
    EXPECT_EQ(region.size(), 0u);
}

}  // namespace
