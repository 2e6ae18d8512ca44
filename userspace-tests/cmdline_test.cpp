// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmdline.h"

#include <gtest/gtest.h>

namespace mrc_ip {
namespace {

Command parse_ok(const std::vector<std::string>& args) {
    ParseResult r = parse_command_line(args);
    const Command* cmd = std::get_if<Command>(&r);
    EXPECT_NE(cmd, nullptr) << "rejected: " << std::get<ParseError>(r).message;
    return cmd != nullptr ? *cmd : Command{};
}

ParseError parse_err(const std::vector<std::string>& args) {
    ParseResult r = parse_command_line(args);
    const ParseError* err = std::get_if<ParseError>(&r);
    EXPECT_NE(err, nullptr) << "unexpectedly accepted";
    return err != nullptr ? *err : ParseError{};
}

TEST(CmdlineTest, DevShowAllDevices) {
    Command cmd = parse_ok({"dev", "show"});
    EXPECT_EQ(cmd.action, Action::DevShow);
    EXPECT_FALSE(cmd.device.has_value());
    EXPECT_FALSE(cmd.options.json);
    EXPECT_FALSE(cmd.options.pretty);
}

TEST(CmdlineTest, DevShowOneDevice) {
    Command cmd = parse_ok({"dev", "show", "mrc3"});
    EXPECT_EQ(cmd.action, Action::DevShow);
    ASSERT_TRUE(cmd.device.has_value());
    EXPECT_EQ(*cmd.device, "mrc3");
}

TEST(CmdlineTest, BareObjectAndAliasesList) {
    EXPECT_EQ(parse_ok({"dev"}).action, Action::DevShow);
    EXPECT_EQ(parse_ok({"device", "list"}).action, Action::DevShow);
    EXPECT_EQ(parse_ok({"dev", "ls", "mrc0"}).device.value_or(""), "mrc0");
}

TEST(CmdlineTest, JsonAndPrettyOptions) {
    Command cmd = parse_ok({"-j", "-p", "dev", "show"});
    EXPECT_TRUE(cmd.options.json);
    EXPECT_TRUE(cmd.options.pretty);

    cmd = parse_ok({"--json", "dev"});
    EXPECT_TRUE(cmd.options.json);
    EXPECT_FALSE(cmd.options.pretty);

    cmd = parse_ok({"-pre", "dev"});  // any prefix of the option name
    EXPECT_FALSE(cmd.options.json);
    EXPECT_TRUE(cmd.options.pretty);
}

TEST(CmdlineTest, VersionAndHelp) {
    EXPECT_EQ(parse_ok({"-V"}).action, Action::Version);
    EXPECT_EQ(parse_ok({"-Version"}).action, Action::Version);
    EXPECT_EQ(parse_ok({"-V", "nonsense"}).action, Action::Version);  // like ip -V
    EXPECT_EQ(parse_ok({"help"}).action, Action::Help);
    EXPECT_EQ(parse_ok({"-h"}).action, Action::Help);
    EXPECT_EQ(parse_ok({"dev", "help"}).action, Action::DevHelp);
}

TEST(CmdlineTest, NoArgumentsAsksForUsage) {
    ParseError err = parse_err({});
    EXPECT_TRUE(err.show_usage);
    EXPECT_TRUE(parse_err({"-j"}).show_usage);
}

TEST(CmdlineTest, UnknownObjectIsNamed) {
    ParseError err = parse_err({"link", "show"});
    EXPECT_FALSE(err.show_usage);
    EXPECT_NE(err.message.find("object \"link\" is unknown"), std::string::npos) << err.message;
}

TEST(CmdlineTest, UnknownCommandIsNamed) {
    ParseError err = parse_err({"dev", "frobnicate"});
    EXPECT_NE(err.message.find("command \"frobnicate\" is unknown"), std::string::npos)
        << err.message;
}

TEST(CmdlineTest, UnknownOptionIsNamed) {
    ParseError err = parse_err({"-x", "dev"});
    EXPECT_NE(err.message.find("option \"-x\" is unknown"), std::string::npos) << err.message;
    // A longer word that is not a prefix of any option is unknown too.
    EXPECT_NE(parse_err({"-jsonx", "dev"}).message.find("\"-jsonx\""), std::string::npos);
}

TEST(CmdlineTest, ExtraArgumentIsNamed) {
    ParseError err = parse_err({"dev", "show", "mrc0", "mrc1"});
    EXPECT_NE(err.message.find("\"mrc1\""), std::string::npos) << err.message;
}

TEST(CmdlineTest, OptionsOnlyBeforeObject) {
    // ip-style: options after the object are words, so this is a bad command.
    ParseError err = parse_err({"dev", "-j"});
    EXPECT_NE(err.message.find("\"-j\""), std::string::npos) << err.message;
}

TEST(CmdlineTest, DoubleDashEndsOptions) {
    ParseError err = parse_err({"--", "-j"});
    EXPECT_NE(err.message.find("object \"-j\""), std::string::npos) << err.message;
}

}  // namespace
}  // namespace mrc_ip
