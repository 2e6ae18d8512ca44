// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's rules, apart from the calls that apply them: version
// negotiation, the checks on every argument the OCP API hands us, and the
// translation of an MRC QP transition into the verbs one the driver takes.
// Nothing here calls libibverbs, so the unit tests run it as it is.
#ifndef MRC_CHECKS_H
#define MRC_CHECKS_H

#include <cstdint>

#include "mrc.h"

namespace mrc::lib {

// What the library supports, as mrc_query_device() reports it.
inline constexpr uint8_t kMaxMpr = 8;          // 1024 PSNs, the driver's windows
inline constexpr uint8_t kMprResolution = 1;   // any multiple of 128 PSNs
inline constexpr uint32_t kMaxQpHints = 1024;  // per context
inline constexpr uint8_t kMaxTimeout = 24;     // 1.024 us * 2^24 = 17.2 s
inline constexpr uint8_t kMaxLinearRetries = 7;
inline constexpr uint8_t kMaxExpRetries = 25;  // 25: retry for ever
inline constexpr uint8_t kPort = 1;            // an MRC device has one port

// Verbs attributes the library chooses itself when a transition needs them.
inline constexpr uint8_t kDefaultIbTimeout = 14;  // 4.096 us * 2^14 = 67 ms
inline constexpr uint8_t kDefaultIbRetry = 7;
// MRC has no RNR: WIMM credits (max_wimm, wimm_credits.h) keep a requester
// within the receives its peer promised. A responder that breaks that
// promise makes the WRITE wait for a receive rather than fail the QP.
inline constexpr uint8_t kIbRnrRetryForever = 7;
inline constexpr uint8_t kIbMinRnrTimer = 12;  // 0.64 ms

// Picks the version a program gets. requested 0 (or MRC_API_VER_LATEST)
// means the current one. A request newer than current cannot be served
// (ENOTSUP); one with another major than current, or older than oldest,
// neither (ENOTSUP). Returns 0 and sets used, or an errno value.
int negotiate_version(uint32_t requested, uint32_t current, uint32_t oldest,
                      uint32_t& used) noexcept;

// Whether a device name is one of ours ("mrc" followed by anything).
bool is_mrc_device_name(const char* name) noexcept;

// The attributes of an MRC device whose verbs limit is max_qp_wr.
mrc_device_attr device_attr(int max_qp_wr) noexcept;

// Whether wr and the requests chained to it may be posted on an MRC QP:
// RDMA WRITE or WRITE with immediate, known flags, sane SGE counts. 0, or
// EINVAL with bad set to the first request that may not.
int check_send_chain(ibv_send_wr* wr, ibv_send_wr** bad) noexcept;

// Checks mrc_qp_hint_attr fields selected by mask (for create, all).
int check_hint_attr(const mrc_qp_hint_attr& attr, int mask) noexcept;

// The state of a QP transition and the MRC attributes it may carry.
struct Transition {
    ibv_qp_state from;
    ibv_qp_state to;
};

// The MRC attributes allowed on a transition, as a mask of mrc_qp_attr_mask.
int allowed_mrc_mask(Transition t) noexcept;

// Limits that come from the device, for check_modify().
struct DeviceLimits {
    uint16_t max_wimm;
    uint16_t max_wimm_dest;
};

// Checks one mrc_modify_qp() call on a QP in state cur: masks, the verbs
// attributes the API forbids, the MRC attributes allowed on the
// transition, and their ranges. 0 or EINVAL.
int check_modify(ibv_qp_state cur, const ibv_qp_attr* vattr, int vattr_mask,
                 const mrc_qp_attr* mattr, int mrc_mask, DeviceLimits lim) noexcept;

// The verbs modify that carries out a checked mrc_modify_qp(): the
// program's verbs attributes plus the ones verbs needs and the MRC API
// takes away (port, timeouts, retries, RNR, read/atomic depths).
// prev holds the MRC attributes the QP already has (the RTS transition
// reads its timeout and retry counts).
void to_verbs_modify(ibv_qp_state cur, const ibv_qp_attr* vattr, int vattr_mask,
                     const mrc_qp_attr& mrc, ibv_qp_attr& out, int& out_mask) noexcept;

// MRC ACK timeout (1.024 us * 2^t) to the nearest verbs one not shorter
// (4.096 us * 2^t, where 0 would mean "for ever").
uint8_t ib_timeout(uint8_t mrc_timeout) noexcept;

// Copies the attributes in mask from src to dst.
void merge_qp_attr(mrc_qp_attr& dst, const mrc_qp_attr& src, int mask) noexcept;

}  // namespace mrc::lib

#endif  // MRC_CHECKS_H
