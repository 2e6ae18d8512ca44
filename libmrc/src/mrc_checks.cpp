// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's rules: version negotiation, argument checks, and the verbs
// transition behind an MRC one (mrc_checks.h).
#include "mrc_checks.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mrc::lib {
namespace {

constexpr uint32_t kAllVersionBits = 0xffffffffu;  // MRC_API_VER_LATEST

constexpr int kHintMaskAll = MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS |
                             MRC_QP_HINT_NUM_REMOTE_RECV_PEERS | MRC_QP_HINT_VENDOR_CFG;

// The MRC attributes each transition sets (mrc.h, enum mrc_qp_attr_mask).
// The profile ids only at RESET->INIT: the driver binds a QP to profiles
// while it is in RESET or INIT, and the library asks before that move.
constexpr int kProfileIds = MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID;
constexpr int kInitGroup = MRC_QP_HINT | kProfileIds;
constexpr int kRtrGroup = MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR_DEST | MRC_QP_CAP;
constexpr int kRtsGroup = MRC_QP_MAX_WIMM | MRC_QP_MPR | MRC_QP_RETRY_CNT | MRC_QP_TIMEOUT;
constexpr int kMrcMaskAll = kInitGroup | kRtrGroup | kRtsGroup | MRC_QP_VENDOR_CFG;

constexpr int kQpCapKnown = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED | MRC_QP_CAP_DYNAMIC_MPR |
                            MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
// Per-QP features this library can switch on: dynamic MPR is not
// advertised; the two "peer lacks it" bits need nothing from us (a peer
// without trim NACKs leaves the loss to SACKs and the timer, one without
// service time reports 0, which the RTT sample keeps whole).
constexpr int kQpCapAccepted =
    MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED | MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;

// Verbs attributes a program sets and the library passes on.
constexpr int kVerbsPassed = IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS |
                             IBV_QP_PKEY_INDEX | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                             IBV_QP_RQ_PSN | IBV_QP_SQ_PSN;
// Verbs attributes the MRC API replaces by its own, or that make no sense
// without RNR and READ: the library sets them. The published example
// programs still pass them, so they are accepted and overridden.
constexpr int kVerbsOverridden = IBV_QP_PORT | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                 IBV_QP_RNR_RETRY | IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC |
                                 IBV_QP_MAX_DEST_RD_ATOMIC;

constexpr unsigned kSendFlagsAllowed =
    IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE;

bool valid_state(int s) noexcept {
    return s >= IBV_QPS_RESET && s <= IBV_QPS_ERR;
}

}  // namespace

int negotiate_version(uint32_t requested, uint32_t current, uint32_t oldest,
                      uint32_t& used) noexcept {
    if (requested == 0 || requested == kAllVersionBits) {
        used = current;
        return 0;
    }
    if (requested > current || requested < oldest)
        return ENOTSUP;
    used = requested;
    return 0;
}

bool is_mrc_device_name(const char* name) noexcept {
    return name && std::strncmp(name, "mrc", 3) == 0;
}

mrc_device_attr device_attr(int max_qp_wr) noexcept {
    mrc_device_attr a{};
    uint16_t wimm = static_cast<uint16_t>(std::clamp(max_qp_wr, 0, 0xffff));
    a.mrc_protocol_version = MRC_PROTOCOL_VERSION_1;
    a.wimm_attr.max_wimm = wimm;
    a.wimm_attr.max_wimm_dest = wimm;
    a.mpr_attr.max_mpr = kMaxMpr;
    a.mpr_attr.mpr_resolution = kMprResolution;
    a.qp_attr.max_qp_hint = kMaxQpHints;
    // The driver NACKs a trimmed packet at once and puts its service time
    // in every ACK (Documentation/multipath.rst); dynamic MPR it has not.
    a.cap = MRC_DEVICE_CAP_TRIM_NACK | MRC_DEVICE_CAP_SVC_TIME;
    return a;
}

