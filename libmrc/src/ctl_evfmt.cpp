// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_evfmt.h"

#include <netlink/attr.h>

#include <cerrno>

#include "ctl_profile.h"
#include "mrc-genl.h"

namespace mrc::lib::ctl {
namespace {

constexpr int kModifyMask = MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE |
                            MRC_CTL_EV_FMT_PROFILE_OP | MRC_CTL_EV_FMT_VENDOR_CFG;
constexpr int kQueryMask = kModifyMask | MRC_CTL_EV_FMT_PROFILE_CUR_STATE;
constexpr int kMaxFields = 16;  // MRC_EVFMT_FIELDS

}  // namespace

int check_evfmt_modify(const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept {
    if (mask & ~kModifyMask)
        return EINVAL;
    if ((mask & MRC_CTL_EV_FMT_PROFILE_STATE) && !valid_state(attr.profile_state))
        return EINVAL;
    if ((mask & MRC_CTL_EV_FMT_PROFILE_MODE) && bit_number(attr.ev_fmt_mode, kFmtModes) < 0)
        return EINVAL;
    if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
        const auto& op = attr.ev_fmt_op;
        if (op.op != MRC_CTL_EV_FMT_OP_MODIFY_FIELDS ||
            !valid_array(op.fmt_fields, op.fmt_field_count, 1, kMaxFields))
            return EINVAL;
    }
    if ((mask & MRC_CTL_EV_FMT_VENDOR_CFG) && !vendor_cfg_empty(attr.vendor_cfg))
        return EINVAL;
    return 0;
}

int check_evfmt_query(const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept {
    if (mask & ~kQueryMask)
        return EINVAL;
    if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
        const auto& op = attr.ev_fmt_op;
        if (op.op != MRC_CTL_EV_FMT_OP_QUERY_FIELDS ||
            !valid_array(op.fmt_fields, op.fmt_field_count, 0, INT32_MAX))
            return EINVAL;
    }
    return 0;
}

bool evfmt_changes(int mask) noexcept {
    return mask & ~MRC_CTL_EV_FMT_VENDOR_CFG;
}

int put_evfmt_modify(nl_msg* msg, const mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept {
    if (mask & (MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP)) {
        nlattr* nest = nla_nest_start(msg, MRC_ATTR_EVFMT);
        if (!nest)
            return EMSGSIZE;
        if ((mask & MRC_CTL_EV_FMT_PROFILE_MODE) &&
            nla_put_u8(msg, MRC_EVFMT_MODE, bit_number(attr.ev_fmt_mode, kFmtModes)) < 0)
            return EMSGSIZE;
        if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
            nlattr* fields = nla_nest_start(msg, MRC_EVFMT_FIELDS);
            if (!fields)
                return EMSGSIZE;
            for (int i = 0; i < attr.ev_fmt_op.fmt_field_count; ++i)
                if (nla_put_u8(msg, MRC_EVFMT_FIELD_WIDTH, attr.ev_fmt_op.fmt_fields[i].width) < 0)
                    return EMSGSIZE;
            nla_nest_end(msg, fields);
        }
        nla_nest_end(msg, nest);
    }
    if ((mask & MRC_CTL_EV_FMT_PROFILE_STATE) && !put_state(msg, attr.profile_state))
        return EMSGSIZE;
    return 0;
}

int from_evfmt(const genl::EvFmt& fmt, mrc_ctl_ev_fmt_profile_attr& attr, int mask) noexcept {
    if (fmt.mode && *fmt.mode > MRC_FMT_UDP)
        return EPROTO;
    if (int err = fill_common(fmt.state, attr))
        return err;
    // A format in INIT has no mode yet: no bit.
    attr.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(fmt.mode ? 1u << *fmt.mode : 0);
    if (!(mask & MRC_CTL_EV_FMT_PROFILE_OP))
        return 0;
    return copy_out(fmt.widths, attr.ev_fmt_op.fmt_fields, attr.ev_fmt_op.fmt_field_count,
                    [](uint32_t w) { return mrc_ctl_ev_fmt_field{static_cast<uint8_t>(w)}; });
}

}  // namespace mrc::lib::ctl
