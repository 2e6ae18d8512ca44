// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The controller API's endpoint requests: EV probes are the family's
// PROBE, which sends them all, waits up to the timeout and lists what came
// back. The driver has no port status updates.
#include <cerrno>
#include <cstring>
#include <vector>

#include "ctl_calls.h"
#include "ctl_entry.h"
#include "ctl_probe.h"
#include "mrc_checks.h"
#include "mrc_ctl.h"
#include "mrc_errors.h"

using mrc::lib::fail;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

namespace {

// The GID table index of gid on the device's port, or -1 (the kernel's
// choice) for the zero GID. EINVAL when the port has no such GID.
int sgid_index(ibv_context* vctx, const ibv_gid& gid, int& index) noexcept {
    static const ibv_gid kZero{};
    index = -1;
    if (std::memcmp(gid.raw, kZero.raw, sizeof(gid.raw)) == 0)
        return 0;
    ibv_port_attr port;
    if (int err = ibv_query_port(vctx, mrc::lib::kPort, &port))
        return err;
    for (int i = 0; i < port.gid_tbl_len; ++i) {
        ibv_gid g;
        if (ibv_query_gid(vctx, mrc::lib::kPort, i, &g) == 0 &&
            std::memcmp(g.raw, gid.raw, sizeof(g.raw)) == 0) {
            index = i;
            return 0;
        }
    }
    return EINVAL;
}

}  // namespace

extern "C" {

int mrc_ctl_ep_batch_send_wait(mrc_context* mrc_ctx, uint8_t req_tc, mrc_ctl_ep_op_type op_type,
                               mrc_ctl_ep_req* req, int num_req, uint32_t rsp_timeout,
                               mrc_ctl_ep_rsp* rsp, int* num_rsp) {
    if (!mrc_ctx || !rsp || !num_rsp)
        return fail(EINVAL);
    if (int err = ctl::check_probes(op_type, req, num_req, rsp_timeout))
        return fail(err);
    *num_rsp = 0;
    std::vector<int> sgid(num_req);
    for (int i = 0; i < num_req; ++i)
        if (int err = sgid_index(mrc_ctx->vctx, req[i].sgid, sgid[i]))
            return fail(err);
    int err = ctl::with_link(mrc_ctx, [&](ctl::Link& link, const char* dev) {
        std::vector<genl::ProbeAnswer> answers;
        int e = ctl::probe(
            link, dev,
            [&](nl_msg* msg) {
                return ctl::put_probes(msg, req_tc, req, num_req, rsp_timeout, sgid);
            },
            answers);
        return e ? e : ctl::to_responses(answers, rsp, num_req, *num_rsp);
    });
    return err ? fail(err) : 0;
}

}  // extern "C"
