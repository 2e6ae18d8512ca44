// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OCP MRC application API, first half: versions, device query,
// contexts, completion channels, CQs and events.
#include <cerrno>
#include <memory>
#include <mutex>
#include <new>

#include "cq_channel.h"
#include "ctl_events.h"
#include "mrc.h"
#include "mrc_checks.h"
#include "mrc_errors.h"
#include "mrc_objects.h"

using mrc::lib::fail;
using mrc::lib::fail_null;
using mrc::lib::fail_rc;

namespace {

// The MRC attributes of an open verbs device, or ENODEV if it is not ours.
int query_mrc_device(ibv_context* vctx, mrc_device_attr& attr) noexcept {
    if (!mrc::lib::is_mrc_device_name(ibv_get_device_name(vctx->device)))
        return ENODEV;
    ibv_device_attr dev{};
    int ret = ibv_query_device(vctx, &dev);
    if (ret)
        return ret;
    attr = mrc::lib::device_attr(dev.max_qp_wr);
    return 0;
}

int query_device(ibv_context* vctx, mrc_device_attr* attr, int* supported) noexcept {
    if (!vctx || !attr || !supported)
        return fail(EINVAL);
    mrc_device_attr a{};
    int ret = query_mrc_device(vctx, a);
    if (ret == ENODEV) {
        *attr = mrc_device_attr{};
        *supported = 0;
        return 0;
    }
    if (ret)
        return fail(ret);
    *attr = a;
    *supported = 1;
    return 0;
}

// Destroys an object of a context whose verbs object verbs_ret says
// whether verbs destroyed: 0, or that error like verbs returns it.
template <typename T>
int destroy_child(T* obj, int verbs_ret) noexcept {
    if (verbs_ret)
        return fail_rc(verbs_ret);
    obj->ctx->children--;
    delete obj;
    return 0;
}

// What an asynchronous event is about.
enum class EventOn { kCq, kQp, kPort, kOther };

EventOn event_on(ibv_event_type type) noexcept {
    switch (type) {
        case IBV_EVENT_CQ_ERR:
            return EventOn::kCq;
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_COMM_EST:
        case IBV_EVENT_SQ_DRAINED:
        case IBV_EVENT_PATH_MIG:
        case IBV_EVENT_PATH_MIG_ERR:
        case IBV_EVENT_QP_LAST_WQE_REACHED:
            return EventOn::kQp;
        case IBV_EVENT_PORT_ACTIVE:
        case IBV_EVENT_PORT_ERR:
        case IBV_EVENT_LID_CHANGE:
        case IBV_EVENT_PKEY_CHANGE:
        case IBV_EVENT_SM_CHANGE:
        case IBV_EVENT_CLIENT_REREGISTER:
        case IBV_EVENT_GID_CHANGE:
            return EventOn::kPort;
        default:  // device events, and SRQ/WQ ones an MRC context never makes
            return EventOn::kOther;
    }
}

// Hands each polled completion to the WIMM credits of the QP whose send
// CQ this is (a receive-only CQ has none).
void return_credits(mrc_cq& cq, const ibv_wc* wc, int n) noexcept {
    std::lock_guard<mrc::lib::Mutex> guard(cq.senders_lock);
    mrc_qp* qp = nullptr;
    for (int i = 0; i < n && cq.senders; i++) {
        if (!qp || qp->qp->qp_num != wc[i].qp_num) {
            qp = cq.senders;
            while (qp && qp->qp->qp_num != wc[i].qp_num)
                qp = qp->next_sender;
            if (!qp)
                continue;
        }
        std::lock_guard<mrc::lib::Mutex> credits(qp->credit_lock);
        qp->credits.complete(wc[i]);
    }
}

}  // namespace

