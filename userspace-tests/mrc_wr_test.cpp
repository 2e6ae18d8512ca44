// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ibv_wr_* interface (mrc_wr.h) against ibv_post_send: the same request
// makes the same slot bytes both ways; a session publishes all or nothing
// with rxe's errnos; the send ops, create attributes and CQ wc_flags that
// are accepted; and the extended CQ poll (PollCursor of mrc_cqe.h).
#include "mrc_wr.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "mrc-abi.h"
#include "mrc_cqe.h"
#include "mrc_post.h"
#include "mrc_wqe.h"
#include "ring_memory.h"

namespace {

using mrc::SendOperands;
using mrc::WrSession;
using mrc_test::RingMemory;

constexpr mrc::SendCaps kCaps{4, 96};
constexpr uint32_t kSlots = 8;
constexpr uint32_t kSlotSize = 192;  // 64-byte header + 8 SGEs or 128 inline bytes
constexpr uint32_t kAh = 17;

// Fills every slot with a pattern, so bytes one path writes and the
// other does not show up in the comparison.
void scribble(RingMemory& mem) {
    for (uint32_t i = 0; i < kSlots; ++i) {
        std::memset(mem.ring().slot(i).data, 0x5a, kSlotSize);
    }
}

void expect_same_rings(const RingMemory& a, const RingMemory& b) {
    ASSERT_EQ(a.ring().acquire_prod(), b.ring().acquire_prod());
    for (uint32_t i = 0; i < kSlots; ++i) {
        EXPECT_EQ(std::memcmp(a.ring().slot(i).data, b.ring().slot(i).data, kSlotSize), 0)
            << "slot " << i;
    }
}

// One request both ways: how ibv_post_send sees it, and the ibv_wr_*
// calls (a builder, then setters) that say the same.
struct Case {
    const char* name;
    ibv_send_wr wr;
    std::function<void(WrSession&)> calls;
};

char g_text[] = "inline payload, two pieces";
ibv_sge g_sges[3] = {{0x10000, 100, 0xa1}, {0x20000, 200, 0xa2}, {0x30000, 300, 0xa3}};
ibv_sge g_atomic_sge{0x40000, 8, 0xa4};
ibv_sge g_inline_sges[2] = {{reinterpret_cast<uintptr_t>(g_text), 6, 0},
                            {reinterpret_cast<uintptr_t>(g_text + 6), 20, 0}};
ibv_data_buf g_bufs[2] = {{g_text, 6}, {g_text + 6, 20}};

ibv_send_wr base_wr(ibv_wr_opcode op, uint64_t wr_id, unsigned flags) {
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.opcode = op;
    wr.send_flags = flags;
    wr.sg_list = g_sges;
    wr.num_sge = 2;
    return wr;
}

std::vector<Case> rc_cases() {
    std::vector<Case> cases;
    {
        ibv_send_wr wr = base_wr(IBV_WR_SEND, 1, IBV_SEND_SIGNALED);
        cases.push_back({"send", wr, [](WrSession& s) {
                             s.begin(1, IBV_SEND_SIGNALED, IBV_WR_SEND, {});
                             s.set_sge_list(2, g_sges);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_SEND_WITH_IMM, 2, IBV_SEND_SOLICITED);
        wr.imm_data = htonl(0xfeedbeef);
        wr.num_sge = 1;
        cases.push_back({"send_imm", wr, [](WrSession& s) {
                             SendOperands o;
                             o.imm = htonl(0xfeedbeef);
                             s.begin(2, IBV_SEND_SOLICITED, IBV_WR_SEND_WITH_IMM, o);
                             s.set_sge(g_sges[0].lkey, g_sges[0].addr, g_sges[0].length);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_SEND_WITH_INV, 3, 0);
        wr.invalidate_rkey = 0x1234;
        cases.push_back({"send_inv", wr, [](WrSession& s) {
                             SendOperands o;
                             o.imm = 0x1234;
                             s.begin(3, 0, IBV_WR_SEND_WITH_INV, o);
                             s.set_sge_list(2, g_sges);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_RDMA_WRITE, 4, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
        wr.sg_list = g_inline_sges;
        wr.wr.rdma.remote_addr = 0xabc000;
        wr.wr.rdma.rkey = 0x77;
        cases.push_back({"rdma_write inline", wr, [](WrSession& s) {
                             SendOperands o;
                             o.remote_addr = 0xabc000;
                             o.rkey = 0x77;
                             s.begin(4, IBV_SEND_SIGNALED, IBV_WR_RDMA_WRITE, o);
                             s.set_inline_data_list(2, g_bufs);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_RDMA_WRITE_WITH_IMM, 5, IBV_SEND_FENCE);
        wr.num_sge = 3;
        wr.imm_data = htonl(7);
        wr.wr.rdma.remote_addr = 0xdef000;
        wr.wr.rdma.rkey = 0x88;
        cases.push_back({"rdma_write_imm", wr, [](WrSession& s) {
                             SendOperands o;
                             o.remote_addr = 0xdef000;
                             o.rkey = 0x88;
                             o.imm = htonl(7);
                             s.begin(5, IBV_SEND_FENCE, IBV_WR_RDMA_WRITE_WITH_IMM, o);
                             s.set_sge_list(3, g_sges);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_RDMA_READ, 6, IBV_SEND_SIGNALED);
        wr.wr.rdma.remote_addr = 0x111000;
        wr.wr.rdma.rkey = 0x99;
        cases.push_back({"rdma_read", wr, [](WrSession& s) {
                             SendOperands o;
                             o.remote_addr = 0x111000;
                             o.rkey = 0x99;
                             s.begin(6, IBV_SEND_SIGNALED, IBV_WR_RDMA_READ, o);
                             s.set_sge_list(2, g_sges);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_ATOMIC_CMP_AND_SWP, 7, IBV_SEND_SIGNALED);
        wr.sg_list = &g_atomic_sge;
        wr.num_sge = 1;
        wr.wr.atomic.remote_addr = 0x222000;
        wr.wr.atomic.rkey = 0xaa;
        wr.wr.atomic.compare_add = 1;
        wr.wr.atomic.swap = 2;
        cases.push_back({"atomic_cmp_swp", wr, [](WrSession& s) {
                             SendOperands o;
                             o.remote_addr = 0x222000;
                             o.rkey = 0xaa;
                             o.compare_add = 1;
                             o.swap = 2;
                             s.begin(7, IBV_SEND_SIGNALED, IBV_WR_ATOMIC_CMP_AND_SWP, o);
                             s.set_sge(g_atomic_sge.lkey, g_atomic_sge.addr, 8);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, 8, 0);
        wr.sg_list = &g_atomic_sge;
        wr.num_sge = 1;
        wr.wr.atomic.remote_addr = 0x333000;
        wr.wr.atomic.rkey = 0xbb;
        wr.wr.atomic.compare_add = 5;
        cases.push_back({"atomic_fetch_add", wr, [](WrSession& s) {
                             SendOperands o;
                             o.remote_addr = 0x333000;
                             o.rkey = 0xbb;
                             o.compare_add = 5;
                             s.begin(8, 0, IBV_WR_ATOMIC_FETCH_AND_ADD, o);
                             s.set_sge(g_atomic_sge.lkey, g_atomic_sge.addr, 8);
                         }});
    }
    {
        ibv_send_wr wr = base_wr(IBV_WR_LOCAL_INV, 9, IBV_SEND_SIGNALED);
        wr.num_sge = 0;
        wr.invalidate_rkey = 0x5678;
        cases.push_back({"local_inv", wr, [](WrSession& s) {
                             SendOperands o;
                             o.imm = 0x5678;
                             s.begin(9, IBV_SEND_SIGNALED, IBV_WR_LOCAL_INV, o);
                         }});
    }
    return cases;
}

int post_rc(const ibv_send_wr& wr, mrc::Slot slot) {
    return mrc::build_send_wqe(wr, kCaps, slot);
}

// Posts a chain with ibv_post_send's builder: what post_send does under its lock.
void post_chain(RingMemory& mem, std::vector<ibv_send_wr>& wrs, bool ud) {
    for (std::size_t i = 0; i + 1 < wrs.size(); ++i) {
        wrs[i].next = &wrs[i + 1];
    }
    ibv_send_wr* bad = nullptr;
    mrc::PostResult r =
        mrc::post_to_ring(mem.ring(), wrs.data(), &bad, [ud](const ibv_send_wr& w, mrc::Slot slot) {
            return ud ? mrc::build_ud_send_wqe(w, kCaps, kAh, slot) : post_rc(w, slot);
        });
    ASSERT_EQ(r.err, 0);
    ASSERT_EQ(r.posted, wrs.size());
}

TEST(WrSessionTest, EachRcOpMakesTheSlotPostSendMakes) {
    for (const Case& c : rc_cases()) {
        RingMemory posted(kSlots, kSlotSize), built(kSlots, kSlotSize);
        scribble(posted);
        scribble(built);
        std::vector<ibv_send_wr> wrs{c.wr};
        post_chain(posted, wrs, false);

        WrSession s;
        s.start(built.ring(), kCaps, false);
        c.calls(s);
        ASSERT_EQ(s.complete(), 0) << c.name;
        EXPECT_EQ(s.published(), 1u) << c.name;
        expect_same_rings(posted, built);
    }
}

TEST(WrSessionTest, AWholeChainMatchesToo) {
    RingMemory posted(kSlots, kSlotSize), built(kSlots, kSlotSize);
    posted.start_at(UINT32_MAX - 2);  // the indices wrap inside the batch
    built.start_at(UINT32_MAX - 2);
    scribble(posted);
    scribble(built);
    std::vector<Case> cases = rc_cases();
    std::vector<ibv_send_wr> wrs;
    for (std::size_t i = 0; i < kSlots - 1 && i < cases.size(); ++i) {
        wrs.push_back(cases[i].wr);
    }
    post_chain(posted, wrs, false);

    WrSession s;
    s.start(built.ring(), kCaps, false);
    for (std::size_t i = 0; i < wrs.size(); ++i) {
        cases[i].calls(s);
    }
    ASSERT_EQ(s.complete(), 0);
    EXPECT_EQ(s.published(), wrs.size());
    expect_same_rings(posted, built);
}

TEST(WrSessionTest, UdSendMatchesPostSend) {
    RingMemory posted(kSlots, kSlotSize), built(kSlots, kSlotSize);
    scribble(posted);
    scribble(built);
    ibv_send_wr wr = base_wr(IBV_WR_SEND_WITH_IMM, 11, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
    wr.sg_list = g_inline_sges;
    wr.imm_data = htonl(0x42);
    wr.wr.ud.remote_qpn = 0xabcdef;
    wr.wr.ud.remote_qkey = 0x11111111;
    std::vector<ibv_send_wr> wrs{wr};
    post_chain(posted, wrs, true);

    WrSession s;
    s.start(built.ring(), kCaps, true);
    SendOperands o;
    o.imm = htonl(0x42);
    s.begin(11, IBV_SEND_SIGNALED, IBV_WR_SEND_WITH_IMM, o);
    s.set_ud_addr(kAh, 0xabcdef, 0x11111111);
    s.set_inline_data_list(2, g_bufs);
    ASSERT_EQ(s.complete(), 0);
    expect_same_rings(posted, built);
}

// A session's first refusal: complete() returns it and publishes nothing,
// not even the requests built before it.
struct Refusal {
    const char* name;
    bool ud;
    std::function<void(WrSession&)> calls;
    int err;
};

TEST(WrSessionTest, RefusalsPublishNothing) {
    std::vector<char> big(kCaps.max_inline + 1, 'x');
    ibv_sge five[5] = {};
    const std::vector<Refusal> refusals = {
        {"too many SGEs", false,
         [&five](WrSession& s) {
             s.begin(1, 0, IBV_WR_SEND, {});
             s.set_sge_list(5, five);
         },
         ENOSPC},
        {"inline beyond max_inline_data", false,
         [&big](WrSession& s) {
             s.begin(1, 0, IBV_WR_SEND, {});
             s.set_inline_data(big.data(), big.size());
         },
         ENOSPC},
        {"atomic without its 8-byte SGE", false,
         [](WrSession& s) { s.begin(1, 0, IBV_WR_ATOMIC_FETCH_AND_ADD, {}); }, EINVAL},
        {"atomic with a 4-byte SGE", false,
         [](WrSession& s) {
             s.begin(1, 0, IBV_WR_ATOMIC_CMP_AND_SWP, {});
             s.set_sge(1, 0x1000, 4);
         },
         EINVAL},
        {"inline READ", false,
         [](WrSession& s) {
             s.begin(1, 0, IBV_WR_RDMA_READ, {});
             s.set_inline_data(g_text, 4);
         },
         EINVAL},
        {"unknown wr_flags bit", false,
         [](WrSession& s) { s.begin(1, IBV_SEND_IP_CSUM, IBV_WR_SEND, {}); }, EINVAL},
        {"BIND_MW without a window", false,
         [](WrSession& s) {
             ibv_mw_bind_info info{};
             s.begin_bind_mw(1, 0, nullptr, 1, &info);
         },
         EINVAL},
        {"BIND_MW of a length without an MR", false,
         [](WrSession& s) {
             ibv_mw mw{};
             ibv_mw_bind_info info{};
             info.length = 1;
             s.begin_bind_mw(1, 0, &mw, 1, &info);
         },
         EINVAL},
        {"UD BIND_MW", true,
         [](WrSession& s) {
             ibv_mw mw{};
             ibv_mw_bind_info info{};
             s.begin_bind_mw(1, 0, &mw, 1, &info);
         },
         EINVAL},
        {"UD without set_ud_addr", true, [](WrSession& s) { s.begin(1, 0, IBV_WR_SEND, {}); },
         EINVAL},
        {"UD with a null AH", true,
         [](WrSession& s) {
             s.begin(1, 0, IBV_WR_SEND, {});
             s.set_ud_addr(0, 1, 1);
         },
         EINVAL},
        {"UD WRITE", true, [](WrSession& s) { s.begin(1, 0, IBV_WR_RDMA_WRITE, {}); }, EINVAL},
    };
    for (const Refusal& r : refusals) {
        RingMemory mem(kSlots, kSlotSize);
        WrSession s;
        s.start(mem.ring(), kCaps, r.ud);
        // A good request first: it must not be published either.
        s.begin(100, 0, IBV_WR_SEND, {});
        if (r.ud) {
            s.set_ud_addr(kAh, 1, 1);
        }
        r.calls(s);
        s.begin(101, 0, IBV_WR_SEND, {});  // ignored after the refusal
        EXPECT_EQ(s.complete(), r.err) << r.name;
        EXPECT_EQ(s.published(), 0u) << r.name;
        EXPECT_EQ(mem.ctrl().prod, 0u) << r.name;
    }
}

TEST(WrSessionTest, ASetterBeforeAnyBuilderIsEinval) {
    RingMemory mem(kSlots, kSlotSize);
    WrSession s;
    s.start(mem.ring(), kCaps, false);
    s.set_sge(1, 0x1000, 8);
    s.begin(1, 0, IBV_WR_SEND, {});
    EXPECT_EQ(s.complete(), EINVAL);
    EXPECT_EQ(mem.ctrl().prod, 0u);
}

TEST(WrSessionTest, AFullQueueIsEnospc) {
    RingMemory mem(kSlots, kSlotSize);
    mem.ctrl().prod = kSlots - 1;  // kSlots - 1 outstanding, one free
    WrSession s;
    s.start(mem.ring(), kCaps, false);
    s.begin(1, 0, IBV_WR_SEND, {});
    EXPECT_EQ(s.complete(), 0);
    EXPECT_EQ(mem.ctrl().prod, kSlots);

    s.start(mem.ring(), kCaps, false);
    s.begin(2, 0, IBV_WR_SEND, {});
    EXPECT_EQ(s.complete(), ENOSPC);
    EXPECT_EQ(mem.ctrl().prod, kSlots);
}

TEST(WrSessionTest, AbortPublishesNothing) {
    RingMemory mem(kSlots, kSlotSize);
    WrSession s;
    s.start(mem.ring(), kCaps, false);
    s.begin(1, 0, IBV_WR_SEND, {});
    s.set_sge_list(1, g_sges);
    s.abort();
    EXPECT_EQ(mem.ctrl().prod, 0u);
    // The next session starts from the same index.
    s.start(mem.ring(), kCaps, false);
    s.begin(2, 0, IBV_WR_SEND, {});
    EXPECT_EQ(s.complete(), 0);
    EXPECT_EQ(mem.ctrl().prod, 1u);
}

TEST(WrSessionTest, TheLastPayloadSetterWins) {
    RingMemory posted(kSlots, kSlotSize), built(kSlots, kSlotSize);
    std::vector<ibv_send_wr> wrs{base_wr(IBV_WR_SEND, 1, 0)};
    wrs[0].num_sge = 1;
    post_chain(posted, wrs, false);
    WrSession s;
    s.start(built.ring(), kCaps, false);
    s.begin(1, 0, IBV_WR_SEND, {});
    s.set_inline_data(g_text, 4);
    s.set_sge(g_sges[0].lkey, g_sges[0].addr, g_sges[0].length);
    ASSERT_EQ(s.complete(), 0);
    mrc_send_wqe a, b;
    std::memcpy(&a, posted.ring().slot(0).data, sizeof(a));
    std::memcpy(&b, built.ring().slot(0).data, sizeof(b));
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0);
}

TEST(SendOpsTest, WhatEachQpTypeOffers) {
    ibv_qp_init_attr_ex attr{};
    attr.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    const struct {
        ibv_qp_type type;
        uint64_t ops;
        int want;
    } rows[] = {
        {IBV_QPT_RC, mrc::kRcSendOps, 0},
        {IBV_QPT_RC, IBV_QP_EX_WITH_BIND_MW, 0},
        {IBV_QPT_UC, IBV_QP_EX_WITH_BIND_MW, EOPNOTSUPP},
        {IBV_QPT_RC, IBV_QP_EX_WITH_ATOMIC_WRITE, EOPNOTSUPP},
        {IBV_QPT_RC, IBV_QP_EX_WITH_TSO, EOPNOTSUPP},
        {IBV_QPT_UC, mrc::kUcSendOps, 0},
        {IBV_QPT_UC, IBV_QP_EX_WITH_RDMA_READ, EOPNOTSUPP},
        {IBV_QPT_UC, IBV_QP_EX_WITH_SEND_WITH_INV, 0},
        {IBV_QPT_UC, IBV_QP_EX_WITH_LOCAL_INV, EOPNOTSUPP},
        {IBV_QPT_UC, IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, EOPNOTSUPP},
        {IBV_QPT_UD, mrc::kUdSendOps, 0},
        {IBV_QPT_UD, IBV_QP_EX_WITH_RDMA_WRITE, EOPNOTSUPP},
        {IBV_QPT_RAW_PACKET, IBV_QP_EX_WITH_SEND, EOPNOTSUPP},
        {IBV_QPT_XRC_SEND, IBV_QP_EX_WITH_SEND, EOPNOTSUPP},
    };
    for (const auto& row : rows) {
        attr.qp_type = row.type;
        attr.send_ops_flags = row.ops;
        EXPECT_EQ(mrc::check_qp_init_attr_ex(attr), row.want) << row.type << " " << row.ops;
    }
}

TEST(SendOpsTest, CreateAttributesBeyondTheSendOps) {
    ibv_qp_init_attr_ex attr{};
    attr.qp_type = IBV_QPT_RC;
    attr.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS;
    EXPECT_EQ(mrc::check_qp_init_attr_ex(attr), 0);
    attr.create_flags = IBV_QP_CREATE_SCATTER_FCS;
    EXPECT_EQ(mrc::check_qp_init_attr_ex(attr), EOPNOTSUPP);
    attr.create_flags = 0;
    for (uint32_t bit : {IBV_QP_INIT_ATTR_XRCD, IBV_QP_INIT_ATTR_MAX_TSO_HEADER,
                         IBV_QP_INIT_ATTR_IND_TABLE, IBV_QP_INIT_ATTR_RX_HASH}) {
        attr.comp_mask = IBV_QP_INIT_ATTR_PD | bit;
        EXPECT_EQ(mrc::check_qp_init_attr_ex(attr), EOPNOTSUPP) << bit;
    }
}

TEST(CqExTest, RxesWcFlagsAreAcceptedOthersAreNot) {
    EXPECT_EQ(mrc::check_cq_wc_flags(0), 0);
    EXPECT_EQ(mrc::check_cq_wc_flags(IBV_WC_STANDARD_FLAGS), 0);
    EXPECT_EQ(
        mrc::check_cq_wc_flags(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
                               IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID |
                               IBV_WC_EX_WITH_SL | IBV_WC_EX_WITH_DLID_PATH_BITS),
        0);
    for (uint64_t flag :
         {uint64_t{IBV_WC_EX_WITH_COMPLETION_TIMESTAMP}, uint64_t{IBV_WC_EX_WITH_CVLAN},
          uint64_t{IBV_WC_EX_WITH_FLOW_TAG}, uint64_t{IBV_WC_EX_WITH_TM_INFO},
          uint64_t{IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK}}) {
        EXPECT_EQ(mrc::check_cq_wc_flags(IBV_WC_EX_WITH_BYTE_LEN | flag), EOPNOTSUPP) << flag;
    }
}

void produce(RingMemory& mem, uint64_t wr_id) {
    mrc_cqe c{};
    c.wr_id = wr_id;
    c.status = IBV_WC_SUCCESS;
    c.byte_len = static_cast<uint32_t>(wr_id * 10);
    uint32_t prod = mem.ctrl().prod;
    std::memcpy(mem.ring().slot(prod).data, &c, sizeof(c));
    mem.ctrl().prod = prod + 1;
}

TEST(PollCursorTest, StartNextEnd) {
    RingMemory mem(4, 64);
    mrc::PollCursor cur;
    EXPECT_EQ(cur.start(mem.ring()), ENOENT);

    produce(mem, 1);
    produce(mem, 2);
    ASSERT_EQ(cur.start(mem.ring()), 0);
    EXPECT_EQ(cur.current().wr_id, 1u);
    EXPECT_EQ(mem.ctrl().cons, 0u);  // nothing handed back before end
    ASSERT_EQ(cur.next(), 0);
    EXPECT_EQ(cur.current().byte_len, 20u);
    produce(mem, 3);  // arrives while polling: next() sees it
    ASSERT_EQ(cur.next(), 0);
    EXPECT_EQ(cur.current().wr_id, 3u);
    EXPECT_EQ(cur.next(), ENOENT);
    cur.end();
    EXPECT_EQ(mem.ctrl().cons, 3u);
}

TEST(PollCursorTest, EndHandsBackOnlyWhatWasRead) {
    RingMemory mem(4, 64);
    produce(mem, 1);
    produce(mem, 2);
    mrc::PollCursor cur;
    ASSERT_EQ(cur.start(mem.ring()), 0);
    cur.end();
    EXPECT_EQ(mem.ctrl().cons, 1u);
    ASSERT_EQ(cur.start(mem.ring()), 0);
    EXPECT_EQ(cur.current().wr_id, 2u);
    cur.end();
    EXPECT_EQ(mem.ctrl().cons, 2u);
}

TEST(PollCursorTest, OverflowAndGoneAfterTheQueuedOnes) {
    RingMemory mem(4, 64);
    produce(mem, 1);
    mem.ctrl().flags = MRC_RING_F_CQ_OVERFLOW;
    mrc::PollCursor cur;
    ASSERT_EQ(cur.start(mem.ring()), 0);
    EXPECT_EQ(cur.next(), EOVERFLOW);
    cur.end();
    EXPECT_EQ(cur.start(mem.ring()), EOVERFLOW);
    mem.ctrl().flags = MRC_RING_F_CQ_GONE;
    EXPECT_EQ(cur.start(mem.ring()), EIO);
    mem.ctrl().flags = 0;
    mem.ctrl().prod = mem.ctrl().cons + 5;  // more than the ring holds
    EXPECT_EQ(cur.start(mem.ring()), EIO);
}

}  // namespace
