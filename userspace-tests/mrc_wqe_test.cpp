// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Work request → ring slot translation: every field of struct mrc_send_wqe
// and mrc_recv_wqe as the kernel will read it, the limits a slot imposes,
// and that a rejected request leaves the slot untouched.
#include "mrc_wqe.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mrc-abi.h"

namespace {

using mrc::Slot;

constexpr std::byte kFill{0xa5};

// Caps that never bind: the tests of slot limits see the slot's own bound.
constexpr mrc::SendCaps kNoCaps{UINT32_MAX, UINT32_MAX};
constexpr uint32_t kNoRecvCap = UINT32_MAX;

// One slot's worth of memory, pre-filled so untouched bytes are visible.
class SlotMemory {
public:
    explicit SlotMemory(std::size_t size) : words_((size + 7) / 8), size_(size) {
        std::memset(words_.data(), static_cast<int>(kFill), size_);
    }
    Slot slot() { return {reinterpret_cast<std::byte*>(words_.data()), size_}; }
    mrc_send_wqe send() const {
        mrc_send_wqe w;
        std::memcpy(&w, words_.data(), sizeof(w));
        return w;
    }
    mrc_recv_wqe recv() const {
        mrc_recv_wqe w;
        std::memcpy(&w, words_.data(), sizeof(w));
        return w;
    }
    mrc_sge sge(std::size_t header, std::size_t i) const {
        mrc_sge s;
        std::memcpy(&s, bytes() + header + i * sizeof(s), sizeof(s));
        return s;
    }
    const std::byte* bytes() const { return reinterpret_cast<const std::byte*>(words_.data()); }
    bool untouched() const {
        for (std::size_t i = 0; i < size_; ++i) {
            if (bytes()[i] != kFill) {
                return false;
            }
        }
        return true;
    }

private:
    std::vector<uint64_t> words_;
    std::size_t size_;
};

ibv_send_wr send_wr(ibv_wr_opcode op, ibv_sge* sges, int n) {
    ibv_send_wr wr{};
    wr.wr_id = 0x1122334455667788ull;
    wr.opcode = op;
    wr.sg_list = sges;
    wr.num_sge = n;
    wr.send_flags = IBV_SEND_SIGNALED;
    return wr;
}

TEST(WqeAbiTest, HeaderAndEntrySizes) {
    // What the slot capacities below are computed from; the kernel reads
    // the same layout.
    EXPECT_EQ(sizeof(mrc_send_wqe), 64u);
    EXPECT_EQ(sizeof(mrc_recv_wqe), 16u);
    EXPECT_EQ(sizeof(mrc_sge), 16u);
    EXPECT_EQ(sizeof(mrc_cqe), 48u);
    EXPECT_EQ(mrc::send_slot_max_sge(128), 4u);
    EXPECT_EQ(mrc::send_slot_max_sge(64), 0u);
    EXPECT_EQ(mrc::send_slot_max_sge(32), 0u);
    EXPECT_EQ(mrc::send_slot_max_inline(256), 192u);
    EXPECT_EQ(mrc::recv_slot_max_sge(64), 3u);
}

TEST(SendWqeTest, RdmaWriteCarriesEveryField) {
    ibv_sge sges[2] = {{0x1000, 100, 0xaa}, {0x2000, 200, 0xbb}};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE, sges, 2);
    wr.wr.rdma.remote_addr = 0xdead0000beef;
    wr.wr.rdma.rkey = 0x4242;
    wr.imm_data = htonl(0x55);  // not an _WITH_IMM opcode: must not travel

    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.wr_id, wr.wr_id);
    EXPECT_EQ(w.opcode, static_cast<uint32_t>(IBV_WR_RDMA_WRITE));
    EXPECT_EQ(w.send_flags, static_cast<uint32_t>(IBV_SEND_SIGNALED));
    EXPECT_EQ(w.imm_data, 0u);
    EXPECT_EQ(w.num_sge, 2u);
    EXPECT_EQ(w.inline_len, 0u);
    EXPECT_EQ(w.reserved0, 0u);
    EXPECT_EQ(w.remote_addr, 0xdead0000beefull);
    EXPECT_EQ(w.rkey, 0x4242u);
    EXPECT_EQ(w.reserved1, 0u);
    EXPECT_EQ(w.compare_add, 0u);
    EXPECT_EQ(w.swap, 0u);
    for (int i = 0; i < 2; ++i) {
        mrc_sge s = mem.sge(sizeof(mrc_send_wqe), i);
        EXPECT_EQ(s.addr, sges[i].addr);
        EXPECT_EQ(s.length, sges[i].length);
        EXPECT_EQ(s.lkey, sges[i].lkey);
    }
}

