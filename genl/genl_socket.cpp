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

namespace mrc::genl {

// Linux 6.0's missing-attribute report; older uapi headers lack the names.
constexpr int kMissType = 5;  // NLMSGERR_ATTR_MISS_TYPE
constexpr int kMissNest = 6;  // NLMSGERR_ATTR_MISS_NEST
constexpr int kExtackMax = 6;

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
        Status ext;
        parse_extack(nlh, ext);
        ex->status = Status::kernel(-err, ext.extack);
        ex->status.miss_type = ext.miss_type;
        ex->status.miss_nest = ext.miss_nest;
        ex->status.bad_offset = ext.bad_offset;
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
        Status ext;
        parse_extack(nlh, ext);
        ex->status = Status::kernel(err->error < 0 ? -err->error : err->error, ext.extack);
        ex->status.miss_type = ext.miss_type;
        ex->status.miss_nest = ext.miss_nest;
        ex->status.bad_offset = ext.bad_offset;
    }
    return NL_STOP;
}

}  // namespace

Status Status::kernel(int error, const std::string& extack) {
    std::string text = std::strerror(error);
    if (!extack.empty()) {
        text += ": " + extack;
    }
    Status st;
    st.error = error;
    st.message = text;
    st.from_kernel = true;
    st.extack = extack;
    return st;
}

Status Status::local(int error, const std::string& message) {
    Status st;
    st.error = error;
    st.message = message;
    return st;
}

std::string extack_message(const nlmsghdr* nlh) {
    Status st;
    parse_extack(nlh, st);
    return st.extack;
}

void parse_extack(const nlmsghdr* nlh, Status& st) {
    if (nlh == nullptr || nlh->nlmsg_len < NLMSG_HDRLEN || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS)) {
        return;
    }
    // The attributes follow the error code and, unless capped, the echo of
    // the request.
    std::size_t hlen = 0;
    if (nlh->nlmsg_type == NLMSG_ERROR) {
        if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr))) {
            return;
        }
        const auto* err = static_cast<const nlmsgerr*>(NLMSG_DATA(nlh));
        hlen = sizeof(nlmsgerr);
        if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
            if (err->msg.nlmsg_len < NLMSG_HDRLEN) {
                return;
            }
            hlen += err->msg.nlmsg_len - NLMSG_HDRLEN;
        }
    } else if (nlh->nlmsg_type == NLMSG_DONE) {
        hlen = sizeof(int);
    } else {
        return;
    }
    if (hlen > nlh->nlmsg_len - NLMSG_HDRLEN) {
        return;
    }

    nla_policy policy[kExtackMax + 1] = {};
    policy[NLMSGERR_ATTR_MSG].type = NLA_STRING;
    policy[kMissType] = {NLA_U32, 4, 4};
    policy[kMissNest] = {NLA_U32, 4, 4};
    policy[NLMSGERR_ATTR_OFFS] = {NLA_U32, 4, 4};
    nlattr* tb[kExtackMax + 1] = {};
    if (nlmsg_parse(const_cast<nlmsghdr*>(nlh), static_cast<int>(hlen), tb, kExtackMax, policy) <
        0) {
        return;
    }
    if (tb[NLMSGERR_ATTR_MSG] != nullptr) {
        st.extack = nla_get_string(tb[NLMSGERR_ATTR_MSG]);
    }
    if (tb[kMissType] != nullptr) {
        st.miss_type = static_cast<int>(nla_get_u32(tb[kMissType]));
    }
    if (tb[kMissNest] != nullptr) {
        st.miss_nest = static_cast<int>(nla_get_u32(tb[kMissNest]));
    }
    if (tb[NLMSGERR_ATTR_OFFS] != nullptr) {
        st.bad_offset = static_cast<int>(nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
    }
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
    int rc = genl_ctrl_resolve(sk_.get(), name.c_str());
    if (rc == -NLE_OBJ_NOTFOUND) {
        return Status::local(ENOENT, "generic netlink family \"" + name + "\" not found");
    }
    if (rc < 0) {
        return libnl_failure("cannot look up a generic netlink family", rc);
    }
    id = static_cast<uint16_t>(rc);
    return {};
}

Status GenlSocket::family_ops(const std::string& name, std::set<int>& ops) {
    NlMsgPtr msg = new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
    if (!msg || nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, name.c_str()) < 0) {
        return Status::local(ENOMEM, "cannot build a family lookup request");
    }
    return transact(msg.get(), [&](nlmsghdr* nlh) {
        nlattr* tb[CTRL_ATTR_MAX + 1] = {};
        if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, nullptr) < 0) {
            return Status::local(EPROTO, "invalid family lookup reply from the kernel");
        }
        if (tb[CTRL_ATTR_OPS] == nullptr) {
            return Status{};
        }
        nlattr* op = nullptr;
        int rem = 0;
        nla_for_each_nested(op, tb[CTRL_ATTR_OPS], rem) {
            nlattr* ob[CTRL_ATTR_OP_MAX + 1] = {};
            if (nla_parse_nested(ob, CTRL_ATTR_OP_MAX, op, nullptr) == 0 &&
                ob[CTRL_ATTR_OP_ID] != nullptr && nla_len(ob[CTRL_ATTR_OP_ID]) >= 4) {
                ops.insert(static_cast<int>(nla_get_u32(ob[CTRL_ATTR_OP_ID])));
            }
        }
        return Status{};
    });
}

Status GenlSocket::resolve_group(const std::string& family, const std::string& group, int& id) {
    int rc = genl_ctrl_resolve_grp(sk_.get(), family.c_str(), group.c_str());
    if (rc < 0) {
        return Status::local(
            ENOENT, "multicast group \"" + group + "\" of family \"" + family + "\" not found");
    }
    id = rc;
    return {};
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
            Status st = Status::local(EAGAIN, "dump interrupted, table changing");
            st.dump_intr = true;
            return st;
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

Status GenlSocket::transact_stream(const ReplyHandler& on_message) {
    NlCbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb) {
        return Status::local(ENOMEM, "cannot allocate netlink callbacks");
    }
    Exchange ex{0, &on_message, {}};
    nl_cb_set(
        cb.get(), NL_CB_VALID, NL_CB_CUSTOM,
        [](nl_msg* msg, void* arg) -> int {
            auto* e = static_cast<Exchange*>(arg);
            if (e->status.ok()) {
                e->status = (*e->on_reply)(nlmsg_hdr(msg));
            }
            return e->status.ok() ? NL_OK : NL_STOP;
        },
        &ex);
    nl_cb_set(
        cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, [](nl_msg*, void*) -> int { return NL_OK; },
        nullptr);
    while (ex.status.ok()) {
        int rc = nl_recvmsgs(sk_.get(), cb.get());
        if (rc < 0 && rc != -NLE_INTR && rc != -NLE_AGAIN) {
            return libnl_failure("cannot read events", rc);
        }
    }
    return ex.status;
}

}  // namespace mrc::genl
