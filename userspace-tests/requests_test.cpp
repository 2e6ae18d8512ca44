// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Requests as mrc-ip sends them: each command line is parsed, its request
// built, and the attributes after the genl header compared byte for byte
// with a layout written out by hand from kernel/uapi/mrc-genl.h.
#include "requests.h"

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cmdline.h"
#include "mrc-genl.h"
#include "mrc_genl.h"

namespace mrc_ip {
namespace {

using Bytes = std::vector<uint8_t>;

Command parse(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) {
        w.push_back(s);
    }
    ParseResult r = parse_command_line(w);
    EXPECT_TRUE(std::holds_alternative<Command>(r)) << line;
    return std::holds_alternative<Command>(r) ? std::get<Command>(r) : Command{};
}

// Hand-written netlink attributes (host order, as the kernel reads them).
class Attrs {
public:
    Attrs& u8(uint16_t t, uint8_t v) { return raw(t, Bytes{v}); }
    Attrs& u16(uint16_t t, uint16_t v) { return pod(t, v); }
    Attrs& u32(uint16_t t, uint32_t v) { return pod(t, v); }
    Attrs& u64(uint16_t t, uint64_t v) { return pod(t, v); }
    Attrs& str(uint16_t t, const std::string& s) {
        Bytes b(s.begin(), s.end());
        b.push_back(0);
        return raw(t, b);
    }
    Attrs& flag(uint16_t t) { return raw(t, {}); }
    Attrs& nest(uint16_t t, const Attrs& inner) { return raw(t | NLA_F_NESTED, inner.b_, false); }
    Attrs& raw(uint16_t t, const Bytes& payload, bool plain = true) {
        (void)plain;
        uint16_t len = static_cast<uint16_t>(4 + payload.size());
        b_.push_back(static_cast<uint8_t>(len));
        b_.push_back(static_cast<uint8_t>(len >> 8));
        b_.push_back(static_cast<uint8_t>(t));
        b_.push_back(static_cast<uint8_t>(t >> 8));
        b_.insert(b_.end(), payload.begin(), payload.end());
        while (b_.size() % 4 != 0) {
            b_.push_back(0);
        }
        return *this;
    }
    const Bytes& bytes() const { return b_; }

private:
    template <typename T>
    Attrs& pod(uint16_t t, T v) {
        Bytes b(sizeof(T));
        std::memcpy(b.data(), &v, sizeof(T));
        return raw(t, b);
    }
    Bytes b_;
};

constexpr uint16_t kFamily = 0x1d;

struct Built {
    uint8_t cmd;
    uint16_t flags;
    Bytes attrs;
};

Built build(uint8_t cmd, bool dump, void (*fn)(nl_msg*, const Command&), const Command& c) {
    NlMsgPtr m = new_mrc_request(kFamily, cmd, dump);
    fn(m.get(), c);
    nlmsghdr* nlh = nlmsg_hdr(m.get());
    EXPECT_EQ(nlh->nlmsg_type, kFamily);
    auto* g = static_cast<genlmsghdr*>(nlmsg_data(nlh));
    EXPECT_EQ(g->version, MRC_GENL_VERSION);
    const auto* a = reinterpret_cast<const uint8_t*>(genlmsg_attrdata(g, 0));
    return {g->cmd, nlh->nlmsg_flags, Bytes(a, a + genlmsg_attrlen(g, 0))};
}

// nla_nest_start() in libnl 3.7 sets NLA_F_NESTED, as the kernel's strict
// validation wants.
TEST(RequestTest, DevAndPortSet) {
    Built b = build(MRC_CMD_DEV_SET, false, build_dev_set,
                    parse("dev set mrc0 evprofile 3 ccprofile 0x10"));
    EXPECT_EQ(b.cmd, MRC_CMD_DEV_SET);
    EXPECT_EQ(b.flags & NLM_F_DUMP, 0);
    EXPECT_EQ(b.attrs, Attrs()
                           .str(MRC_ATTR_DEV_NAME, "mrc0")
                           .u64(MRC_ATTR_DEV_DEFAULT_EVPROF, 3)
                           .u64(MRC_ATTR_DEV_DEFAULT_CCPROF, 16)
                           .bytes());
    EXPECT_EQ(build(MRC_CMD_DEV_SET, false, build_dev_set, parse("port set mrc0 down")).attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u8(MRC_ATTR_PORT_ADMIN, MRC_PORT_ADMIN_DISABLED)
                  .bytes());
    EXPECT_EQ(build(MRC_CMD_DEV_SET, false, build_dev_set, parse("port set dev mrc0 up")).attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u8(MRC_ATTR_PORT_ADMIN, MRC_PORT_ADMIN_ENABLED)
                  .bytes());
}

TEST(RequestTest, GetsAndDumps) {
    NlMsgPtr m = new_mrc_request(kFamily, MRC_CMD_EVFMT_GET, true);
    EXPECT_EQ(nlmsg_hdr(m.get())->nlmsg_flags & NLM_F_DUMP, NLM_F_DUMP);
    Built one = build(
        MRC_CMD_EVFMT_GET, false, [](nl_msg* msg, const Command& c) { put_dev_and_id(msg, c); },
        parse("evfmt show dev mrc1 id 7"));
    EXPECT_EQ(one.attrs, Attrs().str(MRC_ATTR_DEV_NAME, "mrc1").u64(MRC_ATTR_PROF_ID, 7).bytes());
    Built all = build(
        MRC_CMD_EVFMT_GET, true, [](nl_msg* msg, const Command& c) { put_dev_and_id(msg, c); },
        parse("evfmt show"));
    EXPECT_TRUE(all.attrs.empty());
}

TEST(RequestTest, EvfmtAddAndSet) {
    Built add = build(MRC_CMD_EVFMT_NEW, false, build_evfmt,
                      parse("evfmt add dev mrc0 id 4 mode stev fields 20,12"));
    EXPECT_EQ(
        add.attrs,
        Attrs()
            .str(MRC_ATTR_DEV_NAME, "mrc0")
            .u64(MRC_ATTR_PROF_ID, 4)
            .nest(MRC_ATTR_EVFMT,
                  Attrs()
                      .u8(MRC_EVFMT_MODE, MRC_FMT_STEV)
                      .nest(MRC_EVFMT_FIELDS,
                            Attrs().u8(MRC_EVFMT_FIELD_WIDTH, 20).u8(MRC_EVFMT_FIELD_WIDTH, 12)))
            .bytes());
    Built set = build(MRC_CMD_EVFMT_SET, false, build_evfmt,
                      parse("evfmt set dev mrc0 id 4 mode udp state offline"));
    EXPECT_EQ(set.attrs, Attrs()
                             .str(MRC_ATTR_DEV_NAME, "mrc0")
                             .u64(MRC_ATTR_PROF_ID, 4)
                             .nest(MRC_ATTR_EVFMT, Attrs().u8(MRC_EVFMT_MODE, MRC_FMT_UDP))
                             .u8(MRC_ATTR_PROF_STATE, MRC_PROF_OFFLINE)
                             .bytes());
    Built state = build(
        MRC_CMD_EVFMT_SET, false,
        [](nl_msg* msg, const Command& c) { build_state(msg, c, 9, MRC_PROF_ONLINE); },
        parse("evfmt add dev mrc0 mode srv6 fields 128"));
    EXPECT_EQ(state.attrs, Attrs()
                               .str(MRC_ATTR_DEV_NAME, "mrc0")
                               .u64(MRC_ATTR_PROF_ID, 9)
                               .u8(MRC_ATTR_PROF_STATE, MRC_PROF_ONLINE)
                               .bytes());
}

TEST(RequestTest, EvprofileAddGeneratedAndExplicit) {
    Built gen = build(MRC_CMD_EVPROF_NEW, false, build_evprof,
                      parse("evprofile add dev mrc0 mode generated fmt 2 count 64 min-active 3 "
                            "events bad field 8:1:0:63:0xff"));
    Attrs field;
    field.u32(MRC_EVFIELD_WIDTH, 8)
        .u32(MRC_EVFIELD_INIT, 1)
        .u32(MRC_EVFIELD_MIN, 0)
        .u32(MRC_EVFIELD_MAX, 63)
        .u32(MRC_EVFIELD_MASK, 0xff);
    EXPECT_EQ(gen.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .nest(MRC_ATTR_EVPROF,
                        Attrs()
                            .u8(MRC_EVPROF_MODE, MRC_EV_MODE_GENERATED)
                            .u64(MRC_EVPROF_FMT_ID, 2)
                            .u32(MRC_EVPROF_COUNT, 64)
                            .u32(MRC_EVPROF_MIN_ACTIVE, 3)
                            .u32(MRC_EVPROF_EVENT_MASK, 1u << MRC_GENL_EV_ASSUMED_BAD)
                            .nest(MRC_EVPROF_FIELDS, Attrs().nest(MRC_EVPROF_FIELD, field)))
                  .bytes());

    Built exp = build(MRC_CMD_EVPROF_NEW, false, build_evprof,
                      parse("evprofile add dev mrc0 mode explicit fmt 1 ev 0x0a0b0c0d ev 0x1@1"));
    EXPECT_EQ(exp.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .nest(MRC_ATTR_EVPROF,
                        Attrs().u8(MRC_EVPROF_MODE, MRC_EV_MODE_EXPLICIT).u64(MRC_EVPROF_FMT_ID, 1))
                  .nest(MRC_ATTR_EVS,
                        Attrs()
                            .nest(MRC_ATTR_EV_ENTRY, Attrs()
                                                         .u32(MRC_EV_INDEX, 0)
                                                         .raw(MRC_EV_VALUE, {10, 11, 12, 13})
                                                         .u8(MRC_EV_PORT, 1))
                            .nest(MRC_ATTR_EV_ENTRY, Attrs()
                                                         .u32(MRC_EV_INDEX, 1)
                                                         .raw(MRC_EV_VALUE, {0, 0, 0, 1})
                                                         .u8(MRC_EV_PORT, 1)))
                  .bytes());
}

TEST(RequestTest, EvprofileDenyUndenyReplace) {
    auto entry = [](uint32_t i, uint8_t state) {
        return Attrs().u32(MRC_EV_INDEX, i).u8(MRC_EV_STATE, state);
    };
    Built deny = build(MRC_CMD_EVPROF_EV_SET, false, build_ev_set,
                       parse("evprofile deny dev mrc0 id 2 index 3-4 ev 0x10"));
    EXPECT_EQ(deny.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u64(MRC_ATTR_PROF_ID, 2)
                  .u8(MRC_ATTR_EV_OP, MRC_EV_OP_SET_STATE)
                  .nest(MRC_ATTR_EVS,
                        Attrs()
                            .nest(MRC_ATTR_EV_ENTRY, entry(3, MRC_GENL_EV_DENIED))
                            .nest(MRC_ATTR_EV_ENTRY, entry(4, MRC_GENL_EV_DENIED))
                            .nest(MRC_ATTR_EV_ENTRY, Attrs()
                                                         .raw(MRC_EV_VALUE, {0, 0, 0, 0x10})
                                                         .u8(MRC_EV_STATE, MRC_GENL_EV_DENIED)))
                  .bytes());
    Built undeny = build(MRC_CMD_EVPROF_EV_SET, false, build_ev_set,
                         parse("evprofile undeny dev mrc0 id 2 index 7"));
    EXPECT_EQ(undeny.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u64(MRC_ATTR_PROF_ID, 2)
                  .u8(MRC_ATTR_EV_OP, MRC_EV_OP_SET_STATE)
                  .nest(MRC_ATTR_EVS, Attrs().nest(MRC_ATTR_EV_ENTRY, entry(7, MRC_GENL_EV_GOOD)))
                  .bytes());
    Built rep = build(MRC_CMD_EVPROF_EV_SET, false, build_ev_set,
                      parse("evprofile replace dev mrc0 id 2 index 5 with 0x20@1 all"));
    EXPECT_EQ(rep.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u64(MRC_ATTR_PROF_ID, 2)
                  .u8(MRC_ATTR_EV_OP, MRC_EV_OP_REPLACE)
                  .nest(MRC_ATTR_EVS, Attrs().nest(MRC_ATTR_EV_ENTRY,
                                                   Attrs()
                                                       .u32(MRC_EV_INDEX, 5)
                                                       .raw(MRC_EV_NEW_VALUE, {0, 0, 0, 0x20})
                                                       .u8(MRC_EV_NEW_PORT, 1)
                                                       .u32(MRC_EV_FLAGS, MRC_EV_F_ALL_COPIES)))
                  .bytes());
}

TEST(RequestTest, CcprofileParams) {
    Built add = build(MRC_CMD_CCPROF_NEW, false, build_ccprof,
                      parse("ccprofile add dev mrc0 alg uet-1.0-nscc qa-gate 3 gamma 0.5 "
                            "base-rtt 10us"));
    EXPECT_EQ(add.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .nest(MRC_ATTR_CCPROF,
                        Attrs()
                            .str(MRC_CCPROF_ALG, "uet-1.0-nscc")
                            .nest(MRC_CCPROF_PARAMS, Attrs()
                                                         .u32(MRC_CC_NSCC_BASE_RTT_NS, 10000)
                                                         .u32(MRC_CC_NSCC_GAMMA_Q16, 32768)
                                                         .u8(MRC_CC_NSCC_QA_GATE, 3)))
                  .bytes());
    Built set = build(MRC_CMD_CCPROF_SET, false, build_ccprof,
                      parse("ccprofile set dev mrc0 id 1 state init"));
    EXPECT_EQ(set.attrs, Attrs()
                             .str(MRC_ATTR_DEV_NAME, "mrc0")
                             .u64(MRC_ATTR_PROF_ID, 1)
                             .u8(MRC_ATTR_PROF_STATE, MRC_PROF_INIT)
                             .bytes());
}

// The access rule goes beside the configuration, before a state; the
// gid only with access group.
TEST(RequestTest, ProfileAccess) {
    Built add = build(MRC_CMD_EVPROF_NEW, false, build_evprof,
                      parse("evprofile add dev mrc0 id 4 mode explicit fmt 0 ev 0xc0010000 "
                            "access group gid 4242"));
    EXPECT_EQ(add.attrs,
              Attrs()
                  .str(MRC_ATTR_DEV_NAME, "mrc0")
                  .u64(MRC_ATTR_PROF_ID, 4)
                  .nest(MRC_ATTR_EVPROF,
                        Attrs().u8(MRC_EVPROF_MODE, MRC_EV_MODE_EXPLICIT).u64(MRC_EVPROF_FMT_ID, 0))
                  .nest(MRC_ATTR_EVS,
                        Attrs().nest(MRC_ATTR_EV_ENTRY, Attrs()
                                                            .u32(MRC_EV_INDEX, 0)
                                                            .raw(MRC_EV_VALUE, {0xc0, 1, 0, 0})
                                                            .u8(MRC_EV_PORT, 1)))
                  .u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_GROUP)
                  .u32(MRC_ATTR_PROF_ACCESS_GID, 4242)
                  .bytes());
    Built set = build(MRC_CMD_EVPROF_SET, false, build_evprof,
                      parse("evprofile set dev mrc0 id 4 access admin state online"));
    EXPECT_EQ(set.attrs, Attrs()
                             .str(MRC_ATTR_DEV_NAME, "mrc0")
                             .u64(MRC_ATTR_PROF_ID, 4)
                             .u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_ADMIN)
                             .u8(MRC_ATTR_PROF_STATE, MRC_PROF_ONLINE)
                             .bytes());
    const std::pair<const char*, uint8_t> rules[] = {{"if-default", MRC_PROF_ACCESS_IF_DEFAULT},
                                                     {"open", MRC_PROF_ACCESS_OPEN},
                                                     {"admin", MRC_PROF_ACCESS_ADMIN}};
    for (const auto& [word, value] : rules) {
        Built cc = build(MRC_CMD_CCPROF_SET, false, build_ccprof,
                         parse(std::string("ccprofile set dev mrc0 id 3 access ") + word));
        EXPECT_EQ(cc.attrs, Attrs()
                                .str(MRC_ATTR_DEV_NAME, "mrc0")
                                .u64(MRC_ATTR_PROF_ID, 3)
                                .u8(MRC_ATTR_PROF_ACCESS, value)
                                .bytes())
            << word;
    }
}

