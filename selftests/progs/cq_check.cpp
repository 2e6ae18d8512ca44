// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-cq-check: completion queue overflow and ibv_resize_cq between two RDMA
// devices from one process, on the mrc-rc-check harness: for every scenario
// a fresh QP on A is connected straight to a fresh QP on B. Prints
// `ok NAME` or `not ok NAME: reason` per scenario and exits 1 if any failed.

#include "cq_check.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace cq_check;

struct Scenario {
    const char* name;
    Err (*fn)(Env&, Rng&);
};

const Scenario kScenarios[] = {
    {"overflow-send", scenario_overflow_send},
    {"overflow-recv", scenario_overflow_recv},
    {"resize-grow", scenario_resize_grow},
    {"resize-shrink", scenario_resize_shrink},
    {"resize-below-pending", scenario_resize_below_pending},
    {"resize-in-flight", scenario_resize_in_flight},
    {"resize-map-fails", scenario_resize_map_fails},
};

void usage(FILE* f) {
    std::fprintf(f,
                 "usage: mrc-cq-check --dev-a DEV --dev-b DEV [options] SCENARIO...\n"
                 "       mrc-cq-check --list\n"
                 "\n"
                 "  --dev-a DEV, --dev-b DEV  the two RDMA devices (port 1 of each)\n"
                 "  --gid-a N, --gid-b N      GID index on each device (default 1)\n"
                 "  --wait-ms N               deadline for each completion or event\n"
                 "                            (default 20000)\n"
                 "  --seed N                  payload/PSN seed (default: random, printed)\n"
                 "  --list                    print the scenario names\n"
                 "\n"
                 "SCENARIO is a name from --list or `all`.\n");
}

uint64_t name_hash(const char* s) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (; *s; s++)
        h = (h ^ static_cast<unsigned char>(*s)) * 0x100000001b3ULL;
    return h;
}

bool parse_num(const char* s, unsigned long long max, unsigned long long* out) {
    if (!s || !*s || *s == '-')
        return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end || v > max)
        return false;
    *out = v;
    return true;
}

// Returns 0 to run, 2 on a usage error, -1 after --list/--help.
int parse_args(int argc, char** argv, rc_check::Options* opt, std::vector<const Scenario*>* run) {
    bool have_seed = false;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : nullptr;
        unsigned long long n = 0;
        bool ok = true;
        if (arg == "--list") {
            for (const Scenario& s : kScenarios)
                std::printf("%s\n", s.name);
            return -1;
        } else if (arg == "--help" || arg == "-h") {
            usage(stdout);
            return -1;
        } else if (arg == "--dev-a" || arg == "--dev-b") {
            ok = val != nullptr;
            if (ok)
                (arg == "--dev-a" ? opt->dev_a : opt->dev_b) = val;
            i++;
        } else if (arg == "--gid-a" || arg == "--gid-b") {
            ok = parse_num(val, 255, &n);
            (arg == "--gid-a" ? opt->gid_a : opt->gid_b) = static_cast<int>(n);
            i++;
        } else if (arg == "--wait-ms") {
            ok = parse_num(val, 24 * 3600 * 1000, &n);
            opt->wait_ms = static_cast<int>(n);
            i++;
        } else if (arg == "--seed") {
            ok = have_seed = parse_num(val, ~0ULL, &n);
            opt->seed = n;
            i++;
        } else if (arg.rfind("-", 0) == 0) {
            std::fprintf(stderr, "mrc-cq-check: unknown option %s\n", arg.c_str());
            return 2;
        } else if (arg == "all") {
            for (const Scenario& s : kScenarios)
                run->push_back(&s);
        } else {
            const Scenario* found = nullptr;
            for (const Scenario& s : kScenarios)
                if (arg == s.name)
                    found = &s;
            if (!found) {
                std::fprintf(stderr, "mrc-cq-check: unknown scenario %s (see --list)\n",
                             arg.c_str());
                return 2;
            }
            run->push_back(found);
        }
        if (!ok) {
            std::fprintf(stderr, "mrc-cq-check: bad or missing value for %s\n", arg.c_str());
            return 2;
        }
    }
    if (opt->dev_a.empty() || opt->dev_b.empty() || run->empty()) {
        usage(stderr);
        return 2;
    }
    if (!have_seed) {
        std::random_device rd;
        opt->seed =
            (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
            static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Env env;
    std::vector<const Scenario*> run;
    int rc = parse_args(argc, argv, &env.opt, &run);
    if (rc)
        return rc < 0 ? 0 : rc;

    std::printf("# seed %llu\n", static_cast<unsigned long long>(env.opt.seed));
    Err setup = rc_check::open_device(env.opt.dev_a, env.opt.gid_a, &env.a);
    if (!setup)
        setup = rc_check::open_device(env.opt.dev_b, env.opt.gid_b, &env.b);
    if (setup) {
        for (const Scenario* s : run)
            std::printf("not ok %s: %s\n", s->name, setup->c_str());
        return 1;
    }

    int failed = 0;
    for (const Scenario* s : run) {
        Rng rng(rc_check::mix(env.opt.seed, name_hash(s->name)));
        if (Err err = s->fn(env, rng)) {
            std::printf("not ok %s: %s\n", s->name, err->c_str());
            failed++;
        } else {
            std::printf("ok %s\n", s->name);
        }
    }
    return failed ? 1 : 0;
}
