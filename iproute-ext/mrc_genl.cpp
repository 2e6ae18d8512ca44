// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_genl.h"

#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cerrno>

#include "mrc-genl.h"
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
        // MISS_NEST is an offset into our request: name the nest's type.
        nlmsghdr* req = nlmsg_hdr(msg.get());
        if (st.miss_nest >= 0) {
            auto off = static_cast<uint32_t>(st.miss_nest);
            st.miss_nest = -2;
            if (off + sizeof(nlattr) <= req->nlmsg_len) {
                const auto* a =
                    reinterpret_cast<const nlattr*>(reinterpret_cast<const char*>(req) + off);
                st.miss_nest = a->nla_type & NLA_TYPE_MASK;
            }
        }
        if (!st.dump_intr) {
            break;
        }
    }
    return st;
}

std::string attr_name(int type, int nest_type) {
    static const char* const top[] = {"unspec",
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
    static const char* const evfmt[] = {"unspec", "mode", "fields", "field_width"};
    static const char* const evprof[] = {"unspec",     "mode",   "fmt_id", "count",   "min_active",
                                         "event_mask", "fields", "field",  "ndenied", "nbad"};
    static const char* const ev[] = {"unspec",    "index",    "value", "port",
                                     "new_value", "new_port", "state", "flags"};
    static const char* const ccprof[] = {"unspec", "alg", "params"};
    static const char* const probe[] = {"unspec",   "req_id",   "sgid_index", "dgid",
                                        "fmt_mode", "ev_value", "prof_id",    "ev_index"};
    auto pick = [&](const char* const* names, std::size_t n, const char* prefix) {
        if (type >= 0 && static_cast<std::size_t>(type) < n) {
            return std::string(prefix) + names[type];
        }
        return std::string(prefix) + "attribute " + std::to_string(type);
    };
#define PICK(a, p) pick(a, sizeof(a) / sizeof(a[0]), p)
    switch (nest_type) {
        case -1:
            return PICK(top, "");
        case MRC_ATTR_EVFMT:
            return PICK(evfmt, "evfmt ");
        case MRC_ATTR_EVPROF:
            return PICK(evprof, "evprof ");
        case MRC_ATTR_EV_ENTRY:
        case MRC_ATTR_EVS:
            return PICK(ev, "ev ");
        case MRC_ATTR_CCPROF:
            return PICK(ccprof, "ccprof ");
        case MRC_ATTR_PROBE_ENTRY:
        case MRC_ATTR_PROBES:
            return PICK(probe, "probe ");
    }
#undef PICK
    return "attribute " + std::to_string(type) + " in nest " + std::to_string(nest_type);
}

}  // namespace mrc_ip
