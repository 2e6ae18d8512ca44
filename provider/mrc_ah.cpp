// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles, for completeness: RC does not use them, and UD sends
// cannot carry one in an SQ slot yet. The core command passes through.
#include <cerrno>

#include "mrc_provider.h"

namespace mrc {
namespace {

struct Ah {
    ibv_ah ah;
};
static_assert(kCObject<Ah>);

Ah* to_ah(ibv_ah* ah) noexcept {
    return container_of<Ah>(ah, offsetof(Ah, ah));
}

}  // namespace

ibv_ah* create_ah(ibv_pd* pd, ibv_ah_attr* attr) noexcept {
    CPtr<Ah> ah = calloc_object<Ah>();
    if (!ah) {
        errno = ENOMEM;
        return nullptr;
    }

    ib_uverbs_create_ah_resp resp{};
    int ret = ibv_cmd_create_ah(pd, &ah->ah, attr, &resp, sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return &ah.release()->ah;
}

int destroy_ah(ibv_ah* ibah) noexcept {
    int ret = ibv_cmd_destroy_ah(ibah);
    if (ret != 0) {
        return ret;
    }
    std::free(to_ah(ibah));
    return 0;
}

}  // namespace mrc
