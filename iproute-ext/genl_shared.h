// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The generic netlink client and the family's reply parsers that mrc-ip
// shares with libmrc (genl/), under mrc-ip's namespace.
#ifndef MRC_IP_GENL_SHARED_H
#define MRC_IP_GENL_SHARED_H

#include "genl_device.h"
#include "genl_objects.h"
#include "genl_socket.h"

namespace mrc_ip {
using namespace mrc::genl;
}  // namespace mrc_ip

#endif  // MRC_IP_GENL_SHARED_H
