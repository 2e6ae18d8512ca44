// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Requests of the family "mrc" built from a parsed command, per the
// "Mapping to the family" table of Documentation/control-plane.rst. Each
// builder appends attributes to a message whose genl header is in place, so
// the tests can compare the bytes.
#ifndef MRC_IP_REQUESTS_H
#define MRC_IP_REQUESTS_H

#include <cstdint>

#include "cmdline.h"
#include "genl_shared.h"

namespace mrc_ip {

// A request header for the mrc family; dump adds NLM_F_DUMP.
NlMsgPtr new_mrc_request(uint16_t family, uint8_t cmd, bool dump);

// MRC_ATTR_DEV_NAME (when given) and MRC_ATTR_PROF_ID from "id" (or
// id_override when non-null).
void put_dev_and_id(nl_msg* msg, const Command& c, const uint64_t* id_override = nullptr);

void build_dev_set(nl_msg* msg, const Command& c);  // dev set, port set
void build_evfmt(nl_msg* msg, const Command& c);    // evfmt add/set (config + state)
void build_evprof(nl_msg* msg, const Command& c);   // evprofile add/set
void build_ev_set(nl_msg* msg, const Command& c);   // evprofile deny/undeny/replace
void build_ccprof(nl_msg* msg, const Command& c);   // ccprofile add/set
void build_probe(nl_msg* msg, const Command& c);    // probe
// A SET request of state to profile id (add's second step).
void build_state(nl_msg* msg, const Command& c, uint64_t id, uint8_t state);

// Thrown by the builders when the message is full.
struct BuildError {};

}  // namespace mrc_ip

#endif  // MRC_IP_REQUESTS_H
