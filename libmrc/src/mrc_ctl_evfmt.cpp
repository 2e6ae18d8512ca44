// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The controller API's EV format profiles: the kernel's EV format
// profiles of the context's device, by the same id.
#include <cerrno>

#include "ctl_calls.h"
#include "ctl_entry.h"
#include "ctl_evfmt.h"
#include "mrc_ctl.h"
#include "mrc_errors.h"

using mrc::lib::fail;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

extern "C" {

int mrc_ctl_modify_ev_fmt_profile(mrc_context* mrc_ctx, uint64_t ev_fmt_profile_id,
                                  mrc_ctl_ev_fmt_profile_attr* attr, int attr_mask) {
    if (!mrc_ctx || !attr)
        return fail(EINVAL);
    if (int err = ctl::check_evfmt_modify(*attr, attr_mask))
        return fail(err);
    if (!ctl::evfmt_changes(attr_mask))
        return 0;
    int err = ctl::with_link(mrc_ctx, [&](ctl::Link& link, const char* dev) {
        return ctl::modify_profile(link, dev, ctl::kEvFmtCmds, ev_fmt_profile_id, [&](nl_msg* msg) {
            return ctl::put_evfmt_modify(msg, *attr, attr_mask);
        });
    });
    return err ? fail(err) : 0;
}

int mrc_ctl_query_ev_fmt_profile(mrc_context* mrc_ctx, uint64_t ev_fmt_profile_id,
                                 mrc_ctl_ev_fmt_profile_attr* attr, int attr_mask) {
    return ctl::query_profile<genl::EvFmt>(mrc_ctx, ev_fmt_profile_id, attr, attr_mask,
                                           ctl::check_evfmt_query, ctl::get_evfmt, ctl::from_evfmt);
}

}  // extern "C"
