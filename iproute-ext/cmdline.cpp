// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmdline.h"

#include <arpa/inet.h>
#include <grp.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "grammar.h"

namespace mrc_ip {
namespace {

// Continuation lines indented under "Usage: mrc-ip ".
std::string indented(std::string u) {
    for (std::size_t p = 0; (p = u.find("\n        ", p)) != std::string::npos; p += 8) {
        u.replace(p, 9, "\n               ");
    }
    return u;
}

std::string object_help(const ObjSpec& obj) {
    std::string s = "Usage: ";
    bool first = true;
    for (const CmdSpec& c : obj.cmds) {
        s += (first ? "" : "       ") + indented(c.usage) + "\n";
        first = false;
    }
    s += "       mrc-ip " + obj.name + (obj.cmds.front().name.empty() ? "" : " [ COMMAND ]") +
         " help\n";
    return s;
}

ParseError bad(const std::string& what, const std::string& word, const std::string& hint) {
    return {what + " \"" + word + "\" is unknown, try \"" + hint + "\""};
}

// Option names in ip's order of precedence: a prefix takes the first match.
const std::vector<std::string> kOptions = {"Version", "statistics", "details", "json", "pretty",
                                           "netns",   "batch",      "force",   "help"};

std::optional<std::string> match_option(const std::string& arg) {
    std::string_view a(arg);
    a.remove_prefix(a.substr(0, 2) == "--" ? 2 : 1);
    if (a.empty()) {
        return std::nullopt;
    }
    for (const std::string& o : kOptions) {
        if (o.compare(0, a.size(), a) == 0) {
            return o;
        }
    }
    return std::nullopt;
}

std::optional<std::vector<uint64_t>> split_numbers(const std::string& s, char sep) {
    std::vector<uint64_t> out;
    std::size_t start = 0;
    while (true) {
        std::size_t end = s.find(sep, start);
        auto n = parse_number(s.substr(start, end - start));
        if (!n) {
            return std::nullopt;
        }
        out.push_back(*n);
        if (end == std::string::npos) {
            return out;
        }
        start = end + 1;
    }
}

std::optional<uint64_t> parse_q16(const std::string& s) {
    std::size_t dot = s.find('.');
    if (dot == std::string::npos) {
        auto n = parse_number(s, UINT64_MAX >> 16);
        return n ? std::optional<uint64_t>(*n << 16) : std::nullopt;
    }
    std::string frac = s.substr(dot + 1);
    if (frac.empty() || frac.size() > 9 ||
        frac.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
    }
    auto whole = dot == 0 ? std::optional<uint64_t>(0) : parse_number(s.substr(0, dot), 1u << 30);
    if (!whole || s.substr(0, 2) == "0x") {
        return std::nullopt;
    }
    uint64_t f = std::strtoull(frac.c_str(), nullptr, 10);
    uint64_t scale = 1;
    for (std::size_t i = 0; i < frac.size(); ++i) {
        scale *= 10;
    }
    return (*whole << 16) + (f * 65536 + scale / 2) / scale;
}

// Parses one keyword's value into arg; an error message names the word.
std::optional<std::string> parse_value(const KeySpec& k, const std::string& w, Arg& arg) {
    arg.word = w;
    auto invalid = [&](const std::string& what) {
        return std::optional<std::string>("invalid " + what + " \"" + w + "\" for \"" + k.name +
                                          "\"");
    };
    switch (k.kind) {
        case Kind::Dev:
            if (w.empty() || w.size() > 63) {
                return invalid("device name");
            }
            return std::nullopt;
        case Kind::Num: {
            auto n = parse_number(w, k.max);
            if (!n) {
                return invalid("number");
            }
            arg.num = *n;
            return std::nullopt;
        }
        case Kind::Enum: {
            auto m = match_word(k.name + " value", w, k.values);
            if (auto* e = std::get_if<ParseError>(&m)) {
                return e->message;
            }
            arg.word = std::get<std::string>(m);
            return std::nullopt;
        }
        case Kind::Flag:
            return std::nullopt;
        case Kind::Widths: {
            auto l = split_numbers(w, ',');
            if (!l || l->size() > 16 ||
                std::any_of(l->begin(), l->end(), [](uint64_t v) { return v < 1 || v > 128; })) {
                return invalid("field widths");
            }
            arg.list = *l;
            return std::nullopt;
        }
        case Kind::EvField: {
            auto l = split_numbers(w, ':');
            if (!l || l->size() != 5 ||
                std::any_of(l->begin(), l->end(), [](uint64_t v) { return v > kU32; })) {
                return invalid("field (W:INIT:MIN:MAX:MASK)");
            }
            arg.list = *l;
            return std::nullopt;
        }
        case Kind::EvSpec:
        case Kind::EvValue: {
            std::size_t at = w.find('@');
            if (at != std::string::npos && k.kind == Kind::EvSpec) {
                auto p = parse_number(w.substr(at + 1), 255);
                if (!p || *p == 0) {
                    return invalid("port");
                }
                arg.port = static_cast<uint8_t>(*p);
            }
            auto v = parse_ev_value(w.substr(0, k.kind == Kind::EvSpec ? at : std::string::npos));
            if (!v) {
                return invalid("EV value");
            }
            arg.bytes = *v;
            return std::nullopt;
        }
        case Kind::Range: {
            std::size_t dash = w.find('-');
            auto a = parse_number(w.substr(0, dash), k.max);
            auto b = dash == std::string::npos ? a : parse_number(w.substr(dash + 1), k.max);
            if (!a || !b || *b < *a) {
                return invalid("index range");
            }
            arg.num = *a;
            arg.num2 = *b;
            return std::nullopt;
        }
        case Kind::Duration: {
            auto d = parse_duration(w);
            if (!d || *d > k.max) {
                return invalid("duration");
            }
            arg.num = *d;
            return std::nullopt;
        }
        case Kind::Gid: {
            uint8_t buf[16];
            in_addr v4{};
            if (inet_pton(AF_INET6, w.c_str(), buf) == 1) {
                arg.bytes.assign(buf, buf + 16);
            } else if (inet_pton(AF_INET, w.c_str(), &v4) == 1) {
                arg.bytes.assign(10, 0);
                arg.bytes.push_back(0xff);
                arg.bytes.push_back(0xff);
                const auto* p = reinterpret_cast<const uint8_t*>(&v4.s_addr);
                arg.bytes.insert(arg.bytes.end(), p, p + 4);
            } else {
                return invalid("GID");
            }
            return std::nullopt;
        }
        case Kind::Group: {
            auto g = parse_group(w, k.max);
            if (!g) {
                return invalid("group");
            }
            arg.num = *g;
            return std::nullopt;
        }
        case Kind::Q16: {
            auto q = parse_q16(w);
            if (!q || *q == 0 || *q > k.max) {
                return invalid("value");
            }
            arg.num = *q;
            return std::nullopt;
        }
    }
    return invalid("value");
}

ParseResult parse_command(Command cmd, const ObjSpec& obj, const CmdSpec& spec,
                          const std::vector<std::string>& w, std::size_t i) {
    cmd.command = spec.name;
    std::vector<std::string> names;
    for (const KeySpec& k : spec.keys) {
        names.push_back(k.name);
    }
    std::string hint = "mrc-ip " + obj.name + (spec.name.empty() ? "" : " " + spec.name) + " help";
    for (; i < w.size(); ++i) {
        if (w[i] == "help") {
            cmd.action = Action::Help;
            cmd.help_text = "Usage: " + indented(spec.usage) + "\n";
            return cmd;
        }
        auto m = match_word("keyword", w[i], names);
        if (std::holds_alternative<ParseError>(m)) {
            // [ dev ] DEV: a word that is no keyword names the device.
            bool ambiguous = std::get<ParseError>(m).message.find("ambiguous") != std::string::npos;
            if (spec.positional_dev && !cmd.has("dev") && !ambiguous) {
                Arg a;
                if (auto e = parse_value(dev_key(), w[i], a)) {
                    return ParseError{*e};
                }
                cmd.args.emplace("dev", a);
                continue;
            }
            if (ambiguous) {
                return std::get<ParseError>(m);
            }
            return bad("argument", w[i], hint);
        }
        const std::string& key = std::get<std::string>(m);
        const KeySpec& k = *std::find_if(spec.keys.begin(), spec.keys.end(),
                                         [&](auto& s) { return s.name == key; });
        if (cmd.has(key) && !k.repeat) {
            return ParseError{"\"" + key + "\" given twice"};
        }
        Arg a;
        if (k.kind != Kind::Flag) {
            if (i + 1 >= w.size()) {
                return ParseError{"\"" + key + "\" needs a value, try \"" + hint + "\""};
            }
            if (auto e = parse_value(k, w[++i], a)) {
                return ParseError{*e};
            }
        }
        cmd.args.emplace(key, a);
    }
    for (const std::string& r : spec.required) {
        if (!cmd.has(r)) {
            return ParseError{"missing \"" + r + "\", try \"" + hint + "\""};
        }
    }
    if (spec.check) {
        if (auto e = spec.check(cmd)) {
            return ParseError{*e + ", try \"" + hint + "\""};
        }
    }
    cmd.action = Action::Run;
    return cmd;
}

}  // namespace

const Arg* Command::get(const std::string& key) const {
    auto it = args.find(key);
    return it == args.end() ? nullptr : &it->second;
}

std::vector<const Arg*> Command::all(const std::string& key) const {
    std::vector<const Arg*> out;
    auto range = args.equal_range(key);
    for (auto it = range.first; it != range.second; ++it) {
        out.push_back(&it->second);
    }
    return out;
}

const std::string& usage_text() {
    static const std::string s =
        "Usage: mrc-ip [ OPTIONS ] OBJECT { COMMAND | help }\n"
        "       mrc-ip [ -force ] -batch FILE\n"
        "where  OBJECT := { dev | port | evfmt | evprofile | path | ccprofile | qp |\n"
        "                   stats | monitor | probe }\n"
        "       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -j[son] | -p[retty] |\n"
        "                    -n[etns] NAME | -b[atch] FILE | -force | -h[elp] }\n";
    return s;
}

std::variant<std::string, ParseError> match_word(const std::string& what, const std::string& word,
                                                 const std::vector<std::string>& candidates,
                                                 const std::vector<std::string>& canon) {
    auto canonical = [&](std::size_t i) { return canon.empty() ? candidates[i] : canon[i]; };
    std::vector<std::string> hits;
    std::vector<std::string> hit_words;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i] == word) {
            return canonical(i);
        }
        if (!word.empty() && candidates[i].compare(0, word.size(), word) == 0 &&
            std::find(hits.begin(), hits.end(), canonical(i)) == hits.end()) {
            hits.push_back(canonical(i));
            hit_words.push_back(candidates[i]);
        }
    }
    // ip's customary short forms.
    for (const char* s : {"show", "dev"}) {
        if (word.size() == 1 && word[0] == s[0] &&
            std::find(hits.begin(), hits.end(), s) != hits.end()) {
            return std::string(s);
        }
    }
    if (hits.size() == 1) {
        return hits.front();
    }
    if (hits.empty()) {
        return ParseError{what + " \"" + word + "\" is unknown"};
    }
    std::string list;
    for (const auto& h : hit_words) {
        list += (list.empty() ? "" : ", ") + h;
    }
    return ParseError{what + " \"" + word + "\" is ambiguous: " + list};
}

