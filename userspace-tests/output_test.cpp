// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Text against JSON: each reply kind is parsed, printed both ways, the JSON
// parsed back with nlohmann and compared field by field with the words of
// the text output of the same reply.
#include "output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "mrc-genl.h"
#include "reply_builder.h"

namespace mrc_ip {
namespace {

using nlohmann::json;
using test::ReplyBuilder;

std::string text_of(const std::vector<Record>& recs, bool table = false, int stats = 0) {
    std::ostringstream out;
    OutputOptions o;
    o.stats = stats;
    table ? print_table(out, recs, o) : print_records(out, recs, o);
    return out.str();
}

json json_of(const std::vector<Record>& recs, bool table = false, bool pretty = false) {
    std::ostringstream out;
    OutputOptions o;
    o.json = true;
    o.pretty = pretty;
    table ? print_table(out, recs, o) : print_records(out, recs, o);
    return json::parse(out.str());
}

std::vector<std::string> split(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) {
        w.push_back(s);
    }
    return w;
}

std::string scalar(const json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// One text line of "[NAME:] key value ..." against one JSON object.
void expect_line_matches(const std::string& line, const json& obj, const std::string& heading) {
    std::vector<std::string> w = split(line);
    std::size_t i = 0;
    std::vector<std::string> keys;
    if (!heading.empty()) {
        ASSERT_FALSE(w.empty());
        EXPECT_EQ(w[0], scalar(obj.at(heading)) + ":");
        keys.push_back(heading);
        i = 1;
    }
    for (; i + 1 < w.size() + 1 && i < w.size(); i += 2) {
        ASSERT_LT(i + 1, w.size()) << line;
        ASSERT_TRUE(obj.contains(w[i])) << w[i] << " missing in JSON " << obj.dump();
        EXPECT_EQ(scalar(obj.at(w[i])), w[i + 1]) << w[i];
        keys.push_back(w[i]);
    }
    std::vector<std::string> json_keys;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        json_keys.push_back(it.key());
    }
    std::sort(keys.begin(), keys.end());
    std::sort(json_keys.begin(), json_keys.end());
    EXPECT_EQ(keys, json_keys) << line;
}

void expect_same(const std::vector<Record>& recs) {
    std::vector<std::string> lines;
    std::istringstream in(text_of(recs));
    for (std::string l; std::getline(in, l);) {
        lines.push_back(l);
    }
    json j = json_of(recs);
    ASSERT_TRUE(j.is_array());
    ASSERT_EQ(j.size(), lines.size());
    EXPECT_EQ(json_of(recs, false, true), j);  // -p changes layout only
    for (std::size_t i = 0; i < lines.size(); ++i) {
        expect_line_matches(lines[i], j[i], recs[i].heading_key);
    }
}

MrcDevice device() {
    ReplyBuilder r(MRC_CMD_DEV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_DEV_INDEX, 3).str(MRC_ATTR_NETDEV_NAME, "veth0");
    r.u32(MRC_ATTR_NETDEV_IFINDEX, 5).u16(MRC_ATTR_UDP_PORT, 4792);
    r.u8(MRC_ATTR_PORT_STATE, MRC_PORT_STATE_ACTIVE).u32(MRC_ATTR_ACTIVE_MTU, 1024);
    r.u32(MRC_ATTR_CTL_API_VERSION, MRC_CTL_API_VERSION).u32(MRC_ATTR_DEV_CAPS, 0x34);
    r.u64(MRC_ATTR_DEV_DEFAULT_EVPROF, 0).u64(MRC_ATTR_DEV_DEFAULT_CCPROF, 0);
    r.u8(MRC_ATTR_PORT_ADMIN, MRC_PORT_ADMIN_ENABLED);
    r.begin(MRC_ATTR_DEV_LIMITS).u32(MRC_LIMIT_EV_PROFILES, 256).u32(MRC_LIMIT_EV_WIDTH, 32).end();
    // As mrc_ccprof_put_algs() lays them out.
    r.begin(MRC_ATTR_DEV_CC_ALGS);
    r.begin(MRC_ATTR_CC_ALG_ENTRY).begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, "mrc-window").end();
    r.flag(MRC_ATTR_CC_ALG_RUNNABLE).end();
    r.begin(MRC_ATTR_CC_ALG_ENTRY).begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, "uet-1.0-nscc");
    r.end().end().end();
    std::string why;
    auto d = parse_dev_reply(r.hdr(), &why);
    EXPECT_TRUE(d) << why;
    return d.value_or(MrcDevice{});
}

