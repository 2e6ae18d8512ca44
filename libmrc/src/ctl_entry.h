// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the controller API's entry points share.
#ifndef MRC_CTL_ENTRY_H
#define MRC_CTL_ENTRY_H

#include <infiniband/verbs.h>

#include "ctl_link.h"
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

}  // namespace mrc::lib::ctl

#endif  // MRC_CTL_ENTRY_H
