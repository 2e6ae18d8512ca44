// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The provider's ring accessor over a ring in ordinary memory: slot
// addressing, fill levels across 32-bit wrap-around, a full ring, corrupt
// counters from the other side, and the geometry checks of create responses.
#include "mrc_ring.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "mrc-abi.h"
#include "ring_memory.h"

namespace {

using mrc::ConsumeBatch;
using mrc::ProduceBatch;
using mrc::Ring;
using mrc_test::RingMemory;

mrc_ring_info info(uint32_t num_slots, uint32_t slot_size, uint32_t mmap_size) {
    mrc_ring_info i{};
    i.mmap_offset = 0x10000;
    i.num_slots = num_slots;
    i.slot_size = slot_size;
    i.mmap_size = mmap_size;
    return i;
}

TEST(RingInfoTest, AcceptsExactAndLargerMappings) {
    EXPECT_EQ(mrc::check_ring_info(info(8, 64, MRC_RING_SLOTS_OFFSET + 8 * 64), 48), 0);
    EXPECT_EQ(mrc::check_ring_info(info(8, 64, 4096), 48), 0);
    EXPECT_EQ(mrc::check_ring_info(info(1, 64, 4096), 64), 0);
}

TEST(RingInfoTest, RejectsBadGeometry) {
    EXPECT_EQ(mrc::check_ring_info(info(0, 64, 4096), 48), EPROTO);
    EXPECT_EQ(mrc::check_ring_info(info(6, 64, 4096), 48), EPROTO);  // not a power of two
    EXPECT_EQ(mrc::check_ring_info(info(8, 32, 4096), 48), EPROTO);  // slot too small
    EXPECT_EQ(mrc::check_ring_info(info(8, 96, 4096), 48), EPROTO);  // not a multiple of 64
    uint32_t one_short = MRC_RING_SLOTS_OFFSET + 8 * 64 - 1;
    EXPECT_EQ(mrc::check_ring_info(info(8, 64, one_short), 48), EPROTO);  // mapping too short
    EXPECT_EQ(mrc::check_ring_info(info(8, 64, 0), 48), EPROTO);
}

TEST(RingInfoTest, HugeGeometryDoesNotOverflow) {
    // 2^31 slots of 2^31 bytes would wrap a 32- or 64-bit product carelessly
    // computed; no mmap_size can cover it.
    EXPECT_EQ(mrc::check_ring_info(info(1u << 31, 1u << 31, UINT32_MAX), 48), EPROTO);
}

TEST(RingTest, SlotsFollowTheControlBlockAndWrap) {
    RingMemory mem(4, 64);
    const Ring& ring = mem.ring();
    auto* base = reinterpret_cast<std::byte*>(&mem.ctrl());
    EXPECT_EQ(ring.slot(0).data, base + MRC_RING_SLOTS_OFFSET);
    EXPECT_EQ(ring.slot(3).data, base + MRC_RING_SLOTS_OFFSET + 3 * 64);
    EXPECT_EQ(ring.slot(4).data, ring.slot(0).data);
    EXPECT_EQ(ring.slot(UINT32_MAX).data, ring.slot(3).data);
    EXPECT_EQ(ring.slot(2).size, 64u);
}

TEST(RingTest, ProducerAndConsumerCountersLiveOnSeparateLines) {
    EXPECT_EQ(offsetof(mrc_ring_ctrl, prod), 0u);
    EXPECT_EQ(offsetof(mrc_ring_ctrl, cons), 64u);
    EXPECT_EQ(sizeof(mrc_ring_ctrl), static_cast<size_t>(MRC_RING_SLOTS_OFFSET));
}

TEST(ProduceBatchTest, PublishesOnceWithOneStore) {
    RingMemory mem(8, 64);
    ProduceBatch batch(mem.ring());
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(batch.reserve());
        batch.next().data[0] = std::byte{static_cast<unsigned char>(i + 1)};
        batch.commit();
        EXPECT_EQ(mem.ctrl().prod, 0u) << "nothing visible before publish()";
    }
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod, 3u);
    EXPECT_EQ(mem.ctrl().cons, 0u);
    EXPECT_EQ(mem.ring().slot(2).data[0], std::byte{3});
}

TEST(ProduceBatchTest, UncommittedSlotIsNotPublished) {
    RingMemory mem(8, 64);
    ProduceBatch batch(mem.ring());
    ASSERT_TRUE(batch.reserve());
    batch.commit();
    ASSERT_TRUE(batch.reserve());  // reserved but abandoned
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod, 1u);
}

TEST(ProduceBatchTest, FullRingRefusesTheNextSlot) {
    RingMemory mem(4, 64);
    mem.ctrl().prod = 4;  // four slots written, none consumed
    ProduceBatch batch(mem.ring());
    EXPECT_FALSE(batch.reserve());
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod, 4u);
}

