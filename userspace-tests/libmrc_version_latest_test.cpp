// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A program that asks for "the latest" APIs gets the current ones (1.0.1):
// the selection macros are rewritten, and the 1.0.1 declarations (the
// *_ex queries, the EV event's state) are there. Pinned at compile time.
#define MRC_API_VER_USED MRC_API_VER_LATEST
#define MRC_CTL_API_VER_USED MRC_CTL_API_VER_LATEST
#define MRC_VENDOR_API_VER_USED MRC_API_VER_LATEST
#include "mrc_ctl.h"

#include <cstddef>
#include <type_traits>

namespace {

static_assert(MRC_API_VER_USED == MRC_API_CURRENT_VERSION, "LATEST selects current");
static_assert(MRC_CTL_API_VER_USED == MRC_CTL_API_CURRENT_VERSION, "LATEST selects current");
static_assert(MRC_VENDOR_API_VER_USED == MRC_VENDOR_API_CURRENT_VERSION, "LATEST selects current");
static_assert(sizeof(struct mrc_ctl_ev_event) == 56, "1.0.1 EV event size");
static_assert(offsetof(struct mrc_ctl_ev_event, state) == 48, "1.0.1 EV event state");
static_assert(std::is_same_v<decltype(&mrc_query_device_ex),
                             int (*)(ibv_context*, mrc_context*, mrc_device_attr*, int*)>,
              "mrc_query_device_ex is declared");
static_assert(std::is_same_v<decltype(&mrc_ctl_query_device_ex),
                             int (*)(ibv_context*, mrc_context*, mrc_ctl_device_attr*, int*)>,
              "mrc_ctl_query_device_ex is declared");

}  // namespace