extern "C" {

void mrc_query_version(uint32_t* current_version, uint32_t* last_supported_version,
                       uint32_t* vendor_version, uint32_t* last_supported_vendor_version) {
    if (current_version)
        *current_version = MRC_API_CURRENT_VERSION;
    if (last_supported_version)
        *last_supported_version = MRC_API_LAST_SUPPORTED_VERSION;
    if (vendor_version)
        *vendor_version = MRC_VENDOR_API_CURRENT_VERSION;
    if (last_supported_vendor_version)
        *last_supported_vendor_version = MRC_VENDOR_API_LAST_SUPPORTED_VERSION;
}

int mrc_query_device(ibv_context* context, mrc_device_attr* attr, int* supported) {
    return query_device(context, attr, supported);
}

int mrc_query_device_ex(ibv_context* context, mrc_context* mcontext, mrc_device_attr* attr,
                        int* supported) {
    if (mcontext && mcontext->vctx != context)
        return fail(EINVAL);
    return query_device(context, attr, supported);
}

mrc_context* mrc_create_context(ibv_context* vcontext, mrc_context_attr* context_attr) {
    if (!vcontext)
        return fail_null<mrc_context>(EINVAL);
    mrc_context_attr want = context_attr ? *context_attr : mrc_context_attr{};
    uint32_t api = 0, vendor = 0;
    int ret = mrc::lib::negotiate_version(want.mrc_api_version_used, MRC_API_CURRENT_VERSION,
                                          MRC_API_LAST_SUPPORTED_VERSION, api);
    if (!ret)
        ret = mrc::lib::negotiate_version(want.mrc_vendor_api_version_used,
                                          MRC_VENDOR_API_CURRENT_VERSION,
                                          MRC_VENDOR_API_LAST_SUPPORTED_VERSION, vendor);
    if (ret)
        return fail_null<mrc_context>(ret);

    std::unique_ptr<mrc_context> ctx(new (std::nothrow) mrc_context);
    if (!ctx)
        return fail_null<mrc_context>(ENOMEM);
    ret = query_mrc_device(vcontext, ctx->dev);
    if (ret)
        return fail_null<mrc_context>(ret);
    ctx->vctx = vcontext;
    ctx->api_version = api;
    ctx->vendor_api_version = vendor;
    return ctx.release();
}

int mrc_destroy_context(mrc_context* mrc_ctx) {
    if (!mrc_ctx)
        return fail(EINVAL);
    if (mrc_ctx->children.load() != 0)
        return fail(EBUSY);
    delete mrc_ctx;
    return 0;
}

int mrc_create_comp_channel(mrc_context* mrc_ctx, mrc_comp_channel** channel) {
    if (!mrc_ctx || !channel)
        return fail_rc(EINVAL);
    std::unique_ptr<mrc_comp_channel> ch(new (std::nothrow) mrc_comp_channel);
    if (!ch)
        return fail_rc(ENOMEM);
    ch->ctx = mrc_ctx;
    ch->ch = ibv_create_comp_channel(mrc_ctx->vctx);
    if (!ch->ch)
        return fail_rc(errno ? errno : ENOMEM);
    if (int err = mrc::lib::channel_init(*ch)) {
        ibv_destroy_comp_channel(ch->ch);
        return fail_rc(err);
    }
    mrc_ctx->children++;
    *channel = ch.release();
    return 0;
}

int mrc_get_comp_channel_fd(mrc_comp_channel* channel, int* fd) {
    if (!channel || !fd)
        return fail(EINVAL);
    *fd = channel->epfd.get();
    return 0;
}

int mrc_destroy_comp_channel(mrc_comp_channel* channel) {
    if (!channel)
        return fail_rc(EINVAL);
    {
        // As verbs refuses while CQs use the channel.
        std::lock_guard<mrc::lib::Mutex> guard(channel->lock);
        if (!channel->ev_cqs.empty())
            return fail_rc(EBUSY);
    }
    return destroy_child(channel, ibv_destroy_comp_channel(channel->ch));
}

mrc_cq* mrc_create_cq(mrc_context* mrc_ctx, int cqe, void* cq_context, mrc_comp_channel* channel,
                      int comp_vector) {
    if (!mrc_ctx || cqe < 1 || comp_vector < 0)
        return fail_null<mrc_cq>(EINVAL);
    if (channel && channel->ctx != mrc_ctx)
        return fail_null<mrc_cq>(EINVAL);
    if (comp_vector >= mrc_ctx->vctx->num_comp_vectors)
        return fail_null<mrc_cq>(EINVAL);
    std::unique_ptr<mrc_cq> cq(new (std::nothrow) mrc_cq);
    if (!cq)
        return fail_null<mrc_cq>(ENOMEM);
    cq->ctx = mrc_ctx;
    cq->user_context = cq_context;
    cq->cq =
        ibv_create_cq(mrc_ctx->vctx, cqe, cq.get(), channel ? channel->ch : nullptr, comp_vector);
    if (!cq->cq)
        return fail_null<mrc_cq>(errno ? errno : ENOMEM);
    mrc_ctx->children++;
    return cq.release();
}

int mrc_poll_cq(mrc_cq* cq, int num_entries, ibv_wc* wc) {
    if (!cq || cq->ev_event_cq || num_entries < 0 || (num_entries > 0 && !wc))
        return fail(EINVAL);
    int n = ibv_poll_cq(cq->cq, num_entries, wc);
    // Providers return a negative errno (ours -EIO) or just -1.
    if (n < 0)
        return fail(n < -1 ? -n : EIO);
    return_credits(*cq, wc, n);
    return n;
}

int mrc_destroy_cq(mrc_cq* cq) {
    if (!cq)
        return fail_rc(EINVAL);
    if (!cq->ev_event_cq)
        return destroy_child(cq, ibv_destroy_cq(cq->cq));
    // An EV event CQ (mrc_ctl_create_ev_event_cq()).
    if (cq->channel && cq->ev)
        mrc::lib::channel_detach(*cq->channel, *cq, cq->ev->source.fd());
    return destroy_child(cq, 0);
}

int mrc_req_notify_cq(mrc_cq* cq, int solicited_only) {
    if (!cq)
        return fail_rc(EINVAL);
    if (cq->ev_event_cq) {
        // Every EV event is "solicited": the flag changes nothing.
        if (!cq->ev)
            return fail_rc(EINVAL);
        int ret = mrc::lib::ev_cq_arm(*cq, cq->ev->source.fd());
        return ret ? fail_rc(ret) : 0;
    }
    int ret = ibv_req_notify_cq(cq->cq, solicited_only);
    return ret ? fail_rc(ret) : 0;
}

int mrc_get_cq_event(mrc_comp_channel* channel, mrc_cq** cq, void** cq_context) {
    if (!channel || !cq || !cq_context)
        return fail(EINVAL);
    mrc_cq* mcq = nullptr;
    if (int err = mrc::lib::channel_wait(*channel, mcq))
        return fail(err);
    *cq = mcq;
    *cq_context = mcq->user_context;
    return 0;
}

void mrc_ack_cq_events(mrc_cq* cq, unsigned int nevents) {
    if (!cq || !nevents)
        return;
    if (cq->ev_event_cq) {
        if (cq->ev)
            mrc::lib::ev_cq_ack(*cq, nevents);
        return;
    }
    ibv_ack_cq_events(cq->cq, nevents);
}

int mrc_get_async_event(mrc_context* mrc_ctx, mrc_async_event* event) {
    if (!mrc_ctx || !event)
        return fail(EINVAL);
    ibv_async_event ev{};
    if (ibv_get_async_event(mrc_ctx->vctx, &ev))
        return -1;  // errno from verbs
    *event = mrc_async_event{};
    event->event_type = ev.event_type;
    switch (event_on(ev.event_type)) {
        case EventOn::kCq:
            event->element.cq = static_cast<mrc_cq*>(ev.element.cq->cq_context);
            break;
        case EventOn::kQp:
            event->element.qp = static_cast<mrc_qp*>(ev.element.qp->qp_context);
            break;
        case EventOn::kPort:
            event->element.port_num = ev.element.port_num;
            break;
        case EventOn::kOther:
            break;
    }
    return 0;
}

void mrc_ack_async_event(mrc_async_event* event) {
    if (!event)
        return;
    // ibv_ack_async_event() needs only the type and the verbs object.
    ibv_async_event ev{};
    ev.event_type = event->event_type;
    switch (event_on(event->event_type)) {
        case EventOn::kCq:
            if (!event->element.cq)
                return;
            ev.element.cq = event->element.cq->cq;
            break;
        case EventOn::kQp:
            if (!event->element.qp)
                return;
            ev.element.qp = event->element.qp->qp;
            break;
        case EventOn::kPort:
        case EventOn::kOther:
            ev.element.port_num = event->element.port_num;
            break;
    }
    ibv_ack_async_event(&ev);
}

}  // extern "C"
