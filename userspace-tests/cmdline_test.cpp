// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-ip's grammar (Documentation/control-plane.rst, "Grammar"): every
// object, command and keyword, prefixes and their ambiguities, help at each
// level, value syntax, and the errors that name the bad word.
#include "cmdline.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace mrc_ip {
namespace {

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) {
        w.push_back(s);
    }
    return w;
}

Command ok(const std::string& line) {
    ParseResult r = parse_command_line(words(line));
    if (const auto* e = std::get_if<ParseError>(&r)) {
        ADD_FAILURE() << line << ": " << e->message;
        return {};
    }
    return std::get<Command>(r);
}

std::string error(const std::string& line) {
    ParseResult r = parse_command_line(words(line));
    if (const auto* e = std::get_if<ParseError>(&r)) {
        return e->message;
    }
    ADD_FAILURE() << line << ": parsed";
    return "";
}

// "object command key=value ..." of a parsed command, to compare briefly.
std::string brief(const Command& c) {
    std::string s = c.object + " " + c.command;
    for (const auto& [k, a] : c.args) {
        s += " " + k;
        if (!a.word.empty()) {
            s += "=" + a.word;
        }
    }
    return s;
}

TEST(GrammarTest, EveryObjectAndCommand) {
    struct Case {
        const char* line;
        const char* expect;
    } cases[] = {
        {"dev", "dev show"},
        {"dev show", "dev show"},
        {"dev show mrc0", "dev show dev=mrc0"},
        {"dev show dev mrc0", "dev show dev=mrc0"},
        {"dev mrc0", "dev show dev=mrc0"},
        {"dev list", "dev show"},
        {"dev set mrc0 evprofile 3", "dev set dev=mrc0 evprofile=3"},
        {"dev set dev mrc0 ccprofile 0x2", "dev set ccprofile=0x2 dev=mrc0"},
        {"port", "port show"},
        {"port show mrc1", "port show dev=mrc1"},
        {"port set mrc0 up", "port set dev=mrc0 up"},
        {"port set dev mrc0 down", "port set dev=mrc0 down"},
        {"evfmt", "evfmt show"},
        {"evfmt show dev mrc0 id 1", "evfmt show dev=mrc0 id=1"},
        {"evfmt dev mrc0", "evfmt show dev=mrc0"},
        {"evfmt add dev mrc0 mode stev fields 20,12", "evfmt add dev=mrc0 fields=20,12 mode=stev"},
        {"evfmt add dev mrc0 id 5 mode udp fields 16 offline",
         "evfmt add dev=mrc0 fields=16 id=5 mode=udp offline"},
        {"evfmt set dev mrc0 id 5 state online", "evfmt set dev=mrc0 id=5 state=online"},
        {"evfmt set dev mrc0 id 5 mode srv6 fields 64,64",
         "evfmt set dev=mrc0 fields=64,64 id=5 mode=srv6"},
        {"evfmt del dev mrc0 id 5", "evfmt del dev=mrc0 id=5"},
        {"evprofile", "evprofile show"},
        {"path", "evprofile show"},
        {"path show dev mrc0 id 2 evs", "evprofile show dev=mrc0 evs id=2"},
        {"evprofile add dev mrc0 mode generated fmt 1 count 64 min-active 2 events all "
         "field 16:0:0:63:0xffff",
         "evprofile add count=64 dev=mrc0 events=all field=16:0:0:63:0xffff fmt=1 "
         "min-active=2 mode=generated"},
        {"evprofile add dev mrc0 mode explicit fmt 1 ev 0x10@1 ev 0x20 offline",
         "evprofile add dev=mrc0 ev=0x10@1 ev=0x20 fmt=1 mode=explicit offline"},
        {"evprofile set dev mrc0 id 2 min-active 4 state offline",
         "evprofile set dev=mrc0 id=2 min-active=4 state=offline"},
        {"evprofile deny dev mrc0 id 2 index 3-5 ev 0x1234",
         "evprofile deny dev=mrc0 ev=0x1234 id=2 index=3-5"},
        {"evprofile undeny dev mrc0 id 2 index 7", "evprofile undeny dev=mrc0 id=2 index=7"},
        {"evprofile replace dev mrc0 id 2 index 1 with 0x99@1 all",
         "evprofile replace all dev=mrc0 id=2 index=1 with=0x99@1"},
        {"evprofile del dev mrc0 id 2", "evprofile del dev=mrc0 id=2"},
        {"ccprofile", "ccprofile show"},
        {"ccprofile add dev mrc0 alg mrc-window init-pkts 16 qdelay-target 8ms",
         "ccprofile add alg=mrc-window dev=mrc0 init-pkts=16 qdelay-target=8ms"},
        {"ccprofile add dev mrc0 alg uet-1.0-nscc gamma 0.5 qa-gate 3 base-rtt 10us offline",
         "ccprofile add alg=uet-1.0-nscc base-rtt=10us dev=mrc0 gamma=0.5 offline qa-gate=3"},
        {"ccprofile set dev mrc0 id 1 state online", "ccprofile set dev=mrc0 id=1 state=online"},
        {"ccprofile del dev mrc0 id 1", "ccprofile del dev=mrc0 id=1"},
        {"qp show dev mrc0 qpn 0x12", "qp show dev=mrc0 qpn=0x12"},
        {"qp dev mrc0 qpn 18", "qp show dev=mrc0 qpn=18"},
        {"stats show dev mrc0 evprofile 1", "stats show dev=mrc0 evprofile=1"},
        {"stats dev mrc0 evprofile 1", "stats show dev=mrc0 evprofile=1"},
        {"monitor", "monitor "},
        {"monitor dev mrc0 evprofile 1 qpn 7", "monitor  dev=mrc0 evprofile=1 qpn=7"},
        {"probe dev mrc0 to fe80::1 ev 0x1234 tc 8 timeout 50ms count 4",
         "probe  count=4 dev=mrc0 ev=0x1234 tc=8 timeout=50ms to=fe80::1"},
        {"probe dev mrc0 to 10.0.0.2 evprofile 1 index 3",
         "probe  dev=mrc0 evprofile=1 index=3 to=10.0.0.2"},
    };
    for (const Case& c : cases) {
        Command cmd = ok(c.line);
        EXPECT_EQ(cmd.action, Action::Run) << c.line;
        EXPECT_EQ(brief(cmd), c.expect) << c.line;
    }
}

