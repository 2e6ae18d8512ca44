// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The exchanges the controller API makes, over a Link: read or change the
// device. Every function returns 0 or a positive errno value.
#ifndef MRC_CTL_CALLS_H
#define MRC_CTL_CALLS_H

#include <cstdint>
#include <functional>

#include "ctl_link.h"
#include "genl_device.h"

namespace mrc::lib::ctl {

// Appends attributes to a request: 0, or an errno value (EMSGSIZE when
// the message is full).
using Put = std::function<int(nl_msg*)>;

// DEV_GET of device dev.
int get_device(Link& link, const char* dev, genl::MrcDevice& out) noexcept;

// DEV_SET of device dev with what put adds.
int set_device(Link& link, const char* dev, const Put& put) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_CALLS_H
