// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The profile ids and PSN ranges of mrc_modify_qp()
// (libmrc/src/ctl_qp_bind.h): which transition takes them, how QP_BIND is
// encoded and its reply read, and the order of a move that names them:
// bind or set, the verbs transition, and undoing it when that fails.
#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <array>
#include <cerrno>
#include <string>
#include <vector>

#include "ctl_qp_bind.h"
#include "genl_socket.h"
#include "mrc-genl.h"
#include "mrc_checks.h"
#include "reply_builder.h"

namespace {

namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;
using mrc::genl::test::ReplyBuilder;
using mrc::lib::check_modify;

constexpr mrc::lib::DeviceLimits kLimits{256, 128};
constexpr int kBoth = MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID;

ibv_qp_attr to_state(ibv_qp_state s) {
    ibv_qp_attr a{};
    a.qp_state = s;
    return a;
}

// ---- Which transition takes the ids ----

TEST(LibmrcQpBind, ProfileIdsOnlyOnResetToInit) {
    ibv_qp_attr init = to_state(IBV_QPS_INIT), rtr = to_state(IBV_QPS_RTR);
    ibv_qp_attr rts = to_state(IBV_QPS_RTS);
    mrc_qp_attr m{};
    m.profile.ev_profile_id = 5;
    m.profile.cc_profile_id = 3;
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID, kLimits),
              0);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_CC_PROFILE_ID, kLimits),
              0);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, kBoth | MRC_QP_HINT, kLimits),
              0);
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &init, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID, kLimits),
              EINVAL)
        << "INIT->INIT: the QP is already bound for the move the API names";
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &init, IBV_QP_STATE, &m, MRC_QP_HINT, kLimits), 0)
        << "the hint stays allowed on INIT->INIT";
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_CC_PROFILE_ID, kLimits),
              EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID, kLimits),
              EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, nullptr, 0, &m, MRC_QP_EV_PROFILE_ID, kLimits), EINVAL)
        << "RESET->RESET names no profiles";
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, nullptr, MRC_QP_EV_PROFILE_ID,
                           kLimits),
              EINVAL);
}

TEST(LibmrcQpBind, QueryStillReadsTheIds) {
    int all = mrc::lib::allowed_mrc_mask({IBV_QPS_RESET, IBV_QPS_INIT});
    EXPECT_EQ(all & kBoth, kBoth);
    EXPECT_EQ(mrc::lib::allowed_mrc_mask({IBV_QPS_INIT, IBV_QPS_INIT}) & kBoth, 0);
}

TEST(LibmrcQpBind, IdsComeFromTheMask) {
    mrc_qp_attr m{};
    m.profile.ev_profile_id = 7;
    m.profile.cc_profile_id = 0;
    ctl::ProfileIds ids = ctl::profile_ids(&m, MRC_QP_CC_PROFILE_ID | MRC_QP_TIMEOUT);
    EXPECT_FALSE(ids.ev);
    ASSERT_TRUE(ids.cc);
    EXPECT_EQ(*ids.cc, 0u) << "profile 0, the built-in one, is an id like any";
    ids = ctl::profile_ids(&m, kBoth);
    EXPECT_EQ(ids.ev.value_or(0), 7u);
    EXPECT_TRUE(ids.any());
    EXPECT_FALSE(ctl::profile_ids(&m, MRC_QP_HINT).any());
    EXPECT_FALSE(ctl::profile_ids(nullptr, kBoth).any());
}

// ---- The request and its reply ----

genl::NlMsgPtr new_request() {
    genl::NlMsgPtr msg = genl::GenlSocket::new_request(0x20, MRC_CMD_QP_BIND, MRC_GENL_VERSION, 0);
    EXPECT_TRUE(msg);
    return msg;
}

std::array<nlattr*, MRC_ATTR_MAX + 1> parse(nl_msg* msg) {
    std::array<nlattr*, MRC_ATTR_MAX + 1> tb{};
    EXPECT_EQ(genlmsg_parse(nlmsg_hdr(msg), 0, tb.data(), MRC_ATTR_MAX, nullptr), 0);
    return tb;
}

