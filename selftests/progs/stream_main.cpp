// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream: streams RDMA WRITEs over one RC QP between two hosts and
// reports goodput over time. Works on any verbs device (mrc, rxe). The
// server registers a buffer and waits; the client connects to it over TCP
// (like perftest), keeps --outstanding WRITEs of --size bytes in flight for
// --seconds, times every completion and prints one JSON object (see
// stream_report.h). Any error completion ends the run with exit status 1.
// When it starts posting, the client says so on stderr ("mrc-stream client:
// streaming ..."), so that a script can time an event from the start.

#include "prog_args.h"
#include "stream_conn.h"
#include "stream_qp.h"
#include "stream_report.h"
#include "stream_stats.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

using namespace mrc_stream;
using rc_check::fail;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxBuf = size_t{256} << 20;

struct Options {
    bool server = false;
    std::string dev;
    int gid = -1;
    std::string host;
    uint16_t port = 18515;
    uint64_t size = 65536;
    uint32_t outstanding = 16;
    double seconds = 10;
    uint64_t writes = 0;  // 0: as many as --seconds allows
    uint8_t timeout = 14;
    uint8_t retry_cnt = 7;
    uint32_t bin_ms = 100;
    bool busy = false;
    int connect_wait_ms = 30000;
    int stall_ms = 60000;
    int wait_s = 600;
    std::string go_file;  // once connected, wait for this file to exist
};

void usage(FILE* f) {
    std::fprintf(
        f,
        "usage: mrc-stream server --dev DEV --gid N [options]\n"
        "       mrc-stream client --dev DEV --gid N --host HOST [options]\n"
        "\n"
        "  --dev DEV            RDMA device (port 1), e.g. mrc0 or rxe0\n"
        "  --gid N              GID index of the local address (RoCE v2)\n"
        "  --host HOST          client: the server's address for the TCP exchange\n"
        "  --port N             TCP port of the exchange (default 18515)\n"
        "  --size BYTES         bytes per RDMA WRITE (default 65536)\n"
        "  --outstanding N      WRITEs in flight (default 16); the server's buffer\n"
        "                       is size * outstanding, so give both the same\n"
        "  --seconds S          client: how long to post WRITEs (default 10)\n"
        "  --writes N           client: post N WRITEs at most, then wait for them\n"
        "                       (one message of N * size bytes; default: no limit)\n"
        "  --timeout T          QP local ACK timeout attribute, 0-31 (default 14)\n"
        "  --retry-cnt N        QP retry count, 0-7 (default 7)\n"
        "  --bin-ms N           client: width of the goodput bins (default 100)\n"
        "  --busy               spin on the CQ instead of waiting for events\n"
        "  --connect-wait-s S   client: retry a refused connection (default 30)\n"
        "  --stall-ms N         fail after N ms without a completion (default 60000)\n"
        "  --wait-s S           server: how long to wait for the client; client: for\n"
        "                       --go-file (default 600)\n"
        "  --go-file PATH       client: once connected, say so and wait (at most\n"
        "                       --wait-s) until PATH exists (streams started together)\n");
}

bool parse_seconds(const char* s, double* out) {
    if (!s || !*s)
        return false;
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s, &end);
    if (errno || *end || !(v > 0) || v > 3600)
        return false;
    *out = v;
    return true;
}

