// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// How libmrc's controller API speaks the family "mrc": requests built into
// a buffer and read back attribute by attribute against the uapi layout,
// and replies laid out as the kernel sends them, parsed by the shared
// parsers and converted into the OCP structures.
#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include "ctl_ccprof.h"
#include "ctl_device.h"
#include "ctl_evfmt.h"
#include "genl_device.h"
#include "genl_objects.h"
#include "mrc-genl.h"
#include "reply_builder.h"

namespace {

using mrc::genl::test::ReplyBuilder;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

// A request header of the family, for the builders to append to.
genl::NlMsgPtr new_request(uint8_t cmd) {
    genl::NlMsgPtr msg = genl::GenlSocket::new_request(0x20, cmd, MRC_GENL_VERSION, 0);
    EXPECT_TRUE(msg);
    return msg;
}

// The attributes of one level of a request.
template <int Max>
struct Attrs {
    std::array<nlattr*, Max + 1> tb{};
    explicit Attrs(nl_msg* msg) {
        EXPECT_EQ(genlmsg_parse(nlmsg_hdr(msg), 0, tb.data(), Max, nullptr), 0);
    }
    explicit Attrs(nlattr* nest) {
        EXPECT_NE(nest, nullptr);
        if (nest) {
            EXPECT_EQ(nla_parse_nested(tb.data(), Max, nest, nullptr), 0);
        }
    }
    nlattr* operator[](int type) const { return tb[type]; }
};

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

// ---- CC profiles ----

mrc_ctl_cc_nscc_cfg nscc_cfg() {
    mrc_ctl_cc_nscc_cfg c{};
    c.disable_qa = 5;
    c.adjust_bytes_threshold = 32768;
    c.adjust_period_threshold = 9000;
    c.base_rtt = 12000;
    c.eta = 614.5f;
    c.fi = 20480.0f;
    c.fi_scale = 0.25f;
    c.gamma = 0.8f;
    c.max_md_jump = 0.5f;
    c.max_cwnd = 1 << 20;
    c.qa_gate = 3;
    c.qa_threshold = 7000;
    c.target_delay = 9000;
    return c;
}

TEST(LibmrcCtlCodec, CcModifyRequest) {
    mrc_ctl_cc_nscc_cfg cfg = nscc_cfg();
    mrc_ctl_cc_profile_attr attr{};
    attr.profile_state = MRC_CTL_PROFILE_ONLINE;
    attr.algorithm = "uet-1.0-nscc";
    attr.cc_config = &cfg;
    const int mask =
        MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG;
    ASSERT_EQ(ctl::check_cc_modify(attr, mask), 0);
    genl::NlMsgPtr msg = new_request(MRC_CMD_CCPROF_SET);
    ASSERT_EQ(ctl::put_cc_modify(msg.get(), attr, mask, attr.algorithm), 0);

    Attrs<MRC_ATTR_MAX> top(msg.get());
    ASSERT_NE(top[MRC_ATTR_PROF_STATE], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_PROF_STATE]), MRC_PROF_ONLINE);
    Attrs<MRC_CCPROF_MAX> cc(top[MRC_ATTR_CCPROF]);
    ASSERT_NE(cc[MRC_CCPROF_ALG], nullptr);
    EXPECT_STREQ(nla_get_string(cc[MRC_CCPROF_ALG]), "uet-1.0-nscc");
    Attrs<MRC_CC_MAX> p(cc[MRC_CCPROF_PARAMS]);
    auto u32 = [&](int t) { return p[t] && nla_len(p[t]) == 4 ? nla_get_u32(p[t]) : ~0u; };
    auto u8 = [&](int t) { return p[t] && nla_len(p[t]) == 1 ? nla_get_u8(p[t]) : 0xff; };
    EXPECT_EQ(u8(MRC_CC_NSCC_DISABLE_QA), 1) << "any non-zero disables QuickAdapt";
    EXPECT_EQ(u8(MRC_CC_NSCC_QA_GATE), 3);
    EXPECT_EQ(u32(MRC_CC_NSCC_ADJUST_BYTES), 32768u);
    EXPECT_EQ(u32(MRC_CC_NSCC_ADJUST_PERIOD_NS), 9000u);
    EXPECT_EQ(u32(MRC_CC_NSCC_BASE_RTT_NS), 12000u);
    EXPECT_EQ(u32(MRC_CC_NSCC_ETA_Q16), 614u * 65536 + 32768);
    EXPECT_EQ(u32(MRC_CC_NSCC_FI_Q16), 20480u * 65536);
    EXPECT_EQ(u32(MRC_CC_NSCC_FI_SCALE_Q16), 16384u);
    EXPECT_EQ(u32(MRC_CC_NSCC_GAMMA_Q16), 52429u) << "0.8, rounded";
    EXPECT_EQ(u32(MRC_CC_NSCC_MAX_MD_JUMP_Q16), 32768u);
    EXPECT_EQ(u32(MRC_CC_NSCC_MAX_CWND), 1u << 20);
    EXPECT_EQ(u32(MRC_CC_NSCC_QA_THRESHOLD_NS), 7000u);
    EXPECT_EQ(u32(MRC_CC_NSCC_TARGET_DELAY_NS), 9000u);
    EXPECT_EQ(p[MRC_CC_WIN_INIT_PKTS], nullptr) << "nothing of another algorithm";
}

