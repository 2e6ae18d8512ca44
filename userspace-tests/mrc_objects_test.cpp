// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The reply parsers of the version-2 objects, fed with messages built by
// libnl as the kernel lays them out (genlmsg_put, nla_put_*, nests).
#include "names.h"

#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "genl_socket.h"
#include "mrc-genl.h"
#include "reply_builder.h"

namespace mrc_ip {
namespace {

using test::ReplyBuilder;

TEST(EvfmtReplyTest, Full) {
    ReplyBuilder r(MRC_CMD_EVFMT_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0")
        .u64(MRC_ATTR_PROF_ID, 3)
        .u8(MRC_ATTR_PROF_STATE, MRC_PROF_ONLINE);
    r.u32(MRC_ATTR_PROF_NUSERS, 2);
    r.begin(MRC_ATTR_EVFMT).u8(MRC_EVFMT_MODE, MRC_FMT_STEV);
    r.begin(MRC_EVFMT_FIELDS)
        .u8(MRC_EVFMT_FIELD_WIDTH, 20)
        .u8(MRC_EVFMT_FIELD_WIDTH, 12)
        .end()
        .end();
    std::string why;
    auto f = parse_evfmt_reply(r.hdr(), &why);
    ASSERT_TRUE(f) << why;
    EXPECT_EQ(f->dev, "mrc0");
    EXPECT_EQ(f->id, 3u);
    EXPECT_EQ(f->state, MRC_PROF_ONLINE);
    EXPECT_EQ(f->mode, MRC_FMT_STEV);
    EXPECT_EQ(f->widths, (std::vector<uint32_t>{20, 12}));
    EXPECT_EQ(f->nusers, 2u);
}

TEST(EvfmtReplyTest, RejectsWhatIsMalformed) {
    std::string why;
    ReplyBuilder no_id(MRC_CMD_EVFMT_GET);
    no_id.str(MRC_ATTR_DEV_NAME, "mrc0");
    EXPECT_FALSE(parse_evfmt_reply(no_id.hdr(), &why));
    EXPECT_EQ(why, "no device name or profile id");

    ReplyBuilder short_id(MRC_CMD_EVFMT_GET);
    short_id.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_PROF_ID, 3);
    EXPECT_FALSE(parse_evfmt_reply(short_id.hdr(), &why));
    EXPECT_EQ(why, "attribute of the wrong size");

    ReplyBuilder unterminated(MRC_CMD_EVFMT_GET);
    unterminated.raw(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 3);
    EXPECT_FALSE(parse_evfmt_reply(unterminated.hdr(), &why));
    EXPECT_EQ(why, "unterminated string");

    ReplyBuilder wide(MRC_CMD_EVFMT_GET);
    wide.str(MRC_ATTR_DEV_NAME, "m").u64(MRC_ATTR_PROF_ID, 1);
    wide.begin(MRC_ATTR_EVFMT).u32(MRC_EVFMT_MODE, 0).end();
    EXPECT_FALSE(parse_evfmt_reply(wide.hdr(), &why));

    EXPECT_FALSE(parse_evfmt_reply(nullptr, &why));
    EXPECT_EQ(why, "truncated message");

    // Unknown attributes (a newer kernel's) are ignored.
    ReplyBuilder newer(MRC_CMD_EVFMT_GET);
    newer.str(MRC_ATTR_DEV_NAME, "m").u64(MRC_ATTR_PROF_ID, 1).u32(MRC_ATTR_MAX, 9);
    EXPECT_TRUE(parse_evfmt_reply(newer.hdr(), &why)) << why;
}

TEST(EvprofReplyTest, FullWithUsers) {
    ReplyBuilder r(MRC_CMD_EVPROF_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc1").u64(MRC_ATTR_PROF_ID, 0x100).u8(MRC_ATTR_PROF_STATE, 1);
    r.u32(MRC_ATTR_PROF_NUSERS, 70);
    r.begin(MRC_ATTR_PROF_USERS).u32(MRC_ATTR_QPN, 0x12).u32(MRC_ATTR_QPN, 0x9a).end();
    r.flag(MRC_ATTR_PROF_USERS_MORE);
    r.begin(MRC_ATTR_EVPROF)
        .u8(MRC_EVPROF_MODE, MRC_EV_MODE_GENERATED)
        .u64(MRC_EVPROF_FMT_ID, 2)
        .u32(MRC_EVPROF_COUNT, 64)
        .u32(MRC_EVPROF_MIN_ACTIVE, 4)
        .u32(MRC_EVPROF_EVENT_MASK, 3)
        .u32(MRC_EVPROF_NDENIED, 1)
        .u32(MRC_EVPROF_NBAD, 2);
    r.begin(MRC_EVPROF_FIELDS).begin(MRC_EVPROF_FIELD);
    r.u32(MRC_EVFIELD_WIDTH, 8).u32(MRC_EVFIELD_INIT, 1).u32(MRC_EVFIELD_MIN, 2);
    r.u32(MRC_EVFIELD_MAX, 63).u32(MRC_EVFIELD_MASK, 0xff).end().end().end();
    std::string why;
    auto p = parse_evprof_reply(r.hdr(), &why);
    ASSERT_TRUE(p) << why;
    EXPECT_EQ(p->dev, "mrc1");
    EXPECT_EQ(p->id, 0x100u);
    EXPECT_EQ(p->state, MRC_PROF_OFFLINE);
    EXPECT_EQ(p->nusers, 70u);
    EXPECT_EQ(p->users, (std::vector<uint32_t>{0x12, 0x9a}));
    EXPECT_TRUE(p->users_more);
    EXPECT_EQ(p->mode, MRC_EV_MODE_GENERATED);
    EXPECT_EQ(p->fmt_id, 2u);
    EXPECT_EQ(p->count, 64u);
    EXPECT_EQ(p->min_active, 4u);
    EXPECT_EQ(p->event_mask, 3u);
    EXPECT_EQ(p->ndenied, 1u);
    EXPECT_EQ(p->nbad, 2u);
    ASSERT_EQ(p->fields.size(), 1u);
    EXPECT_EQ(p->fields[0].width, 8u);
    EXPECT_EQ(p->fields[0].init, 1u);
    EXPECT_EQ(p->fields[0].min, 2u);
    EXPECT_EQ(p->fields[0].max, 63u);
    EXPECT_EQ(p->fields[0].mask, 0xffu);
}

TEST(CcprofReplyTest, AlgorithmAndParameters) {
    ReplyBuilder r(MRC_CMD_CCPROF_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).u8(MRC_ATTR_PROF_STATE, 2);
    r.begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, "uet-1.0-nscc");
    r.begin(MRC_CCPROF_PARAMS).u8(MRC_CC_NSCC_QA_GATE, 3).u32(MRC_CC_NSCC_GAMMA_Q16, 32768);
    r.end().end();
    std::string why;
    auto c = parse_ccprof_reply(r.hdr(), &why);
    ASSERT_TRUE(c) << why;
    EXPECT_EQ(c->alg, "uet-1.0-nscc");
    ASSERT_EQ(c->params.size(), 2u);
    EXPECT_EQ(c->params[0], std::make_pair(int{MRC_CC_NSCC_QA_GATE}, uint64_t{3}));
    EXPECT_EQ(c->params[1], std::make_pair(int{MRC_CC_NSCC_GAMMA_Q16}, uint64_t{32768}));
    EXPECT_EQ(cc_param_name(MRC_CC_NSCC_QA_GATE), "qa-gate");
    EXPECT_EQ(cc_param_name(MRC_CC_WIN_QDELAY_TARGET_NS), "qdelay-target");
}

TEST(ProfileAccessReplyTest, RuleAndGroup) {
    ReplyBuilder r(MRC_CMD_CCPROF_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).u8(MRC_ATTR_PROF_STATE, 2);
    r.u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_GROUP).u32(MRC_ATTR_PROF_ACCESS_GID, 27);
    auto c = parse_ccprof_reply(r.hdr());
    ASSERT_TRUE(c);
    EXPECT_EQ(c->access, MRC_PROF_ACCESS_GROUP);
    EXPECT_EQ(c->gid, 27u);
    EXPECT_EQ(access_name(MRC_PROF_ACCESS_IF_DEFAULT), "if-default");
    EXPECT_EQ(access_name(MRC_PROF_ACCESS_OPEN), "open");
    EXPECT_EQ(access_name(MRC_PROF_ACCESS_ADMIN), "admin");
    EXPECT_EQ(access_name(MRC_PROF_ACCESS_GROUP), "group");
    EXPECT_EQ(access_name(4), "unknown(4)");

