// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's controller API entry points, called as a controller would with
// bad arguments (refused with EINVAL before any netlink traffic) and good
// ones. This machine runs no mrc.ko with a device "mrc-unit-test", so a
// good call reaches the kernel and fails there: without the family with
// ENOENT, with it with ENODEV. That it fails so, and not with EINVAL or
// ENOSYS, is what says the arguments passed.
#include <gtest/gtest.h>

#include <cerrno>

#include "libmrc_fakes.h"
#include "mrc_ctl.h"

namespace {

using namespace mrc::lib::test;

// errno after a call that passed its checks and asked the kernel.
bool asked_kernel() {
    return errno == ENOENT || errno == ENODEV;
}

TEST(LibmrcCtl, QueryDevice) {
    ForeignDevice f;
    FakeContext fc;
    mrc_ctl_device_attr attr;
    int supported = 7;
    EXPECT_EQ(call([&] { return mrc_ctl_query_device(nullptr, &attr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_device(&f.ctx, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_device_ex(&f.ctx, nullptr, &attr, nullptr); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_device_ex(&f.ctx, fc.ctx, &attr, &supported); }), -1);
    EXPECT_EQ(errno, EINVAL) << "context of another device";

    EXPECT_EQ(call([&] { return mrc_ctl_query_device(&fc.vctx, &attr); }), -1);
    EXPECT_TRUE(asked_kernel()) << errno;
    EXPECT_EQ(call([&] { return mrc_ctl_query_device_ex(&fc.vctx, fc.ctx, &attr, &supported); }),
              -1);
    EXPECT_TRUE(asked_kernel()) << errno;
    EXPECT_EQ(supported, 7) << "left alone on failure";
}

// Another verbs device is no MRC device: control protocol 0, nothing else.
TEST(LibmrcCtl, QueryForeignDevice) {
    ForeignDevice f;
    mrc_ctl_device_attr attr;
    std::memset(&attr, 0xa5, sizeof(attr));
    int supported = 7;
    ASSERT_EQ(mrc_ctl_query_device_ex(&f.ctx, nullptr, &attr, &supported), 0);
    EXPECT_EQ(supported, 0);
    EXPECT_EQ(attr.mrc_ctl_protocol_version, uint32_t{MRC_CTL_PROTOCOL_VERSION_0});
    EXPECT_EQ(attr.cc.algorithms, nullptr);
    EXPECT_EQ(attr.phy_port_mask, 0u);
    std::memset(&attr, 0xa5, sizeof(attr));
    ASSERT_EQ(mrc_ctl_query_device(&f.ctx, &attr), 0);
    EXPECT_EQ(attr.ev.ev_max_profiles, 0u);
    EXPECT_EQ(attr.opt_attr, 0u);
}

TEST(LibmrcCtl, Ports) {
    FakeContext fc;
    mrc_ctl_port_attr port{};
    EXPECT_EQ(call([&] { return mrc_ctl_query_port(fc.ctx, 0, &port, MRC_CTL_PORT_ADMIN_STATE); }),
              -1);
    EXPECT_EQ(errno, EINVAL) << "ports are 1-based";
    EXPECT_EQ(call([&] { return mrc_ctl_query_port(fc.ctx, 2, &port, MRC_CTL_PORT_ADMIN_STATE); }),
              -1);
    EXPECT_EQ(errno, EINVAL) << "an MRC device has one port";
    EXPECT_EQ(call([&] { return mrc_ctl_query_port(fc.ctx, 1, &port, 1 << 1); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_port(fc.ctx, 1, nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_port(fc.ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE); }),
              -1);
    EXPECT_TRUE(asked_kernel()) << errno;

    port.port_admin_state = static_cast<mrc_ctl_port_admin_state>(2);
    EXPECT_EQ(call([&] { return mrc_ctl_modify_port(fc.ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE); }),
              -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_modify_port(fc.ctx, 1, &port, 0); }), 0)
        << "nothing to change: no state is read";
    port.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
    EXPECT_EQ(call([&] { return mrc_ctl_modify_port(nullptr, 1, &port, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_modify_port(fc.ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE); }),
              -1);
    EXPECT_TRUE(asked_kernel()) << errno;
}

// An EV on the device's port 1 whose first value byte is b.
mrc_ctl_ev ev_on_port(uint8_t b) {
    mrc_ctl_ev ev{};
    ev.val[0] = b;
    ev.port = 1;
    return ev;
}

TEST(LibmrcCtl, EvProfiles) {
    FakeContext fc;
    mrc_ctl_ev_field fields[2] = {{16, 0, 1, 4, 0xff}, {8, 7, 0, 0, 0}};
    mrc_ctl_ev_op_entry entries[2] = {};
    mrc_ctl_ev_profile_attr ev{};
    ev.profile_state = MRC_CTL_PROFILE_OFFLINE;
    ev.ev_mode = MRC_CTL_EV_MODE_GEN;
    ev.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
    ev.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, fields, 2};
    auto modify = [&](int mask) {
        return call([&] { return mrc_ctl_modify_ev_profile(fc.ctx, 1, &ev, mask); });
    };
    auto query = [&](int mask) {
        return call([&] { return mrc_ctl_query_ev_profile(fc.ctx, 1, &ev, mask); });
    };
    const int both = MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
    EXPECT_EQ(modify(both), -1);
    EXPECT_EQ(errno, EINVAL) << "EV and EV field operations exclude each other";
    EXPECT_EQ(query(both), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_modify_ev_profile(nullptr, 1, &ev, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_ev_profile(fc.ctx, 1, nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_CUR_STATE), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(1 << 9), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(0), 0) << "nothing to change";

    ev.ev_mode = static_cast<mrc_ctl_ev_mode>(MRC_CTL_EV_MODE_EXP | MRC_CTL_EV_MODE_GEN);
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_MODE), -1);
    EXPECT_EQ(errno, EINVAL) << "one mode";
    ev.ev_mode = MRC_CTL_EV_MODE_GEN;
    ev.ev_event_mask = MRC_CTL_EV_DENIED;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EVENT_MASK), -1);
    EXPECT_EQ(errno, EINVAL) << "only GOOD and ASSUMED_BAD raise events";
    ev.ev_event_mask = MRC_CTL_EV_GOOD;
    ev.ev_fields_op.field_count = 17;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_FIELDS_OP), -1);
    EXPECT_EQ(errno, EINVAL);
    ev.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, fields, 2};
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_FIELDS_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "a query in a modify";
    EXPECT_EQ(query(MRC_CTL_EV_PROFILE_EV_FIELDS_OP), -1);
    EXPECT_TRUE(asked_kernel()) << errno;
    ev.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, fields, 2};
    const int config = MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_MODE |
                       MRC_CTL_EV_PROFILE_FMT_ID | MRC_CTL_EV_PROFILE_COUNT |
                       MRC_CTL_EV_PROFILE_MIN_ACTIVE | MRC_CTL_EV_PROFILE_EVENT_MASK |
                       MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
    EXPECT_EQ(modify(config), -1);
    EXPECT_TRUE(asked_kernel()) << errno;

    // EV operations: each entry must name EVs of port 1.
    ev.ev_op = {MRC_CTL_EV_OP_REPLACE_EV, entries, 2};
    entries[0].ev_new = ev_on_port(1);
    entries[1].ev_new = ev_on_port(2);
    entries[1].ev_new.port = 2;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "no port 2";
    entries[1].ev_new = MRC_CTL_EV_UNPOPULATED;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "unpopulated into unpopulated";
    entries[1].ev_new = ev_on_port(2);
    entries[1].flags = 2;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "unknown flag";
    entries[1].flags = MRC_CTL_EV_OP_F_ALL_COPIES;
    ev.ev_op.entries = nullptr;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL);
    ev.ev_op.entries = entries;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_TRUE(asked_kernel()) << errno;

    ev.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
    entries[0] = {ev_on_port(1), {}, MRC_CTL_EV_ASSUMED_BAD, 0};
    entries[1] = {ev_on_port(2), {}, MRC_CTL_EV_DENIED, 0};
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "only DENIED, or GOOD to lift it, is set";
    entries[0].state = MRC_CTL_EV_GOOD;
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_TRUE(asked_kernel()) << errno;
    EXPECT_EQ(query(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "a modify in a query";

    ev.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_STATE;
    entries[1].ev.port = 0;
    EXPECT_EQ(query(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "a query in a modify";
    ev.ev_op = {MRC_CTL_EV_OP_QUERY_EV_ARRAY, nullptr, 0};
    EXPECT_EQ(query(MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_CUR_STATE), -1)
        << "asks how many EVs there are";
    EXPECT_TRUE(asked_kernel()) << errno;
    ev.ev_op.op = static_cast<mrc_ctl_ev_op>(4);
    EXPECT_EQ(query(MRC_CTL_EV_PROFILE_EV_OP), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST(LibmrcCtl, CcProfiles) {
    FakeContext fc;
    mrc_ctl_cc_nscc_cfg nscc{};
    mrc_ctl_cc_profile_attr cc{};
    cc.algorithm = "uet-1.0-nscc";
    cc.cc_config = &nscc;
    auto modify = [&](int mask) {
        return call([&] { return mrc_ctl_modify_cc_profile(fc.ctx, 1, &cc, mask); });
    };
    auto query = [&](int mask) {
        return call([&] { return mrc_ctl_query_cc_profile(fc.ctx, 1, &cc, mask); });
    };
    EXPECT_EQ(call([&] { return mrc_ctl_modify_cc_profile(fc.ctx, 1, nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_cc_profile(nullptr, 1, &cc, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(1 << 4), -1);
    EXPECT_EQ(errno, EINVAL) << "unknown mask bit";
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_CUR_STATE), -1);
    EXPECT_EQ(errno, EINVAL) << "the current state is not set";
    cc.profile_state = static_cast<mrc_ctl_profile_state>(3);
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_STATE), -1);
    EXPECT_EQ(errno, EINVAL);
    cc.profile_state = MRC_CTL_PROFILE_ONLINE;
    cc.vendor_cfg[5] = 1;
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_VENDOR_CFG), -1);
    EXPECT_EQ(errno, EINVAL) << "no vendor configuration is defined";
    cc.vendor_cfg[5] = 0;
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_VENDOR_CFG), 0) << "nothing the kernel keeps";
    cc.algorithm = nullptr;
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_ALGORITHM), -1);
    EXPECT_EQ(errno, EOPNOTSUPP) << "congestion control cannot be turned off";
    cc.algorithm = "an-algorithm-name-of-32-bytes-xx";
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_ALGORITHM), -1);
    EXPECT_EQ(errno, EINVAL);
    cc.algorithm = "mrc-window";
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG), -1);
    EXPECT_EQ(errno, EINVAL) << "no OCP configuration structure for it";
    cc.algorithm = "uet-1.0-nscc";
    cc.cc_config = nullptr;
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG), -1);
    EXPECT_EQ(errno, EINVAL);
    cc.cc_config = &nscc;
    nscc.gamma = -0.5f;
    EXPECT_EQ(modify(MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG), -1);
    EXPECT_EQ(errno, EINVAL) << "no fixed-point value";
    nscc.gamma = 0.8f;
    EXPECT_EQ(
        modify(MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG | MRC_CTL_CC_PROFILE_STATE),
        -1);
    EXPECT_TRUE(asked_kernel()) << errno;

    EXPECT_EQ(query(1 << 4), -1);
    EXPECT_EQ(errno, EINVAL);
    cc.cc_config = nullptr;
    EXPECT_EQ(query(MRC_CTL_CC_PROFILE_CONFIG), -1);
    EXPECT_EQ(errno, EINVAL) << "nowhere to put the configuration";
    EXPECT_EQ(query(MRC_CTL_CC_PROFILE_CUR_STATE | MRC_CTL_CC_PROFILE_ALGORITHM), -1);
    EXPECT_TRUE(asked_kernel()) << errno;
}

