// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-ip end to end, in-process: arguments in, exit status and output out.
// Where the mrc module is not loaded (a build host) the tool must say so
// with exit 2; where it is (the test VM) it must list devices and refuse
// unknown names. Which case applies is read from sysfs, not from the code
// under test. The kernel's own family "nlctrl" stands in for an old kernel:
// it implements command 3 (EVFMT_GET's number) and not the others.
#include "mrc_ip.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace mrc_ip {
namespace {

struct Result {
    int status;
    std::string out;
    std::string err;
};

Result run_tool(const std::vector<std::string>& args, const RunConfig& cfg = {}) {
    std::ostringstream out;
    std::ostringstream err;
    int status = run(args, out, err, cfg);
    return {status, out.str(), err.str()};
}

constexpr const char* kFamilyMissing =
    "mrc-ip: generic netlink family \"mrc\" not found (is the mrc module loaded?)\n";

bool module_loaded() {
    struct stat st {};
    return stat("/sys/module/mrc", &st) == 0 && S_ISDIR(st.st_mode);
}

RunConfig nlctrl() {
    RunConfig c;
    c.family = "nlctrl";
    return c;
}

// A batch file that removes itself.
class TempFile {
public:
    explicit TempFile(const std::string& text) {
        char name[] = "/tmp/mrc-ip-batch-XXXXXX";
        int fd = mkstemp(name);
        EXPECT_GE(fd, 0);
        close(fd);
        path_ = name;
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

TEST(MrcIpDevShowTest, AllDevices) {
    const bool registered = module_loaded();
    for (const auto& args : std::vector<std::vector<std::string>>{{"dev", "show"},
                                                                  {"dev"},
                                                                  {"d", "sh"},
                                                                  {"-j", "dev", "show"},
                                                                  {"-j", "-p", "dev", "list"}}) {
        Result r = run_tool(args);
        if (!registered) {
            // Not an empty list: "no module" must not look like "no devices".
            EXPECT_EQ(r.status, 2);
            EXPECT_EQ(r.out, "");
            EXPECT_EQ(r.err, kFamilyMissing);
        } else {
            EXPECT_EQ(r.status, 0) << r.err;
            EXPECT_EQ(r.err, "");
            if (args[0] == "-j") {
                EXPECT_EQ(r.out.rfind('[', 0), 0u) << r.out;
                EXPECT_EQ(r.out.substr(r.out.size() - 2), "]\n") << r.out;
            }
        }
    }
}

TEST(MrcIpDevShowTest, UnknownDevice) {
    const bool registered = module_loaded();
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"dev", "show", "mrc-test-none0"}, {"dev", "show", "dev", "mrc-test-none0"}}) {
        Result r = run_tool(args);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err,
                  registered ? "mrc-ip: device \"mrc-test-none0\" not found\n" : kFamilyMissing);
    }
    Result longname = run_tool({"dev", "show", std::string(64, 'm')});
    EXPECT_EQ(longname.status, 1);
    EXPECT_NE(longname.err.find("invalid device name"), std::string::npos);
}

TEST(MrcIpTest, SyntaxErrorsExitOneAndNameTheWord) {
    for (const auto& [args, word] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"bogus"}, "\"bogus\""},
             {{"evfmt", "zap"}, "\"zap\""},
             {{"dev", "show", "mrc0", "mrc1"}, "\"mrc1\""},
             {{"-q", "dev"}, "\"-q\""},
             {{"e"}, "\"e\" is ambiguous"}}) {
        Result r = run_tool(args);
        EXPECT_EQ(r.status, 1) << word;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err.rfind("mrc-ip: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(word), std::string::npos) << r.err;
    }
}

TEST(MrcIpTest, VersionHelpAndUsage) {
    Result v = run_tool({"-V"});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("mrc-ip utility, mrc-", 0), 0u) << v.out;
    Result h = run_tool({"help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_EQ(h.out.rfind("Usage: mrc-ip", 0), 0u);
    for (const char* obj :
         {"dev", "port", "evfmt", "path", "ccprofile", "qp", "stats", "monitor", "probe"}) {
        Result oh = run_tool({obj, "help"});
        EXPECT_EQ(oh.status, 0) << obj;
        EXPECT_EQ(oh.err, "");
        EXPECT_EQ(oh.out.rfind("Usage: mrc-ip ", 0), 0u) << obj;
    }
    Result none = run_tool({});
    EXPECT_EQ(none.status, 1);
    EXPECT_EQ(none.out, "");
    EXPECT_EQ(none.err.rfind("Usage: mrc-ip", 0), 0u);
}

TEST(MrcIpTest, KernelTooOldForTheCommand) {
    // nlctrl has no command 1 (DEV_GET's number), 5 (EVFMT_DEL) nor 18 (PROBE).
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"dev", "show"},
             {"evfmt", "del", "dev", "m", "id", "1"},
             {"probe", "dev", "m", "to", "::1", "ev", "0x1"},
             {"qp", "show", "dev", "m", "qpn", "1"},
             {"stats", "show", "dev", "m", "evprofile", "1"},
             {"evprofile", "deny", "dev", "m", "id", "1", "index", "1"},
             {"monitor"}}) {  // nlctrl has no "events" group
        Result r = run_tool(args, nlctrl());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "mrc-ip: kernel too old for this command\n");
        EXPECT_EQ(r.out, "");
    }
}