TEST(OutputTest, DevShowKeepsItsTextAndJson) {
    MrcDevice d = device();
    // The VM tests (link_basic, link_netns) match these.
    MrcDevice v1;
    v1.name = "mrc0";
    v1.netdev = "veth0";
    v1.netdev_ifindex = 5;
    v1.udp_port = 4792;
    v1.state = "ACTIVE";
    v1.mtu = 1024;
    EXPECT_EQ(text_of({device_record(v1, false)}),
              "mrc0: netdev veth0 ifindex 5 udp_port 4792 state ACTIVE mtu 1024\n");
    std::ostringstream j;
    print_records(j, {device_record(v1, false)}, {true, false, 0, false});
    EXPECT_EQ(j.str(),
              "[{\"ifname\":\"mrc0\",\"netdev\":\"veth0\",\"ifindex\":5,\"udp_port\":4792,"
              "\"state\":\"ACTIVE\",\"mtu\":1024}]\n");
    expect_same({device_record(d, false), device_record(v1, false)});
    expect_same({device_record(d, true)});
    json det = json_of({device_record(d, true)});
    EXPECT_EQ(det[0]["api"], "1.0.1");
    EXPECT_EQ(det[0]["caps"], "0x34");
    EXPECT_EQ(det[0]["max_ev_profiles"], 256);
    EXPECT_EQ(det[0]["cc_algs"], "mrc-window,uet-1.0-nscc");
    EXPECT_EQ(det[0]["cc_runnable"], "mrc-window");
    EXPECT_FALSE(json_of({device_record(d, false)})[0].contains("cc_algs"));  // -d only
    EXPECT_EQ(det[0]["evprofile"], 0);
}

TEST(OutputTest, PortShow) {
    std::vector<Record> r{port_record(device())};
    EXPECT_EQ(text_of(r), "mrc0: port 1 admin up state ACTIVE netdev veth0 mtu 1024\n");
    expect_same(r);
}

TEST(OutputTest, ProfilesTextMatchesJson) {
    ReplyBuilder f(MRC_CMD_EVFMT_GET);
    f.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 3).u8(MRC_ATTR_PROF_STATE, 2);
    f.u32(MRC_ATTR_PROF_NUSERS, 1).begin(MRC_ATTR_EVFMT).u8(MRC_EVFMT_MODE, MRC_FMT_STEV);
    f.begin(MRC_EVFMT_FIELDS).u8(MRC_EVFMT_FIELD_WIDTH, 20).u8(MRC_EVFMT_FIELD_WIDTH, 12);
    f.end().end();
    auto fmt = parse_evfmt_reply(f.hdr());
    ASSERT_TRUE(fmt);
    std::vector<Record> fr{evfmt_record(*fmt)};
    EXPECT_EQ(text_of(fr), "dev mrc0 id 3 state online mode stev fields 20,12 users 1\n");
    expect_same(fr);
    json fj = json_of(fr);
    EXPECT_TRUE(fj[0]["id"].is_number_unsigned());
    EXPECT_EQ(fj[0]["state"], "online");

    ReplyBuilder p(MRC_CMD_EVPROF_GET);
    p.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 0xffffffffffffffffull);
    p.u8(MRC_ATTR_PROF_STATE, 1).begin(MRC_ATTR_EVPROF).u8(MRC_EVPROF_MODE, 2);
    p.u64(MRC_EVPROF_FMT_ID, 3).u32(MRC_EVPROF_COUNT, 64).u32(MRC_EVPROF_MIN_ACTIVE, 2);
    p.u32(MRC_EVPROF_EVENT_MASK, 2).u32(MRC_EVPROF_NDENIED, 0).u32(MRC_EVPROF_NBAD, 1);
    p.begin(MRC_EVPROF_FIELDS).begin(MRC_EVPROF_FIELD).u32(MRC_EVFIELD_WIDTH, 6);
    p.u32(MRC_EVFIELD_MAX, 63).u32(MRC_EVFIELD_MASK, 63).end().end().end();
    auto prof = parse_evprof_reply(p.hdr());
    ASSERT_TRUE(prof);
    std::vector<Record> pr{evprof_record(*prof)};
    EXPECT_EQ(text_of(pr),
              "dev mrc0 id 18446744073709551615 state offline mode generated fmt 3 count 64 "
              "min-active 2 events bad field0 6:0:0:63:63 denied 0 bad 1\n");
    expect_same(pr);
    // 64-bit ids stay exact.
    EXPECT_EQ(json_of(pr)[0]["id"].get<uint64_t>(), 0xffffffffffffffffull);

    ReplyBuilder c(MRC_CMD_CCPROF_GET);
    c.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).u8(MRC_ATTR_PROF_STATE, 0);
    c.begin(MRC_ATTR_CCPROF).str(MRC_CCPROF_ALG, "mrc-window").begin(MRC_CCPROF_PARAMS);
    c.u32(MRC_CC_WIN_INIT_PKTS, 32).u32(MRC_CC_WIN_QDELAY_TARGET_NS, 8000000).end().end();
    auto cc = parse_ccprof_reply(c.hdr());
    ASSERT_TRUE(cc);
    std::vector<Record> cr{ccprof_record(*cc), ccprof_record(*cc)};
    EXPECT_EQ(text_of({cr[0]}),
              "dev mrc0 id 1 state init alg mrc-window init-pkts 32 qdelay-target 8000000\n");
    expect_same(cr);
}