TEST(GrammarTest, PrefixesOfObjectsCommandsKeywordsAndValues) {
    EXPECT_EQ(brief(ok("d sh")), "dev show");
    EXPECT_EQ(brief(ok("d s mrc0")), "dev show dev=mrc0");
    EXPECT_EQ(brief(ok("d s d mrc0")), "dev show dev=mrc0");
    EXPECT_EQ(brief(ok("po se mrc0 u")), "port set dev=mrc0 up");
    EXPECT_EQ(brief(ok("evf a d mrc0 mo st f 16,16")), "evfmt add dev=mrc0 fields=16,16 mode=stev");
    EXPECT_EQ(brief(ok("evp s")), "evprofile show");
    EXPECT_EQ(brief(ok("pa del d m i 1")), "evprofile del dev=m id=1");
    EXPECT_EQ(brief(ok("evprofile den d m id 1 ind 2")), "evprofile deny dev=m id=1 index=2");
    EXPECT_EQ(brief(ok("evprofile set d m i 1 ev a")), "evprofile set dev=m events=all id=1");
    EXPECT_EQ(brief(ok("evprofile set d m i 1 st of")), "evprofile set dev=m id=1 state=offline");
    EXPECT_EQ(brief(ok("c a d m al u")), "ccprofile add alg=uet-1.0-nscc dev=m");
    EXPECT_EQ(brief(ok("q d m q 1")), "qp show dev=m qpn=1");
    EXPECT_EQ(brief(ok("s d m e 1")), "stats show dev=m evprofile=1");
    EXPECT_EQ(brief(ok("m")), "monitor ");
    EXPECT_EQ(brief(ok("pr d m to ::1 ev 0x1")), "probe  dev=m ev=0x1 to=::1");
}