TEST(LibmrcCtlCodec, CcStateOnly) {
    mrc_ctl_cc_profile_attr attr{};
    attr.profile_state = MRC_CTL_PROFILE_OFFLINE;
    genl::NlMsgPtr msg = new_request(MRC_CMD_CCPROF_SET);
    ASSERT_EQ(ctl::put_cc_modify(msg.get(), attr, MRC_CTL_CC_PROFILE_STATE, nullptr), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    EXPECT_EQ(top[MRC_ATTR_CCPROF], nullptr);
    ASSERT_NE(top[MRC_ATTR_PROF_STATE], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_PROF_STATE]), MRC_PROF_OFFLINE);
}

// A configuration for a profile whose algorithm is not NSCC has no form.
TEST(LibmrcCtlCodec, CcConfigOfAnotherAlgorithm) {
    mrc_ctl_cc_nscc_cfg cfg = nscc_cfg();
    mrc_ctl_cc_profile_attr attr{};
    attr.cc_config = &cfg;
    ASSERT_EQ(ctl::check_cc_modify(attr, MRC_CTL_CC_PROFILE_CONFIG), 0);
    EXPECT_TRUE(ctl::cc_needs_algorithm(MRC_CTL_CC_PROFILE_CONFIG));
    genl::NlMsgPtr msg = new_request(MRC_CMD_CCPROF_SET);
    EXPECT_EQ(ctl::put_cc_modify(msg.get(), attr, MRC_CTL_CC_PROFILE_CONFIG, "mrc-window"), EINVAL);
    cfg.fi = std::nanf("");
    EXPECT_EQ(ctl::check_cc_modify(attr, MRC_CTL_CC_PROFILE_CONFIG), EINVAL);
    cfg.fi = 65536.0f;
    EXPECT_EQ(ctl::check_cc_modify(attr, MRC_CTL_CC_PROFILE_CONFIG), EINVAL)
        << "2^16 has no Q16.16";
}

ReplyBuilder cc_reply(const char* alg) {
    ReplyBuilder r(MRC_CMD_CCPROF_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 3).u8(MRC_ATTR_PROF_STATE, 1);
    r.u32(MRC_ATTR_PROF_NUSERS, 0).u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_IF_DEFAULT);
    r.begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, alg).begin(MRC_CCPROF_PARAMS);
    r.u8(MRC_CC_NSCC_DISABLE_QA, 1).u32(MRC_CC_NSCC_ADJUST_BYTES, 4096);
    r.u32(MRC_CC_NSCC_GAMMA_Q16, 52429).u32(MRC_CC_NSCC_ETA_Q16, 3 * 65536 + 16384);
    r.u8(MRC_CC_NSCC_QA_GATE, 3).u32(MRC_CC_NSCC_TARGET_DELAY_NS, 750);
    r.end().end();
    return r;
}

genl::CcProf parsed_cc(ReplyBuilder& r) {
    std::string why;
    std::optional<genl::CcProf> p = genl::parse_ccprof_reply(r.hdr(), &why);
    EXPECT_TRUE(p) << why;
    return p.value_or(genl::CcProf{});
}