TEST(SendWqeTest, ImmediateDataPassesThroughInNetworkOrder) {
    ibv_sge sge{0x1000, 8, 1};
    for (ibv_wr_opcode op : {IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_WRITE_WITH_IMM}) {
        ibv_send_wr wr = send_wr(op, &sge, 1);
        wr.imm_data = htonl(0x01020304);
        wr.wr.rdma.remote_addr = 0x5000;
        wr.wr.rdma.rkey = 9;
        SlotMemory mem(128);
        ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0) << op;
        mrc_send_wqe w = mem.send();
        EXPECT_EQ(w.imm_data, htonl(0x01020304)) << op;
        EXPECT_EQ(w.opcode, static_cast<uint32_t>(op));
    }
}

TEST(SendWqeTest, SendWithInvalidateCarriesTheKeyInHostOrder) {
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_SEND_WITH_INV, &sge, 1);
    wr.invalidate_rkey = 0x00cafe04;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.opcode, static_cast<uint32_t>(IBV_WR_SEND_WITH_INV));
    EXPECT_EQ(w.imm_data, 0x00cafe04u);
    EXPECT_EQ(w.remote_addr, 0u);
    EXPECT_EQ(w.rkey, 0u);
    EXPECT_EQ(w.num_sge, 1u);
}

TEST(SendWqeTest, SendHasNoRemoteAddress) {
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    wr.wr.rdma.remote_addr = 0x5000;  // stale union contents
    wr.wr.rdma.rkey = 9;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    EXPECT_EQ(mem.send().remote_addr, 0u);
    EXPECT_EQ(mem.send().rkey, 0u);
}

TEST(SendWqeTest, ReadCarriesRemoteBuffer) {
    ibv_sge sge{0x1000, 4096, 7};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_READ, &sge, 1);
    wr.wr.rdma.remote_addr = 0x7000;
    wr.wr.rdma.rkey = 0x77;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    EXPECT_EQ(mem.send().remote_addr, 0x7000u);
    EXPECT_EQ(mem.send().rkey, 0x77u);
}

TEST(SendWqeTest, AtomicsCarryOperands) {
    ibv_sge sge{0x1000, 8, 7};
    ibv_send_wr wr = send_wr(IBV_WR_ATOMIC_CMP_AND_SWP, &sge, 1);
    wr.wr.atomic.remote_addr = 0x8000;
    wr.wr.atomic.compare_add = 0x1111222233334444ull;
    wr.wr.atomic.swap = 0x5555666677778888ull;
    wr.wr.atomic.rkey = 0x99;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.remote_addr, 0x8000u);
    EXPECT_EQ(w.compare_add, 0x1111222233334444ull);
    EXPECT_EQ(w.swap, 0x5555666677778888ull);
    EXPECT_EQ(w.rkey, 0x99u);
    EXPECT_EQ(w.num_sge, 1u);

    wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    SlotMemory fadd(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, fadd.slot()), 0);
    EXPECT_EQ(fadd.send().compare_add, 0x1111222233334444ull);
}

