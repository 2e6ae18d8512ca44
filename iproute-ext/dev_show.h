// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Output of "mrc-ip dev show": one line per device as text, or a JSON array
// of objects carrying the same fields under the same names.
#ifndef MRC_IP_DEV_SHOW_H
#define MRC_IP_DEV_SHOW_H

#include <ostream>
#include <vector>

#include "mrc_device.h"

namespace mrc_ip {

void print_devices_text(std::ostream& out, const std::vector<MrcDevice>& devices);
void print_devices_json(std::ostream& out, const std::vector<MrcDevice>& devices, bool pretty);

}  // namespace mrc_ip

#endif  // MRC_IP_DEV_SHOW_H
