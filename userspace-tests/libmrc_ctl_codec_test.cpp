// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// How libmrc's controller API reads the family "mrc": replies laid out as
// the kernel sends them, parsed by the shared parsers and converted into
// the OCP structures.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "ctl_device.h"
#include "genl_device.h"
#include "genl_objects.h"
#include "mrc-genl.h"
#include "reply_builder.h"

namespace {

using mrc::genl::test::ReplyBuilder;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

// ---- The device ----

// A DEV_GET reply as mrc_genl_dev.c fills it.
ReplyBuilder dev_reply() {
    ReplyBuilder r(MRC_CMD_DEV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u8(MRC_ATTR_PORT_ADMIN, MRC_PORT_ADMIN_ENABLED);
    r.u32(MRC_ATTR_DEV_CAPS, MRC_CAP_EV_EVENT | MRC_CAP_EP_OP_EV_PROBE);
    r.u32(MRC_ATTR_DEV_FMT_MODES, 1u << MRC_FMT_STEV | 1u << MRC_FMT_UDP);
    r.u32(MRC_ATTR_DEV_EV_MODES, 1u << MRC_EV_MODE_AUTO | 1u << MRC_EV_MODE_GENERATED);
    r.begin(MRC_ATTR_DEV_LIMITS);
    r.u32(MRC_LIMIT_FMT_PROFILES, 64).u32(MRC_LIMIT_EV_PROFILES, 256);
    r.u32(MRC_LIMIT_EV_PER_PROFILE, 4096).u32(MRC_LIMIT_EV_COUNT_ALIGN, 1);
    r.u32(MRC_LIMIT_EV_WIDTH, 32).u32(MRC_LIMIT_EV_OP_ENTRIES, 4000);
    r.u32(MRC_LIMIT_CC_PROFILES, 63).u32(MRC_LIMIT_PORT_MASK, 0x1);
    r.end();
    return r;
}

void add_algorithm(ReplyBuilder& r, const char* name) {
    r.begin(MRC_ATTR_CC_ALG_ENTRY).begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, name).end().end();
}

genl::MrcDevice parsed(ReplyBuilder& r) {
    std::string why;
    std::optional<genl::MrcDevice> dev = genl::parse_dev_reply(r.hdr(), &why);
    EXPECT_TRUE(dev) << why;
    return dev.value_or(genl::MrcDevice{});
}

TEST(LibmrcCtlCodec, DeviceAttributes) {
    ReplyBuilder r = dev_reply();
    r.begin(MRC_ATTR_DEV_CC_ALGS);
    add_algorithm(r, "mrc-window");
    add_algorithm(r, "uet-1.0-nscc");
    r.end();
    mrc_ctl_device_attr attr;
    std::memset(&attr, 0xa5, sizeof(attr));
    ctl::to_device_attr(parsed(r), attr);
    EXPECT_EQ(attr.mrc_ctl_protocol_version, uint32_t{MRC_CTL_PROTOCOL_VERSION_1});
    EXPECT_EQ(attr.ev.ev_max_fmt_profiles, 64u);
    EXPECT_EQ(attr.ev.ev_max_profiles, 256u);
    EXPECT_EQ(attr.ev.ev_max_count_profile, 4096u);
    EXPECT_EQ(attr.ev.ev_max_count, 256u * 4096) << "no device-wide pool: every profile full";
    EXPECT_EQ(attr.ev.ev_free_count, 256u * 4096);
    EXPECT_EQ(attr.ev.ev_count_align, 1u);
    EXPECT_EQ(attr.ev.ev_max_width, 32u);
    EXPECT_EQ(attr.ev.ev_op_max_entries, 4000u);
    EXPECT_EQ(attr.ev.ev_fmt_mode_mask,
              uint32_t{MRC_CTL_EV_FMT_MODE_STEV | MRC_CTL_EV_FMT_MODE_UDP});
    EXPECT_EQ(attr.ev.ev_mode_mask, uint32_t{MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_GEN});
    EXPECT_EQ(attr.cc.cc_max_profiles, 63u);
    EXPECT_EQ(attr.phy_port_mask, 1u);
    EXPECT_EQ(attr.opt_attr, uint32_t{MRC_CTL_OPT_CAP_EV_EVENT | MRC_CTL_OPT_CAP_EP_OP_EV_PROBE});
    ASSERT_NE(attr.cc.algorithms, nullptr);
    ASSERT_NE(attr.cc.algorithms[0], nullptr);
    EXPECT_STREQ(attr.cc.algorithms[0], "uet-1.0-nscc");
    ASSERT_NE(attr.cc.algorithms[1], nullptr);
    EXPECT_STREQ(attr.cc.algorithms[1], "mrc-window");
    EXPECT_EQ(attr.cc.algorithms[2], nullptr);
}

// A reported device-wide EV limit wins over the derived one.
TEST(LibmrcCtlCodec, DeviceEvPool) {
    ReplyBuilder r = dev_reply();
    r.begin(MRC_ATTR_DEV_LIMITS).u32(MRC_LIMIT_EV_COUNT, 5000).u32(MRC_LIMIT_EV_FREE, 12).end();
    mrc_ctl_device_attr attr;
    ctl::to_device_attr(parsed(r), attr);
    EXPECT_EQ(attr.ev.ev_max_count, 5000u);
    EXPECT_EQ(attr.ev.ev_free_count, 12u);
}

TEST(LibmrcCtlCodec, AlgorithmsTheLibraryKnows) {
    ReplyBuilder r = dev_reply();
    r.begin(MRC_ATTR_DEV_CC_ALGS);
    add_algorithm(r, "someone-elses");
    add_algorithm(r, "mrc-window");
    r.end();
    const char** algs = ctl::cc_algorithms(parsed(r));
    ASSERT_NE(algs[0], nullptr);
    EXPECT_STREQ(algs[0], "mrc-window");
    EXPECT_EQ(algs[1], nullptr);
    ReplyBuilder none = dev_reply();
    EXPECT_EQ(ctl::cc_algorithms(parsed(none))[0], nullptr);
    EXPECT_EQ(ctl::known_cc_algorithm("mrc-window"), algs[0]) << "the library's own copy";
    EXPECT_EQ(ctl::known_cc_algorithm("uet-1.0"), nullptr);
}

}  // namespace
