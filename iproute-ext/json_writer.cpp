// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "json_writer.h"

#include <cstdio>

namespace mrc_ip {
namespace {

// Length of the well-formed UTF-8 sequence at the start of s, or 0.
std::size_t utf8_sequence_length(std::string_view s) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    auto cont = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xc0) == 0x80; };
    unsigned char b0 = byte(0);
    if (b0 < 0x80) {
        return 1;
    }
    if (b0 >= 0xc2 && b0 <= 0xdf) {
        return cont(1) ? 2 : 0;
    }
    if (b0 >= 0xe0 && b0 <= 0xef) {
        if (!cont(1) || !cont(2)) {
            return 0;
        }
        // Reject overlong forms and UTF-16 surrogates.
        if ((b0 == 0xe0 && byte(1) < 0xa0) || (b0 == 0xed && byte(1) > 0x9f)) {
            return 0;
        }
        return 3;
    }
    if (b0 >= 0xf0 && b0 <= 0xf4) {
        if (!cont(1) || !cont(2) || !cont(3)) {
            return 0;
        }
        if ((b0 == 0xf0 && byte(1) < 0x90) || (b0 == 0xf4 && byte(1) > 0x8f)) {
            return 0;
        }
        return 4;
    }
    return 0;
}

}  // namespace

std::string JsonWriter::quote(std::string_view s) {
    std::string out = "\"";
    while (!s.empty()) {
        unsigned char c = static_cast<unsigned char>(s[0]);
        std::size_t len = 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out += buf;
                } else if ((len = utf8_sequence_length(s)) != 0) {
                    out.append(s.substr(0, len));
                } else {
                    out += "\\ufffd";
                    len = 1;
                }
        }
        s.remove_prefix(len);
    }
    out += '"';
    return out;
}

void JsonWriter::newline_indent(std::size_t depth) {
    if (pretty_) {
        out_ << '\n' << std::string(depth * 4, ' ');
    }
}

bool JsonWriter::start_value() {
    if (!ok_) {
        return false;
    }
    if (stack_.empty()) {
        if (done_) {
            ok_ = false;  // a document holds a single top-level value
            return false;
        }
        done_ = true;
        return true;
    }
    Frame& top = stack_.back();
    if (top.kind == Kind::Object) {
        if (!top.have_key) {
            ok_ = false;
            return false;
        }
        top.have_key = false;
        return true;
    }
    if (top.count++ > 0) {
        out_ << ',';
    }
    newline_indent(stack_.size());
    return true;
}

void JsonWriter::key(std::string_view name) {
    if (!ok_ || stack_.empty() || stack_.back().kind != Kind::Object || stack_.back().have_key) {
        ok_ = false;
        return;
    }
    Frame& top = stack_.back();
    if (top.count++ > 0) {
        out_ << ',';
    }
    newline_indent(stack_.size());
    out_ << quote(name) << (pretty_ ? ": " : ":");
    top.have_key = true;
}

void JsonWriter::begin_object() {
    if (start_value()) {
        out_ << '{';
        stack_.push_back({Kind::Object});
    }
}

void JsonWriter::begin_array() {
    if (start_value()) {
        out_ << '[';
        stack_.push_back({Kind::Array});
    }
}

void JsonWriter::end(Kind kind, char closer) {
    if (!ok_ || stack_.empty() || stack_.back().kind != kind || stack_.back().have_key) {
        ok_ = false;
        return;
    }
    bool empty = stack_.back().count == 0;
    stack_.pop_back();
    if (!empty) {
        newline_indent(stack_.size());
    }
    out_ << closer;
}

void JsonWriter::end_object() {
    end(Kind::Object, '}');
}
void JsonWriter::end_array() {
    end(Kind::Array, ']');
}

void JsonWriter::string_value(std::string_view s) {
    if (start_value()) {
        out_ << quote(s);
    }
}

void JsonWriter::int_value(int64_t v) {
    if (start_value()) {
        out_ << v;
    }
}

void JsonWriter::uint_value(uint64_t v) {
    if (start_value()) {
        out_ << v;
    }
}

void JsonWriter::bool_value(bool v) {
    if (start_value()) {
        out_ << (v ? "true" : "false");
    }
}

void JsonWriter::null_value() {
    if (start_value()) {
        out_ << "null";
    }
}

}  // namespace mrc_ip
