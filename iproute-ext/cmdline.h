// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Command-line grammar of mrc-ip, kept apart from execution so it can be
// tested on its own:  mrc-ip [OPTIONS] OBJECT [COMMAND [ARGS]]
#ifndef MRC_IP_CMDLINE_H
#define MRC_IP_CMDLINE_H

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mrc_ip {

struct Options {
    bool json = false;    // -j: JSON instead of text
    bool pretty = false;  // -p: indent JSON (no effect on text, as in ip)
};

enum class Action {
    Help,     // mrc-ip help, mrc-ip -h
    Version,  // mrc-ip -V
    DevHelp,  // mrc-ip dev help
    DevShow,  // mrc-ip dev [show [DEV]]
};

struct Command {
    Options options;
    Action action = Action::Help;
    std::optional<std::string> device;  // DevShow: only this device
};

struct ParseError {
    std::string message;      // names the offending word; no program prefix
    bool show_usage = false;  // nothing to do at all: print the usage text
};

using ParseResult = std::variant<Command, ParseError>;

// Parses the arguments after the program name.
ParseResult parse_command_line(const std::vector<std::string>& args);

}  // namespace mrc_ip

#endif  // MRC_IP_CMDLINE_H