TEST(LibmrcQpBind, RequestCarriesTheQpnAndOnlyTheIdsNamed) {
    genl::NlMsgPtr msg = new_request();
    ctl::ProfileIds ids;
    ids.ev = 0x1122334455667788ull;
    ASSERT_EQ(ctl::put_qp_bind(msg.get(), 0x123456, ids), 0);
    auto tb = parse(msg.get());
    ASSERT_NE(tb[MRC_ATTR_QPN], nullptr);
    EXPECT_EQ(nla_len(tb[MRC_ATTR_QPN]), 4);
    EXPECT_EQ(nla_get_u32(tb[MRC_ATTR_QPN]), 0x123456u);
    ASSERT_NE(tb[MRC_ATTR_QP_EVPROF], nullptr);
    EXPECT_EQ(nla_len(tb[MRC_ATTR_QP_EVPROF]), 8);
    EXPECT_EQ(nla_get_u64(tb[MRC_ATTR_QP_EVPROF]), 0x1122334455667788ull);
    EXPECT_EQ(tb[MRC_ATTR_QP_CCPROF], nullptr) << "the QP keeps the CC profile it has";
    EXPECT_EQ(tb[MRC_ATTR_PROF_ID], nullptr);

    msg = new_request();
    ids = {};
    ids.cc = 3;
    ASSERT_EQ(ctl::put_qp_bind(msg.get(), 77, ids), 0);
    tb = parse(msg.get());
    EXPECT_EQ(tb[MRC_ATTR_QP_EVPROF], nullptr);
    ASSERT_NE(tb[MRC_ATTR_QP_CCPROF], nullptr);
    EXPECT_EQ(nla_get_u64(tb[MRC_ATTR_QP_CCPROF]), 3u);
}

TEST(LibmrcQpBind, RequestWithoutIdsIsRefused) {
    genl::NlMsgPtr msg = new_request();
    EXPECT_EQ(ctl::put_qp_bind(msg.get(), 77, ctl::ProfileIds{}), EINVAL);
}

ReplyBuilder bind_reply() {
    ReplyBuilder r(MRC_CMD_QP_BIND);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_DEV_INDEX, 2).u32(MRC_ATTR_QPN, 0x4242);
    r.u64(MRC_ATTR_QP_EVPROF, 5).u64(MRC_ATTR_QP_CCPROF, 3);
    r.u8(MRC_ATTR_QP_MPR, 8).u8(MRC_ATTR_QP_MPR_DEST, 2);
    return r;
}

TEST(LibmrcQpBind, ReplyGivesTheIdsNowAndBefore) {
    ReplyBuilder r = bind_reply();
    r.u64(MRC_ATTR_QP_EVPROF_PREV, 0).u64(MRC_ATTR_QP_CCPROF_PREV, 9);
    ctl::QpBinding b;
    ASSERT_EQ(ctl::parse_qp_bind_reply(r.hdr(), b), 0);
    EXPECT_EQ(b.qpn, 0x4242u);
    EXPECT_EQ(b.ev, 5u);
    EXPECT_EQ(b.cc, 3u);
    EXPECT_EQ(b.ev_prev, 0u);
    EXPECT_EQ(b.cc_prev, 9u);
    EXPECT_EQ(b.mpr, 8);
    EXPECT_EQ(b.mpr_dest, 2);
}

TEST(LibmrcQpBind, IncompleteOrMalformedReplyIsEproto) {
    ReplyBuilder missing = bind_reply();
    missing.u64(MRC_ATTR_QP_EVPROF_PREV, 0);
    ctl::QpBinding b;
    b.ev = 99;
    EXPECT_EQ(ctl::parse_qp_bind_reply(missing.hdr(), b), EPROTO);
    EXPECT_EQ(b.ev, 99u) << "a refused reply leaves out alone";

    ReplyBuilder narrow = bind_reply();
    narrow.u32(MRC_ATTR_QP_EVPROF_PREV, 1).u64(MRC_ATTR_QP_CCPROF_PREV, 9);
    EXPECT_EQ(ctl::parse_qp_bind_reply(narrow.hdr(), b), EPROTO);
}

// ---- Bind, transition, bind back ----

// Records the binds asked for; answers each with what the QP had.
struct FakeKernel {
    uint64_t ev = 1, cc = 2;  // the QP's binding
    int refuse = 0;           // errno of every bind, if set
    std::vector<ctl::ProfileIds> asked;

    ctl::BindFn fn() {
        return [this](const ctl::ProfileIds& ids, ctl::QpBinding& out) {
            asked.push_back(ids);
            if (refuse)
                return refuse;
            out.ev_prev = ev;
            out.cc_prev = cc;
            ev = ids.ev.value_or(ev);
            cc = ids.cc.value_or(cc);
            out.ev = ev;
            out.cc = cc;
            return 0;
        };
    }
};

