// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A generic netlink socket on top of libnl-3: family lookup and one
// request/answer exchange at a time, with the kernel's extended ACK message
// (extack) carried into the error text. Nothing in here knows about MRC.
#ifndef MRC_GENL_GENL_SOCKET_H
#define MRC_GENL_GENL_SOCKET_H

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>

struct nl_msg;
struct nl_sock;

namespace mrc::genl {

struct NlSockDeleter {
    void operator()(nl_sock* sk) const;
};
struct NlMsgDeleter {
    void operator()(nl_msg* msg) const;
};
using NlSockPtr = std::unique_ptr<nl_sock, NlSockDeleter>;
using NlMsgPtr = std::unique_ptr<nl_msg, NlMsgDeleter>;

// Outcome of a netlink operation.
struct Status {
    int error = 0;             // 0, or a positive errno (EIO for local libnl failures)
    std::string message;       // for errors: readable text, with the kernel's extack if any
    bool from_kernel = false;  // error came in the kernel's ACK or NLMSG_DONE
    std::string extack;        // NLMSGERR_ATTR_MSG
    int miss_type = -1;        // NLMSGERR_ATTR_MISS_TYPE, -1 when absent
    int miss_nest = -1;        // NLMSGERR_ATTR_MISS_NEST (offset in the request)
    int bad_offset = -1;       // NLMSGERR_ATTR_OFFS: the bad attribute in the request
    std::string attr;          // what the offsets name, filled by the family's client
    bool dump_intr = false;    // a dump message had NLM_F_DUMP_INTR

    bool ok() const { return error == 0; }
    static Status kernel(int error, const std::string& extack);
    static Status local(int error, const std::string& message);
};

// The NLMSGERR_ATTR_MSG text of an NLMSG_ERROR or NLMSG_DONE message, or ""
// when the kernel sent none. Safe on truncated or malformed messages.
std::string extack_message(const nlmsghdr* nlh);

// Fills st's extack, miss_type, miss_nest and bad_offset from an
// NLMSG_ERROR/DONE.
void parse_extack(const nlmsghdr* nlh, Status& st);

class GenlSocket {
public:
    // Answers of the request's family, one message at a time. A non-ok
    // Status ends the exchange with that error (the rest is drained).
    using ReplyHandler = std::function<Status(nlmsghdr*)>;

    // Opens and connects a NETLINK_GENERIC socket with extended ACKs on.
    Status connect();

    // The id of a registered family (genl_ctrl_resolve); ENOENT when none.
    Status resolve_family(const std::string& name, uint16_t& id);

    // The commands the family implements (CTRL_ATTR_OPS of GETFAMILY).
    Status family_ops(const std::string& name, std::set<int>& ops);

    // The id of a family's multicast group (genl_ctrl_resolve_grp).
    Status resolve_group(const std::string& family, const std::string& group, int& id);

    nl_sock* sock() const { return sk_.get(); }

    // A request header for family/cmd; flags adds e.g. NLM_F_DUMP. Null when
    // out of memory.
    static NlMsgPtr new_request(uint16_t family, uint8_t cmd, uint8_t version, int flags);

    // Sends request and hands every answer to on_reply until the kernel's
    // ACK (doit) or NLMSG_DONE (dump). Kernel errors come back as Status.
    Status transact(nl_msg* request, const ReplyHandler& on_reply);

    // Hands every message of the family to on_message until it or the
    // socket fails (multicast listening); returns that failure.
    Status transact_stream(const ReplyHandler& on_message);

private:
    NlSockPtr sk_;
};

}  // namespace mrc::genl

#endif  // MRC_GENL_GENL_SOCKET_H