TEST(RequestTest, Probe) {
    Built p = build(MRC_CMD_PROBE, false, build_probe,
                    parse("probe dev mrc0 to ::1 evprofile 3 index 9 tc 8 timeout 2ms count 2"));
    Bytes gid(16, 0);
    gid[15] = 1;
    auto entry = [&](uint16_t id) {
        return Attrs()
            .u16(MRC_PROBE_REQ_ID, id)
            .raw(MRC_PROBE_DGID, gid)
            .u64(MRC_PROBE_PROF_ID, 3)
            .u32(MRC_PROBE_EV_INDEX, 9);
    };
    EXPECT_EQ(
        p.attrs,
        Attrs()
            .str(MRC_ATTR_DEV_NAME, "mrc0")
            .u64(MRC_ATTR_PROBE_TIMEOUT_NS, 2000000)
            .u8(MRC_ATTR_PROBE_TCLASS, 8)
            .nest(MRC_ATTR_PROBES,
                  Attrs().nest(MRC_ATTR_PROBE_ENTRY, entry(1)).nest(MRC_ATTR_PROBE_ENTRY, entry(2)))
            .bytes());
    Built v = build(MRC_CMD_PROBE, false, build_probe, parse("probe dev mrc0 to ::1 ev 0x1234"));
    EXPECT_EQ(v.attrs, Attrs()
                           .str(MRC_ATTR_DEV_NAME, "mrc0")
                           .nest(MRC_ATTR_PROBES,
                                 Attrs().nest(MRC_ATTR_PROBE_ENTRY,
                                              Attrs()
                                                  .u16(MRC_PROBE_REQ_ID, 1)
                                                  .raw(MRC_PROBE_DGID, gid)
                                                  .raw(MRC_PROBE_EV_VALUE, {0, 0, 0x12, 0x34})))
                           .bytes());
    Built s = build(MRC_CMD_PROBE, false, build_probe,
                    parse("probe dev mrc0 to ::1 ev 0x11234 mode stev"));
    EXPECT_EQ(s.attrs, Attrs()
                           .str(MRC_ATTR_DEV_NAME, "mrc0")
                           .nest(MRC_ATTR_PROBES,
                                 Attrs().nest(MRC_ATTR_PROBE_ENTRY,
                                              Attrs()
                                                  .u16(MRC_PROBE_REQ_ID, 1)
                                                  .raw(MRC_PROBE_DGID, gid)
                                                  .raw(MRC_PROBE_EV_VALUE, {0, 1, 0x12, 0x34})
                                                  .u8(MRC_PROBE_FMT_MODE, MRC_FMT_STEV)))
                           .bytes());
}

}  // namespace
}  // namespace mrc_ip

