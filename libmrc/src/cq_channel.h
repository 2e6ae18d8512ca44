// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion channels that carry the events of verbs CQs and of EV event
// CQs alike. The fd a program waits on is an epoll instance: the verbs
// channel's fd is in it for good, each EV event CQ's socket joins it once
// (EPOLLONESHOT, no events) and is enabled by mrc_req_notify_cq(); the
// first event queued after that makes the channel's fd readable and
// disables it again, as a verbs CQ fires once per arm. Every function
// returns 0 or an errno value unless said otherwise.
#ifndef MRC_CQ_CHANNEL_H
#define MRC_CQ_CHANNEL_H

#include "mrc_objects.h"

namespace mrc::lib {

// Sets up ch's epoll fd over ch.ch->fd (made non-blocking).
int channel_init(mrc_comp_channel& ch) noexcept;

// Makes EV event CQ cq (cq.ev set) signal on ch when fd is readable.
int channel_attach(mrc_comp_channel& ch, mrc_cq& cq, int fd) noexcept;

// Undoes channel_attach() once every event handed out for cq is
// acknowledged (it waits, as ibv_destroy_cq() does).
void channel_detach(mrc_comp_channel& ch, mrc_cq& cq, int fd) noexcept;

// mrc_req_notify_cq() of an EV event CQ.
int ev_cq_arm(mrc_cq& cq, int fd) noexcept;

// mrc_ack_cq_events() of an EV event CQ.
void ev_cq_ack(mrc_cq& cq, unsigned n) noexcept;

// mrc_get_cq_event(): the next CQ with an event, verbs or EV event CQ.
// Waits unless the channel's fd is non-blocking (then EAGAIN).
int channel_wait(mrc_comp_channel& ch, mrc_cq*& cq) noexcept;

}  // namespace mrc::lib

#endif  // MRC_CQ_CHANNEL_H
