// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Command-line parsing shared by the client/server test programs
// (mrc-stream, mrc-qp-scale): "PROG server|client --option value...".
#ifndef MRC_SELFTESTS_PROG_ARGS_H
#define MRC_SELFTESTS_PROG_ARGS_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mrc_prog {

// A whole unsigned number in lo..hi (decimal, or 0x hex); no sign.
inline bool parse_u64(const char* s, uint64_t lo, uint64_t hi, uint64_t* out) {
    if (!s || !*s || *s == '-')
        return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

// Option @opt's value as a number in lo..hi; on failure says so on
// stderr, naming the program, the option and the value.
inline bool parse_number(const char* prog, const std::string& opt, const char* val, uint64_t lo,
                         uint64_t hi, uint64_t* out) {
    if (parse_u64(val, lo, hi, out))
        return true;
    std::fprintf(stderr, "%s: %s needs a number in %llu..%llu, not \"%s\"\n", prog, opt.c_str(),
                 static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi),
                 val ? val : "");
    return false;
}

// argv[1], the mode: 0 with *server set, 2 on a usage error (said on
// stderr), -1 after --help (usage on stdout).
inline int parse_mode(int argc, char** argv, const char* prog, void (*usage)(FILE*), bool* server) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    std::string mode = argv[1];
    if (mode == "--help" || mode == "-h") {
        usage(stdout);
        return -1;
    }
    if (mode != "server" && mode != "client") {
        std::fprintf(stderr, "%s: mode must be server or client, not \"%s\"\n", prog, mode.c_str());
        return 2;
    }
    *server = mode == "server";
    return 0;
}

}  // namespace mrc_prog

#endif  // MRC_SELFTESTS_PROG_ARGS_H
