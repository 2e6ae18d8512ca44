// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Provider registration and device objects: tells libibverbs which uverbs
// devices are ours and how to allocate their per-device state.
#include "mrc-abi.h"
#include "mrc_provider.h"

namespace mrc {
namespace {

// The kernel reports MRC_DRIVER_ID over netlink, and that alone claims a
// device: a name pattern would also claim another driver's device that
// happens to be called "mrc*". (The union designator is a GNU extension in
// C++17; there is no other way to initialise the second union member of a
// constant table.)
constexpr verbs_match_ent kMatchTable[] = {
    {nullptr, {.driver_id = MRC_DRIVER_ID}, 0, 0, VERBS_MATCH_DRIVER_ID},
    {},
};

verbs_device* alloc_device(verbs_sysfs_dev* /*sysfs_dev*/) noexcept {
    // libibverbs fills the verbs_device and expects it zeroed on return.
    CPtr<Device> dev = calloc_object<Device>();
    return dev ? &dev.release()->vdev : nullptr;
}

void uninit_device(verbs_device* vdev) noexcept {
    std::free(container_of<Device>(vdev, offsetof(Device, vdev)));
}

constexpr verbs_device_ops make_device_ops() {
    verbs_device_ops ops{};
    ops.name = "mrc";
    // The per-device uverbs ABI the kernel driver advertises in sysfs.
    ops.match_min_abi_version = MRC_UVERBS_ABI_VERSION;
    ops.match_max_abi_version = MRC_UVERBS_ABI_VERSION;
    ops.match_table = kMatchTable;
    ops.alloc_context = alloc_context;
    ops.alloc_device = alloc_device;
    ops.uninit_device = uninit_device;
    return ops;
}

}  // namespace
}  // namespace mrc

// Constant-initialised, so it is complete before any constructor runs.
const verbs_device_ops verbs_provider_mrc = mrc::make_device_ops();

// libibverbs dlopen()s us from its config-file list; registering from a
// constructor is how the module announces itself.
__attribute__((constructor)) static void mrc_register_provider() {
    verbs_register_driver_34(&verbs_provider_mrc);
}