TEST(SendWqeTest, AtomicNeedsOneEightByteBuffer) {
    ibv_sge sges[2] = {{0x1000, 8, 7}, {0x2000, 8, 7}};
    ibv_send_wr two = send_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, sges, 2);
    ibv_send_wr none = send_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, nullptr, 0);
    ibv_sge four{0x1000, 4, 7};
    ibv_send_wr short_buf = send_wr(IBV_WR_ATOMIC_CMP_AND_SWP, &four, 1);
    for (const ibv_send_wr* wr : {&two, &none, &short_buf}) {
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(*wr, kNoCaps, mem.slot()), EINVAL);
        EXPECT_TRUE(mem.untouched());
    }
}

TEST(SendWqeTest, UnsupportedOpcodesAreRejected) {
    ibv_sge sge{0x1000, 8, 1};
    for (ibv_wr_opcode op :
         {IBV_WR_TSO, IBV_WR_DRIVER1, IBV_WR_ATOMIC_WRITE, static_cast<ibv_wr_opcode>(13)}) {
        ibv_send_wr wr = send_wr(op, &sge, 1);
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL) << op;
        EXPECT_TRUE(mem.untouched()) << op;
    }
}

// LOCAL_INV carries the key in imm_data (host order), no payload and no
// INLINE bit, whatever the request's SGEs say (rxe ignores them too).
TEST(SendWqeTest, LocalInvalidateCarriesOnlyItsKey) {
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_LOCAL_INV, &sge, 1);
    wr.invalidate_rkey = 0x12345678;
    wr.send_flags |= IBV_SEND_INLINE | IBV_SEND_FENCE;
    wr.wr.rdma.remote_addr = 0x5000;
    wr.wr.rdma.rkey = 9;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.opcode, static_cast<uint32_t>(IBV_WR_LOCAL_INV));
    EXPECT_EQ(w.imm_data, 0x12345678u);
    EXPECT_EQ(w.send_flags, static_cast<uint32_t>(IBV_SEND_SIGNALED | IBV_SEND_FENCE));
    EXPECT_EQ(w.num_sge, 0u);
    EXPECT_EQ(w.inline_len, 0u);
    EXPECT_EQ(w.remote_addr, 0u);
    EXPECT_EQ(w.rkey, 0u);
}

// BIND_MW carries the window's key, its next key, the range, the MR's
// L_Key and the access (mrc-abi.h), and no payload.
TEST(SendWqeTest, BindMwCarriesTheBind) {
    ibv_mw mw{};
    mw.rkey = 0x80001234;
    ibv_mr mr{};
    mr.lkey = 0x00abcd12;
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_BIND_MW, &sge, 1);
    wr.bind_mw.mw = &mw;
    wr.bind_mw.rkey = 0x80001235;
    wr.bind_mw.bind_info.mr = &mr;
    wr.bind_mw.bind_info.addr = 0x7000;
    wr.bind_mw.bind_info.length = 4096;
    wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.opcode, static_cast<uint32_t>(IBV_WR_BIND_MW));
    EXPECT_EQ(w.imm_data, 0x80001234u);
    EXPECT_EQ(w.rkey, 0x80001235u);
    EXPECT_EQ(w.remote_addr, 0x7000u);
    EXPECT_EQ(w.compare_add, 4096u);
    EXPECT_EQ(w.swap,
              (uint64_t{0x00abcd12} << 32) | (IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE));
    EXPECT_EQ(w.num_sge, 0u);
    EXPECT_EQ(w.inline_len, 0u);

    // An unbind (length 0) needs no MR; a length does, and a window always.
    wr.bind_mw.bind_info.mr = nullptr;
    wr.bind_mw.bind_info.length = 0;
    SlotMemory unbind(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, unbind.slot()), 0);
    EXPECT_EQ(unbind.send().swap >> 32, 0u);
    wr.bind_mw.bind_info.length = 1;
    SlotMemory no_mr(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, no_mr.slot()), EINVAL);
    EXPECT_TRUE(no_mr.untouched());
    wr.bind_mw.bind_info.mr = &mr;
    wr.bind_mw.mw = nullptr;
    SlotMemory no_mw(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, no_mw.slot()), EINVAL);
    EXPECT_TRUE(no_mw.untouched());
}

