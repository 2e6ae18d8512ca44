// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The controller API's EV profiles: the kernel's EV profiles of the
// context's device, by the same id. EV operations work on the EVs the
// kernel holds: REPLACE_EV edits that list and gives it back whole with
// the profile (EVPROF_SET), MODIFY_EV_STATE denies or lifts a denial by
// index (EVPROF_EV_SET), the queries read the list (EVPROF_EV_GET).
#include <cerrno>
#include <vector>

#include "ctl_calls.h"
#include "ctl_entry.h"
#include "ctl_evprof.h"
#include "mrc_ctl.h"
#include "mrc_errors.h"

using mrc::lib::fail;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

namespace {

// The EVs of profile id; a profile the kernel does not have has none.
int read_evs(ctl::Link& link, const char* dev, uint64_t id,
             std::vector<genl::EvEntry>& evs) noexcept {
    int err = ctl::get_evs(link, dev, id, evs);
    if (err == ENOENT) {
        evs.clear();
        err = 0;
    }
    return err;
}

// The mode of the EV format the profile's EVs are in: of the format this
// call names, else of the profile's (format 0 when it has none yet).
int fmt_mode_of(ctl::Link& link, const char* dev, uint64_t id, const mrc_ctl_ev_profile_attr& attr,
                int mask, uint8_t& mode) noexcept {
    uint64_t fmt_id = attr.ev_fmt_profile_id;
    if (!(mask & MRC_CTL_EV_PROFILE_FMT_ID)) {
        genl::EvProf prof;
        if (int err = ctl::get_evprof(link, dev, id, prof))
            return err;
        fmt_id = prof.fmt_id.value_or(0);
    }
    genl::EvFmt fmt;
    if (int err = ctl::get_evfmt(link, dev, fmt_id, fmt))
        return err;
    if (!fmt.mode)
        return EINVAL;  // a format in INIT holds no EV
    mode = *fmt.mode;
    return 0;
}

// EVPROF_SET (or _NEW): the configuration, the EVs a REPLACE_EV leaves,
// the state.
int change_profile(ctl::Link& link, const char* dev, uint64_t id,
                   const mrc_ctl_ev_profile_attr& attr, int mask) noexcept {
    bool replace = ctl::evprof_replaces_evs(attr, mask);
    std::vector<mrc_ctl_ev> evs;
    uint8_t fmt_mode = 0;
    if (replace) {
        std::vector<genl::EvEntry> cur;
        if (int err = read_evs(link, dev, id, cur))
            return err;
        for (const genl::EvEntry& e : cur)
            evs.push_back(ctl::to_ocp_ev(e));
        if (int err = ctl::apply_replace(evs, attr.ev_op.entries, attr.ev_op.entry_count))
            return err;
        if (int err = fmt_mode_of(link, dev, id, attr, mask, fmt_mode))
            return err;
    }
    return ctl::modify_profile(link, dev, ctl::kEvProfCmds, id, [&](nl_msg* msg) {
        return ctl::put_evprof_modify(msg, attr, mask, replace ? &evs : nullptr, fmt_mode);
    });
}

// EVPROF_EV_SET of MODIFY_EV_STATE's entries, by the indexes of the EVs
// they name.
int set_ev_states(ctl::Link& link, const char* dev, uint64_t id,
                  const mrc_ctl_ev_profile_attr& attr) noexcept {
    std::vector<genl::EvEntry> cur;
    if (int err = ctl::get_evs(link, dev, id, cur))
        return err;
    return ctl::set_evs(link, dev, id, [&](nl_msg* msg) {
        return ctl::put_ev_states(msg, attr.ev_op.entries, attr.ev_op.entry_count, cur);
    });
}

}  // namespace

extern "C" {

int mrc_ctl_modify_ev_profile(mrc_context* mrc_ctx, uint64_t ev_profile_id,
                              mrc_ctl_ev_profile_attr* attr, int attr_mask) {
    if (!mrc_ctx || !attr)
        return fail(EINVAL);
    if (int err = ctl::check_evprof_modify(*attr, attr_mask))
        return fail(err);
    bool change = ctl::evprof_changes_profile(*attr, attr_mask);
    bool states = ctl::evprof_sets_ev_states(*attr, attr_mask);
    if (!change && !states)
        return 0;  // nothing the kernel keeps
    int err = ctl::with_link(mrc_ctx, [&](ctl::Link& link, const char* dev) {
        int e = change ? change_profile(link, dev, ev_profile_id, *attr, attr_mask) : 0;
        return !e && states ? set_ev_states(link, dev, ev_profile_id, *attr) : e;
    });
    return err ? fail(err) : 0;
}

int mrc_ctl_query_ev_profile(mrc_context* mrc_ctx, uint64_t ev_profile_id,
                             mrc_ctl_ev_profile_attr* attr, int attr_mask) {
    if (!mrc_ctx || !attr)
        return fail(EINVAL);
    if (int err = ctl::check_evprof_query(*attr, attr_mask))
        return fail(err);
    int err = ctl::with_link(mrc_ctx, [&](ctl::Link& link, const char* dev) {
        genl::EvProf prof;
        std::vector<genl::EvEntry> evs;
        int e = ctl::get_evprof(link, dev, ev_profile_id, prof);
        if (!e)
            e = ctl::from_evprof(prof, *attr, attr_mask);
        if (!e && (attr_mask & MRC_CTL_EV_PROFILE_EV_OP)) {
            e = read_evs(link, dev, ev_profile_id, evs);
            if (!e)
                e = ctl::from_evs(evs, *attr);
        }
        return e;
    });
    return err ? fail(err) : 0;
}

}  // extern "C"
