// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check: checks RC verbs between two RDMA devices from one process.
// Both devices are opened here (their netdevs may live in different network
// namespaces); for every scenario a fresh QP on A is connected straight to a
// fresh QP on B, without a side channel. Prints `ok NAME` or
// `not ok NAME: reason` per scenario and exits 1 if any failed.

#include "rc_check_harness.h"
#include "rc_check_scenarios.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace rc_check;

using ScenarioFn = Err (*)(Env&, Rng&);

struct Scenario {
    const char* name;
    ScenarioFn fn;
    bool in_all;
};

const Scenario kScenarios[] = {
    {"write", scenario_write, true},
    {"write-imm", scenario_write_imm, true},
    {"send", scenario_send, true},
    {"send-multi-sge", scenario_send_multi_sge, true},
    {"reported-max-sge", scenario_reported_max_sge, true},
    {"read", scenario_read, true},
    {"read-large", scenario_read_large, true},
    {"atomic", scenario_atomic, true},
    {"order", scenario_order, true},
    {"many", scenario_many, true},
    {"bad-rkey", scenario_bad_rkey, true},
    {"out-of-bounds", scenario_out_of_bounds, true},
    {"no-remote-write", scenario_no_remote_write, true},
    {"recv-too-small", scenario_recv_too_small, true},
    {"send-inv-bad-key", scenario_send_inv_bad_key, true},
    {"dereg-in-flight", scenario_dereg_in_flight, true},
    {"ud-send", scenario_ud_send, true},
    {"ud-srq", scenario_ud_srq, true},
    {"mw-type2", scenario_mw_type2, true},
    {"mw-type1", scenario_mw_type1, true},
    {"mw-send-inv", scenario_mw_send_inv, true},
    {"mw-bind-err", scenario_mw_bind_err, true},
    {"uc", scenario_uc, true},
    {"uc-srq", scenario_uc_srq, true},
    {"rnr-wait", scenario_rnr_wait, true},
    {"rnr-retry-exceeded", scenario_rnr_retry_exceeded, true},
    {"rnr-rq-one", scenario_rnr_rq_one, true},
    {"caps-send", scenario_caps_send, true},
    {"caps-recv", scenario_caps_recv, true},
    {"caps-srq", scenario_caps_srq, true},
    {"caps-zero-depth", scenario_caps_zero_depth, true},
    {"raw-send-reserved", scenario_raw_send_reserved, true},
    {"raw-send-flags", scenario_raw_send_flags, true},
    {"reserved-qpn", scenario_reserved_qpn, true},
    {"modify-driver-input", scenario_modify_driver_input, true},
    {"retry-exceeded", scenario_retry_exceeded, false},
    {"trimmed-write", scenario_trimmed_write, false},
    {"train-bounds", scenario_train_bounds, false},
    {"short-send", scenario_short_send, false},
    {"duplicate-send", scenario_duplicate_send, false},
    {"srq-flush-taken", scenario_srq_flush_taken, false},
};

void usage(FILE* f) {
    std::fprintf(f,
                 "usage: mrc-rc-check --dev-a DEV --dev-b DEV [options] SCENARIO...\n"
                 "       mrc-rc-check --list\n"
                 "\n"
                 "  --dev-a DEV, --dev-b DEV  the two RDMA devices (port 1 of each)\n"
                 "  --gid-a N, --gid-b N      GID index on each device (default 1)\n"
                 "  --timeout N               QP local ACK timeout, 0-31 (default 14)\n"
                 "  --retry-cnt N             QP retry count, 0-7 (default 7)\n"
                 "  --wait-ms N               deadline for each completion (default 20000)\n"
                 "  --seed N                  payload/PSN seed (default: random, printed)\n"
                 "  --wait-file PATH          retry-exceeded, trimmed-write, train-bounds,\n"
                 "                            short-send, duplicate-send, srq-flush-taken:\n"
                 "                            go when\n"
                 "                            PATH exists\n"
                 "                            (default: go on a line read from stdin)\n"
                 "  --go-ms N                 retry-exceeded: how long to wait to go\n"
                 "                            (default 300000)\n"
                 "  --verbose                 print GIDs, QPNs and PSNs as # comments\n"
                 "  --list                    print the scenario names\n"
                 "\n"
                 "SCENARIO is a name from --list or `all` (every one but retry-exceeded,\n"
                 "trimmed-write, train-bounds, short-send, duplicate-send and srq-flush-taken,\n"
                 "which need\n"
                 "the test script to act when they wait).\n");
}

