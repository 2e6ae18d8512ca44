// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_calls.h"

#include <netlink/msg.h>

#include <cerrno>

#include "mrc-genl.h"

namespace mrc::lib::ctl {

const ProfileCmds kEvFmtCmds = {MRC_CMD_EVFMT_GET, MRC_CMD_EVFMT_NEW, MRC_CMD_EVFMT_SET};
const ProfileCmds kEvProfCmds = {MRC_CMD_EVPROF_GET, MRC_CMD_EVPROF_NEW, MRC_CMD_EVPROF_SET};
const ProfileCmds kCcProfCmds = {MRC_CMD_CCPROF_GET, MRC_CMD_CCPROF_NEW, MRC_CMD_CCPROF_SET};

namespace {

// A doit whose reply, if any, is not needed.
int send(Link& link, genl::NlMsgPtr msg, const Put& put) noexcept {
    if (!msg)
        return ENOMEM;
    if (int err = put(msg.get()))
        return err;
    return link.exchange(msg.get(), [](nlmsghdr*) { return genl::Status{}; });
}

// A handler that parses the one reply with parse into out.
template <typename T, typename Parse>
genl::GenlSocket::ReplyHandler parse_into(T& out, Parse parse) {
    return [&out, parse](nlmsghdr* nlh) {
        std::optional<T> v = parse(nlh, nullptr);
        if (!v)
            return genl::Status::local(EPROTO, "malformed reply");
        out = std::move(*v);
        return genl::Status{};
    };
}

}  // namespace

int get_device(Link& link, const char* dev, genl::MrcDevice& out) noexcept {
    genl::NlMsgPtr msg = link.request(MRC_CMD_DEV_GET, dev, false);
    if (!msg)
        return ENOMEM;
    return link.exchange(msg.get(), parse_into(out, genl::parse_dev_reply));
}

int set_device(Link& link, const char* dev, const Put& put) noexcept {
    return send(link, link.request(MRC_CMD_DEV_SET, dev, false), put);
}

int modify_profile(Link& link, const char* dev, const ProfileCmds& cmds, uint64_t id,
                   const Put& put) noexcept {
    int err = send(link, link.request(cmds.set, dev, id), put);
    if (err != ENOENT)
        return err;
    // ENOENT may also be about something the request names (an EV
    // profile's format): then the profile exists and NEW says EEXIST.
    err = send(link, link.request(cmds.add, dev, id), put);
    return err == EEXIST ? ENOENT : err;
}

namespace {

// *_GET of profile id into out; one the kernel does not have is in INIT.
template <typename T, typename Parse>
int get_profile(Link& link, const char* dev, const ProfileCmds& cmds, uint64_t id, T& out,
                Parse parse) noexcept {
    genl::NlMsgPtr msg = link.request(cmds.get, dev, id);
    if (!msg)
        return ENOMEM;
    int err = link.exchange(msg.get(), parse_into(out, parse));
    if (err == ENOENT) {
        out = T{};
        out.id = id;
        out.state = MRC_PROF_INIT;
        err = 0;
    }
    return err;
}

}  // namespace

int get_evfmt(Link& link, const char* dev, uint64_t id, genl::EvFmt& out) noexcept {
    return get_profile(link, dev, kEvFmtCmds, id, out, genl::parse_evfmt_reply);
}

int get_evprof(Link& link, const char* dev, uint64_t id, genl::EvProf& out) noexcept {
    return get_profile(link, dev, kEvProfCmds, id, out, genl::parse_evprof_reply);
}

int get_ccprof(Link& link, const char* dev, uint64_t id, genl::CcProf& out) noexcept {
    return get_profile(link, dev, kCcProfCmds, id, out, genl::parse_ccprof_reply);
}

int get_evs(Link& link, const char* dev, uint64_t id, std::vector<genl::EvEntry>& out) noexcept {
    genl::NlMsgPtr msg = link.request(MRC_CMD_EVPROF_EV_GET, dev, true);
    if (!msg || nla_put_u64(msg.get(), MRC_ATTR_PROF_ID, id) < 0)
        return ENOMEM;
    auto on_reply = [&out](nlmsghdr* nlh) {
        std::optional<genl::EvTable> t = genl::parse_ev_table_reply(nlh, nullptr);
        if (!t)
            return genl::Status::local(EPROTO, "malformed EV table");
        for (genl::EvEntry& e : t->evs)
            out.push_back(std::move(e));
        return genl::Status{};
    };
    out.clear();
    return link.dump(msg.get(), on_reply, [&out] { out.clear(); });
}

int probe(Link& link, const char* dev, const Put& put,
          std::vector<genl::ProbeAnswer>& answers) noexcept {
    genl::NlMsgPtr msg = link.request(MRC_CMD_PROBE, dev, false);
    if (!msg)
        return ENOMEM;
    if (int err = put(msg.get()))
        return err;
    return link.exchange(msg.get(), parse_into(answers, genl::parse_probe_reply));
}

int set_evs(Link& link, const char* dev, uint64_t id, const Put& put) noexcept {
    return send(link, link.request(MRC_CMD_EVPROF_EV_SET, dev, id), put);
}

}  // namespace mrc::lib::ctl
