// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_env.h"

#include <cerrno>
#include <cstdlib>

namespace mrc {

bool parse_profile_id(const char* text, uint64_t& value) noexcept {
    // strtoull would take leading white space, a sign, and with base 0 an
    // octal or hex prefix: count the digits ourselves.
    if (text == nullptr || *text == '\0') {
        return false;
    }
    uint64_t v = 0;
    for (const char* p = text; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        auto digit = static_cast<uint64_t>(*p - '0');
        if (v > (UINT64_MAX - digit) / 10) {
            return false;
        }
        v = v * 10 + digit;
    }
    value = v;
    return true;
}

int profile_from_env(const char* name, __u32 flag, __u64& id, __u32& flags) noexcept {
    const char* text = std::getenv(name);
    if (text == nullptr) {
        return 0;
    }
    uint64_t v = 0;
    if (!parse_profile_id(text, v)) {
        return EINVAL;
    }
    id = v;
    flags |= flag;
    return 0;
}

int qp_profiles_from_env(mrc_qp_profile_cmd& cmd) noexcept {
    int ret = profile_from_env("MRC_EV_PROFILE", MRC_QP_F_EV_PROFILE, cmd.ev_profile_id, cmd.flags);
    if (ret == 0) {
        ret = profile_from_env("MRC_CC_PROFILE", MRC_QP_F_CC_PROFILE, cmd.cc_profile_id, cmd.flags);
    }
    return ret;
}

}  // namespace mrc