TEST(GrammarTest, AmbiguousPrefixesListTheCandidates) {
    EXPECT_EQ(error("evprofile deny d m i 1 ind 2"), "keyword \"i\" is ambiguous: id, index");
    EXPECT_EQ(error("probe d m t ::1"), "keyword \"t\" is ambiguous: to, tc, timeout");
    EXPECT_EQ(error("e"), "object \"e\" is ambiguous: evfmt, evprofile");
    EXPECT_EQ(error("p"), "object \"p\" is ambiguous: port, path, probe");
    EXPECT_EQ(error("evprofile de dev m id 1"), "command \"de\" is ambiguous: deny, del");
    EXPECT_EQ(error("evfmt add dev m mode s fields 1"),
              "mode value \"s\" is ambiguous: stev, srv6");
    EXPECT_EQ(error("evprofile add dev x m explicit"),
              "keyword \"m\" is ambiguous: mode, min-active");
    EXPECT_EQ(error("evprofile set dev x id 1 e 1"), "events value \"1\" is unknown");
}

TEST(GrammarTest, HelpAtEveryLevel) {
    Command top = ok("help");
    EXPECT_EQ(top.action, Action::Help);
    EXPECT_EQ(top.help_text, usage_text());
    EXPECT_EQ(ok("-h").help_text, usage_text());
    for (const char* obj : {"dev", "port", "evfmt", "evprofile", "path", "ccprofile", "qp", "stats",
                            "monitor", "probe"}) {
        Command c = ok(std::string(obj) + " help");
        EXPECT_EQ(c.action, Action::Help) << obj;
        EXPECT_EQ(c.help_text.rfind("Usage: mrc-ip ", 0), 0u) << obj;
        EXPECT_NE(c.help_text.find(" help\n"), std::string::npos) << obj;
    }
    EXPECT_NE(ok("path help").help_text.find("mrc-ip evprofile deny"), std::string::npos);
    EXPECT_NE(ok("dev help").help_text.find("mrc-ip dev set [ dev ] DEV"), std::string::npos);
    // A command's help is that command's grammar only.
    Command add = ok("evfmt add help");
    EXPECT_EQ(add.help_text,
              "Usage: mrc-ip evfmt add dev DEV [ id ID ] mode { stev | udp | srv6 } "
              "fields W[,W...]\n               [ offline ]\n");
    EXPECT_EQ(ok("evprofile deny dev m help").action, Action::Help);
    EXPECT_EQ(ok("probe help").help_text.find("Usage: mrc-ip probe dev DEV to GID"), 0u);
}

TEST(GrammarTest, Options) {
    Command c = ok("-s -s -d -j -p -n blue dev");
    EXPECT_EQ(c.options.stats, 2);
    EXPECT_TRUE(c.options.details);
    EXPECT_TRUE(c.options.json);
    EXPECT_TRUE(c.options.pretty);
    EXPECT_EQ(c.options.netns, "blue");
    Command l = ok("-statistics -details -json -pretty -netns red --json dev");
    EXPECT_EQ(l.options.stats, 1);
    EXPECT_EQ(l.options.netns, "red");
    EXPECT_EQ(ok("-V").action, Action::Version);
    EXPECT_EQ(ok("-Version dev").action, Action::Version);
    Command b = ok("-force -b cmds.txt");
    EXPECT_EQ(b.action, Action::Batch);
    EXPECT_TRUE(b.options.force);
    EXPECT_EQ(b.options.batch, "cmds.txt");
    EXPECT_EQ(ok("-batch -").options.batch, "-");
    EXPECT_EQ(error("-x dev"), "option \"-x\" is unknown, try \"mrc-ip -help\"");
    EXPECT_EQ(error("-n"), "option \"-n\" needs an argument");
    EXPECT_EQ(error("-b f dev"), "argument \"dev\" after -batch FILE");
    EXPECT_EQ(error(""), "missing object, try \"mrc-ip help\"");
    EXPECT_EQ(error("-j"), "missing object, try \"mrc-ip help\"");
}