TEST(UdSendWqeTest, NoLocalInvalidate) {
    ibv_send_wr wr = send_wr(IBV_WR_LOCAL_INV, nullptr, 0);
    SlotMemory mem(128);
    EXPECT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 1, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

TEST(SendWqeTest, SgeCountLimitedBySlot) {
    std::vector<ibv_sge> sges(5, ibv_sge{0x1000, 1, 1});
    ibv_send_wr wr = send_wr(IBV_WR_SEND, sges.data(), 4);
    SlotMemory fits(128);  // 64-byte header + 4 * 16
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, fits.slot()), 0);
    EXPECT_EQ(fits.send().num_sge, 4u);

    wr.num_sge = 5;
    SlotMemory too_many(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, too_many.slot()), EINVAL);
    EXPECT_TRUE(too_many.untouched());
}

TEST(SendWqeTest, NegativeOrMissingSgeListRejected) {
    ibv_send_wr negative = send_wr(IBV_WR_SEND, nullptr, -1);
    ibv_send_wr missing = send_wr(IBV_WR_SEND, nullptr, 1);
    for (const ibv_send_wr* wr : {&negative, &missing}) {
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(*wr, kNoCaps, mem.slot()), EINVAL);
        EXPECT_TRUE(mem.untouched());
    }
}

TEST(SendWqeTest, ZeroLengthSendNeedsNoSge) {
    ibv_send_wr wr = send_wr(IBV_WR_SEND, nullptr, 0);
    SlotMemory mem(64);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    EXPECT_EQ(mem.send().num_sge, 0u);
}

TEST(SendWqeTest, InlineDataIsGatheredAfterTheHeader) {
    char a[] = "hello, ";
    char b[] = "inline world";
    ibv_sge sges[2] = {{reinterpret_cast<uintptr_t>(a), 7, 0},
                       {reinterpret_cast<uintptr_t>(b), 12, 0}};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, sges, 2);
    wr.send_flags |= IBV_SEND_INLINE;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    EXPECT_EQ(w.num_sge, 0u);
    EXPECT_EQ(w.inline_len, 19u);
    EXPECT_EQ(w.send_flags, static_cast<uint32_t>(IBV_SEND_SIGNALED | IBV_SEND_INLINE));
    EXPECT_EQ(std::memcmp(mem.bytes() + sizeof(mrc_send_wqe), "hello, inline world", 19), 0);
    EXPECT_EQ(mem.bytes()[sizeof(mrc_send_wqe) + 19], kFill);  // nothing written past it
}

TEST(SendWqeTest, InlineMayUseMoreSgesThanTheSlotHoldsAsEntries) {
    // Eight 8-byte pieces: 64 bytes of inline data, though a 128-byte slot
    // holds only four SGE entries.
    std::vector<uint64_t> words(8);
    std::vector<ibv_sge> sges;
    for (std::size_t i = 0; i < words.size(); ++i) {
        words[i] = 0x0101010101010101ull * i;
        sges.push_back({reinterpret_cast<uintptr_t>(&words[i]), 8, 0});
    }
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE_WITH_IMM, sges.data(), 8);
    wr.send_flags = IBV_SEND_INLINE;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), 0);
    EXPECT_EQ(mem.send().inline_len, 64u);
    EXPECT_EQ(std::memcmp(mem.bytes() + sizeof(mrc_send_wqe), words.data(), 64), 0);
}

TEST(SendWqeTest, InlineLargerThanTheSlotRejected) {
    std::vector<char> data(65, 'x');
    ibv_sge sge{reinterpret_cast<uintptr_t>(data.data()), 65, 0};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    wr.send_flags = IBV_SEND_INLINE;
    SlotMemory mem(128);  // 64 bytes of room
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());

    sge.length = 64;
    SlotMemory exact(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, exact.slot()), 0);
    EXPECT_EQ(exact.send().inline_len, 64u);
}

