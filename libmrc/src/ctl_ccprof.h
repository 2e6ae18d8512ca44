// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CC profiles in the controller API and in the family: the checks of a
// call, the request that carries it out, and the reply read back
// (Documentation/libmrc.rst, "The controller API"). No I/O here.
#ifndef MRC_CTL_CCPROF_H
#define MRC_CTL_CCPROF_H

#include <netlink/msg.h>

#include "genl_objects.h"
#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// Checks mrc_ctl_modify_cc_profile()'s attr and mask: 0, EINVAL, or
// EOPNOTSUPP for a profile without congestion control (algorithm NULL).
int check_cc_modify(const mrc_ctl_cc_profile_attr& attr, int mask) noexcept;

// Checks mrc_ctl_query_cc_profile()'s attr and mask: 0 or EINVAL.
int check_cc_query(const mrc_ctl_cc_profile_attr& attr, int mask) noexcept;

// Whether a checked modify needs the profile's algorithm from the kernel
// (a configuration without the algorithm it is for).
bool cc_needs_algorithm(int mask) noexcept;

// Appends a checked modify to a *_SET or *_NEW request: MRC_ATTR_CCPROF
// with the algorithm and the configuration (of algorithm alg), and
// MRC_ATTR_PROF_STATE. 0, EINVAL for a configuration the family cannot
// carry, or EMSGSIZE.
int put_cc_modify(nl_msg* msg, const mrc_ctl_cc_profile_attr& attr, int mask,
                  const char* alg) noexcept;

// Fills attr from what the kernel reported (the configuration only when
// mask asks): 0, EINVAL when the caller's configuration structure cannot
// hold the profile's, or EPROTO.
int from_ccprof(const genl::CcProf& prof, mrc_ctl_cc_profile_attr& attr, int mask) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_CCPROF_H