TEST(LibmrcCtl, EvFmtProfiles) {
    FakeContext fc;
    mrc_ctl_ev_fmt_field widths[3] = {{16}, {8}, {8}};
    mrc_ctl_ev_fmt_profile_attr fmt{};
    fmt.profile_state = MRC_CTL_PROFILE_ONLINE;
    fmt.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
    fmt.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, widths, 3};
    const int all = MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE |
                    MRC_CTL_EV_FMT_PROFILE_OP | MRC_CTL_EV_FMT_VENDOR_CFG;
    auto modify = [&](int mask) {
        return call([&] { return mrc_ctl_modify_ev_fmt_profile(fc.ctx, 1, &fmt, mask); });
    };
    auto query = [&](int mask) {
        return call([&] { return mrc_ctl_query_ev_fmt_profile(fc.ctx, 1, &fmt, mask); });
    };
    EXPECT_EQ(call([&] { return mrc_ctl_modify_ev_fmt_profile(nullptr, 1, &fmt, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_query_ev_fmt_profile(fc.ctx, 1, nullptr, 0); }), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(MRC_CTL_EV_FMT_PROFILE_CUR_STATE), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(modify(1 << 4), -1);
    EXPECT_EQ(errno, EINVAL);
    fmt.ev_fmt_mode =
        static_cast<mrc_ctl_ev_fmt_mode>(MRC_CTL_EV_FMT_MODE_STEV | MRC_CTL_EV_FMT_MODE_UDP);
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL) << "one mode";
    fmt.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(1 << 3);
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL) << "an unknown mode";
    fmt.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
    fmt.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL) << "a query in a modify";
    fmt.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;
    fmt.ev_fmt_op.fmt_field_count = 17;
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL) << "at most 16 fields";
    fmt.ev_fmt_op.fmt_field_count = 0;
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL);
    fmt.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, nullptr, 3};
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL);
    fmt.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, widths, 3};
    fmt.vendor_cfg[0] = 1;
    EXPECT_EQ(modify(all), -1);
    EXPECT_EQ(errno, EINVAL);
    fmt.vendor_cfg[0] = 0;
    EXPECT_EQ(modify(MRC_CTL_EV_FMT_VENDOR_CFG), 0) << "nothing the kernel keeps";
    EXPECT_EQ(modify(all), -1);
    EXPECT_TRUE(asked_kernel()) << errno;

    EXPECT_EQ(query(MRC_CTL_EV_FMT_PROFILE_OP), -1);
    EXPECT_EQ(errno, EINVAL) << "a modify in a query";
    fmt.ev_fmt_op = {MRC_CTL_EV_FMT_OP_QUERY_FIELDS, nullptr, 2};
    EXPECT_EQ(query(MRC_CTL_EV_FMT_PROFILE_OP), -1);
    EXPECT_EQ(errno, EINVAL);
    fmt.ev_fmt_op.fmt_field_count = 0;
    EXPECT_EQ(query(MRC_CTL_EV_FMT_PROFILE_OP | MRC_CTL_EV_FMT_PROFILE_CUR_STATE), -1)
        << "asks how many fields there are";
    EXPECT_TRUE(asked_kernel()) << errno;
}

