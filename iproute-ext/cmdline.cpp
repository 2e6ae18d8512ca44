// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmdline.h"

#include <cstddef>
#include <string_view>

namespace mrc_ip {
namespace {

// As in iproute2, an option may be abbreviated to any prefix of its name and
// may be written with one or two dashes: -j, -json, --json.
bool option_matches(std::string_view arg, std::string_view name) {
    if (arg.substr(0, 2) == "--") {
        arg.remove_prefix(2);
    } else if (arg.substr(0, 1) == "-") {
        arg.remove_prefix(1);
    } else {
        return false;
    }
    return !arg.empty() && name.substr(0, arg.size()) == arg;
}

bool is_option(const std::string& arg) {
    return arg.size() > 1 && arg[0] == '-';
}

ParseError unknown(const char* what, const std::string& word, const char* hint) {
    return {std::string(what) + " \"" + word + "\" is unknown, try \"" + hint + "\"", false};
}

ParseResult parse_dev(Command cmd, const std::vector<std::string>& args, std::size_t i) {
    if (i == args.size()) {
        cmd.action = Action::DevShow;  // bare "dev" lists, like "ip link"
        return cmd;
    }
    const std::string& verb = args[i++];
    if (verb == "help") {
        cmd.action = Action::DevHelp;
        return cmd;
    }
    if (verb != "show" && verb != "list" && verb != "ls") {
        return unknown("command", verb, "mrc-ip dev help");
    }
    cmd.action = Action::DevShow;
    if (i < args.size()) {
        cmd.device = args[i++];
    }
    if (i < args.size()) {
        return ParseError{"unexpected argument \"" + args[i] + "\", try \"mrc-ip dev help\"",
                          false};
    }
    return cmd;
}

}  // namespace

ParseResult parse_command_line(const std::vector<std::string>& args) {
    Command cmd;
    std::size_t i = 0;
    for (; i < args.size() && is_option(args[i]); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (option_matches(arg, "json")) {
            cmd.options.json = true;
        } else if (option_matches(arg, "pretty")) {
            cmd.options.pretty = true;
        } else if (option_matches(arg, "Version")) {
            cmd.action = Action::Version;  // like ip -V: the rest is ignored
            return cmd;
        } else if (option_matches(arg, "help")) {
            cmd.action = Action::Help;
            return cmd;
        } else {
            return unknown("option", arg, "mrc-ip help");
        }
    }

    if (i == args.size()) {
        return ParseError{"", true};
    }
    const std::string& object = args[i++];
    if (object == "help") {
        cmd.action = Action::Help;
        return cmd;
    }
    if (object == "dev" || object == "device") {
        return parse_dev(cmd, args, i);
    }
    return unknown("object", object, "mrc-ip help");
}

}  // namespace mrc_ip
