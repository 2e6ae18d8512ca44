// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The controller API's way to the kernel: one generic netlink socket of
// the family "mrc" per call, opened in the calling thread's network
// namespace (where the family finds the device, as mrc-ip's is), and
// requests that name the device the program opened.
#ifndef MRC_CTL_LINK_H
#define MRC_CTL_LINK_H

#include <cstdint>
#include <functional>

#include "genl_socket.h"

namespace mrc::lib::ctl {

class Link {
public:
    // Connects and resolves the family: 0, or an errno value (ENOENT when
    // mrc.ko is not loaded).
    int open() noexcept;

    // A request of cmd about device dev (and profile id, if given); null
    // when out of memory. dump asks for every answer, else one and an ACK.
    genl::NlMsgPtr request(uint8_t cmd, const char* dev, bool dump) const noexcept;
    genl::NlMsgPtr request(uint8_t cmd, const char* dev, uint64_t id) const noexcept;

    // Sends req and hands each answer to on_reply: 0, or the positive
    // errno of the kernel (or of the exchange, or on_reply's).
    int exchange(nl_msg* req, const genl::GenlSocket::ReplyHandler& on_reply) noexcept;

    // exchange() for a dump, sent again (after restart()) up to three
    // times while the kernel says the table changed under it.
    int dump(nl_msg* req, const genl::GenlSocket::ReplyHandler& on_reply,
             const std::function<void()>& restart) noexcept;

private:
    genl::GenlSocket sock_;
    uint16_t family_ = 0;
};

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_LINK_H
