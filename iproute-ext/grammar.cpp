// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "grammar.h"

namespace mrc_ip {

KeySpec dev_key() {
    return {"dev", Kind::Dev};
}

namespace {

KeySpec id_key() {
    return {"id", Kind::Num};
}
KeySpec state_key() {
    return {"state", Kind::Enum, 0, {"init", "offline", "online"}};
}
KeySpec flag(const std::string& name) {
    return {name, Kind::Flag};
}

// Who may create QPs on an EV or CC profile: access { if-default | open |
// admin | group } and, with group, gid GROUP ((gid_t)-1 is no group).
std::vector<KeySpec> access_keys() {
    return {{"access", Kind::Enum, 0, {"if-default", "open", "admin", "group"}},
            {"gid", Kind::Group, kU32 - 1}};
}

// CC parameters: keyword, kind and bound, as in enum mrc_genl_cc_param.
std::vector<KeySpec> cc_param_keys() {
    return {
        {"disable-qa", Kind::Num, 1},
        {"adjust-bytes", Kind::Num, 1ull << 31},
        {"adjust-period", Kind::Duration, kU32},
        {"base-rtt", Kind::Duration, kU32},
        {"eta", Kind::Q16, (1ull << 31) - 1},
        {"fi", Kind::Q16, (1ull << 31) - 1},
        {"fi-scale", Kind::Q16, (1ull << 31) - 1},
        {"gamma", Kind::Q16, 65536},
        {"max-md-jump", Kind::Q16, 65536},
        {"max-cwnd", Kind::Num, 1ull << 31},
        {"qa-gate", Kind::Num, 255},
        {"qa-threshold", Kind::Duration, kU32},
        {"target-delay", Kind::Duration, kU32},
        {"init-pkts", Kind::Num, 65536},
        {"min-pkts", Kind::Num, 65536},
        {"qdelay-target", Kind::Duration, 1000000000},
    };
}

std::vector<KeySpec> with(std::vector<KeySpec> a, const std::vector<KeySpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::optional<std::string> need_one(const Command& c, const std::vector<std::string>& keys,
                                    const std::string& what) {
    int n = 0;
    for (const auto& k : keys) {
        n += c.has(k) ? 1 : 0;
    }
    if (n == 0) {
        return "missing " + what;
    }
    return std::nullopt;
}

// "gid" exactly when "access group".
std::optional<std::string> access_check(const Command& c) {
    const Arg* a = c.get("access");
    bool group = a != nullptr && a->word == "group";
    if (group && !c.has("gid")) {
        return std::string("\"access group\" needs \"gid\"");
    }
    if (!group && c.has("gid")) {
        return std::string("\"gid\" goes with \"access group\"");
    }
    return std::nullopt;
}

std::optional<std::string> at_most_one(const Command& c, const std::vector<std::string>& keys) {
    std::string seen;
    for (const auto& k : keys) {
        if (c.args.count(k) > 1 || (c.has(k) && !seen.empty())) {
            return "\"" + k + "\" conflicts with \"" + (seen.empty() ? k : seen) + "\"";
        }
        if (c.has(k)) {
            seen = k;
        }
    }
    return std::nullopt;
}

}  // namespace

const std::vector<ObjSpec>& grammar() {
    static const std::vector<ObjSpec> g = [] {
        std::vector<ObjSpec> o;
        const KeySpec dev = dev_key();
        const KeySpec id = id_key();
        o.push_back({"dev",
                     {},
                     {{"show", "mrc-ip dev [ show ] [ [ dev ] DEV ]", {dev}, true, {}, nullptr},
                      {"set",
                       "mrc-ip dev set [ dev ] DEV [ evprofile ID ] [ ccprofile ID ]",
                       {dev, {"evprofile", Kind::Num}, {"ccprofile", Kind::Num}},
                       true,
                       {"dev"},
                       [](const Command& c) {
                           return need_one(c, {"evprofile", "ccprofile"}, "evprofile or ccprofile");
                       }}}});
        o.push_back({"port",
                     {},
                     {{"show", "mrc-ip port [ show ] [ [ dev ] DEV ]", {dev}, true, {}, nullptr},
                      {"set",
                       "mrc-ip port set [ dev ] DEV { up | down }",
                       {dev, flag("up"), flag("down")},
                       true,
                       {"dev"},
                       [](const Command& c) -> std::optional<std::string> {
                           if (auto e = at_most_one(c, {"up", "down"})) {
                               return e;
                           }
                           return need_one(c, {"up", "down"}, "up or down");
                       }}}});
        const KeySpec mode_fmt{"mode", Kind::Enum, 0, {"stev", "udp", "srv6"}};
        const KeySpec fields{"fields", Kind::Widths};
        o.push_back(
            {"evfmt",
             {},
             {{"show",
               "mrc-ip evfmt [ show ] [ dev DEV ] [ id ID ]",
               {dev, id},
               false,
               {},
               nullptr},
              {"add",
               "mrc-ip evfmt add dev DEV [ id ID ] mode { stev | udp | srv6 } fields W[,W...]\n"
               "        [ offline ]",
               {dev, id, mode_fmt, fields, flag("offline")},
               false,
               {"dev", "mode", "fields"},
               nullptr},
              {"set",
               "mrc-ip evfmt set dev DEV id ID [ mode M ] [ fields W[,W...] ]\n"
               "        [ state { init | offline | online } ]",
               {dev, id, mode_fmt, fields, state_key()},
               false,
               {"dev", "id"},
               [](const Command& c) {
                   return need_one(c, {"mode", "fields", "state"}, "mode, fields or state");
               }},
              {"del",
               "mrc-ip evfmt del dev DEV id ID",
               {dev, id},
               false,
               {"dev", "id"},
               nullptr}}});
        const KeySpec field{"field", Kind::EvField, 0, {}, true};
        const KeySpec events{"events", Kind::Enum, 0, {"good", "bad", "all", "none"}};
        const KeySpec count{"count", Kind::Num, 4096};
        const KeySpec min_active{"min-active", Kind::Num, 4096};
        const KeySpec index{"index", Kind::Range, kMaxEvIndex, {}, true};
        const KeySpec ev{"ev", Kind::EvValue, 0, {}, true};
        auto deny_check = [](const Command& c) {
            return need_one(c, {"index", "ev"}, "index or ev");
        };
        o.push_back(
            {"evprofile",
             {"path"},
             {{"show",
               "mrc-ip evprofile [ show ] [ dev DEV ] [ id ID ] [ evs ]",
               {dev, id, flag("evs")},
               false,
               {},
               [](const Command& c) -> std::optional<std::string> {
                   if (c.has("evs") && !(c.has("dev") && c.has("id"))) {
                       return "\"evs\" needs dev and id";
                   }
                   return std::nullopt;
               }},
              {"add",
               "mrc-ip evprofile add dev DEV [ id ID ] mode { explicit | generated } fmt ID\n"
               "        [ count N ] [ min-active N ] [ events { good | bad | all | none } ]\n"
               "        [ field W:INIT:MIN:MAX:MASK ]... [ ev VALUE[@PORT] ]... [ offline ]\n"
               "        [ access { if-default | open | admin | group gid GROUP } ]",
               with({dev,
                     id,
                     {"mode", Kind::Enum, 0, {"explicit", "generated"}},
                     {"fmt", Kind::Num},
                     count,
                     min_active,
                     events,
                     field,
                     {"ev", Kind::EvSpec, 0, {}, true},
                     flag("offline")},
                    access_keys()),
               false,
               {"dev", "mode", "fmt"},
               [](const Command& c) -> std::optional<std::string> {
                   if (c.get("mode")->word == "generated" && c.has("ev")) {
                       return "\"ev\" is for explicit profiles";
                   }
                   return access_check(c);
               }},
              {"set",
               "mrc-ip evprofile set dev DEV id ID [ min-active N ] [ events E ] [ count N ]\n"
               "        [ field W:INIT:MIN:MAX:MASK ]... [ state S ] [ access A [ gid GROUP ] ]",
               with({dev, id, min_active, events, count, field, state_key()}, access_keys()),
               false,
               {"dev", "id"},
               [](const Command& c) {
                   if (auto e = access_check(c)) {
                       return e;
                   }
                   return need_one(c, {"min-active", "events", "count", "field", "state", "access"},
                                   "min-active, events, count, field, state or access");
               }},
              {"deny",
               "mrc-ip evprofile deny dev DEV id ID { index I[-J] | ev VALUE } ...",
               {dev, id, index, ev},
               false,
               {"dev", "id"},
               deny_check},
              {"undeny",
               "mrc-ip evprofile undeny dev DEV id ID { index I[-J] | ev VALUE } ...",
               {dev, id, index, ev},
               false,
               {"dev", "id"},
               deny_check},
              {"replace",
               "mrc-ip evprofile replace dev DEV id ID { index I | ev VALUE } with VALUE[@PORT]\n"
               "        [ all ]",
               {dev,
                id,
                {"index", Kind::Num, kMaxEvIndex},
                {"ev", Kind::EvValue},
                {"with", Kind::EvSpec},
                flag("all")},
               false,
               {"dev", "id", "with"},
               [](const Command& c) -> std::optional<std::string> {
                   if (auto e = at_most_one(c, {"index", "ev"})) {
                       return e;
                   }
                   return need_one(c, {"index", "ev"}, "index or ev");
               }},
              {"del",
               "mrc-ip evprofile del dev DEV id ID",
               {dev, id},
               false,
               {"dev", "id"},
               nullptr}}});
        o.push_back({"ccprofile",
                     {},
                     {{"show",
                       "mrc-ip ccprofile [ show ] [ dev DEV ] [ id ID ]",
                       {dev, id},
                       false,
                       {},
                       nullptr},
                      {"add",
                       "mrc-ip ccprofile add dev DEV [ id ID ] alg { mrc-window | uet-1.0-nscc }\n"
                       "        [ PARAM VALUE ]... [ offline ]\n"
                       "        [ access { if-default | open | admin | group gid GROUP } ]",
                       with(with({dev,
                                  id,
                                  {"alg", Kind::Enum, 0, {"mrc-window", "uet-1.0-nscc"}},
                                  flag("offline")},
                                 cc_param_keys()),
                            access_keys()),
                       false,
                       {"dev", "alg"},
                       access_check},
                      {"set",
                       "mrc-ip ccprofile set dev DEV id ID [ PARAM VALUE ]... [ state S ]\n"
                       "        [ access A [ gid GROUP ] ]",
                       with(with({dev, id, state_key()}, cc_param_keys()), access_keys()),
                       false,
                       {"dev", "id"},
                       access_check},
                      {"del",
                       "mrc-ip ccprofile del dev DEV id ID",
                       {dev, id},
                       false,
                       {"dev", "id"},
                       nullptr}}});
        o.push_back({"qp",
                     {},
                     {{"show",
                       "mrc-ip qp [ show ] dev DEV qpn QPN",
                       {dev, {"qpn", Kind::Num, kMaxQpn}},
                       false,
                       {"dev", "qpn"},
                       nullptr}}});
        o.push_back({"stats",
                     {},
                     {{"show",
                       "mrc-ip stats [ show ] dev DEV evprofile ID",
                       {dev, {"evprofile", Kind::Num}},
                       false,
                       {"dev", "evprofile"},
                       nullptr}}});
        o.push_back({"monitor",
                     {},
                     {{"",
                       "mrc-ip monitor [ dev DEV ] [ evprofile ID ] [ qpn QPN ]",
                       {dev, {"evprofile", Kind::Num}, {"qpn", Kind::Num, kMaxQpn}},
                       false,
                       {},
                       nullptr}}});
        o.push_back({"probe",
                     {},
                     {{"",
                       "mrc-ip probe dev DEV to GID { ev VALUE [ mode { udp | stev | srv6 } ] |\n"
                       "        evprofile ID index I } [ tc TC ] [ timeout DURATION ] [ count N ]",
                       {dev,
                        {"to", Kind::Gid},
                        {"ev", Kind::EvValue},
                        {"mode", Kind::Enum, 0, {"udp", "stev", "srv6"}},
                        {"evprofile", Kind::Num},
                        {"index", Kind::Num, kMaxEvIndex},
                        {"tc", Kind::Num, 255},
                        {"timeout", Kind::Duration, 10000000000ull},
                        {"count", Kind::Num, 64}},
                       false,
                       {"dev", "to"},
                       [](const Command& c) -> std::optional<std::string> {
                           if (c.has("ev") && (c.has("evprofile") || c.has("index"))) {
                               return "\"ev\" conflicts with \"evprofile\"/\"index\"";
                           }
                           if (!c.has("ev") && !(c.has("evprofile") && c.has("index"))) {
                               return "missing ev, or evprofile and index";
                           }
                           if (c.has("mode") && !c.has("ev")) {
                               return "\"mode\" goes with \"ev\"";
                           }
                           // An address list is an SRV6 EV; a number is not.
                           if (const Arg* e = c.get("ev")) {
                               bool srv6 = e->bytes.size() != 4;
                               const Arg* m = c.get("mode");
                               if (m != nullptr && (m->word == "srv6") != srv6) {
                                   return "ev \"" + e->word + "\" is not a " +
                                          (srv6 ? "32-bit number" : "segment list") +
                                          " (mode " + m->word + ")";
                               }
                           }
                           if (const Arg* t = c.get("timeout"); t != nullptr && t->num < 1000) {
                               return "timeout \"" + t->word + "\" is below 1us";
                           }
                           if (const Arg* n = c.get("count"); n != nullptr && n->num == 0) {
                               return "count \"0\" is out of range";
                           }
                           return std::nullopt;
                       }}}});
        return o;
    }();
    return g;
}

}  // namespace mrc_ip
