// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// How mrc-ip names and orders what the family reports: enum values as
// words, EV values as text, devices in natural order.
#ifndef MRC_IP_NAMES_H
#define MRC_IP_NAMES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "genl_shared.h"

namespace mrc_ip {

// Names, lower-case, for the enums of the family ("unknown(N)" otherwise).
std::string prof_state_name(uint8_t v);
std::string fmt_mode_name(uint8_t v);
std::string ev_mode_name(uint8_t v);
std::string ev_state_name(uint8_t v);
std::string ev_reason_name(uint8_t v);
std::string access_name(uint8_t v);   // if-default, open, admin, group
std::string stat_name(int type);      // tx_pkts, ...
std::string cc_param_name(int type);  // the mrc-ip keyword: init-pkts, ...
// An EV value as text: 0x-hex for 4 bytes, IPv6 notation for 16, else hex.
std::string ev_value_text(const std::vector<uint8_t>& v);

// Ordering that compares digit runs by value: mrc2 < mrc10.
bool natural_less(std::string_view a, std::string_view b);

// Sorts devices by natural_less on their names.
void sort_devices(std::vector<MrcDevice>& devices);

}  // namespace mrc_ip

#endif  // MRC_IP_NAMES_H
