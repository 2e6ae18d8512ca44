// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_link.h"

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "mrc-genl.h"

namespace mrc::lib::ctl {

int Link::open() noexcept {
    if (genl::Status st = sock_.connect(); !st.ok())
        return st.error;
    return sock_.resolve_family(MRC_GENL_NAME, family_).error;
}

genl::NlMsgPtr Link::request(uint8_t cmd, const char* dev, bool dump) const noexcept {
    genl::NlMsgPtr msg =
        genl::GenlSocket::new_request(family_, cmd, MRC_GENL_VERSION, dump ? NLM_F_DUMP : 0);
    if (msg && nla_put_string(msg.get(), MRC_ATTR_DEV_NAME, dev) < 0)
        msg.reset();
    return msg;
}

genl::NlMsgPtr Link::request(uint8_t cmd, const char* dev, uint64_t id) const noexcept {
    genl::NlMsgPtr msg = request(cmd, dev, false);
    if (msg && nla_put_u64(msg.get(), MRC_ATTR_PROF_ID, id) < 0)
        msg.reset();
    return msg;
}

int Link::exchange(nl_msg* req, const genl::GenlSocket::ReplyHandler& on_reply) noexcept {
    nlmsghdr* hdr = nlmsg_hdr(req);
    if (!(hdr->nlmsg_flags & NLM_F_DUMP))
        hdr->nlmsg_flags |= NLM_F_ACK;
    // The kernel's extack text has nowhere to go in the OCP API; its errno
    // is what the caller gets.
    return sock_.transact(req, on_reply).error;
}

int Link::dump(nl_msg* req, const genl::GenlSocket::ReplyHandler& on_reply,
               const std::function<void()>& restart) noexcept {
    genl::Status st;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (attempt > 0) {
            restart();
            nlmsg_hdr(req)->nlmsg_seq = NL_AUTO_SEQ;  // a new exchange
        }
        st = sock_.transact(req, on_reply);
        if (!st.dump_intr)
            break;
    }
    return st.error;
}

}  // namespace mrc::lib::ctl
