// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "genl_objects.h"

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <array>
#include <cstring>

#include "mrc-genl.h"

namespace mrc::genl {
namespace {

// Thrown inside a parser; turned into a rejection at its boundary.
struct Bad {
    const char* why;
};

template <typename T>
T get(const nlattr* a) {
    if (nla_len(a) != static_cast<int>(sizeof(T))) {
        throw Bad{"attribute of the wrong size"};
    }
    T v;
    std::memcpy(&v, nla_data(a), sizeof(T));
    return v;
}

template <typename T>
std::optional<T> opt(const nlattr* a) {
    return a != nullptr ? std::optional<T>(get<T>(a)) : std::nullopt;
}

std::string get_str(const nlattr* a) {
    const char* p = static_cast<const char*>(nla_data(a));
    int n = nla_len(a);
    if (n < 1 || p[n - 1] != '\0') {
        throw Bad{"unterminated string"};
    }
    return p;
}

// Top-level attributes of a reply of command cmd.
template <std::size_t N>
void parse_top(const nlmsghdr* nlh, std::array<nlattr*, N>& tb, int max) {
    auto* hdr = const_cast<nlmsghdr*>(nlh);
    if (nlh == nullptr || nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr(hdr, 0)) {
        throw Bad{"truncated message"};
    }
    if (genlmsg_parse(hdr, 0, tb.data(), max, nullptr) < 0) {
        throw Bad{"malformed attribute"};
    }
}

template <std::size_t N>
void parse_nest(const nlattr* nest, std::array<nlattr*, N>& tb, int max) {
    if (nla_parse_nested(tb.data(), max, const_cast<nlattr*>(nest), nullptr) < 0) {
        throw Bad{"malformed nested attribute"};
    }
}

using Top = std::array<nlattr*, MRC_ATTR_MAX + 1>;

void parse_common(const Top& tb, ProfileCommon& p) {
    if (tb[MRC_ATTR_DEV_NAME] == nullptr || tb[MRC_ATTR_PROF_ID] == nullptr) {
        throw Bad{"no device name or profile id"};
    }
    p.dev = get_str(tb[MRC_ATTR_DEV_NAME]);
    p.id = get<uint64_t>(tb[MRC_ATTR_PROF_ID]);
    p.state = opt<uint8_t>(tb[MRC_ATTR_PROF_STATE]);
    p.nusers = opt<uint32_t>(tb[MRC_ATTR_PROF_NUSERS]);
    p.users_more = tb[MRC_ATTR_PROF_USERS_MORE] != nullptr;
    p.access = opt<uint8_t>(tb[MRC_ATTR_PROF_ACCESS]);
    p.gid = opt<uint32_t>(tb[MRC_ATTR_PROF_ACCESS_GID]);
    if (const nlattr* u = tb[MRC_ATTR_PROF_USERS]) {
        nlattr* a = nullptr;
        int rem = 0;
        nla_for_each_nested(a, u, rem) {
            p.users.push_back(get<uint32_t>(a));
        }
    }
}

EvEntry parse_entry(const nlattr* nest) {
    std::array<nlattr*, MRC_EV_MAX + 1> tb{};
    parse_nest(nest, tb, MRC_EV_MAX);
    EvEntry e;
    e.index = opt<uint32_t>(tb[MRC_EV_INDEX]);
    if (const nlattr* v = tb[MRC_EV_VALUE]) {
        const auto* p = static_cast<const uint8_t*>(nla_data(v));
        e.value.assign(p, p + nla_len(v));
    }
    e.port = opt<uint8_t>(tb[MRC_EV_PORT]);
    e.state = opt<uint8_t>(tb[MRC_EV_STATE]);
    e.sport = opt<uint16_t>(tb[MRC_EV_WIRE_SPORT]);
    e.flow_label = opt<uint32_t>(tb[MRC_EV_WIRE_FLOW_LABEL]);
    e.bad_qps = opt<uint32_t>(tb[MRC_EV_BAD_QPS]);
    e.uplink = opt<uint32_t>(tb[MRC_EV_WIRE_IFINDEX]);
    e.state_time = opt<uint64_t>(tb[MRC_EV_STATE_TIME]);
    e.srtt_ns = opt<uint64_t>(tb[MRC_EV_SRTT_NS]);
    e.min_rtt_ns = opt<uint64_t>(tb[MRC_EV_MIN_RTT_NS]);
    return e;
}

// MRC_ATTR_STATS sits beside the entry's fields, inside the entry's nest.
void parse_entry_stats(const nlattr* nest, EvEntry& e) {
    nlattr* a = nullptr;
    int rem = 0;
    nla_for_each_nested(a, nest, rem) {
        if (nla_type(a) != MRC_ATTR_STATS) {
            continue;
        }
        nlattr* s = nullptr;
        int srem = 0;
        nla_for_each_nested(s, a, srem) {
            if (nla_type(s) != MRC_STAT_A_PAD) {
                e.stats.emplace_back(nla_type(s), get<uint64_t>(s));
            }
        }
    }
}

template <typename T, typename F>
std::optional<T> guarded(std::string* why, F f) {
    try {
        return f();
    } catch (const Bad& b) {
        if (why != nullptr) {
            *why = b.why;
        }
        return std::nullopt;
    }
}

}  // namespace

std::optional<EvFmt> parse_evfmt_reply(const nlmsghdr* nlh, std::string* why) {
    return guarded<EvFmt>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        EvFmt f;
        parse_common(tb, f);
        if (const nlattr* n = tb[MRC_ATTR_EVFMT]) {
            std::array<nlattr*, MRC_EVFMT_MAX + 1> ft{};
            parse_nest(n, ft, MRC_EVFMT_MAX);
            f.mode = opt<uint8_t>(ft[MRC_EVFMT_MODE]);
            if (const nlattr* l = ft[MRC_EVFMT_FIELDS]) {
                nlattr* a = nullptr;
                int rem = 0;
                nla_for_each_nested(a, l, rem) {
                    f.widths.push_back(get<uint8_t>(a));
                }
            }
        }
        return f;
    });
}

