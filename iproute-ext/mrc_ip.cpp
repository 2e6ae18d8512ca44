// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_ip.h"

#include <fcntl.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <variant>

#include "cmdline.h"
#include "mrc-genl.h"
#include "mrc_genl.h"
#include "names.h"
#include "output.h"
#include "requests.h"

#ifndef MRC_VERSION
#error "MRC_VERSION must be defined by the build"
#endif

namespace mrc_ip {
namespace {

// A failure to report: exit code and message (without "mrc-ip: ").
struct Failure {
    int code;
    std::string message;
};

std::string kernel_message(const Status& st) {
    if (!st.from_kernel) {
        return st.message;
    }
    std::string m = std::strerror(st.error);
    if (!st.extack.empty()) {
        m += ": " + st.extack;
    }
    if (!st.attr.empty()) {
        m += " (" + st.attr + ")";
    }
    return m;
}

class Executor {
public:
    Executor(std::ostream& out, std::ostream& err, std::string family)
        : out_(out), err_(err), family_(std::move(family)) {}

    int execute(const Command& c) {
        Failure f = run_command(c);
        if (f.code != kExitOk) {
            err_ << "mrc-ip: " << f.message << '\n';
        }
        return f.code;
    }

    // For batch lines: "FILE:LINE: " before the message.
    int execute(const Command& c, const std::string& where) {
        Failure f = run_command(c);
        if (f.code != kExitOk) {
            err_ << where << ": " << f.message << '\n';
        }
        return f.code;
    }

private:
    std::optional<Failure> open(const Options& o) {
        if (client_) {
            return std::nullopt;
        }
        if (o.netns) {
            std::string path = "/var/run/netns/" + *o.netns;
            int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                return Failure{kExitKernel, "cannot open network namespace \"" + *o.netns +
                                                "\": " + std::strerror(errno)};
            }
            int rc = setns(fd, CLONE_NEWNET);
            int saved = errno;
            ::close(fd);
            if (rc < 0) {
                return Failure{kExitKernel, "setting the network namespace \"" + *o.netns +
                                                "\" failed: " + std::strerror(saved)};
            }
        }
        auto c = std::make_unique<MrcGenlClient>();
        Status st = c->open(family_);
        if (st.error == ENOENT) {
            return Failure{kExitKernel, "generic netlink family \"" + family_ +
                                            "\" not found (is the mrc module loaded?)"};
        }
        if (!st.ok()) {
            return Failure{kExitKernel, st.message};
        }
        client_ = std::move(c);
        return std::nullopt;
    }

    // Opens, checks that the kernel has cmd, and runs one exchange.
    Failure call(const Command& c, uint8_t cmd, bool dump, const std::function<void(nl_msg*)>& b,
                 const GenlSocket::ReplyHandler& h, const std::function<void()>& reset = nullptr) {
        if (auto f = open(c.options)) {
            return *f;
        }
        if (!client_->supports(cmd)) {
            return {kExitKernel, "kernel too old for this command"};
        }
        Status st = client_->call(cmd, dump, b, h, reset);
        if (st.dump_intr) {
            return {kExitKernel, "dump interrupted, table changing"};
        }
        if (!st.ok()) {
            last_ = st;
            return {kExitKernel, kernel_message(st)};
        }
        return {kExitOk, ""};
    }

    template <typename T, typename P>
    Failure get_all(const Command& c, uint8_t cmd, bool dump, P parse, std::vector<T>& out,
                    const std::function<void(nl_msg*)>& b) {
        return call(
            c, cmd, dump, b,
            [&](nlmsghdr* nlh) {
                std::string why;
                auto v = parse(nlh, &why);
                if (!v) {
                    return Status::local(EPROTO, "invalid reply from the kernel: " + why);
                }
                out.push_back(std::move(*v));
                return Status{};
            },
            [&] { out.clear(); });
    }

    OutputOptions oo(const Command& c) const {
        return {c.options.json, c.options.pretty, c.options.stats, c.options.details};
    }

    Failure dev_or_port_show(const Command& c) {
        std::vector<MrcDevice> devs;
        const Arg* d = c.get("dev");
        Failure f = get_all(
            c, MRC_CMD_DEV_GET, d == nullptr,
            [](const nlmsghdr* n, std::string* w) { return parse_dev_reply(n, w); }, devs,
            [&](nl_msg* m) { put_dev_and_id(m, c); });
        if (f.code != kExitOk) {
            if (d != nullptr && last_.error == ENODEV) {
                return {kExitKernel, "device \"" + d->word + "\" not found"};
            }
            return f;
        }
        sort_devices(devs);
        std::vector<Record> recs;
        for (const MrcDevice& dev : devs) {
            recs.push_back(c.object == "port" ? port_record(dev)
                                              : device_record(dev, c.options.details));
        }
        print_records(out_, recs, oo(c));
        return f;
    }

