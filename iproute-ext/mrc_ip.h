// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The whole of mrc-ip behind main(): parse, execute, report. The streams are
// parameters so tests can run the tool in-process; devices always come from
// the kernel's generic netlink family "mrc".
#ifndef MRC_IP_MRC_IP_H
#define MRC_IP_MRC_IP_H

#include <ostream>
#include <string>
#include <vector>

namespace mrc_ip {

// args excludes the program name. Returns the process exit status.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace mrc_ip

#endif  // MRC_IP_MRC_IP_H