TEST(LibmrcCtlCodec, CcQueryReply) {
    ReplyBuilder r = cc_reply("uet-1.0-nscc");
    mrc_ctl_cc_nscc_cfg cfg;
    std::memset(&cfg, 0xa5, sizeof(cfg));
    mrc_ctl_cc_profile_attr attr;
    std::memset(&attr, 0xa5, sizeof(attr));
    attr.cc_config = &cfg;
    ASSERT_EQ(ctl::from_ccprof(parsed_cc(r), attr, MRC_CTL_CC_PROFILE_CONFIG), 0);
    EXPECT_EQ(attr.cur_profile_state, MRC_CTL_PROFILE_OFFLINE);
    EXPECT_EQ(attr.profile_state, MRC_CTL_PROFILE_OFFLINE);
    EXPECT_EQ(attr.algorithm, ctl::known_cc_algorithm("uet-1.0-nscc"));
    EXPECT_EQ(attr.cc_config, &cfg);
    EXPECT_EQ(attr.vendor_cfg[0], 0);
    EXPECT_EQ(attr.vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE - 1], 0);
    EXPECT_EQ(cfg.disable_qa, 1);
    EXPECT_EQ(cfg.adjust_bytes_threshold, 4096u);
    EXPECT_FLOAT_EQ(cfg.gamma, 52429.0f / 65536);
    EXPECT_FLOAT_EQ(cfg.eta, 3.25f);
    EXPECT_EQ(cfg.qa_gate, 3);
    EXPECT_EQ(cfg.target_delay, 750u);
    EXPECT_EQ(cfg.base_rtt, 0u) << "what the reply lacks reads 0";
}

TEST(LibmrcCtlCodec, CcQueryRefusals) {
    mrc_ctl_cc_nscc_cfg cfg{};
    mrc_ctl_cc_profile_attr attr{};
    attr.cc_config = &cfg;
    ReplyBuilder window = cc_reply("mrc-window");
    EXPECT_EQ(ctl::from_ccprof(parsed_cc(window), attr, MRC_CTL_CC_PROFILE_CONFIG), EINVAL)
        << "an NSCC structure cannot hold it";
    EXPECT_EQ(ctl::from_ccprof(parsed_cc(window), attr, MRC_CTL_CC_PROFILE_ALGORITHM), 0);
    EXPECT_STREQ(attr.algorithm, "mrc-window");
    ReplyBuilder unknown = cc_reply("cubic");
    EXPECT_EQ(ctl::from_ccprof(parsed_cc(unknown), attr, 0), EPROTO);
    genl::CcProf none;
    EXPECT_EQ(ctl::from_ccprof(none, attr, 0), EPROTO) << "no state";
    none.state = MRC_PROF_INIT;
    ASSERT_EQ(ctl::from_ccprof(none, attr, MRC_CTL_CC_PROFILE_CONFIG), 0);
    EXPECT_EQ(attr.algorithm, nullptr);
    EXPECT_EQ(attr.cur_profile_state, MRC_CTL_PROFILE_INIT);
}

// ---- EV format profiles ----

TEST(LibmrcCtlCodec, EvFmtModifyRequest) {
    mrc_ctl_ev_fmt_field widths[3] = {{16}, {8}, {120}};
    mrc_ctl_ev_fmt_profile_attr attr{};
    attr.profile_state = MRC_CTL_PROFILE_OFFLINE;
    attr.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
    attr.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, widths, 3};
    const int mask =
        MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP;
    ASSERT_EQ(ctl::check_evfmt_modify(attr, mask), 0);
    genl::NlMsgPtr msg = new_request(MRC_CMD_EVFMT_SET);
    ASSERT_EQ(ctl::put_evfmt_modify(msg.get(), attr, mask), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    ASSERT_NE(top[MRC_ATTR_PROF_STATE], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_PROF_STATE]), MRC_PROF_OFFLINE);
    Attrs<MRC_EVFMT_MAX> fmt(top[MRC_ATTR_EVFMT]);
    ASSERT_NE(fmt[MRC_EVFMT_MODE], nullptr);
    EXPECT_EQ(nla_get_u8(fmt[MRC_EVFMT_MODE]), MRC_FMT_SRV6);
    ASSERT_NE(fmt[MRC_EVFMT_FIELDS], nullptr);
    std::vector<int> got;
    nlattr* a;
    int rem;
    nla_for_each_nested(a, fmt[MRC_EVFMT_FIELDS], rem) {
        EXPECT_EQ(nla_type(a), MRC_EVFMT_FIELD_WIDTH);
        got.push_back(nla_get_u8(a));
    }
    EXPECT_EQ(got, (std::vector<int>{16, 8, 120}));
}

