// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The family's objects other than devices, as plain structs, and one parser
// per reply kind (kernel/uapi/mrc-genl.h). A parser rejects attributes of
// the wrong size and ignores attributes it does not know.
#ifndef MRC_GENL_GENL_OBJECTS_H
#define MRC_GENL_GENL_OBJECTS_H

#include <linux/netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mrc::genl {

struct ProfileCommon {
    std::string dev;                 // MRC_ATTR_DEV_NAME
    uint64_t id = 0;                 // MRC_ATTR_PROF_ID
    std::optional<uint8_t> state;    // MRC_ATTR_PROF_STATE
    std::optional<uint32_t> nusers;  // MRC_ATTR_PROF_NUSERS
    std::vector<uint32_t> users;     // MRC_ATTR_PROF_USERS (QPNs)
    bool users_more = false;         // MRC_ATTR_PROF_USERS_MORE
    std::optional<uint8_t> access;   // MRC_ATTR_PROF_ACCESS (EV and CC profiles)
    std::optional<uint32_t> gid;     // MRC_ATTR_PROF_ACCESS_GID
};

struct EvFmt : ProfileCommon {
    std::optional<uint8_t> mode;  // enum mrc_genl_fmt_mode
    std::vector<uint32_t> widths;
};

struct EvField {
    uint32_t width = 0, init = 0, min = 0, max = 0, mask = 0;
};

struct EvProf : ProfileCommon {
    std::optional<uint8_t> mode;  // enum mrc_genl_ev_mode
    std::optional<uint64_t> fmt_id;
    std::optional<uint32_t> count, min_active, event_mask, ndenied, nbad;
    std::vector<EvField> fields;
};

struct CcProf : ProfileCommon {
    std::string alg;
    std::vector<std::pair<int, uint64_t>> params;  // enum mrc_genl_cc_param, value
};

struct EvEntry {
    std::optional<uint32_t> index;
    std::vector<uint8_t> value;  // big-endian
    std::optional<uint8_t> port, state;
    std::optional<uint16_t> sport;
    std::optional<uint32_t> flow_label, bad_qps;
    std::optional<uint32_t> uplink;  // SRV6: ifindex the EV leaves by
    std::optional<uint64_t> state_time, srtt_ns, min_rtt_ns;
    std::vector<std::pair<int, uint64_t>> stats;  // enum mrc_genl_stat, value
};

// A QP's congestion control (QP_EV_GET's first message), in the kernel's
// order: enum mrc_genl_qp_cc_attr, value; the algorithm's name apart.
struct QpCc {
    std::string alg;
    std::vector<std::pair<int, uint64_t>> values;
};

// One message of EVPROF_EV_GET, QP_EV_GET or STATS_GET.
struct EvTable {
    std::string dev;
    std::optional<uint64_t> prof_id;
    std::optional<uint32_t> qpn;
    uint32_t first = 0;
    std::vector<EvEntry> evs;  // indexes filled from first when absent
    std::optional<QpCc> cc;
};

struct EvEvent {
    std::string dev;
    std::optional<uint32_t> qpn;
    std::optional<uint64_t> prof_id;
    EvEntry ev;
    std::optional<uint8_t> old_state, reason;
    std::optional<uint64_t> time_ns;
    std::optional<uint32_t> dropped;
};

struct ProbeAnswer {
    uint16_t req_id = 0;
    std::optional<uint64_t> rtt_ns;
    std::optional<uint8_t> port;
    bool timed_out = false;
};

std::optional<EvFmt> parse_evfmt_reply(const nlmsghdr* nlh, std::string* why = nullptr);
std::optional<EvProf> parse_evprof_reply(const nlmsghdr* nlh, std::string* why = nullptr);
std::optional<CcProf> parse_ccprof_reply(const nlmsghdr* nlh, std::string* why = nullptr);
std::optional<EvTable> parse_ev_table_reply(const nlmsghdr* nlh, std::string* why = nullptr);
std::optional<EvEvent> parse_event(const nlmsghdr* nlh, std::string* why = nullptr);
std::optional<std::vector<ProbeAnswer>> parse_probe_reply(const nlmsghdr* nlh,
                                                          std::string* why = nullptr);

}  // namespace mrc::genl

#endif  // MRC_GENL_GENL_OBJECTS_H
