// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the OCP API's opaque handles are in libmrc: thin owners of the
// verbs objects underneath, with the MRC state verbs does not keep.
#ifndef MRC_OBJECTS_H
#define MRC_OBJECTS_H

#include <pthread.h>

#include <atomic>
#include <cstdint>

#include "mrc.h"

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
    pthread_mutex_t m_;
};

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

struct mrc_comp_channel {
    mrc_context* ctx = nullptr;
    ibv_comp_channel* ch = nullptr;
};

struct mrc_cq {
    mrc_context* ctx = nullptr;
    ibv_cq* cq = nullptr;  // its cq_context is this object
    void* user_context = nullptr;
    bool ev_event_cq = false;  // made by mrc_ctl_create_ev_event_cq()
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
};

#endif  // MRC_OBJECTS_H
