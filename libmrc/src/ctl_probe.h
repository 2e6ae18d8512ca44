// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Endpoint requests of the controller API as the family's PROBE: the
// checks of a call, the request, and the answers in OCP's form
// (Documentation/libmrc.rst, "The controller API"). No I/O here.
#ifndef MRC_CTL_PROBE_H
#define MRC_CTL_PROBE_H

#include <netlink/msg.h>

#include <vector>

#include "genl_objects.h"
#include "mrc_ctl.h"

namespace mrc::lib::ctl {

// Checks mrc_ctl_ep_batch_send_wait()'s requests: 0, EINVAL, or
// EOPNOTSUPP for PORT_STATUS_UPDATE, which the driver does not have.
int check_probes(mrc_ctl_ep_op_type op, const mrc_ctl_ep_req* req, int num_req,
                 uint32_t rsp_timeout) noexcept;

// Appends a checked batch to a PROBE request: the traffic class, the
// timeout and one entry per request, sgid_index[i] its source GID's index
// (-1: the kernel's choice). 0, EINVAL for an EV its mode cannot carry,
// or EMSGSIZE.
int put_probes(nl_msg* msg, uint8_t req_tc, const mrc_ctl_ep_req* req, int num_req,
               uint32_t rsp_timeout, const std::vector<int>& sgid_index) noexcept;

// The answers (in request order, as the kernel lists them) into rsp, room
// entries, in arrival order, which is RTT order for probes sent together;
// num_rsp counts them. 0, or ETIMEDOUT when some request had none.
int to_responses(const std::vector<genl::ProbeAnswer>& answers, mrc_ctl_ep_rsp* rsp, int room,
                 int& num_rsp) noexcept;

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_PROBE_H