namespace mrc_ip {
namespace {

// Offset of the first attribute of type `type` at nesting depth `depth` in
// msg, found by walking it independently of attr_path_at().
uint32_t offset_of(nl_msg* msg, const std::vector<int>& path) {
    nlmsghdr* nlh = nlmsg_hdr(msg);
    const char* base = reinterpret_cast<const char*>(nlh);
    uint32_t pos = NLMSG_HDRLEN + GENL_HDRLEN;
    uint32_t end = nlh->nlmsg_len;
    for (std::size_t d = 0; d < path.size();) {
        const auto* a = reinterpret_cast<const nlattr*>(base + pos);
        if ((a->nla_type & NLA_TYPE_MASK) == path[d]) {
            if (++d == path.size()) {
                return pos;
            }
            end = pos + a->nla_len;
            pos += NLA_HDRLEN;
            continue;
        }
        pos += NLA_ALIGN(a->nla_len);
        EXPECT_LT(pos, end);
        if (pos >= end) {
            return 0;
        }
    }
    return 0;
}

NlMsgPtr built(void (*fn)(nl_msg*, const Command&), const std::string& line) {
    NlMsgPtr m = new_mrc_request(kFamily, MRC_CMD_DEV_SET, false);
    fn(m.get(), parse(line));
    return m;
}

TEST(ExtackOffsetTest, NamesTheBadAttribute) {
    NlMsgPtr m = built(build_dev_set, "port set mrc0 down");
    Status st;
    st.bad_offset = static_cast<int>(offset_of(m.get(), {MRC_ATTR_PORT_ADMIN}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(m.get())), "attribute port_admin");

    NlMsgPtr f = built(build_evfmt, "evfmt add dev m mode stev fields 20,12");
    st.bad_offset = static_cast<int>(
        offset_of(f.get(), {MRC_ATTR_EVFMT, MRC_EVFMT_FIELDS, MRC_EVFMT_FIELD_WIDTH}));
    EXPECT_EQ(attr_path_at(nlmsg_hdr(f.get()), static_cast<uint32_t>(st.bad_offset)),
              (std::vector<int>{MRC_ATTR_EVFMT, MRC_EVFMT_FIELDS, MRC_EVFMT_FIELD_WIDTH}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(f.get())), "attribute evfmt field_width");

    NlMsgPtr p = built(build_evprof, "evprofile add dev m mode generated fmt 1 field 8:0:0:1:1");
    st.bad_offset = static_cast<int>(offset_of(
        p.get(), {MRC_ATTR_EVPROF, MRC_EVPROF_FIELDS, MRC_EVPROF_FIELD, MRC_EVFIELD_MASK}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(p.get())), "attribute evprof field mask");

    NlMsgPtr c = built(build_ccprof, "ccprofile add dev m alg mrc-window gamma 0.5");
    st.bad_offset = static_cast<int>(
        offset_of(c.get(), {MRC_ATTR_CCPROF, MRC_CCPROF_PARAMS, MRC_CC_NSCC_GAMMA_Q16}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(c.get())), "attribute gamma");

    NlMsgPtr e = built(build_ev_set, "evprofile deny dev m id 1 index 3-4");
    st.bad_offset = static_cast<int>(offset_of(e.get(), {MRC_ATTR_EVS, MRC_ATTR_EV_ENTRY}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(e.get())), "attribute ev_entry");

    // An offset between attributes, or past the end, names nothing.
    st.bad_offset = static_cast<int>(offset_of(m.get(), {MRC_ATTR_PORT_ADMIN})) + 2;
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(m.get())), "");
    st.bad_offset = 1 << 20;
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(m.get())), "");
    EXPECT_TRUE(attr_path_at(nullptr, 20).empty());
}

TEST(ExtackOffsetTest, NamesTheMissingAttribute) {
    NlMsgPtr m = built(build_dev_set, "dev set mrc0 evprofile 1");
    Status st;
    st.miss_type = MRC_ATTR_DEV_NAME;
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(m.get())), "missing attribute dev_name");
    NlMsgPtr f = built(build_evfmt, "evfmt add dev m mode stev fields 20");
    st.miss_type = MRC_EVFMT_MODE;
    st.miss_nest = static_cast<int>(offset_of(f.get(), {MRC_ATTR_EVFMT}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(f.get())), "missing attribute evfmt mode");
    NlMsgPtr e = built(build_ev_set, "evprofile deny dev m id 1 index 3");
    st.miss_type = MRC_EV_STATE;
    st.miss_nest = static_cast<int>(offset_of(e.get(), {MRC_ATTR_EVS, MRC_ATTR_EV_ENTRY}));
    EXPECT_EQ(describe_attrs(st, nlmsg_hdr(e.get())), "missing attribute ev state");
}

}  // namespace
}  // namespace mrc_ip
