// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the OCP API's opaque handles are in libmrc: thin owners of the
// verbs objects underneath, with the MRC state verbs does not keep.
#ifndef MRC_OBJECTS_H
#define MRC_OBJECTS_H

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mrc.h"
#include "wimm_credits.h"

namespace mrc::lib {

// A sleeping lock that cannot throw (std::mutex::lock may), for
// std::lock_guard. Held across verbs calls, so not a spinlock.
class Mutex {
public:
    Mutex() noexcept { pthread_mutex_init(&m_, nullptr); }
    Mutex(const Mutex&) = delete;
    Mutex& operator=(const Mutex&) = delete;
    ~Mutex() { pthread_mutex_destroy(&m_); }

    void lock() noexcept { pthread_mutex_lock(&m_); }
    void unlock() noexcept { pthread_mutex_unlock(&m_); }

private:
    friend class CondVar;
    pthread_mutex_t m_;
};

// A condition variable over a Mutex, for the same reason.
class CondVar {
public:
    CondVar() noexcept { pthread_cond_init(&c_, nullptr); }
    CondVar(const CondVar&) = delete;
    CondVar& operator=(const CondVar&) = delete;
    ~CondVar() { pthread_cond_destroy(&c_); }

    void wait(Mutex& m) noexcept { pthread_cond_wait(&c_, &m.m_); }
    void notify_all() noexcept { pthread_cond_broadcast(&c_); }

private:
    pthread_cond_t c_;
};

// An owned file descriptor (-1: none).
class Fd {
public:
    Fd() noexcept = default;
    explicit Fd(int fd) noexcept : fd_(fd) {}
    Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Fd& operator=(Fd&& o) noexcept {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    ~Fd() { reset(); }
    int get() const noexcept { return fd_; }

private:
    void reset() noexcept {
        if (fd_ >= 0)
            close(fd_);
        fd_ = -1;
    }
    int fd_ = -1;
};

// What an EV event CQ has beyond an mrc_cq (ctl_events.h).
struct EvCq;
struct EvCqDeleter {
    void operator()(EvCq* ev) const noexcept;
};
using EvCqPtr = std::unique_ptr<EvCq, EvCqDeleter>;

}  // namespace mrc::lib

// The handles are declared at global scope by mrc.h, so they are defined
// there too.

struct mrc_context {
    ibv_context* vctx = nullptr;
    uint32_t api_version = 0;         // negotiated (mrc_context_attr)
    uint32_t vendor_api_version = 0;  // negotiated
    mrc_device_attr dev{};            // what mrc_query_device() reports
    // Channels, CQs, hints and QPs made on this context and not destroyed:
    // the context outlives them all.
    std::atomic<unsigned> children{0};
    std::atomic<unsigned> hints{0};
};

// A verbs completion channel, and the EV event CQs that signal on it too.
// The fd a program waits on is an epoll instance over both: the verbs
// channel's (always) and each EV event CQ's socket while it is armed
// (Documentation/libmrc.rst, "EV events").
struct mrc_comp_channel {
    mrc_context* ctx = nullptr;
    ibv_comp_channel* ch = nullptr;
    mrc::lib::Fd epfd;  // mrc_get_comp_channel_fd()
    // Guards the EV event CQs' notification state (in mrc::lib::EvCq).
    mrc::lib::Mutex lock;
    mrc::lib::CondVar acked;  // an EV event CQ's events were acknowledged
    std::vector<mrc_cq*> ev_cqs;
    uint64_t next_tag = 1;  // epoll tag of the next EV event CQ; 0 is ch's
};

struct mrc_cq {
    mrc_context* ctx = nullptr;
    ibv_cq* cq = nullptr;  // its cq_context is this object; null for EV event CQs
    void* user_context = nullptr;
    bool ev_event_cq = false;             // made by mrc_ctl_create_ev_event_cq()
    mrc_comp_channel* channel = nullptr;  // EV event CQs: where they signal
    mrc::lib::EvCqPtr ev;                 // EV event CQs: their events
    // The QPs whose send CQ this is, linked by mrc_qp::next_sender: their
    // WIMM credits come back as mrc_poll_cq() returns their completions.
    mrc::lib::Mutex senders_lock;
    mrc_qp* senders = nullptr;
};

struct mrc_qp_hint {
    mrc_context* ctx = nullptr;
    mrc::lib::Mutex lock;  // attr
    mrc_qp_hint_attr attr{};
    std::atomic<unsigned> users{0};  // QPs that name this hint
};

struct mrc_qp {
    mrc_context* ctx = nullptr;
    ibv_qp* qp = nullptr;  // its qp_context is this object
    mrc_qp_init_attr init{};
    // Serialises mrc_modify_qp() and mrc_query_qp() on the MRC state.
    mrc::lib::Mutex lock;
    ibv_qp_state state = IBV_QPS_RESET;  // as the library last moved it
    mrc_qp_attr attr{};
    // WRITEs with immediate in flight (wimm_credits.h); the lock also
    // orders the posts that take credits against the polls that return
    // them. Taken after mrc_qp::lock and mrc_cq::senders_lock.
    mrc::lib::Mutex credit_lock;
    mrc::lib::WimmCredits credits;
    mrc_qp* next_sender = nullptr;  // on send_cq's list (mrc_cq::senders)
};

#endif  // MRC_OBJECTS_H
