// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The lock of one ring side. Posting and polling hold it for a few slot
// copies and never sleep under it, so a spinlock (as in upstream providers)
// rather than a mutex; pthread's, so no libstdc++ is needed.
#ifndef MRC_LOCK_H
#define MRC_LOCK_H

#include <pthread.h>

namespace mrc {

// Satisfies BasicLockable, for std::lock_guard.
class SpinLock {
public:
    // glibc's pthread_spin_init only stores the initial value; it cannot fail.
    SpinLock() noexcept { pthread_spin_init(&lock_, PTHREAD_PROCESS_PRIVATE); }
    SpinLock(const SpinLock&) = delete;
    SpinLock& operator=(const SpinLock&) = delete;
    ~SpinLock() { pthread_spin_destroy(&lock_); }

    void lock() noexcept { pthread_spin_lock(&lock_); }
    void unlock() noexcept { pthread_spin_unlock(&lock_); }

private:
    pthread_spinlock_t lock_;
};

}  // namespace mrc

#endif  // MRC_LOCK_H
