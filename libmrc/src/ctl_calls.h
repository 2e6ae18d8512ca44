// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The exchanges the controller API makes, over a Link: read or change the
// device, and read or change (creating if need be) one profile. Every
// function returns 0 or a positive errno value.
#ifndef MRC_CTL_CALLS_H
#define MRC_CTL_CALLS_H

#include <cstdint>
#include <functional>

#include "ctl_link.h"
#include "genl_device.h"
#include "genl_objects.h"

namespace mrc::lib::ctl {

// Appends attributes to a request: 0, or an errno value (EMSGSIZE when
// the message is full).
using Put = std::function<int(nl_msg*)>;

// DEV_GET of device dev.
int get_device(Link& link, const char* dev, genl::MrcDevice& out) noexcept;

// DEV_SET of device dev with what put adds.
int set_device(Link& link, const char* dev, const Put& put) noexcept;

// The commands of one kind of profile.
struct ProfileCmds {
    uint8_t get, add, set;
};
extern const ProfileCmds kEvFmtCmds, kEvProfCmds, kCcProfCmds;

// *_SET of profile id with what put adds. OCP profiles are never created:
// a profile the kernel does not have yet is made by *_NEW with that id.
int modify_profile(Link& link, const char* dev, const ProfileCmds& cmds, uint64_t id,
                   const Put& put) noexcept;

// *_GET of profile id. A profile the kernel does not have is in INIT.
int get_evfmt(Link& link, const char* dev, uint64_t id, genl::EvFmt& out) noexcept;
int get_evprof(Link& link, const char* dev, uint64_t id, genl::EvProf& out) noexcept;
int get_ccprof(Link& link, const char* dev, uint64_t id, genl::CcProf& out) noexcept;

// The EVs of EV profile id (EVPROF_EV_GET), in index order.
int get_evs(Link& link, const char* dev, uint64_t id, std::vector<genl::EvEntry>& out) noexcept;

// EVPROF_EV_SET of profile id with what put adds (an op and its entries).
int set_evs(Link& link, const char* dev, uint64_t id, const Put& put) noexcept;

// PROBE with what put adds; waits for the kernel's answers. ETIMEDOUT
// when none came.
int probe(Link& link, const char* dev, const Put& put,
          std::vector<genl::ProbeAnswer>& answers) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_CALLS_H
