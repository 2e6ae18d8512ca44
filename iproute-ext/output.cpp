// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "output.h"

#include <net/if.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "mrc-genl.h"

namespace mrc_ip {
namespace {

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "0x%x", v);
    return buf;
}

std::string joined(const std::vector<uint32_t>& v, char sep) {
    std::string s;
    for (uint32_t x : v) {
        s += (s.empty() ? "" : std::string(1, sep)) + std::to_string(x);
    }
    return s;
}

// What every profile's record starts with.
Record common_head(const ProfileCommon& p) {
    Record r;
    r.add("dev", p.dev);
    r.add("id", p.id);
    if (p.state) {
        r.add("state", prof_state_name(*p.state));
    }
    return r;
}

void add_common_tail(Record& r, const ProfileCommon& p) {
    if (p.nusers) {
        r.add("users", uint64_t{*p.nusers});
    }
    // Who may create QPs on it, as "evprofile set ... access" takes it.
    if (p.access) {
        r.add("access", access_name(*p.access));
    }
    if (p.gid) {
        r.add("gid", uint64_t{*p.gid});
    }
}

// The length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when the
// byte there starts none.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    if (c < 0x80) {
        return 1;
    }
    std::size_t n = 0;
    unsigned char lo = 0x80;  // bounds of the second byte
    unsigned char hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : lo;  // overlong
        hi = c == 0xed ? 0x9f : hi;  // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : lo;  // overlong
        hi = c == 0xf4 ? 0x8f : hi;  // above U+10FFFF
    } else {
        return 0;
    }
    if (s.size() - i < n || byte(i + 1) < lo || byte(i + 1) > hi) {
        return 0;
    }
    for (std::size_t k = 2; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) {
            return 0;
        }
    }
    return n;
}

void append_hex_escapes(std::string& out, const std::string& s, std::size_t i, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    for (std::size_t k = i; k < i + n; ++k) {
        unsigned char b = static_cast<unsigned char>(s[k]);
        out += {'\\', 'x', digits[b >> 4], digits[b & 0xf]};
    }
}

std::string text_of(const Value& v) {
    if (const auto* s = std::get_if<std::string>(&v)) {
        return escaped(*s, Escape::text);
    }
    return std::to_string(std::get<uint64_t>(v));
}

std::string line_of(const Record& r) {
    std::string s;
    for (const auto& [k, v] : r.fields) {
        if (k == r.heading_key) {
            s = text_of(v) + ":" + s;
            continue;
        }
        s += " " + k + " " + text_of(v);
    }
    return r.heading_key.empty() && !s.empty() ? s.substr(1) : s;
}

void dump_json(std::ostream& out, const nlohmann::ordered_json& j, bool pretty) {
    out << (pretty ? j.dump(4) : j.dump()) << '\n';
}

}  // namespace

std::string escaped(const std::string& s, Escape how) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t n = utf8_length(s, i);
        // C0 controls, DEL, and C1 controls (U+0080..U+009F, some terminals
        // obey them too).
        bool control = c < 0x20 || c == 0x7f ||
                       (n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0);
        if (c == '\\') {
            out += "\\\\";
            n = 1;
        } else if (n == 0) {
            append_hex_escapes(out, s, i, 1);
            n = 1;
        } else if (how == Escape::text && (control || c == ' ')) {
            append_hex_escapes(out, s, i, n);
        } else {
            out.append(s, i, n);
        }
        i += n;
    }
    return out;
}