TEST(LibmrcQpBind, BindsBeforeTheTransition) {
    FakeKernel k;
    ctl::ProfileIds ids;
    ids.ev = 5;
    ids.cc = 3;
    bool ran = false;
    EXPECT_EQ(ctl::init_with_profiles(ids, k.fn(),
                                      [&] {
                                          EXPECT_EQ(k.ev, 5u) << "bound before the move";
                                          ran = true;
                                          return 0;
                                      }),
              0);
    EXPECT_TRUE(ran);
    EXPECT_EQ(k.asked.size(), 1u);
    EXPECT_EQ(k.ev, 5u);
    EXPECT_EQ(k.cc, 3u);
}

TEST(LibmrcQpBind, RefusedBindSkipsTheTransition) {
    FakeKernel k;
    k.refuse = EPERM;
    ctl::ProfileIds ids;
    ids.ev = 5;
    bool ran = false;
    EXPECT_EQ(ctl::init_with_profiles(ids, k.fn(),
                                      [&] {
                                          ran = true;
                                          return 0;
                                      }),
              EPERM)
        << "the kernel's errno is the call's";
    EXPECT_FALSE(ran);
    EXPECT_EQ(k.asked.size(), 1u) << "nothing to bind back";
}

TEST(LibmrcQpBind, FailedTransitionBindsBack) {
    FakeKernel k;
    ctl::ProfileIds ids;
    ids.ev = 5;
    ids.cc = 3;
    EXPECT_EQ(ctl::init_with_profiles(ids, k.fn(), [] { return EINVAL; }), EINVAL)
        << "the transition's error is the call's";
    ASSERT_EQ(k.asked.size(), 2u);
    EXPECT_EQ(k.asked[1].ev.value_or(99), 1u);
    EXPECT_EQ(k.asked[1].cc.value_or(99), 2u);
    EXPECT_EQ(k.ev, 1u);
    EXPECT_EQ(k.cc, 2u);
}

TEST(LibmrcQpBind, BindingBackTouchesOnlyWhatWasNamed) {
    FakeKernel k;
    ctl::ProfileIds ids;
    ids.cc = 3;
    EXPECT_EQ(ctl::init_with_profiles(ids, k.fn(), [] { return ENOMEM; }), ENOMEM);
    ASSERT_EQ(k.asked.size(), 2u);
    EXPECT_FALSE(k.asked[1].ev) << "the EV profile was not changed: not sent";
    EXPECT_EQ(k.asked[1].cc.value_or(99), 2u);
}

TEST(LibmrcQpBind, FailedBindBackKeepsTheTransitionsError) {
    FakeKernel k;
    ctl::ProfileIds ids;
    ids.ev = 5;
    int calls = 0;
    ctl::BindFn bind = [&](const ctl::ProfileIds& want, ctl::QpBinding& out) {
        if (calls++ == 0)
            return k.fn()(want, out);
        return EINVAL;  // the old profile went offline meanwhile
    };
    EXPECT_EQ(ctl::init_with_profiles(ids, bind, [] { return EIO; }), EIO);
    EXPECT_EQ(calls, 2);
}

// ---- PSN ranges ----

TEST(LibmrcQpRanges, RangesComeFromTheMask) {
    mrc_qp_attr m{};
    m.mpr.mpr = 3;
    m.mpr.mpr_dest = 5;
    ctl::PsnRanges r = ctl::psn_ranges(&m, MRC_QP_MPR | MRC_QP_TIMEOUT);
    EXPECT_EQ(r.mpr.value_or(0), 3);
    EXPECT_FALSE(r.mpr_dest);
    r = ctl::psn_ranges(&m, MRC_QP_MPR_DEST);
    EXPECT_FALSE(r.mpr);
    EXPECT_EQ(r.mpr_dest.value_or(0), 5);
    EXPECT_FALSE(ctl::psn_ranges(&m, kBoth).any()) << "profile ids are not ranges";
    EXPECT_FALSE(ctl::psn_ranges(nullptr, MRC_QP_MPR).any());
}

