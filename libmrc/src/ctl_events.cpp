// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_events.h"

#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <optional>
#include <utility>

#include "ctl_calls.h"
#include "ctl_evprof.h"
#include "mrc-genl.h"

namespace mrc::lib::ctl {
namespace {

// Receive buffer an event takes: the kernel trims each message to its
// size, a few hundred bytes of buffer (truesize) with the skb around it.
constexpr int kBytesPerEvent = 1024;
constexpr std::size_t kFirstBuffer = 8192;
constexpr uint8_t kPort = 1;  // the only port

// Room for cqe events in the receive buffer of fd. The controller has
// CAP_NET_ADMIN, which lets it pass net.core.rmem_max; without it the
// kernel caps the plain request there.
void size_buffer(int fd, int cqe) noexcept {
    int bytes = std::max(cqe, 256) * kBytesPerEvent;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) != 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
}

uint32_t add_sat(uint32_t a, uint32_t b) noexcept {
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

}  // namespace

int ocp_ev_state(uint8_t genl_state) noexcept {
    switch (genl_state) {
        case MRC_GENL_EV_GOOD:
            return MRC_CTL_EV_GOOD;
        case MRC_GENL_EV_ASSUMED_BAD:
            return MRC_CTL_EV_ASSUMED_BAD;
        case MRC_GENL_EV_DENIED:
            return MRC_CTL_EV_DENIED;
        default:
            return MRC_CTL_EV_UNKNOWN;
    }
}

bool delivers(const genl::EvEvent& e, const std::string& dev) noexcept {
    if (e.dev != dev || !e.prof_id || !e.ev.index)
        return false;
    return !(e.reason &&
             (*e.reason == MRC_EV_REASON_ADMIN_DENY || *e.reason == MRC_EV_REASON_ADMIN_UNDENY));
}

mrc_ctl_ev_event to_ocp_event(const genl::EvEvent& e, const std::vector<genl::EvEntry>* evs,
                              uint32_t drops) noexcept {
    mrc_ctl_ev_event out{};
    out.profile_id = e.prof_id.value_or(0);
    uint32_t idx = e.ev.index.value_or(UINT32_MAX);
    if (!e.ev.value.empty()) {
        out.ev = to_ocp_ev(e.ev);  // a kernel that names the value itself
    } else if (evs) {
        auto it = std::find_if(evs->begin(), evs->end(),
                               [idx](const genl::EvEntry& k) { return k.index == idx; });
        if (it != evs->end())
            out.ev = to_ocp_ev(*it);
    }
    out.ev.port = kPort;
    out.drop_count = drops;
    out.state = static_cast<mrc_ctl_ev_state>(ocp_ev_state(e.ev.state.value_or(0xff)));
    return out;
}

int EvEventSource::open(const char* dev, int cqe) noexcept {
    dev_ = dev;
    if (int err = link_.open())
        return err;
    if (genl::Status st = group_.connect(); !st.ok())
        return st.error;
    int grp = 0;
    if (genl::Status st = group_.resolve_group(MRC_GENL_NAME, MRC_GENL_MCGRP_EVENTS, grp); !st.ok())
        return st.error;
    if (int rc = nl_socket_add_membership(group_.sock(), grp); rc < 0)
        return rc == -NLE_PERM ? EPERM : EIO;
    size_buffer(fd(), cqe);
    buf_.resize(kFirstBuffer);
    return 0;
}

int EvEventSource::fd() const noexcept {
    return group_.sock() ? nl_socket_get_fd(group_.sock()) : -1;
}

int EvEventSource::peek(std::vector<genl::EvEvent>& events, uint32_t& drops) noexcept {
    ssize_t n;
    for (;;) {
        n = recv(fd(), buf_.data(), buf_.size(), MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno == EWOULDBLOCK ? EAGAIN : errno;
        if (static_cast<std::size_t>(n) <= buf_.size())
            break;
        buf_.resize(static_cast<std::size_t>(n));
    }
    auto len = static_cast<int>(n);
    for (auto* nlh = reinterpret_cast<nlmsghdr*>(buf_.data()); NLMSG_OK(nlh, len);
         nlh = NLMSG_NEXT(nlh, len)) {
        if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
            continue;
        const auto* gh = static_cast<const genlmsghdr*>(NLMSG_DATA(nlh));
        if (gh->cmd != MRC_CMD_EV_EVENT)
            continue;
        std::optional<genl::EvEvent> e = genl::parse_event(nlh);
        if (!e) {
            drops = add_sat(drops, 1);  // malformed: counted as lost
            continue;
        }
        // Other devices' events and drop counts are theirs.
        if (e->dev == dev_)
            events.push_back(std::move(*e));
    }
    return 0;
}

void EvEventSource::convert(std::vector<genl::EvEvent>& events, std::vector<mrc_ctl_ev_event>& out,
                            std::size_t max) noexcept {
    // The EVs of each profile named, read once per call.
    std::vector<std::pair<uint64_t, std::optional<std::vector<genl::EvEntry>>>> profiles;
    auto evs_of = [&](uint64_t id) -> const std::vector<genl::EvEntry>* {
        for (auto& [pid, evs] : profiles) {
            if (pid == id)
                return evs ? &*evs : nullptr;
        }
        std::vector<genl::EvEntry> evs;
        if (get_evs(link_, dev_.c_str(), id, evs) != 0) {
            profiles.emplace_back(id, std::nullopt);
            return nullptr;
        }
        profiles.emplace_back(id, std::move(evs));
        return &*profiles.back().second;
    };
    for (const genl::EvEvent& e : events) {
        lost_ = add_sat(lost_, e.dropped.value_or(0));
        if (!delivers(e, dev_))
            continue;
        if (out.size() >= max) {
            lost_ = add_sat(lost_, 1);
            continue;
        }
        out.push_back(to_ocp_event(e, evs_of(*e.prof_id), lost_));
        lost_ = 0;
    }
}

int EvEventSource::read(std::size_t max, std::vector<mrc_ctl_ev_event>& out) noexcept {
    std::vector<genl::EvEvent> events;
    while (out.size() < max) {
        uint32_t drops = 0;
        events.clear();
        int err = peek(events, drops);
        if (err == EAGAIN)
            return 0;
        if (err == ENOBUFS) {
            // The socket overran: at least one event is lost, how many
            // the kernel cannot tell.
            lost_ = add_sat(lost_, 1);
            continue;
        }
        if (err)
            return err;
        std::size_t wanted = static_cast<std::size_t>(
            std::count_if(events.begin(), events.end(),
                          [this](const genl::EvEvent& e) { return delivers(e, dev_); }));
        // A message with more than fits waits for the next call, unless
        // nothing else would ever make room for it.
        if (!out.empty() && wanted > max - out.size())
            return 0;
        while (recv(fd(), nullptr, 0, MSG_TRUNC | MSG_DONTWAIT) < 0 && errno == EINTR) {
        }
        lost_ = add_sat(lost_, drops);
        convert(events, out, max);
    }
    return 0;
}

}  // namespace mrc::lib::ctl

namespace mrc::lib {

void EvCqDeleter::operator()(EvCq* ev) const noexcept {
    delete ev;
}

}  // namespace mrc::lib
