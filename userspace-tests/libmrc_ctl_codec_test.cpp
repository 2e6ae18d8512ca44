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
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "ctl_ccprof.h"
#include "ctl_device.h"
#include "ctl_evfmt.h"
#include "ctl_evprof.h"
#include "ctl_probe.h"
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

// ---- EV profiles ----

mrc_ctl_ev ev_of(std::initializer_list<uint8_t> bytes, uint8_t port = 1) {
    mrc_ctl_ev ev{};
    std::copy(bytes.begin(), bytes.end(), ev.val);
    ev.port = port;
    return ev;
}

// The values (as bytes) and ports of a request's MRC_ATTR_EVS.
std::vector<std::pair<std::vector<uint8_t>, int>> evs_of(nlattr* list) {
    std::vector<std::pair<std::vector<uint8_t>, int>> out;
    nlattr* a;
    int rem;
    nla_for_each_nested(a, list, rem) {
        EXPECT_EQ(nla_type(a), MRC_ATTR_EV_ENTRY);
        Attrs<MRC_EV_MAX> e(a);
        EXPECT_NE(e[MRC_EV_VALUE], nullptr);
        EXPECT_NE(e[MRC_EV_PORT], nullptr);
        if (!e[MRC_EV_VALUE] || !e[MRC_EV_PORT])
            continue;
        const auto* v = static_cast<const uint8_t*>(nla_data(e[MRC_EV_VALUE]));
        out.emplace_back(std::vector<uint8_t>(v, v + nla_len(e[MRC_EV_VALUE])),
                         nla_get_u8(e[MRC_EV_PORT]));
    }
    return out;
}

TEST(LibmrcCtlCodec, EvProfModifyRequest) {
    mrc_ctl_ev_field fields[2] = {{16, 0, 1, 4, 0xf0}, {8, 7, 0, 0, 0}};
    mrc_ctl_ev_profile_attr attr{};
    attr.profile_state = MRC_CTL_PROFILE_OFFLINE;
    attr.ev_mode = MRC_CTL_EV_MODE_GEN;
    attr.ev_fmt_profile_id = 0x100000002ull;
    attr.ev_count = 6;
    attr.ev_min_active = 2;
    attr.ev_event_mask = MRC_CTL_EV_ASSUMED_BAD;
    attr.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, fields, 2};
    const int mask = MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_MODE |
                     MRC_CTL_EV_PROFILE_FMT_ID | MRC_CTL_EV_PROFILE_COUNT |
                     MRC_CTL_EV_PROFILE_MIN_ACTIVE | MRC_CTL_EV_PROFILE_EVENT_MASK |
                     MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
    ASSERT_EQ(ctl::check_evprof_modify(attr, mask), 0);
    EXPECT_TRUE(ctl::evprof_changes_profile(attr, mask));
    EXPECT_FALSE(ctl::evprof_replaces_evs(attr, mask));
    genl::NlMsgPtr msg = new_request(MRC_CMD_EVPROF_SET);
    ASSERT_EQ(ctl::put_evprof_modify(msg.get(), attr, mask, nullptr, MRC_FMT_STEV), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    EXPECT_EQ(top[MRC_ATTR_EVS], nullptr);
    ASSERT_NE(top[MRC_ATTR_PROF_STATE], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_PROF_STATE]), MRC_PROF_OFFLINE);
    Attrs<MRC_EVPROF_MAX> p(top[MRC_ATTR_EVPROF]);
    for (int t : {MRC_EVPROF_MODE, MRC_EVPROF_FMT_ID, MRC_EVPROF_COUNT, MRC_EVPROF_MIN_ACTIVE,
                  MRC_EVPROF_EVENT_MASK, MRC_EVPROF_FIELDS})
        ASSERT_NE(p[t], nullptr) << t;
    EXPECT_EQ(nla_get_u8(p[MRC_EVPROF_MODE]), MRC_EV_MODE_GENERATED);
    EXPECT_EQ(nla_get_u64(p[MRC_EVPROF_FMT_ID]), 0x100000002ull);
    EXPECT_EQ(nla_get_u32(p[MRC_EVPROF_COUNT]), 6u);
    EXPECT_EQ(nla_get_u32(p[MRC_EVPROF_MIN_ACTIVE]), 2u);
    EXPECT_EQ(nla_get_u32(p[MRC_EVPROF_EVENT_MASK]), 1u << MRC_GENL_EV_ASSUMED_BAD);
    std::vector<std::array<uint32_t, 5>> got;
    nlattr* a;
    int rem;
    nla_for_each_nested(a, p[MRC_EVPROF_FIELDS], rem) {
        EXPECT_EQ(nla_type(a), MRC_EVPROF_FIELD);
        Attrs<MRC_EVFIELD_MAX_ATTR> f(a);
        std::array<uint32_t, 5> v{};
        for (int t = MRC_EVFIELD_WIDTH; t <= MRC_EVFIELD_MASK; ++t)
            v[t - MRC_EVFIELD_WIDTH] = f[t] ? nla_get_u32(f[t]) : ~0u;
        got.push_back(v);
    }
    using F = std::array<uint32_t, 5>;
    EXPECT_EQ(got, (std::vector<F>{F{16, 0, 1, 4, 0xf0}, F{8, 7, 0, 0, 0}}));
}