TEST(GrammarTest, ErrorsNameTheWord) {
    EXPECT_EQ(error("foo"), "object \"foo\" is unknown, try \"mrc-ip help\"");
    EXPECT_EQ(error("evfmt frob"), "command \"frob\" is unknown, try \"mrc-ip evfmt help\"");
    EXPECT_EQ(error("dev show mrc0 extra"),
              "argument \"extra\" is unknown, try \"mrc-ip dev show help\"");
    EXPECT_EQ(error("evfmt show dev"), "\"dev\" needs a value, try \"mrc-ip evfmt show help\"");
    EXPECT_EQ(error("evfmt del dev m"), "missing \"id\", try \"mrc-ip evfmt del help\"");
    EXPECT_EQ(error("evfmt show id 1 id 2"), "\"id\" given twice");
    EXPECT_EQ(error("evfmt show id x1"), "invalid number \"x1\" for \"id\"");
    EXPECT_EQ(error("evfmt show id -1"), "invalid number \"-1\" for \"id\"");
    EXPECT_EQ(error("evfmt add dev m mode udp fields 0"),
              "invalid field widths \"0\" for \"fields\"");
    EXPECT_EQ(error("evfmt add dev m mode udp fields 129"),
              "invalid field widths \"129\" for \"fields\"");
    EXPECT_EQ(error("evfmt add dev m mode xyz fields 1"), "mode value \"xyz\" is unknown");
    EXPECT_EQ(error("evfmt set dev m id 1"),
              "missing mode, fields or state, try \"mrc-ip evfmt set help\"");
    EXPECT_EQ(error("port set mrc0"), "missing up or down, try \"mrc-ip port set help\"");
    EXPECT_EQ(error("port set mrc0 up down"),
              "\"down\" conflicts with \"up\", try \"mrc-ip port set help\"");
    EXPECT_EQ(error("dev set mrc0"), "missing evprofile or ccprofile, try \"mrc-ip dev set help\"");
    EXPECT_EQ(error("evprofile add dev m mode generated fmt 1 ev 0x1"),
              "\"ev\" is for explicit profiles, try \"mrc-ip evprofile add help\"");
    EXPECT_EQ(error("evprofile add dev m mode explicit fmt 1 field 1:2:3"),
              "invalid field (W:INIT:MIN:MAX:MASK) \"1:2:3\" for \"field\"");
    EXPECT_EQ(error("evprofile deny dev m id 1"),
              "missing index or ev, try \"mrc-ip evprofile deny help\"");
    EXPECT_EQ(error("evprofile deny dev m id 1 index 5-3"),
              "invalid index range \"5-3\" for \"index\"");
    EXPECT_EQ(error("evprofile deny dev m id 1 index 4096"),
              "invalid index range \"4096\" for \"index\"");
    EXPECT_EQ(error("evprofile replace dev m id 1 index 1 ev 0x1 with 0x2"),
              "\"ev\" conflicts with \"index\", try \"mrc-ip evprofile replace help\"");
    EXPECT_EQ(error("evprofile replace dev m id 1 index 1"),
              "missing \"with\", try \"mrc-ip evprofile replace help\"");
    EXPECT_EQ(error("evprofile add dev m mode explicit fmt 1 ev 0x1@0"),
              "invalid port \"0x1@0\" for \"ev\"");
    EXPECT_EQ(error("evprofile add dev m mode explicit fmt 1 ev 0x100000000"),
              "invalid EV value \"0x100000000\" for \"ev\"");
    EXPECT_EQ(error("evprofile show evs"),
              "\"evs\" needs dev and id, try \"mrc-ip evprofile show help\"");
    EXPECT_EQ(error("ccprofile add dev m alg mrc-window gamma 0"),
              "invalid value \"0\" for \"gamma\"");
    EXPECT_EQ(error("ccprofile add dev m alg mrc-window gamma 1.5"),
              "invalid value \"1.5\" for \"gamma\"");
    EXPECT_EQ(error("ccprofile add dev m alg mrc-window base-rtt 10"),
              "invalid duration \"10\" for \"base-rtt\"");
    EXPECT_EQ(error("qp show dev m qpn 0xffffff"), "invalid number \"0xffffff\" for \"qpn\"");
    EXPECT_EQ(error("qp show dev m"), "missing \"qpn\", try \"mrc-ip qp show help\"");
    EXPECT_EQ(error("probe dev m to ::1"),
              "missing ev, or evprofile and index, try \"mrc-ip probe help\"");
    EXPECT_EQ(error("probe dev m to nowhere ev 0x1"), "invalid GID \"nowhere\" for \"to\"");
    EXPECT_EQ(error("probe dev m to ::1 ev 0x1 timeout 11s"),
              "invalid duration \"11s\" for \"timeout\"");
    EXPECT_EQ(error("probe dev m to ::1 ev 0x1 timeout 999ns"),
              "timeout \"999ns\" is below 1us, try \"mrc-ip probe help\"");
    EXPECT_EQ(error("probe dev m to ::1 ev 0x1 count 65"), "invalid number \"65\" for \"count\"");
    EXPECT_EQ(error("probe dev m to ::1 evprofile 1 index 1 mode stev"),
              "\"mode\" goes with \"ev\", try \"mrc-ip probe help\"");
    EXPECT_EQ(error("probe dev m to ::1 ev fd00::1 mode udp"),
              "ev \"fd00::1\" is not a 32-bit number (mode udp), try \"mrc-ip probe help\"");
    EXPECT_EQ(error("probe dev m to ::1 ev 1 mode srv6"),
              "ev \"1\" is not a segment list (mode srv6), try \"mrc-ip probe help\"");
    EXPECT_EQ(error("probe dev m to ::1 ev fd00::1,fd00::2,fd00::3"),
              "invalid EV value \"fd00::1,fd00::2,fd00::3\" for \"ev\"");
    EXPECT_EQ(error("probe dev m to ::1 ev 0x1 evprofile 1 index 1"),
              "\"ev\" conflicts with \"evprofile\"/\"index\", try \"mrc-ip probe help\"");
    EXPECT_EQ(error("dev show " + std::string(64, 'x')),
              "invalid device name \"" + std::string(64, 'x') + "\" for \"dev\"");
}

