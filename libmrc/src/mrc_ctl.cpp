// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OCP MRC controller API: versions, the device and its port, EV event
// CQs; the profiles and the endpoint requests have a file each
// (mrc_ctl_*.cpp).
#include <netlink/attr.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "cq_channel.h"
#include "ctl_calls.h"
#include "ctl_device.h"
#include "ctl_entry.h"
#include "ctl_events.h"
#include "mrc-genl.h"
#include "mrc_checks.h"
#include "mrc_ctl.h"
#include "mrc_errors.h"
#include "mrc_objects.h"

using mrc::lib::fail;
using mrc::lib::fail_null;
namespace ctl = mrc::lib::ctl;
namespace genl = mrc::genl;

namespace {

// The controller attributes of the verbs device vctx; ours says whether it
// is an MRC device. Another device reads as MRC control protocol 0 ("not
// supported"). 0 or an errno value.
int query_ctl_device(ibv_context* vctx, mrc_ctl_device_attr& out, bool& ours) noexcept {
    const char* name = ibv_get_device_name(vctx->device);
    out = mrc_ctl_device_attr{};
    ours = mrc::lib::is_mrc_device_name(name);
    if (!ours)
        return 0;
    ctl::Link link;
    genl::MrcDevice dev;
    if (int err = link.open(); err || (err = ctl::get_device(link, name, dev)))
        return err;
    ctl::to_device_attr(dev, out);
    return 0;
}

}  // namespace

extern "C" {

void mrc_ctl_query_version(uint32_t* current_version, uint32_t* last_supported_version,
                           uint32_t* vendor_version, uint32_t* last_supported_vendor_version) {
    if (current_version)
        *current_version = MRC_CTL_API_CURRENT_VERSION;
    if (last_supported_version)
        *last_supported_version = MRC_CTL_API_LAST_SUPPORTED_VERSION;
    if (vendor_version)
        *vendor_version = MRC_CTL_VENDOR_API_CURRENT_VERSION;
    if (last_supported_vendor_version)
        *last_supported_vendor_version = MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION;
}

int mrc_ctl_query_device(ibv_context* context, mrc_ctl_device_attr* ctl_attr) {
    if (!context || !ctl_attr)
        return fail(EINVAL);
    bool ours = false;
    if (int err = query_ctl_device(context, *ctl_attr, ours))
        return fail(err);
    return 0;
}

int mrc_ctl_query_device_ex(ibv_context* context, mrc_context* mcontext,
                            mrc_ctl_device_attr* ctl_attr, int* supported) {
    if (!context || !ctl_attr || !supported)
        return fail(EINVAL);
    if (mcontext && mcontext->vctx != context)
        return fail(EINVAL);
    bool ours = false;
    if (int err = query_ctl_device(context, *ctl_attr, ours))
        return fail(err);
    *supported = ours;
    return 0;
}

int mrc_ctl_query_port(mrc_context* context, uint8_t port_num, mrc_ctl_port_attr* attr,
                       int attr_mask) {
    if (!context || ctl::check_port(port_num, attr, attr_mask, false))
        return fail(EINVAL);
    genl::MrcDevice dev;
    int err = ctl::with_link(context, [&](ctl::Link& link, const char* name) {
        return ctl::get_device(link, name, dev);
    });
    if (err)
        return fail(err);
    if (!dev.port_admin)
        return fail(EPROTO);
    attr->port_admin_state = *dev.port_admin == MRC_PORT_ADMIN_ENABLED
                                 ? MRC_CTL_PORT_ADMIN_ENABLED
                                 : MRC_CTL_PORT_ADMIN_DISABLED;
    return 0;
}

int mrc_ctl_modify_port(mrc_context* context, uint8_t port_num, mrc_ctl_port_attr* attr,
                        int attr_mask) {
    if (!context || ctl::check_port(port_num, attr, attr_mask, true))
        return fail(EINVAL);
    if (!(attr_mask & MRC_CTL_PORT_ADMIN_STATE))
        return 0;
    uint8_t admin = attr->port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED ? MRC_PORT_ADMIN_ENABLED
                                                                         : MRC_PORT_ADMIN_DISABLED;
    int err = ctl::with_link(context, [&](ctl::Link& link, const char* name) {
        return ctl::set_device(link, name, [&](nl_msg* m) {
            return nla_put_u8(m, MRC_ATTR_PORT_ADMIN, admin) < 0 ? EMSGSIZE : 0;
        });
    });
    return err ? fail(err) : 0;
}

mrc_cq* mrc_ctl_create_ev_event_cq(mrc_context* mrc_ctx, int cqe, void* cq_context,
                                   mrc_comp_channel* channel, int comp_vector) {
    if (!mrc_ctx || cqe < 1 || cqe > ctl::kMaxEvEventCqe || comp_vector < 0)
        return fail_null<mrc_cq>(EINVAL);
    if (channel && channel->ctx != mrc_ctx)
        return fail_null<mrc_cq>(EINVAL);
    // Events are not spread over vectors: any the device has is accepted.
    if (comp_vector >= mrc_ctx->vctx->num_comp_vectors)
        return fail_null<mrc_cq>(EINVAL);
    std::unique_ptr<mrc_cq> cq(new (std::nothrow) mrc_cq);
    if (!cq)
        return fail_null<mrc_cq>(ENOMEM);
    cq->ev.reset(new (std::nothrow) mrc::lib::EvCq);
    if (!cq->ev)
        return fail_null<mrc_cq>(ENOMEM);
    cq->ctx = mrc_ctx;
    cq->user_context = cq_context;
    cq->ev_event_cq = true;
    if (mrc_ctx->api_version < MRC_API_VER(1, 0, 1))
        cq->ev->stride = offsetof(mrc_ctl_ev_event, state);  // 1.0.0: 48 bytes
    if (int err = cq->ev->source.open(ctl::dev_name(mrc_ctx), cqe))
        return fail_null<mrc_cq>(err);
    if (channel) {
        if (int err = mrc::lib::channel_attach(*channel, *cq, cq->ev->source.fd()))
            return fail_null<mrc_cq>(err);
    }
    mrc_ctx->children++;
    return cq.release();
}

int mrc_ctl_poll_ev_event(mrc_cq* ev_cq, int num_entries, mrc_ctl_ev_event* ev_event) {
    // This call reports errors as a negative errno, not -1.
    if (!ev_cq || !ev_cq->ev_event_cq || !ev_cq->ev || num_entries < 0 ||
        (num_entries > 0 && !ev_event)) {
        errno = EINVAL;
        return -EINVAL;
    }
    mrc::lib::EvCq& ev = *ev_cq->ev;
    std::vector<mrc_ctl_ev_event> got;
    int err;
    {
        std::lock_guard<mrc::lib::Mutex> guard(ev.poll_lock);
        err = ev.source.read(static_cast<std::size_t>(num_entries), got);
    }
    // Events read before an error are returned; the error comes next time
    // if it lasts.
    if (err && got.empty()) {
        errno = err;
        return -err;
    }
    auto* out = reinterpret_cast<unsigned char*>(ev_event);
    for (std::size_t i = 0; i < got.size(); ++i)
        std::memcpy(out + i * ev.stride, &got[i], ev.stride);
    return static_cast<int>(got.size());
}

}  // extern "C"
