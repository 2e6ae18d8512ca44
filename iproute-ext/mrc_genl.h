// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Client of the kernel's generic netlink family "mrc" (kernel/uapi/mrc-genl.h):
// the family's id and operation list, and request/reply exchanges that
// restart interrupted dumps.
#ifndef MRC_IP_MRC_GENL_H
#define MRC_IP_MRC_GENL_H

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "genl_shared.h"

namespace mrc_ip {

class MrcGenlClient {
public:
    // Connects, resolves the family and reads its operations. A missing
    // family is ENOENT.
    Status open(const std::string& family = "mrc");

    // Whether the kernel implements cmd (else "kernel too old").
    bool supports(int cmd) const { return ops_.count(cmd) != 0; }

    // Builds a request with build (called again on a restart), sends it and
    // hands each reply to on_reply. Dumps flagged NLM_F_DUMP_INTR restart
    // up to three times; reset is called before each restart.
    Status call(uint8_t cmd, bool dump, const std::function<void(nl_msg*)>& build,
                const GenlSocket::ReplyHandler& on_reply,
                const std::function<void()>& reset = nullptr);

    uint16_t family() const { return family_; }
    GenlSocket& socket() { return sock_; }

private:
    GenlSocket sock_;
    uint16_t family_ = 0;
    std::set<int> ops_;
};

// The path of attribute types (outermost first) to the attribute that
// starts offset bytes into request, or {} when none does.
std::vector<int> attr_path_at(const nlmsghdr* request, uint32_t offset);

// A readable name for an attribute path of the family: "port_admin",
// "evfmt mode", "ev index", "gamma".
std::string attr_path_name(const std::vector<int>& path);

// Names the attributes that st's extack offsets point at in request:
// "missing attribute X" or "attribute X"; "" when there are none.
std::string describe_attrs(const Status& st, const nlmsghdr* request);

}  // namespace mrc_ip

#endif  // MRC_IP_MRC_GENL_H
