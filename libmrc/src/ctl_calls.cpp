// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_calls.h"

#include <netlink/msg.h>

#include <cerrno>

#include "mrc-genl.h"

namespace mrc::lib::ctl {

namespace {

// A doit whose reply, if any, is not needed.
int send(Link& link, genl::NlMsgPtr msg, const Put& put) noexcept {
    if (!msg)
        return ENOMEM;
    if (int err = put(msg.get()))
        return err;
    return link.exchange(msg.get(), [](nlmsghdr*) { return genl::Status{}; });
}

// A handler that parses the one reply with parse into out.
template <typename T, typename Parse>
genl::GenlSocket::ReplyHandler parse_into(T& out, Parse parse) {
    return [&out, parse](nlmsghdr* nlh) {
        std::optional<T> v = parse(nlh, nullptr);
        if (!v)
            return genl::Status::local(EPROTO, "malformed reply");
        out = std::move(*v);
        return genl::Status{};
    };
}

}  // namespace

int get_device(Link& link, const char* dev, genl::MrcDevice& out) noexcept {
    genl::NlMsgPtr msg = link.request(MRC_CMD_DEV_GET, dev, false);
    if (!msg)
        return ENOMEM;
    return link.exchange(msg.get(), parse_into(out, genl::parse_dev_reply));
}

int set_device(Link& link, const char* dev, const Put& put) noexcept {
    return send(link, link.request(MRC_CMD_DEV_SET, dev, false), put);
}

}  // namespace mrc::lib::ctl