    template <typename T, typename P, typename R>
    Failure profile_show(const Command& c, uint8_t cmd, P parse, R record) {
        std::vector<T> objs;
        Failure f =
            get_all(c, cmd, !c.has("id"), parse, objs, [&](nl_msg* m) { put_dev_and_id(m, c); });
        if (f.code != kExitOk) {
            return f;
        }
        std::vector<Record> recs;
        for (const T& o : objs) {
            recs.push_back(record(o));
        }
        print_records(out_, recs, oo(c));
        return f;
    }

    Failure ev_table(const Command& c, uint8_t cmd, const std::function<void(nl_msg*)>& b) {
        std::vector<EvTable> parts;
        Failure f = get_all(
            c, cmd, true,
            [](const nlmsghdr* n, std::string* w) { return parse_ev_table_reply(n, w); }, parts, b);
        if (f.code != kExitOk) {
            return f;
        }
        std::vector<Record> rows;
        std::optional<Record> cc;
        int stats = cmd == MRC_CMD_EVPROF_EV_GET ? c.options.stats : std::max(1, c.options.stats);
        for (const EvTable& t : parts) {
            if (t.cc) {
                cc = qp_cc_record(*t.cc);
            }
            for (const EvEntry& e : t.evs) {
                rows.push_back(ev_record(e, stats));
            }
        }
        OutputOptions o = oo(c);
        if (cc && o.json && c.options.stats > 0) {
            // -s -j: {"cc": {...}, "evs": [...]}; plain -j keeps the array.
            nlohmann::ordered_json j;
            j["cc"] = to_json(*cc);
            j["evs"] = nlohmann::ordered_json::array();
            for (const Record& r : rows) {
                j["evs"].push_back(to_json(r));
            }
            print_json(out_, j, o.pretty);
            return f;
        }
        if (cc && !o.json) {
            print_records(out_, {*cc}, o);
        }
        print_table(out_, rows, o);
        return f;
    }

    // NEW, then SET to ONLINE unless "offline"; the reply names the new id.
    template <typename P, typename R>
    Failure add(const Command& c, uint8_t new_cmd, uint8_t set_cmd,
                void (*build)(nl_msg*, const Command&), P parse, R record) {
        std::vector<std::decay_t<decltype(*parse(nullptr, nullptr))>> made;
        Failure f = get_all(c, new_cmd, false, parse, made, [&](nl_msg* m) { build(m, c); });
        if (f.code != kExitOk) {
            return f;
        }
        if (made.empty()) {
            return {kExitKernel, "the kernel did not return the new object"};
        }
        if (!c.has("offline")) {
            // A configured profile is OFFLINE; one without configuration is
            // INIT and must go OFFLINE first.
            auto obj = made.front();
            if (obj.state && *obj.state == MRC_PROF_INIT) {
                f = call(
                    c, set_cmd, false,
                    [&](nl_msg* m) { build_state(m, c, obj.id, MRC_PROF_OFFLINE); },
                    [](nlmsghdr*) { return Status{}; });
                if (f.code != kExitOk) {
                    return f;
                }
            }
            made.clear();
            f = get_all(c, set_cmd, false, parse, made,
                        [&](nl_msg* m) { build_state(m, c, obj.id, MRC_PROF_ONLINE); });
            if (f.code != kExitOk) {
                return f;
            }
            if (made.empty()) {
                made.push_back(obj);
                made.front().state = MRC_PROF_ONLINE;
            }
        }
        std::vector<Record> recs;
        for (const auto& o : made) {
            recs.push_back(record(o));
        }
        print_records(out_, recs, oo(c));
        return f;
    }

    Failure simple(const Command& c, uint8_t cmd, const std::function<void(nl_msg*)>& b) {
        return call(c, cmd, false, b, [](nlmsghdr*) { return Status{}; });
    }

    Failure evprofile_del(const Command& c) {
        Failure f = simple(c, MRC_CMD_EVPROF_DEL, [&](nl_msg* m) { put_dev_and_id(m, c); });
        if (f.code == kExitOk || last_.error != EBUSY) {
            return f;
        }
        std::vector<EvProf> p;
        Failure g = get_all(
            c, MRC_CMD_EVPROF_GET, false,
            [](const nlmsghdr* n, std::string* w) { return parse_evprof_reply(n, w); }, p,
            [&](nl_msg* m) { put_dev_and_id(m, c); });
        if (g.code != kExitOk || p.empty()) {
            return f;
        }
        return {kExitKernel, std::string(std::strerror(EBUSY)) + ": " + in_use_message(p.front())};
    }

    Failure monitor(const Command& c);
    Failure probe(const Command& c);
    Failure run_command(const Command& c);