Record device_record(const MrcDevice& d, bool details) {
    Record r{"ifname", {}};
    r.add("ifname", d.name);
    if (d.netdev) {
        r.add("netdev", *d.netdev);
    }
    if (d.netdev_ifindex) {
        r.add("ifindex", uint64_t{*d.netdev_ifindex});
    }
    if (d.udp_port) {
        r.add("udp_port", uint64_t{*d.udp_port});
    }
    if (d.state) {
        r.add("state", *d.state);
    }
    if (d.mtu) {
        r.add("mtu", uint64_t{*d.mtu});
    }
    if (d.default_evprof) {
        r.add("evprofile", *d.default_evprof);
    }
    if (d.default_ccprof) {
        r.add("ccprofile", *d.default_ccprof);
    }
    if (!details) {
        return r;
    }
    if (d.api_version) {
        uint32_t v = *d.api_version;
        r.add("api", std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 0xff) + "." +
                         std::to_string(v & 0xffff));
    }
    if (d.caps) {
        r.add("caps", hex32(*d.caps));
    }
    if (d.fmt_modes) {
        r.add("fmt_modes", hex32(*d.fmt_modes));
    }
    if (d.ev_modes) {
        r.add("ev_modes", hex32(*d.ev_modes));
    }
    if (!d.cc_algs.empty()) {
        // Comma-separated names: one value each in text and JSON alike.
        std::string all;
        std::string runnable;
        for (const auto& [name, runs] : d.cc_algs) {
            all += (all.empty() ? "" : ",") + name;
            if (runs) {
                runnable += (runnable.empty() ? "" : ",") + name;
            }
        }
        r.add("cc_algs", all);
        r.add("cc_runnable", runnable.empty() ? std::string("-") : runnable);
    }
    static const char* const limit_names[] = {"",
                                              "max_fmt_profiles",
                                              "max_ev_profiles",
                                              "max_evs",
                                              "free_evs",
                                              "max_evs_per_profile",
                                              "ev_count_align",
                                              "max_ev_width",
                                              "max_ev_op_entries",
                                              "max_cc_profiles",
                                              "port_mask"};
    for (const auto& [t, v] : d.limits) {
        if (t > 0 && t <= MRC_LIMIT_MAX) {
            r.add(limit_names[t], uint64_t{v});
        }
    }
    return r;
}

Record port_record(const MrcDevice& d) {
    Record r{"ifname", {}};
    r.add("ifname", d.name);
    r.add("port", uint64_t{1});
    if (d.port_admin) {
        r.add("admin", std::string(*d.port_admin == MRC_PORT_ADMIN_ENABLED ? "up" : "down"));
    }
    if (d.state) {
        r.add("state", *d.state);
    }
    if (d.netdev) {
        r.add("netdev", *d.netdev);
    }
    if (d.mtu) {
        r.add("mtu", uint64_t{*d.mtu});
    }
    return r;
}

Record evfmt_record(const EvFmt& f) {
    Record r = common_head(f);
    if (f.mode) {
        r.add("mode", fmt_mode_name(*f.mode));
    }
    if (!f.widths.empty()) {
        r.add("fields", joined(f.widths, ','));
    }
    add_common_tail(r, f);
    return r;
}

Record evprof_record(const EvProf& p) {
    Record r = common_head(p);
    if (p.mode) {
        r.add("mode", ev_mode_name(*p.mode));
    }
    if (p.fmt_id) {
        r.add("fmt", *p.fmt_id);
    }
    if (p.count) {
        r.add("count", uint64_t{*p.count});
    }
    if (p.min_active) {
        r.add("min-active", uint64_t{*p.min_active});
    }
    if (p.event_mask) {
        uint32_t m = *p.event_mask;
        bool good = m & (1u << MRC_GENL_EV_GOOD);
        bool bad = m & (1u << MRC_GENL_EV_ASSUMED_BAD);
        r.add("events", std::string(good && bad ? "all" : good ? "good" : bad ? "bad" : "none"));
    }
    std::size_t i = 0;
    for (const EvField& f : p.fields) {
        r.add("field" + std::to_string(i++), joined({f.width, f.init, f.min, f.max, f.mask}, ':'));
    }
    if (p.ndenied) {
        r.add("denied", uint64_t{*p.ndenied});
    }
    if (p.nbad) {
        r.add("bad", uint64_t{*p.nbad});
    }
    add_common_tail(r, p);
    return r;
}

Record ccprof_record(const CcProf& c) {
    Record r = common_head(c);
    if (!c.alg.empty()) {
        r.add("alg", c.alg);
    }
    for (const auto& [t, v] : c.params) {
        r.add(cc_param_name(t), v);
    }
    add_common_tail(r, c);
    return r;
}

