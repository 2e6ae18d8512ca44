// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_evprof.h"

#include <netlink/attr.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "ctl_profile.h"
#include "mrc-genl.h"
#include "mrc_checks.h"

namespace mrc::lib::ctl {
namespace {

constexpr int kOps = MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
constexpr int kConfig = MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
                        MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_MIN_ACTIVE |
                        MRC_CTL_EV_PROFILE_EVENT_MASK | MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
constexpr int kModifyMask =
    kConfig | MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_VENDOR_CFG;
constexpr int kQueryMask = kModifyMask | MRC_CTL_EV_PROFILE_CUR_STATE;
constexpr unsigned kEvModes = MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP | MRC_CTL_EV_MODE_GEN;
constexpr int kEventStates = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
constexpr int kMaxFields = 16;            // MRC_EVPROF_FIELDS
constexpr int kMaxEntries = 4096;         // MRC_ATTR_EVS
constexpr std::size_t kCompactBytes = 4;  // STEV, UDP: MRC_EV_VALUE
constexpr std::size_t kAddrBytes = 16;    // SRV6: one IPv6 address

// The family's event mask and EV states are bit numbers of OCP's bits.
static_assert(MRC_CTL_EV_GOOD == 1 << MRC_GENL_EV_GOOD);
static_assert(MRC_CTL_EV_ASSUMED_BAD == 1 << MRC_GENL_EV_ASSUMED_BAD);
static_assert(MRC_CTL_EV_DENIED == 1 << MRC_GENL_EV_DENIED);
static_assert(static_cast<uint32_t>(MRC_CTL_EV_UNKNOWN) == 1u << MRC_GENL_EV_UNKNOWN);

bool unpopulated(const mrc_ctl_ev& ev) {
    return ev.port == 0 &&
           std::all_of(std::begin(ev.val), std::end(ev.val), [](uint8_t b) { return b == 0; });
}

bool same(const mrc_ctl_ev& a, const mrc_ctl_ev& b) {
    return a.port == b.port && std::memcmp(a.val, b.val, sizeof(a.val)) == 0;
}

// An EV that names a path: on the device's port.
bool valid_ev(const mrc_ctl_ev& ev) {
    return ev.port == kPort;
}

bool valid_replace(const mrc_ctl_ev_op_entry& e) {
    bool from = unpopulated(e.ev), to = unpopulated(e.ev_new);
    return !(from && to) && (from || valid_ev(e.ev)) && (to || valid_ev(e.ev_new)) &&
           !(e.flags & ~MRC_CTL_EV_OP_F_ALL_COPIES);
}

bool valid_set_state(const mrc_ctl_ev_op_entry& e) {
    return valid_ev(e.ev) && (e.state == MRC_CTL_EV_GOOD || e.state == MRC_CTL_EV_DENIED);
}

template <typename Valid>
bool all_entries(const mrc_ctl_ev_op_entry* entries, int count, Valid valid) {
    return std::all_of(entries, entries + count, valid);
}

int check_ev_op(const mrc_ctl_ev_profile_attr& attr, bool modify) {
    const auto& op = attr.ev_op;
    const mrc_ctl_ev_op_entry* e = op.entries;
    int n = op.entry_count;
    switch (op.op) {
        case MRC_CTL_EV_OP_REPLACE_EV:
            return modify && valid_array(e, n, 1, kMaxEntries) && all_entries(e, n, valid_replace)
                       ? 0
                       : EINVAL;
        case MRC_CTL_EV_OP_MODIFY_EV_STATE:
            return modify && valid_array(e, n, 1, kMaxEntries) && all_entries(e, n, valid_set_state)
                       ? 0
                       : EINVAL;
        case MRC_CTL_EV_OP_QUERY_EV_STATE:
            return !modify && valid_array(e, n, 1, kMaxEntries) &&
                           all_entries(e, n, [](const auto& x) { return valid_ev(x.ev); })
                       ? 0
                       : EINVAL;
        case MRC_CTL_EV_OP_QUERY_EV_ARRAY:
            return !modify && valid_array(e, n, 0, INT32_MAX) ? 0 : EINVAL;
    }
    return EINVAL;
}

int check_fields_op(const mrc_ctl_ev_profile_attr& attr, bool modify) {
    const auto& op = attr.ev_fields_op;
    if (modify)
        return op.op == MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS &&
                       valid_array(op.fields, op.field_count, 1, kMaxFields)
                   ? 0
                   : EINVAL;
    return op.op == MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS &&
                   valid_array(op.fields, op.field_count, 0, INT32_MAX)
               ? 0
               : EINVAL;
}

int check(const mrc_ctl_ev_profile_attr& attr, int mask, bool modify) {
    if ((mask & ~(modify ? kModifyMask : kQueryMask)) || (mask & kOps) == kOps)
        return EINVAL;
    if (mask & MRC_CTL_EV_PROFILE_EV_OP)
        return check_ev_op(attr, modify);
    if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
        return check_fields_op(attr, modify);
    return 0;
}

int put_fields(nl_msg* msg, const mrc_ctl_ev_field* f, int n) {
    nlattr* list = nla_nest_start(msg, MRC_EVPROF_FIELDS);
    if (!list)
        return EMSGSIZE;
    for (int i = 0; i < n; ++i) {
        nlattr* field = nla_nest_start(msg, MRC_EVPROF_FIELD);
        if (!field || nla_put_u32(msg, MRC_EVFIELD_WIDTH, f[i].width) < 0 ||
            nla_put_u32(msg, MRC_EVFIELD_INIT, f[i].init_val) < 0 ||
            nla_put_u32(msg, MRC_EVFIELD_MIN, f[i].min_val) < 0 ||
            nla_put_u32(msg, MRC_EVFIELD_MAX, f[i].max_val) < 0 ||
            nla_put_u32(msg, MRC_EVFIELD_MASK, f[i].mask) < 0)
            return EMSGSIZE;
        nla_nest_end(msg, field);
    }
    nla_nest_end(msg, list);
    return 0;
}

int put_config(nl_msg* msg, const mrc_ctl_ev_profile_attr& attr, int mask) {
    nlattr* nest = nla_nest_start(msg, MRC_ATTR_EVPROF);
    if (!nest)
        return EMSGSIZE;
    bool full =
        ((mask & MRC_CTL_EV_PROFILE_MODE) &&
         nla_put_u8(msg, MRC_EVPROF_MODE, bit_number(attr.ev_mode, kEvModes)) < 0) ||
        ((mask & MRC_CTL_EV_PROFILE_FMT_ID) &&
         nla_put_u64(msg, MRC_EVPROF_FMT_ID, attr.ev_fmt_profile_id) < 0) ||
        ((mask & MRC_CTL_EV_PROFILE_COUNT) &&
         nla_put_u32(msg, MRC_EVPROF_COUNT, attr.ev_count) < 0) ||
        ((mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) &&
         nla_put_u32(msg, MRC_EVPROF_MIN_ACTIVE, attr.ev_min_active) < 0) ||
        ((mask & MRC_CTL_EV_PROFILE_EVENT_MASK) &&
         nla_put_u32(msg, MRC_EVPROF_EVENT_MASK, static_cast<uint32_t>(attr.ev_event_mask)) < 0);
    if (full)
        return EMSGSIZE;
    if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
        if (int err = put_fields(msg, attr.ev_fields_op.fields, attr.ev_fields_op.field_count))
            return err;
    nla_nest_end(msg, nest);
    return 0;
}

int put_evs(nl_msg* msg, const std::vector<mrc_ctl_ev>& evs, uint8_t fmt_mode) {
    nlattr* list = nla_nest_start(msg, MRC_ATTR_EVS);
    if (!list)
        return EMSGSIZE;
    for (std::size_t i = 0; i < evs.size(); ++i) {
        std::vector<uint8_t> value = ev_value(evs[i], fmt_mode);
        if (value.empty())
            return EINVAL;
        nlattr* entry = nla_nest_start(msg, MRC_ATTR_EV_ENTRY);
        if (!entry || nla_put_u32(msg, MRC_EV_INDEX, static_cast<uint32_t>(i)) < 0 ||
            nla_put(msg, MRC_EV_VALUE, static_cast<int>(value.size()), value.data()) < 0 ||
            nla_put_u8(msg, MRC_EV_PORT, evs[i].port) < 0)
            return EMSGSIZE;
        nla_nest_end(msg, entry);
    }
    nla_nest_end(msg, list);
    return 0;
}

// OCP's state of an EV from the family's (a bit number of OCP's bits).
int to_ev_state(std::optional<uint8_t> s, mrc_ctl_ev_state& out) {
    if (!s || (*s > MRC_GENL_EV_DENIED && *s != MRC_GENL_EV_UNKNOWN))
        return EPROTO;
    out = static_cast<mrc_ctl_ev_state>(1u << *s);
    return 0;
}

}  // namespace

int check_evprof_modify(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    if (int err = check(attr, mask, true))
        return err;
    if ((mask & MRC_CTL_EV_PROFILE_STATE) && !valid_state(attr.profile_state))
        return EINVAL;
    if ((mask & MRC_CTL_EV_PROFILE_MODE) && bit_number(attr.ev_mode, kEvModes) < 0)
        return EINVAL;
    if ((mask & MRC_CTL_EV_PROFILE_EVENT_MASK) && (attr.ev_event_mask & ~kEventStates))
        return EINVAL;
    if ((mask & MRC_CTL_EV_PROFILE_VENDOR_CFG) && !vendor_cfg_empty(attr.vendor_cfg))
        return EINVAL;
    return 0;
}

int check_evprof_query(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    return check(attr, mask, false);
}

bool evprof_replaces_evs(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    return (mask & MRC_CTL_EV_PROFILE_EV_OP) && attr.ev_op.op == MRC_CTL_EV_OP_REPLACE_EV;
}

bool evprof_sets_ev_states(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    return (mask & MRC_CTL_EV_PROFILE_EV_OP) && attr.ev_op.op == MRC_CTL_EV_OP_MODIFY_EV_STATE;
}

bool evprof_changes_profile(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    return (mask & (kConfig | MRC_CTL_EV_PROFILE_STATE)) || evprof_replaces_evs(attr, mask);
}

std::vector<uint8_t> ev_value(const mrc_ctl_ev& ev, uint8_t fmt_mode) noexcept {
    auto zero_from = [&](std::size_t n) {
        return std::all_of(ev.val + n, std::end(ev.val), [](uint8_t b) { return b == 0; });
    };
    std::size_t len = sizeof(ev.val);
    if (fmt_mode != MRC_FMT_SRV6)
        len = zero_from(kCompactBytes) ? kCompactBytes : 0;
    else if (zero_from(kAddrBytes))
        len = kAddrBytes;
    return std::vector<uint8_t>(ev.val, ev.val + len);
}

mrc_ctl_ev to_ocp_ev(const genl::EvEntry& e) noexcept {
    mrc_ctl_ev ev{};
    std::memcpy(ev.val, e.value.data(), std::min(e.value.size(), sizeof(ev.val)));
    ev.port = e.port.value_or(0);
    return ev;
}

int apply_replace(std::vector<mrc_ctl_ev>& evs, const mrc_ctl_ev_op_entry* entries,
                  int count) noexcept {
    for (int i = 0; i < count; ++i) {
        const mrc_ctl_ev_op_entry& e = entries[i];
        if (unpopulated(e.ev)) {
            evs.push_back(e.ev_new);
            continue;
        }
        bool all = e.flags & MRC_CTL_EV_OP_F_ALL_COPIES;
        bool found = false;
        for (auto it = evs.begin(); it != evs.end() && (all || !found);) {
            if (!same(*it, e.ev)) {
                ++it;
                continue;
            }
            found = true;
            if (unpopulated(e.ev_new)) {
                it = evs.erase(it);
            } else {
                *it++ = e.ev_new;
            }
        }
        if (!found)
            return ENOENT;
    }
    return 0;
}

int put_evprof_modify(nl_msg* msg, const mrc_ctl_ev_profile_attr& attr, int mask,
                      const std::vector<mrc_ctl_ev>* evs, uint8_t fmt_mode) noexcept {
    if (mask & kConfig)
        if (int err = put_config(msg, attr, mask))
            return err;
    if (evs)
        if (int err = put_evs(msg, *evs, fmt_mode))
            return err;
    if ((mask & MRC_CTL_EV_PROFILE_STATE) && !put_state(msg, attr.profile_state))
        return EMSGSIZE;
    return 0;
}

int put_ev_states(nl_msg* msg, const mrc_ctl_ev_op_entry* entries, int count,
                  const std::vector<genl::EvEntry>& evs) noexcept {
    if (nla_put_u8(msg, MRC_ATTR_EV_OP, MRC_EV_OP_SET_STATE) < 0)
        return EMSGSIZE;
    nlattr* list = nla_nest_start(msg, MRC_ATTR_EVS);
    if (!list)
        return EMSGSIZE;
    for (int i = 0; i < count; ++i) {
        const mrc_ctl_ev_op_entry& e = entries[i];
        uint8_t state = e.state == MRC_CTL_EV_DENIED ? MRC_GENL_EV_DENIED : MRC_GENL_EV_GOOD;
        bool found = false;
        for (const genl::EvEntry& k : evs) {
            if (!k.index || !same(to_ocp_ev(k), e.ev))
                continue;
            found = true;
            nlattr* entry = nla_nest_start(msg, MRC_ATTR_EV_ENTRY);
            if (!entry || nla_put_u32(msg, MRC_EV_INDEX, *k.index) < 0 ||
                nla_put_u8(msg, MRC_EV_STATE, state) < 0)
                return EMSGSIZE;
            nla_nest_end(msg, entry);
        }
        if (!found)
            return ENOENT;
    }
    nla_nest_end(msg, list);
    return 0;
}

int from_evprof(const genl::EvProf& prof, mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    if (prof.mode && *prof.mode > MRC_EV_MODE_GENERATED)
        return EPROTO;
    if (int err = fill_common(prof.state, attr))
        return err;
    // A profile in INIT has no mode yet: no bit.
    attr.ev_mode = static_cast<mrc_ctl_ev_mode>(prof.mode ? 1u << *prof.mode : 0);
    attr.ev_fmt_profile_id = prof.fmt_id.value_or(0);
    attr.ev_count = prof.count.value_or(0);
    attr.ev_min_active = prof.min_active.value_or(0);
    attr.ev_event_mask = static_cast<int>(prof.event_mask.value_or(0));
    if (!(mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP))
        return 0;
    return copy_out(prof.fields, attr.ev_fields_op.fields, attr.ev_fields_op.field_count,
                    [](const genl::EvField& f) {
                        return mrc_ctl_ev_field{f.width, f.init, f.min, f.max, f.mask};
                    });
}

int from_evs(const std::vector<genl::EvEntry>& evs, mrc_ctl_ev_profile_attr& attr) noexcept {
    std::vector<mrc_ctl_ev_state> states(evs.size());
    for (std::size_t i = 0; i < evs.size(); ++i)
        if (int err = to_ev_state(evs[i].state, states[i]))
            return err;
    auto& op = attr.ev_op;
    if (op.op == MRC_CTL_EV_OP_QUERY_EV_ARRAY)
        return copy_out(evs, op.entries, op.entry_count, [&](const genl::EvEntry& k) {
            return mrc_ctl_ev_op_entry{to_ocp_ev(k), {}, states[&k - evs.data()], 0};
        });
    for (int i = 0; i < op.entry_count; ++i) {
        mrc_ctl_ev_op_entry& e = op.entries[i];
        auto it = std::find_if(evs.begin(), evs.end(),
                               [&](const genl::EvEntry& k) { return same(to_ocp_ev(k), e.ev); });
        if (it == evs.end())
            return ENOENT;
        e.state = states[it - evs.begin()];
    }
    return 0;
}

}  // namespace mrc::lib::ctl
