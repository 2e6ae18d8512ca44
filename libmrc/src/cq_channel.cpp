// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cq_channel.h"

#include <fcntl.h>
#include <sys/epoll.h>

#include <algorithm>
#include <cerrno>
#include <mutex>

#include "ctl_events.h"

namespace mrc::lib {
namespace {

constexpr uint64_t kVerbsTag = 0;  // the verbs channel's fd

int set_nonblocking(int fd) noexcept {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return errno;
    return 0;
}

bool is_nonblocking(int fd) noexcept {
    int fl = fcntl(fd, F_GETFL);
    return fl >= 0 && (fl & O_NONBLOCK);
}

int epoll_set(int epfd, int op, int fd, uint32_t events, uint64_t tag) noexcept {
    epoll_event e{};
    e.events = events;
    e.data.u64 = tag;
    return epoll_ctl(epfd, op, fd, &e) ? errno : 0;
}

// The EV event CQ of ch that tag names, if it is armed: disarmed and
// counted as delivered. Null for a stale tag (the CQ went, or was not
// armed: an error condition reported without being asked for).
mrc_cq* take_armed(mrc_comp_channel& ch, uint64_t tag) noexcept {
    std::lock_guard<Mutex> guard(ch.lock);
    for (mrc_cq* cq : ch.ev_cqs) {
        if (cq->ev->tag == tag && cq->ev->armed) {
            cq->ev->armed = false;
            cq->ev->delivered++;
            return cq;
        }
    }
    return nullptr;
}

}  // namespace

int channel_init(mrc_comp_channel& ch) noexcept {
    Fd ep(epoll_create1(EPOLL_CLOEXEC));
    if (ep.get() < 0)
        return errno;
    // The verbs fd is read only once epoll says it is ready; another
    // thread may have taken the event by then.
    if (int err = set_nonblocking(ch.ch->fd))
        return err;
    if (int err = epoll_set(ep.get(), EPOLL_CTL_ADD, ch.ch->fd, EPOLLIN, kVerbsTag))
        return err;
    ch.epfd = std::move(ep);
    return 0;
}

int channel_attach(mrc_comp_channel& ch, mrc_cq& cq, int fd) noexcept {
    std::lock_guard<Mutex> guard(ch.lock);
    uint64_t tag = ch.next_tag++;
    // In the set but disabled: EPOLLONESHOT without EPOLLIN reports at
    // most an error condition once, which take_armed() ignores.
    if (int err = epoll_set(ch.epfd.get(), EPOLL_CTL_ADD, fd, EPOLLONESHOT, tag))
        return err;
    cq.ev->tag = tag;
    cq.channel = &ch;
    ch.ev_cqs.push_back(&cq);
    return 0;
}

void channel_detach(mrc_comp_channel& ch, mrc_cq& cq, int fd) noexcept {
    std::lock_guard<Mutex> guard(ch.lock);
    while (cq.ev->acked != cq.ev->delivered)
        ch.acked.wait(ch.lock);
    epoll_ctl(ch.epfd.get(), EPOLL_CTL_DEL, fd, nullptr);
    ch.ev_cqs.erase(std::remove(ch.ev_cqs.begin(), ch.ev_cqs.end(), &cq), ch.ev_cqs.end());
    cq.channel = nullptr;
}

int ev_cq_arm(mrc_cq& cq, int fd) noexcept {
    if (!cq.channel)
        return 0;  // as verbs: arming a CQ without a channel does nothing
    mrc_comp_channel& ch = *cq.channel;
    std::lock_guard<Mutex> guard(ch.lock);
    // Level-triggered: events already queued fire at once.
    if (int err = epoll_set(ch.epfd.get(), EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLONESHOT, cq.ev->tag))
        return err;
    cq.ev->armed = true;
    return 0;
}

void ev_cq_ack(mrc_cq& cq, unsigned n) noexcept {
    if (!cq.channel)
        return;
    mrc_comp_channel& ch = *cq.channel;
    std::lock_guard<Mutex> guard(ch.lock);
    cq.ev->acked += n;
    ch.acked.notify_all();
}

int channel_wait(mrc_comp_channel& ch, mrc_cq*& cq) noexcept {
    for (;;) {
        bool nonblocking = is_nonblocking(ch.epfd.get());
        epoll_event e{};
        int n = epoll_wait(ch.epfd.get(), &e, 1, nonblocking ? 0 : -1);
        if (n < 0)
            return errno;
        if (n == 0)
            return EAGAIN;
        if (e.data.u64 != kVerbsTag) {
            cq = take_armed(ch, e.data.u64);
            if (cq)
                return 0;
            continue;
        }
        ibv_cq* vcq = nullptr;
        void* owner = nullptr;
        if (ibv_get_cq_event(ch.ch, &vcq, &owner) == 0) {
            cq = static_cast<mrc_cq*>(owner);
            return 0;
        }
        if (errno != EAGAIN)
            return errno;
        // Taken by another thread: wait again.
    }
}

}  // namespace mrc::lib