namespace {

// An interface's name in mrc-ip's namespace (the device's, with -n).
std::string uplink_name(uint32_t ifindex) {
    char name[IF_NAMESIZE];
    if (ifindex == 0) {
        return "-";
    }
    if (if_indextoname(ifindex, name) == nullptr) {
        return "if" + std::to_string(ifindex);
    }
    return name;
}

}  // namespace

Record qp_cc_record(const QpCc& cc) {
    static const std::map<int, const char*> names = {
        {MRC_QP_CC_PROFILE, "cc_profile"},     {MRC_QP_CC_CWND_PKTS, "cwnd_pkts"},
        {MRC_QP_CC_CWND_BYTES, "cwnd_bytes"},  {MRC_QP_CC_SRTT_NS, "srtt_ns"},
        {MRC_QP_CC_BASE_RTT_NS, "base_rtt_ns"}, {MRC_QP_CC_DELAY_NS, "delay_ns"},
        {MRC_QP_CC_AVG_DELAY_NS, "avg_delay_ns"}, {MRC_QP_CC_ACKED_BYTES, "acked_bytes"},
        {MRC_QP_CC_ECN_BYTES, "ecn_bytes"},    {MRC_QP_CC_QA_CUTS, "qa_cuts"},
        {MRC_QP_CC_MD_CUTS, "md_cuts"},
    };
    Record r;
    r.add("cc", cc.alg.empty() ? std::string{"-"} : cc.alg);
    uint64_t acked = 0;
    uint64_t ecn = 0;
    bool has_ecn = false;
    for (const auto& [t, v] : cc.values) {
        auto n = names.find(t);
        r.add(n != names.end() ? n->second : "attr" + std::to_string(t), v);
        if (t == MRC_QP_CC_ACKED_BYTES) {
            acked = v;
        } else if (t == MRC_QP_CC_ECN_BYTES) {
            ecn = v;
            has_ecn = true;
        }
    }
    if (has_ecn) {
        // Parts per million of the bytes acknowledged that came CE-marked.
        r.add("ecn_ppm", acked ? static_cast<uint64_t>(static_cast<double>(ecn) * 1e6 /
                                                        static_cast<double>(acked))
                               : uint64_t{0});
    }
    return r;
}

Record ev_record(const EvEntry& e, int stats) {
    Record r;
    r.add("index", uint64_t{e.index.value_or(0)});
    r.add("value", e.value.empty() ? std::string("-") : ev_value_text(e.value));
    r.add("port", uint64_t{e.port.value_or(1)});
    r.add("state", e.state ? ev_state_name(*e.state) : std::string("unknown"));
    // What the EV is sent with, to find its path by; 0 when not reported.
    r.add("sport", uint64_t{e.sport.value_or(0)});
    r.add("flowlabel", uint64_t{e.flow_label.value_or(0)});
    // An SRv6 EV (an address) also names the interface its route leaves
    // by, the plane; "-" when none does now.
    if (e.value.size() >= 16) {
        r.add("via", uplink_name(e.uplink.value_or(0)));
    }
    if (stats == 0) {
        return r;
    }
    auto stat = [&](int t) {
        for (const auto& [k, v] : e.stats) {
            if (k == t) {
                return v;
            }
        }
        return uint64_t{0};
    };
    if (stats == 1) {
        r.add("tx_pkts", stat(MRC_STAT_A_TX_PKTS));
        r.add("tx_bytes", stat(MRC_STAT_A_TX_BYTES));
        r.add("retx", stat(MRC_STAT_A_RETX_PKTS));
        r.add("loss", stat(MRC_STAT_A_LOSS_GAP) + stat(MRC_STAT_A_LOSS_SACK) +
                          stat(MRC_STAT_A_LOSS_READ) + stat(MRC_STAT_A_LOSS_TIMEOUT) +
                          stat(MRC_STAT_A_LOSS_PROBE));
        r.add("ecn", stat(MRC_STAT_A_ECN_MARKS));
        r.add("rtt", e.srtt_ns.value_or(0));
        return r;
    }
    for (int t = MRC_STAT_A_TX_PKTS; t <= MRC_STAT_A_MAX; ++t) {
        r.add(stat_name(t), stat(t));
    }
    r.add("rtt", e.srtt_ns.value_or(0));
    r.add("min_rtt", e.min_rtt_ns.value_or(0));
    r.add("bad_qps", uint64_t{e.bad_qps.value_or(0)});
    return r;
}

