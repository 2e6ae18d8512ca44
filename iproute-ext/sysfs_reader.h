// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Finds MRC devices in sysfs. The root ("/sys" normally) is a parameter so
// tests can point the reader at a fake tree. Until the generic-netlink family
// exists this is where mrc-ip learns about devices:
//   <root>/class/infiniband/<dev>/mrc_udp_port   decimal UDP port (marks MRC)
//   <root>/class/infiniband/<dev>/parent         parent netdev name
//   <root>/class/infiniband/<dev>/ports/1/state  e.g. "4: ACTIVE"
#ifndef MRC_IP_SYSFS_READER_H
#define MRC_IP_SYSFS_READER_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mrc_ip {

// Attributes that are missing or unreadable are left empty and not printed.
struct MrcDevice {
    std::string name;
    std::optional<std::string> parent;
    std::optional<uint16_t> udp_port;
    std::optional<std::string> state;
};

class SysfsReader {
public:
    explicit SysfsReader(std::filesystem::path root) : root_(std::move(root)) {}

    // All MRC devices, in natural name order (mrc2 before mrc10).
    std::vector<MrcDevice> list_devices() const;
    // The named device if it exists and is an MRC device.
    std::optional<MrcDevice> find_device(std::string_view name) const;

    // Parsers for single attribute files, exposed for tests.
    static std::optional<uint16_t> parse_udp_port(std::string_view text);
    static std::optional<std::string> parse_port_state(std::string_view text);

private:
    std::filesystem::path class_dir() const { return root_ / "class" / "infiniband"; }
    std::optional<MrcDevice> read_device(const std::string& name) const;

    std::filesystem::path root_;
};

// Ordering that compares digit runs by value: mrc2 < mrc10.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace mrc_ip

#endif  // MRC_IP_SYSFS_READER_H
