// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-verbs-conform DEV GID_INDEX: calls each libibverbs verb once on
// device DEV and prints one line per verb, "verb: ok" or "verb: errno
// NAME" (and "verb: wc STATUS" where a work request's completion is what
// differs), so that verbs_conform.sh can hold MRC and rdma_rxe to one
// table (Documentation/admin-guide.rst, "Verbs"). RC QPs are connected to
// themselves through GID GID_INDEX: nothing leaves the host.
//
// Exit status: 0 when every verb was tried, 1 when the set-up failed.

#include <infiniband/verbs.h>

#include <endian.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

const char* errno_name(int err) {
    switch (err) {
        case EOPNOTSUPP:
            return "EOPNOTSUPP";
        case EINVAL:
            return "EINVAL";
        case ENOSYS:
            return "ENOSYS";
        case EPERM:
            return "EPERM";
        case EACCES:
            return "EACCES";
        case ENOMEM:
            return "ENOMEM";
        case ENOSPC:
            return "ENOSPC";
        case ENOENT:
            return "ENOENT";
        case EPROTO:
            return "EPROTO";
        case EIO:
            return "EIO";
        case EBUSY:
            return "EBUSY";
        case EFAULT:
            return "EFAULT";
        default:
            return nullptr;
    }
}

const char* wc_name(ibv_wc_status s) {
    switch (s) {
        case IBV_WC_SUCCESS:
            return "SUCCESS";
        case IBV_WC_LOC_LEN_ERR:
            return "LOC_LEN_ERR";
        case IBV_WC_LOC_QP_OP_ERR:
            return "LOC_QP_OP_ERR";
        case IBV_WC_LOC_PROT_ERR:
            return "LOC_PROT_ERR";
        case IBV_WC_WR_FLUSH_ERR:
            return "WR_FLUSH_ERR";
        case IBV_WC_MW_BIND_ERR:
            return "MW_BIND_ERR";
        case IBV_WC_REM_ACCESS_ERR:
            return "REM_ACCESS_ERR";
        case IBV_WC_REM_OP_ERR:
            return "REM_OP_ERR";
        case IBV_WC_RETRY_EXC_ERR:
            return "RETRY_EXC_ERR";
        default:
            return "OTHER";
    }
}

// One line of the table.
void report(const char* verb, int err) {
    if (err == 0) {
        std::printf("%s: ok\n", verb);
    } else if (const char* name = errno_name(err)) {
        std::printf("%s: errno %s\n", verb, name);
    } else {
        std::printf("%s: errno %d\n", verb, err);
    }
    std::fflush(stdout);
}

// For verbs that return an object or NULL with errno set.
template <typename T>
int result_of(T* obj) {
    return obj != nullptr ? 0 : (errno != 0 ? errno : -1);
}

struct Setup {
    ibv_context* ctx = nullptr;
    ibv_pd* pd = nullptr;
    ibv_mr* mr = nullptr;
    ibv_cq* cq = nullptr;
    ibv_cq_ex* cq_ex = nullptr;
    uint8_t gid_index = 0;
    union ibv_gid gid {};
    std::vector<char> buf = std::vector<char>(8192);
};

int die(const char* what) {
    std::fprintf(stderr, "mrc-verbs-conform: %s: %s\n", what, std::strerror(errno));
    return 1;
}

ibv_qp_init_attr_ex rc_attr(const Setup& s, ibv_cq* cq) {
    ibv_qp_init_attr_ex a{};
    a.qp_type = IBV_QPT_RC;
    a.send_cq = cq;
    a.recv_cq = cq;
    a.cap.max_send_wr = 8;
    a.cap.max_recv_wr = 8;
    a.cap.max_send_sge = 1;
    a.cap.max_recv_sge = 1;
    a.cap.max_inline_data = 64;
    a.comp_mask = IBV_QP_INIT_ATTR_PD;
    a.pd = s.pd;
    return a;
}