// The access rule ends a profile's line, as "evprofile set" takes it:
// "access group gid 4242" in text, "access" and "gid" keys in JSON.
TEST(OutputTest, ProfileAccessRule) {
    ReplyBuilder p(MRC_CMD_EVPROF_GET);
    p.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 6).u8(MRC_ATTR_PROF_STATE, 2);
    p.u32(MRC_ATTR_PROF_NUSERS, 0).u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_GROUP);
    p.u32(MRC_ATTR_PROF_ACCESS_GID, 4242);
    p.begin(MRC_ATTR_EVPROF).u8(MRC_EVPROF_MODE, MRC_EV_MODE_EXPLICIT).end();
    auto prof = parse_evprof_reply(p.hdr());
    ASSERT_TRUE(prof);
    std::vector<Record> pr{evprof_record(*prof)};
    EXPECT_EQ(text_of(pr),
              "dev mrc0 id 6 state online mode explicit users 0 access group gid 4242\n");
    expect_same(pr);
    json pj = json_of(pr);
    EXPECT_EQ(pj[0]["access"], "group");
    EXPECT_EQ(pj[0]["gid"].get<uint64_t>(), 4242u);

    ReplyBuilder c(MRC_CMD_CCPROF_GET);
    c.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 0).u8(MRC_ATTR_PROF_STATE, 2);
    c.u8(MRC_ATTR_PROF_ACCESS, MRC_PROF_ACCESS_IF_DEFAULT);
    auto cc = parse_ccprof_reply(c.hdr());
    ASSERT_TRUE(cc);
    std::vector<Record> cr{ccprof_record(*cc)};
    EXPECT_EQ(text_of(cr), "dev mrc0 id 0 state online access if-default\n");
    expect_same(cr);
    EXPECT_FALSE(json_of(cr)[0].contains("gid"));
}

std::vector<Record> ev_rows(int stats) {
    ReplyBuilder r(MRC_CMD_STATS_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 1).begin(MRC_ATTR_EVS);
    for (uint32_t i = 0; i < 3; ++i) {
        r.begin(MRC_ATTR_EV_ENTRY).u32(MRC_EV_INDEX, i);
        r.raw(MRC_EV_VALUE, std::string("\x00\x00\xc0", 3) + static_cast<char>(i));
        r.u8(MRC_EV_PORT, 1).u8(MRC_EV_STATE, i == 1 ? MRC_GENL_EV_ASSUMED_BAD : MRC_GENL_EV_GOOD);
        r.u64(MRC_EV_SRTT_NS, 10000 + i);
        r.begin(MRC_ATTR_STATS)
            .u64(MRC_STAT_A_TX_PKTS, 100 * i)
            .u64(MRC_STAT_A_TX_BYTES, 123456789012ull);
        r.u64(MRC_STAT_A_LOSS_GAP, i).u64(MRC_STAT_A_LOSS_TIMEOUT, 1);
        r.u64(MRC_STAT_A_LOSS_PROBE, 4).end();
        r.end();
    }
    r.end();
    auto t = parse_ev_table_reply(r.hdr());
    EXPECT_TRUE(t);
    std::vector<Record> rows;
    for (const EvEntry& e : t->evs) {
        rows.push_back(ev_record(e, stats));
    }
    return rows;
}

