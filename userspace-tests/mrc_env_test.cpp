// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The profile ids create_qp reads from MRC_EV_PROFILE and MRC_CC_PROFILE:
// decimal as mrc-ip prints them, and nothing but digits, so that a typo
// fails the QP instead of naming another profile or the default.
#include "mrc_env.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "mrc-abi.h"

namespace {

using mrc::parse_profile_id;

TEST(MrcEnvTest, DecimalIdsParse) {
    const std::pair<const char*, uint64_t> good[] = {
        {"0", 0},
        {"5", 5},
        {"10", 10},
        {"010", 10},  // not octal 8: mrc-ip reads and prints 10
        {"0008", 8},  // not a bad octal number either
        {"255", 255},
        {"4294967296", 4294967296ull},
        {"18446744073709551615", UINT64_MAX},
        {"00000000000000000000000018446744073709551615", UINT64_MAX},
    };
    for (const auto& [text, want] : good) {
        uint64_t v = 12345;
        EXPECT_TRUE(parse_profile_id(text, v)) << text;
        EXPECT_EQ(v, want) << text;
    }
}

TEST(MrcEnvTest, AnythingElseIsRefused) {
    const char* const bad[] = {
        "",
        " 10",
        "\t10",
        "\n10",
        "10 ",
        "10\n",
        "10x",
        "x10",
        "six",
        "-1",
        "+1",
        "-0",
        "0x10",
        "0X10",
        "1e3",
        "1.0",
        "1,0",
        "1_0",
        "1 0",
        "\xd9\xa1",              // ARABIC-INDIC DIGIT ONE
        "18446744073709551616",  // UINT64_MAX + 1
        "18446744073709551620",
        "99999999999999999999",
        "184467440737095516150",
    };
    for (const char* text : bad) {
        uint64_t v = 12345;
        EXPECT_FALSE(parse_profile_id(text, v)) << '"' << text << '"';
        EXPECT_EQ(v, 12345u) << "changed by \"" << text << '"';
    }
    uint64_t v = 12345;
    EXPECT_FALSE(parse_profile_id(nullptr, v));
    EXPECT_EQ(v, 12345u);
}

// Sets (or with nullopt unsets) an environment variable for one scope and
// puts back what was there.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* old = std::getenv(name)) {
            old_ = old;
        }
        set(value);
    }
    ~ScopedEnv() { set(old_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    void set(const std::optional<std::string>& v) {
        if (v) {
            EXPECT_EQ(setenv(name_, v->c_str(), 1), 0);
        } else {
            EXPECT_EQ(unsetenv(name_), 0);
        }
    }
    const char* name_;
    std::optional<std::string> old_;
};

TEST(MrcEnvTest, UnsetMeansTheDefault) {
    ScopedEnv ev("MRC_EV_PROFILE", std::nullopt);
    ScopedEnv cc("MRC_CC_PROFILE", std::nullopt);
    mrc_qp_profile_cmd cmd{};
    EXPECT_EQ(mrc::qp_profiles_from_env(cmd), 0);
    EXPECT_EQ(cmd.flags, 0u);
    EXPECT_EQ(cmd.ev_profile_id, 0u);
    EXPECT_EQ(cmd.cc_profile_id, 0u);
}

TEST(MrcEnvTest, BothProfilesAreRead) {
    ScopedEnv ev("MRC_EV_PROFILE", "010");
    ScopedEnv cc("MRC_CC_PROFILE", "0");
    mrc_qp_profile_cmd cmd{};
    EXPECT_EQ(mrc::qp_profiles_from_env(cmd), 0);
    EXPECT_EQ(cmd.flags, static_cast<__u32>(MRC_QP_F_EV_PROFILE | MRC_QP_F_CC_PROFILE));
    EXPECT_EQ(cmd.ev_profile_id, 10u);
    EXPECT_EQ(cmd.cc_profile_id, 0u);
}

// Junk in either variable is EINVAL, whatever the other one holds; a set
// but empty variable is junk too, not "unset".
TEST(MrcEnvTest, JunkFailsTheCreate) {
    const char* const junk[] = {"", " 6", "6 ", "-1", "0x6", "6x", "18446744073709551616"};
    for (const char* j : junk) {
        for (bool in_ev : {true, false}) {
            ScopedEnv ev("MRC_EV_PROFILE", in_ev ? j : "6");
            ScopedEnv cc("MRC_CC_PROFILE", in_ev ? std::optional<std::string>() : j);
            mrc_qp_profile_cmd cmd{};
            EXPECT_EQ(mrc::qp_profiles_from_env(cmd), EINVAL)
                << (in_ev ? "MRC_EV_PROFILE" : "MRC_CC_PROFILE") << "=\"" << j << '"';
        }
    }
}

}  // namespace
