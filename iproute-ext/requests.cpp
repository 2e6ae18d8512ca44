// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "requests.h"

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <string>

#include "mrc-genl.h"

namespace mrc_ip {
namespace {

void check(int rc) {
    if (rc < 0) {
        throw BuildError{};
    }
}

nlattr* nest(nl_msg* m, int type) {
    nlattr* n = nla_nest_start(m, type);
    if (n == nullptr) {
        throw BuildError{};
    }
    return n;
}

void put_bytes(nl_msg* m, int type, const std::vector<uint8_t>& b) {
    check(nla_put(m, type, static_cast<int>(b.size()), b.data()));
}

uint8_t state_value(const std::string& s) {
    return s == "init" ? MRC_PROF_INIT : s == "offline" ? MRC_PROF_OFFLINE : MRC_PROF_ONLINE;
}

// access and gid: who may create QPs on an EV or CC profile.
void put_access(nl_msg* m, const Command& c) {
    if (const Arg* a = c.get("access")) {
        uint8_t v = a->word == "open"    ? MRC_PROF_ACCESS_OPEN
                    : a->word == "admin" ? MRC_PROF_ACCESS_ADMIN
                    : a->word == "group" ? MRC_PROF_ACCESS_GROUP
                                         : MRC_PROF_ACCESS_IF_DEFAULT;
        check(nla_put_u8(m, MRC_ATTR_PROF_ACCESS, v));
    }
    if (const Arg* g = c.get("gid")) {
        check(nla_put_u32(m, MRC_ATTR_PROF_ACCESS_GID, static_cast<uint32_t>(g->num)));
    }
}

void put_state(nl_msg* m, const Command& c) {
    if (const Arg* s = c.get("state")) {
        check(nla_put_u8(m, MRC_ATTR_PROF_STATE, state_value(s->word)));
    }
}

struct CcParam {
    const char* key;
    int type;
    bool u8;
};

const CcParam kCcParams[] = {
    {"disable-qa", MRC_CC_NSCC_DISABLE_QA, true},
    {"adjust-bytes", MRC_CC_NSCC_ADJUST_BYTES, false},
    {"adjust-period", MRC_CC_NSCC_ADJUST_PERIOD_NS, false},
    {"base-rtt", MRC_CC_NSCC_BASE_RTT_NS, false},
    {"eta", MRC_CC_NSCC_ETA_Q16, false},
    {"fi", MRC_CC_NSCC_FI_Q16, false},
    {"fi-scale", MRC_CC_NSCC_FI_SCALE_Q16, false},
    {"gamma", MRC_CC_NSCC_GAMMA_Q16, false},
    {"max-md-jump", MRC_CC_NSCC_MAX_MD_JUMP_Q16, false},
    {"max-cwnd", MRC_CC_NSCC_MAX_CWND, false},
    {"qa-gate", MRC_CC_NSCC_QA_GATE, true},
    {"qa-threshold", MRC_CC_NSCC_QA_THRESHOLD_NS, false},
    {"target-delay", MRC_CC_NSCC_TARGET_DELAY_NS, false},
    {"init-pkts", MRC_CC_WIN_INIT_PKTS, false},
    {"min-pkts", MRC_CC_WIN_MIN_PKTS, false},
    {"qdelay-target", MRC_CC_WIN_QDELAY_TARGET_NS, false},
};

}  // namespace

NlMsgPtr new_mrc_request(uint16_t family, uint8_t cmd, bool dump) {
    NlMsgPtr msg(nlmsg_alloc());
    if (!msg || genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, dump ? NLM_F_DUMP : 0,
                            cmd, MRC_GENL_VERSION) == nullptr) {
        throw BuildError{};
    }
    return msg;
}

void put_dev_and_id(nl_msg* msg, const Command& c, const uint64_t* id_override) {
    if (const Arg* d = c.get("dev")) {
        check(nla_put_string(msg, MRC_ATTR_DEV_NAME, d->word.c_str()));
    }
    if (id_override != nullptr) {
        check(nla_put_u64(msg, MRC_ATTR_PROF_ID, *id_override));
    } else if (const Arg* id = c.get("id")) {
        check(nla_put_u64(msg, MRC_ATTR_PROF_ID, id->num));
    }
}

void build_dev_set(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    if (const Arg* e = c.get("evprofile")) {
        check(nla_put_u64(msg, MRC_ATTR_DEV_DEFAULT_EVPROF, e->num));
    }
    if (const Arg* e = c.get("ccprofile")) {
        check(nla_put_u64(msg, MRC_ATTR_DEV_DEFAULT_CCPROF, e->num));
    }
    if (c.has("up") || c.has("down")) {
        check(nla_put_u8(msg, MRC_ATTR_PORT_ADMIN,
                         c.has("up") ? MRC_PORT_ADMIN_ENABLED : MRC_PORT_ADMIN_DISABLED));
    }
}

