// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Posting chains of work requests to a ring in ordinary memory: one publish
// per call, *bad_wr semantics on a full ring or a rejected request, and
// indices that wrap.
#include "mrc_post.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "mrc-abi.h"
#include "mrc_wqe.h"
#include "ring_memory.h"

namespace {

using mrc::post_to_ring;
using mrc::PostResult;
using mrc_test::RingMemory;

// A chain of n receive requests with wr_id 1..n.
std::vector<ibv_recv_wr> recv_chain(int n) {
    std::vector<ibv_recv_wr> wrs(n);
    for (int i = 0; i < n; ++i) {
        wrs[i].wr_id = static_cast<uint64_t>(i + 1);
        wrs[i].next = i + 1 < n ? &wrs[i + 1] : nullptr;
    }
    return wrs;
}

int build_recv(const ibv_recv_wr& wr, mrc::Slot slot) {
    return mrc::build_recv_wqe(wr, UINT32_MAX, slot);
}

int build_send(const ibv_send_wr& wr, mrc::Slot slot) {
    return mrc::build_send_wqe(wr, mrc::SendCaps{UINT32_MAX, UINT32_MAX}, slot);
}

uint64_t slot_wr_id(const RingMemory& mem, uint32_t index) {
    mrc_recv_wqe w;
    std::memcpy(&w, mem.ring().slot(index).data, sizeof(w));
    return w.wr_id;
}

TEST(PostToRingTest, WholeChainPublishedOnce) {
    RingMemory mem(8, 64);
    std::vector<ibv_recv_wr> wrs = recv_chain(5);
    ibv_recv_wr* bad = &wrs[0];
    PostResult r = post_to_ring(mem.ring(), wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, 0);
    EXPECT_EQ(r.posted, 5u);
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(mem.ctrl().prod, 5u);
    for (uint32_t i = 0; i < 5; ++i) {
        EXPECT_EQ(slot_wr_id(mem, i), i + 1);
    }
}

TEST(PostToRingTest, FullRingStopsAtTheFirstRequestThatDoesNotFit) {
    RingMemory mem(4, 64);
    mem.ctrl().prod = 1;  // one slot still unconsumed
    std::vector<ibv_recv_wr> wrs = recv_chain(6);
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(mem.ring(), wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, ENOMEM);
    EXPECT_EQ(r.posted, 3u);
    EXPECT_EQ(bad, &wrs[3]);
    EXPECT_EQ(mem.ctrl().prod, 4u) << "the three that fit are published";
}

TEST(PostToRingTest, RejectedRequestStopsTheChainAfterPublishingItsPredecessors) {
    RingMemory mem(8, 64);
    std::vector<ibv_recv_wr> wrs = recv_chain(4);
    wrs[2].num_sge = 9;  // more than a 64-byte slot holds
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(mem.ring(), wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, EINVAL);
    EXPECT_EQ(r.posted, 2u);
    EXPECT_EQ(bad, &wrs[2]);
    EXPECT_EQ(mem.ctrl().prod, 2u);
}

TEST(PostToRingTest, FirstRequestRejectedPublishesNothing) {
    RingMemory mem(8, 64);
    mem.start_at(40);
    std::vector<ibv_recv_wr> wrs = recv_chain(2);
    wrs[0].num_sge = -1;
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(mem.ring(), wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, EINVAL);
    EXPECT_EQ(r.posted, 0u);
    EXPECT_EQ(bad, &wrs[0]);
    EXPECT_EQ(mem.ctrl().prod, 40u);
}

TEST(PostToRingTest, ChainWrapsThe32BitIndex) {
    RingMemory mem(4, 64);
    mem.start_at(UINT32_MAX - 2);
    std::vector<ibv_recv_wr> wrs = recv_chain(4);
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(mem.ring(), wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, 0);
    EXPECT_EQ(r.posted, 4u);
    EXPECT_EQ(mem.ctrl().prod, 1u);
    EXPECT_EQ(slot_wr_id(mem, UINT32_MAX - 2), 1u);
    EXPECT_EQ(slot_wr_id(mem, UINT32_MAX), 3u);
    EXPECT_EQ(slot_wr_id(mem, 0), 4u);
}

TEST(PostToRingTest, SendChainUsesTheSendBuilder) {
    RingMemory mem(4, 128);
    ibv_send_wr wrs[2] = {};
    wrs[0].wr_id = 10;
    wrs[0].opcode = IBV_WR_SEND;
    wrs[0].next = &wrs[1];
    wrs[1].wr_id = 11;
    wrs[1].opcode = static_cast<ibv_wr_opcode>(13);  // unnamed
    ibv_send_wr* bad = nullptr;
    PostResult r = post_to_ring(mem.ring(), wrs, &bad, build_send);
    EXPECT_EQ(r.err, EINVAL);
    EXPECT_EQ(r.posted, 1u);
    EXPECT_EQ(bad, &wrs[1]);
    mrc_send_wqe w;
    std::memcpy(&w, mem.ring().slot(0).data, sizeof(w));
    EXPECT_EQ(w.wr_id, 10u);
}

TEST(PostToRingTest, EmptyChainTouchesNothing) {
    RingMemory mem(4, 64);
    ibv_recv_wr* bad = reinterpret_cast<ibv_recv_wr*>(0x1);
    PostResult r = post_to_ring<ibv_recv_wr>(mem.ring(), nullptr, &bad, build_recv);
    EXPECT_EQ(r.err, 0);
    EXPECT_EQ(r.posted, 0u);
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(mem.ctrl().prod, 0u);
}

TEST(PostToRingTest, QueueWithoutRingHasNoRoom) {
    mrc::Ring none;
    std::vector<ibv_recv_wr> wrs = recv_chain(1);
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(none, wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, ENOMEM);
    EXPECT_EQ(bad, &wrs[0]);
}

}  // namespace

