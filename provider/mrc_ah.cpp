// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles for UD QPs. The kernel numbers each one (struct
// mrc_create_ah_resp), and a UD send slot names its AH by that number:
// the slot is the program's memory, where a pointer would mean nothing
// to the kernel.
#include <cerrno>

#include "mrc-abi.h"
#include "mrc_provider.h"

namespace mrc {
namespace {

struct Ah {
    ibv_ah ah;
    uint32_t num;
};
static_assert(kCObject<Ah>);

Ah* to_ah(ibv_ah* ah) noexcept {
    return container_of<Ah>(ah, offsetof(Ah, ah));
}

using AhResp = DriverResp<ib_uverbs_create_ah_resp, mrc_create_ah_resp>;

}  // namespace

ibv_ah* create_ah(ibv_pd* pd, ibv_ah_attr* attr) noexcept {
    CPtr<Ah> ah = calloc_object<Ah>();
    if (!ah) {
        errno = ENOMEM;
        return nullptr;
    }

    AhResp resp;
    int ret = ibv_cmd_create_ah(pd, &ah->ah, attr, resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    ah->num = resp.driver().ah_num;
    if (ah->num == 0) {  // a kernel that does not number AHs
        ibv_cmd_destroy_ah(&ah->ah);
        errno = EOPNOTSUPP;
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

uint32_t ah_number(ibv_ah* ah) noexcept {
    return ah != nullptr ? to_ah(ah)->num : 0;
}

}  // namespace mrc
