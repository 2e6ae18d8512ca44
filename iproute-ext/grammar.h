// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The table of mrc-ip's objects, commands and keywords (cmdline.h parses
// with it): what each keyword takes, which are required, and the checks
// across keywords a command makes before anything reaches the kernel.
#ifndef MRC_IP_GRAMMAR_H
#define MRC_IP_GRAMMAR_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cmdline.h"

namespace mrc_ip {

enum class Kind {
    Dev,       // device name
    Num,       // number up to max
    Enum,      // one of values, by prefix
    Flag,      // bare keyword
    Widths,    // W[,W...]
    EvField,   // W:INIT:MIN:MAX:MASK
    EvSpec,    // VALUE[@PORT]
    EvValue,   // VALUE
    Range,     // I[-J]
    Duration,  // 10ms
    Gid,       // IPv6 notation
    Q16,       // decimal with fraction, stored * 65536
    Group,     // a group name or number (gid), up to max
};

struct KeySpec {
    KeySpec(std::string n, Kind k, uint64_t m = UINT64_MAX, std::vector<std::string> v = {},
            bool r = false)
        : name(std::move(n)), kind(k), max(m), values(std::move(v)), repeat(r) {}

    std::string name;
    Kind kind;
    uint64_t max;
    std::vector<std::string> values;  // Enum
    bool repeat;
};

using Check = std::function<std::optional<std::string>(const Command&)>;

struct CmdSpec {
    std::string name;  // "" for objects without commands (monitor, probe)
    std::string usage;
    std::vector<KeySpec> keys;
    bool positional_dev = false;  // [ dev ] DEV
    std::vector<std::string> required;
    Check check;
};

struct ObjSpec {
    std::string name;
    std::vector<std::string> aliases;
    std::vector<CmdSpec> cmds;  // first one is the default
};

constexpr uint64_t kU32 = UINT32_MAX;
constexpr uint64_t kMaxEvIndex = 4095;
constexpr uint64_t kMaxQpn = 0xfffffe;

// The device keyword, which [ dev ] DEV also parses.
KeySpec dev_key();

// Every object, in the order help lists them.
const std::vector<ObjSpec>& grammar();

}  // namespace mrc_ip

#endif  // MRC_IP_GRAMMAR_H
