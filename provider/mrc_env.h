// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The provider's environment: MRC_EV_PROFILE and MRC_CC_PROFILE name the
// profiles of the QPs a program creates (admin-guide.rst, "Profiles").
#ifndef MRC_ENV_H
#define MRC_ENV_H

#include <cstdint>

#include "mrc-abi.h"

namespace mrc {

// A profile id as the environment gives it: decimal digits only, as
// mrc-ip prints ids ("010" is 10, not octal 8). No sign, no white space,
// no prefix, nothing after the digits, at least one digit, and at most
// UINT64_MAX. Returns whether text is such a number; value is set only
// then.
bool parse_profile_id(const char* text, uint64_t& value) noexcept;

// Reads the profile id in environment variable name: when it is unset,
// returns 0 and leaves id and flags alone; when it holds a profile id,
// stores it in id, sets flag in flags and returns 0; anything else
// (the empty string included) is EINVAL, so that a program pointed at a
// profile never silently runs with the device's default.
int profile_from_env(const char* name, __u32 flag, __u64& id, __u32& flags) noexcept;

// Fills cmd from MRC_EV_PROFILE and MRC_CC_PROFILE. 0 or EINVAL.
int qp_profiles_from_env(mrc_qp_profile_cmd& cmd) noexcept;

}  // namespace mrc

#endif  // MRC_ENV_H