TEST(LibmrcCtl, EvEvents) {
    FakeContext fc, other;
    ibv_comp_channel vch{};
    mrc_comp_channel foreign;
    foreign.ctx = other.ctx;
    foreign.ch = &vch;
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(nullptr, 8, nullptr, nullptr, 0); }),
              nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(fc.ctx, 0, nullptr, nullptr, 0); }),
              nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(fc.ctx, 8, nullptr, &foreign, 0); }),
              nullptr);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(fc.ctx, 65537, nullptr, nullptr, 0); }),
              nullptr);
    EXPECT_EQ(errno, EINVAL) << "more than the largest EV event CQ";
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(fc.ctx, 8, nullptr, nullptr, 2); }),
              nullptr);
    EXPECT_EQ(errno, EINVAL) << "a completion vector the device does not have";
    EXPECT_EQ(call([&] { return mrc_ctl_create_ev_event_cq(fc.ctx, 8, nullptr, nullptr, 0); }),
              nullptr);
    // Without mrc.ko no family, with it no such device or (without
    // CAP_NET_ADMIN) no joining the group.
    EXPECT_TRUE(asked_kernel() || errno == EPERM) << errno;
    EXPECT_EQ(fc.ctx->children.load(), 0u) << "nothing left behind";

    mrc_ctl_ev_event events[2];
    mrc_cq plain;
    plain.ctx = fc.ctx;
    mrc_cq ev_cq;
    ev_cq.ctx = fc.ctx;
    ev_cq.ev_event_cq = true;
    EXPECT_EQ(mrc_ctl_poll_ev_event(nullptr, 2, events), -EINVAL) << "a negative errno";
    EXPECT_EQ(mrc_ctl_poll_ev_event(&plain, 2, events), -EINVAL) << "not an EV event CQ";
    EXPECT_EQ(mrc_ctl_poll_ev_event(&ev_cq, -1, events), -EINVAL);
    EXPECT_EQ(mrc_ctl_poll_ev_event(&ev_cq, 2, nullptr), -EINVAL);
    EXPECT_EQ(mrc_ctl_poll_ev_event(&ev_cq, 2, events), -EINVAL)
        << "a CQ not made by mrc_ctl_create_ev_event_cq()";
}