std::optional<EvProf> parse_evprof_reply(const nlmsghdr* nlh, std::string* why) {
    return guarded<EvProf>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        EvProf p;
        parse_common(tb, p);
        if (const nlattr* n = tb[MRC_ATTR_EVPROF]) {
            std::array<nlattr*, MRC_EVPROF_MAX + 1> pt{};
            parse_nest(n, pt, MRC_EVPROF_MAX);
            p.mode = opt<uint8_t>(pt[MRC_EVPROF_MODE]);
            p.fmt_id = opt<uint64_t>(pt[MRC_EVPROF_FMT_ID]);
            p.count = opt<uint32_t>(pt[MRC_EVPROF_COUNT]);
            p.min_active = opt<uint32_t>(pt[MRC_EVPROF_MIN_ACTIVE]);
            p.event_mask = opt<uint32_t>(pt[MRC_EVPROF_EVENT_MASK]);
            p.ndenied = opt<uint32_t>(pt[MRC_EVPROF_NDENIED]);
            p.nbad = opt<uint32_t>(pt[MRC_EVPROF_NBAD]);
            if (const nlattr* l = pt[MRC_EVPROF_FIELDS]) {
                nlattr* a = nullptr;
                int rem = 0;
                nla_for_each_nested(a, l, rem) {
                    std::array<nlattr*, MRC_EVFIELD_MAX_ATTR + 1> et{};
                    parse_nest(a, et, MRC_EVFIELD_MAX_ATTR);
                    EvField fld;
                    fld.width = opt<uint32_t>(et[MRC_EVFIELD_WIDTH]).value_or(0);
                    fld.init = opt<uint32_t>(et[MRC_EVFIELD_INIT]).value_or(0);
                    fld.min = opt<uint32_t>(et[MRC_EVFIELD_MIN]).value_or(0);
                    fld.max = opt<uint32_t>(et[MRC_EVFIELD_MAX]).value_or(0);
                    fld.mask = opt<uint32_t>(et[MRC_EVFIELD_MASK]).value_or(0);
                    p.fields.push_back(fld);
                }
            }
        }
        return p;
    });
}

std::optional<CcProf> parse_ccprof_reply(const nlmsghdr* nlh, std::string* why) {
    return guarded<CcProf>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        CcProf c;
        parse_common(tb, c);
        if (const nlattr* n = tb[MRC_ATTR_CCPROF]) {
            std::array<nlattr*, MRC_CCPROF_MAX + 1> ct{};
            parse_nest(n, ct, MRC_CCPROF_MAX);
            if (ct[MRC_CCPROF_ALG] != nullptr) {
                c.alg = get_str(ct[MRC_CCPROF_ALG]);
            }
            if (const nlattr* l = ct[MRC_CCPROF_PARAMS]) {
                nlattr* a = nullptr;
                int rem = 0;
                nla_for_each_nested(a, l, rem) {
                    int t = nla_type(a);
                    bool u8 = t == MRC_CC_NSCC_DISABLE_QA || t == MRC_CC_NSCC_QA_GATE;
                    c.params.emplace_back(t, u8 ? get<uint8_t>(a) : get<uint32_t>(a));
                }
            }
        }
        return c;
    });
}

