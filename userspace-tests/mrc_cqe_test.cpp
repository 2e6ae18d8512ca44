// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CQ slot → ibv_wc: every field copied, values left exactly as the kernel
// wrote them (libibverbs' own enum values, immediate data in network order).
#include "mrc_cqe.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mrc-abi.h"
#include "ring_memory.h"

namespace {

mrc_cqe sample_cqe() {
    mrc_cqe c{};
    c.wr_id = 0x0102030405060708ull;
    c.status = IBV_WC_REM_ACCESS_ERR;
    c.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
    c.vendor_err = 0x1234;
    c.byte_len = 65536;
    c.imm_data = htonl(0xcafef00d);
    c.qp_num = 0x11;
    c.src_qp = 0x22;
    c.wc_flags = IBV_WC_WITH_IMM | IBV_WC_GRH;
    c.pkey_index = 3;
    c.slid = 0x4455;
    c.sl = 6;
    c.dlid_path_bits = 7;
    return c;
}

TEST(CqeTest, EveryFieldReachesTheWorkCompletion) {
    mrc_cqe c = sample_cqe();
    ibv_wc wc;
    std::memset(&wc, 0xff, sizeof(wc));
    mrc::cqe_to_wc(c, wc);
    EXPECT_EQ(wc.wr_id, c.wr_id);
    EXPECT_EQ(wc.status, IBV_WC_REM_ACCESS_ERR);
    EXPECT_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
    EXPECT_EQ(wc.vendor_err, 0x1234u);
    EXPECT_EQ(wc.byte_len, 65536u);
    EXPECT_EQ(wc.imm_data, htonl(0xcafef00d));
    EXPECT_EQ(wc.qp_num, 0x11u);
    EXPECT_EQ(wc.src_qp, 0x22u);
    EXPECT_EQ(wc.wc_flags, static_cast<unsigned>(IBV_WC_WITH_IMM | IBV_WC_GRH));
    EXPECT_EQ(wc.pkey_index, 3u);
    EXPECT_EQ(wc.slid, 0x4455u);
    EXPECT_EQ(wc.sl, 6u);
    EXPECT_EQ(wc.dlid_path_bits, 7u);
}

TEST(CqeTest, SuccessfulSendCompletion) {
    mrc_cqe c{};
    c.wr_id = 9;
    c.status = IBV_WC_SUCCESS;
    c.opcode = IBV_WC_RDMA_WRITE;
    ibv_wc wc{};
    mrc::cqe_to_wc(c, wc);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
    EXPECT_EQ(wc.opcode, IBV_WC_RDMA_WRITE);
    EXPECT_EQ(wc.wc_flags, 0u);
    EXPECT_EQ(wc.wr_id, 9u);
}

TEST(CqeTest, ReadsFromASlotAsTheKernelLaysItOut) {
    // A 64-byte slot, as in a ring: the CQE at its start, padding after.
    std::vector<uint64_t> words(8, ~0ull);
    mrc_cqe c = sample_cqe();
    std::memcpy(words.data(), &c, sizeof(c));
    ibv_wc wc{};
    mrc::slot_to_wc({reinterpret_cast<std::byte*>(words.data()), 64}, wc);
    EXPECT_EQ(wc.wr_id, c.wr_id);
    EXPECT_EQ(wc.imm_data, c.imm_data);
    EXPECT_EQ(wc.dlid_path_bits, 7u);
}

// The kernel's side of a CQ ring: completions with wr_id first.. and prod.
void produce(mrc_test::RingMemory& mem, uint64_t first, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        mrc_cqe c{};
        c.wr_id = first + i;
        std::memcpy(mem.ring().slot(mem.ctrl().prod + i).data, &c, sizeof(c));
    }
    mem.ctrl().prod += count;
}

TEST(PollRingTest, ReturnsWhatIsQueuedThenNothing) {
    mrc_test::RingMemory mem(4, 64);
    produce(mem, 10, 3);
    ibv_wc wc[4] = {};
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 2, wc), 2);
    EXPECT_EQ(wc[0].wr_id, 10u);
    EXPECT_EQ(wc[1].wr_id, 11u);
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), 1);
    EXPECT_EQ(wc[0].wr_id, 12u);
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), 0);
    EXPECT_EQ(mem.ctrl().cons, 3u);
}

TEST(PollRingTest, OverflowedCqReportsAnErrorOnceDrained) {
    // After an overflow the kernel produces nothing more: without the flag
    // the program would poll an empty CQ forever.
    mrc_test::RingMemory mem(4, 64);
    produce(mem, 1, 2);
    mem.ctrl().flags = MRC_RING_F_CQ_OVERFLOW;
    ibv_wc wc[4] = {};
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 0, wc), 0) << "no room, no error yet";
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), 2) << "queued completions stay valid";
    EXPECT_EQ(wc[1].wr_id, 2u);
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), -EOVERFLOW);
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), -EOVERFLOW) << "for good";
    EXPECT_EQ(mem.ctrl().cons, 2u);
}

TEST(PollRingTest, CqDestroyedUnderUsReportsEioOnceDrained) {
    // The device went away and the kernel destroyed the CQ: nothing more
    // comes, and an empty poll must not look like an idle CQ.
    mrc_test::RingMemory mem(4, 64);
    produce(mem, 7, 1);
    mem.ctrl().flags = MRC_RING_F_CQ_GONE;
    ibv_wc wc[4] = {};
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), 1) << "queued completions stay valid";
    EXPECT_EQ(wc[0].wr_id, 7u);
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), -EIO);
    mem.ctrl().flags = MRC_RING_F_CQ_GONE | MRC_RING_F_CQ_OVERFLOW;
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), -EIO) << "gone wins over overflow";
}

TEST(PollRingTest, CorruptProdIsAnError) {
    mrc_test::RingMemory mem(4, 64);
    mem.ctrl().prod = 5;
    ibv_wc wc[4] = {};
    EXPECT_EQ(mrc::poll_ring(mem.ring(), 4, wc), -EIO);
    EXPECT_EQ(mem.ctrl().cons, 0u);
}

}  // namespace
