// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One MRC device as the kernel's generic netlink family "mrc" reports it,
// and the parser for one MRC_CMD_DEV_GET reply message.
#ifndef MRC_GENL_GENL_DEVICE_H
#define MRC_GENL_GENL_DEVICE_H

#include <linux/netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mrc::genl {

// Fields the kernel did not send are left empty and not printed.
struct MrcDevice {
    std::string name;                        // MRC_ATTR_DEV_NAME, always present
    std::optional<std::string> netdev;       // MRC_ATTR_NETDEV_NAME
    std::optional<uint32_t> netdev_ifindex;  // MRC_ATTR_NETDEV_IFINDEX
    std::optional<uint32_t> dev_index;       // MRC_ATTR_DEV_INDEX
    std::optional<uint16_t> udp_port;        // MRC_ATTR_UDP_PORT
    std::optional<std::string> state;        // MRC_ATTR_PORT_STATE, by name
    std::optional<uint32_t> mtu;             // MRC_ATTR_ACTIVE_MTU, bytes
    // Version 2 (shown with -d; port_admin by "port show").
    std::optional<uint32_t> api_version;           // MRC_ATTR_CTL_API_VERSION
    std::optional<uint32_t> caps;                  // MRC_ATTR_DEV_CAPS
    std::optional<uint32_t> fmt_modes;             // MRC_ATTR_DEV_FMT_MODES
    std::optional<uint32_t> ev_modes;              // MRC_ATTR_DEV_EV_MODES
    std::optional<uint64_t> default_evprof;        // MRC_ATTR_DEV_DEFAULT_EVPROF
    std::optional<uint64_t> default_ccprof;        // MRC_ATTR_DEV_DEFAULT_CCPROF
    std::optional<uint8_t> port_admin;             // MRC_ATTR_PORT_ADMIN
    std::vector<std::pair<int, uint32_t>> limits;  // MRC_ATTR_DEV_LIMITS members
    // MRC_ATTR_DEV_CC_ALGS: each algorithm a CC profile may name, and
    // whether QPs can run it (MRC_ATTR_CC_ALG_RUNNABLE).
    std::vector<std::pair<std::string, bool>> cc_algs;
};

// Longest names the kernel can report, without the terminating NUL
// (IB_DEVICE_NAME_MAX - 1 and IFNAMSIZ - 1).
constexpr std::size_t kMaxDevNameLen = 63;
constexpr std::size_t kMaxNetdevNameLen = 15;

// Parses one MRC_CMD_DEV_GET reply (netlink header, genl header, attributes).
// Attributes of the wrong size or unterminated or over-long strings reject
// the message, as does a missing or empty device name; attributes this
// version does not know are ignored. On rejection *why (if given) says why.
std::optional<MrcDevice> parse_dev_reply(const nlmsghdr* nlh, std::string* why = nullptr);

// "DOWN", "ACTIVE", or "UNKNOWN(n)" for an MRC_ATTR_PORT_STATE value.
std::string port_state_name(uint8_t state);

}  // namespace mrc::genl

#endif  // MRC_GENL_GENL_DEVICE_H
