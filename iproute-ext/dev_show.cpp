// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "dev_show.h"

#include "json_writer.h"

namespace mrc_ip {

// Text:  mrc0: netdev veth0 ifindex 5 udp_port 4792 state ACTIVE mtu 1024
// Attributes the kernel did not provide are left out, as ip does.
void print_devices_text(std::ostream& out, const std::vector<MrcDevice>& devices) {
    for (const MrcDevice& dev : devices) {
        out << dev.name << ':';
        if (dev.netdev) {
            out << " netdev " << *dev.netdev;
        }
        if (dev.netdev_ifindex) {
            out << " ifindex " << *dev.netdev_ifindex;
        }
        if (dev.udp_port) {
            out << " udp_port " << *dev.udp_port;
        }
        if (dev.state) {
            out << " state " << *dev.state;
        }
        if (dev.mtu) {
            out << " mtu " << *dev.mtu;
        }
        out << '\n';
    }
}

void print_devices_json(std::ostream& out, const std::vector<MrcDevice>& devices, bool pretty) {
    JsonWriter json(out, pretty);
    json.begin_array();
    for (const MrcDevice& dev : devices) {
        json.begin_object();
        json.key("ifname");
        json.string_value(dev.name);
        if (dev.netdev) {
            json.key("netdev");
            json.string_value(*dev.netdev);
        }
        if (dev.netdev_ifindex) {
            json.key("ifindex");
            json.uint_value(*dev.netdev_ifindex);
        }
        if (dev.udp_port) {
            json.key("udp_port");
            json.uint_value(*dev.udp_port);
        }
        if (dev.state) {
            json.key("state");
            json.string_value(*dev.state);
        }
        if (dev.mtu) {
            json.key("mtu");
            json.uint_value(*dev.mtu);
        }
        json.end_object();
    }
    json.end_array();
    out << '\n';
}

}  // namespace mrc_ip