TEST(OutputTest, EvTableColumnsMatchJson) {
    for (int stats = 0; stats <= 2; ++stats) {
        std::vector<Record> rows = ev_rows(stats);
        std::istringstream in(text_of(rows, true));
        std::string header;
        std::getline(in, header);
        std::vector<std::string> cols = split(header);
        json j = json_of(rows, true);
        ASSERT_EQ(j.size(), 3u);
        std::size_t n = 0;
        for (std::string line; std::getline(in, line); ++n) {
            std::vector<std::string> cells = split(line);
            ASSERT_EQ(cells.size(), cols.size()) << line;
            ASSERT_EQ(j[n].size(), cols.size());
            for (std::size_t c = 0; c < cols.size(); ++c) {
                EXPECT_EQ(scalar(j[n].at(cols[c])), cells[c]) << cols[c];
            }
        }
        EXPECT_EQ(n, 3u);
        EXPECT_TRUE(j[1]["value"].is_string());
        EXPECT_EQ(j[1]["value"], "0x0000c001");
        EXPECT_EQ(j[1]["state"], "assumed_bad");
        if (stats == 0) {
            EXPECT_EQ(cols, (std::vector<std::string>{"index", "value", "port", "state", "sport",
                                                      "flowlabel"}));
        } else if (stats == 1) {
            EXPECT_EQ(cols, (std::vector<std::string>{"index", "value", "port", "state", "sport",
                                                      "flowlabel", "tx_pkts", "tx_bytes", "retx",
                                                      "loss", "ecn", "rtt"}));
            EXPECT_EQ(j[2]["loss"], 7);
            EXPECT_EQ(j[2]["tx_bytes"].get<uint64_t>(), 123456789012ull);
        } else {
            EXPECT_EQ(cols.size(), 6u + (MRC_STAT_A_MAX - MRC_STAT_A_TX_PKTS + 1) + 3);
            EXPECT_EQ(j[2]["loss_gap"], 2);
            EXPECT_EQ(j[2]["loss_timeout"], 1);
            EXPECT_EQ(j[2]["loss_probe"], 4);
        }
    }
    // Columns are aligned: every line puts "value" at the same offset.
    std::istringstream in(text_of(ev_rows(1), true));
    std::string header;
    std::getline(in, header);
    for (std::string line; std::getline(in, line);) {
        EXPECT_EQ(line.find("0x"), header.find("value"));
    }
}

// SRv6 EVs: the value is the address, and "via" names the uplink (ifindex
// 1 is lo in any namespace; an unknown index reads ifN, none "-").
TEST(OutputTest, Srv6EvRowsNameTheirUplink) {
    ReplyBuilder r(MRC_CMD_EVPROF_EV_GET);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_PROF_ID, 7).begin(MRC_ATTR_EVS);
    const uint32_t uplinks[] = {1, 0x7ffffff0, 0};
    for (uint32_t i = 0; i < 3; ++i) {
        std::string addr(16, '\0');
        addr[0] = '\xfc';
        addr[1] = static_cast<char>(i);
        r.begin(MRC_ATTR_EV_ENTRY).u32(MRC_EV_INDEX, i).raw(MRC_EV_VALUE, addr);
        if (uplinks[i] != 0) {
            r.u32(MRC_EV_WIRE_IFINDEX, uplinks[i]);
        }
        r.end();
    }
    r.end();
    auto t = parse_ev_table_reply(r.hdr());
    ASSERT_TRUE(t);
    std::vector<Record> rows;
    for (const EvEntry& e : t->evs) {
        rows.push_back(ev_record(e, 0));
    }
    json j = json_of(rows, true);
    ASSERT_EQ(j.size(), 3u);
    EXPECT_EQ(j[0]["value"], "fc00::");
    EXPECT_EQ(j[0]["via"], "lo");
    EXPECT_EQ(j[1]["via"], "if2147483632");
    EXPECT_EQ(j[2]["via"], "-");
    std::istringstream in(text_of(rows, true));
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(split(header).back(), "via");
}