TEST(LibmrcCtlCodec, EvProfExplicitEvs) {
    mrc_ctl_ev_profile_attr attr{};
    std::vector<mrc_ctl_ev> evs = {ev_of({0x12, 0x34, 0, 0x01}), ev_of({0, 0, 0xc0, 0})};
    genl::NlMsgPtr msg = new_request(MRC_CMD_EVPROF_SET);
    ASSERT_EQ(ctl::put_evprof_modify(msg.get(), attr, 0, &evs, MRC_FMT_STEV), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    EXPECT_EQ(top[MRC_ATTR_EVPROF], nullptr) << "no configuration asked";
    EXPECT_EQ(top[MRC_ATTR_PROF_STATE], nullptr);
    using V = std::pair<std::vector<uint8_t>, int>;
    EXPECT_EQ(evs_of(top[MRC_ATTR_EVS]),
              (std::vector<V>{{{0x12, 0x34, 0, 0x01}, 1}, {{0, 0, 0xc0, 0}, 1}}))
        << "STEV: the compact EV, 4 bytes";

    // SRV6: one address, or two when the SRH's is given.
    mrc_ctl_ev one = ev_of({0xfc, 0, 0, 1});
    mrc_ctl_ev two = one;
    two.val[16] = 0xfd;
    two.val[31] = 9;
    evs = {one, two};
    msg = new_request(MRC_CMD_EVPROF_SET);
    ASSERT_EQ(ctl::put_evprof_modify(msg.get(), attr, 0, &evs, MRC_FMT_SRV6), 0);
    Attrs<MRC_ATTR_MAX> srv6(msg.get());
    auto got = evs_of(srv6[MRC_ATTR_EVS]);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].first, std::vector<uint8_t>(one.val, one.val + 16));
    EXPECT_EQ(got[1].first, std::vector<uint8_t>(two.val, two.val + 32));

    mrc_ctl_ev wide = ev_of({1, 2, 3, 4, 5});
    evs = {wide};
    msg = new_request(MRC_CMD_EVPROF_SET);
    EXPECT_EQ(ctl::put_evprof_modify(msg.get(), attr, 0, &evs, MRC_FMT_UDP), EINVAL)
        << "5 bytes in a 4-byte format";
}

