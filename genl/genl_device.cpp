// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "genl_device.h"

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <array>
#include <string>

#include "mrc-genl.h"

namespace mrc::genl {
namespace {

using Policy = std::array<nla_policy, MRC_ATTR_MAX + 1>;

// libnl checks only a minimum size for integer types, so give exact sizes.
// String maxlen counts the NUL, which libnl requires as the last byte.
const Policy& dev_policy() {
    static const Policy policy = [] {
        auto fixed = [](uint16_t type, uint16_t size) { return nla_policy{type, size, size}; };
        Policy p{};
        p[MRC_ATTR_DEV_NAME] = {NLA_STRING, 0, kMaxDevNameLen + 1};
        p[MRC_ATTR_DEV_INDEX] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_NETDEV_NAME] = {NLA_STRING, 0, kMaxNetdevNameLen + 1};
        p[MRC_ATTR_NETDEV_IFINDEX] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_UDP_PORT] = fixed(NLA_U16, sizeof(uint16_t));
        p[MRC_ATTR_PORT_STATE] = fixed(NLA_U8, sizeof(uint8_t));
        p[MRC_ATTR_ACTIVE_MTU] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_CTL_API_VERSION] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_DEV_CAPS] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_DEV_FMT_MODES] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_DEV_EV_MODES] = fixed(NLA_U32, sizeof(uint32_t));
        p[MRC_ATTR_DEV_DEFAULT_EVPROF] = fixed(NLA_U64, sizeof(uint64_t));
        p[MRC_ATTR_DEV_DEFAULT_CCPROF] = fixed(NLA_U64, sizeof(uint64_t));
        p[MRC_ATTR_PORT_ADMIN] = fixed(NLA_U8, sizeof(uint8_t));
        p[MRC_ATTR_DEV_LIMITS] = {NLA_NESTED, 0, 0};
        p[MRC_ATTR_DEV_CC_ALGS] = {NLA_NESTED, 0, 0};
        return p;
    }();
    return policy;
}

std::optional<MrcDevice> reject(std::string* why, const char* reason) {
    if (why != nullptr) {
        *why = reason;
    }
    return std::nullopt;
}

// One MRC_ATTR_CC_ALG_ENTRY: MRC_ATTR_CCPROF { MRC_CCPROF_ALG },
// MRC_ATTR_CC_ALG_RUNNABLE. Returns false if it is malformed.
bool parse_cc_alg(nlattr* entry, std::vector<std::pair<std::string, bool>>& algs) {
    nlattr* tb[MRC_ATTR_MAX + 1] = {};
    nla_policy p[MRC_ATTR_MAX + 1] = {};
    p[MRC_ATTR_CCPROF] = {NLA_NESTED, 0, 0};
    p[MRC_ATTR_CC_ALG_RUNNABLE] = {NLA_FLAG, 0, 0};
    if (nla_type(entry) != MRC_ATTR_CC_ALG_ENTRY ||
        nla_parse_nested(tb, MRC_ATTR_MAX, entry, p) < 0 || tb[MRC_ATTR_CCPROF] == nullptr) {
        return false;
    }
    nlattr* cc[MRC_CCPROF_MAX + 1] = {};
    nla_policy cp[MRC_CCPROF_MAX + 1] = {};
    cp[MRC_CCPROF_ALG] = {NLA_STRING, 0, 32};
    if (nla_parse_nested(cc, MRC_CCPROF_MAX, tb[MRC_ATTR_CCPROF], cp) < 0 ||
        cc[MRC_CCPROF_ALG] == nullptr || *nla_get_string(cc[MRC_CCPROF_ALG]) == '\0') {
        return false;
    }
    algs.emplace_back(nla_get_string(cc[MRC_CCPROF_ALG]), tb[MRC_ATTR_CC_ALG_RUNNABLE] != nullptr);
    return true;
}

