// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_genl.h"

#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cerrno>
#include <cstring>

#include "mrc-genl.h"
#include "names.h"
#include "requests.h"

namespace mrc_ip {

Status MrcGenlClient::open(const std::string& family) {
    if (Status st = sock_.connect(); !st.ok()) {
        return st;
    }
    if (Status st = sock_.resolve_family(family, family_); !st.ok()) {
        return st;
    }
    return sock_.family_ops(family, ops_);
}

Status MrcGenlClient::call(uint8_t cmd, bool dump, const std::function<void(nl_msg*)>& build,
                           const GenlSocket::ReplyHandler& on_reply,
                           const std::function<void()>& reset) {
    Status st;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (attempt > 0 && reset) {
            reset();
        }
        NlMsgPtr msg;
        try {
            msg = new_mrc_request(family_, cmd, dump);
            build(msg.get());
        } catch (const BuildError&) {
            return Status::local(EMSGSIZE, "request too large");
        }
        if (!dump) {
            nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK;
        }
        st = sock_.transact(msg.get(), on_reply);
        st.attr = describe_attrs(st, nlmsg_hdr(msg.get()));
        if (!st.dump_intr) {
            break;
        }
    }
    return st;
}

namespace {

const char* const kTop[] = {"unspec",
                            "dev_name",
                            "dev_index",
                            "netdev_name",
                            "netdev_ifindex",
                            "udp_port",
                            "port_state",
                            "active_mtu",
                            "pad",
                            "ctl_api_version",
                            "dev_limits",
                            "dev_caps",
                            "dev_fmt_modes",
                            "dev_ev_modes",
                            "dev_cc_algs",
                            "cc_alg_entry",
                            "cc_alg_runnable",
                            "dev_default_evprof",
                            "dev_default_ccprof",
                            "port_admin",
                            "prof_id",
                            "prof_state",
                            "prof_nusers",
                            "prof_users",
                            "prof_users_more",
                            "qpn",
                            "evfmt",
                            "evprof",
                            "ccprof",
                            "evs",
                            "ev_entry",
                            "ev_first",
                            "ev_op",
                            "want_stats",
                            "ev_old_state",
                            "ev_reason",
                            "ev_time",
                            "ev_dropped",
                            "probe_timeout_ns",
                            "probe_tclass",
                            "probes",
                            "probe_entry",
                            "stats"};
const char* const kEvfmt[] = {"unspec", "mode", "fields", "field_width"};
const char* const kEvprof[] = {"unspec",     "mode",   "fmt_id", "count",   "min_active",
                               "event_mask", "fields", "field",  "ndenied", "nbad"};
const char* const kEvfield[] = {"unspec", "width", "init", "min", "max", "mask"};
const char* const kEv[] = {"unspec",    "index",    "value", "port",
                           "new_value", "new_port", "state", "flags"};
const char* const kCcprof[] = {"unspec", "alg", "params"};
const char* const kProbe[] = {"unspec",   "req_id",   "sgid_index", "dgid",
                              "fmt_mode", "ev_value", "prof_id",    "ev_index"};

template <std::size_t N>
std::string pick(const char* const (&names)[N], int type) {
    if (type >= 0 && static_cast<std::size_t>(type) < N) {
        return names[type];
    }
    return "attribute " + std::to_string(type);
}

// Walks the attributes in [pos, end) looking for the one at off.
bool find_attr(const char* base, uint32_t pos, uint32_t end, uint32_t off, std::vector<int>& path) {
    while (pos + NLA_HDRLEN <= end) {
        nlattr a;
        std::memcpy(&a, base + pos, sizeof(a));
        if (a.nla_len < NLA_HDRLEN || pos + a.nla_len > end) {
            return false;
        }
        path.push_back(a.nla_type & NLA_TYPE_MASK);
        if (pos == off) {
            return true;
        }
        if (off > pos && off < pos + a.nla_len && (a.nla_type & NLA_F_NESTED)) {
            return find_attr(base, pos + NLA_HDRLEN, pos + a.nla_len, off, path);
        }
        path.pop_back();
        pos += NLA_ALIGN(a.nla_len);
    }
    return false;
}

}  // namespace

std::vector<int> attr_path_at(const nlmsghdr* request, uint32_t offset) {
    std::vector<int> path;
    uint32_t start = NLMSG_HDRLEN + GENL_HDRLEN;
    if (request == nullptr || offset < start ||
        !find_attr(reinterpret_cast<const char*>(request), start, request->nlmsg_len, offset,
                   path)) {
        return {};
    }
    return path;
}

std::string attr_path_name(const std::vector<int>& p) {
    if (p.empty()) {
        return "";
    }
    std::size_t n = p.size();
    switch (n == 1 ? -1 : p[0]) {
        case -1:
            return pick(kTop, p[0]);
        case MRC_ATTR_EVFMT:
            return "evfmt " + pick(kEvfmt, p[n - 1]);
        case MRC_ATTR_EVPROF:
            return n >= 4 ? "evprof field " + pick(kEvfield, p[3])
                          : "evprof " + pick(kEvprof, p[1]);
        case MRC_ATTR_CCPROF:
            return n >= 3 ? cc_param_name(p[2]) : "ccprof " + pick(kCcprof, p[1]);
        case MRC_ATTR_EVS:
            return n >= 3 ? "ev " + pick(kEv, p[2]) : pick(kTop, p[1]);
        case MRC_ATTR_PROBES:
            return n >= 3 ? "probe " + pick(kProbe, p[2]) : pick(kTop, p[1]);
    }
    std::string s = pick(kTop, p[0]);
    for (std::size_t i = 1; i < n; ++i) {
        s += "/" + std::to_string(p[i]);
    }
    return s;
}

std::string describe_attrs(const Status& st, const nlmsghdr* request) {
    if (st.miss_type >= 0) {
        std::vector<int> path;
        if (st.miss_nest >= 0) {
            path = attr_path_at(request, static_cast<uint32_t>(st.miss_nest));
        }
        path.push_back(st.miss_type);
        return "missing attribute " + attr_path_name(path);
    }
    if (st.bad_offset >= 0) {
        std::vector<int> path = attr_path_at(request, static_cast<uint32_t>(st.bad_offset));
        if (!path.empty()) {
            return "attribute " + attr_path_name(path);
        }
    }
    return "";
}

}  // namespace mrc_ip