TEST(GrammarTest, Values) {
    Command c = ok("probe dev m to ::ffff:10.0.0.1 evprofile 0x10 index 2 timeout 1s");
    EXPECT_EQ(c.get("evprofile")->num, 16u);
    EXPECT_EQ(c.get("timeout")->num, 1000000000u);
    std::vector<uint8_t> gid(16, 0);
    gid[10] = gid[11] = 0xff;
    gid[12] = 10;
    gid[15] = 1;
    EXPECT_EQ(c.get("to")->bytes, gid);
    EXPECT_EQ(ok("probe dev m to 10.0.0.1 ev 0x1").get("to")->bytes, gid);

    Command e = ok("evprofile add dev m mode explicit fmt 1 ev 0x1234abcd@1 ev 2001:db8::1");
    auto evs = e.all("ev");
    ASSERT_EQ(evs.size(), 2u);
    EXPECT_EQ(evs[0]->bytes, (std::vector<uint8_t>{0x12, 0x34, 0xab, 0xcd}));
    EXPECT_EQ(evs[0]->port, 1);
    EXPECT_EQ(evs[1]->bytes.size(), 16u);
    EXPECT_EQ(evs[1]->bytes[0], 0x20);
    EXPECT_EQ(evs[1]->port, 0);

    // SRV6: a segment list of two, as `encap seg6 segs A,B`.
    Command s6 =
        ok("evprofile add dev m mode explicit fmt 1 ev fcbb:bb00:1001:d00b:: "
           "ev fc00:1001::e,fc00:d00b::d6@1");
    auto s6evs = s6.all("ev");
    ASSERT_EQ(s6evs.size(), 2u);
    EXPECT_EQ(s6evs[0]->bytes.size(), 16u);
    ASSERT_EQ(s6evs[1]->bytes.size(), 32u);
    EXPECT_EQ(s6evs[1]->bytes[2], 0x10);
    EXPECT_EQ(s6evs[1]->bytes[15], 0x0e);
    EXPECT_EQ(s6evs[1]->bytes[18], 0xd0);
    EXPECT_EQ(s6evs[1]->bytes[31], 0xd6);
    EXPECT_EQ(s6evs[1]->port, 1);
    EXPECT_EQ(error("evprofile add dev m mode explicit ev fc00::e,"),
              "invalid EV value \"fc00::e,\" for \"ev\"");
    EXPECT_EQ(error("evprofile add dev m mode explicit ev fc00::e,10.0.0.1"),
              "invalid EV value \"fc00::e,10.0.0.1\" for \"ev\"");

    Command r = ok("evprofile deny dev m id 1 index 3-5 index 9");
    auto idx = r.all("index");
    ASSERT_EQ(idx.size(), 2u);
    EXPECT_EQ(idx[0]->num, 3u);
    EXPECT_EQ(idx[0]->num2, 5u);
    EXPECT_EQ(idx[1]->num, 9u);
    EXPECT_EQ(idx[1]->num2, 9u);

    Command q = ok("ccprofile add dev m alg u gamma 0.5 eta 2 fi .25");
    EXPECT_EQ(q.get("gamma")->num, 32768u);
    EXPECT_EQ(q.get("eta")->num, 131072u);
    EXPECT_EQ(q.get("fi")->num, 16384u);
    EXPECT_EQ(ok("evprofile add dev m mode g fmt 1 field 8:0:1:0xff:0xff").get("field")->list,
              (std::vector<uint64_t>{8, 0, 1, 255, 255}));
}

