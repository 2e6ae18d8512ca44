// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The MRC_CMD_DEV_GET reply parser, fed with netlink messages built by libnl
// exactly as the kernel's genlmsg_put()/nla_put_*() lay them out.
#include "names.h"

#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <string>
#include <vector>

#include "genl_socket.h"
#include "mrc-genl.h"

namespace mrc_ip {
namespace {

constexpr uint16_t kFamilyId = 0x20;  // any dynamic genl id

// One reply message under construction.
class Reply {
public:
    explicit Reply(uint8_t cmd = MRC_CMD_DEV_GET) : msg_(nlmsg_alloc()) {
        EXPECT_NE(genlmsg_put(msg_.get(), 4321, 7, kFamilyId, 0, 0, cmd, MRC_GENL_VERSION),
                  nullptr);
    }

    Reply& str(int type, const std::string& s) {
        EXPECT_EQ(nla_put_string(msg_.get(), type, s.c_str()), 0);
        return *this;
    }
    Reply& u8(int type, uint8_t v) {
        EXPECT_EQ(nla_put_u8(msg_.get(), type, v), 0);
        return *this;
    }
    Reply& u16(int type, uint16_t v) {
        EXPECT_EQ(nla_put_u16(msg_.get(), type, v), 0);
        return *this;
    }
    Reply& u32(int type, uint32_t v) {
        EXPECT_EQ(nla_put_u32(msg_.get(), type, v), 0);
        return *this;
    }
    Reply& u64(int type, uint64_t v) {
        EXPECT_EQ(nla_put_u64(msg_.get(), type, v), 0);
        return *this;
    }
    Reply& raw(int type, const std::string& bytes) {
        EXPECT_EQ(nla_put(msg_.get(), type, static_cast<int>(bytes.size()), bytes.data()), 0);
        return *this;
    }

    // Every attribute, as the kernel's mrc_genl_fill_dev() sends them.
    Reply& full(const std::string& name = "mrc0") {
        return str(MRC_ATTR_DEV_NAME, name)
            .u32(MRC_ATTR_DEV_INDEX, 3)
            .str(MRC_ATTR_NETDEV_NAME, "veth0")
            .u32(MRC_ATTR_NETDEV_IFINDEX, 5)
            .u16(MRC_ATTR_UDP_PORT, 4792)
            .u8(MRC_ATTR_PORT_STATE, MRC_PORT_STATE_ACTIVE)
            .u32(MRC_ATTR_ACTIVE_MTU, 1024);
    }