int check_send_chain(ibv_send_wr* wr, ibv_send_wr** bad) noexcept {
    for (; wr; wr = wr->next) {
        bool ok = (wr->opcode == IBV_WR_RDMA_WRITE || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM) &&
                  (wr->send_flags & ~kSendFlagsAllowed) == 0 && wr->num_sge >= 0 &&
                  (wr->num_sge == 0 || wr->sg_list);
        if (!ok) {
            *bad = wr;
            return EINVAL;
        }
    }
    return 0;
}

int check_hint_attr(const mrc_qp_hint_attr& attr, int mask) noexcept {
    if (mask & ~kHintMaskAll)
        return EINVAL;
    if ((mask & MRC_QP_HINT_NUM_QPS_PER_PEER) && attr.num_qps_per_peer < 0)
        return EINVAL;
    if ((mask & MRC_QP_HINT_NUM_SEND_PEERS) && attr.num_send_peers < 0)
        return EINVAL;
    if ((mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS) && attr.num_remote_recv_peers < 0)
        return EINVAL;
    return 0;
}

int allowed_mrc_mask(Transition t) noexcept {
    int groups = 0;
    if (t.to == IBV_QPS_INIT && t.from == IBV_QPS_RESET)
        groups = kInitGroup;
    else if (t.to == IBV_QPS_INIT && t.from == IBV_QPS_INIT)
        groups = kInitGroup & ~kProfileIds;
    else if (t.from == IBV_QPS_INIT && t.to == IBV_QPS_RTR)
        groups = kRtrGroup;
    else if (t.from == IBV_QPS_RTR && t.to == IBV_QPS_RTS)
        groups = kRtsGroup;
    return groups | MRC_QP_VENDOR_CFG;
}

int check_modify(ibv_qp_state cur, const ibv_qp_attr* vattr, int vattr_mask,
                 const mrc_qp_attr* mattr, int mrc_mask, DeviceLimits lim) noexcept {
    if (vattr_mask & ~(kVerbsPassed | kVerbsOverridden))
        return EINVAL;
    if (mrc_mask & ~kMrcMaskAll)
        return EINVAL;
    if ((vattr_mask && !vattr) || (mrc_mask && !mattr))
        return EINVAL;

    ibv_qp_state to = cur;
    if (vattr_mask & IBV_QP_STATE) {
        if (!valid_state(vattr->qp_state))
            return EINVAL;
        to = vattr->qp_state;
    }
    if ((vattr_mask & IBV_QP_CUR_STATE) && vattr->cur_qp_state != cur)
        return EINVAL;
    if ((vattr_mask & IBV_QP_PORT) && vattr->port_num != kPort)
        return EINVAL;
    if ((vattr_mask & IBV_QP_AV) && vattr->ah_attr.port_num != 0 &&
        vattr->ah_attr.port_num != kPort)
        return EINVAL;

    if (mrc_mask & ~allowed_mrc_mask({cur, to}))
        return EINVAL;
    if ((mrc_mask & MRC_QP_TIMEOUT) && mattr->timeout > kMaxTimeout)
        return EINVAL;
    if ((mrc_mask & MRC_QP_RETRY_CNT) &&
        (mattr->retry.linear_cnt > kMaxLinearRetries || mattr->retry.exp_cnt > kMaxExpRetries))
        return EINVAL;
    if ((mrc_mask & MRC_QP_MPR) && (mattr->mpr.mpr < 1 || mattr->mpr.mpr > kMaxMpr))
        return EINVAL;
    if ((mrc_mask & MRC_QP_MPR_DEST) && (mattr->mpr.mpr_dest < 1 || mattr->mpr.mpr_dest > kMaxMpr))
        return EINVAL;
    if ((mrc_mask & MRC_QP_MAX_WIMM) && mattr->wimm.max_wimm > lim.max_wimm)
        return EINVAL;
    if ((mrc_mask & MRC_QP_MAX_WIMM_DEST) && mattr->wimm.max_wimm_dest > lim.max_wimm_dest)
        return EINVAL;
    if (mrc_mask & MRC_QP_CAP) {
        if (mattr->cap & ~kQpCapKnown)
            return EINVAL;
        if (mattr->cap & ~kQpCapAccepted)
            return EINVAL;  // not advertised
    }
    return 0;
}

