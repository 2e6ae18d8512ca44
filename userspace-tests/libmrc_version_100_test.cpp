// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A program that selects the 1.0.0 APIs sees the 1.0.0 declarations: the
// EV event without its state (48 bytes, as the published headers give),
// and the *_ex queries absent. Pinned at compile time, like the layouts.
#define MRC_API_VER_USED 0x01000000
#define MRC_CTL_API_VER_USED 0x01000000
#include "mrc_ctl.h"

#include <cstddef>
#include <cstdint>

namespace {

static_assert(MRC_API_VER_USED == MRC_API_VER(1, 0, 0), "selected 1.0.0");
static_assert(sizeof(struct mrc_ctl_ev_event) == 48, "1.0.0 EV event size");
static_assert(offsetof(struct mrc_ctl_ev_event, drop_count) == 44, "1.0.0 drop_count");

}  // namespace

// The 1.0.1-only queries are not declared: were they, these global
// variables (internal linkage, being const) would clash with them.
[[maybe_unused]] constexpr int mrc_query_device_ex = 0;
[[maybe_unused]] constexpr int mrc_ctl_query_device_ex = 0;
