// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Command-line grammar of mrc-ip (Documentation/control-plane.rst, "Grammar"),
// kept apart from execution so it can be tested on its own:
//   mrc-ip [OPTIONS] OBJECT { COMMAND | help }
// Objects, commands, keywords and keyword values match by unique prefix;
// "s" means show and "d" means dev, as in ip.
#ifndef MRC_IP_CMDLINE_H
#define MRC_IP_CMDLINE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mrc_ip {

struct Options {
    bool json = false;                 // -j
    bool pretty = false;               // -p: indent JSON
    int stats = 0;                     // -s, twice for more
    bool details = false;              // -d
    bool force = false;                // -force: batch goes on after errors
    std::optional<std::string> netns;  // -n NAME
    std::optional<std::string> batch;  // -b FILE ("-" = stdin)
};

// One parsed keyword value. Which members are set depends on the keyword.
struct Arg {
    std::string word;            // the word as typed (enum values: the full name)
    uint64_t num = 0;            // numbers, durations (ns), Q16 values, index I
    uint64_t num2 = 0;           // index ranges: J (== I for a single index)
    std::vector<uint8_t> bytes;  // EV values (big-endian) and GIDs
    uint8_t port = 0;            // VALUE@PORT, 0 when not given
    std::vector<uint64_t> list;  // W[,W...] and W:INIT:MIN:MAX:MASK
};

enum class Action {
    Help,     // print help_text
    Version,  // mrc-ip -V
    Batch,    // run options.batch
    Run,      // object/command with args
};

struct Command {
    Options options;
    Action action = Action::Help;
    std::string help_text;  // Action::Help
    std::string object;     // canonical: dev, port, evfmt, evprofile, ...
    std::string command;    // canonical: show, set, add, del, ... ("" for monitor/probe)
    // Keyword (canonical) -> values in order given; flags have one empty Arg.
    std::multimap<std::string, Arg> args;

    bool has(const std::string& key) const { return args.count(key) != 0; }
    const Arg* get(const std::string& key) const;
    std::vector<const Arg*> all(const std::string& key) const;
};

struct ParseError {
    std::string message;  // names the offending word; no program prefix
};

using ParseResult = std::variant<Command, ParseError>;

// Parses the arguments after the program name (options included).
ParseResult parse_command_line(const std::vector<std::string>& args);

// Parses OBJECT COMMAND ... with the given options (a batch file's line).
ParseResult parse_object(const Options& options, const std::vector<std::string>& words);

// The top-level usage text.
const std::string& usage_text();

// Matches word against candidates by unique prefix (exact match wins);
// aliases map to a canonical name in canon (same index), or to themselves.
// Returns the canonical name, or ParseError naming the word and, when it is
// ambiguous, the candidates.
std::variant<std::string, ParseError> match_word(const std::string& what, const std::string& word,
                                                 const std::vector<std::string>& candidates,
                                                 const std::vector<std::string>& canon = {});

// Numbers: decimal or 0x hex, at most max.
std::optional<uint64_t> parse_number(const std::string& s, uint64_t max = UINT64_MAX);
// Groups: a number (as parse_number) or a group name, its gid; at most max.
std::optional<uint64_t> parse_group(const std::string& s, uint64_t max);
// Durations: a number followed by ns, us, ms or s; nanoseconds.
std::optional<uint64_t> parse_duration(const std::string& s);
// EV values: 0x-hex (4 bytes) or IPv6 notation (16 bytes), big-endian.
std::optional<std::vector<uint8_t>> parse_ev_value(const std::string& s);

// Splits a batch line into words; "#" starts a comment; quotes group.
std::optional<std::vector<std::string>> split_line(const std::string& line);

}  // namespace mrc_ip

#endif  // MRC_IP_CMDLINE_H
