// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_profile.h"

#include <netlink/attr.h>

#include <algorithm>
#include <cerrno>
#include <iterator>

#include "mrc-genl.h"

namespace mrc::lib::ctl {

// The family numbers the states as OCP does.
static_assert(int{MRC_CTL_PROFILE_INIT} == int{MRC_PROF_INIT});
static_assert(int{MRC_CTL_PROFILE_OFFLINE} == int{MRC_PROF_OFFLINE});
static_assert(int{MRC_CTL_PROFILE_ONLINE} == int{MRC_PROF_ONLINE});

bool valid_state(mrc_ctl_profile_state s) noexcept {
    return s == MRC_CTL_PROFILE_INIT || s == MRC_CTL_PROFILE_OFFLINE || s == MRC_CTL_PROFILE_ONLINE;
}

bool vendor_cfg_empty(const uint8_t (&cfg)[MRC_CTL_MAX_VENDOR_CFG_SIZE]) noexcept {
    return std::all_of(std::begin(cfg), std::end(cfg), [](uint8_t b) { return b == 0; });
}

int bit_number(unsigned bit, unsigned known) noexcept {
    if (bit == 0 || (bit & (bit - 1)) || (bit & ~known))
        return -1;
    return __builtin_ctz(bit);
}

bool put_state(nl_msg* msg, mrc_ctl_profile_state s) noexcept {
    return nla_put_u8(msg, MRC_ATTR_PROF_STATE, static_cast<uint8_t>(s)) == 0;
}

int to_state(std::optional<uint8_t> reported, mrc_ctl_profile_state& out) noexcept {
    if (!reported || !valid_state(static_cast<mrc_ctl_profile_state>(*reported)))
        return EPROTO;
    out = static_cast<mrc_ctl_profile_state>(*reported);
    return 0;
}

bool valid_array(const void* array, int count, int min, int max) noexcept {
    return count >= min && count <= max && (array || count == 0);
}

}  // namespace mrc::lib::ctl