    // An older kernel sends no rule; a rule of the wrong size is refused.
    ReplyBuilder old(MRC_CMD_EVPROF_GET);
    old.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1);
    auto o = parse_evprof_reply(old.hdr());
    ASSERT_TRUE(o);
    EXPECT_FALSE(o->access);
    EXPECT_FALSE(o->gid);
    ReplyBuilder bad(MRC_CMD_EVPROF_GET);
    bad.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).u32(MRC_ATTR_PROF_ACCESS, 1);
    std::string why;
    EXPECT_FALSE(parse_evprof_reply(bad.hdr(), &why));
    EXPECT_EQ(why, "attribute of the wrong size");
}

TEST(EvTableReplyTest, EntriesWithStatsAndFirstIndex) {
    ReplyBuilder r(MRC_CMD_EVPROF_EV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).u32(MRC_ATTR_EV_FIRST, 10);
    r.begin(MRC_ATTR_EVS);
    r.begin(MRC_ATTR_EV_ENTRY).raw(MRC_EV_VALUE, std::string("\x00\x01\xc0\x00", 4));
    r.u8(MRC_EV_PORT, 1).u8(MRC_EV_STATE, MRC_GENL_EV_ASSUMED_BAD).u16(MRC_EV_WIRE_SPORT, 49152);
    r.u64(MRC_EV_SRTT_NS, 12000);
    r.begin(MRC_ATTR_STATS).u64(MRC_STAT_A_TX_PKTS, 5).u64(MRC_STAT_A_LOSS_GAP, 2).end();
    r.end();
    r.begin(MRC_ATTR_EV_ENTRY).u32(MRC_EV_INDEX, 42).u8(MRC_EV_STATE, MRC_GENL_EV_DENIED).end();
    r.end();
    std::string why;
    auto t = parse_ev_table_reply(r.hdr(), &why);
    ASSERT_TRUE(t) << why;
    EXPECT_EQ(t->prof_id, 1u);
    EXPECT_EQ(t->first, 10u);
    ASSERT_EQ(t->evs.size(), 2u);
    EXPECT_EQ(t->evs[0].index, 10u);  // from MRC_ATTR_EV_FIRST
    EXPECT_EQ(ev_value_text(t->evs[0].value), "0x0001c000");
    EXPECT_EQ(t->evs[0].state, MRC_GENL_EV_ASSUMED_BAD);
    EXPECT_EQ(t->evs[0].sport, 49152);
    EXPECT_EQ(t->evs[0].srtt_ns, 12000u);
    EXPECT_EQ(t->evs[0].stats, (std::vector<std::pair<int, uint64_t>>{{MRC_STAT_A_TX_PKTS, 5},
                                                                      {MRC_STAT_A_LOSS_GAP, 2}}));
    EXPECT_EQ(t->evs[1].index, 42u);
    EXPECT_EQ(ev_state_name(*t->evs[1].state), "denied");
}

