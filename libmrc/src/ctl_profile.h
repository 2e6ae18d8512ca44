// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the three kinds of profile (EV format, EV, CC) have in common in
// the controller API: their state and how it travels, the vendor
// configuration we do not define, and the arrays a call hands in.
#ifndef MRC_CTL_PROFILE_H
#define MRC_CTL_PROFILE_H

#include <netlink/msg.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>

#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// Whether s is one of enum mrc_ctl_profile_state.
bool valid_state(mrc_ctl_profile_state s) noexcept;

// We define no vendor configuration: only all zero bytes are accepted.
bool vendor_cfg_empty(const uint8_t (&cfg)[MRC_CTL_MAX_VENDOR_CFG_SIZE]) noexcept;

// The family's value of an OCP mode (a bit, where the family has its bit
// number): -1 unless bit is exactly one of the bits in known.
int bit_number(unsigned bit, unsigned known) noexcept;

// MRC_ATTR_PROF_STATE; false when the message is full.
bool put_state(nl_msg* msg, mrc_ctl_profile_state s) noexcept;

// The state a reply reports: 0, or EPROTO when it has none we know.
int to_state(std::optional<uint8_t> reported, mrc_ctl_profile_state& out) noexcept;

// Fills what every profile attribute structure reports alike: both states
// (the one it is in), no vendor configuration. 0, or EPROTO when the
// kernel reported no state we know.
template <typename Attr>
int fill_common(std::optional<uint8_t> reported, Attr& attr) noexcept {
    mrc_ctl_profile_state state;
    if (int err = to_state(reported, state))
        return err;
    attr.profile_state = state;
    attr.cur_profile_state = state;
    std::memset(attr.vendor_cfg, 0, sizeof(attr.vendor_cfg));
    return 0;
}

// Whether an array argument is usable: count in [min, max], and a
// pointer unless it is empty.
bool valid_array(const void* array, int count, int min, int max) noexcept;

// Copies the n items the kernel reported into an array of room items,
// each through convert, and sets room to n: 0, or E2BIG when it did not
// fit (nothing is then copied).
template <typename T, typename Items, typename Convert>
int copy_out(const Items& items, T* array, int& room, Convert convert) noexcept {
    int n = static_cast<int>(items.size());
    bool fits = n <= room;
    room = n;
    if (!fits)
        return E2BIG;
    for (int i = 0; i < n; ++i)
        array[i] = convert(items[i]);
    return 0;
}

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_PROFILE_H