TEST(SendWqeTest, InlineLengthsThatWrap32BitsRejected) {
    char byte = 'x';
    ibv_sge sges[2] = {{reinterpret_cast<uintptr_t>(&byte), UINT32_MAX, 0},
                       {reinterpret_cast<uintptr_t>(&byte), 2, 0}};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, sges, 2);
    wr.send_flags = IBV_SEND_INLINE;
    SlotMemory mem(4096);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

TEST(SendWqeTest, InlineOnlyForSendAndWrite) {
    uint64_t word = 0;
    ibv_sge sge{reinterpret_cast<uintptr_t>(&word), 8, 0};
    for (ibv_wr_opcode op :
         {IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD}) {
        ibv_send_wr wr = send_wr(op, &sge, 1);
        wr.send_flags = IBV_SEND_INLINE;
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL) << op;
        EXPECT_TRUE(mem.untouched()) << op;
    }
}

TEST(SendWqeTest, SlotSmallerThanHeaderRejected) {
    ibv_send_wr wr = send_wr(IBV_WR_SEND, nullptr, 0);
    SlotMemory mem(32);
    EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

// A UD send names its AH by the kernel's number, in the place of an RC
// slot's remote address and R_Key, with the remote QPN and Q_Key.
TEST(UdSendWqeTest, CarriesItsDestination) {
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    wr.wr.ud.remote_qpn = 0x123456;
    wr.wr.ud.remote_qkey = 0x11111111;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 42, mem.slot()), 0);
    mrc_send_wqe w = mem.send();
    mrc_ud_dest d;
    std::memcpy(&d, mem.bytes() + offsetof(mrc_send_wqe, remote_addr), sizeof(d));
    EXPECT_EQ(d.ah_num, 42u);
    EXPECT_EQ(d.remote_qpn, 0x123456u);
    EXPECT_EQ(d.remote_qkey, 0x11111111u);
    EXPECT_EQ(d.reserved, 0u);
    EXPECT_EQ(w.compare_add, 0u);
    EXPECT_EQ(w.swap, 0u);
    EXPECT_EQ(w.num_sge, 1u);
    EXPECT_EQ(mem.sge(sizeof(mrc_send_wqe), 0).lkey, 1u);
}

TEST(UdSendWqeTest, InlinePayloadAllowed) {
    char a[] = "datagram";
    ibv_sge sge{reinterpret_cast<uintptr_t>(a), 8, 0};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    wr.send_flags |= IBV_SEND_INLINE;
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 7, mem.slot()), 0);
    EXPECT_EQ(mem.send().inline_len, 8u);
    EXPECT_EQ(std::memcmp(mem.bytes() + sizeof(mrc_send_wqe), "datagram", 8), 0);
}

TEST(UdSendWqeTest, ImmediateDataPassesThrough) {
    ibv_sge sge{0x1000, 8, 1};
    ibv_send_wr wr = send_wr(IBV_WR_SEND_WITH_IMM, &sge, 1);
    wr.imm_data = htonl(0xabcd0123);
    SlotMemory mem(128);
    ASSERT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 3, mem.slot()), 0);
    EXPECT_EQ(mem.send().opcode, static_cast<uint32_t>(IBV_WR_SEND_WITH_IMM));
    EXPECT_EQ(mem.send().imm_data, htonl(0xabcd0123));
}

