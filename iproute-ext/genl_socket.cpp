// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "genl_socket.h"

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <string>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace mrc_ip {

void NlSockDeleter::operator()(nl_sock* sk) const {
    nl_socket_free(sk);
}

void NlMsgDeleter::operator()(nl_msg* msg) const {
    nlmsg_free(msg);
}

namespace {

struct NlCbDeleter {
    void operator()(nl_cb* cb) const { nl_cb_put(cb); }
};
using NlCbPtr = std::unique_ptr<nl_cb, NlCbDeleter>;

Status libnl_failure(const char* what, int nlerr) {
    return Status::local(EIO, std::string(what) + ": " + nl_geterror(nlerr));
}

// State of one request/answer exchange, shared with the libnl callbacks.
struct Exchange {
    uint16_t family;  // type of the answers we expect
    const GenlSocket::ReplyHandler* on_reply;
    Status status;      // first error seen; later answers are only drained
    bool done = false;  // ACK, NLMSG_DONE or error seen
};

int on_valid(nl_msg* msg, void* arg) {
    auto* ex = static_cast<Exchange*>(arg);
    nlmsghdr* nlh = nlmsg_hdr(msg);
    if (!ex->status.ok()) {
        return NL_OK;
    }
    if (nlh->nlmsg_type != ex->family) {
        ex->status = Status::local(
            EPROTO, "unexpected netlink message type " + std::to_string(nlh->nlmsg_type));
        return NL_OK;
    }
    ex->status = (*ex->on_reply)(nlh);
    return NL_OK;
}

int on_ack(nl_msg*, void* arg) {
    static_cast<Exchange*>(arg)->done = true;
    return NL_STOP;
}

// NLMSG_DONE ends a dump; a negative int in it is an error of a later round.
int on_finish(nl_msg* msg, void* arg) {
    auto* ex = static_cast<Exchange*>(arg);
    nlmsghdr* nlh = nlmsg_hdr(msg);
    ex->done = true;
    int err = 0;
    if (nlmsg_datalen(nlh) >= static_cast<int>(sizeof(err))) {
        std::memcpy(&err, nlmsg_data(nlh), sizeof(err));
    }
    if (err < 0 && ex->status.ok()) {
        ex->status = Status::kernel(-err, extack_message(nlh));
    }
    return NL_STOP;
}

int on_error(sockaddr_nl*, nlmsgerr* err, void* arg) {
    auto* ex = static_cast<Exchange*>(arg);
    // libnl hands us the payload of the NLMSG_ERROR message; its header
    // (flags, length) precedes it in the same buffer.
    const auto* nlh =
        reinterpret_cast<const nlmsghdr*>(reinterpret_cast<const char*>(err) - NLMSG_HDRLEN);
    ex->done = true;
    if (ex->status.ok()) {
        ex->status = Status::kernel(err->error < 0 ? -err->error : err->error, extack_message(nlh));
    }
    return NL_STOP;
}

}  // namespace

Status Status::kernel(int error, const std::string& extack) {
    std::string text = std::strerror(error);
    if (!extack.empty()) {
        text += ": " + extack;
    }
    return {error, text};
}

Status Status::local(int error, const std::string& message) {
    return {error, message};
}

std::string extack_message(const nlmsghdr* nlh) {
    if (nlh == nullptr || nlh->nlmsg_len < NLMSG_HDRLEN || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS)) {
        return "";
    }
    // The attributes follow the error code and, unless capped, the echo of
    // the request.
    std::size_t hlen = 0;
    if (nlh->nlmsg_type == NLMSG_ERROR) {
        if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr))) {
            return "";
        }
        const auto* err = static_cast<const nlmsgerr*>(NLMSG_DATA(nlh));
        hlen = sizeof(nlmsgerr);
        if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
            if (err->msg.nlmsg_len < NLMSG_HDRLEN) {
                return "";
            }
            hlen += err->msg.nlmsg_len - NLMSG_HDRLEN;
        }
    } else if (nlh->nlmsg_type == NLMSG_DONE) {
        hlen = sizeof(int);
    } else {
        return "";
    }
    if (hlen > nlh->nlmsg_len - NLMSG_HDRLEN) {
        return "";
    }

    nla_policy policy[NLMSGERR_ATTR_MAX + 1] = {};
    policy[NLMSGERR_ATTR_MSG].type = NLA_STRING;
    nlattr* tb[NLMSGERR_ATTR_MAX + 1] = {};
    if (nlmsg_parse(const_cast<nlmsghdr*>(nlh), static_cast<int>(hlen), tb, NLMSGERR_ATTR_MAX,
                    policy) < 0 ||
        tb[NLMSGERR_ATTR_MSG] == nullptr) {
        return "";
    }
    return nla_get_string(tb[NLMSGERR_ATTR_MSG]);
}