TEST(LibmrcCtl, EvProbes) {
    FakeContext fc;
    mrc_ctl_ep_req req[2]{};
    mrc_ctl_ep_rsp rsp[2]{};
    for (int i = 0; i < 2; ++i) {
        req[i].req_id = static_cast<uint16_t>(i + 1);
        req[i].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
        req[i].req_ev.val[0] = 0xc0;
        req[i].req_ev.port = 1;
    }
    int n = 7;
    auto send = [&](mrc_context* ctx, mrc_ctl_ep_op_type op, int count, uint32_t timeout) {
        return call(
            [&] { return mrc_ctl_ep_batch_send_wait(ctx, 0, op, req, count, timeout, rsp, &n); });
    };
    EXPECT_EQ(send(nullptr, MRC_CTL_EP_OP_EV_PROBE, 2, 1000), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 0, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "an empty batch";
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 65, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "at most 64 probes";
    EXPECT_EQ(send(fc.ctx, static_cast<mrc_ctl_ep_op_type>(2), 2, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "an unknown operation";
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_PORT_STATUS_UPDATE, 2, 1000), -1);
    EXPECT_EQ(errno, EOPNOTSUPP) << "the driver has no port status updates";
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 2, 999), -1);
    EXPECT_EQ(errno, EINVAL) << "the family waits 1 us at least";
    req[1].req_id = 1;
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 2, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "request ids tell the answers apart";
    req[1].req_id = 2;
    req[1].req_ev.port = 2;
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 2, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "port 1 only";
    req[1].req_ev.port = 1;
    req[1].ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(0);
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 2, 1000), -1);
    EXPECT_EQ(errno, EINVAL) << "no format mode";
    req[1].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
    EXPECT_EQ(n, 7) << "left alone when refused";
    EXPECT_EQ(send(fc.ctx, MRC_CTL_EP_OP_EV_PROBE, 2, 1000), -1);
    EXPECT_TRUE(asked_kernel()) << errno;
    EXPECT_EQ(n, 0);
}

}  // namespace
