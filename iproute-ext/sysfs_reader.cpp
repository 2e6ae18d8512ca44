// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "sysfs_reader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <system_error>

namespace mrc_ip {
namespace fs = std::filesystem;

namespace {

// sysfs attributes are one short line; anything longer is not ours.
constexpr std::size_t kMaxAttrSize = 4096;

std::string_view trim(std::string_view s) {
    auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!s.empty() && space(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && space(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

// Contents of a regular file, or nothing if it is absent or unreadable.
std::optional<std::string> read_attr(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::string buf(kMaxAttrSize, '\0');
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.bad()) {
        return std::nullopt;
    }
    buf.resize(static_cast<std::size_t>(in.gcount()));
    return buf;
}

std::optional<std::string> non_empty(std::string_view s) {
    if (s.empty()) {
        return std::nullopt;
    }
    return std::string(s);
}

// A device name must stay inside the class directory.
bool valid_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

std::string_view digit_run(std::string_view s, std::size_t pos) {
    std::size_t end = pos;
    while (end < s.size() && is_digit(s[end])) {
        ++end;
    }
    return s.substr(pos, end - pos);
}

// Orders decimal digit strings by value; equal values order by length so
// that "1" and "01" still compare unequal.
int compare_numbers(std::string_view a, std::string_view b) {
    auto strip = [](std::string_view d) {
        std::size_t nz = d.find_first_not_of('0');
        return nz == std::string_view::npos ? std::string_view() : d.substr(nz);
    };
    std::string_view va = strip(a);
    std::string_view vb = strip(b);
    if (va.size() != vb.size()) {
        return va.size() < vb.size() ? -1 : 1;
    }
    if (int c = va.compare(vb); c != 0) {
        return c;
    }
    if (a.size() != b.size()) {
        return a.size() < b.size() ? -1 : 1;
    }
    return 0;
}

}  // namespace

std::optional<uint16_t> SysfsReader::parse_udp_port(std::string_view text) {
    text = trim(text);
    if (text.empty() || text.size() > 5) {
        return std::nullopt;
    }
    unsigned value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value == 0 || value > 65535) {
        return std::nullopt;
    }
    return static_cast<uint16_t>(value);
}

std::optional<std::string> SysfsReader::parse_port_state(std::string_view text) {
    text = trim(text);
    // The IB core prints "<number>: <NAME>"; keep the name.
    if (auto colon = text.find(':'); colon != std::string_view::npos) {
        text = trim(text.substr(colon + 1));
    }
    return non_empty(text);
}

std::optional<MrcDevice> SysfsReader::read_device(const std::string& name) const {
    const fs::path dir = class_dir() / name;
    std::optional<std::string> port = read_attr(dir / "mrc_udp_port");
    if (!port) {
        return std::nullopt;  // some other RDMA device (rxe, mlx5, ...)
    }

    MrcDevice dev;
    dev.name = name;
    dev.udp_port = parse_udp_port(*port);
    if (std::optional<std::string> parent = read_attr(dir / "parent")) {
        dev.parent = non_empty(trim(*parent));
    }
    if (std::optional<std::string> state = read_attr(dir / "ports" / "1" / "state")) {
        dev.state = parse_port_state(*state);
    }
    return dev;
}

std::vector<MrcDevice> SysfsReader::list_devices() const {
    std::vector<MrcDevice> devices;
    std::error_code ec;
    // A missing class directory simply means no RDMA devices at all.
    for (fs::directory_iterator it(class_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        if (std::optional<MrcDevice> dev = read_device(it->path().filename().string())) {
            devices.push_back(std::move(*dev));
        }
    }
    std::sort(devices.begin(), devices.end(),
              [](const MrcDevice& a, const MrcDevice& b) { return natural_less(a.name, b.name); });
    return devices;
}

std::optional<MrcDevice> SysfsReader::find_device(std::string_view name) const {
    if (!valid_name(name)) {
        return std::nullopt;
    }
    return read_device(std::string(name));
}

bool natural_less(std::string_view a, std::string_view b) {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (is_digit(a[i]) && is_digit(b[j])) {
            std::string_view da = digit_run(a, i);
            std::string_view db = digit_run(b, j);
            if (int c = compare_numbers(da, db); c != 0) {
                return c < 0;
            }
            i += da.size();
            j += db.size();
            continue;
        }
        if (a[i] != b[j]) {
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        }
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

}  // namespace mrc_ip