uint8_t ib_timeout(uint8_t mrc_timeout) noexcept {
    // 1.024 us * 2^t = 4.096 us * 2^(t - 2); verbs 0 would disable the timer.
    return mrc_timeout > 2 ? static_cast<uint8_t>(mrc_timeout - 2) : 1;
}

void to_verbs_modify(ibv_qp_state cur, const ibv_qp_attr* vattr, int vattr_mask,
                     const mrc_qp_attr& mrc, ibv_qp_attr& out, int& out_mask) noexcept {
    out = vattr ? *vattr : ibv_qp_attr{};
    out_mask = vattr ? (vattr_mask & kVerbsPassed) : 0;
    ibv_qp_state to = (out_mask & IBV_QP_STATE) ? out.qp_state : cur;

    // An MRC QP is written to, never read from or used for atomics.
    if (out_mask & IBV_QP_ACCESS_FLAGS)
        out.qp_access_flags &= IBV_ACCESS_REMOTE_WRITE;
    if (out_mask & IBV_QP_AV)
        out.ah_attr.port_num = kPort;

    if (cur == IBV_QPS_RESET && to == IBV_QPS_INIT) {
        out.port_num = kPort;
        out_mask |= IBV_QP_PORT;
        if (!(out_mask & IBV_QP_PKEY_INDEX)) {
            out.pkey_index = 0;
            out_mask |= IBV_QP_PKEY_INDEX;
        }
        if (!(out_mask & IBV_QP_ACCESS_FLAGS)) {
            out.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
            out_mask |= IBV_QP_ACCESS_FLAGS;
        }
    } else if (cur == IBV_QPS_INIT && to == IBV_QPS_RTR) {
        out.max_dest_rd_atomic = 0;
        out.min_rnr_timer = kIbMinRnrTimer;
        out_mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    } else if (cur == IBV_QPS_RTR && to == IBV_QPS_RTS) {
        unsigned retries = mrc.retry.linear_cnt + mrc.retry.exp_cnt;
        out.timeout = ib_timeout(mrc.timeout);
        out.retry_cnt = static_cast<uint8_t>(std::min(retries, 7u));
        out.rnr_retry = kIbRnrRetryForever;
        out.max_rd_atomic = 0;
        out_mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    }
}

void merge_qp_attr(mrc_qp_attr& dst, const mrc_qp_attr& src, int mask) noexcept {
    if (mask & MRC_QP_MAX_WIMM)
        dst.wimm.max_wimm = src.wimm.max_wimm;
    if (mask & MRC_QP_MAX_WIMM_DEST)
        dst.wimm.max_wimm_dest = src.wimm.max_wimm_dest;
    if (mask & MRC_QP_MPR)
        dst.mpr.mpr = src.mpr.mpr;
    if (mask & MRC_QP_MPR_DEST)
        dst.mpr.mpr_dest = src.mpr.mpr_dest;
    if (mask & MRC_QP_TIMEOUT)
        dst.timeout = src.timeout;
    if (mask & MRC_QP_EV_PROFILE_ID)
        dst.profile.ev_profile_id = src.profile.ev_profile_id;
    if (mask & MRC_QP_CC_PROFILE_ID)
        dst.profile.cc_profile_id = src.profile.cc_profile_id;
    if (mask & MRC_QP_HINT)
        dst.qp_hint = src.qp_hint;
    if (mask & MRC_QP_RETRY_CNT)
        dst.retry = src.retry;
    if (mask & MRC_QP_CAP)
        dst.cap = src.cap;
    if (mask & MRC_QP_VENDOR_CFG)
        std::memcpy(dst.vendor_cfg, src.vendor_cfg, sizeof(dst.vendor_cfg));
}

}  // namespace mrc::lib