TEST(LibmrcCtlCodec, EvReplaceAddsRemovesAndReplaces) {
    const mrc_ctl_ev a = ev_of({0xa}), b = ev_of({0xb}), c = ev_of({0xc});
    const mrc_ctl_ev none = MRC_CTL_EV_UNPOPULATED;
    auto vals = [](const std::vector<mrc_ctl_ev>& evs) {
        std::vector<int> v;
        for (const mrc_ctl_ev& e : evs)
            v.push_back(e.val[0]);
        return v;
    };
    std::vector<mrc_ctl_ev> evs;
    mrc_ctl_ev_op_entry add[3] = {{none, a, {}, 0}, {none, b, {}, 0}, {none, a, {}, 0}};
    ASSERT_EQ(ctl::apply_replace(evs, add, 3), 0);
    EXPECT_EQ(vals(evs), (std::vector<int>{0xa, 0xb, 0xa}));

    mrc_ctl_ev_op_entry one[1] = {{a, c, {}, 0}};
    ASSERT_EQ(ctl::apply_replace(evs, one, 1), 0);
    EXPECT_EQ(vals(evs), (std::vector<int>{0xc, 0xb, 0xa})) << "the first copy only";
    mrc_ctl_ev_op_entry all[2] = {{c, a, {}, 0}, {a, b, {}, MRC_CTL_EV_OP_F_ALL_COPIES}};
    ASSERT_EQ(ctl::apply_replace(evs, all, 2), 0);
    EXPECT_EQ(vals(evs), (std::vector<int>{0xb, 0xb, 0xb}));
    mrc_ctl_ev_op_entry remove[1] = {{b, none, {}, 0}};
    ASSERT_EQ(ctl::apply_replace(evs, remove, 1), 0);
    EXPECT_EQ(vals(evs), (std::vector<int>{0xb, 0xb}));
    remove[0].flags = MRC_CTL_EV_OP_F_ALL_COPIES;
    ASSERT_EQ(ctl::apply_replace(evs, remove, 1), 0);
    EXPECT_TRUE(evs.empty());
    EXPECT_EQ(ctl::apply_replace(evs, remove, 1), ENOENT);
    evs = {a};
    mrc_ctl_ev_op_entry other_port[1] = {{ev_of({0xa}, 2), b, {}, 0}};
    EXPECT_EQ(ctl::apply_replace(evs, other_port, 1), ENOENT) << "an EV is its value and port";
}

// EVPROF_EV_GET's messages as mrc_genl_ev.c fills them: 3 EVs, the first
// and last the same.
ReplyBuilder ev_table() {
    ReplyBuilder r(MRC_CMD_EVPROF_EV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 5).u32(MRC_ATTR_EV_FIRST, 0);
    r.begin(MRC_ATTR_EVS);
    const uint8_t states[] = {MRC_GENL_EV_GOOD, MRC_GENL_EV_DENIED, MRC_GENL_EV_UNKNOWN};
    const char* values[] = {"\x00\x01\xc0\x00", "\x00\x02\xc0\x00", "\x00\x01\xc0\x00"};
    for (uint32_t i = 0; i < 3; ++i) {
        r.begin(MRC_ATTR_EV_ENTRY)
            .u32(MRC_EV_INDEX, i)
            .raw(MRC_EV_VALUE, std::string(values[i], 4));
        r.u8(MRC_EV_PORT, 1).u8(MRC_EV_STATE, states[i]).u16(MRC_EV_WIRE_SPORT, 0xc000);
        r.end();
    }
    r.end();
    return r;
}

std::vector<genl::EvEntry> parsed_evs(ReplyBuilder& r) {
    std::string why;
    std::optional<genl::EvTable> t = genl::parse_ev_table_reply(r.hdr(), &why);
    EXPECT_TRUE(t) << why;
    return t ? t->evs : std::vector<genl::EvEntry>{};
}