std::optional<uint64_t> parse_number(const std::string& s, uint64_t max) {
    if (s.empty() || s[0] == '-' || s[0] == '+' || std::isspace(static_cast<unsigned char>(s[0]))) {
        return std::nullopt;
    }
    bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char* digits = hex ? "0123456789abcdefABCDEF" : "0123456789";
    if (s.find_first_not_of(digits, hex ? 2 : 0) != std::string::npos) {
        return std::nullopt;
    }
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, hex ? 16 : 10);
    if (errno == ERANGE || v > max) {
        return std::nullopt;
    }
    return v;
}

std::optional<uint64_t> parse_group(const std::string& s, uint64_t max) {
    if (!s.empty() && s[0] >= '0' && s[0] <= '9') {
        return parse_number(s, max);
    }
    // A name, looked up as chgrp(1) does (/etc/group or NSS).
    std::vector<char> buf(4096);
    group gr{};
    group* found = nullptr;
    int err = 0;
    while ((err = getgrnam_r(s.c_str(), &gr, buf.data(), buf.size(), &found)) == ERANGE &&
           buf.size() < (1u << 20)) {
        buf.resize(buf.size() * 2);
    }
    if (err != 0 || found == nullptr || found->gr_gid > max) {
        return std::nullopt;
    }
    return found->gr_gid;
}