// RESET -> INIT -> RTR -> RTS, the QP's peer itself.
int connect_to_self(const Setup& s, ibv_qp* qp) {
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.port_num = 1;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                        IBV_ACCESS_REMOTE_ATOMIC;
    int ret = ibv_modify_qp(qp, &a,
                            IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (ret != 0) {
        return ret;
    }
    a = {};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = qp->qp_num;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1;
    a.ah_attr.grh.dgid = s.gid;
    a.ah_attr.grh.sgid_index = s.gid_index;
    a.ah_attr.grh.hop_limit = 64;
    a.ah_attr.port_num = 1;
    ret = ibv_modify_qp(qp, &a,
                        IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                            IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (ret != 0) {
        return ret;
    }
    a = {};
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 1;
    return ibv_modify_qp(qp, &a,
                         IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                             IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

// A plain RC QP on cq, in RTS; null (and a message) on failure.
ibv_qp* rts_qp(const Setup& s, ibv_cq* cq) {
    ibv_qp_init_attr_ex a = rc_attr(s, cq);
    ibv_qp* qp = ibv_create_qp(s.pd, reinterpret_cast<ibv_qp_init_attr*>(&a));
    if (qp == nullptr) {
        die("ibv_create_qp");
        return nullptr;
    }
    int ret = connect_to_self(s, qp);
    if (ret != 0) {
        errno = ret;
        die("ibv_modify_qp to RTS");
        ibv_destroy_qp(qp);
        return nullptr;
    }
    return qp;
}

// The status of the next completion on cq, waiting up to 3 s; -1 if none.
int next_status(ibv_cq* cq) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    ibv_wc wc{};
    while (std::chrono::steady_clock::now() < deadline) {
        int n = ibv_poll_cq(cq, 1, &wc);
        if (n < 0) {
            return -1;
        }
        if (n == 1) {
            return wc.status;
        }
    }
    return -1;
}

void report_wc(const char* verb, int status) {
    if (status < 0) {
        std::printf("%s: wc none\n", verb);
    } else if (status == IBV_WC_SUCCESS) {
        std::printf("%s: ok\n", verb);
    } else {
        std::printf("%s: wc %s\n", verb, wc_name(static_cast<ibv_wc_status>(status)));
    }
    std::fflush(stdout);
}

void report_value(const char* attr, const std::string& value) {
    std::printf("%s: %s\n", attr, value.c_str());
    std::fflush(stdout);
}

// A GUID as sysfs and ibv_devinfo print it: four groups of 4 hex digits.
std::string guid_text(__be64 guid) {
    uint64_t g = be64toh(guid);
    char text[20];
    std::snprintf(text, sizeof(text), "%04x:%04x:%04x:%04x", static_cast<unsigned>(g >> 48),
                  static_cast<unsigned>(g >> 32) & 0xffff, static_cast<unsigned>(g >> 16) & 0xffff,
                  static_cast<unsigned>(g) & 0xffff);
    return text;
}

// The first line of /sys/class/infiniband/DEV/NAME ("?" if unreadable).
std::string sysfs(const char* dev, const char* name) {
    std::ifstream in(std::string("/sys/class/infiniband/") + dev + "/" + name);
    std::string line;
    if (!in || !std::getline(in, line)) {
        return "?";
    }
    return line;
}

const char* same(bool equal) {
    return equal ? "same" : "differs";
}

const char* has(bool bit) {
    return bit ? "yes" : "no";
}

// Device attributes consumers check, one row each, held to the table like
// the verbs: ibv_query_device and ibv_query_device_ex agree, and both
// with sysfs.
void attributes(const Setup& s, const char* dev) {
    ibv_device_attr a{};
    ibv_device_attr_ex x{};
    ibv_port_attr port{};
    if (ibv_query_device(s.ctx, &a) != 0 || ibv_query_device_ex(s.ctx, nullptr, &x) != 0 ||
        ibv_query_port(s.ctx, 1, &port) != 0) {
        report("attr_query", errno);
        return;
    }
    char vendor[16];
    std::snprintf(vendor, sizeof(vendor), "0x%x", a.vendor_id);
    report_value("attr_vendor_id", vendor);
    report_value("attr_query_device_ex_orig_attr",
                 same(std::memcmp(&a, &x.orig_attr, sizeof(a)) == 0));
    report_value("attr_node_guid_sysfs", same(guid_text(a.node_guid) == sysfs(dev, "node_guid")));
    report_value("attr_sys_image_guid_sysfs",
                 same(guid_text(a.sys_image_guid) == sysfs(dev, "sys_image_guid")));
    report_value("attr_fw_ver_sysfs", same(std::string(a.fw_ver) == sysfs(dev, "fw_ver")));
    report_value("attr_cap_sys_image_guid", has(a.device_cap_flags & IBV_DEVICE_SYS_IMAGE_GUID));
    report_value("attr_cap_port_active_event",
                 has(a.device_cap_flags & IBV_DEVICE_PORT_ACTIVE_EVENT));
    report_value("attr_cap_mem_mgt_extensions",
                 has(a.device_cap_flags & IBV_DEVICE_MEM_MGT_EXTENSIONS));
    report_value("attr_cap_rc_rnr_nak_gen", has(a.device_cap_flags & IBV_DEVICE_RC_RNR_NAK_GEN));
    report_value("attr_atomic_cap_hca", has(a.atomic_cap == IBV_ATOMIC_HCA));
    report_value("attr_page_size_cap_has_page",
                 has(a.page_size_cap & static_cast<uint64_t>(sysconf(_SC_PAGESIZE))));
    report_value("attr_max_pkeys_port_table", same(a.max_pkeys == port.pkey_tbl_len));
    report_value("attr_completion_timestamp_mask", x.completion_timestamp_mask ? "set" : "0");
}

// Creation-time verbs that need no connected QP.
void resources(Setup& s) {
    ibv_device_attr_ex dev{};
    report("query_device_ex", ibv_query_device_ex(s.ctx, nullptr, &dev));

    ibv_cq_init_attr_ex ca{};
    ca.cqe = 16;
    ca.wc_flags = IBV_WC_STANDARD_FLAGS;
    errno = 0;
    s.cq_ex = ibv_create_cq_ex(s.ctx, &ca);
    report("create_cq_ex", result_of(s.cq_ex));
    ca.wc_flags = IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
    errno = 0;
    ibv_cq_ex* ts = ibv_create_cq_ex(s.ctx, &ca);
    report("create_cq_ex_timestamp", result_of(ts));
    if (ts != nullptr) {
        ibv_destroy_cq(ibv_cq_ex_to_cq(ts));
    }

    ibv_modify_cq_attr mod{};
    mod.attr_mask = IBV_CQ_ATTR_MODERATE;
    mod.moderate.cq_count = 4;
    mod.moderate.cq_period = 10;
    report("modify_cq", ibv_modify_cq(s.cq, &mod));
    report("resize_cq", ibv_resize_cq(s.cq, 32));

    errno = 0;
    int rr = ibv_rereg_mr(s.mr, IBV_REREG_MR_CHANGE_ACCESS, nullptr, nullptr, 0,
                          IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                              IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
    report("rereg_mr", rr == 0 ? 0 : errno);

    errno = 0;
    ibv_mw* mw = ibv_alloc_mw(s.pd, IBV_MW_TYPE_2);
    report("alloc_mw", result_of(mw));
    if (mw != nullptr) {
        report("dealloc_mw", ibv_dealloc_mw(mw));
    }

    ibv_alloc_dm_attr dm_attr{};
    dm_attr.length = 64;
    errno = 0;
    ibv_dm* dm = ibv_alloc_dm(s.ctx, &dm_attr);
    report("alloc_dm", result_of(dm));
    if (dm != nullptr) {
        ibv_free_dm(dm);
    }

    ibv_wq_init_attr wa{};
    wa.wq_type = IBV_WQT_RQ;
    wa.max_wr = 8;
    wa.max_sge = 1;
    wa.pd = s.pd;
    wa.cq = s.cq;
    errno = 0;
    ibv_wq* wq = ibv_create_wq(s.ctx, &wa);
    report("create_wq", result_of(wq));
    // Asked even without a WQ: neither provider looks at the table then.
    ibv_rwq_ind_table_init_attr ia{};
    ia.log_ind_tbl_size = 0;
    ia.ind_tbl = &wq;
    errno = 0;
    ibv_rwq_ind_table* ind = ibv_create_rwq_ind_table(s.ctx, &ia);
    report("create_rwq_ind_table", result_of(ind));
    if (ind != nullptr) {
        ibv_destroy_rwq_ind_table(ind);
    }
    if (wq != nullptr) {
        ibv_destroy_wq(wq);
    }

    ibv_xrcd_init_attr xa{};
    xa.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
    xa.fd = -1;
    xa.oflags = O_CREAT;
    errno = 0;
    ibv_xrcd* xrcd = ibv_open_xrcd(s.ctx, &xa);
    report("open_xrcd", result_of(xrcd));
    if (xrcd != nullptr) {
        ibv_close_xrcd(xrcd);
    }

    ibv_td_init_attr ta{};
    errno = 0;
    ibv_td* td = ibv_alloc_td(s.ctx, &ta);
    report("alloc_td", result_of(td));
    if (td != nullptr) {
        ibv_dealloc_td(td);
    }

    ibv_counters_init_attr cna{};
    errno = 0;
    ibv_counters* counters = ibv_create_counters(s.ctx, &cna);
    report("create_counters", result_of(counters));
    if (counters != nullptr) {
        ibv_destroy_counters(counters);
    }

    ibv_srq_init_attr_ex sa{};
    sa.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
    sa.srq_type = IBV_SRQT_BASIC;
    sa.pd = s.pd;
    sa.attr.max_wr = 8;
    sa.attr.max_sge = 1;
    errno = 0;
    ibv_srq* srq = ibv_create_srq_ex(s.ctx, &sa);
    report("create_srq_ex", result_of(srq));
    if (srq != nullptr) {
        ibv_destroy_srq(srq);
    }
}

// ibv_create_qp_ex with send_ops_flags ops; destroyed again.
void try_qp_ex(Setup& s, const char* verb, uint64_t ops, uint32_t create_flags = 0) {
    ibv_qp_init_attr_ex a = rc_attr(s, s.cq);
    a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    a.send_ops_flags = ops;
    if (create_flags != 0) {
        a.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
        a.create_flags = create_flags;
    }
    errno = 0;
    ibv_qp* qp = ibv_create_qp_ex(s.ctx, &a);
    report(verb, result_of(qp));
    if (qp != nullptr) {
        ibv_destroy_qp(qp);
    }
}

constexpr uint64_t kCommonRcOps =
    IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |
    IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
    IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_SEND_WITH_INV;

// The ibv_wr_* interface and the extended CQ poll on a QP connected to itself.
int extended_posting(Setup& s) {
    try_qp_ex(s, "create_qp_ex", kCommonRcOps);
    try_qp_ex(s, "create_qp_ex_bind_mw", IBV_QP_EX_WITH_BIND_MW);
    try_qp_ex(s, "create_qp_ex_atomic_write", IBV_QP_EX_WITH_ATOMIC_WRITE);
    try_qp_ex(s, "create_qp_ex_create_flags", IBV_QP_EX_WITH_SEND, IBV_QP_CREATE_SCATTER_FCS);
    if (s.cq_ex == nullptr) {
        return 0;
    }

    ibv_qp_init_attr_ex a = rc_attr(s, ibv_cq_ex_to_cq(s.cq_ex));
    a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    a.send_ops_flags = kCommonRcOps;
    ibv_qp* qp = ibv_create_qp_ex(s.ctx, &a);
    if (qp == nullptr) {
        return die("ibv_create_qp_ex");
    }
    int ret = connect_to_self(s, qp);
    if (ret != 0) {
        errno = ret;
        ibv_destroy_qp(qp);
        return die("ibv_modify_qp to RTS");
    }
    ibv_qp_ex* qpx = ibv_qp_to_qp_ex(qp);
    auto base = reinterpret_cast<uintptr_t>(s.buf.data());
    std::memset(s.buf.data(), 0x11, 64);

    ibv_wr_start(qpx);
    qpx->wr_id = 1;
    qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_write(qpx, s.mr->rkey, base + 4096);
    ibv_wr_set_sge(qpx, s.mr->lkey, base, 64);
    ret = ibv_wr_complete(qpx);
    if (ret != 0) {
        report("wr_rdma_write", ret);
    } else {
        // The completion through the extended poll.
        ibv_poll_cq_attr pa{};
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        do {
            ret = ibv_start_poll(s.cq_ex, &pa);
        } while (ret == ENOENT && std::chrono::steady_clock::now() < deadline);
        report("start_poll", ret);
        if (ret == 0) {
            int status = s.cq_ex->status;
            bool opcode_ok = ibv_wc_read_opcode(s.cq_ex) == IBV_WC_RDMA_WRITE;
            bool qpn_ok = ibv_wc_read_qp_num(s.cq_ex) == qp->qp_num;
            ibv_end_poll(s.cq_ex);
            report_wc("wr_rdma_write", status);
            report("wc_read_getters", opcode_ok && qpn_ok ? 0 : EPROTO);
        }
        bool same = std::memcmp(s.buf.data(), s.buf.data() + 4096, 64) == 0;
        report("wr_rdma_write_data", same ? 0 : EIO);
    }

    // ibv_wr_inline_data on a SEND to itself, received by a posted receive.
    ibv_sge rsge{base + 2048, 64, s.mr->lkey};
    ibv_recv_wr rwr{};
    rwr.wr_id = 2;
    rwr.sg_list = &rsge;
    rwr.num_sge = 1;
    ibv_recv_wr* bad_r = nullptr;
    char text[] = "inline";
    if (ibv_post_recv(qp, &rwr, &bad_r) == 0) {
        ibv_wr_start(qpx);
        qpx->wr_id = 3;
        // INLINE too: rxe's kernel copies inline data only with the flag.
        qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
        ibv_wr_send(qpx);
        ibv_wr_set_inline_data(qpx, text, sizeof(text));
        ret = ibv_wr_complete(qpx);
        int st1 = ret == 0 ? next_status(ibv_cq_ex_to_cq(s.cq_ex)) : -1;
        int st2 = ret == 0 ? next_status(ibv_cq_ex_to_cq(s.cq_ex)) : -1;
        if (ret != 0) {
            report("wr_send_inline", ret);
        } else {
            report_wc("wr_send_inline", st1 != IBV_WC_SUCCESS ? st1 : st2);
        }
    }

    // A session refused as a whole: more inline data than the QP allows.
    std::vector<char> big(a.cap.max_inline_data + 1, 'x');
    ibv_wr_start(qpx);
    qpx->wr_id = 4;
    qpx->wr_flags = 0;
    ibv_wr_send(qpx);
    ibv_wr_set_inline_data(qpx, big.data(), big.size());
    report("wr_complete_inline_too_long", ibv_wr_complete(qpx));

    // Last: an invalidation of a key that names no invalidatable memory.
    // It fails at completion and takes the QP to the error state.
    ibv_wr_start(qpx);
    qpx->wr_id = 5;
    qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_local_inv(qpx, s.mr->rkey);
    ret = ibv_wr_complete(qpx);
    report("wr_local_inv", ret);
    if (ret == 0) {
        report_wc("wr_local_inv_completion", next_status(ibv_cq_ex_to_cq(s.cq_ex)));
    }
    ibv_destroy_qp(qp);
    return 0;
}

// ibv_post_send's opcodes beyond the data path, each on its own QP.
int classic_posting(Setup& s) {
    ibv_qp* qp = rts_qp(s, s.cq);
    if (qp == nullptr) {
        return 1;
    }
    ibv_send_wr wr{};
    wr.wr_id = 10;
    wr.opcode = IBV_WR_LOCAL_INV;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.invalidate_rkey = s.mr->rkey;
    ibv_send_wr* bad = nullptr;
    int ret = ibv_post_send(qp, &wr, &bad);
    report("post_send_local_inv", ret);
    if (ret == 0) {
        report_wc("post_send_local_inv_completion", next_status(s.cq));
    }
    ibv_destroy_qp(qp);

    // Memory window type 1 bound by ibv_bind_mw. Without a memory window
    // (a device that has none) the provider's bind_mw is reached with a
    // stand-in: libibverbs checks only its type before calling it.
    qp = rts_qp(s, s.cq);
    if (qp == nullptr) {
        return 1;
    }
    errno = 0;
    ibv_mw* mw = ibv_alloc_mw(s.pd, IBV_MW_TYPE_1);
    report("alloc_mw_type1", result_of(mw));
    ibv_mw stand_in{};
    stand_in.context = s.ctx;
    stand_in.pd = s.pd;
    stand_in.type = IBV_MW_TYPE_1;
    ibv_mw_bind bind{};
    bind.wr_id = 11;
    bind.send_flags = IBV_SEND_SIGNALED;
    bind.bind_info.mr = s.mr;
    bind.bind_info.addr = reinterpret_cast<uintptr_t>(s.buf.data());
    bind.bind_info.length = 64;
    bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ;
    ret = ibv_bind_mw(qp, mw != nullptr ? mw : &stand_in, &bind);
    report("bind_mw", ret);
    if (ret == 0) {
        next_status(s.cq);  // success or not, the call is what is compared
    }
    ibv_destroy_qp(qp);
    if (mw != nullptr) {
        ibv_dealloc_mw(mw);
    }
    return 0;
}

// Verbs of a connected or UD QP that need no traffic.
void qp_verbs(Setup& s) {
    ibv_qp_init_attr_ex a = rc_attr(s, s.cq);
    a.qp_type = IBV_QPT_UD;
    ibv_qp* ud = ibv_create_qp(s.pd, reinterpret_cast<ibv_qp_init_attr*>(&a));
    if (ud == nullptr) {
        report("attach_mcast", errno);
        return;
    }
    union ibv_gid mgid {};
    mgid.raw[0] = 0xff;
    mgid.raw[1] = 0x12;
    mgid.raw[15] = 0x42;
    int ret = ibv_attach_mcast(ud, &mgid, 0);
    report("attach_mcast", ret);
    report("detach_mcast", ibv_detach_mcast(ud, &mgid, 0));

    ibv_flow_attr fa{};
    fa.type = IBV_FLOW_ATTR_NORMAL;
    fa.size = sizeof(fa);
    fa.port = 1;
    errno = 0;
    ibv_flow* flow = ibv_create_flow(ud, &fa);
    report("create_flow", result_of(flow));
    if (flow != nullptr) {
        ibv_destroy_flow(flow);
    }

    ibv_ece ece{};
    report("query_ece", ibv_query_ece(ud, &ece));
    ibv_qp_rate_limit_attr rl{};
    rl.rate_limit = 1000;
    report("modify_qp_rate_limit", ibv_modify_qp_rate_limit(ud, &rl));
    ibv_destroy_qp(ud);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: mrc-verbs-conform DEVICE GID_INDEX\n");
        return 2;
    }
    Setup s;
    s.gid_index = static_cast<uint8_t>(std::atoi(argv[2]));

    int num = 0;
    ibv_device** list = ibv_get_device_list(&num);
    if (list == nullptr) {
        return die("ibv_get_device_list");
    }
    for (int i = 0; i < num && s.ctx == nullptr; ++i) {
        if (std::strcmp(ibv_get_device_name(list[i]), argv[1]) == 0) {
            s.ctx = ibv_open_device(list[i]);
        }
    }
    ibv_free_device_list(list);
    if (s.ctx == nullptr) {
        return die(argv[1]);
    }
    if (ibv_query_gid(s.ctx, 1, s.gid_index, &s.gid) != 0) {
        return die("ibv_query_gid");
    }
    s.pd = ibv_alloc_pd(s.ctx);
    if (s.pd == nullptr) {
        return die("ibv_alloc_pd");
    }
    s.mr = ibv_reg_mr(s.pd, s.buf.data(), s.buf.size(),
                      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                          IBV_ACCESS_REMOTE_ATOMIC);
    if (s.mr == nullptr) {
        return die("ibv_reg_mr");
    }
    s.cq = ibv_create_cq(s.ctx, 16, nullptr, nullptr, 0);
    if (s.cq == nullptr) {
        return die("ibv_create_cq");
    }

    attributes(s, argv[1]);
    resources(s);
    qp_verbs(s);
    int ret = extended_posting(s);
    if (ret == 0) {
        ret = classic_posting(s);
    }

    if (s.cq_ex != nullptr) {
        ibv_destroy_cq(ibv_cq_ex_to_cq(s.cq_ex));
    }
    ibv_destroy_cq(s.cq);
    ibv_dereg_mr(s.mr);
    ibv_dealloc_pd(s.pd);
    ibv_close_device(s.ctx);
    return ret;
}
