// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// EV event CQs (mrc_ctl_create_ev_event_cq): the kernel's EV state events,
// which it sends to the family's "events" multicast group (mrc-ip monitor
// reads the same), turned into OCP mrc_ctl_ev_event entries.
// Documentation/libmrc.rst, "EV events", says what is filled and how.
#ifndef MRC_CTL_EVENTS_H
#define MRC_CTL_EVENTS_H

#include <cstdint>
#include <string>
#include <vector>

#include "ctl_link.h"
#include "genl_objects.h"
#include "mrc_ctl.h"
#include "mrc_objects.h"

namespace mrc::lib::ctl {

// The largest cqe an EV event CQ takes (its socket buffer grows with it).
constexpr int kMaxEvEventCqe = 65536;

// The OCP state (enum mrc_ctl_ev_state) of the family's one.
int ocp_ev_state(uint8_t genl_state) noexcept;

// Whether an event of the group is one an EV event CQ of device dev
// delivers: it names that device, and it is not an administrator's DENY
// or un-DENY (the controller made those itself, and the OCP event mask
// cannot select DENIED).
bool delivers(const genl::EvEvent& e, const std::string& dev) noexcept;

// The OCP event of e. evs are the EVs of e's profile (null when they could
// not be read): the EV at e's index gives the value, as
// mrc_ctl_query_ev_profile() reports it. drops is drop_count.
mrc_ctl_ev_event to_ocp_event(const genl::EvEvent& e, const std::vector<genl::EvEntry>* evs,
                              uint32_t drops) noexcept;

// The group, read for one device.
class EvEventSource {
public:
    // Joins the group in the calling thread's network namespace, with a
    // receive buffer for at least cqe events: 0 or an errno value (EPERM
    // without CAP_NET_ADMIN, ENOENT when mrc.ko is not loaded).
    int open(const char* dev, int cqe) noexcept;

    // What becomes readable when an event is queued.
    int fd() const noexcept;

    // Appends to out the events queued, until out holds max: 0, or an
    // errno value (events read before it are in out). Never waits.
    int read(std::size_t max, std::vector<mrc_ctl_ev_event>& out) noexcept;

private:
    // The next datagram's events for our device, left queued: 0, EAGAIN
    // when none is queued, or an errno value.
    int peek(std::vector<genl::EvEvent>& events, uint32_t& drops) noexcept;
    void convert(std::vector<genl::EvEvent>& events, std::vector<mrc_ctl_ev_event>& out,
                 std::size_t max) noexcept;

    genl::GenlSocket group_;  // joined to "events", read only
    Link link_;               // asks for the profiles' EVs
    std::string dev_;
    std::vector<char> buf_;
    uint32_t lost_ = 0;  // drops not yet reported: told with the next event
};

}  // namespace mrc::lib::ctl

namespace mrc::lib {

// What an EV event CQ has beyond an mrc_cq.
struct EvCq {
    ctl::EvEventSource source;
    Mutex poll_lock;  // source
    // Bytes between entries of the caller's array: 56, or 48 for a
    // context of API 1.0.0 (whose mrc_ctl_ev_event has no state).
    std::size_t stride = sizeof(mrc_ctl_ev_event);
    // Under the channel's lock (cq_channel.h):
    uint64_t tag = 0;        // names the CQ in the channel's epoll set
    bool armed = false;      // mrc_req_notify_cq() asked for an event
    unsigned delivered = 0;  // events mrc_get_cq_event() handed out
    unsigned acked = 0;      // and mrc_ack_cq_events() acknowledged
};

}  // namespace mrc::lib

#endif  // MRC_CTL_EVENTS_H
