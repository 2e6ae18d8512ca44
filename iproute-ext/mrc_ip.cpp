// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_ip.h"

#include <optional>
#include <utility>
#include <variant>

#include "cmdline.h"
#include "dev_show.h"

#ifndef MRC_VERSION
#error "MRC_VERSION must be defined by the build"
#endif

namespace mrc_ip {
namespace {

constexpr const char* kUsage =
    "Usage: mrc-ip [ OPTIONS ] OBJECT { COMMAND | help }\n"
    "       mrc-ip -V\n"
    "where  OBJECT := { dev }\n"
    "       OPTIONS := { -j[son] | -p[retty] | -V[ersion] | -h[elp] }\n";

constexpr const char* kDevUsage =
    "Usage: mrc-ip dev [ show [ DEV ] ]\n"
    "       mrc-ip dev help\n";

constexpr int kExitOk = 0;
constexpr int kExitError = 1;

int dev_show(const Command& cmd, std::ostream& out, std::ostream& err, const SysfsReader& sysfs) {
    std::vector<MrcDevice> devices;
    if (cmd.device) {
        std::optional<MrcDevice> dev = sysfs.find_device(*cmd.device);
        if (!dev) {
            err << "mrc-ip: device \"" << *cmd.device << "\" not found\n";
            return kExitError;
        }
        devices.push_back(std::move(*dev));
    } else {
        devices = sysfs.list_devices();
    }

    if (cmd.options.json) {
        print_devices_json(out, devices, cmd.options.pretty);
    } else {
        print_devices_text(out, devices);
    }
    return kExitOk;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const SysfsReader& sysfs) {
    ParseResult parsed = parse_command_line(args);
    if (const ParseError* error = std::get_if<ParseError>(&parsed)) {
        if (error->show_usage) {
            err << kUsage;
        } else {
            err << "mrc-ip: " << error->message << '\n';
        }
        return kExitError;
    }

    const Command& cmd = std::get<Command>(parsed);
    switch (cmd.action) {
        case Action::Help:
            out << kUsage;
            return kExitOk;
        case Action::Version:
            out << "mrc-ip utility, mrc-" << MRC_VERSION << '\n';
            return kExitOk;
        case Action::DevHelp:
            out << kDevUsage;
            return kExitOk;
        case Action::DevShow:
            return dev_show(cmd, out, err, sysfs);
    }
    return kExitError;
}

}  // namespace mrc_ip
