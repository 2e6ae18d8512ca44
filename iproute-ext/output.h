// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Printers of mrc-ip. Every object is first turned into a Record, an ordered
// list of (key, value) pairs: the one key table that both the text and the
// JSON printers read, so -j carries exactly the text's keys.
#ifndef MRC_IP_OUTPUT_H
#define MRC_IP_OUTPUT_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "names.h"

namespace mrc_ip {

using Value = std::variant<std::string, uint64_t>;

struct Record {
    // Text prints this key's value first as "VALUE:" (ip's "mrc0:" heading).
    std::string heading_key;
    std::vector<std::pair<std::string, Value>> fields;

    void add(const std::string& key, Value v) { fields.emplace_back(key, std::move(v)); }
};

struct OutputOptions {
    bool json = false;
    bool pretty = false;
    int stats = 0;
    bool details = false;
};

Record device_record(const MrcDevice& d, bool details);
Record port_record(const MrcDevice& d);
Record evfmt_record(const EvFmt& f);
Record evprof_record(const EvProf& p);
Record ccprof_record(const CcProf& c);
// One row of an EV table; stats 1 adds the common counters, 2 all of them.
Record ev_record(const EvEntry& e, int stats);
Record event_record(const EvEvent& e);
Record probe_record(const ProbeAnswer& p);
// A QP's congestion control state (mrc-ip qp show).
Record qp_cc_record(const QpCc& cc);

// How the printers write a string value (names come from the kernel as
// bytes): valid UTF-8 as it is, but a backslash as two and a byte that is
// not part of valid UTF-8 as \xNN, so the bytes can be read back and JSON
// never meets invalid UTF-8. Text also writes control characters and the
// space as \xNN, byte by byte: a value stays one word and cannot move the
// terminal's cursor. mrc-ip(8), "NAMES IN OUTPUT", documents it.
enum class Escape { json, text };
std::string escaped(const std::string& s, Escape how);

nlohmann::ordered_json to_json(const Record& r);

// Objects: one line each ("key value ..."), or a JSON array.
void print_records(std::ostream& out, const std::vector<Record>& recs, const OutputOptions& o);
// An EV table: aligned columns under a header line, or a JSON array.
void print_table(std::ostream& out, const std::vector<Record>& rows, const OutputOptions& o);
// A JSON value as the printers write one (-p: indented).
void print_json(std::ostream& out, const nlohmann::ordered_json& j, bool pretty);
// One record as one line of text or JSON, flushed (monitor).
void print_line(std::ostream& out, const Record& r, bool json);

}  // namespace mrc_ip

#endif  // MRC_IP_OUTPUT_H
