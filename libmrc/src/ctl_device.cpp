// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_device.h"

#include <cerrno>
#include <cstring>

#include "mrc-genl.h"
#include "mrc_checks.h"

namespace mrc::lib::ctl {
namespace {

// The family numbers modes and capabilities as OCP's bits do.
static_assert(MRC_CTL_EV_FMT_MODE_STEV == 1 << MRC_FMT_STEV);
static_assert(MRC_CTL_EV_FMT_MODE_SRV6 == 1 << MRC_FMT_SRV6);
static_assert(MRC_CTL_EV_FMT_MODE_UDP == 1 << MRC_FMT_UDP);
static_assert(MRC_CTL_EV_MODE_AUTO == 1 << MRC_EV_MODE_AUTO);
static_assert(MRC_CTL_EV_MODE_EXP == 1 << MRC_EV_MODE_EXPLICIT);
static_assert(MRC_CTL_EV_MODE_GEN == 1 << MRC_EV_MODE_GENERATED);
static_assert(MRC_CTL_OPT_CAP_EV_EVENT == MRC_CAP_EV_EVENT);
static_assert(MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT == MRC_CAP_EV_EVENT_PRECISE_DROP_CNT);
static_assert(MRC_CTL_OPT_CAP_EP_OP_EV_PROBE == MRC_CAP_EP_OP_EV_PROBE);

const char kNscc[] = "uet-1.0-nscc";
const char kWindow[] = "mrc-window";

}  // namespace

const char* known_cc_algorithm(const char* name) noexcept {
    for (const char* known : {kNscc, kWindow})
        if (std::strcmp(name, known) == 0)
            return known;
    return nullptr;
}

const char** cc_algorithms(const genl::MrcDevice& dev) noexcept {
    // One immutable list per subset of the known names, so that the
    // pointer handed out stays valid and no call writes what another reads.
    static const char* lists[4][3] = {
        {nullptr}, {kNscc, nullptr}, {kWindow, nullptr}, {kNscc, kWindow, nullptr}};
    unsigned subset = 0;
    for (const auto& [name, runnable] : dev.cc_algs) {
        const char* known = known_cc_algorithm(name.c_str());
        if (known == kNscc)
            subset |= 1;
        else if (known == kWindow)
            subset |= 2;
    }
    return lists[subset];
}

void to_device_attr(const genl::MrcDevice& dev, mrc_ctl_device_attr& out) noexcept {
    out = mrc_ctl_device_attr{};
    out.mrc_ctl_protocol_version = MRC_CTL_PROTOCOL_VERSION_1;
    for (const auto& [type, value] : dev.limits) {
        switch (type) {
            case MRC_LIMIT_FMT_PROFILES:
                out.ev.ev_max_fmt_profiles = value;
                break;
            case MRC_LIMIT_EV_PROFILES:
                out.ev.ev_max_profiles = value;
                break;
            case MRC_LIMIT_EV_COUNT:
                out.ev.ev_max_count = value;
                break;
            case MRC_LIMIT_EV_FREE:
                out.ev.ev_free_count = value;
                break;
            case MRC_LIMIT_EV_PER_PROFILE:
                out.ev.ev_max_count_profile = value;
                break;
            case MRC_LIMIT_EV_COUNT_ALIGN:
                out.ev.ev_count_align = value;
                break;
            case MRC_LIMIT_EV_WIDTH:
                out.ev.ev_max_width = value;
                break;
            case MRC_LIMIT_EV_OP_ENTRIES:
                out.ev.ev_op_max_entries = value;
                break;
            case MRC_LIMIT_CC_PROFILES:
                out.cc.cc_max_profiles = value;
                break;
            case MRC_LIMIT_PORT_MASK:
                out.phy_port_mask = value;
                break;
        }
    }
    // Without a device-wide pool of EVs (the kernel reports none), every
    // profile may hold its maximum and none is ever used up.
    if (out.ev.ev_max_count == 0) {
        out.ev.ev_max_count = out.ev.ev_max_profiles * out.ev.ev_max_count_profile;
        out.ev.ev_free_count = out.ev.ev_max_count;
    }
    out.ev.ev_fmt_mode_mask = dev.fmt_modes.value_or(0);
    out.ev.ev_mode_mask = dev.ev_modes.value_or(0);
    out.cc.algorithms = cc_algorithms(dev);
    out.opt_attr = dev.caps.value_or(0);
}

int check_port(uint8_t port_num, const mrc_ctl_port_attr* attr, int attr_mask,
               bool modify) noexcept {
    if (!attr || port_num != kPort || (attr_mask & ~MRC_CTL_PORT_ADMIN_STATE))
        return EINVAL;
    if (modify && (attr_mask & MRC_CTL_PORT_ADMIN_STATE) &&
        attr->port_admin_state != MRC_CTL_PORT_ADMIN_DISABLED &&
        attr->port_admin_state != MRC_CTL_PORT_ADMIN_ENABLED)
        return EINVAL;
    return 0;
}

}  // namespace mrc::lib::ctl
