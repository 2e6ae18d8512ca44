// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A small streaming JSON writer: compact output by default, 4-space indented
// output for -p. It tracks nesting itself so callers cannot emit malformed
// documents silently: misuse is recorded and reported by ok().
#ifndef MRC_IP_JSON_WRITER_H
#define MRC_IP_JSON_WRITER_H

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mrc_ip {

class JsonWriter {
public:
    JsonWriter(std::ostream& out, bool pretty) : out_(out), pretty_(pretty) {}

    void begin_object();
    void end_object();
    void begin_array();
    void end_array();

    // Inside an object every value must be preceded by its key.
    void key(std::string_view name);

    void string_value(std::string_view s);
    void int_value(int64_t v);
    void uint_value(uint64_t v);
    void bool_value(bool v);
    void null_value();

    // False once the writer was used out of order (value without key, wrong
    // closer, second top-level value...). Nothing is written for such calls.
    bool ok() const { return ok_; }
    // True when exactly one complete top-level value has been written. The
    // writer never adds a trailing newline; that is up to the caller.
    bool complete() const { return ok_ && done_ && stack_.empty(); }

    // The quoted JSON form of s. Control characters are escaped; invalid
    // UTF-8 bytes become U+FFFD so the output is always valid JSON.
    static std::string quote(std::string_view s);

private:
    enum class Kind { Object, Array };
    struct Frame {
        Kind kind;
        unsigned count = 0;     // members written so far
        bool have_key = false;  // object: key written, value pending
    };

    bool start_value();  // separators and indentation before any value
    void end(Kind kind, char closer);
    void newline_indent(std::size_t depth);

    std::ostream& out_;
    bool pretty_;
    bool ok_ = true;
    bool done_ = false;
    std::vector<Frame> stack_;
};

}  // namespace mrc_ip

#endif  // MRC_IP_JSON_WRITER_H