    std::optional<MrcDevice> parse() {
        why_.clear();
        return parse_dev_reply(nlmsg_hdr(msg_.get()), &why_);
    }
    const std::string& why() const { return why_; }
    nl_msg* msg() { return msg_.get(); }

private:
    NlMsgPtr msg_;
    std::string why_;
};

TEST(DevReplyTest, FullReply) {
    Reply r;
    std::optional<MrcDevice> dev = r.full().parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_EQ(dev->name, "mrc0");
    EXPECT_EQ(dev->dev_index, 3u);
    EXPECT_EQ(dev->netdev, "veth0");
    EXPECT_EQ(dev->netdev_ifindex, 5u);
    EXPECT_EQ(dev->udp_port, 4792);
    EXPECT_EQ(dev->state, "ACTIVE");
    EXPECT_EQ(dev->mtu, 1024u);
}

TEST(DevReplyTest, OnlyNameLeavesEverythingElseEmpty) {
    Reply r;
    std::optional<MrcDevice> dev = r.str(MRC_ATTR_DEV_NAME, "mrc7").parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_EQ(dev->name, "mrc7");
    EXPECT_FALSE(dev->dev_index.has_value());
    EXPECT_FALSE(dev->netdev.has_value());
    EXPECT_FALSE(dev->netdev_ifindex.has_value());
    EXPECT_FALSE(dev->udp_port.has_value());
    EXPECT_FALSE(dev->state.has_value());
    EXPECT_FALSE(dev->mtu.has_value());
}

TEST(DevReplyTest, SomeOptionalAttributesMissing) {
    Reply r;
    std::optional<MrcDevice> dev =
        r.str(MRC_ATTR_DEV_NAME, "mrc1").u16(MRC_ATTR_UDP_PORT, 4800).parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_EQ(dev->udp_port, 4800);
    EXPECT_FALSE(dev->netdev.has_value());
    EXPECT_FALSE(dev->state.has_value());
}

TEST(DevReplyTest, MissingNameIsRejected) {
    Reply r;
    r.u32(MRC_ATTR_DEV_INDEX, 3)
        .str(MRC_ATTR_NETDEV_NAME, "veth0")
        .u16(MRC_ATTR_UDP_PORT, 4792)
        .u8(MRC_ATTR_PORT_STATE, MRC_PORT_STATE_ACTIVE);
    EXPECT_FALSE(r.parse().has_value());
    EXPECT_EQ(r.why(), "no device name");
}

TEST(DevReplyTest, EmptyNameIsRejected) {
    Reply r;
    EXPECT_FALSE(r.str(MRC_ATTR_DEV_NAME, "").u16(MRC_ATTR_UDP_PORT, 4792).parse().has_value());
    EXPECT_EQ(r.why(), "empty device name");
}

TEST(DevReplyTest, EmptyNetdevNameIsLeftOut) {
    Reply r;
    std::optional<MrcDevice> dev =
        r.str(MRC_ATTR_DEV_NAME, "mrc0").str(MRC_ATTR_NETDEV_NAME, "").parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_FALSE(dev->netdev.has_value());
}

// Each integer attribute with a payload of the wrong size, too short and too
// long: the whole reply is refused rather than read wrongly.
TEST(DevReplyTest, WrongAttributeSizeIsRejected) {
    struct Case {
        int type;
        std::vector<std::size_t> bad_sizes;
    };
    const Case cases[] = {
        {MRC_ATTR_DEV_INDEX, {0, 2, 8}},  {MRC_ATTR_NETDEV_IFINDEX, {0, 1, 8}},
        {MRC_ATTR_UDP_PORT, {0, 1, 4}},   {MRC_ATTR_PORT_STATE, {0, 2, 4}},
        {MRC_ATTR_ACTIVE_MTU, {0, 2, 8}},
    };
    for (const Case& c : cases) {
        for (std::size_t size : c.bad_sizes) {
            Reply r;
            r.str(MRC_ATTR_DEV_NAME, "mrc0").raw(c.type, std::string(size, '\x01'));
            EXPECT_FALSE(r.parse().has_value()) << "attribute " << c.type << " size " << size;
            EXPECT_EQ(r.why(), "malformed attribute");
        }
    }
}

TEST(DevReplyTest, U64WhereU32ExpectedIsRejected) {
    Reply r;
    EXPECT_FALSE(
        r.str(MRC_ATTR_DEV_NAME, "mrc0").u64(MRC_ATTR_ACTIVE_MTU, 1024).parse().has_value());
}

TEST(DevReplyTest, LongestNamesAreAccepted) {
    const std::string dev_name(kMaxDevNameLen, 'm');
    const std::string netdev_name(kMaxNetdevNameLen, 'n');
    Reply r;
    std::optional<MrcDevice> dev =
        r.str(MRC_ATTR_DEV_NAME, dev_name).str(MRC_ATTR_NETDEV_NAME, netdev_name).parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_EQ(dev->name, dev_name);
    EXPECT_EQ(dev->netdev, netdev_name);
}

TEST(DevReplyTest, OverlongNamesAreRejected) {
    Reply dev_long;
    dev_long.str(MRC_ATTR_DEV_NAME, std::string(kMaxDevNameLen + 1, 'm'));
    EXPECT_FALSE(dev_long.parse().has_value());

    Reply netdev_long;
    netdev_long.str(MRC_ATTR_DEV_NAME, "mrc0")
        .str(MRC_ATTR_NETDEV_NAME, std::string(kMaxNetdevNameLen + 1, 'n'));
    EXPECT_FALSE(netdev_long.parse().has_value());
}

TEST(DevReplyTest, UnterminatedStringIsRejected) {
    Reply r;
    EXPECT_FALSE(r.raw(MRC_ATTR_DEV_NAME, "mrc0").parse().has_value());  // no NUL
    Reply n;
    EXPECT_FALSE(
        n.str(MRC_ATTR_DEV_NAME, "mrc0").raw(MRC_ATTR_NETDEV_NAME, "veth0").parse().has_value());
}

// A newer kernel appends attributes; this version must still read the rest.
TEST(DevReplyTest, UnknownAttributesAreIgnored) {
    Reply r;
    r.full("mrc2")
        .u32(MRC_ATTR_MAX + 1, 77)
        .raw(MRC_ATTR_MAX + 9, std::string(13, 'x'))
        .u64(MRC_ATTR_UNSPEC, 1);
    std::optional<MrcDevice> dev = r.parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    EXPECT_EQ(dev->name, "mrc2");
    EXPECT_EQ(dev->udp_port, 4792);
    EXPECT_EQ(dev->mtu, 1024u);
}

TEST(DevReplyTest, PortStateValues) {
    const std::pair<uint8_t, const char*> cases[] = {
        {MRC_PORT_STATE_DOWN, "DOWN"},
        {MRC_PORT_STATE_ACTIVE, "ACTIVE"},
        {0, "UNKNOWN(0)"},
        {2, "UNKNOWN(2)"},
        {5, "UNKNOWN(5)"},
        {255, "UNKNOWN(255)"},
    };
    for (const auto& [value, name] : cases) {
        Reply r;
        std::optional<MrcDevice> dev =
            r.str(MRC_ATTR_DEV_NAME, "mrc0").u8(MRC_ATTR_PORT_STATE, value).parse();
        ASSERT_TRUE(dev.has_value()) << r.why();
        EXPECT_EQ(dev->state, name) << "value " << int(value);
        EXPECT_EQ(port_state_name(value), name);
    }
}

// An MRC_ATTR_CC_ALG_ENTRY of @name, runnable or not, as the kernel nests it.
void put_cc_alg(nl_msg* m, const char* name, bool runnable) {
    nlattr* e = nla_nest_start(m, MRC_ATTR_CC_ALG_ENTRY);
    nlattr* c = nla_nest_start(m, MRC_ATTR_CCPROF);
    if (name != nullptr) {
        EXPECT_EQ(nla_put_string(m, MRC_CCPROF_ALG, name), 0);
    }
    nla_nest_end(m, c);
    if (runnable) {
        EXPECT_EQ(nla_put_flag(m, MRC_ATTR_CC_ALG_RUNNABLE), 0);
    }
    nla_nest_end(m, e);
}

TEST(DevReplyTest, CcAlgorithms) {
    Reply r;
    r.full();
    nlattr* list = nla_nest_start(r.msg(), MRC_ATTR_DEV_CC_ALGS);
    put_cc_alg(r.msg(), "mrc-window", true);
    put_cc_alg(r.msg(), "uet-1.0-nscc", false);
    nla_nest_end(r.msg(), list);
    std::optional<MrcDevice> dev = r.parse();
    ASSERT_TRUE(dev.has_value()) << r.why();
    using Alg = std::pair<std::string, bool>;
    EXPECT_EQ(dev->cc_algs, (std::vector<Alg>{{"mrc-window", true}, {"uet-1.0-nscc", false}}));
}

TEST(DevReplyTest, CcAlgorithmWithoutNameIsRejected) {
    Reply r;
    r.full();
    nlattr* list = nla_nest_start(r.msg(), MRC_ATTR_DEV_CC_ALGS);
    put_cc_alg(r.msg(), nullptr, true);
    nla_nest_end(r.msg(), list);
    EXPECT_FALSE(r.parse().has_value());
    EXPECT_EQ(r.why(), "malformed CC algorithm entry");
}

TEST(DevReplyTest, OtherCommandIsRejected) {
    Reply r(MRC_CMD_UNSPEC);
    EXPECT_FALSE(r.full().parse().has_value());
    EXPECT_EQ(r.why(), "not a device reply");
}

TEST(DevReplyTest, MessageWithoutGenlHeaderIsRejected) {
    NlMsgPtr msg(nlmsg_alloc());
    ASSERT_NE(nlmsg_put(msg.get(), 1, 1, kFamilyId, 0, 0), nullptr);
    std::string why;
    EXPECT_FALSE(parse_dev_reply(nlmsg_hdr(msg.get()), &why).has_value());
    EXPECT_EQ(why, "truncated message");
    EXPECT_FALSE(parse_dev_reply(nullptr).has_value());
}

TEST(NaturalOrderTest, NaturalLess) {
    EXPECT_TRUE(natural_less("mrc2", "mrc10"));
    EXPECT_FALSE(natural_less("mrc10", "mrc2"));
    EXPECT_TRUE(natural_less("mrc", "mrc0"));
    EXPECT_FALSE(natural_less("mrc0", "mrc0"));
    EXPECT_TRUE(natural_less("mrc1", "mrc01"));  // equal value: shorter first, strict order
    EXPECT_FALSE(natural_less("mrc01", "mrc1"));
    EXPECT_TRUE(natural_less("mrc9a", "mrc9b"));
}

TEST(NaturalOrderTest, SortDevices) {
    std::vector<MrcDevice> devs;
    for (const char* n : {"mrc10", "mrc2", "mrc1", "mrcb", "mrca"}) {
        MrcDevice d;
        d.name = n;
        devs.push_back(d);
    }
    sort_devices(devs);
    std::vector<std::string> names;
    for (const MrcDevice& d : devs) {
        names.push_back(d.name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"mrc1", "mrc2", "mrc10", "mrca", "mrcb"}));
}

}  // namespace
}  // namespace mrc_ip