Record event_record(const EvEvent& e) {
    Record r;
    r.add("dev", e.dev);
    if (e.qpn) {
        r.add("qpn", hex32(*e.qpn));
    }
    if (e.prof_id) {
        r.add("evprofile", *e.prof_id);
    }
    if (e.ev.index) {
        r.add("index", uint64_t{*e.ev.index});
    }
    if (!e.ev.value.empty()) {
        r.add("value", ev_value_text(e.ev.value));
    }
    if (e.old_state) {
        r.add("old", ev_state_name(*e.old_state));
    }
    if (e.ev.state) {
        r.add("state", ev_state_name(*e.ev.state));
    }
    if (e.ev.sport) {
        r.add("sport", uint64_t{*e.ev.sport});
    }
    if (e.reason) {
        r.add("reason", ev_reason_name(*e.reason));
    }
    if (e.time_ns) {
        r.add("time", *e.time_ns);
    }
    if (e.dropped) {
        r.add("dropped", uint64_t{*e.dropped});
    }
    return r;
}

Record probe_record(const ProbeAnswer& p) {
    Record r;
    r.add("probe", uint64_t{p.req_id});
    if (p.timed_out || !p.rtt_ns) {
        r.add("result", std::string("timeout"));
    } else {
        r.add("result", std::string("ok"));
        r.add("rtt", *p.rtt_ns);
    }
    if (p.port) {
        r.add("port", uint64_t{*p.port});
    }
    return r;
}

nlohmann::ordered_json to_json(const Record& r) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.fields) {
        if (const auto* s = std::get_if<std::string>(&v)) {
            // Valid UTF-8 only: nlohmann's dump() throws on anything else.
            j[k] = escaped(*s, Escape::json);
        } else {
            j[k] = std::get<uint64_t>(v);
        }
    }
    return j;
}

void print_records(std::ostream& out, const std::vector<Record>& recs, const OutputOptions& o) {
    if (o.json) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const Record& r : recs) {
            a.push_back(to_json(r));
        }
        dump_json(out, a, o.pretty);
        return;
    }
    for (const Record& r : recs) {
        out << line_of(r) << '\n';
    }
}

void print_table(std::ostream& out, const std::vector<Record>& rows, const OutputOptions& o) {
    if (o.json) {
        print_records(out, rows, o);
        return;
    }
    if (rows.empty()) {
        return;
    }
    // Columns are the keys of all rows, in the order they first appear: a
    // row may lack a key others have (only SRv6 EVs have "via") and shows
    // "-" there. A key given twice in one row shows its last value, as JSON.
    std::vector<std::string> head;
    std::map<std::string, std::size_t> column;
    for (const Record& r : rows) {
        for (const auto& [k, v] : r.fields) {
            if (column.emplace(k, head.size()).second) {
                head.push_back(k);
            }
        }
    }
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> width;
    for (const std::string& k : head) {
        width.push_back(k.size());
    }
    for (const Record& r : rows) {
        std::vector<std::string> row(head.size(), "-");
        for (const auto& [k, v] : r.fields) {
            std::size_t c = column.at(k);
            row[c] = text_of(v);
            width[c] = std::max(width[c], row[c].size());
        }
        cells.push_back(std::move(row));
    }
    auto line = [&](const std::vector<std::string>& cell) {
        std::string s;
        for (std::size_t c = 0; c < head.size(); ++c) {
            const std::string& t = cell[c];
            s += t + (c + 1 < head.size() ? std::string(width[c] - t.size() + 2, ' ') : "");
        }
        out << s << '\n';
    };
    line(head);
    for (const auto& row : cells) {
        line(row);
    }
}

void print_line(std::ostream& out, const Record& r, bool json) {
    if (json) {
        out << to_json(r).dump() << '\n';
    } else {
        out << line_of(r) << '\n';
    }
    out.flush();
}

void print_json(std::ostream& out, const nlohmann::ordered_json& j, bool pretty) {
    dump_json(out, j, pretty);
}

}  // namespace mrc_ip
