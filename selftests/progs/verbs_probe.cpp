// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-verbs-probe DEV: opens an RDMA device through Debian's libibverbs,
// queries it, allocates and frees a PD, and checks that our provider is
// the library that served it: the context's data-path ops must point into
// libmrc. (Being mapped proves nothing: libibverbs loads every provider.)
// Used by the VM tests.

#include <infiniband/verbs.h>

#include <dlfcn.h>
#include <endian.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

namespace {

struct DeviceListDeleter {
    void operator()(ibv_device **list) const { ibv_free_device_list(list); }
};
struct ContextDeleter {
    void operator()(ibv_context *ctx) const { ibv_close_device(ctx); }
};

using DeviceList = std::unique_ptr<ibv_device *, DeviceListDeleter>;
using Context = std::unique_ptr<ibv_context, ContextDeleter>;

constexpr const char kProvider[] = "libmrc-rdmav34.so";

// The shared object that holds the code at @fn, or "?" if none does.
std::string object_of(void *fn)
{
    Dl_info info{};
    if (!fn || !dladdr(fn, &info) || !info.dli_fname)
        return "?";
    std::string path = info.dli_fname;
    return path.substr(path.rfind('/') + 1);
}

// libibverbs copies the provider's own post_send and poll_cq into the
// context's ops (ibv_post_send() calls them directly), so they name the
// provider that opened this device.
bool served_by_us(ibv_context *ctx, std::string &who)
{
    std::string send = object_of(reinterpret_cast<void *>(ctx->ops.post_send));
    std::string poll = object_of(reinterpret_cast<void *>(ctx->ops.poll_cq));
    who = send == poll ? send : send + "/" + poll;
    return send == kProvider && poll == kProvider;
}

int fail(const char *what, int err)
{
    std::fprintf(stderr, "mrc-verbs-probe: %s: %s\n", what, std::strerror(err));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: mrc-verbs-probe DEVICE\n");
        return 2;
    }
    const char *name = argv[1];

    int num = 0;
    DeviceList list(ibv_get_device_list(&num));
    if (!list)
        return fail("ibv_get_device_list", errno);

    ibv_device *dev = nullptr;
    for (int i = 0; i < num; i++)
        if (std::strcmp(ibv_get_device_name(list.get()[i]), name) == 0)
            dev = list.get()[i];
    if (!dev) {
        std::fprintf(stderr, "mrc-verbs-probe: device \"%s\" not found\n", name);
        return 1;
    }

    Context ctx(ibv_open_device(dev));
    if (!ctx)
        return fail("ibv_open_device", errno);

    ibv_device_attr dattr{};
    if (int err = ibv_query_device(ctx.get(), &dattr))
        return fail("ibv_query_device", err);
    ibv_port_attr pattr{};
    if (int err = ibv_query_port(ctx.get(), 1, &pattr))
        return fail("ibv_query_port", err);

    ibv_pd *pd = ibv_alloc_pd(ctx.get());
    if (!pd)
        return fail("ibv_alloc_pd", errno);
    if (int err = ibv_dealloc_pd(pd))
        return fail("ibv_dealloc_pd", err);

    std::printf("device %s node_guid %016llx max_pd %d\n", name,
                static_cast<unsigned long long>(be64toh(dattr.node_guid)), dattr.max_pd);
    std::printf("port 1 state %s active_mtu %d link_layer %s\n",
                ibv_port_state_str(pattr.state), 128 << pattr.active_mtu,
                pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "other");
    std::printf("pd alloc/dealloc ok\n");
    std::string who;
    bool ours = served_by_us(ctx.get(), who);
    std::printf("provider %s %s\n", who.c_str(), ours ? "serves it" : "NOT ours");
    return ours ? 0 : 1;
}