TEST(LibmrcCtlCodec, EvStatesByIndex) {
    ReplyBuilder r = ev_table();
    std::vector<genl::EvEntry> evs = parsed_evs(r);
    mrc_ctl_ev_op_entry e[2] = {{ev_of({0, 1, 0xc0}), {}, MRC_CTL_EV_DENIED, 0},
                                {ev_of({0, 2, 0xc0}), {}, MRC_CTL_EV_GOOD, 0}};
    genl::NlMsgPtr msg = new_request(MRC_CMD_EVPROF_EV_SET);
    ASSERT_EQ(ctl::put_ev_states(msg.get(), e, 2, evs), 0);
    Attrs<MRC_ATTR_MAX> top(msg.get());
    ASSERT_NE(top[MRC_ATTR_EV_OP], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_EV_OP]), MRC_EV_OP_SET_STATE);
    std::vector<std::pair<uint32_t, int>> got;
    nlattr* a;
    int rem;
    nla_for_each_nested(a, top[MRC_ATTR_EVS], rem) {
        Attrs<MRC_EV_MAX> x(a);
        ASSERT_NE(x[MRC_EV_INDEX], nullptr);
        ASSERT_NE(x[MRC_EV_STATE], nullptr);
        EXPECT_EQ(x[MRC_EV_VALUE], nullptr) << "named by index: one of both";
        got.emplace_back(nla_get_u32(x[MRC_EV_INDEX]), nla_get_u8(x[MRC_EV_STATE]));
    }
    using S = std::pair<uint32_t, int>;
    EXPECT_EQ(got, (std::vector<S>{
                       {0, MRC_GENL_EV_DENIED}, {2, MRC_GENL_EV_DENIED}, {1, MRC_GENL_EV_GOOD}}))
        << "every copy of the value";
    e[1].ev = ev_of({0, 3, 0xc0});
    msg = new_request(MRC_CMD_EVPROF_EV_SET);
    EXPECT_EQ(ctl::put_ev_states(msg.get(), e, 2, evs), ENOENT);
}

TEST(LibmrcCtlCodec, EvQueries) {
    ReplyBuilder r = ev_table();
    std::vector<genl::EvEntry> evs = parsed_evs(r);
    mrc_ctl_ev_op_entry out[3];
    std::memset(out, 0xa5, sizeof(out));
    mrc_ctl_ev_profile_attr attr{};
    attr.ev_op = {MRC_CTL_EV_OP_QUERY_EV_ARRAY, out, 2};
    EXPECT_EQ(ctl::from_evs(evs, attr), E2BIG);
    EXPECT_EQ(attr.ev_op.entry_count, 3);
    ASSERT_EQ(ctl::from_evs(evs, attr), 0);
    EXPECT_EQ(out[1].ev.val[1], 2);
    EXPECT_EQ(out[1].ev.val[2], 0xc0);
    EXPECT_EQ(out[1].ev.val[4], 0) << "beyond the value: zero";
    EXPECT_EQ(out[1].ev.port, 1);
    EXPECT_EQ(out[0].state, MRC_CTL_EV_GOOD);
    EXPECT_EQ(out[1].state, MRC_CTL_EV_DENIED);
    EXPECT_EQ(out[2].state, MRC_CTL_EV_UNKNOWN);
    EXPECT_EQ(out[2].ev_new.port, 0) << "no new EV in a query";
    EXPECT_EQ(out[2].flags, 0u);

    mrc_ctl_ev_op_entry q[1] = {{ev_of({0, 2, 0xc0}), {}, MRC_CTL_EV_GOOD, 0}};
    attr.ev_op = {MRC_CTL_EV_OP_QUERY_EV_STATE, q, 1};
    ASSERT_EQ(ctl::from_evs(evs, attr), 0);
    EXPECT_EQ(q[0].state, MRC_CTL_EV_DENIED);
    q[0].ev.port = 2;
    EXPECT_EQ(ctl::from_evs(evs, attr), ENOENT);
    evs[0].state = 5;
    EXPECT_EQ(ctl::from_evs(evs, attr), EPROTO);
}