Status GenlSocket::connect() {
    sk_.reset(nl_socket_alloc());
    if (!sk_) {
        return Status::local(ENOMEM, "cannot allocate a netlink socket");
    }
    if (int rc = genl_connect(sk_.get()); rc < 0) {
        sk_.reset();
        return libnl_failure("cannot open a generic netlink socket", rc);
    }
    // Best effort: kernels without these still answer, only less helpfully.
    int one = 1;
    int fd = nl_socket_get_fd(sk_.get());
    setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
    return {};
}

NlMsgPtr GenlSocket::new_request(uint16_t family, uint8_t cmd, uint8_t version, int flags) {
    NlMsgPtr msg(nlmsg_alloc());
    if (msg && genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, version) ==
                   nullptr) {
        msg.reset();
    }
    return msg;
}

Status GenlSocket::resolve_family(const std::string& name, uint16_t& id) {
    NlMsgPtr msg = new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
    if (!msg || nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, name.c_str()) < 0) {
        return Status::local(ENOMEM, "cannot build a family lookup request");
    }
    bool found = false;
    Status st = transact(msg.get(), [&](nlmsghdr* nlh) {
        nla_policy policy[CTRL_ATTR_MAX + 1] = {};
        policy[CTRL_ATTR_FAMILY_ID] = {NLA_U16, sizeof(uint16_t), sizeof(uint16_t)};
        nlattr* tb[CTRL_ATTR_MAX + 1] = {};
        if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, policy) < 0 ||
            tb[CTRL_ATTR_FAMILY_ID] == nullptr) {
            return Status::local(EPROTO, "invalid family lookup reply from the kernel");
        }
        id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
        found = true;
        return Status{};
    });
    if (st.ok() && !found) {
        return Status::local(EPROTO, "no family lookup reply from the kernel");
    }
    return st;
}

Status GenlSocket::transact(nl_msg* request, const ReplyHandler& on_reply) {
    if (!sk_) {
        return Status::local(ENOTCONN, "netlink socket is not connected");
    }
    nlmsghdr* req = nlmsg_hdr(request);
    nl_complete_msg(sk_.get(), request);
    // The kernel never ACKs a dump; NLMSG_DONE is its end.
    if ((req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
        req->nlmsg_flags &= ~NLM_F_ACK;
    }
    if (int rc = nl_send(sk_.get(), request); rc < 0) {
        return libnl_failure("cannot send a netlink request", rc);
    }

    NlCbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb) {
        return Status::local(ENOMEM, "cannot allocate netlink callbacks");
    }
    Exchange ex{req->nlmsg_type, &on_reply, {}};
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ex);
    nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ex);
    nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &ex);
    nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ex);

    while (!ex.done) {
        // Messages handled, or a negative libnl error (also after on_error).
        int rc = nl_recvmsgs_report(sk_.get(), cb.get());
        if (rc == -NLE_DUMP_INTR && ex.status.ok()) {
            return Status::local(EAGAIN, "the kernel's list changed while it was read, try again");
        }
        if (rc < 0 && !ex.done) {
            return libnl_failure("cannot read the netlink answer", rc);
        }
        if (rc == 0 && !ex.done) {
            return Status::local(EIO, "netlink answer ended early");
        }
    }
    return ex.status;
}

}  // namespace mrc_ip