bool parse_num(const char* s, unsigned long long max, unsigned long long* out) {
    if (!s || !*s)
        return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end || v > max || *s == '-')
        return false;
    *out = v;
    return true;
}

const Scenario* find(const std::string& name) {
    for (const Scenario& s : kScenarios)
        if (name == s.name)
            return &s;
    return nullptr;
}

uint64_t name_hash(const char* s) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (; *s; s++)
        h = (h ^ static_cast<unsigned char>(*s)) * 0x100000001b3ULL;
    return h;
}

// Returns 0 to run, 2 on a usage error, -1 after --list/--help.
int parse_args(int argc, char** argv, Options* opt, std::vector<const Scenario*>* run) {
    bool have_seed = false;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : nullptr;
        unsigned long long n = 0;
        auto num = [&](unsigned long long max) {
            if (!parse_num(val, max, &n)) {
                std::fprintf(stderr, "mrc-rc-check: %s needs a number up to %llu\n", arg.c_str(),
                             max);
                return false;
            }
            i++;
            return true;
        };
        auto str = [&](std::string* out) {
            if (!val) {
                std::fprintf(stderr, "mrc-rc-check: %s needs a value\n", arg.c_str());
                return false;
            }
            *out = val;
            i++;
            return true;
        };
        bool ok = true;
        if (arg == "--list") {
            for (const Scenario& s : kScenarios)
                std::printf("%s\n", s.name);
            return -1;
        } else if (arg == "--help" || arg == "-h") {
            usage(stdout);
            return -1;
        } else if (arg == "--verbose" || arg == "-v") {
            opt->verbose = true;
        } else if (arg == "--dev-a") {
            ok = str(&opt->dev_a);
        } else if (arg == "--dev-b") {
            ok = str(&opt->dev_b);
        } else if (arg == "--wait-file") {
            ok = str(&opt->wait_file);
        } else if (arg == "--gid-a") {
            ok = num(255);
            opt->gid_a = static_cast<int>(n);
        } else if (arg == "--gid-b") {
            ok = num(255);
            opt->gid_b = static_cast<int>(n);
        } else if (arg == "--timeout") {
            ok = num(31);
            opt->timeout = static_cast<uint8_t>(n);
        } else if (arg == "--retry-cnt") {
            ok = num(7);
            opt->retry_cnt = static_cast<uint8_t>(n);
        } else if (arg == "--wait-ms") {
            ok = num(24 * 3600 * 1000);
            opt->wait_ms = static_cast<int>(n);
        } else if (arg == "--go-ms") {
            ok = num(24 * 3600 * 1000);
            opt->go_ms = static_cast<int>(n);
        } else if (arg == "--seed") {
            ok = have_seed = num(~0ULL);
            opt->seed = n;
        } else if (arg.rfind("-", 0) == 0) {
            std::fprintf(stderr, "mrc-rc-check: unknown option %s\n", arg.c_str());
            ok = false;
        } else if (arg == "all") {
            for (const Scenario& s : kScenarios)
                if (s.in_all)
                    run->push_back(&s);
        } else if (const Scenario* s = find(arg)) {
            run->push_back(s);
        } else {
            std::fprintf(stderr, "mrc-rc-check: unknown scenario %s (see --list)\n", arg.c_str());
            ok = false;
        }
        if (!ok)
            return 2;
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
    Err setup = open_device(env.opt.dev_a, env.opt.gid_a, &env.a);
    if (!setup)
        setup = open_device(env.opt.dev_b, env.opt.gid_b, &env.b);
    if (setup) {
        for (const Scenario* s : run)
            std::printf("not ok %s: %s\n", s->name, setup->c_str());
        return 1;
    }
    if (env.opt.verbose)
        std::printf("# A %s port %s gid[%d] %s, B %s port %s gid[%d] %s\n", env.a.name.c_str(),
                    ibv_port_state_str(env.a.port.state), env.a.gid_index,
                    gid_str(env.a.gid).c_str(), env.b.name.c_str(),
                    ibv_port_state_str(env.b.port.state), env.b.gid_index,
                    gid_str(env.b.gid).c_str());

    int failed = 0;
    for (const Scenario* s : run) {
        Rng rng(mix(env.opt.seed, name_hash(s->name)));
        if (Err err = s->fn(env, rng)) {
            std::printf("not ok %s: %s\n", s->name, err->c_str());
            failed++;
        } else {
            std::printf("ok %s\n", s->name);
        }
    }
    return failed ? 1 : 0;
}