std::optional<uint64_t> parse_duration(const std::string& s) {
    static const std::pair<const char*, uint64_t> units[] = {
        {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    for (const auto& [u, mul] : units) {
        std::size_t n = std::strlen(u);
        if (s.size() > n && s.compare(s.size() - n, n, u) == 0) {
            std::string num = s.substr(0, s.size() - n);
            if (num.back() < '0' || num.back() > '9') {
                continue;  // "10ms" must not match "s" with "10m"
            }
            auto v = parse_number(num, UINT64_MAX / mul);
            return v ? std::optional<uint64_t>(*v * mul) : std::nullopt;
        }
    }
    return std::nullopt;
}

// An EV: a number (STEV, UDP: 4 bytes) or, for SRV6, one IPv6 address
// or two separated by a comma, as `ip -6 route ... encap seg6 segs A,B`.
std::optional<std::vector<uint8_t>> parse_ev_value(const std::string& s) {
    if (s.find(':') != std::string::npos) {
        std::size_t comma = s.find(',');
        std::vector<std::string> addrs{s.substr(0, comma)};
        if (comma != std::string::npos) {
            addrs.push_back(s.substr(comma + 1));
        }
        std::vector<uint8_t> out;
        for (const std::string& a : addrs) {
            uint8_t buf[16];
            if (inet_pton(AF_INET6, a.c_str(), buf) != 1) {
                return std::nullopt;
            }
            out.insert(out.end(), buf, buf + 16);
        }
        return out;
    }
    auto v = parse_number(s, UINT32_MAX);
    if (!v) {
        return std::nullopt;
    }
    return std::vector<uint8_t>{static_cast<uint8_t>(*v >> 24), static_cast<uint8_t>(*v >> 16),
                                static_cast<uint8_t>(*v >> 8), static_cast<uint8_t>(*v)};
}

std::optional<std::vector<std::string>> split_line(const std::string& line) {
    std::vector<std::string> words;
    std::string cur;
    bool in_word = false;
    char quote = 0;
    for (char c : line) {
        if (quote != 0) {
            if (c == quote) {
                quote = 0;
            } else {
                cur += c;
            }
        } else if (c == '"' || c == '\'') {
            quote = c;
            in_word = true;
        } else if (c == '#' && !in_word) {
            break;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (in_word) {
                words.push_back(cur);
                cur.clear();
                in_word = false;
            }
        } else {
            cur += c;
            in_word = true;
        }
    }
    if (quote != 0) {
        return std::nullopt;
    }
    if (in_word) {
        words.push_back(cur);
    }
    return words;
}

ParseResult parse_object(const Options& options, const std::vector<std::string>& w) {
    Command cmd;
    cmd.options = options;
    if (w.empty()) {
        return ParseError{"missing object, try \"mrc-ip help\""};
    }
    if (w[0] == "help") {
        cmd.help_text = usage_text();
        return cmd;
    }
    std::vector<std::string> names;
    std::vector<std::string> canon;
    for (const ObjSpec& o : grammar()) {
        names.push_back(o.name);
        canon.push_back(o.name);
        for (const auto& a : o.aliases) {
            names.push_back(a);
            canon.push_back(o.name);
        }
    }
    auto m = match_word("object", w[0], names, canon);
    if (auto* e = std::get_if<ParseError>(&m)) {
        if (e->message.find("ambiguous") != std::string::npos) {
            return *e;
        }
        return bad("object", w[0], "mrc-ip help");
    }
    const ObjSpec& obj = *std::find_if(grammar().begin(), grammar().end(),
                                       [&](auto& o) { return o.name == std::get<std::string>(m); });
    cmd.object = obj.name;
    if (w.size() > 1 && w[1] == "help") {
        cmd.help_text = object_help(obj);
        return cmd;
    }
    if (obj.cmds.front().name.empty() || w.size() == 1) {
        return parse_command(cmd, obj, obj.cmds.front(), w, 1);
    }
    std::vector<std::string> cmds;
    std::vector<std::string> cmd_canon;
    for (const CmdSpec& c : obj.cmds) {
        cmds.push_back(c.name);
        cmd_canon.push_back(c.name);
    }
    for (const auto& [alias, to] : std::vector<std::pair<std::string, std::string>>{
             {"list", "show"}, {"lst", "show"}, {"delete", "del"}}) {
        if (std::find(cmds.begin(), cmds.end(), to) != cmds.end()) {
            cmds.push_back(alias);
            cmd_canon.push_back(to);
        }
    }
    auto c = match_word("command", w[1], cmds, cmd_canon);
    if (auto* e = std::get_if<ParseError>(&c)) {
        if (e->message.find("ambiguous") != std::string::npos) {
            return *e;
        }
        // [ show ] is optional: "dev mrc0", "evfmt dev mrc0 id 1".
        const CmdSpec& show = obj.cmds.front();
        bool is_show_key = std::any_of(show.keys.begin(), show.keys.end(), [&](auto& k) {
            return k.name.compare(0, w[1].size(), w[1]) == 0;
        });
        if (show.positional_dev || is_show_key) {
            return parse_command(cmd, obj, show, w, 1);
        }
        return bad("command", w[1], "mrc-ip " + obj.name + " help");
    }
    const CmdSpec& spec = *std::find_if(obj.cmds.begin(), obj.cmds.end(), [&](auto& s) {
        return s.name == std::get<std::string>(c);
    });
    return parse_command(cmd, obj, spec, w, 2);
}

ParseResult parse_command_line(const std::vector<std::string>& args) {
    Options opt;
    std::size_t i = 0;
    for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; ++i) {
        if (args[i] == "--") {
            ++i;
            break;
        }
        auto o = match_option(args[i]);
        if (!o) {
            return bad("option", args[i], "mrc-ip -help");
        }
        if (*o == "Version") {
            Command cmd;
            cmd.action = Action::Version;
            return cmd;
        }
        if (*o == "help") {
            Command cmd;
            cmd.help_text = usage_text();
            return cmd;
        }
        if (*o == "netns" || *o == "batch") {
            if (i + 1 >= args.size()) {
                return ParseError{"option \"" + args[i] + "\" needs an argument"};
            }
            (*o == "netns" ? opt.netns : opt.batch) = args[++i];
        } else if (*o == "statistics") {
            ++opt.stats;
        } else if (*o == "details") {
            opt.details = true;
        } else if (*o == "json") {
            opt.json = true;
        } else if (*o == "pretty") {
            opt.pretty = true;
        } else if (*o == "force") {
            opt.force = true;
        }
    }
    std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    if (opt.batch) {
        if (!rest.empty()) {
            return ParseError{"argument \"" + rest.front() + "\" after -batch FILE"};
        }
        Command cmd;
        cmd.options = opt;
        cmd.action = Action::Batch;
        return cmd;
    }
    if (rest.empty()) {
        return ParseError{"missing object, try \"mrc-ip help\""};
    }
    return parse_object(opt, rest);
}

}  // namespace mrc_ip