TEST(OutputTest, EventLinesAreJsonLines) {
    ReplyBuilder r(MRC_CMD_EV_EVENT);
    r.str(MRC_ATTR_DEV_NAME, "mrc0").u32(MRC_ATTR_QPN, 0x12).u64(MRC_ATTR_PROF_ID, 1);
    r.begin(MRC_ATTR_EV_ENTRY)
        .u32(MRC_EV_INDEX, 3)
        .raw(MRC_EV_VALUE, std::string("\0\0\xc0\x03", 4));
    r.u8(MRC_EV_STATE, MRC_GENL_EV_ASSUMED_BAD).end();
    r.u8(MRC_ATTR_EV_OLD_STATE, 0).u8(MRC_ATTR_EV_REASON, MRC_EV_REASON_LOSS_TIMEOUT);
    r.u64(MRC_ATTR_EV_TIME, 1700000000000000000ull);
    auto ev = parse_event(r.hdr());
    ASSERT_TRUE(ev);
    Record rec = event_record(*ev);
    std::ostringstream text;
    print_line(text, rec, false);
    EXPECT_EQ(text.str(),
              "dev mrc0 qpn 0x12 evprofile 1 index 3 value 0x0000c003 old good state assumed_bad "
              "reason loss_timeout time 1700000000000000000\n");
    std::ostringstream jl;
    print_line(jl, rec, true);
    print_line(jl, rec, true);
    std::istringstream in(jl.str());
    int n = 0;
    for (std::string line; std::getline(in, line); ++n) {
        json j = json::parse(line);
        EXPECT_TRUE(j.is_object());
        expect_line_matches(
            split(text.str()).empty() ? "" : text.str().substr(0, text.str().size() - 1), j, "");
    }
    EXPECT_EQ(n, 2);
}

TEST(OutputTest, QpCongestionControl) {
    QpCc cc{"uet-1.0-nscc",
            {{MRC_QP_CC_CWND_PKTS, 64}, {MRC_QP_CC_ACKED_BYTES, 400000}, {MRC_QP_CC_ECN_BYTES, 1000}}};
    std::vector<Record> r{qp_cc_record(cc)};
    EXPECT_EQ(text_of(r),
              "cc uet-1.0-nscc cwnd_pkts 64 acked_bytes 400000 ecn_bytes 1000 ecn_ppm 2500\n");
    expect_same(r);
    QpCc win{"mrc-window", {{MRC_QP_CC_CWND_PKTS, 32}}};
    EXPECT_EQ(text_of({qp_cc_record(win)}), "cc mrc-window cwnd_pkts 32\n");
}

TEST(OutputTest, ProbeResults) {
    std::vector<Record> r{probe_record({1, 8500, 1, false}), probe_record({2, {}, {}, true})};
    EXPECT_EQ(text_of(r), "probe 1 result ok rtt 8500 port 1\nprobe 2 result timeout\n");
    expect_same(r);
}

// Reverses escaped(): "\\" is a backslash, "\xNN" the byte NN.
std::string unescaped(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\') {
            out += s[i];
        } else if (s.at(i + 1) == '\\') {
            out += '\\';
            i += 1;
        } else {
            EXPECT_EQ(s.at(i + 1), 'x') << s;
            out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
            i += 3;
        }
    }
    return out;
}

TEST(OutputTest, EscapedKeepsUtf8AndEscapesTheRest) {
    struct Case {
        std::string in, json, text;
    };
    const Case cases[] = {
        {"mrc0", "mrc0", "mrc0"},
        {"", "", ""},
        {"x\xffy", "x\\xffy", "x\\xffy"},               // not UTF-8
        {"a\\xffb", "a\\\\xffb", "a\\\\xffb"},          // a real backslash
        {"caf\xc3\xa9", "caf\xc3\xa9", "caf\xc3\xa9"},  // U+00E9
        {"\xe2\x82\xac\xf0\x9f\x98\x80", "\xe2\x82\xac\xf0\x9f\x98\x80",
         "\xe2\x82\xac\xf0\x9f\x98\x80"},                                      // U+20AC, U+1F600
        {"\xc0\xaf", "\\xc0\\xaf", "\\xc0\\xaf"},                              // overlong '/'
        {"\xe0\x80\xaf", "\\xe0\\x80\\xaf", "\\xe0\\x80\\xaf"},                // overlong
        {"\xed\xa0\x80", "\\xed\\xa0\\x80", "\\xed\\xa0\\x80"},                // surrogate
        {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "\\xf4\\x90\\x80\\x80"},  // > U+10FFFF
        {"\xf5\x80", "\\xf5\\x80", "\\xf5\\x80"},
        {"ab\xe2\x82", "ab\\xe2\\x82", "ab\\xe2\\x82"},  // cut short at the end
        {"\xe2(\xa1", "\\xe2(\\xa1", "\\xe2(\\xa1"},     // bad continuation
        {"a\x1b[2Jb", "a\x1b[2Jb", "a\\x1b[2Jb"},        // terminal escape
        {"x\ny\tz", "x\ny\tz", "x\\x0ay\\x09z"},
        {std::string("n\0l", 3), std::string("n\0l", 3), "n\\x00l"},
        {"del\x7f", "del\x7f", "del\\x7f"},
        {"c1\xc2\x9b", "c1\xc2\x9b", "c1\\xc2\\x9b"},      // U+009B, C1 CSI
        {"nbsp\xc2\xa0", "nbsp\xc2\xa0", "nbsp\xc2\xa0"},  // U+00A0 is printable
        {"two words", "two words", "two\\x20words"},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(escaped(c.in, Escape::json), c.json) << c.in;
        EXPECT_EQ(escaped(c.in, Escape::text), c.text) << c.in;
        EXPECT_EQ(unescaped(escaped(c.in, Escape::text)), c.in) << c.in;
        EXPECT_EQ(unescaped(escaped(c.in, Escape::json)), c.in) << c.in;
        // What JSON gets is always something nlohmann can dump.
        EXPECT_NO_THROW(json(escaped(c.in, Escape::json)).dump()) << c.in;
    }
}

