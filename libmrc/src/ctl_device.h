// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The device and its port as the controller API reports them, from what
// the family's DEV_GET says (Documentation/libmrc.rst, "The controller
// API"). No I/O here, so the unit tests feed it canned replies.
#ifndef MRC_CTL_DEVICE_H
#define MRC_CTL_DEVICE_H

#include "genl_device.h"
#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// The controller attributes of a device the kernel reported as dev.
void to_device_attr(const genl::MrcDevice& dev, mrc_ctl_device_attr& out) noexcept;

// The names of the CC algorithms a profile may name, as a NULL-terminated
// array the library owns: those the kernel listed that the library knows.
const char** cc_algorithms(const genl::MrcDevice& dev) noexcept;

// The library's copy of a known CC algorithm name, or null.
const char* known_cc_algorithm(const char* name) noexcept;

// Checks mrc_ctl_modify_port()/mrc_ctl_query_port() arguments: 0 or EINVAL.
int check_port(uint8_t port_num, const mrc_ctl_port_attr* attr, int attr_mask,
               bool modify) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_DEVICE_H