namespace {

QpCc parse_qp_cc(const nlattr* nest) {
    std::array<nlattr*, MRC_QP_CC_MAX + 1> ct{};
    parse_nest(nest, ct, MRC_QP_CC_MAX);
    QpCc cc;
    if (ct[MRC_QP_CC_ALG] != nullptr) {
        cc.alg = get_str(ct[MRC_QP_CC_ALG]);
    }
    for (int t = MRC_QP_CC_PROFILE; t <= MRC_QP_CC_MAX; t++) {
        const nlattr* a = ct[t];
        if (a == nullptr) {
            continue;
        }
        if (nla_len(a) == 8) {
            cc.values.emplace_back(t, nla_get_u64(const_cast<nlattr*>(a)));
        } else if (nla_len(a) == 4) {
            cc.values.emplace_back(t, nla_get_u32(const_cast<nlattr*>(a)));
        } else {
            throw Bad{"malformed QP congestion control attribute"};
        }
    }
    return cc;
}

}  // namespace

std::optional<EvTable> parse_ev_table_reply(const nlmsghdr* nlh, std::string* why) {
    return guarded<EvTable>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        EvTable t;
        if (tb[MRC_ATTR_DEV_NAME] == nullptr) {
            throw Bad{"no device name"};
        }
        t.dev = get_str(tb[MRC_ATTR_DEV_NAME]);
        t.prof_id = opt<uint64_t>(tb[MRC_ATTR_PROF_ID]);
        t.qpn = opt<uint32_t>(tb[MRC_ATTR_QPN]);
        t.first = opt<uint32_t>(tb[MRC_ATTR_EV_FIRST]).value_or(0);
        if (const nlattr* c = tb[MRC_ATTR_QP_CC]) {
            t.cc = parse_qp_cc(c);
        }
        if (const nlattr* l = tb[MRC_ATTR_EVS]) {
            nlattr* a = nullptr;
            int rem = 0;
            nla_for_each_nested(a, l, rem) {
                EvEntry e = parse_entry(a);
                parse_entry_stats(a, e);
                if (!e.index) {
                    e.index = t.first + static_cast<uint32_t>(t.evs.size());
                }
                t.evs.push_back(std::move(e));
            }
        }
        return t;
    });
}

std::optional<EvEvent> parse_event(const nlmsghdr* nlh, std::string* why) {
    return guarded<EvEvent>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        EvEvent ev;
        if (tb[MRC_ATTR_DEV_NAME] != nullptr) {
            ev.dev = get_str(tb[MRC_ATTR_DEV_NAME]);
        }
        ev.qpn = opt<uint32_t>(tb[MRC_ATTR_QPN]);
        ev.prof_id = opt<uint64_t>(tb[MRC_ATTR_PROF_ID]);
        if (const nlattr* e = tb[MRC_ATTR_EV_ENTRY]) {
            ev.ev = parse_entry(e);
        }
        ev.old_state = opt<uint8_t>(tb[MRC_ATTR_EV_OLD_STATE]);
        ev.reason = opt<uint8_t>(tb[MRC_ATTR_EV_REASON]);
        ev.time_ns = opt<uint64_t>(tb[MRC_ATTR_EV_TIME]);
        ev.dropped = opt<uint32_t>(tb[MRC_ATTR_EV_DROPPED]);
        return ev;
    });
}

std::optional<std::vector<ProbeAnswer>> parse_probe_reply(const nlmsghdr* nlh, std::string* why) {
    return guarded<std::vector<ProbeAnswer>>(why, [&] {
        Top tb{};
        parse_top(nlh, tb, MRC_ATTR_MAX);
        std::vector<ProbeAnswer> out;
        if (const nlattr* l = tb[MRC_ATTR_PROBES]) {
            nlattr* a = nullptr;
            int rem = 0;
            nla_for_each_nested(a, l, rem) {
                std::array<nlattr*, MRC_PROBE_MAX + 1> pt{};
                parse_nest(a, pt, MRC_PROBE_MAX);
                ProbeAnswer p;
                p.req_id = opt<uint16_t>(pt[MRC_PROBE_REQ_ID]).value_or(0);
                p.rtt_ns = opt<uint64_t>(pt[MRC_PROBE_RTT_NS]);
                p.port = opt<uint8_t>(pt[MRC_PROBE_PORT]);
                p.timed_out = pt[MRC_PROBE_TIMED_OUT] != nullptr;
                out.push_back(p);
            }
        }
        return out;
    });
}

}  // namespace mrc::genl