std::optional<uint32_t> get_u32(const nlattr* attr) {
    return attr != nullptr ? std::optional<uint32_t>(nla_get_u32(attr)) : std::nullopt;
}

}  // namespace

std::optional<MrcDevice> parse_dev_reply(const nlmsghdr* nlh, std::string* why) {
    auto* hdr = const_cast<nlmsghdr*>(nlh);  // libnl's parsers are not const-correct
    if (nlh == nullptr || nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr(hdr, 0)) {
        return reject(why, "truncated message");
    }
    if (genlmsg_hdr(hdr)->cmd != MRC_CMD_DEV_GET) {
        return reject(why, "not a device reply");
    }
    nlattr* tb[MRC_ATTR_MAX + 1] = {};
    if (genlmsg_parse(hdr, 0, tb, MRC_ATTR_MAX, dev_policy().data()) < 0) {
        return reject(why, "malformed attribute");
    }
    if (tb[MRC_ATTR_DEV_NAME] == nullptr) {
        return reject(why, "no device name");
    }

    MrcDevice dev;
    dev.name = nla_get_string(tb[MRC_ATTR_DEV_NAME]);
    if (dev.name.empty()) {
        return reject(why, "empty device name");
    }
    if (const nlattr* a = tb[MRC_ATTR_NETDEV_NAME]; a != nullptr && *nla_get_string(a) != '\0') {
        dev.netdev = nla_get_string(a);
    }
    dev.netdev_ifindex = get_u32(tb[MRC_ATTR_NETDEV_IFINDEX]);
    dev.dev_index = get_u32(tb[MRC_ATTR_DEV_INDEX]);
    dev.mtu = get_u32(tb[MRC_ATTR_ACTIVE_MTU]);
    if (const nlattr* a = tb[MRC_ATTR_UDP_PORT]) {
        dev.udp_port = nla_get_u16(a);
    }
    if (const nlattr* a = tb[MRC_ATTR_PORT_STATE]) {
        dev.state = port_state_name(nla_get_u8(a));
    }
    dev.api_version = get_u32(tb[MRC_ATTR_CTL_API_VERSION]);
    dev.caps = get_u32(tb[MRC_ATTR_DEV_CAPS]);
    dev.fmt_modes = get_u32(tb[MRC_ATTR_DEV_FMT_MODES]);
    dev.ev_modes = get_u32(tb[MRC_ATTR_DEV_EV_MODES]);
    if (const nlattr* a = tb[MRC_ATTR_DEV_DEFAULT_EVPROF]) {
        dev.default_evprof = nla_get_u64(a);
    }
    if (const nlattr* a = tb[MRC_ATTR_DEV_DEFAULT_CCPROF]) {
        dev.default_ccprof = nla_get_u64(a);
    }
    if (const nlattr* a = tb[MRC_ATTR_PORT_ADMIN]) {
        dev.port_admin = nla_get_u8(a);
    }
    if (nlattr* a = tb[MRC_ATTR_DEV_LIMITS]) {
        nlattr* l = nullptr;
        int rem = 0;
        nla_for_each_nested(l, a, rem) {
            if (nla_len(l) != sizeof(uint32_t)) {
                return reject(why, "malformed limit");
            }
            dev.limits.emplace_back(nla_type(l), nla_get_u32(l));
        }
    }
    if (nlattr* a = tb[MRC_ATTR_DEV_CC_ALGS]) {
        nlattr* e = nullptr;
        int rem = 0;
        nla_for_each_nested(e, a, rem) {
            if (!parse_cc_alg(e, dev.cc_algs)) {
                return reject(why, "malformed CC algorithm entry");
            }
        }
    }
    return dev;
}

std::string port_state_name(uint8_t state) {
    switch (state) {
        case MRC_PORT_STATE_DOWN:
            return "DOWN";
        case MRC_PORT_STATE_ACTIVE:
            return "ACTIVE";
    }
    return "UNKNOWN(" + std::to_string(state) + ")";
}

}  // namespace mrc::genl
