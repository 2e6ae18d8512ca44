// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The verbs implemented so far. Each passes the core uverbs command through
// unchanged: the kernel driver needs no provider-specific data for them.
#include <cerrno>
#include <cstdio>

#include "mrc_provider.h"

namespace mrc {

int query_device_ex(ibv_context* context, const ibv_query_device_ex_input* input,
                    ibv_device_attr_ex* attr, size_t attr_size) noexcept {
    ib_uverbs_ex_query_device_resp resp{};
    size_t resp_size = sizeof(resp);
    int ret = ibv_cmd_query_device_any(context, input, attr, attr_size, &resp, &resp_size);
    if (ret != 0) {
        return ret;
    }

    // The kernel only reports a raw 64-bit firmware version; tools such as
    // ibv_devinfo print the string, so render it as major.minor.sub.
    uint64_t raw = resp.base.fw_ver;
    std::snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver), "%u.%u.%u",
                  static_cast<unsigned>((raw >> 32) & 0xffff),
                  static_cast<unsigned>((raw >> 16) & 0xffff), static_cast<unsigned>(raw & 0xffff));
    return 0;
}

int query_port(ibv_context* context, uint8_t port_num, ibv_port_attr* port_attr) noexcept {
    struct ibv_query_port cmd {};  // "struct": ibv_query_port is also a function
    return ibv_cmd_query_port(context, port_num, port_attr, &cmd, sizeof(cmd));
}

ibv_pd* alloc_pd(ibv_context* context) noexcept {
    CPtr<Pd> pd = calloc_object<Pd>();
    if (!pd) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_alloc_pd cmd {};  // "struct": ibv_alloc_pd is also a function
    ib_uverbs_alloc_pd_resp resp{};
    int ret = ibv_cmd_alloc_pd(context, &pd->pd, &cmd, sizeof(cmd), &resp, sizeof(resp));
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    return &pd.release()->pd;
}

int dealloc_pd(ibv_pd* ibpd) noexcept {
    int ret = ibv_cmd_dealloc_pd(ibpd);
    if (ret != 0) {
        return ret;  // the kernel still holds the PD; keep our copy too
    }
    std::free(to_pd(ibpd));
    return 0;
}

}  // namespace mrc