TEST(LibmrcCtlCodec, EvFmtModeOnly) {
    mrc_ctl_ev_fmt_profile_attr attr{};
    attr.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
    genl::NlMsgPtr msg = new_request(MRC_CMD_EVFMT_SET);
    ASSERT_EQ(ctl::put_evfmt_modify(msg.get(), attr, MRC_CTL_EV_FMT_PROFILE_MODE), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    EXPECT_EQ(top[MRC_ATTR_PROF_STATE], nullptr);
    Attrs<MRC_EVFMT_MAX> fmt(top[MRC_ATTR_EVFMT]);
    ASSERT_NE(fmt[MRC_EVFMT_MODE], nullptr);
    EXPECT_EQ(nla_get_u8(fmt[MRC_EVFMT_MODE]), MRC_FMT_UDP);
    EXPECT_EQ(fmt[MRC_EVFMT_FIELDS], nullptr);
}

genl::EvFmt parsed_fmt(ReplyBuilder& r) {
    std::string why;
    std::optional<genl::EvFmt> f = genl::parse_evfmt_reply(r.hdr(), &why);
    EXPECT_TRUE(f) << why;
    return f.value_or(genl::EvFmt{});
}

TEST(LibmrcCtlCodec, EvFmtQueryReply) {
    ReplyBuilder r(MRC_CMD_EVFMT_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 4).u8(MRC_ATTR_PROF_STATE, 2);
    r.u32(MRC_ATTR_PROF_NUSERS, 1).begin(MRC_ATTR_EVFMT).u8(MRC_EVFMT_MODE, MRC_FMT_STEV);
    r.begin(MRC_EVFMT_FIELDS).u8(MRC_EVFMT_FIELD_WIDTH, 20).u8(MRC_EVFMT_FIELD_WIDTH, 12);
    r.end().end();
    genl::EvFmt fmt = parsed_fmt(r);

    mrc_ctl_ev_fmt_field widths[3] = {{99}, {99}, {99}};
    mrc_ctl_ev_fmt_profile_attr attr;
    std::memset(&attr, 0xa5, sizeof(attr));
    attr.ev_fmt_op = {MRC_CTL_EV_FMT_OP_QUERY_FIELDS, widths, 1};
    EXPECT_EQ(ctl::from_evfmt(fmt, attr, MRC_CTL_EV_FMT_PROFILE_OP), E2BIG);
    EXPECT_EQ(attr.ev_fmt_op.fmt_field_count, 2) << "the count needed";
    EXPECT_EQ(widths[0].width, 99) << "nothing copied";
    attr.ev_fmt_op.fmt_field_count = 3;
    ASSERT_EQ(ctl::from_evfmt(fmt, attr, MRC_CTL_EV_FMT_PROFILE_OP), 0);
    EXPECT_EQ(attr.ev_fmt_op.fmt_field_count, 2);
    EXPECT_EQ(widths[0].width, 20);
    EXPECT_EQ(widths[1].width, 12);
    EXPECT_EQ(widths[2].width, 99) << "beyond the count, untouched";
    EXPECT_EQ(attr.cur_profile_state, MRC_CTL_PROFILE_ONLINE);
    EXPECT_EQ(attr.ev_fmt_mode, MRC_CTL_EV_FMT_MODE_STEV);
    EXPECT_EQ(attr.vendor_cfg[7], 0);
}

TEST(LibmrcCtlCodec, EvFmtInitAndNonsense) {
    genl::EvFmt fmt;
    fmt.state = MRC_PROF_INIT;
    mrc_ctl_ev_fmt_profile_attr attr{};
    attr.ev_fmt_op = {MRC_CTL_EV_FMT_OP_QUERY_FIELDS, nullptr, 0};
    ASSERT_EQ(ctl::from_evfmt(fmt, attr, MRC_CTL_EV_FMT_PROFILE_OP), 0);
    EXPECT_EQ(attr.ev_fmt_mode, 0) << "no mode before OFFLINE";
    EXPECT_EQ(attr.ev_fmt_op.fmt_field_count, 0);
    fmt.mode = 3;
    EXPECT_EQ(ctl::from_evfmt(fmt, attr, 0), EPROTO);
    fmt.mode = MRC_FMT_UDP;
    fmt.state = 3;
    EXPECT_EQ(ctl::from_evfmt(fmt, attr, 0), EPROTO);
}

}  // namespace
