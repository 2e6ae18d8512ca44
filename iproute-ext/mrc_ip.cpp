// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "mrc_ip.h"

#include <variant>

#include "cmdline.h"
#include "dev_show.h"
#include "mrc-genl.h"
#include "mrc_genl.h"

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

// Reports a failed query; a missing family is never mistaken for an empty
// device list.
int query_failed(const QueryStatus& qs, const Command& cmd, std::ostream& err) {
    switch (qs.error) {
        case QueryError::FamilyMissing:
            err << "mrc-ip: generic netlink family \"" MRC_GENL_NAME
                   "\" not found (is the mrc module loaded?)\n";
            break;
        case QueryError::NoSuchDevice:
            err << "mrc-ip: device \"" << cmd.device.value_or("") << "\" not found\n";
            break;
        case QueryError::None:
        case QueryError::Failed:
            err << "mrc-ip: " << qs.message << '\n';
            break;
    }
    return kExitError;
}

int dev_show(const Command& cmd, std::ostream& out, std::ostream& err) {
    MrcGenlClient client;
    if (QueryStatus qs = client.open(); !qs.ok()) {
        return query_failed(qs, cmd, err);
    }
    std::vector<MrcDevice> devices(cmd.device ? 1 : 0);
    QueryStatus qs =
        cmd.device ? client.get_device(*cmd.device, devices.front()) : client.list_devices(devices);
    if (!qs.ok()) {
        return query_failed(qs, cmd, err);
    }

    if (cmd.options.json) {
        print_devices_json(out, devices, cmd.options.pretty);
    } else {
        print_devices_text(out, devices);
    }
    return kExitOk;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
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
            return dev_show(cmd, out, err);
    }
    return kExitError;
}

}  // namespace mrc_ip