TEST(LibmrcCtlCodec, EvProfQueryReply) {
    ReplyBuilder r(MRC_CMD_EVPROF_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 5).u8(MRC_ATTR_PROF_STATE, 2);
    r.u32(MRC_ATTR_PROF_NUSERS, 3)
        .begin(MRC_ATTR_EVPROF)
        .u8(MRC_EVPROF_MODE, MRC_EV_MODE_GENERATED);
    r.u64(MRC_EVPROF_FMT_ID, 7).u32(MRC_EVPROF_COUNT, 24).u32(MRC_EVPROF_MIN_ACTIVE, 4);
    r.u32(MRC_EVPROF_EVENT_MASK, 3).u32(MRC_EVPROF_NDENIED, 1);
    r.begin(MRC_EVPROF_FIELDS).begin(MRC_EVPROF_FIELD).u32(MRC_EVFIELD_WIDTH, 16);
    r.u32(MRC_EVFIELD_INIT, 0xc000).u32(MRC_EVFIELD_MIN, 1).u32(MRC_EVFIELD_MAX, 24);
    r.u32(MRC_EVFIELD_MASK, 0xff).end().end().end();
    std::string why;
    std::optional<genl::EvProf> prof = genl::parse_evprof_reply(r.hdr(), &why);
    ASSERT_TRUE(prof) << why;

    mrc_ctl_ev_field fields[1];
    mrc_ctl_ev_profile_attr attr;
    std::memset(&attr, 0xa5, sizeof(attr));
    attr.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, fields, 1};
    ASSERT_EQ(ctl::from_evprof(*prof, attr, MRC_CTL_EV_PROFILE_EV_FIELDS_OP), 0);
    EXPECT_EQ(attr.cur_profile_state, MRC_CTL_PROFILE_ONLINE);
    EXPECT_EQ(attr.ev_mode, MRC_CTL_EV_MODE_GEN);
    EXPECT_EQ(attr.ev_fmt_profile_id, 7u);
    EXPECT_EQ(attr.ev_count, 24u);
    EXPECT_EQ(attr.ev_min_active, 4u);
    EXPECT_EQ(attr.ev_event_mask, MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD);
    EXPECT_EQ(attr.vendor_cfg[3], 0);
    EXPECT_EQ(attr.ev_fields_op.field_count, 1);
    EXPECT_EQ(fields[0].width, 16u);
    EXPECT_EQ(fields[0].init_val, 0xc000u);
    EXPECT_EQ(fields[0].min_val, 1u);
    EXPECT_EQ(fields[0].max_val, 24u);
    EXPECT_EQ(fields[0].mask, 0xffu);
    attr.ev_fields_op.field_count = 0;
    EXPECT_EQ(ctl::from_evprof(*prof, attr, MRC_CTL_EV_PROFILE_EV_FIELDS_OP), E2BIG);
    EXPECT_EQ(attr.ev_fields_op.field_count, 1);
}

// ---- EV probes ----

TEST(LibmrcCtlCodec, ProbeRequest) {
    mrc_ctl_ep_req req[3]{};
    for (int i = 0; i < 3; ++i) {
        req[i].req_id = static_cast<uint16_t>(10 + i);
        req[i].dgid.raw[0] = 0xfd;
        req[i].dgid.raw[15] = static_cast<uint8_t>(i);
        req[i].req_ev.port = 1;
    }
    req[0].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;  // 16 bits: 0xc001
    req[0].req_ev.val[0] = 0xc0;
    req[0].req_ev.val[1] = 0x01;
    req[1].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;  // 32 bits
    std::memcpy(req[1].req_ev.val, "\x00\x05\xc0\x02", 4);
    req[2].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;  // two addresses
    req[2].req_ev.val[0] = 0xfc;
    req[2].req_ev.val[16] = 0xfd;
    ASSERT_EQ(ctl::check_probes(MRC_CTL_EP_OP_EV_PROBE, req, 3, 5000), 0);
    genl::NlMsgPtr msg = new_request(MRC_CMD_PROBE);
    ASSERT_EQ(ctl::put_probes(msg.get(), 0x28, req, 3, 5000, {-1, 3, -1}), 0);

    Attrs<MRC_ATTR_MAX> top(msg.get());
    ASSERT_NE(top[MRC_ATTR_PROBE_TCLASS], nullptr);
    EXPECT_EQ(nla_get_u8(top[MRC_ATTR_PROBE_TCLASS]), 0x28);
    ASSERT_NE(top[MRC_ATTR_PROBE_TIMEOUT_NS], nullptr);
    EXPECT_EQ(nla_get_u64(top[MRC_ATTR_PROBE_TIMEOUT_NS]), 5000u);
    std::vector<std::vector<uint8_t>> values;
    std::vector<int> ids, modes, sgids;
    nlattr* a;
    int rem;
    nla_for_each_nested(a, top[MRC_ATTR_PROBES], rem) {
        EXPECT_EQ(nla_type(a), MRC_ATTR_PROBE_ENTRY);
        Attrs<MRC_PROBE_MAX> p(a);
        ASSERT_NE(p[MRC_PROBE_REQ_ID], nullptr);
        ASSERT_NE(p[MRC_PROBE_FMT_MODE], nullptr);
        ASSERT_NE(p[MRC_PROBE_EV_VALUE], nullptr);
        ASSERT_NE(p[MRC_PROBE_DGID], nullptr);
        EXPECT_EQ(nla_len(p[MRC_PROBE_DGID]), 16);
        EXPECT_EQ(static_cast<const uint8_t*>(nla_data(p[MRC_PROBE_DGID]))[0], 0xfd);
        ids.push_back(nla_get_u16(p[MRC_PROBE_REQ_ID]));
        modes.push_back(nla_get_u8(p[MRC_PROBE_FMT_MODE]));
        sgids.push_back(
            p[MRC_PROBE_SGID_INDEX] ? static_cast<int>(nla_get_u32(p[MRC_PROBE_SGID_INDEX])) : -1);
        const auto* v = static_cast<const uint8_t*>(nla_data(p[MRC_PROBE_EV_VALUE]));
        values.emplace_back(v, v + nla_len(p[MRC_PROBE_EV_VALUE]));
    }
    EXPECT_EQ(ids, (std::vector<int>{10, 11, 12}));
    EXPECT_EQ(modes, (std::vector<int>{MRC_FMT_UDP, MRC_FMT_STEV, MRC_FMT_SRV6}));
    EXPECT_EQ(sgids, (std::vector<int>{-1, 3, -1})) << "no index: the kernel picks";
    ASSERT_EQ(values.size(), 3u);
    EXPECT_EQ(values[0], (std::vector<uint8_t>{0, 0, 0xc0, 0x01})) << "UDP's 16 bits as a number";
    EXPECT_EQ(values[1], (std::vector<uint8_t>{0, 5, 0xc0, 2}));
    EXPECT_EQ(values[2].size(), 32u);

    req[0].req_ev.val[2] = 1;
    msg = new_request(MRC_CMD_PROBE);
    EXPECT_EQ(ctl::put_probes(msg.get(), 0, req, 1, 5000, {-1}), EINVAL) << "17 bits over UDP";
}

