// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// WIMM credits on their own (libmrc/src/wimm_credits.h): what
// mrc_post_send() admits against max_wimm, and what the completions
// mrc_poll_cq() returns give back.
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "wimm_credits.h"

namespace {

using mrc::lib::WimmCredits;

// A chain of requests: 'I' a WRITE with immediate, 'W' a plain WRITE;
// lower case unsignaled.
struct Chain {
    explicit Chain(const char* ops) {
        for (const char* p = ops; *p; p++) {
            ibv_send_wr wr{};
            wr.opcode = (*p == 'I' || *p == 'i') ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
            wr.send_flags = (*p == 'I' || *p == 'W') ? IBV_SEND_SIGNALED : 0;
            wrs.push_back(wr);
        }
        for (size_t i = 0; i + 1 < wrs.size(); i++)
            wrs[i].next = &wrs[i + 1];
    }
    ibv_send_wr* head() { return wrs.data(); }
    ibv_send_wr* at(size_t i) { return &wrs[i]; }
    std::vector<ibv_send_wr> wrs;
};

ibv_wc sent(ibv_wc_status status = IBV_WC_SUCCESS) {
    ibv_wc wc{};
    wc.status = status;
    wc.opcode = IBV_WC_RDMA_WRITE;
    return wc;
}

// Admits and records the whole chain; the errno admit() gave.
int post(WimmCredits& c, Chain& chain, bool sig_all = false) {
    ibv_send_wr* bad = nullptr;
    int ret = c.admit(chain.head(), sig_all, &bad);
    if (!ret)
        c.record(chain.head(), nullptr, sig_all);
    return ret;
}

WimmCredits credits(uint16_t limit, uint32_t sq = 64, uint32_t cq = 64) {
    WimmCredits c;
    EXPECT_TRUE(c.init(sq, cq));
    c.set_limit(limit);
    return c;
}

TEST(LibmrcWimm, UpToTheLimitThenRefusedNamingTheFirstBeyond) {
    WimmCredits c = credits(3);
    Chain two("II");
    EXPECT_EQ(post(c, two), 0);
    EXPECT_EQ(c.in_flight(), 2u);
    Chain more("WIWI");
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(c.admit(more.head(), false, &bad), ENOMEM);
    EXPECT_EQ(bad, more.at(3)) << "the second WRITE with immediate is the fourth in flight";
    EXPECT_EQ(c.in_flight(), 2u) << "a refused chain takes nothing";
    Chain one("WI");
    EXPECT_EQ(post(c, one), 0);
    EXPECT_EQ(c.in_flight(), 3u);
}

TEST(LibmrcWimm, PlainWritesNeedNoCredit) {
    WimmCredits c = credits(1);
    Chain chain("IWwWw");
    EXPECT_EQ(post(c, chain), 0);
    EXPECT_EQ(c.in_flight(), 1u);
}

TEST(LibmrcWimm, ACompletionReturnsTheCreditsOfWhatPrecededIt) {
    WimmCredits c = credits(4);
    Chain chain("iiIi");
    ASSERT_EQ(post(c, chain), 0);
    EXPECT_EQ(c.in_flight(), 4u);
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 1u) << "the unsignaled one after the signaled one is still out";
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 1u) << "no signaled request left: a stray completion changes nothing";
    Chain next("W");
    ASSERT_EQ(post(c, next), 0);
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 0u)
        << "a signaled plain WRITE retires the WRITE with immediate before it";
}

TEST(LibmrcWimm, UnsignaledWritesWithImmediateStayOutUntilASignaledOneCompletes) {
    WimmCredits c = credits(2);
    Chain chain("ii");
    ASSERT_EQ(post(c, chain), 0);
    c.complete(sent());  // not ours to retire: no mark
    Chain third("i");
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(c.admit(third.head(), false, &bad), ENOMEM);
    EXPECT_EQ(bad, third.head());
}

TEST(LibmrcWimm, SignalAllMakesEveryRequestSignaled) {
    WimmCredits c = credits(2);
    Chain chain("ii");
    ASSERT_EQ(post(c, chain, true), 0);
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 1u);
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 0u);
}

TEST(LibmrcWimm, ReceiveCompletionsReturnNothing) {
    WimmCredits c = credits(2);
    Chain chain("I");
    ASSERT_EQ(post(c, chain), 0);
    ibv_wc recv{};
    recv.status = IBV_WC_SUCCESS;
    recv.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
    c.complete(recv);
    EXPECT_EQ(c.in_flight(), 1u);
}

TEST(LibmrcWimm, AnErrorEndsTheTrafficAndReturnsEveryCredit) {
    WimmCredits c = credits(2);
    Chain chain("iI");
    ASSERT_EQ(post(c, chain), 0);
    c.complete(sent(IBV_WC_WR_FLUSH_ERR));
    EXPECT_EQ(c.in_flight(), 0u);
    c.complete(sent());  // the mark went with the error
    EXPECT_EQ(c.in_flight(), 0u);
}

TEST(LibmrcWimm, ClearAfterResetAndANewLimit) {
    WimmCredits c = credits(2);
    Chain chain("II");
    ASSERT_EQ(post(c, chain), 0);
    c.clear();
    EXPECT_EQ(c.in_flight(), 0u);
    c.set_limit(1);
    Chain two("II");
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(c.admit(two.head(), false, &bad), ENOMEM);
    EXPECT_EQ(bad, two.at(1));
    c.set_limit(0);
    EXPECT_EQ(c.admit(two.head(), false, &bad), ENOMEM) << "max_wimm 0: no WRITE with immediate";
    EXPECT_EQ(bad, two.at(0));
    Chain plain("W");
    EXPECT_EQ(post(c, plain), 0);
}

TEST(LibmrcWimm, OnlyWhatIbvPostSendTookIsRecorded) {
    WimmCredits c = credits(8);
    Chain chain("IIII");
    ibv_send_wr* bad = nullptr;
    ASSERT_EQ(c.admit(chain.head(), false, &bad), 0);
    c.record(chain.head(), chain.at(2), false);  // the provider refused the third
    EXPECT_EQ(c.in_flight(), 2u);
    c.complete(sent());
    c.complete(sent());
    EXPECT_EQ(c.in_flight(), 0u);
}

TEST(LibmrcWimm, MoreSignaledRequestsThanTheQueuesHoldAreRefused) {
    // One send slot, one CQE: three marks may be pending (SQ + CQ + 1);
    // more means the program lets its CQ overflow.
    WimmCredits c = credits(0xffff, 1, 1);
    Chain three("WWW");
    ASSERT_EQ(post(c, three), 0);
    Chain one("W");
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(c.admit(one.head(), false, &bad), ENOMEM);
    Chain unsignaled("w");
    EXPECT_EQ(c.admit(unsignaled.head(), false, &bad), 0) << "unsignaled requests need no mark";
    c.complete(sent());
    EXPECT_EQ(c.admit(one.head(), false, &bad), 0);
}

}  // namespace