TEST(UdSendWqeTest, OnlySendsWithAnAh) {
    ibv_sge sge{0x1000, 8, 1};
    for (ibv_wr_opcode op : {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
                             IBV_WR_ATOMIC_FETCH_AND_ADD}) {
        ibv_send_wr wr = send_wr(op, &sge, 1);
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 1, mem.slot()), EINVAL) << op;
        EXPECT_TRUE(mem.untouched()) << op;
    }
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    SlotMemory mem(128);
    EXPECT_EQ(mrc::build_ud_send_wqe(wr, kNoCaps, 0, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

TEST(RecvWqeTest, CarriesIdAndSges) {
    ibv_sge sges[3] = {{0x1000, 10, 1}, {0x2000, 20, 2}, {0x3000, 30, 3}};
    ibv_recv_wr wr{};
    wr.wr_id = 77;
    wr.sg_list = sges;
    wr.num_sge = 3;
    SlotMemory mem(64);  // 16-byte header + 3 * 16
    ASSERT_EQ(mrc::build_recv_wqe(wr, kNoRecvCap, mem.slot()), 0);
    mrc_recv_wqe w = mem.recv();
    EXPECT_EQ(w.wr_id, 77u);
    EXPECT_EQ(w.num_sge, 3u);
    EXPECT_EQ(w.reserved, 0u);
    for (int i = 0; i < 3; ++i) {
        mrc_sge s = mem.sge(sizeof(mrc_recv_wqe), i);
        EXPECT_EQ(s.addr, sges[i].addr);
        EXPECT_EQ(s.length, sges[i].length);
        EXPECT_EQ(s.lkey, sges[i].lkey);
    }
}

TEST(RecvWqeTest, TooManyOrNegativeSgesRejected) {
    std::vector<ibv_sge> sges(4, ibv_sge{0x1000, 1, 1});
    ibv_recv_wr wr{};
    wr.sg_list = sges.data();
    wr.num_sge = 4;
    SlotMemory mem(64);
    EXPECT_EQ(mrc::build_recv_wqe(wr, kNoRecvCap, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());

    wr.num_sge = -2;
    EXPECT_EQ(mrc::build_recv_wqe(wr, kNoRecvCap, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

TEST(RecvWqeTest, ZeroSgeReceiveIsValid) {
    ibv_recv_wr wr{};
    wr.wr_id = 5;
    SlotMemory mem(64);
    ASSERT_EQ(mrc::build_recv_wqe(wr, kNoRecvCap, mem.slot()), 0);
    EXPECT_EQ(mem.recv().num_sge, 0u);
    EXPECT_EQ(mem.recv().wr_id, 5u);
}

}  // namespace

// The caps granted at create bind, not the slot's room: a QP that asked for
// one SGE may sit on 128-byte slots that hold four (issue 17, defect 1).
TEST(GrantedCapsTest, SendSgesBeyondMaxSendSgeRejected) {
    std::vector<ibv_sge> sges(4, ibv_sge{0x1000, 1, 1});
    const mrc::SendCaps caps{1, 0};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, sges.data(), 1);
    SlotMemory fits(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, caps, fits.slot()), 0);
    EXPECT_EQ(fits.send().num_sge, 1u);
    for (int n = 2; n <= 4; ++n) {
        wr.num_sge = n;
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(wr, caps, mem.slot()), EINVAL) << n;
        EXPECT_TRUE(mem.untouched()) << n;
    }
}

TEST(GrantedCapsTest, ExactlyMaxSendSgeAccepted) {
    std::vector<ibv_sge> sges(3, ibv_sge{0x1000, 1, 1});
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE, sges.data(), 3);
    SlotMemory mem(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, mrc::SendCaps{3, 0}, mem.slot()), 0);
    EXPECT_EQ(mem.send().num_sge, 3u);
}

TEST(GrantedCapsTest, InlineBeyondMaxInlineDataRejected) {
    std::vector<char> data(17, 'x');
    ibv_sge sge{reinterpret_cast<uintptr_t>(data.data()), 17, 0};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
    wr.send_flags |= IBV_SEND_INLINE;
    const mrc::SendCaps caps{1, 16};
    SlotMemory mem(128);  // 64 bytes of room, 16 granted
    EXPECT_EQ(mrc::build_send_wqe(wr, caps, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());

    sge.length = 16;
    SlotMemory exact(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, caps, exact.slot()), 0);
    EXPECT_EQ(exact.send().inline_len, 16u);
}

