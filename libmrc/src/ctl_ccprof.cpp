// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_ccprof.h"

#include <netlink/attr.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "ctl_device.h"
#include "ctl_profile.h"
#include "mrc-genl.h"

namespace mrc::lib::ctl {
namespace {

constexpr int kModifyMask = MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_ALGORITHM |
                            MRC_CTL_CC_PROFILE_CONFIG | MRC_CTL_CC_PROFILE_VENDOR_CFG;
constexpr int kQueryMask = kModifyMask | MRC_CTL_CC_PROFILE_CUR_STATE;
constexpr std::size_t kAlgNameMax = 31;  // MRC_CCPROF_ALG, without the NUL
constexpr float kQ16One = 65536.0f;

// How one member of struct mrc_ctl_cc_nscc_cfg travels.
enum class Kind { kU8, kU32, kQ16 };
struct NsccParam {
    int type;  // enum mrc_genl_cc_param
    Kind kind;
    std::size_t offset;
};

#define NSCC(type, kind, member) \
    { type, Kind::kind, offsetof(mrc_ctl_cc_nscc_cfg, member) }
const NsccParam kNscc[] = {
    NSCC(MRC_CC_NSCC_DISABLE_QA, kU8, disable_qa),
    NSCC(MRC_CC_NSCC_ADJUST_BYTES, kU32, adjust_bytes_threshold),
    NSCC(MRC_CC_NSCC_ADJUST_PERIOD_NS, kU32, adjust_period_threshold),
    NSCC(MRC_CC_NSCC_BASE_RTT_NS, kU32, base_rtt),
    NSCC(MRC_CC_NSCC_ETA_Q16, kQ16, eta),
    NSCC(MRC_CC_NSCC_FI_Q16, kQ16, fi),
    NSCC(MRC_CC_NSCC_FI_SCALE_Q16, kQ16, fi_scale),
    NSCC(MRC_CC_NSCC_GAMMA_Q16, kQ16, gamma),
    NSCC(MRC_CC_NSCC_MAX_MD_JUMP_Q16, kQ16, max_md_jump),
    NSCC(MRC_CC_NSCC_MAX_CWND, kU32, max_cwnd),
    NSCC(MRC_CC_NSCC_QA_GATE, kU8, qa_gate),
    NSCC(MRC_CC_NSCC_QA_THRESHOLD_NS, kU32, qa_threshold),
    NSCC(MRC_CC_NSCC_TARGET_DELAY_NS, kU32, target_delay),
};
#undef NSCC

bool is_nscc(const char* alg) {
    return alg && std::strcmp(alg, "uet-1.0-nscc") == 0;
}

// A real number as the family's unsigned Q16.16: false when it has none
// (NaN, negative, 2^16 or more). The kernel checks each parameter's range.
bool to_q16(float v, uint32_t& out) {
    if (!std::isfinite(v) || v < 0 || v >= kQ16One)
        return false;
    out = static_cast<uint32_t>(std::lround(v * kQ16One));
    return true;
}

// Whether every real number of cfg has a Q16.16 form.
bool nscc_representable(const mrc_ctl_cc_nscc_cfg& cfg) {
    uint32_t q16;
    for (float v : {cfg.eta, cfg.fi, cfg.fi_scale, cfg.gamma, cfg.max_md_jump})
        if (!to_q16(v, q16))
            return false;
    return true;
}

int put_nscc(nl_msg* msg, const mrc_ctl_cc_nscc_cfg& cfg) {
    const auto* base = reinterpret_cast<const uint8_t*>(&cfg);
    for (const NsccParam& p : kNscc) {
        const uint8_t* field = base + p.offset;
        int rc = 0;
        if (p.kind == Kind::kU8) {
            uint8_t v = *field;
            // OCP: any non-zero disable_qa disables; the family takes 0 or 1.
            rc = nla_put_u8(msg, p.type, p.type == MRC_CC_NSCC_DISABLE_QA ? v != 0 : v);
        } else if (p.kind == Kind::kU32) {
            uint32_t v;
            std::memcpy(&v, field, sizeof(v));
            rc = nla_put_u32(msg, p.type, v);
        } else {
            float f;
            uint32_t v = 0;
            std::memcpy(&f, field, sizeof(f));
            to_q16(f, v);  // nscc_representable() passed
            rc = nla_put_u32(msg, p.type, v);
        }
        if (rc < 0)
            return EMSGSIZE;
    }
    return 0;
}

// The NSCC parameters a reply lists, into cfg (all of them are reported).
void get_nscc(const genl::CcProf& prof, mrc_ctl_cc_nscc_cfg& cfg) {
    cfg = mrc_ctl_cc_nscc_cfg{};
    auto* base = reinterpret_cast<uint8_t*>(&cfg);
    for (const auto& [type, value] : prof.params) {
        for (const NsccParam& p : kNscc) {
            if (p.type != type)
                continue;
            uint8_t* field = base + p.offset;
            if (p.kind == Kind::kU8) {
                *field = static_cast<uint8_t>(value);
            } else if (p.kind == Kind::kU32) {
                uint32_t v = static_cast<uint32_t>(value);
                std::memcpy(field, &v, sizeof(v));
            } else {
                float f = static_cast<float>(value) / kQ16One;
                std::memcpy(field, &f, sizeof(f));
            }
        }
    }
}

}  // namespace

int check_cc_modify(const mrc_ctl_cc_profile_attr& attr, int mask) noexcept {
    if (mask & ~kModifyMask)
        return EINVAL;
    if ((mask & MRC_CTL_CC_PROFILE_STATE) && !valid_state(attr.profile_state))
        return EINVAL;
    if (mask & MRC_CTL_CC_PROFILE_ALGORITHM) {
        // The driver always runs congestion control.
        if (!attr.algorithm)
            return EOPNOTSUPP;
        if (std::strlen(attr.algorithm) > kAlgNameMax)
            return EINVAL;
    }
    if (mask & MRC_CTL_CC_PROFILE_CONFIG) {
        // Only NSCC has a configuration structure in the OCP API.
        if (!attr.cc_config ||
            !nscc_representable(*static_cast<const mrc_ctl_cc_nscc_cfg*>(attr.cc_config)))
            return EINVAL;
        if ((mask & MRC_CTL_CC_PROFILE_ALGORITHM) && !is_nscc(attr.algorithm))
            return EINVAL;
    }
    if ((mask & MRC_CTL_CC_PROFILE_VENDOR_CFG) && !vendor_cfg_empty(attr.vendor_cfg))
        return EINVAL;
    return 0;
}

int check_cc_query(const mrc_ctl_cc_profile_attr& attr, int mask) noexcept {
    if (mask & ~kQueryMask)
        return EINVAL;
    if ((mask & MRC_CTL_CC_PROFILE_CONFIG) && !attr.cc_config)
        return EINVAL;
    return 0;
}

bool cc_needs_algorithm(int mask) noexcept {
    return (mask & MRC_CTL_CC_PROFILE_CONFIG) && !(mask & MRC_CTL_CC_PROFILE_ALGORITHM);
}

int put_cc_modify(nl_msg* msg, const mrc_ctl_cc_profile_attr& attr, int mask,
                  const char* alg) noexcept {
    if (mask & (MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG)) {
        nlattr* nest = nla_nest_start(msg, MRC_ATTR_CCPROF);
        if (!nest)
            return EMSGSIZE;
        if ((mask & MRC_CTL_CC_PROFILE_ALGORITHM) &&
            nla_put_string(msg, MRC_CCPROF_ALG, attr.algorithm) < 0)
            return EMSGSIZE;
        if (mask & MRC_CTL_CC_PROFILE_CONFIG) {
            if (!is_nscc(alg))
                return EINVAL;
            nlattr* params = nla_nest_start(msg, MRC_CCPROF_PARAMS);
            if (!params)
                return EMSGSIZE;
            if (int err = put_nscc(msg, *static_cast<const mrc_ctl_cc_nscc_cfg*>(attr.cc_config)))
                return err;
            nla_nest_end(msg, params);
        }
        nla_nest_end(msg, nest);
    }
    if ((mask & MRC_CTL_CC_PROFILE_STATE) && !put_state(msg, attr.profile_state))
        return EMSGSIZE;
    return 0;
}

int from_ccprof(const genl::CcProf& prof, mrc_ctl_cc_profile_attr& attr, int mask) noexcept {
    const char* alg = nullptr;
    if (!prof.alg.empty() && !(alg = known_cc_algorithm(prof.alg.c_str())))
        return EPROTO;
    // A profile without an algorithm (INIT) has an empty configuration.
    if ((mask & MRC_CTL_CC_PROFILE_CONFIG) && alg && !is_nscc(alg))
        return EINVAL;
    if (int err = fill_common(prof.state, attr))
        return err;
    attr.algorithm = alg;
    // The API hands the configuration in as const for modify; for a query
    // it is where the caller wants it.
    if (mask & MRC_CTL_CC_PROFILE_CONFIG)
        get_nscc(prof, *static_cast<mrc_ctl_cc_nscc_cfg*>(const_cast<void*>(attr.cc_config)));
    return 0;
}

}  // namespace mrc::lib::ctl
