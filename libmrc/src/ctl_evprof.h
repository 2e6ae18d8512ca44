// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// EV profiles in the controller API and in the family: the checks of a
// call, the requests that carry it out, the EV operations applied to the
// EVs the kernel holds, and the replies read back (Documentation/libmrc.rst,
// "The controller API"). No I/O here.
#ifndef MRC_CTL_EVPROF_H
#define MRC_CTL_EVPROF_H

#include <netlink/msg.h>

#include <cstdint>
#include <vector>

#include "genl_objects.h"
#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// Checks mrc_ctl_modify_ev_profile()'s attr and mask: 0 or EINVAL.
int check_evprof_modify(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept;

// Checks mrc_ctl_query_ev_profile()'s attr and mask: 0 or EINVAL.
int check_evprof_query(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept;

// What a checked modify asks of the kernel: a change of the profile
// (EVPROF_SET: its configuration, its EVs replaced, its state), EV
// operations on the EVs that need the kernel's list first.
bool evprof_changes_profile(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept;
bool evprof_replaces_evs(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept;
bool evprof_sets_ev_states(const mrc_ctl_ev_profile_attr& attr, int mask) noexcept;

// The family's MRC_EV_VALUE of an EV in a format of mode fmt_mode (enum
// mrc_genl_fmt_mode): the compact EV, 4 bytes, for STEV and UDP; the
// route for SRV6, one IPv6 address or two when the second is given.
// Empty when the EV has bytes the format has no room for.
std::vector<uint8_t> ev_value(const mrc_ctl_ev& ev, uint8_t fmt_mode) noexcept;

// An OCP EV from one the kernel reported.
mrc_ctl_ev to_ocp_ev(const genl::EvEntry& e) noexcept;

// Applies REPLACE_EV's entries, in order, to evs (the profile's EVs as the
// kernel holds them, populated only): an unpopulated ev adds ev_new, an
// unpopulated ev_new removes ev, else ev becomes ev_new; once, or wherever
// it occurs with MRC_CTL_EV_OP_F_ALL_COPIES. 0, or ENOENT when an ev is
// not in the profile (evs is then partly changed).
int apply_replace(std::vector<mrc_ctl_ev>& evs, const mrc_ctl_ev_op_entry* entries,
                  int count) noexcept;

// Appends a checked modify to an EVPROF_SET or _NEW request:
// MRC_ATTR_EVPROF, the EVs (evs, when not null) as MRC_ATTR_EVS, valued
// for EV format mode fmt_mode (enum mrc_genl_fmt_mode), and
// MRC_ATTR_PROF_STATE. 0, EINVAL for an EV the format cannot hold, or
// EMSGSIZE.
int put_evprof_modify(nl_msg* msg, const mrc_ctl_ev_profile_attr& attr, int mask,
                      const std::vector<mrc_ctl_ev>* evs, uint8_t fmt_mode) noexcept;

// Appends MODIFY_EV_STATE's entries to an EVPROF_EV_SET request, each
// naming by index every EV of evs (the kernel's) it matches. 0, ENOENT
// when an entry matches none, or EMSGSIZE.
int put_ev_states(nl_msg* msg, const mrc_ctl_ev_op_entry* entries, int count,
                  const std::vector<genl::EvEntry>& evs) noexcept;

// Fills attr from what the kernel reported of the profile (its fields
// only when mask asks): 0, E2BIG when the caller's array is too short
// (its count then says how many are needed), or EPROTO.
int from_evprof(const genl::EvProf& prof, mrc_ctl_ev_profile_attr& attr, int mask) noexcept;

// Carries out a query's EV operation on the profile's EVs: 0, E2BIG as
// above, ENOENT for an EV of QUERY_EV_STATE the profile does not have,
// or EPROTO.
int from_evs(const std::vector<genl::EvEntry>& evs, mrc_ctl_ev_profile_attr& attr) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_EVPROF_H