TEST(LibmrcQpRanges, RequestCarriesOnlyTheRangesNamed) {
    genl::NlMsgPtr msg = new_request();
    ctl::PsnRanges r;
    r.mpr_dest = 1;
    ASSERT_EQ(ctl::put_qp_ranges(msg.get(), 0x4242, r), 0);
    auto tb = parse(msg.get());
    ASSERT_NE(tb[MRC_ATTR_QPN], nullptr);
    EXPECT_EQ(nla_get_u32(tb[MRC_ATTR_QPN]), 0x4242u);
    ASSERT_NE(tb[MRC_ATTR_QP_MPR_DEST], nullptr);
    EXPECT_EQ(nla_len(tb[MRC_ATTR_QP_MPR_DEST]), 1);
    EXPECT_EQ(nla_get_u8(tb[MRC_ATTR_QP_MPR_DEST]), 1);
    EXPECT_EQ(tb[MRC_ATTR_QP_MPR], nullptr);
    EXPECT_EQ(tb[MRC_ATTR_QP_EVPROF], nullptr) << "no profile is rebound with a range";
    EXPECT_EQ(tb[MRC_ATTR_QP_CCPROF], nullptr);

    msg = new_request();
    EXPECT_EQ(ctl::put_qp_ranges(msg.get(), 77, ctl::PsnRanges{}), EINVAL);
}

TEST(LibmrcQpRanges, ReplyWithoutRangesIsEproto) {
    ReplyBuilder r(MRC_CMD_QP_BIND);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_DEV_INDEX, 2).u32(MRC_ATTR_QPN, 0x4242);
    r.u64(MRC_ATTR_QP_EVPROF, 5).u64(MRC_ATTR_QP_CCPROF, 3);
    r.u64(MRC_ATTR_QP_EVPROF_PREV, 5).u64(MRC_ATTR_QP_CCPROF_PREV, 3);
    ctl::QpBinding b;
    EXPECT_EQ(ctl::parse_qp_bind_reply(r.hdr(), b), EPROTO)
        << "a driver that ignores ranges must not look as if it took them";
}

// Records the ranges set; refuses with set_errno from the call numbered
// refuse_from on.
struct FakeRanges {
    std::vector<ctl::PsnRanges> asked;
    int refuse_from = -1;
    int set_errno = 0;

    ctl::RangesFn fn() {
        return [this](const ctl::PsnRanges& r) {
            asked.push_back(r);
            int n = static_cast<int>(asked.size()) - 1;
            return refuse_from >= 0 && n >= refuse_from ? set_errno : 0;
        };
    }
};

TEST(LibmrcQpRanges, SetBeforeTheTransition) {
    FakeRanges k;
    ctl::PsnRanges r, was;
    r.mpr = 1;
    was.mpr = 8;
    was.mpr_dest = 8;
    bool ran = false;
    EXPECT_EQ(ctl::move_with_ranges(r, was, k.fn(),
                                    [&] {
                                        EXPECT_EQ(k.asked.size(), 1u) << "set before the move";
                                        ran = true;
                                        return 0;
                                    }),
              0);
    EXPECT_TRUE(ran);
    ASSERT_EQ(k.asked.size(), 1u);
    EXPECT_EQ(k.asked[0].mpr.value_or(0), 1);
}

TEST(LibmrcQpRanges, RefusedSetSkipsTheTransition) {
    FakeRanges k;
    k.refuse_from = 0;
    k.set_errno = EBUSY;
    ctl::PsnRanges r, was;
    r.mpr_dest = 2;
    bool ran = false;
    EXPECT_EQ(ctl::move_with_ranges(r, was, k.fn(),
                                    [&] {
                                        ran = true;
                                        return 0;
                                    }),
              EBUSY);
    EXPECT_FALSE(ran);
    EXPECT_EQ(k.asked.size(), 1u);
}

TEST(LibmrcQpRanges, FailedTransitionSetsBackOnlyWhatWasNamed) {
    FakeRanges k;
    ctl::PsnRanges r, was;
    r.mpr_dest = 2;
    was.mpr = 8;
    was.mpr_dest = 6;
    EXPECT_EQ(ctl::move_with_ranges(r, was, k.fn(), [] { return EINVAL; }), EINVAL);
    ASSERT_EQ(k.asked.size(), 2u);
    EXPECT_EQ(k.asked[1].mpr_dest.value_or(0), 6);
    EXPECT_FALSE(k.asked[1].mpr) << "the requester's range was not changed: not sent";
}

}  // namespace
