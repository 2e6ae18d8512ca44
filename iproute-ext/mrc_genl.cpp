// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_genl.h"

#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cerrno>

#include "mrc-genl.h"

namespace mrc_ip {
namespace {

QueryStatus failed(const std::string& what, const Status& st) {
    return {QueryError::Failed, what + ": " + st.message};
}

}  // namespace

QueryStatus MrcGenlClient::open() {
    if (Status st = sock_.connect(); !st.ok()) {
        return {QueryError::Failed, st.message};
    }
    Status st = sock_.resolve_family(MRC_GENL_NAME, family_);
    if (st.error == ENOENT) {
        return {QueryError::FamilyMissing, {}};
    }
    if (!st.ok()) {
        return failed("cannot look up generic netlink family \"" MRC_GENL_NAME "\"", st);
    }
    return {};
}

QueryStatus MrcGenlClient::query(const std::string* name, std::vector<MrcDevice>& devices) {
    NlMsgPtr msg = GenlSocket::new_request(family_, MRC_CMD_DEV_GET, MRC_GENL_VERSION,
                                           name != nullptr ? 0 : NLM_F_DUMP);
    if (!msg ||
        (name != nullptr && nla_put_string(msg.get(), MRC_ATTR_DEV_NAME, name->c_str()) < 0)) {
        return {QueryError::Failed, "cannot build a netlink request: out of memory"};
    }
    Status st = sock_.transact(msg.get(), [&](nlmsghdr* nlh) {
        std::string why;
        std::optional<MrcDevice> dev = parse_dev_reply(nlh, &why);
        if (!dev) {
            return Status::local(EPROTO, "invalid reply from the kernel: " + why);
        }
        devices.push_back(std::move(*dev));
        return Status{};
    });
    if (name != nullptr && st.error == ENODEV) {
        return {QueryError::NoSuchDevice, {}};
    }
    if (!st.ok()) {
        return failed(name != nullptr ? "cannot get device \"" + *name + "\""
                                      : std::string("cannot list devices"),
                      st);
    }
    return {};
}

QueryStatus MrcGenlClient::get_device(const std::string& name, MrcDevice& dev) {
    // The kernel would reject such names by policy; none can exist.
    if (name.empty() || name.size() > kMaxDevNameLen) {
        return {QueryError::NoSuchDevice, {}};
    }
    std::vector<MrcDevice> devices;
    if (QueryStatus qs = query(&name, devices); !qs.ok()) {
        return qs;
    }
    if (devices.size() != 1 || devices.front().name != name) {
        return {QueryError::Failed,
                "cannot get device \"" + name + "\": unexpected reply from the kernel"};
    }
    dev = std::move(devices.front());
    return {};
}

QueryStatus MrcGenlClient::list_devices(std::vector<MrcDevice>& devices) {
    devices.clear();
    if (QueryStatus qs = query(nullptr, devices); !qs.ok()) {
        return qs;
    }
    sort_devices(devices);
    return {};
}

}  // namespace mrc_ip
