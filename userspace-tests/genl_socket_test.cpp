// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The generic netlink socket against the running kernel's own family
// "nlctrl" (always registered, no privileges needed), and the extack parser
// on error messages laid out as the kernel's netlink_ack() builds them.
#include "genl_shared.h"

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>

namespace mrc_ip {
namespace {

GenlSocket connected() {
    GenlSocket sock;
    Status st = sock.connect();
    EXPECT_TRUE(st.ok()) << st.message;
    return sock;
}

// CTRL_ATTR_FAMILY_NAME of one nlctrl reply, or "".
std::string family_name(nlmsghdr* nlh) {
    nlattr* tb[CTRL_ATTR_MAX + 1] = {};
    if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, nullptr) < 0 ||
        tb[CTRL_ATTR_FAMILY_NAME] == nullptr) {
        return "";
    }
    return nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]);
}

TEST(GenlSocketTest, ResolvesTheControllerFamily) {
    GenlSocket sock = connected();
    uint16_t id = 0;
    Status st = sock.resolve_family("nlctrl", id);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(id, GENL_ID_CTRL);
}

TEST(GenlSocketTest, UnknownFamilyIsEnoent) {
    GenlSocket sock = connected();
    uint16_t id = 0;
    Status st = sock.resolve_family("mrc-test-none", id);
    EXPECT_EQ(st.error, ENOENT) << st.message;
    EXPECT_FALSE(st.message.empty());
    // The socket stays usable after an error.
    EXPECT_TRUE(sock.resolve_family("nlctrl", id).ok());
}

TEST(GenlSocketTest, FamilyOpsListsTheControllersCommands) {
    GenlSocket sock = connected();
    std::set<int> ops;
    Status st = sock.family_ops("nlctrl", ops);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(ops.count(CTRL_CMD_GETFAMILY), 1u);
    EXPECT_EQ(ops.count(CTRL_CMD_NEWFAMILY), 0u);  // sent by the kernel only
    std::set<int> none;
    EXPECT_EQ(sock.family_ops("mrc-test-none", none).error, ENOENT);
    EXPECT_TRUE(none.empty());
}

TEST(GenlSocketTest, ResolvesTheControllersGroup) {
    GenlSocket sock = connected();
    int id = 0;
    ASSERT_TRUE(sock.resolve_group("nlctrl", "notify", id).ok());
    EXPECT_GT(id, 0);
    EXPECT_EQ(sock.resolve_group("nlctrl", "no-such-group", id).error, ENOENT);
}

TEST(GenlSocketTest, DumpRunsToDoneAndSocketStaysUsable) {
    GenlSocket sock = connected();
    NlMsgPtr req = GenlSocket::new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_DUMP);
    ASSERT_TRUE(req);
    std::set<std::string> names;
    Status st = sock.transact(req.get(), [&](nlmsghdr* nlh) {
        names.insert(family_name(nlh));
        return Status{};
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(names.count("nlctrl"), 1u);

    uint16_t id = 0;
    st = sock.resolve_family("nlctrl", id);
    EXPECT_TRUE(st.ok()) << st.message;
}

TEST(GenlSocketTest, HandlerErrorEndsDumpAndIsReturned) {
    GenlSocket sock = connected();
    NlMsgPtr req = GenlSocket::new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_DUMP);
    ASSERT_TRUE(req);
    int calls = 0;
    Status st = sock.transact(req.get(), [&](nlmsghdr*) {
        ++calls;
        return Status::local(EPROTO, "refused");
    });
    EXPECT_EQ(st.error, EPROTO);
    EXPECT_EQ(st.message, "refused");
    EXPECT_EQ(calls, 1);
    // The rest of the dump was drained: the next exchange matches up.
    uint16_t id = 0;
    st = sock.resolve_family("nlctrl", id);
    EXPECT_TRUE(st.ok()) << st.message;
}

// A family id of the wrong size fails the kernel's policy check, which
// explains itself through the extended ACK.
TEST(GenlSocketTest, KernelErrorCarriesExtack) {
    GenlSocket sock = connected();
    NlMsgPtr req = GenlSocket::new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
    ASSERT_TRUE(req);
    uint8_t one_byte = 1;
    ASSERT_EQ(nla_put(req.get(), CTRL_ATTR_FAMILY_ID, 1, &one_byte), 0);
    Status st = sock.transact(req.get(), [](nlmsghdr*) { return Status{}; });
    // ERANGE from the minimum-length check; EINVAL where a kernel checks
    // exact lengths first.
    EXPECT_TRUE(st.error == ERANGE || st.error == EINVAL) << st.error << " " << st.message;
    std::string prefix = std::string(std::strerror(st.error)) + ": ";
    EXPECT_EQ(st.message.rfind(prefix, 0), 0u) << st.message;
    EXPECT_GT(st.message.size(), prefix.size()) << "no extack text: " << st.message;
}

TEST(GenlSocketTest, TransactNeedsConnect) {
    GenlSocket sock;
    NlMsgPtr req = GenlSocket::new_request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
    ASSERT_TRUE(req);
    EXPECT_EQ(sock.transact(req.get(), [](nlmsghdr*) { return Status{}; }).error, ENOTCONN);
}

TEST(StatusTest, KernelTextIsStrerrorPlusExtack) {
    EXPECT_EQ(Status::kernel(ENODEV, "").message, std::strerror(ENODEV));
    EXPECT_EQ(Status::kernel(ENODEV, "no such thing").message,
              std::string(std::strerror(ENODEV)) + ": no such thing");
    EXPECT_TRUE(Status{}.ok());
    EXPECT_FALSE(Status::local(EIO, "x").ok());
}

