// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// EV format profiles in the controller API and in the family: the checks
// of a call, the request that carries it out, and the reply read back
// (Documentation/libmrc.rst, "The controller API"). No I/O here.
#ifndef MRC_CTL_EVFMT_H
#define MRC_CTL_EVFMT_H

#include <netlink/msg.h>

#include "genl_objects.h"
#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// All the EV format modes OCP defines, as a mask.
inline constexpr unsigned kFmtModes =
    MRC_CTL_EV_FMT_MODE_STEV | MRC_CTL_EV_FMT_MODE_SRV6 | MRC_CTL_EV_FMT_MODE_UDP;

// Checks mrc_ctl_modify_ev_fmt_profile()'s attr and mask: 0 or EINVAL.
int check_evfmt_modify(const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept;

// Checks mrc_ctl_query_ev_fmt_profile()'s attr and mask: 0 or EINVAL.
int check_evfmt_query(const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept;

// Whether a checked modify changes anything the kernel keeps.
bool evfmt_changes(int mask) noexcept;

// Appends a checked modify to an EVFMT_SET or _NEW request: MRC_ATTR_EVFMT
// (mode, field widths) and MRC_ATTR_PROF_STATE. 0 or EMSGSIZE.
int put_evfmt_modify(nl_msg* msg, const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept;

// Fills attr from what the kernel reported (the field widths only when
// mask asks): 0, E2BIG when the caller's array is too short (its count
// then says how many are needed), or EPROTO.
int from_evfmt(const genl::EvFmt& fmt, mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_EVFMT_H