void build_evfmt(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    if (c.has("mode") || c.has("fields")) {
        nlattr* n = nest(msg, MRC_ATTR_EVFMT);
        if (const Arg* m = c.get("mode")) {
            uint8_t v = m->word == "stev"  ? MRC_FMT_STEV
                        : m->word == "udp" ? MRC_FMT_UDP
                                           : MRC_FMT_SRV6;
            check(nla_put_u8(msg, MRC_EVFMT_MODE, v));
        }
        if (const Arg* f = c.get("fields")) {
            nlattr* l = nest(msg, MRC_EVFMT_FIELDS);
            for (uint64_t w : f->list) {
                check(nla_put_u8(msg, MRC_EVFMT_FIELD_WIDTH, static_cast<uint8_t>(w)));
            }
            nla_nest_end(msg, l);
        }
        nla_nest_end(msg, n);
    }
    put_state(msg, c);
}

void build_evprof(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    static const char* const keys[] = {"mode", "fmt", "count", "min-active", "events", "field"};
    bool any = false;
    for (const char* k : keys) {
        any = any || c.has(k);
    }
    if (any) {
        nlattr* n = nest(msg, MRC_ATTR_EVPROF);
        if (const Arg* m = c.get("mode")) {
            check(nla_put_u8(msg, MRC_EVPROF_MODE,
                             m->word == "explicit" ? MRC_EV_MODE_EXPLICIT : MRC_EV_MODE_GENERATED));
        }
        if (const Arg* f = c.get("fmt")) {
            check(nla_put_u64(msg, MRC_EVPROF_FMT_ID, f->num));
        }
        if (const Arg* n2 = c.get("count")) {
            check(nla_put_u32(msg, MRC_EVPROF_COUNT, static_cast<uint32_t>(n2->num)));
        }
        if (const Arg* n2 = c.get("min-active")) {
            check(nla_put_u32(msg, MRC_EVPROF_MIN_ACTIVE, static_cast<uint32_t>(n2->num)));
        }
        if (const Arg* e = c.get("events")) {
            uint32_t good = 1u << MRC_GENL_EV_GOOD;
            uint32_t bad = 1u << MRC_GENL_EV_ASSUMED_BAD;
            uint32_t v = e->word == "good"  ? good
                         : e->word == "bad" ? bad
                         : e->word == "all" ? good | bad
                                            : 0;
            check(nla_put_u32(msg, MRC_EVPROF_EVENT_MASK, v));
        }
        if (c.has("field")) {
            nlattr* l = nest(msg, MRC_EVPROF_FIELDS);
            for (const Arg* f : c.all("field")) {
                nlattr* e = nest(msg, MRC_EVPROF_FIELD);
                const int types[] = {MRC_EVFIELD_WIDTH, MRC_EVFIELD_INIT, MRC_EVFIELD_MIN,
                                     MRC_EVFIELD_MAX, MRC_EVFIELD_MASK};
                for (int i = 0; i < 5; ++i) {
                    check(nla_put_u32(msg, types[i], static_cast<uint32_t>(f->list[i])));
                }
                nla_nest_end(msg, e);
            }
            nla_nest_end(msg, l);
        }
        nla_nest_end(msg, n);
    }
    // Explicit EVs go as an EV list next to the profile nest.
    if (c.has("ev") && c.command == "add") {
        nlattr* l = nest(msg, MRC_ATTR_EVS);
        uint32_t i = 0;
        for (const Arg* e : c.all("ev")) {
            nlattr* n = nest(msg, MRC_ATTR_EV_ENTRY);
            check(nla_put_u32(msg, MRC_EV_INDEX, i++));
            put_bytes(msg, MRC_EV_VALUE, e->bytes);
            check(nla_put_u8(msg, MRC_EV_PORT, e->port != 0 ? e->port : 1));
            nla_nest_end(msg, n);
        }
        nla_nest_end(msg, l);
    }
    put_access(msg, c);
    put_state(msg, c);
}

