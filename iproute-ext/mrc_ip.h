// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The whole of mrc-ip behind main(): parse, execute, report. The streams are
// parameters so tests can run the tool in-process.
#ifndef MRC_IP_MRC_IP_H
#define MRC_IP_MRC_IP_H

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "names.h"

namespace mrc_ip {

// Exit codes, as ip(8).
constexpr int kExitOk = 0;
constexpr int kExitSyntax = 1;
constexpr int kExitKernel = 2;

// Where run() reads "-b -" from, and which generic netlink family it talks
// to (tests point it at the kernel's own "nlctrl").
struct RunConfig {
    std::istream* in = nullptr;
    std::string family = "mrc";
};

// args excludes the program name. Returns the process exit status.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const RunConfig& config = {});

// "EV profile N is in use by QPs 0x12, 0x9a (and 3 more)": evprofile del's
// message on EBUSY, from an EVPROF_GET reply.
std::string evprofile_in_use_message(const EvProf& p);

}  // namespace mrc_ip

#endif  // MRC_IP_MRC_IP_H