// Who may create QPs on a profile: access RULE, and gid GROUP with group
// only; a group by number or by name (root is group 0 on every system).
TEST(GrammarTest, ProfileAccess) {
    EXPECT_EQ(brief(ok("evprofile set dev m id 2 access admin")),
              "evprofile set access=admin dev=m id=2");
    EXPECT_EQ(brief(ok("path add dev m mode e fmt 1 ev 0x1 access op")),
              "evprofile add access=open dev=m ev=0x1 fmt=1 mode=explicit");
    EXPECT_EQ(brief(ok("ccprofile set dev m id 3 access if")),
              "ccprofile set access=if-default dev=m id=3");
    Command g = ok("ccprofile add dev m alg mrc-window access group gid 4242");
    EXPECT_EQ(g.get("access")->word, "group");
    EXPECT_EQ(g.get("gid")->num, 4242u);
    EXPECT_EQ(ok("evprofile set dev m id 2 access group gid root").get("gid")->num, 0u);
    EXPECT_EQ(ok("evprofile set dev m id 2 access g gid 0xfffffffe").get("gid")->num, 0xfffffffeu);

    EXPECT_EQ(error("evprofile set dev m id 2 access group"),
              "\"access group\" needs \"gid\", try \"mrc-ip evprofile set help\"");
    EXPECT_EQ(error("evprofile set dev m id 2 gid 10"),
              "\"gid\" goes with \"access group\", try \"mrc-ip evprofile set help\"");
    EXPECT_EQ(error("ccprofile set dev m id 2 access open gid 10"),
              "\"gid\" goes with \"access group\", try \"mrc-ip ccprofile set help\"");
    EXPECT_EQ(error("evprofile set dev m id 2 access all"), "access value \"all\" is unknown");
    EXPECT_EQ(error("evprofile set dev m id 2 access group gid 0xffffffff"),
              "invalid group \"0xffffffff\" for \"gid\"");
    EXPECT_EQ(error("evprofile set dev m id 2 access group gid no-such-group-here"),
              "invalid group \"no-such-group-here\" for \"gid\"");
    EXPECT_EQ(error("evprofile set dev m id 2 access group gid -1"),
              "invalid group \"-1\" for \"gid\"");
    // Formats are not used by QPs directly: no access rule.
    EXPECT_EQ(error("evfmt set dev m id 2 access open"),
              "argument \"access\" is unknown, try \"mrc-ip evfmt set help\"");
}

