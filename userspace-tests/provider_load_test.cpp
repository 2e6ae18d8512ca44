// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The built provider module against the system libibverbs: it loads, its
// private-ABI references resolve, and it describes MRC devices correctly.
#include <dlfcn.h>
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mrc-abi.h"
#include "provider_module.h"

namespace {

using mrc_test::provider_module;

// The rows before the sentinel; bounded so a missing sentinel fails cleanly.
std::vector<verbs_match_ent> match_rows(const verbs_device_ops* ops) {
    std::vector<verbs_match_ent> rows;
    for (const verbs_match_ent* e = ops->match_table; e->kind != VERBS_MATCH_SENTINEL; ++e) {
        rows.push_back(*e);
        if (rows.size() > 16) {
            ADD_FAILURE() << "match table has no sentinel";
            break;
        }
    }
    return rows;
}

// How libibverbs applies a modalias row to a device name without a driver id.
bool name_matches(const verbs_match_ent& e, const std::string& ibdev) {
    std::string value = "rdma_device:N" + ibdev;
    return e.kind == VERBS_MATCH_MODALIAS && fnmatch(e.u.modalias, value.c_str(), 0) == 0;
}

TEST(ProviderLoadTest, LoadsAgainstSystemLibibverbs) {
    const mrc_test::ProviderModule& m = provider_module();
    ASSERT_NE(m.handle, nullptr) << m.error;
    ASSERT_NE(m.ops, nullptr) << m.error;

    // The libibverbs the module pulled in must be the one exporting the PABI
    // we were built for.
    void* ibverbs = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(ibverbs, nullptr) << "libibverbs.so.1 not loaded by the provider";
    EXPECT_NE(dlvsym(ibverbs, "verbs_register_driver_34", "IBVERBS_PRIVATE_34"), nullptr);
    dlclose(ibverbs);  // drops only the reference NOLOAD took
}

TEST(ProviderLoadTest, DeviceOps) {
    const verbs_device_ops* ops = provider_module().ops;
    ASSERT_NE(ops, nullptr) << provider_module().error;
    EXPECT_STREQ(ops->name, "mrc");
    EXPECT_EQ(ops->match_min_abi_version, static_cast<uint32_t>(MRC_UVERBS_ABI_VERSION));
    EXPECT_EQ(ops->match_max_abi_version, static_cast<uint32_t>(MRC_UVERBS_ABI_VERSION));
    EXPECT_NE(ops->alloc_context, nullptr);
    EXPECT_NE(ops->alloc_device, nullptr);
    EXPECT_NE(ops->uninit_device, nullptr);
    // No custom matcher: libibverbs must decide from the table alone.
    EXPECT_EQ(ops->match_device, nullptr);
    EXPECT_EQ(ops->import_context, nullptr);
    EXPECT_EQ(ops->static_providers, nullptr);
}

TEST(ProviderLoadTest, MatchTableIsTheDriverIdAlone) {
    const verbs_device_ops* ops = provider_module().ops;
    ASSERT_NE(ops, nullptr) << provider_module().error;
    ASSERT_NE(ops->match_table, nullptr);
    std::vector<verbs_match_ent> rows = match_rows(ops);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].kind, VERBS_MATCH_DRIVER_ID);
    EXPECT_EQ(rows[0].u.driver_id, static_cast<uint64_t>(MRC_DRIVER_ID));
    EXPECT_EQ(rows[0].driver_data, nullptr);
}

TEST(ProviderLoadTest, NoDeviceIsClaimedByItsName) {
    // Another driver's device may be called mrc0: only the driver id tells.
    const verbs_device_ops* ops = provider_module().ops;
    ASSERT_NE(ops, nullptr) << provider_module().error;
    for (const verbs_match_ent& row : match_rows(ops)) {
        for (const char* name : {"mrc0", "mrc12", "mrc", "rxe0", "mlx5_0"}) {
            EXPECT_FALSE(name_matches(row, name)) << name;
        }
    }
}

TEST(ProviderLoadTest, AllocDeviceReturnsZeroedDevice) {
    const verbs_device_ops* ops = provider_module().ops;
    ASSERT_NE(ops, nullptr) << provider_module().error;
    verbs_device* dev = ops->alloc_device(nullptr);
    ASSERT_NE(dev, nullptr);
    // libibverbs asserts parts of this are zero and fills in the rest.
    static const verbs_device zero{};
    EXPECT_EQ(std::memcmp(dev, &zero, sizeof(zero)), 0);
    ops->uninit_device(dev);
}

}  // namespace
