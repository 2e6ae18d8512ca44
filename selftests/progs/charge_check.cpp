// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-charge-check DEV KIND COUNT: creates COUNT objects of KIND on DEV and
// prints how much the memory cgroup of this process grew meanwhile, so a
// VM test can check that the kernel charges what the objects cost to the
// cgroup of the program that made them (issue 17: GFP_KERNEL_ACCOUNT and
// accounted ring memory).
//
//   cq       CQs of the largest depth the device allows
//   srq-qp   RC QPs of 1 send WQE, all on one SRQ of max_sge 1
//   rq-qp    RC QPs of 1 send and 1 receive WQE of 1 SGE each
//
// Output: "created N KIND, memory.current +B bytes, B/N per object", or
// "failed after N: <errno text>" (exit 1).

#include "rc_check_harness.h"

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

struct DeviceListDeleter {
    void operator()(ibv_device** list) const { ibv_free_device_list(list); }
};

using rc_check::Context;
using rc_check::Cq;
using rc_check::Pd;
using rc_check::Qp;
using rc_check::Srq;

// memory.current of this process's cgroup (v2), or -1.
long long cgroup_memory() {
    std::ifstream self("/proc/self/cgroup");
    std::string line;
    while (std::getline(self, line)) {
        if (line.rfind("0::", 0) != 0)
            continue;
        std::ifstream cur("/sys/fs/cgroup" + line.substr(3) + "/memory.current");
        long long v = -1;
        if (cur >> v)
            return v;
    }
    return -1;
}

Context open_device(const char* name) {
    std::unique_ptr<ibv_device*, DeviceListDeleter> list(ibv_get_device_list(nullptr));
    for (ibv_device** d = list.get(); d && *d; d++)
        if (std::strcmp(ibv_get_device_name(*d), name) == 0)
            return Context(ibv_open_device(*d));
    return nullptr;
}

int fail(unsigned made, const char* what) {
    std::printf("failed after %u: %s: %s\n", made, what, std::strerror(errno));
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: mrc-charge-check DEV cq|srq-qp|rq-qp COUNT\n");
        return 2;
    }
    const std::string kind = argv[2];
    const unsigned count = static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10));
    if ((kind != "cq" && kind != "srq-qp" && kind != "rq-qp") || count == 0) {
        std::fprintf(stderr, "mrc-charge-check: bad KIND '%s' or COUNT '%s'\n", argv[2], argv[3]);
        return 2;
    }
    Context ctx = open_device(argv[1]);
    if (!ctx) {
        std::printf("no device %s\n", argv[1]);
        return 1;
    }
    ibv_device_attr attr{};
    if (ibv_query_device(ctx.get(), &attr))
        return fail(0, "ibv_query_device");
    Pd pd(ibv_alloc_pd(ctx.get()));
    if (!pd)
        return fail(0, "ibv_alloc_pd");
    // Shared by the QPs: created before the first measurement.
    Cq cq(ibv_create_cq(ctx.get(), 16, nullptr, nullptr, 0));
    ibv_srq_init_attr sattr{};
    sattr.attr.max_wr = 16;
    sattr.attr.max_sge = 1;
    Srq srq(ibv_create_srq(pd.get(), &sattr));
    if (!cq || !srq)
        return fail(0, "the shared CQ and SRQ");

    std::vector<Cq> cqs;
    std::vector<Qp> qps;
    const long long before = cgroup_memory();
    for (unsigned i = 0; i < count; i++) {
        if (kind == "cq") {
            Cq c(ibv_create_cq(ctx.get(), attr.max_cqe, nullptr, nullptr, 0));
            if (!c)
                return fail(i, "ibv_create_cq");
            cqs.push_back(std::move(c));
        } else {
            ibv_qp_init_attr qattr{};
            qattr.send_cq = cq.get();
            qattr.recv_cq = cq.get();
            qattr.qp_type = IBV_QPT_RC;
            qattr.cap.max_send_wr = 1;
            qattr.cap.max_send_sge = 1;
            if (kind == "srq-qp") {
                qattr.srq = srq.get();
            } else {
                qattr.cap.max_recv_wr = 1;
                qattr.cap.max_recv_sge = 1;
            }
            Qp q(ibv_create_qp(pd.get(), &qattr));
            if (!q)
                return fail(i, "ibv_create_qp");
            qps.push_back(std::move(q));
        }
    }
    const long long after = cgroup_memory();
    if (before < 0 || after < 0) {
        std::printf("created %u %s, memory.current unreadable\n", count, kind.c_str());
        return 1;
    }
    std::printf("created %u %s, memory.current +%lld bytes, %lld per object\n", count, kind.c_str(),
                after - before, (after - before) / count);
    return 0;
}
