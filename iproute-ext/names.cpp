// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "names.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>

#include "mrc-genl.h"

namespace mrc_ip {
namespace {

std::string name_of(uint8_t v, std::initializer_list<const char*> names) {
    if (v < names.size()) {
        return names.begin()[v];
    }
    return "unknown(" + std::to_string(v) + ")";
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

std::string prof_state_name(uint8_t v) {
    return name_of(v, {"init", "offline", "online"});
}
std::string fmt_mode_name(uint8_t v) {
    return name_of(v, {"stev", "srv6", "udp"});
}
std::string ev_mode_name(uint8_t v) {
    return name_of(v, {"auto", "explicit", "generated"});
}
std::string ev_state_name(uint8_t v) {
    if (v == MRC_GENL_EV_UNKNOWN) {
        return "unknown";
    }
    return name_of(v, {"good", "assumed_bad", "denied"});
}
std::string ev_reason_name(uint8_t v) {
    return name_of(v, {"loss_gap", "loss_sack", "loss_read", "loss_timeout", "probe_ok", "readmit",
                       "admin_deny", "admin_undeny", "loss_undone", "loss_probe"});
}
std::string access_name(uint8_t v) {
    return name_of(v, {"if-default", "open", "admin", "group"});
}
std::string stat_name(int type) {
    static const char* const names[] = {"",
                                        "",
                                        "tx_pkts",
                                        "tx_bytes",
                                        "tx_data_bytes",
                                        "retx",
                                        "retx_bytes",
                                        "tx_acks",
                                        "tx_probes",
                                        "probe_replies",
                                        "rx_pkts",
                                        "rx_bytes",
                                        "delivered",
                                        "loss_gap",
                                        "loss_sack",
                                        "loss_read",
                                        "loss_timeout",
                                        "ecn",
                                        "trims",
                                        "qdelay_penalties",
                                        "state_changes",
                                        "loss_probe"};
    if (type > 1 && type < static_cast<int>(sizeof(names) / sizeof(names[0]))) {
        return names[type];
    }
    return "stat" + std::to_string(type);
}
std::string cc_param_name(int type) {
    static const char* const names[] = {
        "",         "disable-qa",   "adjust-bytes", "adjust-period", "base-rtt",
        "eta",      "fi",           "fi-scale",     "gamma",         "max-md-jump",
        "max-cwnd", "qa-gate",      "qa-threshold", "target-delay",  "init-pkts",
        "min-pkts", "qdelay-target"};
    if (type > 0 && type < static_cast<int>(sizeof(names) / sizeof(names[0]))) {
        return names[type];
    }
    return "param" + std::to_string(type);
}

std::string ev_value_text(const std::vector<uint8_t>& v) {
    if (v.size() == 16 || v.size() == 32) {
        // SRv6 segments, as `encap seg6 segs A,B` writes them.
        std::string s;
        char buf[INET6_ADDRSTRLEN];
        for (std::size_t off = 0; off < v.size(); off += 16) {
            if (inet_ntop(AF_INET6, v.data() + off, buf, sizeof(buf)) == nullptr) {
                s.clear();
                break;
            }
            s += (off ? "," : "") + std::string(buf);
        }
        if (!s.empty()) {
            return s;
        }
    }
    std::string s = "0x";
    char hex[3];
    for (uint8_t b : v) {
        std::snprintf(hex, sizeof(hex), "%02x", b);
        s += hex;
    }
    return s;
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

void sort_devices(std::vector<MrcDevice>& devices) {
    std::stable_sort(devices.begin(), devices.end(), [](const MrcDevice& a, const MrcDevice& b) {
        return natural_less(a.name, b.name);
    });
}

}  // namespace mrc_ip
