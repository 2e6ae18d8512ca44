// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OCP API's three ways of failing, each also leaving the error in
// errno (Documentation/libmrc.rst, "Errors").
#ifndef MRC_ERRORS_H
#define MRC_ERRORS_H

#include <cerrno>

namespace mrc::lib {

// "-1, errno set".
inline int fail(int err) noexcept {
    errno = err;
    return -1;
}

// "Errors like ibv_X()": the errno value itself, as verbs returns it.
inline int fail_rc(int err) noexcept {
    errno = err;
    return err;
}

// "NULL, errno set".
template <typename T>
T* fail_null(int err) noexcept {
    errno = err;
    return nullptr;
}

}  // namespace mrc::lib

#endif  // MRC_ERRORS_H
