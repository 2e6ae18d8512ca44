// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's application API entry points, called as a program would:
// version queries, version negotiation, and the refusal of every bad
// argument, in the form (-1, NULL, an errno value, a negative errno) each
// prototype promises (libmrc_fakes.h says over what).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <unistd.h>

#include "cq_channel.h"
#include "libmrc_fakes.h"
#include "mrc_checks.h"
#include "mrc_ctl.h"
#include "mrc_objects.h"

namespace {

using namespace mrc::lib::test;

TEST(LibmrcApi, QueryVersionReports101) {
    uint32_t cur = 0, last = 1, vendor = 0, last_vendor = 1;
    mrc_query_version(&cur, &last, &vendor, &last_vendor);
    EXPECT_EQ(cur, MRC_API_VER(1, 0, 1));
    EXPECT_EQ(last, MRC_API_VER(0, 0, 0));
    EXPECT_EQ(vendor, MRC_API_VER(1, 0, 0));
    EXPECT_EQ(last_vendor, MRC_API_VER(0, 0, 0));
    mrc_query_version(nullptr, nullptr, nullptr, nullptr);  // each output is optional
    mrc_query_version(nullptr, nullptr, &vendor, nullptr);
    EXPECT_EQ(vendor, MRC_API_VER(1, 0, 0));
}

TEST(LibmrcApi, CtlQueryVersionReports101) {
    uint32_t cur = 0, last = 1, vendor = 0, last_vendor = 1;
    mrc_ctl_query_version(&cur, &last, &vendor, &last_vendor);
    EXPECT_EQ(cur, MRC_CTL_API_VER(1, 0, 1));
    EXPECT_EQ(last, MRC_CTL_API_VER(0, 0, 0));
    EXPECT_EQ(vendor, MRC_CTL_API_VER(1, 0, 0));
    EXPECT_EQ(last_vendor, MRC_CTL_API_VER(0, 0, 0));
    mrc_ctl_query_version(nullptr, nullptr, nullptr, nullptr);
}

TEST(LibmrcApi, QueryDeviceRefusesNulls) {
    ForeignDevice f;
    mrc_device_attr attr{};
    int supported = 0;
    EXPECT_EQ(call([&] { return mrc_query_device(nullptr, &attr, &supported); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_device(&f.ctx, nullptr, &supported); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_device(&f.ctx, &attr, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_device_ex(nullptr, nullptr, &attr, &supported); }), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcApi, QueryDeviceSaysNoOnAnotherDriver) {
    ForeignDevice f;
    mrc_device_attr attr;
    std::memset(&attr, 0xff, sizeof(attr));
    int supported = 1;
    EXPECT_EQ(mrc_query_device(&f.ctx, &attr, &supported), 0);
    EXPECT_EQ(supported, 0);
    EXPECT_EQ(attr.mrc_protocol_version, 0u);
    EXPECT_EQ(attr.wimm_attr.max_wimm, 0);
    supported = 1;
    EXPECT_EQ(mrc_query_device_ex(&f.ctx, nullptr, &attr, &supported), 0);
    EXPECT_EQ(supported, 0);
}

TEST(LibmrcApi, QueryDeviceExRefusesAContextOfAnotherDevice) {
    ForeignDevice f;
    FakeContext other;
    mrc_device_attr attr{};
    int supported = 0;
    EXPECT_EQ(call([&] { return mrc_query_device_ex(&f.ctx, other.ctx, &attr, &supported); }), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcApi, CreateContextNegotiatesBeforeLookingAtTheDevice) {
    ForeignDevice f;
    EXPECT_EQ(call([&] { return mrc_create_context(nullptr, nullptr); }), nullptr);
    EXPECT_EQ(errno, EINVAL);

    mrc_context_attr newer{MRC_API_VER(1, 1, 0), 0};
    EXPECT_EQ(call([&] { return mrc_create_context(&f.ctx, &newer); }), nullptr);
    EXPECT_EQ(errno, ENOTSUP) << "a program newer than the library";
    mrc_context_attr vendor_newer{0, MRC_API_VER(1, 0, 1)};
    EXPECT_EQ(call([&] { return mrc_create_context(&f.ctx, &vendor_newer); }), nullptr);
    EXPECT_EQ(errno, ENOTSUP) << "a vendor API newer than the library's";

    // Acceptable versions get as far as the device, which is not MRC.
    mrc_context_attr v100{MRC_API_VER(1, 0, 0), MRC_API_VER(1, 0, 0)};
    mrc_context_attr latest{MRC_API_VER_LATEST, MRC_API_VER_LATEST};
    mrc_context_attr unset{0, 0};
    for (mrc_context_attr* a : {&v100, &latest, &unset, static_cast<mrc_context_attr*>(nullptr)}) {
        EXPECT_EQ(call([&] { return mrc_create_context(&f.ctx, a); }), nullptr);
        EXPECT_EQ(errno, ENODEV);
    }
}

TEST(LibmrcApi, DestroyContextWaitsForItsObjects) {
    EXPECT_EQ(call([] { return mrc_destroy_context(nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    auto* ctx = new mrc_context;
    ctx->children = 1;
    EXPECT_EQ(call([&] { return mrc_destroy_context(ctx); }), -1);
    EXPECT_EQ(errno, EBUSY);
    ctx->children = 0;
    EXPECT_EQ(mrc_destroy_context(ctx), 0);
}

TEST(LibmrcApi, CompChannelArguments) {
    FakeContext fc;
    mrc_comp_channel* ch = nullptr;
    EXPECT_EQ(call([&] { return mrc_create_comp_channel(nullptr, &ch); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_comp_channel(fc.ctx, nullptr); }), EINVAL);
    EXPECT_EQ(call([] { return mrc_destroy_comp_channel(nullptr); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);

    int fd = 0;
    EXPECT_EQ(call([&] { return mrc_get_comp_channel_fd(nullptr, &fd); }), -1);
    EXPECT_EQ(errno, EINVAL);
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    ibv_comp_channel vch{};
    vch.fd = pipefd[0];
    mrc_comp_channel mch;
    mch.ctx = fc.ctx;
    mch.ch = &vch;
    ASSERT_EQ(mrc::lib::channel_init(mch), 0);
    EXPECT_EQ(call([&] { return mrc_get_comp_channel_fd(&mch, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(mrc_get_comp_channel_fd(&mch, &fd), 0);
    EXPECT_EQ(fd, mch.epfd.get()) << "the epoll fd over verbs' and the EV event CQs'";
    EXPECT_NE(fd, pipefd[0]);
    close(pipefd[0]);
    close(pipefd[1]);
}

TEST(LibmrcApi, CreateCqArguments) {
    FakeContext fc, other;
    ibv_comp_channel vch{};
    mrc_comp_channel foreign;
    foreign.ctx = other.ctx;
    foreign.ch = &vch;
    EXPECT_EQ(call([&] { return mrc_create_cq(nullptr, 16, nullptr, nullptr, 0); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_cq(fc.ctx, 0, nullptr, nullptr, 0); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_cq(fc.ctx, 16, nullptr, nullptr, -1); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_cq(fc.ctx, 16, nullptr, nullptr, 2); }), nullptr);
    EXPECT_EQ(errno, EINVAL) << "only 2 completion vectors";
    EXPECT_EQ(call([&] { return mrc_create_cq(fc.ctx, 16, nullptr, &foreign, 0); }), nullptr);
    EXPECT_EQ(errno, EINVAL) << "a channel of another context";
    EXPECT_EQ(fc.ctx->children.load(), 0u);
}

TEST(LibmrcApi, CqCallsArguments) {
    ibv_wc wc[2];
    mrc_cq cq{};
    EXPECT_EQ(call([&] { return mrc_poll_cq(nullptr, 1, wc); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_poll_cq(&cq, -1, wc); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_poll_cq(&cq, 2, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    cq.ev_event_cq = true;
    EXPECT_EQ(call([&] { return mrc_poll_cq(&cq, 2, wc); }), -1);
    EXPECT_EQ(errno, EINVAL) << "EV event CQs are polled with mrc_ctl_poll_ev_event()";

    EXPECT_EQ(call([] { return mrc_destroy_cq(nullptr); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([] { return mrc_req_notify_cq(nullptr, 0); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);

    ibv_comp_channel vch{};
    mrc_comp_channel ch;
    ch.ctx = nullptr;
    ch.ch = &vch;
    mrc_cq* got = nullptr;
    void* user = nullptr;
    EXPECT_EQ(call([&] { return mrc_get_cq_event(nullptr, &got, &user); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_get_cq_event(&ch, nullptr, &user); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_get_cq_event(&ch, &got, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    mrc_ack_cq_events(nullptr, 3);  // nothing to acknowledge on
    mrc_ack_cq_events(&cq, 0);
}

TEST(LibmrcApi, AsyncEventArguments) {
    FakeContext fc;
    mrc_async_event ev{};
    EXPECT_EQ(call([&] { return mrc_get_async_event(nullptr, &ev); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_get_async_event(fc.ctx, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    mrc_ack_async_event(nullptr);
    ev.event_type = IBV_EVENT_QP_FATAL;  // and no QP: nothing to acknowledge
    mrc_ack_async_event(&ev);
    ev.event_type = IBV_EVENT_CQ_ERR;
    mrc_ack_async_event(&ev);
}

TEST(LibmrcApi, QpHintLifeCycle) {
    FakeContext fc;
    mrc_qp_hint_init_attr init{};
    init.attr.num_qps_per_peer = 2;
    init.attr.num_send_peers = 8;
    init.attr.num_remote_recv_peers = 4;
    init.attr.vendor_cfg[0] = 1;
    mrc_qp_hint* hint = mrc_create_qp_hint(fc.ctx, &init);
    ASSERT_NE(hint, nullptr);
    EXPECT_EQ(fc.ctx->children.load(), 1u);

    mrc_qp_hint_attr got{};
    ASSERT_EQ(mrc_query_qp_hint(hint, &got,
                                MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS |
                                    MRC_QP_HINT_VENDOR_CFG),
              0);
    EXPECT_EQ(got.num_qps_per_peer, 2);
    EXPECT_EQ(got.num_send_peers, 8);
    EXPECT_EQ(got.num_remote_recv_peers, 0) << "not asked for";
    EXPECT_EQ(got.vendor_cfg[0], 1);

    mrc_qp_hint_attr change{};
    change.num_send_peers = 16;
    change.num_qps_per_peer = -5;  // not selected, so not read
    ASSERT_EQ(mrc_modify_qp_hint(hint, &change, MRC_QP_HINT_NUM_SEND_PEERS), 0);
    ASSERT_EQ(
        mrc_query_qp_hint(hint, &got, MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS),
        0);
    EXPECT_EQ(got.num_send_peers, 16);
    EXPECT_EQ(got.num_qps_per_peer, 2);

    EXPECT_EQ(call([&] { return mrc_destroy_context(fc.ctx); }), -1);
    EXPECT_EQ(errno, EBUSY) << "the hint still hangs off the context";
    hint->users = 1;
    EXPECT_EQ(call([&] { return mrc_destroy_qp_hint(hint); }), -1);
    EXPECT_EQ(errno, EBUSY) << "a QP uses the hint";
    hint->users = 0;
    EXPECT_EQ(mrc_destroy_qp_hint(hint), 0);
    EXPECT_EQ(fc.ctx->children.load(), 0u);
}

TEST(LibmrcApi, QpHintArguments) {
    FakeContext fc;
    mrc_qp_hint_init_attr init{};
    EXPECT_EQ(call([&] { return mrc_create_qp_hint(nullptr, &init); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_qp_hint(fc.ctx, nullptr); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    init.attr.num_remote_recv_peers = -1;
    EXPECT_EQ(call([&] { return mrc_create_qp_hint(fc.ctx, &init); }), nullptr);
    EXPECT_EQ(errno, EINVAL);

    init.attr.num_remote_recv_peers = 0;
    std::unique_ptr<mrc_qp_hint, int (*)(mrc_qp_hint*)> hint(mrc_create_qp_hint(fc.ctx, &init),
                                                             mrc_destroy_qp_hint);
    ASSERT_TRUE(hint);
    mrc_qp_hint_attr a{};
    EXPECT_EQ(call([&] { return mrc_query_qp_hint(nullptr, &a, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_qp_hint(hint.get(), nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_qp_hint(hint.get(), &a, 1 << 4); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_modify_qp_hint(nullptr, &a, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_modify_qp_hint(hint.get(), nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    a.num_send_peers = -1;
    EXPECT_EQ(call([&] { return mrc_modify_qp_hint(hint.get(), &a, MRC_QP_HINT_NUM_SEND_PEERS); }),
              -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([] { return mrc_destroy_qp_hint(nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcApi, QpHintsAreLimitedPerContext) {
    FakeContext fc;
    mrc_qp_hint_init_attr init{};
    std::vector<mrc_qp_hint*> hints;
    for (uint32_t i = 0; i < fc.ctx->dev.qp_attr.max_qp_hint; i++) {
        hints.push_back(mrc_create_qp_hint(fc.ctx, &init));
        ASSERT_NE(hints.back(), nullptr) << i;
    }
    EXPECT_EQ(call([&] { return mrc_create_qp_hint(fc.ctx, &init); }), nullptr);
    EXPECT_EQ(errno, ENOMEM);
    ASSERT_EQ(mrc_destroy_qp_hint(hints.back()), 0);
    hints.back() = mrc_create_qp_hint(fc.ctx, &init);
    EXPECT_NE(hints.back(), nullptr) << "a destroyed hint makes room";
    for (mrc_qp_hint* h : hints)
        EXPECT_EQ(mrc_destroy_qp_hint(h), 0);
}

TEST(LibmrcApi, CreateQpArguments) {
    FakeContext fc, other;
    ibv_pd pd{};
    pd.context = &fc.vctx;
    ibv_pd foreign_pd{};
    foreign_pd.context = &other.vctx;
    mrc_cq cq;
    cq.ctx = fc.ctx;
    mrc_cq foreign_cq;
    foreign_cq.ctx = other.ctx;
    mrc_cq ev_cq;
    ev_cq.ctx = fc.ctx;
    ev_cq.ev_event_cq = true;

    auto refused = [&](mrc_qp_init_attr a) {
        errno = 0;
        return mrc_create_qp(fc.ctx, &a) == nullptr && errno == EINVAL;
    };
    mrc_qp_init_attr good{};
    good.send_cq = &cq;
    good.recv_cq = &cq;
    good.pd = &pd;
    EXPECT_EQ(call([&] { return mrc_create_qp(nullptr, &good); }), nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_create_qp(fc.ctx, nullptr); }), nullptr);
    EXPECT_EQ(errno, EINVAL);

    mrc_qp_init_attr a = good;
    a.send_cq = nullptr;
    EXPECT_TRUE(refused(a)) << "no send CQ";
    a = good;
    a.recv_cq = nullptr;
    EXPECT_TRUE(refused(a)) << "no receive CQ";
    a = good;
    a.pd = nullptr;
    EXPECT_TRUE(refused(a)) << "no PD";
    a = good;
    a.recv_cq = &foreign_cq;
    EXPECT_TRUE(refused(a)) << "a CQ of another context";
    a = good;
    a.send_cq = &ev_cq;
    EXPECT_TRUE(refused(a)) << "an EV event CQ";
    a = good;
    a.pd = &foreign_pd;
    EXPECT_TRUE(refused(a)) << "a PD of another device";
    a = good;
    a.protocol_version = static_cast<mrc_protocol_version>(1 << 1);
    EXPECT_TRUE(refused(a)) << "an unknown wire protocol";
    a = good;
    a.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_SEND;
    EXPECT_TRUE(refused(a)) << "SEND among the send ops";
    EXPECT_EQ(fc.ctx->children.load(), 0u);
}

// A QP made by hand, as mrc_create_qp() leaves it, over a verbs QP that
// only holds a number.
struct FakeQp {
    FakeContext fc;
    ibv_qp vqp{};
    mrc_qp qp;
    FakeQp() {
        vqp.qp_num = 0x1234;
        qp.ctx = fc.ctx;
        qp.qp = &vqp;
        qp.init.sq_sig_all = 1;
        qp.attr.timeout = 16;
        qp.attr.mpr.mpr = 8;
    }
};

TEST(LibmrcApi, QpCallsRefuseNulls) {
    FakeQp f;
    uint32_t qpn = 0;
    EXPECT_EQ(call([&] { return mrc_get_qpn(nullptr, &qpn); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_get_qpn(&f.qp, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(mrc_get_qpn(&f.qp, &qpn), 0);
    EXPECT_EQ(qpn, 0x1234u);

    EXPECT_EQ(call([] { return mrc_destroy_qp(nullptr); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);
    ibv_qp_attr v{};
    mrc_qp_attr m{};
    EXPECT_EQ(call([&] { return mrc_modify_qp(nullptr, &v, IBV_QP_STATE, &m, 0); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_qp(nullptr, &v, IBV_QP_STATE, &m, 0, nullptr); }),
              EINVAL);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcApi, QueryQpReturnsTheMrcAttributes) {
    FakeQp f;
    mrc_qp_attr m{};
    mrc_qp_init_attr init{};
    ASSERT_EQ(mrc_query_qp(&f.qp, nullptr, 0, &m, MRC_QP_TIMEOUT | MRC_QP_MPR, &init), 0);
    EXPECT_EQ(m.timeout, 16);
    EXPECT_EQ(m.mpr.mpr, 8);
    EXPECT_EQ(init.sq_sig_all, 1);

    EXPECT_EQ(call([&] { return mrc_query_qp(&f.qp, nullptr, IBV_QP_STATE, &m, 0, nullptr); }),
              EINVAL);
    EXPECT_EQ(errno, EINVAL) << "verbs attributes asked for, nowhere to put them";
    EXPECT_EQ(call([&] { return mrc_query_qp(&f.qp, nullptr, 0, nullptr, MRC_QP_MPR, nullptr); }),
              EINVAL);
    EXPECT_EQ(call([&] { return mrc_query_qp(&f.qp, nullptr, 0, &m, 1 << 12, nullptr); }), EINVAL);
    EXPECT_EQ(errno, EINVAL) << "an unknown MRC attribute";
}

TEST(LibmrcApi, PostSendRefusesAllButWritesBeforePosting) {
    FakeQp f;  // its verbs QP has no context: a post that got through would crash
    ibv_sge sge{};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_send_wr* bad = nullptr;
    for (ibv_wr_opcode op :
         {IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
          IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_SEND_WITH_INV, IBV_WR_LOCAL_INV, IBV_WR_BIND_MW}) {
        wr.opcode = op;
        bad = nullptr;
        EXPECT_EQ(call([&] { return mrc_post_send(&f.qp, &wr, &bad); }), EINVAL) << op;
        EXPECT_EQ(errno, EINVAL);
        EXPECT_EQ(bad, &wr);
    }
    wr.opcode = IBV_WR_RDMA_WRITE;
    EXPECT_EQ(call([&] { return mrc_post_send(nullptr, &wr, &bad); }), EINVAL);
    EXPECT_EQ(call([&] { return mrc_post_send(&f.qp, nullptr, &bad); }), EINVAL);
    EXPECT_EQ(call([&] { return mrc_post_send(&f.qp, &wr, nullptr); }), EINVAL);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcApi, PostRecvRefusesNulls) {
    FakeQp f;
    ibv_recv_wr wr{};
    ibv_recv_wr* bad = nullptr;
    EXPECT_EQ(call([&] { return mrc_post_recv(nullptr, &wr, &bad); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_post_recv(&f.qp, nullptr, &bad); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_post_recv(&f.qp, &wr, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
}

}  // namespace