TEST(GrantedCapsTest, InlineWithNoInlineGrantedTakesOnlyEmptyData) {
    char byte = 'x';
    ibv_sge sge{reinterpret_cast<uintptr_t>(&byte), 1, 0};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE, &sge, 1);
    wr.send_flags |= IBV_SEND_INLINE;
    SlotMemory mem(128);
    EXPECT_EQ(mrc::build_send_wqe(wr, mrc::SendCaps{1, 0}, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
}

TEST(GrantedCapsTest, RecvSgesBeyondMaxRecvSgeRejected) {
    std::vector<ibv_sge> sges(3, ibv_sge{0x1000, 1, 1});
    ibv_recv_wr wr{};
    wr.sg_list = sges.data();
    wr.num_sge = 2;
    SlotMemory mem(64);  // room for 3
    EXPECT_EQ(mrc::build_recv_wqe(wr, 1, mem.slot()), EINVAL);
    EXPECT_TRUE(mem.untouched());
    wr.num_sge = 1;
    EXPECT_EQ(mrc::build_recv_wqe(wr, 1, mem.slot()), 0);
    EXPECT_EQ(mem.recv().num_sge, 1u);
}

TEST(SendWqeTest, UnknownSendFlagsRejected) {
    ibv_sge sge{0x1000, 8, 1};
    for (unsigned int flag : {unsigned{IBV_SEND_IP_CSUM}, 1u << 5, 1u << 26, 1u << 31}) {
        ibv_send_wr wr = send_wr(IBV_WR_SEND, &sge, 1);
        wr.send_flags |= flag;
        SlotMemory mem(128);
        EXPECT_EQ(mrc::build_send_wqe(wr, kNoCaps, mem.slot()), EINVAL) << flag;
        EXPECT_TRUE(mem.untouched()) << flag;
    }
    ibv_send_wr known = send_wr(IBV_WR_SEND, &sge, 1);
    known.send_flags = IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED;
    SlotMemory mem(128);
    EXPECT_EQ(mrc::build_send_wqe(known, kNoCaps, mem.slot()), 0);
    EXPECT_EQ(mrc::kSendFlagsKnown, static_cast<uint32_t>(MRC_SEND_FLAGS_KNOWN));
}

// A create reply is checked against the caps it grants before anything is
// mapped: rings must exist and carry what the caps promise.
mrc_ring_info ring_info(uint32_t num_slots, uint32_t slot_size) {
    mrc_ring_info info{};
    info.mmap_offset = 4096;
    info.num_slots = num_slots;
    info.slot_size = slot_size;
    info.mmap_size = MRC_RING_SLOTS_OFFSET + num_slots * slot_size;
    return info;
}

TEST(CreateReplyTest, SendQueueMatchingItsCapsAccepted) {
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 16, {4, 64}), 0);
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 1, {1, 0}), 0);
}

TEST(CreateReplyTest, SendQueueThatCannotCarryItsCapsRejected) {
    EXPECT_EQ(mrc::check_send_queue(ring_info(0, 0), 16, {1, 0}), EPROTO) << "no ring";
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 16, {5, 0}), EPROTO) << "sge";
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 16, {1, 65}), EPROTO) << "inline";
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 17, {1, 0}), EPROTO) << "depth";
    EXPECT_EQ(mrc::check_send_queue(ring_info(16, 128), 0, {1, 0}), EPROTO) << "no depth";
}

TEST(CreateReplyTest, RecvQueueChecked) {
    EXPECT_EQ(mrc::check_recv_queue(ring_info(8, 64), 7, 3), 0);
    EXPECT_EQ(mrc::check_recv_queue(ring_info(0, 0), 7, 1), EPROTO) << "no ring";
    EXPECT_EQ(mrc::check_recv_queue(ring_info(8, 64), 7, 4), EPROTO) << "sge";
    EXPECT_EQ(mrc::check_recv_queue(ring_info(8, 64), 9, 1), EPROTO) << "depth";
}
