// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the controller API's entry points share.
#ifndef MRC_CTL_ENTRY_H
#define MRC_CTL_ENTRY_H

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdint>

#include "ctl_link.h"
#include "mrc_errors.h"
#include "mrc_objects.h"

namespace mrc::lib::ctl {

// The MRC device name the family knows the context's device by.
inline const char* dev_name(const mrc_context* ctx) noexcept {
    return ibv_get_device_name(ctx->vctx->device);
}

// Runs f(link, dev) over a new Link to the family, for the device of ctx:
// 0 or an errno value.
template <typename F>
int with_link(const mrc_context* ctx, F f) noexcept {
    Link link;
    if (int err = link.open())
        return err;
    return f(link, dev_name(ctx));
}

// A profile query in the "0, or -1 with errno" form: checks attr and mask
// with check, reads the profile (a Prof) with get, fills attr with from.
template <typename Prof, typename Attr, typename Check, typename Get, typename From>
int query_profile(const mrc_context* ctx, uint64_t id, Attr* attr, int mask, Check check, Get get,
                  From from) noexcept {
    if (!ctx || !attr)
        return fail(EINVAL);
    if (int err = check(*attr, mask))
        return fail(err);
    int err = with_link(ctx, [&](Link& link, const char* dev) {
        Prof prof;
        int e = get(link, dev, id, prof);
        return e ? e : from(prof, *attr, mask);
    });
    return err ? fail(err) : 0;
}

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_ENTRY_H
