// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-ip end to end, in-process: arguments in, exit status and output out.
// "dev show" talks to the running kernel. Where the mrc module is not loaded
// (a build host) it must say so; where it is (the test VM) it must list
// devices and refuse unknown names. Which case applies is read from sysfs,
// not from the code under test.
#include "mrc_ip.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <sstream>

namespace mrc_ip {
namespace {

struct Result {
    int status;
    std::string out;
    std::string err;
};

Result run_tool(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    int status = run(args, out, err);
    return {status, out.str(), err.str()};
}

constexpr const char* kFamilyMissing =
    "mrc-ip: generic netlink family \"mrc\" not found (is the mrc module loaded?)\n";

// Whether the mrc module (which registers the "mrc" family at load) is in
// this kernel, asked of sysfs rather than through the netlink client under
// test, so a client that fails to find the family cannot pick the
// expectation that excuses it.
bool module_loaded() {
    struct stat st {};
    return stat("/sys/module/mrc", &st) == 0 && S_ISDIR(st.st_mode);
}

TEST(MrcIpDevShowTest, AllDevices) {
    const bool registered = module_loaded();
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"dev", "show"}, {"dev"}, {"-j", "dev", "show"}, {"-j", "-p", "dev", "list"}}) {
        Result r = run_tool(args);
        if (!registered) {
            // Not an empty list: "no module" must not look like "no devices".
            EXPECT_EQ(r.status, 1);
            EXPECT_EQ(r.out, "");
            EXPECT_EQ(r.err, kFamilyMissing);
        } else {
            EXPECT_EQ(r.status, 0) << r.err;
            EXPECT_EQ(r.err, "");
            if (args[0] == "-j") {
                EXPECT_EQ(r.out.rfind('[', 0), 0u) << r.out;
                EXPECT_GE(r.out.size(), 3u);
                EXPECT_EQ(r.out.substr(r.out.size() - 2), "]\n") << r.out;
            }
        }
    }
}

TEST(MrcIpDevShowTest, UnknownDevice) {
    const bool registered = module_loaded();
    for (const std::string& name : {std::string("mrc-test-none0"), std::string(200, 'm')}) {
        Result r = run_tool({"dev", "show", name});
        EXPECT_EQ(r.status, 1);
        EXPECT_EQ(r.out, "");
        if (!registered) {
            EXPECT_EQ(r.err, kFamilyMissing);
        } else {
            EXPECT_EQ(r.err, "mrc-ip: device \"" + name + "\" not found\n");
        }
    }
}

TEST(MrcIpTest, UnknownWordsFailWithExitOne) {
    Result obj = run_tool({"bogus"});
    EXPECT_EQ(obj.status, 1);
    EXPECT_NE(obj.err.find("\"bogus\""), std::string::npos);
    EXPECT_EQ(obj.err.rfind("mrc-ip: ", 0), 0u) << obj.err;

    Result cmd = run_tool({"dev", "zap"});
    EXPECT_EQ(cmd.status, 1);
    EXPECT_NE(cmd.err.find("\"zap\""), std::string::npos);
    EXPECT_EQ(cmd.out, "");

    Result extra = run_tool({"dev", "show", "mrc0", "mrc1"});
    EXPECT_EQ(extra.status, 1);
    EXPECT_NE(extra.err.find("\"mrc1\""), std::string::npos);
}

TEST(MrcIpTest, VersionHelpAndUsage) {
    Result v = run_tool({"-V"});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("mrc-ip utility, mrc-", 0), 0u) << v.out;

    Result h = run_tool({"help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("Usage: mrc-ip"), std::string::npos);

    Result dh = run_tool({"dev", "help"});
    EXPECT_EQ(dh.status, 0);
    EXPECT_NE(dh.out.find("Usage: mrc-ip dev"), std::string::npos);

    Result none = run_tool({});
    EXPECT_EQ(none.status, 1);
    EXPECT_EQ(none.out, "");
    EXPECT_NE(none.err.find("Usage: mrc-ip"), std::string::npos);
}

}  // namespace
}  // namespace mrc_ip
