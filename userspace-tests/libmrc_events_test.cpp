// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// EV event CQs without a kernel: the kernel's events turned into OCP
// ones, and completion channels that signal an armed EV event CQ (its
// socket stood in for by a pipe) the way verbs signals an armed CQ.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "cq_channel.h"
#include "ctl_events.h"
#include "libmrc_fakes.h"
#include "mrc-genl.h"
#include "mrc_ctl.h"

namespace {

using namespace mrc::lib::test;
using mrc::genl::EvEntry;
using mrc::genl::EvEvent;
namespace ctl = mrc::lib::ctl;

EvEvent loss_event(const char* dev, uint64_t prof, uint32_t idx) {
    EvEvent e;
    e.dev = dev;
    e.qpn = 0x11;
    e.prof_id = prof;
    e.ev.index = idx;
    e.ev.state = MRC_GENL_EV_ASSUMED_BAD;
    e.ev.sport = 0xc001;
    e.old_state = MRC_GENL_EV_GOOD;
    e.reason = MRC_EV_REASON_LOSS_SACK;
    return e;
}

EvEntry profile_ev(uint32_t idx, uint8_t first_byte) {
    EvEntry k;
    k.index = idx;
    k.value = {first_byte, 0, 0, 7};
    k.port = 1;
    return k;
}

TEST(LibmrcEvents, StatesAreOcpBits) {
    EXPECT_EQ(ctl::ocp_ev_state(MRC_GENL_EV_GOOD), MRC_CTL_EV_GOOD);
    EXPECT_EQ(ctl::ocp_ev_state(MRC_GENL_EV_ASSUMED_BAD), MRC_CTL_EV_ASSUMED_BAD);
    EXPECT_EQ(ctl::ocp_ev_state(MRC_GENL_EV_DENIED), MRC_CTL_EV_DENIED);
    EXPECT_EQ(ctl::ocp_ev_state(MRC_GENL_EV_UNKNOWN), MRC_CTL_EV_UNKNOWN);
    EXPECT_EQ(ctl::ocp_ev_state(200), MRC_CTL_EV_UNKNOWN);
}

TEST(LibmrcEvents, OnlyTheDevicesEngineEvents) {
    EvEvent e = loss_event("mrc0", 5, 3);
    EXPECT_TRUE(ctl::delivers(e, "mrc0"));
    EXPECT_FALSE(ctl::delivers(e, "mrc1")) << "another device's";
    e.reason = MRC_EV_REASON_ADMIN_DENY;
    EXPECT_FALSE(ctl::delivers(e, "mrc0")) << "the controller's own DENY";
    e.reason = MRC_EV_REASON_ADMIN_UNDENY;
    EXPECT_FALSE(ctl::delivers(e, "mrc0"));
    e.reason = MRC_EV_REASON_PROBE_OK;
    EXPECT_TRUE(ctl::delivers(e, "mrc0"));
    e.prof_id.reset();
    EXPECT_FALSE(ctl::delivers(e, "mrc0")) << "malformed: no profile";
}

TEST(LibmrcEvents, ValueFromTheProfilesEvAtTheIndex) {
    std::vector<EvEntry> evs = {profile_ev(0, 0xa0), profile_ev(1, 0xa1), profile_ev(2, 0xa2)};
    mrc_ctl_ev_event out = ctl::to_ocp_event(loss_event("mrc0", 5, 2), &evs, 3);
    EXPECT_EQ(out.profile_id, 5u);
    EXPECT_EQ(out.ev.val[0], 0xa2);
    EXPECT_EQ(out.ev.val[3], 7);
    EXPECT_EQ(out.ev.val[4], 0);
    EXPECT_EQ(out.ev.port, 1);
    EXPECT_EQ(out.drop_count, 3u);
    EXPECT_EQ(out.state, MRC_CTL_EV_ASSUMED_BAD);

    out = ctl::to_ocp_event(loss_event("mrc0", 5, 9), &evs, 0);
    EXPECT_EQ(out.ev.val[0], 0) << "no EV at that index any more: no value";
    EXPECT_EQ(out.ev.port, 1);
    out = ctl::to_ocp_event(loss_event("mrc0", 5, 1), nullptr, 0);
    EXPECT_EQ(out.ev.val[0], 0) << "the profile could not be read";
    EXPECT_EQ(out.state, MRC_CTL_EV_ASSUMED_BAD);

    EvEvent named = loss_event("mrc0", 5, 1);
    named.ev.value = {0xee, 0xee};
    out = ctl::to_ocp_event(named, &evs, 0);
    EXPECT_EQ(out.ev.val[0], 0xee) << "a value the kernel sends wins";
}

// A completion channel over a pipe standing in for the verbs channel's fd.
struct PipeChannel {
    int verbs[2] = {-1, -1};
    ibv_comp_channel vch{};
    mrc_comp_channel ch;
    explicit PipeChannel(mrc_context* ctx) {
        EXPECT_EQ(pipe(verbs), 0);
        vch.fd = verbs[0];
        ch.ctx = ctx;
        ch.ch = &vch;
        EXPECT_EQ(mrc::lib::channel_init(ch), 0);
        int fl = fcntl(ch.epfd.get(), F_GETFL);
        fcntl(ch.epfd.get(), F_SETFL, fl | O_NONBLOCK);
    }
    ~PipeChannel() {
        close(verbs[0]);
        close(verbs[1]);
    }
};

TEST(LibmrcEvents, ArmedEvCqSignalsOncePerArm) {
    FakeContext fc;
    PipeChannel pc(fc.ctx);
    int sock[2];
    ASSERT_EQ(pipe(sock), 0);
    int cookie = 0;
    auto* cq = new mrc_cq;
    cq->ctx = fc.ctx;
    cq->user_context = &cookie;
    cq->ev_event_cq = true;
    cq->ev.reset(new mrc::lib::EvCq);
    ASSERT_EQ(mrc::lib::channel_attach(pc.ch, *cq, sock[0]), 0);
    fc.ctx->children = 2;  // the channel and the CQ

    mrc_cq* got = nullptr;
    void* got_ctx = nullptr;
    EXPECT_EQ(call([&] { return mrc_get_cq_event(&pc.ch, &got, &got_ctx); }), -1);
    EXPECT_EQ(errno, EAGAIN) << "nothing queued, nothing armed";
    ASSERT_EQ(write(sock[1], "e", 1), 1);
    EXPECT_EQ(call([&] { return mrc_get_cq_event(&pc.ch, &got, &got_ctx); }), -1);
    EXPECT_EQ(errno, EAGAIN) << "an event queued on a CQ not armed";

    EXPECT_EQ(mrc::lib::ev_cq_arm(*cq, sock[0]), 0);
    ASSERT_EQ(mrc_get_cq_event(&pc.ch, &got, &got_ctx), 0) << "armed with an event queued";
    EXPECT_EQ(got, cq);
    EXPECT_EQ(got_ctx, &cookie);
    EXPECT_EQ(call([&] { return mrc_get_cq_event(&pc.ch, &got, &got_ctx); }), -1);
    EXPECT_EQ(errno, EAGAIN) << "once per arm, though the event is still queued";

    EXPECT_EQ(mrc::lib::ev_cq_arm(*cq, sock[0]), 0);
    EXPECT_EQ(mrc_get_cq_event(&pc.ch, &got, &got_ctx), 0);
    EXPECT_EQ(call([] { return mrc_destroy_comp_channel(nullptr); }), EINVAL);
    EXPECT_EQ(mrc_destroy_comp_channel(&pc.ch), EBUSY) << "an EV event CQ signals on it";

    mrc_ack_cq_events(cq, 2);
    EXPECT_EQ(cq->ev->acked, cq->ev->delivered);
    EXPECT_EQ(mrc_destroy_cq(cq), 0) << "every event acknowledged: does not wait";
    EXPECT_TRUE(pc.ch.ev_cqs.empty());
    EXPECT_EQ(fc.ctx->children.load(), 1u);
    close(sock[0]);
    close(sock[1]);
}

TEST(LibmrcEvents, NotifyWithoutChannelDoesNothing) {
    FakeContext fc;
    mrc_cq cq;
    cq.ctx = fc.ctx;
    cq.ev_event_cq = true;
    EXPECT_EQ(mrc_req_notify_cq(&cq, 0), EINVAL) << "not made by mrc_ctl_create_ev_event_cq()";
    cq.ev.reset(new mrc::lib::EvCq);
    EXPECT_EQ(mrc_req_notify_cq(&cq, 1), 0);
    mrc_ack_cq_events(&cq, 1);  // nothing to acknowledge, nothing breaks
}

TEST(LibmrcEvents, PollNeedsRoomOrNothing) {
    FakeContext fc;
    mrc_cq cq;
    cq.ctx = fc.ctx;
    cq.ev_event_cq = true;
    cq.ev.reset(new mrc::lib::EvCq);
    // A source never opened: nothing to read, never an error.
    EXPECT_EQ(mrc_ctl_poll_ev_event(&cq, 0, nullptr), 0);
}

}  // namespace