TEST(EvTableReplyTest, QpCongestionControl) {
    ReplyBuilder r(MRC_CMD_QP_EV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_QPN, 17);
    r.begin(MRC_ATTR_QP_CC).str(MRC_QP_CC_ALG, "uet-1.0-nscc").u64(MRC_QP_CC_PROFILE, 3);
    r.u32(MRC_QP_CC_CWND_BYTES, 65536).u64(MRC_QP_CC_ECN_BYTES, 4096).end();
    std::string why;
    auto t = parse_ev_table_reply(r.hdr(), &why);
    ASSERT_TRUE(t) << why;
    EXPECT_TRUE(t->evs.empty());
    ASSERT_TRUE(t->cc);
    EXPECT_EQ(t->cc->alg, "uet-1.0-nscc");
    EXPECT_EQ(t->cc->values, (std::vector<std::pair<int, uint64_t>>{{MRC_QP_CC_PROFILE, 3},
                                                                    {MRC_QP_CC_CWND_BYTES, 65536},
                                                                    {MRC_QP_CC_ECN_BYTES, 4096}}));
    ReplyBuilder bad(MRC_CMD_QP_EV_GET);
    bad.str(MRC_ATTR_DEV_NAME, "mrc0").begin(MRC_ATTR_QP_CC).u16(MRC_QP_CC_MD_CUTS, 1).end();
    EXPECT_FALSE(parse_ev_table_reply(bad.hdr(), &why));
    EXPECT_EQ(why, "malformed QP congestion control attribute");
}