// A network device may be called anything but '/', ':' and white space:
// a name that is not UTF-8 must not abort -j (nlohmann throws on it), and
// control characters must not reach the terminal.
TEST(OutputTest, NamesThatAreNotUtf8OrHoldControlCharacters) {
    MrcDevice d;
    d.name = "mrc\x01";
    d.netdev = "x\xffy";
    d.netdev_ifindex = 7;
    d.state = "ACTIVE";
    std::vector<Record> r{device_record(d, false), port_record(d)};

    std::ostringstream j;
    ASSERT_NO_THROW(print_records(j, r, {true, false, 0, false}));
    json parsed = json::parse(j.str());
    EXPECT_EQ(parsed[0]["ifname"], "mrc\x01");  // JSON escapes it itself
    EXPECT_EQ(parsed[0]["netdev"], "x\\xffy");
    EXPECT_EQ(unescaped(parsed[1]["netdev"].get<std::string>()), "x\xffy");
    std::ostringstream jp;
    ASSERT_NO_THROW(print_records(jp, r, {true, true, 0, false}));
    EXPECT_EQ(json::parse(jp.str()), parsed);
    std::ostringstream line;
    ASSERT_NO_THROW(print_line(line, r[0], true));
    EXPECT_EQ(json::parse(line.str()), parsed[0]);

    EXPECT_EQ(text_of(r),
              "mrc\\x01: netdev x\\xffy ifindex 7 state ACTIVE\n"
              "mrc\\x01: port 1 state ACTIVE netdev x\\xffy\n");
    std::ostringstream tl;
    print_line(tl, r[1], false);
    EXPECT_EQ(tl.str(), "mrc\\x01: port 1 state ACTIVE netdev x\\xffy\n");
}

// Rows of a table need not have the same keys: each lines up under its
// own, a missing one reads "-", whichever row comes first.
TEST(OutputTest, TableRowsOfDifferentLengths) {
    Record shortrow;
    shortrow.add("index", uint64_t{1});
    shortrow.add("value", std::string("0x01"));
    Record longrow;
    longrow.add("index", uint64_t{22});
    longrow.add("value", std::string("fc00::1"));
    longrow.add("via", std::string("x\xffy"));
    Record other;
    other.add("index", uint64_t{3});
    other.add("rtt", uint64_t{12345});
    Record empty;

    EXPECT_EQ(text_of({longrow, shortrow, other, empty}, true),
              "index  value    via     rtt\n"
              "22     fc00::1  x\\xffy  -\n"
              "1      0x01     -       -\n"
              "3      -        -       12345\n"
              "-      -        -       -\n");
    EXPECT_EQ(text_of({shortrow, longrow}, true),
              "index  value    via\n"
              "1      0x01     -\n"
              "22     fc00::1  x\\xffy\n");
    json j = json_of({shortrow, longrow, empty}, true);
    EXPECT_FALSE(j[0].contains("via"));
    EXPECT_EQ(j[1]["via"], "x\\xffy");
    EXPECT_EQ(j[2], json::object());
}

TEST(OutputTest, EmptyListsAreEmpty) {
    EXPECT_EQ(text_of({}), "");
    EXPECT_EQ(json_of({}), json::array());
    EXPECT_EQ(text_of({}, true), "");
}

}  // namespace
}  // namespace mrc_ip