// Says on stderr that the client is connected, then waits until @path
// exists, polling every 10 ms, at most @wait_s seconds.
Err wait_for_go(const std::string& path, int wait_s) {
    std::fprintf(stderr, "mrc-stream client: connected, waiting for %s\n", path.c_str());
    auto end = Clock::now() + std::chrono::seconds(wait_s);
    while (access(path.c_str(), F_OK) != 0) {
        if (Clock::now() >= end)
            return fail("%s did not appear within %d s", path.c_str(), wait_s);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

// Returns 0 to run, 2 on a usage error, -1 after --help.
int parse_args(int argc, char** argv, Options* o) {
    int rc = mrc_prog::parse_mode(argc, argv, "mrc-stream", usage, &o->server);
    if (rc)
        return rc;
    for (int i = 2; i < argc; i++) {
        std::string arg = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : nullptr;
        uint64_t n = 0;
        auto num = [&](uint64_t lo, uint64_t hi) {
            if (!mrc_prog::parse_number("mrc-stream", arg, val, lo, hi, &n))
                return false;
            i++;
            return true;
        };
        bool ok = true;
        if (arg == "--dev" || arg == "--host") {
            ok = val != nullptr;
            if (ok)
                (arg == "--dev" ? o->dev : o->host) = val;
            i++;
        } else if (arg == "--gid") {
            ok = num(0, 255) && (o->gid = static_cast<int>(n), true);
        } else if (arg == "--port") {
            ok = num(1, 65535) && (o->port = static_cast<uint16_t>(n), true);
        } else if (arg == "--size") {
            ok = num(1, kMaxBuf) && (o->size = n, true);
        } else if (arg == "--outstanding") {
            ok = num(1, 4096) && (o->outstanding = static_cast<uint32_t>(n), true);
        } else if (arg == "--seconds") {
            ok = parse_seconds(val, &o->seconds);
            if (!ok)
                std::fprintf(stderr, "mrc-stream: --seconds needs a duration in (0, 3600]\n");
            i++;
        } else if (arg == "--writes") {
            ok = num(1, UINT32_MAX) && (o->writes = n, true);
        } else if (arg == "--timeout") {
            ok = num(0, 31) && (o->timeout = static_cast<uint8_t>(n), true);
        } else if (arg == "--retry-cnt") {
            ok = num(0, 7) && (o->retry_cnt = static_cast<uint8_t>(n), true);
        } else if (arg == "--bin-ms") {
            ok = num(1, 60000) && (o->bin_ms = static_cast<uint32_t>(n), true);
        } else if (arg == "--busy") {
            o->busy = true;
        } else if (arg == "--connect-wait-s") {
            ok = num(0, 3600) && (o->connect_wait_ms = static_cast<int>(n * 1000), true);
        } else if (arg == "--stall-ms") {
            ok = num(1, 3600000) && (o->stall_ms = static_cast<int>(n), true);
        } else if (arg == "--wait-s") {
            ok = num(1, 86400) && (o->wait_s = static_cast<int>(n), true);
        } else if (arg == "--go-file") {
            ok = val != nullptr && *val;
            if (ok)
                o->go_file = val;
            i++;
        } else {
            std::fprintf(stderr, "mrc-stream: unknown option \"%s\"\n", arg.c_str());
            ok = false;
        }
        if (!ok) {
            if (val == nullptr)
                std::fprintf(stderr, "mrc-stream: %s needs a value\n", arg.c_str());
            return 2;
        }
    }
    if (o->dev.empty() || o->gid < 0 || (!o->server && o->host.empty())) {
        std::fprintf(stderr, "mrc-stream: --dev and --gid are required%s\n",
                     o->server ? "" : ", and --host for the client");
        return 2;
    }
    if (o->size * o->outstanding > kMaxBuf) {
        std::fprintf(stderr, "mrc-stream: --size %llu * --outstanding %u is over %zu bytes\n",
                     static_cast<unsigned long long>(o->size), o->outstanding, kMaxBuf);
        return 2;
    }
    return 0;
}

Err setup(const Options& o, Fd* conn, StreamQp* qp, PeerInfo* peer) {
    QpConfig cfg;
    cfg.dev = o.dev;
    cfg.gid_index = o.gid;
    cfg.buf_len = o.size * o.outstanding;
    cfg.depth = o.outstanding;
    cfg.events = !o.busy;
    cfg.timeout = o.timeout;
    cfg.retry_cnt = o.retry_cnt;
    if (auto err = qp->open(cfg))
        return err;
    if (o.server) {
        if (auto err = accept_one(o.port, o.wait_s * 1000, conn))
            return err;
    } else if (auto err = connect_to(o.host, o.port, o.connect_wait_ms, conn)) {
        return err;
    }
    if (auto err = exchange(*conn, qp->local(), 30000, peer))
        return err;
    return rc_check::in("connecting the QP", qp->connect(*peer));
}

Err run_server(const Options& o) {
    Fd conn;
    StreamQp qp;
    PeerInfo peer;
    if (auto err = setup(o, &conn, &qp, &peer))
        return err;
    // The client's WRITEs raise no completion here; keep the QP until the
    // client says it is done.
    if (auto err = wait_done(conn, o.wait_s * 1000))
        return err;
    std::printf("{\"role\":\"server\",\"device\":%s,\"ok\":true}\n", json_quote(o.dev).c_str());
    return std::nullopt;
}

Err stream(const Options& o, StreamQp& qp, const PeerInfo& peer, StreamStats* stats,
           RunInfo* run) {
    uint64_t slots = peer.len / o.size;
    if (slots == 0)
        return fail("the server's buffer of %u bytes is smaller than --size %llu", peer.len,
                    static_cast<unsigned long long>(o.size));
    // Scripts wait for this line to time an event (a path failing) from
    // the start of the stream.
    std::fprintf(stderr, "mrc-stream client: streaming %llu-byte WRITEs, %u outstanding, for %g s\n",
                 static_cast<unsigned long long>(o.size), o.outstanding, o.seconds);
    auto t0 = Clock::now();
    run->start_realtime =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    auto end = t0 + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(o.seconds));
    uint64_t posted = 0, done = 0;
    std::vector<ibv_wc> wc(16);
    for (;;) {
        bool posting = Clock::now() < end && (o.writes == 0 || posted < o.writes);
        while (posting && posted - done < o.outstanding) {
            uint64_t slot = posted % slots;
            if (auto err = qp.post_write(posted, (posted % o.outstanding) * o.size, o.size,
                                         peer.addr + slot * o.size, peer.rkey))
                return err;
            posted++;
        }
        if (posted == done)
            return std::nullopt;
        int n = 0;
        Err err = qp.poll(wc.data(), static_cast<int>(wc.size()), o.stall_ms, &n);
        auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
        if (err)
            return fail("%s, %.3f s into the stream, after %llu of %llu WRITEs completed",
                        err->c_str(), t / 1e9, static_cast<unsigned long long>(done),
                        static_cast<unsigned long long>(posted));
        for (int i = 0; i < n; i++)
            stats->add(static_cast<uint64_t>(t), o.size);
        done += static_cast<uint64_t>(n);
    }
}

Err run_client(const Options& o) {
    Fd conn;
    StreamQp qp;
    PeerInfo peer;
    if (auto err = setup(o, &conn, &qp, &peer))
        return err;
    StreamStats stats(uint64_t{o.bin_ms} * 1000000);
    RunInfo run;
    run.device = o.dev;
    run.size = o.size;
    run.outstanding = o.outstanding;
    run.timeout = o.timeout;
    run.retry_cnt = o.retry_cnt;
    run.duration_s = o.seconds;
    if (!o.go_file.empty())
        if (auto err = wait_for_go(o.go_file, o.wait_s))
            return err;
    if (auto err = stream(o, qp, peer, &stats, &run))
        return err;
    if (auto err = send_done(conn))
        return err;
    std::printf("%s\n", report_json(run, stats).c_str());
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    Err err = o.server ? run_server(o) : run_client(o);
    if (err) {
        std::fprintf(stderr, "mrc-stream %s on %s: %s\n", o.server ? "server" : "client",
                     o.dev.c_str(), err->c_str());
        return 1;
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}