TEST(LibmrcCtlCodec, ProbeAnswersInArrivalOrder) {
    ReplyBuilder r(MRC_CMD_PROBE);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").begin(MRC_ATTR_PROBES);
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 10).u64(MRC_PROBE_RTT_NS, 9000);
    r.u8(MRC_PROBE_PORT, 1).end();
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 11).flag(MRC_PROBE_TIMED_OUT).end();
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 12).u64(MRC_PROBE_RTT_NS, 1ull << 40);
    r.u8(MRC_PROBE_PORT, 1).end();
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 13).u64(MRC_PROBE_RTT_NS, 3000);
    r.u8(MRC_PROBE_PORT, 1).end().end();
    std::string why;
    auto answers = genl::parse_probe_reply(r.hdr(), &why);
    ASSERT_TRUE(answers) << why;

    mrc_ctl_ep_rsp rsp[4];
    std::memset(rsp, 0xa5, sizeof(rsp));
    int n = -1;
    EXPECT_EQ(ctl::to_responses(*answers, rsp, 4, n), ETIMEDOUT) << "request 11 had no answer";
    ASSERT_EQ(n, 3);
    EXPECT_EQ(rsp[0].req_id, 13);
    EXPECT_EQ(rsp[0].rtt, 3000u);
    EXPECT_EQ(rsp[0].port, 1);
    EXPECT_EQ(rsp[0].adj_svc_time, 0);
    EXPECT_EQ(rsp[1].req_id, 10);
    EXPECT_EQ(rsp[2].req_id, 12);
    EXPECT_EQ(rsp[2].rtt, UINT_MAX) << "an RTT past 4.29 s saturates";
    EXPECT_EQ(rsp[3].req_id, 0xa5a5) << "beyond the count, untouched";

    answers->erase(answers->begin() + 1);
    EXPECT_EQ(ctl::to_responses(*answers, rsp, 2, n), 0);
    EXPECT_EQ(n, 2) << "no more than the room";
}

}  // namespace