void build_ev_set(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    bool replace = c.command == "replace";
    check(nla_put_u8(msg, MRC_ATTR_EV_OP, replace ? MRC_EV_OP_REPLACE : MRC_EV_OP_SET_STATE));
    nlattr* l = nest(msg, MRC_ATTR_EVS);
    uint8_t state = c.command == "deny" ? MRC_GENL_EV_DENIED : MRC_GENL_EV_GOOD;
    auto entry = [&](const uint32_t* index, const std::vector<uint8_t>* value) {
        nlattr* n = nest(msg, MRC_ATTR_EV_ENTRY);
        if (index != nullptr) {
            check(nla_put_u32(msg, MRC_EV_INDEX, *index));
        } else {
            put_bytes(msg, MRC_EV_VALUE, *value);
        }
        if (replace) {
            const Arg* w = c.get("with");
            put_bytes(msg, MRC_EV_NEW_VALUE, w->bytes);
            check(nla_put_u8(msg, MRC_EV_NEW_PORT, w->port != 0 ? w->port : 1));
            if (c.has("all")) {
                check(nla_put_u32(msg, MRC_EV_FLAGS, MRC_EV_F_ALL_COPIES));
            }
        } else {
            check(nla_put_u8(msg, MRC_EV_STATE, state));
        }
        nla_nest_end(msg, n);
    };
    // In the order given on the command line: the multimap keeps that order
    // per key only, so walk index entries, then ev entries.
    for (const Arg* a : c.all("index")) {
        uint64_t last = replace ? a->num : a->num2;
        for (uint64_t i = a->num; i <= last; ++i) {
            uint32_t idx = static_cast<uint32_t>(i);
            entry(&idx, nullptr);
        }
    }
    for (const Arg* a : c.all("ev")) {
        entry(nullptr, &a->bytes);
    }
    nla_nest_end(msg, l);
}

void build_ccprof(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    bool params = false;
    for (const CcParam& p : kCcParams) {
        params = params || c.has(p.key);
    }
    if (c.has("alg") || params) {
        nlattr* n = nest(msg, MRC_ATTR_CCPROF);
        if (const Arg* a = c.get("alg")) {
            check(nla_put_string(msg, MRC_CCPROF_ALG, a->word.c_str()));
        }
        if (params) {
            nlattr* pn = nest(msg, MRC_CCPROF_PARAMS);
            for (const CcParam& p : kCcParams) {
                if (const Arg* a = c.get(p.key)) {
                    check(p.u8 ? nla_put_u8(msg, p.type, static_cast<uint8_t>(a->num))
                               : nla_put_u32(msg, p.type, static_cast<uint32_t>(a->num)));
                }
            }
            nla_nest_end(msg, pn);
        }
        nla_nest_end(msg, n);
    }
    put_access(msg, c);
    put_state(msg, c);
}

void build_probe(nl_msg* msg, const Command& c) {
    put_dev_and_id(msg, c);
    if (const Arg* t = c.get("timeout")) {
        check(nla_put_u64(msg, MRC_ATTR_PROBE_TIMEOUT_NS, t->num));
    }
    if (const Arg* t = c.get("tc")) {
        check(nla_put_u8(msg, MRC_ATTR_PROBE_TCLASS, static_cast<uint8_t>(t->num)));
    }
    uint64_t count = c.has("count") ? c.get("count")->num : 1;
    nlattr* l = nest(msg, MRC_ATTR_PROBES);
    for (uint64_t i = 0; i < count; ++i) {
        nlattr* n = nest(msg, MRC_ATTR_PROBE_ENTRY);
        check(nla_put_u16(msg, MRC_PROBE_REQ_ID, static_cast<uint16_t>(i + 1)));
        put_bytes(msg, MRC_PROBE_DGID, c.get("to")->bytes);
        if (const Arg* e = c.get("ev")) {
            put_bytes(msg, MRC_PROBE_EV_VALUE, e->bytes);
            const Arg* m = c.get("mode");
            if (e->bytes.size() != 4) {
                check(nla_put_u8(msg, MRC_PROBE_FMT_MODE, MRC_FMT_SRV6));
            } else if (m != nullptr) {
                check(nla_put_u8(msg, MRC_PROBE_FMT_MODE,
                                 m->word == "stev" ? MRC_FMT_STEV : MRC_FMT_UDP));
            }
        } else {
            check(nla_put_u64(msg, MRC_PROBE_PROF_ID, c.get("evprofile")->num));
            check(nla_put_u32(msg, MRC_PROBE_EV_INDEX, static_cast<uint32_t>(c.get("index")->num)));
        }
        nla_nest_end(msg, n);
    }
    nla_nest_end(msg, l);
}

void build_state(nl_msg* msg, const Command& c, uint64_t id, uint8_t state) {
    put_dev_and_id(msg, c, &id);
    check(nla_put_u8(msg, MRC_ATTR_PROF_STATE, state));
}

}  // namespace mrc_ip
