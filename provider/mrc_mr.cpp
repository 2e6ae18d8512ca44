// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Memory regions: the kernel pins and keys them; the provider only carries
// the core command and keeps libibverbs' verbs_mr.
#include <cerrno>

#include "mrc_provider.h"

namespace mrc {

ibv_mr* reg_mr(ibv_pd* pd, void* addr, size_t length, uint64_t hca_va, int access) noexcept {
    CPtr<verbs_mr> vmr = calloc_object<verbs_mr>();
    if (!vmr) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_reg_mr cmd {};  // "struct": ibv_reg_mr is also a macro-wrapped function
    ib_uverbs_reg_mr_resp resp{};
    int ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr.get(), &cmd, sizeof(cmd), &resp,
                             sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return &vmr.release()->ibv_mr;
}

int dereg_mr(verbs_mr* vmr) noexcept {
    int ret = ibv_cmd_dereg_mr(vmr);
    if (ret != 0) {
        return ret;  // the kernel still holds the MR; keep our copy too
    }
    std::free(vmr);
    return 0;
}

}  // namespace mrc