TEST(PostToRingTest, GrantedDepthBelowTheSlotCountBinds) {
    // An SRQ granted max_wr 7 lives on 8 slots: the eighth request is refused.
    RingMemory mem(8, 64);
    mrc::Ring ring = mem.ring();
    ring.limit_depth(7);
    std::vector<ibv_recv_wr> wrs = recv_chain(8);
    ibv_recv_wr* bad = nullptr;
    PostResult r = post_to_ring(ring, wrs.data(), &bad, build_recv);
    EXPECT_EQ(r.err, ENOMEM);
    EXPECT_EQ(r.posted, 7u);
    EXPECT_EQ(bad, &wrs[7]);
    EXPECT_EQ(mem.ctrl().prod, 7u);
}

TEST(FinishDoorbellTest, FailedDoorbellFailsTheCallFromItsFirstRequest) {
    std::vector<ibv_recv_wr> wrs = recv_chain(3);
    ibv_recv_wr* bad = nullptr;
    EXPECT_EQ(mrc::finish_doorbell(PostResult{0, 3}, EIO, wrs.data(), &bad), EIO);
    EXPECT_EQ(bad, &wrs[0]) << "an error always names a request";

    bad = &wrs[2];  // the builder refused the third
    EXPECT_EQ(mrc::finish_doorbell(PostResult{EINVAL, 2}, ENOMEM, wrs.data(), &bad), ENOMEM);
    EXPECT_EQ(bad, &wrs[0]) << "the kernel heard of none of them";
}

TEST(FinishDoorbellTest, SuccessfulDoorbellKeepsThePostResult) {
    std::vector<ibv_recv_wr> wrs = recv_chain(3);
    ibv_recv_wr* bad = nullptr;
    EXPECT_EQ(mrc::finish_doorbell(PostResult{0, 3}, 0, wrs.data(), &bad), 0);
    EXPECT_EQ(bad, nullptr);
    bad = &wrs[1];
    EXPECT_EQ(mrc::finish_doorbell(PostResult{EINVAL, 1}, 0, wrs.data(), &bad), EINVAL);
    EXPECT_EQ(bad, &wrs[1]);
}
