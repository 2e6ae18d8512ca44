// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_qp_bind.h"

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "mrc-genl.h"
#include "mrc_checks.h"

namespace mrc::lib::ctl {

static_assert(kMaxMpr == MRC_QP_MPR_MAX, "mrc_query_device() reports the driver's largest range");

namespace {

template <typename T>
bool read(const nlattr* a, T& out) noexcept {
    if (!a || nla_len(a) != static_cast<int>(sizeof(T)))
        return false;
    std::memcpy(&out, nla_data(a), sizeof(T));
    return true;
}

}  // namespace

ProfileIds profile_ids(const mrc_qp_attr* attr, int mask) noexcept {
    ProfileIds ids;
    if (!attr)
        return ids;
    if (mask & MRC_QP_EV_PROFILE_ID)
        ids.ev = attr->profile.ev_profile_id;
    if (mask & MRC_QP_CC_PROFILE_ID)
        ids.cc = attr->profile.cc_profile_id;
    return ids;
}

PsnRanges psn_ranges(const mrc_qp_attr* attr, int mask) noexcept {
    PsnRanges r;
    if (!attr)
        return r;
    if (mask & MRC_QP_MPR)
        r.mpr = attr->mpr.mpr;
    if (mask & MRC_QP_MPR_DEST)
        r.mpr_dest = attr->mpr.mpr_dest;
    return r;
}

int put_qp_ranges(nl_msg* msg, uint32_t qpn, const PsnRanges& ranges) noexcept {
    if (!ranges.any())
        return EINVAL;
    if (nla_put_u32(msg, MRC_ATTR_QPN, qpn) < 0 ||
        (ranges.mpr && nla_put_u8(msg, MRC_ATTR_QP_MPR, *ranges.mpr) < 0) ||
        (ranges.mpr_dest && nla_put_u8(msg, MRC_ATTR_QP_MPR_DEST, *ranges.mpr_dest) < 0))
        return EMSGSIZE;
    return 0;
}

int put_qp_bind(nl_msg* msg, uint32_t qpn, const ProfileIds& ids) noexcept {
    if (!ids.any())
        return EINVAL;
    if (nla_put_u32(msg, MRC_ATTR_QPN, qpn) < 0 ||
        (ids.ev && nla_put_u64(msg, MRC_ATTR_QP_EVPROF, *ids.ev) < 0) ||
        (ids.cc && nla_put_u64(msg, MRC_ATTR_QP_CCPROF, *ids.cc) < 0))
        return EMSGSIZE;
    return 0;
}

int parse_qp_bind_reply(const nlmsghdr* nlh, QpBinding& out) noexcept {
    std::array<nlattr*, MRC_ATTR_MAX + 1> tb{};
    if (genlmsg_parse(const_cast<nlmsghdr*>(nlh), 0, tb.data(), MRC_ATTR_MAX, nullptr) < 0)
        return EPROTO;
    QpBinding b;
    bool ok = read(tb[MRC_ATTR_QPN], b.qpn) && read(tb[MRC_ATTR_QP_EVPROF], b.ev) &&
              read(tb[MRC_ATTR_QP_CCPROF], b.cc) && read(tb[MRC_ATTR_QP_EVPROF_PREV], b.ev_prev) &&
              read(tb[MRC_ATTR_QP_CCPROF_PREV], b.cc_prev) && read(tb[MRC_ATTR_QP_MPR], b.mpr) &&
              read(tb[MRC_ATTR_QP_MPR_DEST], b.mpr_dest);
    if (!ok)
        return EPROTO;
    out = b;
    return 0;
}

namespace {

// One QP_BIND exchange, its request filled by put: 0 or an errno value.
template <typename Put>
int exchange_bind(Link& link, const char* dev, const Put& put, QpBinding& out) noexcept {
    genl::NlMsgPtr msg = link.request(MRC_CMD_QP_BIND, dev, false);
    if (!msg)
        return ENOMEM;
    if (int err = put(msg.get()))
        return err;
    bool got = false;
    int err = link.exchange(msg.get(), [&out, &got](nlmsghdr* nlh) {
        if (int e = parse_qp_bind_reply(nlh, out))
            return genl::Status::local(e, "malformed QP_BIND reply");
        got = true;
        return genl::Status{};
    });
    // A driver from before QP_BIND does not know the command.
    if (err == EOPNOTSUPP)
        return ENOSYS;
    if (!err && !got)
        return EPROTO;
    return err;
}

}  // namespace

int bind_qp(Link& link, const char* dev, uint32_t qpn, const ProfileIds& ids,
            QpBinding& out) noexcept {
    return exchange_bind(
        link, dev, [&](nl_msg* msg) { return put_qp_bind(msg, qpn, ids); }, out);
}

int set_qp_ranges(Link& link, const char* dev, uint32_t qpn, const PsnRanges& ranges,
                  QpBinding& out) noexcept {
    return exchange_bind(
        link, dev, [&](nl_msg* msg) { return put_qp_ranges(msg, qpn, ranges); }, out);
}

int init_with_profiles(const ProfileIds& ids, const BindFn& bind,
                       const std::function<int()>& transition) noexcept {
    QpBinding was;
    if (int err = bind(ids, was))
        return err;
    int err = transition();
    if (err) {
        ProfileIds back;
        if (ids.ev)
            back.ev = was.ev_prev;
        if (ids.cc)
            back.cc = was.cc_prev;
        QpBinding ignored;
        (void)bind(back, ignored);
    }
    return err;
}

int move_with_ranges(const PsnRanges& ranges, const PsnRanges& was, const RangesFn& set,
                     const std::function<int()>& transition) noexcept {
    if (int err = set(ranges))
        return err;
    int err = transition();
    if (err) {
        PsnRanges back;
        if (ranges.mpr)
            back.mpr = was.mpr;
        if (ranges.mpr_dest)
            back.mpr_dest = was.mpr_dest;
        (void)set(back);
    }
    return err;
}

}  // namespace mrc::lib::ctl
