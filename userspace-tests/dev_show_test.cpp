// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Text and JSON output of "mrc-ip dev show".
#include "dev_show.h"

#include <gtest/gtest.h>

#include <sstream>

namespace mrc_ip {
namespace {

MrcDevice full(const std::string& name, const std::string& netdev, uint32_t ifindex, uint16_t port,
               const std::string& state, uint32_t mtu) {
    MrcDevice d;
    d.name = name;
    d.netdev = netdev;
    d.netdev_ifindex = ifindex;
    d.dev_index = 9;  // never printed
    d.udp_port = port;
    d.state = state;
    d.mtu = mtu;
    return d;
}

std::string text(const std::vector<MrcDevice>& devs) {
    std::ostringstream out;
    print_devices_text(out, devs);
    return out.str();
}

std::string json(const std::vector<MrcDevice>& devs, bool pretty = false) {
    std::ostringstream out;
    print_devices_json(out, devs, pretty);
    return out.str();
}

TEST(DevShowTest, Text) {
    EXPECT_EQ(text({full("mrc0", "veth0", 5, 4792, "ACTIVE", 1024),
                    full("mrc1", "veth1", 7, 4800, "DOWN", 4096)}),
              "mrc0: netdev veth0 ifindex 5 udp_port 4792 state ACTIVE mtu 1024\n"
              "mrc1: netdev veth1 ifindex 7 udp_port 4800 state DOWN mtu 4096\n");
}

TEST(DevShowTest, Json) {
    EXPECT_EQ(json({full("mrc0", "veth0", 5, 4792, "ACTIVE", 1024)}),
              "[{\"ifname\":\"mrc0\",\"netdev\":\"veth0\",\"ifindex\":5,\"udp_port\":4792,"
              "\"state\":\"ACTIVE\",\"mtu\":1024}]\n");
}

TEST(DevShowTest, JsonSeveralDevices) {
    EXPECT_EQ(json({full("mrc0", "a", 1, 1, "DOWN", 1), full("mrc1", "b", 2, 2, "UNKNOWN(3)", 2)}),
              "[{\"ifname\":\"mrc0\",\"netdev\":\"a\",\"ifindex\":1,\"udp_port\":1,"
              "\"state\":\"DOWN\",\"mtu\":1},"
              "{\"ifname\":\"mrc1\",\"netdev\":\"b\",\"ifindex\":2,\"udp_port\":2,"
              "\"state\":\"UNKNOWN(3)\",\"mtu\":2}]\n");
}

TEST(DevShowTest, PrettyJson) {
    EXPECT_EQ(json({full("mrc0", "veth0", 5, 4792, "ACTIVE", 1024)}, true),
              "[\n"
              "    {\n"
              "        \"ifname\": \"mrc0\",\n"
              "        \"netdev\": \"veth0\",\n"
              "        \"ifindex\": 5,\n"
              "        \"udp_port\": 4792,\n"
              "        \"state\": \"ACTIVE\",\n"
              "        \"mtu\": 1024\n"
              "    }\n"
              "]\n");
}

TEST(DevShowTest, MissingFieldsAreOmitted) {
    MrcDevice bare;
    bare.name = "mrc0";
    EXPECT_EQ(text({bare}), "mrc0:\n");
    EXPECT_EQ(json({bare}), "[{\"ifname\":\"mrc0\"}]\n");

    MrcDevice some;
    some.name = "mrc1";
    some.udp_port = 4792;
    some.mtu = 1500;
    EXPECT_EQ(text({some}), "mrc1: udp_port 4792 mtu 1500\n");
    EXPECT_EQ(json({some}), "[{\"ifname\":\"mrc1\",\"udp_port\":4792,\"mtu\":1500}]\n");
}

TEST(DevShowTest, NoDevices) {
    EXPECT_EQ(text({}), "");
    EXPECT_EQ(json({}), "[]\n");
    EXPECT_EQ(json({}, true), "[]\n");
}

TEST(DevShowTest, JsonEscapesStrangeNames) {
    std::string out = json({full("mrc0", "we\"ird\\", 5, 4792, "ACTIVE", 1024)});
    EXPECT_NE(out.find("\"netdev\":\"we\\\"ird\\\\\""), std::string::npos) << out;
}

TEST(DevShowTest, LargestValues) {
    EXPECT_EQ(text({full("mrc0", "v", 4294967295u, 65535, "ACTIVE", 4294967295u)}),
              "mrc0: netdev v ifindex 4294967295 udp_port 65535 state ACTIVE mtu 4294967295\n");
}

}  // namespace
}  // namespace mrc_ip