TEST(ValueParsersTest, NumbersAndDurations) {
    EXPECT_EQ(parse_number("0"), 0u);
    EXPECT_EQ(parse_number("42"), 42u);
    EXPECT_EQ(parse_number("0x2A"), 42u);
    EXPECT_EQ(parse_number("18446744073709551615"), UINT64_MAX);
    EXPECT_FALSE(parse_number("18446744073709551616"));
    EXPECT_FALSE(parse_number("0x"));
    EXPECT_FALSE(parse_number(""));
    EXPECT_FALSE(parse_number("+1"));
    EXPECT_FALSE(parse_number(" 1"));
    EXPECT_FALSE(parse_number("1k"));
    EXPECT_EQ(parse_number("255", 255), 255u);
    EXPECT_FALSE(parse_number("256", 255));
    EXPECT_EQ(parse_duration("7ns"), 7u);
    EXPECT_EQ(parse_duration("7us"), 7000u);
    EXPECT_EQ(parse_duration("7ms"), 7000000u);
    EXPECT_EQ(parse_duration("7s"), 7000000000u);
    EXPECT_FALSE(parse_duration("7"));
    EXPECT_FALSE(parse_duration("ms"));
    EXPECT_FALSE(parse_duration("7m"));
    EXPECT_FALSE(parse_duration("7 s"));
    EXPECT_FALSE(parse_duration("99999999999999999999s"));
}

TEST(ValueParsersTest, MatchWordExactBeatsPrefix) {
    // "del" is both a command and a prefix of "delete" (its alias).
    auto m = match_word("command", "del", {"del", "deny", "delete"}, {"del", "deny", "del"});
    EXPECT_EQ(std::get<std::string>(m), "del");
    auto alias = match_word("command", "dele", {"del", "deny", "delete"}, {"del", "deny", "del"});
    EXPECT_EQ(std::get<std::string>(alias), "del");
    auto empty = match_word("command", "", {"a", "b"});
    EXPECT_TRUE(std::holds_alternative<ParseError>(empty));
}

TEST(ValueParsersTest, SplitLine) {
    EXPECT_EQ(*split_line("  dev  show mrc0 "), (std::vector<std::string>{"dev", "show", "mrc0"}));
    EXPECT_EQ(*split_line("dev show # comment"), (std::vector<std::string>{"dev", "show"}));
    EXPECT_EQ(*split_line("dev show \"a b\""), (std::vector<std::string>{"dev", "show", "a b"}));
    EXPECT_EQ(*split_line("dev x#y"), (std::vector<std::string>{"dev", "x#y"}));
    EXPECT_TRUE(split_line("")->empty());
    EXPECT_FALSE(split_line("dev 'open"));
}

}  // namespace
}  // namespace mrc_ip
