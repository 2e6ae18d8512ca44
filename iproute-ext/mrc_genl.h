// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Client of the kernel's generic netlink family "mrc" (kernel/uapi/mrc-genl.h).
// Devices are reported in the network namespace of their netdev, so a dump
// lists only the devices of the caller's namespace.
#ifndef MRC_IP_MRC_GENL_H
#define MRC_IP_MRC_GENL_H

#include <cstdint>
#include <string>
#include <vector>

#include "genl_socket.h"
#include "mrc_device.h"

namespace mrc_ip {

enum class QueryError {
    None,
    FamilyMissing,  // family "mrc" is not registered: the module is not loaded
    NoSuchDevice,   // named device does not exist in this namespace
    Failed,         // anything else; message says what
};

struct QueryStatus {
    QueryError error = QueryError::None;
    std::string message;  // for Failed: readable text without program prefix

    bool ok() const { return error == QueryError::None; }
};

class MrcGenlClient {
public:
    // Connects and looks the family up. Must succeed before the queries.
    QueryStatus open();

    // MRC_CMD_DEV_GET for one device.
    QueryStatus get_device(const std::string& name, MrcDevice& dev);
    // MRC_CMD_DEV_GET dump, in natural name order.
    QueryStatus list_devices(std::vector<MrcDevice>& devices);

private:
    QueryStatus query(const std::string* name, std::vector<MrcDevice>& devices);

    GenlSocket sock_;
    uint16_t family_ = 0;
};

}  // namespace mrc_ip

#endif  // MRC_IP_MRC_GENL_H
