// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The controller API's CC profiles: the kernel's CC profiles of the
// context's device, by the same id.
#include <cerrno>

#include "ctl_calls.h"
#include "ctl_ccprof.h"
#include "ctl_entry.h"
#include "mrc_ctl.h"
#include "mrc_errors.h"
#include "mrc_objects.h"

using mrc::lib::fail;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

namespace {

int modify(mrc_context* ctx, uint64_t id, const mrc_ctl_cc_profile_attr& attr, int mask) noexcept {
    return ctl::with_link(ctx, [&](ctl::Link& link, const char* dev) {
        // A configuration alone is for the algorithm the profile has.
        genl::CcProf cur;
        if (ctl::cc_needs_algorithm(mask))
            if (int err = ctl::get_ccprof(link, dev, id, cur))
                return err;
        const char* alg = ctl::cc_needs_algorithm(mask) ? cur.alg.c_str() : attr.algorithm;
        return ctl::modify_profile(link, dev, ctl::kCcProfCmds, id, [&](nl_msg* msg) {
            return ctl::put_cc_modify(msg, attr, mask, alg);
        });
    });
}

}  // namespace

extern "C" {

int mrc_ctl_modify_cc_profile(mrc_context* mrc_ctx, uint64_t cc_profile_id,
                              mrc_ctl_cc_profile_attr* attr, int attr_mask) {
    if (!mrc_ctx || !attr)
        return fail(EINVAL);
    if (int err = ctl::check_cc_modify(*attr, attr_mask))
        return fail(err);
    if (!(attr_mask & ~MRC_CTL_CC_PROFILE_VENDOR_CFG))
        return 0;  // nothing the kernel keeps
    if (int err = modify(mrc_ctx, cc_profile_id, *attr, attr_mask))
        return fail(err);
    return 0;
}

int mrc_ctl_query_cc_profile(mrc_context* mrc_ctx, uint64_t cc_profile_id,
                             mrc_ctl_cc_profile_attr* attr, int attr_mask) {
    return ctl::query_profile<genl::CcProf>(mrc_ctx, cc_profile_id, attr, attr_mask,
                                            ctl::check_cc_query, ctl::get_ccprof, ctl::from_ccprof);
}

}  // extern "C"