TEST(ProduceBatchTest, FillsExactlyToCapacity) {
    RingMemory mem(4, 64);
    mem.ctrl().prod = 1;
    mem.ctrl().cons = 0;
    ProduceBatch batch(mem.ring());
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(batch.reserve());
        batch.commit();
    }
    EXPECT_FALSE(batch.reserve());
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod - mem.ctrl().cons, 4u);
}

TEST(ProduceBatchTest, RereadsConsWhenItRunsOutOfKnownSpace) {
    RingMemory mem(2, 64);
    mem.ctrl().prod = 2;  // full
    ProduceBatch batch(mem.ring());
    EXPECT_FALSE(batch.reserve());
    mem.ctrl().cons = 1;  // the consumer frees one slot meanwhile
    ASSERT_TRUE(batch.reserve());
    EXPECT_EQ(batch.next().data, mem.ring().slot(2).data);
    batch.commit();
    EXPECT_FALSE(batch.reserve());
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod, 3u);
}

TEST(ProduceBatchTest, WrapsAcrossTheTopOfThe32BitIndexSpace) {
    RingMemory mem(4, 64);
    mem.start_at(UINT32_MAX - 1);
    ProduceBatch batch(mem.ring());
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_TRUE(batch.reserve()) << i;
        // Slots UINT32_MAX-1, UINT32_MAX, 0, 1 map to ring positions 2, 3, 0, 1.
        EXPECT_EQ(batch.next().data, mem.ring().slot(UINT32_MAX - 1 + i).data);
        batch.commit();
    }
    EXPECT_FALSE(batch.reserve());
    batch.publish();
    EXPECT_EQ(mem.ctrl().prod, 2u);  // wrapped

    // The consumer frees two slots; the producer sees exactly two.
    mem.ctrl().cons = 0;
    ProduceBatch again(mem.ring());
    EXPECT_TRUE(again.reserve());
    again.commit();
    EXPECT_TRUE(again.reserve());
    again.commit();
    EXPECT_FALSE(again.reserve());
}

TEST(ProduceBatchTest, ConsBeyondProdLeavesNoRoom) {
    RingMemory mem(4, 64);
    mem.ctrl().prod = 10;
    mem.ctrl().cons = 11;  // a consumer cannot pass the producer
    ProduceBatch batch(mem.ring());
    EXPECT_FALSE(batch.reserve());
}

TEST(ConsumeBatchTest, ReadsWhatWasPublishedAndReleasesOnce) {
    RingMemory mem(8, 64);
    mem.ctrl().prod = 5;
    mem.ctrl().cons = 2;
    ConsumeBatch batch(mem.ring());
    EXPECT_FALSE(batch.overrun());
    EXPECT_EQ(batch.ready(), 3u);
    EXPECT_EQ(batch.slot(0).data, mem.ring().slot(2).data);
    batch.release(2);
    EXPECT_EQ(mem.ctrl().cons, 4u);
    EXPECT_EQ(mem.ctrl().prod, 5u);
}

TEST(ConsumeBatchTest, EmptyRing) {
    RingMemory mem(8, 64);
    mem.start_at(12345);
    ConsumeBatch batch(mem.ring());
    EXPECT_EQ(batch.ready(), 0u);
    batch.release(0);
    EXPECT_EQ(mem.ctrl().cons, 12345u);
}

TEST(ConsumeBatchTest, FullRingAcrossWrapAround) {
    RingMemory mem(4, 64);
    mem.ctrl().cons = UINT32_MAX - 1;
    mem.ctrl().prod = 2;  // four entries: UINT32_MAX-1 .. 1
    ConsumeBatch batch(mem.ring());
    EXPECT_FALSE(batch.overrun());
    ASSERT_EQ(batch.ready(), 4u);
    EXPECT_EQ(batch.slot(0).data, mem.ring().slot(2).data);
    EXPECT_EQ(batch.slot(2).data, mem.ring().slot(0).data);
    batch.release(4);
    EXPECT_EQ(mem.ctrl().cons, 2u);
}

TEST(ConsumeBatchTest, ProducerClaimingMoreThanTheRingIsAnOverrun) {
    RingMemory mem(4, 64);
    mem.ctrl().cons = 0;
    mem.ctrl().prod = 5;
    ConsumeBatch batch(mem.ring());
    EXPECT_TRUE(batch.overrun());
    EXPECT_EQ(batch.ready(), 0u);

    mem.ctrl().cons = 7;  // prod behind cons
    ConsumeBatch behind(mem.ring());
    EXPECT_TRUE(behind.overrun());
}

}  // namespace