TEST(EventTest, StateChange) {
    ReplyBuilder r(MRC_CMD_EV_EVENT);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_QPN, 0x12).u64(MRC_ATTR_PROF_ID, 1);
    r.begin(MRC_ATTR_EV_ENTRY).u32(MRC_EV_INDEX, 3).u8(MRC_EV_STATE, MRC_GENL_EV_ASSUMED_BAD).end();
    r.u8(MRC_ATTR_EV_OLD_STATE, MRC_GENL_EV_GOOD).u8(MRC_ATTR_EV_REASON, MRC_EV_REASON_LOSS_SACK);
    r.u64(MRC_ATTR_EV_TIME, 1700000000123456789ull).u32(MRC_ATTR_EV_DROPPED, 0);
    std::string why;
    auto e = parse_event(r.hdr(), &why);
    ASSERT_TRUE(e) << why;
    EXPECT_EQ(e->qpn, 0x12u);
    EXPECT_EQ(e->ev.index, 3u);
    EXPECT_EQ(ev_state_name(*e->ev.state), "assumed_bad");
    EXPECT_EQ(ev_state_name(*e->old_state), "good");
    EXPECT_EQ(ev_reason_name(*e->reason), "loss_sack");
    EXPECT_EQ(e->time_ns, 1700000000123456789ull);
}

TEST(ProbeReplyTest, AnswersAndTimeouts) {
    ReplyBuilder r(MRC_CMD_PROBE);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").begin(MRC_ATTR_PROBES);
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 1).u64(MRC_PROBE_RTT_NS, 8500);
    r.u8(MRC_PROBE_PORT, 1).end();
    r.begin(MRC_ATTR_PROBE_ENTRY).u16(MRC_PROBE_REQ_ID, 2).flag(MRC_PROBE_TIMED_OUT).end().end();
    std::string why;
    auto p = parse_probe_reply(r.hdr(), &why);
    ASSERT_TRUE(p) << why;
    ASSERT_EQ(p->size(), 2u);
    EXPECT_EQ((*p)[0].req_id, 1);
    EXPECT_EQ((*p)[0].rtt_ns, 8500u);
    EXPECT_FALSE((*p)[0].timed_out);
    EXPECT_TRUE((*p)[1].timed_out);
    EXPECT_FALSE((*p)[1].rtt_ns);
}

TEST(NamesTest, EnumsAndValues) {
    EXPECT_EQ(prof_state_name(MRC_PROF_INIT), "init");
    EXPECT_EQ(prof_state_name(7), "unknown(7)");
    EXPECT_EQ(fmt_mode_name(MRC_FMT_UDP), "udp");
    EXPECT_EQ(fmt_mode_name(MRC_FMT_SRV6), "srv6");
    EXPECT_EQ(ev_mode_name(MRC_EV_MODE_AUTO), "auto");
    EXPECT_EQ(ev_state_name(MRC_GENL_EV_UNKNOWN), "unknown");
    EXPECT_EQ(ev_reason_name(MRC_EV_REASON_ADMIN_UNDENY), "admin_undeny");
    EXPECT_EQ(ev_reason_name(MRC_EV_REASON_LOSS_UNDONE), "loss_undone");
    EXPECT_EQ(ev_reason_name(MRC_EV_REASON_LOSS_PROBE), "loss_probe");
    EXPECT_EQ(stat_name(MRC_STAT_A_STATE_CHANGES), "state_changes");
    EXPECT_EQ(stat_name(MRC_STAT_A_LOSS_PROBE), "loss_probe");
    EXPECT_EQ(stat_name(MRC_STAT_A_MAX + 1), "stat" + std::to_string(MRC_STAT_A_MAX + 1));
    EXPECT_EQ(stat_name(MRC_STAT_A_TX_PKTS), "tx_pkts");
    std::vector<uint8_t> v6(16, 0);
    v6[0] = 0x20;
    v6[1] = 0x01;
    v6[15] = 1;
    EXPECT_EQ(ev_value_text(v6), "2001::1");
    std::vector<uint8_t> segs = v6;
    segs.insert(segs.end(), v6.begin(), v6.end());
    segs[16] = 0xfc;
    segs[17] = 0x00;
    EXPECT_EQ(ev_value_text(segs), "2001::1,fc00::1");
    EXPECT_EQ(ev_value_text({0xde, 0xad, 0xbe, 0xef}), "0xdeadbeef");
}

}  // namespace
}  // namespace mrc_ip