// An NLMSG_ERROR (or NLMSG_DONE) message as netlink_ack() lays it out.
class AckMessage {
public:
    AckMessage(int type, uint16_t flags) : msg_(nlmsg_alloc()) {
        nlh_ = nlmsg_put(msg_.get(), 0, 9, type, 0, flags);
        EXPECT_NE(nlh_, nullptr);
    }
    // nlmsgerr, echoing a request of payload_len bytes unless capped.
    AckMessage& error(int err, uint32_t payload_len, bool capped) {
        nlmsgerr e{};
        e.error = err;
        e.msg.nlmsg_len = NLMSG_HDRLEN + payload_len;
        e.msg.nlmsg_type = 0x20;
        EXPECT_EQ(nlmsg_append(msg_.get(), &e, sizeof(e), NLMSG_ALIGNTO), 0);
        if (!capped) {
            std::string echo(payload_len, 'r');
            EXPECT_EQ(nlmsg_append(msg_.get(), echo.data(), echo.size(), NLMSG_ALIGNTO), 0);
        }
        return *this;
    }
    AckMessage& done(int err) {
        EXPECT_EQ(nlmsg_append(msg_.get(), &err, sizeof(err), NLMSG_ALIGNTO), 0);
        return *this;
    }
    AckMessage& text(const std::string& s) {
        EXPECT_EQ(nla_put_string(msg_.get(), NLMSGERR_ATTR_MSG, s.c_str()), 0);
        return *this;
    }
    AckMessage& u32(int type, uint32_t v) {
        EXPECT_EQ(nla_put_u32(msg_.get(), type, v), 0);
        return *this;
    }
    AckMessage& offset(uint32_t off) {
        EXPECT_EQ(nla_put_u32(msg_.get(), NLMSGERR_ATTR_OFFS, off), 0);
        return *this;
    }
    nlmsghdr* hdr() { return nlmsg_hdr(msg_.get()); }

private:
    NlMsgPtr msg_;
    nlmsghdr* nlh_ = nullptr;
};

constexpr uint16_t kTlvs = NLM_F_ACK_TLVS;

TEST(ExtackTest, CappedError) {
    AckMessage m(NLMSG_ERROR, kTlvs | NLM_F_CAPPED);
    m.error(-ENODEV, 8, true).offset(20).text("no MRC device with this name in this namespace");
    EXPECT_EQ(extack_message(m.hdr()), "no MRC device with this name in this namespace");
}

TEST(ExtackTest, UncappedErrorSkipsTheEchoedRequest) {
    AckMessage m(NLMSG_ERROR, kTlvs);
    m.error(-EINVAL, 24, false).text("MRC device name is required");
    EXPECT_EQ(extack_message(m.hdr()), "MRC device name is required");
}

TEST(ExtackTest, MissingAttributeTypeAndNest) {
    AckMessage m(NLMSG_ERROR, kTlvs | NLM_F_CAPPED);
    // NLMSGERR_ATTR_MISS_TYPE (5) and NLMSGERR_ATTR_MISS_NEST (6).
    m.error(-EINVAL, 8, true).text("Missing attribute").u32(5, 20).u32(6, 24);
    Status st;
    parse_extack(m.hdr(), st);
    EXPECT_EQ(st.extack, "Missing attribute");
    EXPECT_EQ(st.miss_type, 20);
    EXPECT_EQ(st.miss_nest, 24);

    AckMessage plain(NLMSG_ERROR, kTlvs | NLM_F_CAPPED);
    plain.error(-EINVAL, 8, true).text("x");
    Status none;
    parse_extack(plain.hdr(), none);
    EXPECT_EQ(none.miss_type, -1);
    EXPECT_EQ(none.miss_nest, -1);
}

TEST(ExtackTest, DoneOfADump) {
    AckMessage m(NLMSG_DONE, kTlvs | NLM_F_MULTI);
    m.done(-EMSGSIZE).text("dump failed");
    EXPECT_EQ(extack_message(m.hdr()), "dump failed");
}

TEST(ExtackTest, NoTlvsNoMessage) {
    AckMessage without_flag(NLMSG_ERROR, NLM_F_CAPPED);
    without_flag.error(-ENODEV, 8, true).text("ignored without NLM_F_ACK_TLVS");
    EXPECT_EQ(extack_message(without_flag.hdr()), "");

    AckMessage only_offset(NLMSG_ERROR, kTlvs | NLM_F_CAPPED);
    only_offset.error(-EINVAL, 8, true).offset(20);
    EXPECT_EQ(extack_message(only_offset.hdr()), "");
}

TEST(ExtackTest, MalformedMessagesGiveNoText) {
    // Claims an echoed request longer than the whole message.
    AckMessage bogus_echo(NLMSG_ERROR, kTlvs);
    bogus_echo.error(-EINVAL, 4096, true).text("beyond the end");
    EXPECT_EQ(extack_message(bogus_echo.hdr()), "");

    // No room for the nlmsgerr at all.
    AckMessage truncated(NLMSG_ERROR, kTlvs);
    EXPECT_EQ(extack_message(truncated.hdr()), "");

    // Not an acknowledgement.
    AckMessage other(0x20, kTlvs);
    other.done(0).text("not an ack");
    EXPECT_EQ(extack_message(other.hdr()), "");
    EXPECT_EQ(extack_message(nullptr), "");
}

}  // namespace
}  // namespace mrc_ip
