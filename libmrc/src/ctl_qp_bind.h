// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OCP API names a QP's EV and CC profiles at its move from RESET to
// INIT; the driver bound the QP to profiles when it was created. Before
// the verbs transition the library asks the family "mrc" to bind the QP
// again (QP_BIND, allowed to the QP's owner), and binds it back when the
// transition fails, so that a failed mrc_modify_qp() changes nothing.
// The same request sets the QP's PSN ranges (MPR) before the moves to RTR
// and RTS, and sets them back the same way.
#ifndef MRC_CTL_QP_BIND_H
#define MRC_CTL_QP_BIND_H

#include <netlink/msg.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "ctl_link.h"
#include "mrc.h"

namespace mrc::lib::ctl {

// The profiles a move to INIT names; the QP keeps the one not named.
struct ProfileIds {
    std::optional<uint64_t> ev;
    std::optional<uint64_t> cc;
    bool any() const noexcept { return ev || cc; }
};

// The PSN ranges a move to RTR or RTS names, in units of 128 PSNs; the QP
// keeps the one not named.
struct PsnRanges {
    std::optional<uint8_t> mpr;       // as requester
    std::optional<uint8_t> mpr_dest;  // as responder
    bool any() const noexcept { return mpr || mpr_dest; }
};

// QP_BIND's reply: the QP's profiles now and before the request, and its
// PSN ranges now.
struct QpBinding {
    uint32_t qpn = 0;
    uint64_t ev = 0;
    uint64_t cc = 0;
    uint64_t ev_prev = 0;
    uint64_t cc_prev = 0;
    uint8_t mpr = 0;
    uint8_t mpr_dest = 0;
};

// The ids mrc_modify_qp() names with MRC_QP_EV_PROFILE_ID and
// MRC_QP_CC_PROFILE_ID in mask.
ProfileIds profile_ids(const mrc_qp_attr* attr, int mask) noexcept;

// The ranges mrc_modify_qp() names with MRC_QP_MPR and MRC_QP_MPR_DEST in
// mask.
PsnRanges psn_ranges(const mrc_qp_attr* attr, int mask) noexcept;

// QP_BIND's attributes after the device: the QPN and the ids named. 0, or
// EINVAL when none is, or EMSGSIZE when the message is full.
int put_qp_bind(nl_msg* msg, uint32_t qpn, const ProfileIds& ids) noexcept;

// The same for PSN ranges: the QPN and the ranges named.
int put_qp_ranges(nl_msg* msg, uint32_t qpn, const PsnRanges& ranges) noexcept;

// Reads QP_BIND's reply: 0, or EPROTO when an attribute is missing or of
// the wrong size.
int parse_qp_bind_reply(const nlmsghdr* nlh, QpBinding& out) noexcept;

// QP_BIND of QP qpn on device dev: 0, or the kernel's errno (ENOSYS when
// the driver does not know the request).
int bind_qp(Link& link, const char* dev, uint32_t qpn, const ProfileIds& ids,
            QpBinding& out) noexcept;

// QP_BIND setting the PSN ranges of QP qpn: 0 or the kernel's errno.
int set_qp_ranges(Link& link, const char* dev, uint32_t qpn, const PsnRanges& ranges,
                  QpBinding& out) noexcept;

// Binds with ids, then runs transition; when transition fails, binds the
// ids it named back to what the QP had (best effort: the QP cannot have
// moved, the profiles it had may have gone offline since). 0, the bind's
// errno (transition not run), or transition's.
using BindFn = std::function<int(const ProfileIds&, QpBinding&)>;
int init_with_profiles(const ProfileIds& ids, const BindFn& bind,
                       const std::function<int()>& transition) noexcept;

// Sets ranges, then runs transition; when transition fails, sets the ranges
// it named back to was (what the library last set; best effort, as above).
// 0, the set's errno (transition not run), or transition's.
using RangesFn = std::function<int(const PsnRanges&)>;
int move_with_ranges(const PsnRanges& ranges, const PsnRanges& was, const RangesFn& set,
                     const std::function<int()>& transition) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_QP_BIND_H
