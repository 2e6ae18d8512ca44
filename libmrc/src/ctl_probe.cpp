// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ctl_probe.h"

#include <netlink/attr.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "ctl_evfmt.h"
#include "ctl_evprof.h"
#include "ctl_profile.h"
#include "mrc-genl.h"
#include "mrc_checks.h"

namespace mrc::lib::ctl {
namespace {

constexpr int kMaxProbes = 64;            // MRC_ATTR_PROBES
constexpr uint32_t kMinTimeoutNs = 1000;  // MRC_ATTR_PROBE_TIMEOUT_NS

bool valid_req(const mrc_ctl_ep_req& r) {
    return r.req_ev.port == kPort && bit_number(r.ev_fmt_mode, kFmtModes) >= 0;
}

// The wire value of a probe's EV: STEV's 32 bits and UDP's 16 are the EV's
// first bits (OCP's layout), the family takes them as a number, 4 bytes
// big-endian; SRV6's route is as in a profile. Empty if it does not fit.
std::vector<uint8_t> probe_value(const mrc_ctl_ev& ev, uint8_t mode) {
    std::vector<uint8_t> v = ev_value(ev, mode);
    if (mode != MRC_FMT_UDP || v.empty())
        return v;
    if (v[2] || v[3])
        return {};
    return {0, 0, v[0], v[1]};
}

}  // namespace

int check_probes(mrc_ctl_ep_op_type op, const mrc_ctl_ep_req* req, int num_req,
                 uint32_t rsp_timeout) noexcept {
    if (op == MRC_CTL_EP_OP_PORT_STATUS_UPDATE)
        return EOPNOTSUPP;
    if (op != MRC_CTL_EP_OP_EV_PROBE || !req || num_req < 1 || num_req > kMaxProbes ||
        rsp_timeout < kMinTimeoutNs)
        return EINVAL;
    for (int i = 0; i < num_req; ++i) {
        if (!valid_req(req[i]))
            return EINVAL;
        for (int j = 0; j < i; ++j)
            if (req[j].req_id == req[i].req_id)
                return EINVAL;  // ids tell the answers apart
    }
    return 0;
}

int put_probes(nl_msg* msg, uint8_t req_tc, const mrc_ctl_ep_req* req, int num_req,
               uint32_t rsp_timeout, const std::vector<int>& sgid_index) noexcept {
    if (nla_put_u8(msg, MRC_ATTR_PROBE_TCLASS, req_tc) < 0 ||
        nla_put_u64(msg, MRC_ATTR_PROBE_TIMEOUT_NS, rsp_timeout) < 0)
        return EMSGSIZE;
    nlattr* list = nla_nest_start(msg, MRC_ATTR_PROBES);
    if (!list)
        return EMSGSIZE;
    for (int i = 0; i < num_req; ++i) {
        const mrc_ctl_ep_req& r = req[i];
        uint8_t mode = static_cast<uint8_t>(bit_number(r.ev_fmt_mode, kFmtModes));
        std::vector<uint8_t> value = probe_value(r.req_ev, mode);
        if (value.empty())
            return EINVAL;
        nlattr* entry = nla_nest_start(msg, MRC_ATTR_PROBE_ENTRY);
        if (!entry || nla_put_u16(msg, MRC_PROBE_REQ_ID, r.req_id) < 0 ||
            nla_put(msg, MRC_PROBE_DGID, sizeof(r.dgid.raw), r.dgid.raw) < 0 ||
            nla_put_u8(msg, MRC_PROBE_FMT_MODE, mode) < 0 ||
            nla_put(msg, MRC_PROBE_EV_VALUE, static_cast<int>(value.size()), value.data()) < 0 ||
            (sgid_index[i] >= 0 &&
             nla_put_u32(msg, MRC_PROBE_SGID_INDEX, static_cast<uint32_t>(sgid_index[i])) < 0))
            return EMSGSIZE;
        nla_nest_end(msg, entry);
    }
    nla_nest_end(msg, list);
    return 0;
}

int to_responses(const std::vector<genl::ProbeAnswer>& answers, mrc_ctl_ep_rsp* rsp, int room,
                 int& num_rsp) noexcept {
    std::vector<const genl::ProbeAnswer*> got;
    for (const genl::ProbeAnswer& a : answers)
        if (a.rtt_ns && !a.timed_out)
            got.push_back(&a);
    bool all = got.size() == answers.size();
    std::stable_sort(got.begin(), got.end(),
                     [](const auto* a, const auto* b) { return *a->rtt_ns < *b->rtt_ns; });
    if (got.size() > static_cast<std::size_t>(room))
        got.resize(room);  // a kernel answering more than it was asked
    for (std::size_t i = 0; i < got.size(); ++i) {
        rsp[i] = mrc_ctl_ep_rsp{};
        rsp[i].req_id = got[i]->req_id;
        rsp[i].port = got[i]->port.value_or(kPort);
        rsp[i].rtt = static_cast<unsigned>(std::min<uint64_t>(*got[i]->rtt_ns, UINT_MAX));
        rsp[i].adj_svc_time = 0;  // the RTT includes the responder's time
    }
    num_rsp = static_cast<int>(got.size());
    return all ? 0 : ETIMEDOUT;
}

}  // namespace mrc::lib::ctl