    std::ostream& out_;
    std::ostream& err_;
    std::string family_;
    std::unique_ptr<MrcGenlClient> client_;
    Status last_;

public:
    static std::string in_use_message(const EvProf& p);
};

std::string Executor::in_use_message(const EvProf& p) {
    std::string m = "EV profile " + std::to_string(p.id) + " is in use";
    if (p.users.empty()) {
        // No QP uses it: the kernel refuses a device's default too.
        return m + (p.nusers.value_or(0) > 0 ? " by " + std::to_string(*p.nusers) + " QPs"
                                             : " as the device's default");
    }
    m += " by QP" + std::string(p.users.size() > 1 ? "s " : " ");
    char buf[16];
    for (std::size_t i = 0; i < p.users.size() && i < 2; ++i) {
        std::snprintf(buf, sizeof(buf), "0x%x", p.users[i]);
        m += (i ? ", " : "") + std::string(buf);
    }
    std::size_t total =
        p.nusers ? std::max<std::size_t>(*p.nusers, p.users.size()) : p.users.size();
    if (total > 2) {
        m += " (and " + std::to_string(total - 2) + (p.users_more && !p.nusers ? "+" : "") +
             " more)";
    }
    return m;
}

Failure Executor::monitor(const Command& c) {
    if (auto f = open(c.options)) {
        return *f;
    }
    GenlSocket& s = client_->socket();
    int grp = 0;
    if (Status st = s.resolve_group(family_, MRC_GENL_MCGRP_EVENTS, grp); !st.ok()) {
        return {kExitKernel, "kernel too old for this command"};
    }
    nl_socket_disable_seq_check(s.sock());
    if (int rc = nl_socket_add_membership(s.sock(), grp); rc < 0) {
        // Events name QPs: the kernel lets only CAP_NET_ADMIN join.
        const char* what = rc == -NLE_PERM ? "joining the events group needs CAP_NET_ADMIN"
                                           : "cannot join the events group";
        return {kExitKernel, std::string(what) + ": " + nl_geterror(rc)};
    }
    const Arg* dev = c.get("dev");
    const Arg* prof = c.get("evprofile");
    const Arg* qpn = c.get("qpn");
    Status st = s.transact_stream([&](nlmsghdr* nlh) {
        std::string why;
        auto ev = parse_event(nlh, &why);
        if (!ev) {
            return Status{};  // a malformed event is skipped, not fatal
        }
        if ((dev && ev->dev != dev->word) || (prof && ev->prof_id != prof->num) ||
            (qpn && ev->qpn != static_cast<uint32_t>(qpn->num))) {
            return Status{};
        }
        print_line(out_, event_record(*ev), c.options.json);
        return out_ ? Status{} : Status::local(EPIPE, "error writing output");
    });
    return {kExitKernel, st.message};
}

Failure Executor::probe(const Command& c) {
    std::vector<std::vector<ProbeAnswer>> answers;
    Failure f = get_all(
        c, MRC_CMD_PROBE, false,
        [](const nlmsghdr* n, std::string* w) { return parse_probe_reply(n, w); }, answers,
        [&](nl_msg* m) { build_probe(m, c); });
    if (f.code != kExitOk) {
        return f;
    }
    std::vector<Record> recs;
    for (const auto& list : answers) {
        for (const ProbeAnswer& a : list) {
            recs.push_back(probe_record(a));
        }
    }
    print_records(out_, recs, oo(c));
    return f;
}

Failure Executor::run_command(const Command& c) {
    const std::string& o = c.object;
    const std::string& v = c.command;
    auto pfmt = [](const nlmsghdr* n, std::string* w) { return parse_evfmt_reply(n, w); };
    auto pprof = [](const nlmsghdr* n, std::string* w) { return parse_evprof_reply(n, w); };
    auto pcc = [](const nlmsghdr* n, std::string* w) { return parse_ccprof_reply(n, w); };
    auto put = [&](nl_msg* m) { put_dev_and_id(m, c); };
    if ((o == "dev" || o == "port") && v == "show") {
        return dev_or_port_show(c);
    }
    if ((o == "dev" || o == "port") && v == "set") {
        return simple(c, MRC_CMD_DEV_SET, [&](nl_msg* m) { build_dev_set(m, c); });
    }
    if (o == "evfmt") {
        if (v == "show") {
            return profile_show<EvFmt>(c, MRC_CMD_EVFMT_GET, pfmt, evfmt_record);
        }
        if (v == "add") {
            return add(c, MRC_CMD_EVFMT_NEW, MRC_CMD_EVFMT_SET, build_evfmt, pfmt, evfmt_record);
        }
        if (v == "set") {
            return simple(c, MRC_CMD_EVFMT_SET, [&](nl_msg* m) { build_evfmt(m, c); });
        }
        return simple(c, MRC_CMD_EVFMT_DEL, put);
    }
    if (o == "evprofile") {
        if (v == "show") {
            if (c.has("evs") || (c.options.stats > 0 && c.has("id") && c.has("dev"))) {
                return ev_table(c, MRC_CMD_EVPROF_EV_GET, [&](nl_msg* m) {
                    put(m);
                    if (c.options.stats > 0 && nla_put_flag(m, MRC_ATTR_WANT_STATS) < 0) {
                        throw BuildError{};
                    }
                });
            }
            return profile_show<EvProf>(c, MRC_CMD_EVPROF_GET, pprof, evprof_record);
        }
        if (v == "add") {
            return add(c, MRC_CMD_EVPROF_NEW, MRC_CMD_EVPROF_SET, build_evprof, pprof,
                       evprof_record);
        }
        if (v == "set") {
            return simple(c, MRC_CMD_EVPROF_SET, [&](nl_msg* m) { build_evprof(m, c); });
        }
        if (v == "del") {
            return evprofile_del(c);
        }
        return simple(c, MRC_CMD_EVPROF_EV_SET, [&](nl_msg* m) { build_ev_set(m, c); });
    }
    if (o == "ccprofile") {
        if (v == "show") {
            return profile_show<CcProf>(c, MRC_CMD_CCPROF_GET, pcc, ccprof_record);
        }
        if (v == "add") {
            return add(c, MRC_CMD_CCPROF_NEW, MRC_CMD_CCPROF_SET, build_ccprof, pcc, ccprof_record);
        }
        if (v == "set") {
            return simple(c, MRC_CMD_CCPROF_SET, [&](nl_msg* m) { build_ccprof(m, c); });
        }
        return simple(c, MRC_CMD_CCPROF_DEL, put);
    }
    if (o == "qp") {
        return ev_table(c, MRC_CMD_QP_EV_GET, [&](nl_msg* m) {
            put(m);
            if (nla_put_u32(m, MRC_ATTR_QPN, static_cast<uint32_t>(c.get("qpn")->num)) < 0) {
                throw BuildError{};
            }
        });
    }
    if (o == "stats") {
        return ev_table(c, MRC_CMD_STATS_GET, [&](nl_msg* m) {
            put(m);
            if (nla_put_u64(m, MRC_ATTR_PROF_ID, c.get("evprofile")->num) < 0) {
                throw BuildError{};
            }
        });
    }
    if (o == "monitor") {
        return monitor(c);
    }
    return probe(c);
}

int run_batch(const Options& opt, std::ostream& out, std::ostream& err, const RunConfig& cfg) {
    std::istream* in = cfg.in;
    const std::string& file = *opt.batch;
    std::ifstream f;
    std::istream* src = in;
    if (file != "-" || in == nullptr) {
        f.open(file == "-" ? "/dev/stdin" : file);
        if (!f) {
            err << "mrc-ip: cannot open \"" << file << "\": " << std::strerror(errno) << '\n';
            return kExitSyntax;
        }
        src = &f;
    }
    Executor ex(out, err, cfg.family);
    std::string line;
    int status = kExitOk;
    for (int n = 1; std::getline(*src, line); ++n) {
        std::string where = file + ":" + std::to_string(n);
        auto words = split_line(line);
        if (!words) {
            err << where << ": unterminated quote\n";
            status = kExitSyntax;
        } else if (words->empty()) {
            continue;
        } else {
            ParseResult p = parse_object(opt, *words);
            if (const auto* e = std::get_if<ParseError>(&p)) {
                err << where << ": " << e->message << '\n';
                status = kExitSyntax;
            } else {
                const Command& c = std::get<Command>(p);
                if (c.action == Action::Help) {
                    out << c.help_text;
                    continue;
                }
                int rc = ex.execute(c, where);
                if (rc == kExitOk) {
                    continue;
                }
                status = rc;
            }
        }
        if (!opt.force) {
            return status;
        }
    }
    return status;
}

}  // namespace

std::string evprofile_in_use_message(const EvProf& p);
std::string evprofile_in_use_message(const EvProf& p) {
    return Executor::in_use_message(p);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const RunConfig& config) {
    if (args.empty()) {
        err << usage_text();
        return kExitSyntax;
    }
    ParseResult parsed = parse_command_line(args);
    if (const ParseError* error = std::get_if<ParseError>(&parsed)) {
        err << "mrc-ip: " << error->message << '\n';
        return kExitSyntax;
    }
    const Command& cmd = std::get<Command>(parsed);
    switch (cmd.action) {
        case Action::Help:
            out << cmd.help_text;
            return kExitOk;
        case Action::Version:
            out << "mrc-ip utility, mrc-" << MRC_VERSION << '\n';
            return kExitOk;
        case Action::Batch:
            return run_batch(cmd.options, out, err, config);
        case Action::Run:
            break;
    }
    Executor ex(out, err, config.family);
    return ex.execute(cmd);
}

}  // namespace mrc_ip