TEST(MrcIpTest, KernelErrorsExitTwoWithStrerror) {
    // GETFAMILY (command 3) with a family id attribute (type 1, our
    // MRC_ATTR_DEV_NAME) of the wrong size: the kernel refuses it.
    Result r = run_tool({"evfmt", "show", "dev", "m", "id", "1"}, nlctrl());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("mrc-ip: ", 0), 0u) << r.err;
    // A dump of GETFAMILY answers with families, which are no EV formats.
    Result bad = run_tool({"evfmt", "show"}, nlctrl());
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err, "mrc-ip: invalid reply from the kernel: no device name or profile id\n");
}

TEST(MrcIpTest, MissingNetnsIsExitTwo) {
    Result r = run_tool({"-n", "mrc-test-no-such-ns", "dev", "show"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("mrc-ip: cannot open network namespace \"mrc-test-no-such-ns\": ", 0), 0u)
        << r.err;
}

TEST(MrcIpBatchTest, StopsAtTheFirstFailureWithFileAndLine) {
    TempFile f("# comment\n\ndev help\nevfmt zap\ndev help\n");
    Result r = run_tool({"-b", f.path()});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, f.path() + ":4: command \"zap\" is unknown, try \"mrc-ip evfmt help\"\n");
    // Only the first help ran.
    EXPECT_EQ(r.out, run_tool({"dev", "help"}).out);
}

TEST(MrcIpBatchTest, ForceGoesOnAndReturnsTheLastError) {
    TempFile f("evfmt zap\ndev help\nevfmt show\ndev help\n");
    Result r = run_tool({"-force", "-batch", f.path()}, nlctrl());
    EXPECT_EQ(r.status, 2);
    std::string help = run_tool({"dev", "help"}).out;
    EXPECT_EQ(r.out, help + help);
    EXPECT_EQ(r.err, f.path() + ":1: command \"zap\" is unknown, try \"mrc-ip evfmt help\"\n" +
                         f.path() +
                         ":3: invalid reply from the kernel: no device name or profile id\n");
}

TEST(MrcIpBatchTest, KernelFailureEndsTheBatchWithExitTwo) {
    TempFile f("dev show\ndev help\n");
    Result r = run_tool({"-b", f.path()}, nlctrl());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, f.path() + ":1: kernel too old for this command\n");
}

TEST(MrcIpBatchTest, StdinAndErrors) {
    std::istringstream in("dev help\nport help 'x\n");
    RunConfig cfg;
    cfg.in = &in;
    Result r = run_tool({"-b", "-"}, cfg);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "-:2: unterminated quote\n");
    Result missing = run_tool({"-b", "/nonexistent/mrc-ip-batch"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_EQ(missing.err.rfind("mrc-ip: cannot open \"/nonexistent/mrc-ip-batch\"", 0), 0u);
}

TEST(MrcIpTest, EvprofileInUseMessage) {
    EvProf p;
    p.id = 7;
    p.users = {0x12, 0x9a, 0x3, 0x4, 0x5};
    p.nusers = 5;
    EXPECT_EQ(evprofile_in_use_message(p), "EV profile 7 is in use by QPs 0x12, 0x9a (and 3 more)");
    p.users = {0x12};
    p.nusers = 1;
    EXPECT_EQ(evprofile_in_use_message(p), "EV profile 7 is in use by QP 0x12");
    p.users = {0x12, 0x9a};
    p.nusers = 2;
    EXPECT_EQ(evprofile_in_use_message(p), "EV profile 7 is in use by QPs 0x12, 0x9a");
    p.users.assign(64, 1);
    p.nusers = 100;  // the kernel lists at most 64
    EXPECT_EQ(evprofile_in_use_message(p), "EV profile 7 is in use by QPs 0x1, 0x1 (and 98 more)");
    p.users.clear();
    p.nusers = 0;
    EXPECT_EQ(evprofile_in_use_message(p), "EV profile 7 is in use as the device's default");
}

}  // namespace
}  // namespace mrc_ip
