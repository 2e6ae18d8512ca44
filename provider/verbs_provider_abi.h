/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Our own declarations of libibverbs' private provider interface,
 * IBVERBS_PRIVATE_34 (rdma-core v43..v56, Debian 12 ships v44).
 *
 * Debian's libibverbs-dev installs no infiniband/driver.h, so a provider built
 * against the distribution library has to describe that interface itself.
 * Everything below mirrors a layout that libibverbs reads or writes through
 * the pointers we hand it; nothing here is ours to change. The static
 * asserts at the end pin what can be checked against the public headers.
 *
 * The header is valid C and C++ so it can be compared member by member
 * against the upstream definitions by a C translation unit.
 */
#ifndef MRC_VERBS_PROVIDER_ABI_H
#define MRC_VERBS_PROVIDER_ABI_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The private ABI generation; part of the registration symbol's name. */
#define MRC_IBVERBS_PABI_VERSION 34

/*
 * Per-device record libibverbs builds from sysfs/netlink. Providers only
 * receive and store pointers to it, so we keep it opaque and never depend on
 * its layout.
 */
struct verbs_sysfs_dev;

/* libibverbs' XRC domain wrapper; only ever reached through a pointer here. */
struct verbs_xrcd;

/*
 * libibverbs' wrapper around ibv_mr. The provider allocates it in reg_mr();
 * ibv_cmd_reg_mr() fills it, ibv_dereg_mr() reads mr_type and access back.
 */
struct verbs_mr {
    struct ibv_mr ibv_mr;
    int mr_type; /* enum ibv_mr_type in libibverbs: IBV_MR_TYPE_MR is 0 */
    int access;
};

/*
 * libibverbs' wrapper around ibv_qp. ibv_qp_to_qp_ex() casts every ibv_qp
 * to it and reads comp_mask, so a provider QP must start with one (a zeroed
 * comp_mask says "no ibv_qp_ex support").
 */
struct verbs_qp {
    union {
        struct ibv_qp qp;
        struct ibv_qp_ex qp_ex;
    };
    uint32_t comp_mask;
    struct verbs_xrcd* xrcd;
};

/* verbs_qp.comp_mask bits: VERBS_QP_EX says qp_ex's ibv_wr_* members are set. */
enum {
    VERBS_QP_XRCD = 1 << 0,
    VERBS_QP_EX = 1 << 1,
};

/*
 * libibverbs' wrapper around ibv_cq: ibv_cq_ex begins with ibv_cq's
 * members, so one object serves ibv_create_cq and ibv_create_cq_ex.
 */
struct verbs_cq {
    union {
        struct ibv_cq cq;
        struct ibv_cq_ex cq_ex;
    };
};

/* Values of verbs_match_ent.kind. */
enum {
    VERBS_MATCH_SENTINEL = 0,
    VERBS_MATCH_PCI = 1,
    VERBS_MATCH_MODALIAS = 2,
    VERBS_MATCH_DRIVER_ID = 3,
};

/* One row of a provider's match table; a zeroed row ends the table. */
struct verbs_match_ent {
    void* driver_data;
    union {
        const char* modalias; /* fnmatch() pattern, for VERBS_MATCH_MODALIAS */
        uint64_t driver_id;   /* RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID value */
    } u;
    uint16_t vendor; /* PCI ids, for VERBS_MATCH_PCI only */
    uint16_t device;
    uint8_t kind;
};

struct verbs_device;
struct verbs_context;

/* What a provider registers: how to recognise its devices and build them. */
struct verbs_device_ops {
    const char* name;

    /* Inclusive range of the per-device uverbs ABI (sysfs abi_version). */
    uint32_t match_min_abi_version;
    uint32_t match_max_abi_version;
    const struct verbs_match_ent* match_table;
    const struct verbs_device_ops** static_providers;

    bool (*match_device)(struct verbs_sysfs_dev* sysfs_dev);

    struct verbs_context* (*alloc_context)(struct ibv_device* device, int cmd_fd,
                                           void* private_data);
    struct verbs_context* (*import_context)(struct ibv_device* device, int cmd_fd);

    struct verbs_device* (*alloc_device)(struct verbs_sysfs_dev* sysfs_dev);
    void (*uninit_device)(struct verbs_device* device);
};

/* A doubly linked list hook with the layout of libibverbs' list nodes. */
struct verbs_list_link {
    struct verbs_list_link* next;
    struct verbs_list_link* prev;
};

/*
 * The device object a provider allocates in alloc_device() and frees in
 * uninit_device(). libibverbs fills every member after alloc_device returns:
 * it must come back zeroed apart from provider-private data placed after it.
 */
struct verbs_device {
    struct ibv_device device; /* public part; libibverbs casts back from it */
    const struct verbs_device_ops* ops;
    int refcount; /* a C11 atomic_int in libibverbs; same size and alignment */
    struct verbs_list_link entry;
    struct verbs_sysfs_dev* sysfs;
    uint64_t core_support;
};

/*
 * Every verb a provider can implement, in the order libibverbs' copy loop in
 * verbs_set_ops() expects (alphabetical). NULL members keep libibverbs'
 * defaults, which fail with EOPNOTSUPP.
 */
struct verbs_context_ops {
    int (*advise_mr)(struct ibv_pd* pd, enum ibv_advise_mr_advice advice, uint32_t flags,
                     struct ibv_sge* sg_list, uint32_t num_sges);
    struct ibv_dm* (*alloc_dm)(struct ibv_context* context, struct ibv_alloc_dm_attr* attr);
    struct ibv_mw* (*alloc_mw)(struct ibv_pd* pd, enum ibv_mw_type type);
    struct ibv_mr* (*alloc_null_mr)(struct ibv_pd* pd);
    struct ibv_pd* (*alloc_parent_domain)(struct ibv_context* context,
                                          struct ibv_parent_domain_init_attr* attr);
    struct ibv_pd* (*alloc_pd)(struct ibv_context* context);
    struct ibv_td* (*alloc_td)(struct ibv_context* context, struct ibv_td_init_attr* init_attr);
    void (*async_event)(struct ibv_context* context, struct ibv_async_event* event);
    int (*attach_counters_point_flow)(struct ibv_counters* counters,
                                      struct ibv_counter_attach_attr* attr, struct ibv_flow* flow);
    int (*attach_mcast)(struct ibv_qp* qp, const union ibv_gid* gid, uint16_t lid);
    int (*bind_mw)(struct ibv_qp* qp, struct ibv_mw* mw, struct ibv_mw_bind* mw_bind);
    int (*close_xrcd)(struct ibv_xrcd* xrcd);
    void (*cq_event)(struct ibv_cq* cq);
    struct ibv_ah* (*create_ah)(struct ibv_pd* pd, struct ibv_ah_attr* attr);
    struct ibv_counters* (*create_counters)(struct ibv_context* context,
                                            struct ibv_counters_init_attr* init_attr);
    struct ibv_cq* (*create_cq)(struct ibv_context* context, int cqe,
                                struct ibv_comp_channel* channel, int comp_vector);
    struct ibv_cq_ex* (*create_cq_ex)(struct ibv_context* context,
                                      struct ibv_cq_init_attr_ex* init_attr);
    struct ibv_flow* (*create_flow)(struct ibv_qp* qp, struct ibv_flow_attr* flow_attr);
    struct ibv_flow_action* (*create_flow_action_esp)(struct ibv_context* context,
                                                      struct ibv_flow_action_esp_attr* attr);
    struct ibv_qp* (*create_qp)(struct ibv_pd* pd, struct ibv_qp_init_attr* attr);
    struct ibv_qp* (*create_qp_ex)(struct ibv_context* context,
                                   struct ibv_qp_init_attr_ex* qp_init_attr_ex);
    struct ibv_rwq_ind_table* (*create_rwq_ind_table)(
        struct ibv_context* context, struct ibv_rwq_ind_table_init_attr* init_attr);
    struct ibv_srq* (*create_srq)(struct ibv_pd* pd, struct ibv_srq_init_attr* srq_init_attr);
    struct ibv_srq* (*create_srq_ex)(struct ibv_context* context,
                                     struct ibv_srq_init_attr_ex* srq_init_attr_ex);
    struct ibv_wq* (*create_wq)(struct ibv_context* context, struct ibv_wq_init_attr* wq_init_attr);
    int (*dealloc_mw)(struct ibv_mw* mw);
    int (*dealloc_pd)(struct ibv_pd* pd);
    int (*dealloc_td)(struct ibv_td* td);
    int (*dereg_mr)(struct verbs_mr* vmr);
    int (*destroy_ah)(struct ibv_ah* ah);
    int (*destroy_counters)(struct ibv_counters* counters);
    int (*destroy_cq)(struct ibv_cq* cq);
    int (*destroy_flow)(struct ibv_flow* flow);
    int (*destroy_flow_action)(struct ibv_flow_action* action);
    int (*destroy_qp)(struct ibv_qp* qp);
    int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table* rwq_ind_table);
    int (*destroy_srq)(struct ibv_srq* srq);
    int (*destroy_wq)(struct ibv_wq* wq);
    int (*detach_mcast)(struct ibv_qp* qp, const union ibv_gid* gid, uint16_t lid);
    void (*free_context)(struct ibv_context* context);
    int (*free_dm)(struct ibv_dm* dm);
    int (*get_srq_num)(struct ibv_srq* srq, uint32_t* srq_num);
    struct ibv_dm* (*import_dm)(struct ibv_context* context, uint32_t dm_handle);
    struct ibv_mr* (*import_mr)(struct ibv_pd* pd, uint32_t mr_handle);
    struct ibv_pd* (*import_pd)(struct ibv_context* context, uint32_t pd_handle);
    int (*modify_cq)(struct ibv_cq* cq, struct ibv_modify_cq_attr* attr);
    int (*modify_flow_action_esp)(struct ibv_flow_action* action,
                                  struct ibv_flow_action_esp_attr* attr);
    int (*modify_qp)(struct ibv_qp* qp, struct ibv_qp_attr* attr, int attr_mask);
    int (*modify_qp_rate_limit)(struct ibv_qp* qp, struct ibv_qp_rate_limit_attr* attr);
    int (*modify_srq)(struct ibv_srq* srq, struct ibv_srq_attr* srq_attr, int srq_attr_mask);
    int (*modify_wq)(struct ibv_wq* wq, struct ibv_wq_attr* wq_attr);
    struct ibv_qp* (*open_qp)(struct ibv_context* context, struct ibv_qp_open_attr* attr);
    struct ibv_xrcd* (*open_xrcd)(struct ibv_context* context,
                                  struct ibv_xrcd_init_attr* xrcd_init_attr);
    int (*poll_cq)(struct ibv_cq* cq, int num_entries, struct ibv_wc* wc);
    int (*post_recv)(struct ibv_qp* qp, struct ibv_recv_wr* wr, struct ibv_recv_wr** bad_wr);
    int (*post_send)(struct ibv_qp* qp, struct ibv_send_wr* wr, struct ibv_send_wr** bad_wr);
    int (*post_srq_ops)(struct ibv_srq* srq, struct ibv_ops_wr* op, struct ibv_ops_wr** bad_op);
    int (*post_srq_recv)(struct ibv_srq* srq, struct ibv_recv_wr* recv_wr,
                         struct ibv_recv_wr** bad_recv_wr);
    int (*query_device_ex)(struct ibv_context* context,
                           const struct ibv_query_device_ex_input* input,
                           struct ibv_device_attr_ex* attr, size_t attr_size);
    int (*query_ece)(struct ibv_qp* qp, struct ibv_ece* ece);
    int (*query_port)(struct ibv_context* context, uint8_t port_num,
                      struct ibv_port_attr* port_attr);
    int (*query_qp)(struct ibv_qp* qp, struct ibv_qp_attr* attr, int attr_mask,
                    struct ibv_qp_init_attr* init_attr);
    int (*query_qp_data_in_order)(struct ibv_qp* qp, enum ibv_wr_opcode op, uint32_t flags);
    int (*query_rt_values)(struct ibv_context* context, struct ibv_values_ex* values);
    int (*query_srq)(struct ibv_srq* srq, struct ibv_srq_attr* srq_attr);
    int (*read_counters)(struct ibv_counters* counters, uint64_t* counters_value,
                         uint32_t ncounters, uint32_t flags);
    struct ibv_mr* (*reg_dm_mr)(struct ibv_pd* pd, struct ibv_dm* dm, uint64_t dm_offset,
                                size_t length, unsigned int access);
    struct ibv_mr* (*reg_dmabuf_mr)(struct ibv_pd* pd, uint64_t offset, size_t length,
                                    uint64_t iova, int fd, int access);
    struct ibv_mr* (*reg_mr)(struct ibv_pd* pd, void* addr, size_t length, uint64_t hca_va,
                             int access);
    int (*req_notify_cq)(struct ibv_cq* cq, int solicited_only);
    int (*rereg_mr)(struct verbs_mr* vmr, int flags, struct ibv_pd* pd, void* addr, size_t length,
                    int access);
    int (*resize_cq)(struct ibv_cq* cq, int cqe);
    int (*set_ece)(struct ibv_qp* qp, struct ibv_ece* ece);
    void (*unimport_dm)(struct ibv_dm* dm);
    void (*unimport_mr)(struct ibv_mr* mr);
    void (*unimport_pd)(struct ibv_pd* pd);
};

/*
 * Write-path command buffers: the uverbs command header followed by the core
 * payload of <rdma/ib_user_verbs.h>, spelled out flat so no flexible array
 * member is nested. libibverbs fills the header and the response pointer; a
 * provider with driver data would append it after these.
 */
struct ibv_get_context {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
};

struct ibv_alloc_pd {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
};

struct ibv_alloc_mw {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __u32 pd_handle;
    __u8 mw_type;
    __u8 reserved[3];
};

struct ibv_query_port {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __u8 port_num;
    __u8 reserved[7];
};

/*
 * Commands with a response carry its address in the payload ("response");
 * libibverbs fills it from the resp argument of the ibv_cmd_* call. A
 * provider's driver data would follow the core payload; MRC sends none.
 */
struct ibv_create_cq {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __aligned_u64 user_handle;
    __u32 cqe;
    __u32 comp_vector;
    __s32 comp_channel;
    __u32 reserved;
};

/* The extended create_cq: ibv_create_cq_ex() sends it. */
struct ibv_create_cq_ex {
    struct ib_uverbs_cmd_hdr hdr;
    struct ib_uverbs_ex_cmd_hdr ex_hdr;
    __aligned_u64 user_handle;
    __u32 cqe;
    __u32 comp_vector;
    __s32 comp_channel;
    __u32 comp_mask;
    __u32 flags;
    __u32 reserved;
};

struct ibv_resize_cq {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __u32 cq_handle;
    __u32 cqe;
};

struct ibv_create_qp {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __aligned_u64 user_handle;
    __u32 pd_handle;
    __u32 send_cq_handle;
    __u32 recv_cq_handle;
    __u32 srq_handle;
    __u32 max_send_wr;
    __u32 max_recv_wr;
    __u32 max_send_sge;
    __u32 max_recv_sge;
    __u32 max_inline_data;
    __u8 sq_sig_all;
    __u8 qp_type;
    __u8 is_srq;
    __u8 reserved;
};

struct ibv_query_qp {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __u32 qp_handle;
    __u32 attr_mask;
};

/* No response: libibverbs sends it with out_words 0. */
struct ibv_modify_qp {
    struct ib_uverbs_cmd_hdr hdr;
    struct ib_uverbs_qp_dest dest;
    struct ib_uverbs_qp_dest alt_dest;
    __u32 qp_handle;
    __u32 attr_mask;
    __u32 qkey;
    __u32 rq_psn;
    __u32 sq_psn;
    __u32 dest_qp_num;
    __u32 qp_access_flags;
    __u16 pkey_index;
    __u16 alt_pkey_index;
    __u8 qp_state;
    __u8 cur_qp_state;
    __u8 path_mtu;
    __u8 path_mig_state;
    __u8 en_sqd_async_notify;
    __u8 max_rd_atomic;
    __u8 max_dest_rd_atomic;
    __u8 min_rnr_timer;
    __u8 port_num;
    __u8 timeout;
    __u8 retry_cnt;
    __u8 rnr_retry;
    __u8 alt_port_num;
    __u8 alt_timeout;
    __u8 reserved[2];
};

struct ibv_create_srq {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __aligned_u64 user_handle;
    __u32 pd_handle;
    __u32 max_wr;
    __u32 max_sge;
    __u32 srq_limit;
};

/* No response. */
struct ibv_modify_srq {
    struct ib_uverbs_cmd_hdr hdr;
    __u32 srq_handle;
    __u32 attr_mask;
    __u32 max_wr;
    __u32 srq_limit;
};

struct ibv_query_srq {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __u32 srq_handle;
    __u32 reserved;
};

struct ibv_reg_mr {
    struct ib_uverbs_cmd_hdr hdr;
    __aligned_u64 response;
    __aligned_u64 start;
    __aligned_u64 length;
    __aligned_u64 hca_va;
    __u32 pd_handle;
    __u32 access_flags;
};

/* Registration; the PABI number in the name makes a mismatch fail to link. */
void verbs_register_driver_34(const struct verbs_device_ops* ops);

/*
 * calloc()s alloc_size bytes, initialises the verbs_context found at
 * context_offset inside them and takes ownership of cmd_fd (closing it on
 * failure). Returns the start of the allocation; the caller free()s it.
 */
void* _verbs_init_and_alloc_context(struct ibv_device* device, int cmd_fd, size_t alloc_size,
                                    struct verbs_context* context_offset, uint32_t driver_id);
/* Releases what the call above set up (fds, device reference); not the memory. */
void verbs_uninit_context(struct verbs_context* context);
/* Installs the non-NULL members of ops into the context. */
void verbs_set_ops(struct verbs_context* vctx, const struct verbs_context_ops* ops);

/* The ibv_cmd_* helpers return 0 or a positive errno value. */
int ibv_cmd_get_context(struct verbs_context* context, struct ibv_get_context* cmd, size_t cmd_size,
                        struct ib_uverbs_get_context_resp* resp, size_t resp_size);
int ibv_cmd_query_device_any(struct ibv_context* context,
                             const struct ibv_query_device_ex_input* input,
                             struct ibv_device_attr_ex* attr, size_t attr_size,
                             struct ib_uverbs_ex_query_device_resp* resp, size_t* resp_size);
int ibv_cmd_query_port(struct ibv_context* context, uint8_t port_num,
                       struct ibv_port_attr* port_attr, struct ibv_query_port* cmd,
                       size_t cmd_size);
int ibv_cmd_alloc_pd(struct ibv_context* context, struct ibv_pd* pd, struct ibv_alloc_pd* cmd,
                     size_t cmd_size, struct ib_uverbs_alloc_pd_resp* resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd* pd);
int ibv_cmd_alloc_mw(struct ibv_pd* pd, enum ibv_mw_type type, struct ibv_mw* mw,
                     struct ibv_alloc_mw* cmd, size_t cmd_size,
                     struct ib_uverbs_alloc_mw_resp* resp, size_t resp_size);
int ibv_cmd_dealloc_mw(struct ibv_mw* mw);

/*
 * Creation helpers take the provider's command and response buffers: the
 * core structure, then the provider's driver data up to cmd_size/resp_size.
 * The kernel driver sees the bytes after the core response as its udata.
 */
int ibv_cmd_create_cq(struct ibv_context* context, int cqe, struct ibv_comp_channel* channel,
                      int comp_vector, struct ibv_cq* cq, struct ibv_create_cq* cmd,
                      size_t cmd_size, struct ib_uverbs_create_cq_resp* resp, size_t resp_size);
/* cmd_flags: libibverbs' CREATE_CQ_CMD_FLAGS_*; 0 lets timestamps fail. */
int ibv_cmd_create_cq_ex(struct ibv_context* context, const struct ibv_cq_init_attr_ex* cq_attr,
                         struct verbs_cq* cq, struct ibv_create_cq_ex* cmd, size_t cmd_size,
                         struct ib_uverbs_ex_create_cq_resp* resp, size_t resp_size,
                         uint32_t cmd_flags);
int ibv_cmd_req_notify_cq(struct ibv_cq* cq, int solicited_only);
int ibv_cmd_resize_cq(struct ibv_cq* cq, int cqe, struct ibv_resize_cq* cmd, size_t cmd_size,
                      struct ib_uverbs_resize_cq_resp* resp, size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq* cq);

int ibv_cmd_create_qp(struct ibv_pd* pd, struct ibv_qp* qp, struct ibv_qp_init_attr* attr,
                      struct ibv_create_qp* cmd, size_t cmd_size,
                      struct ib_uverbs_create_qp_resp* resp, size_t resp_size);
/* The same command as ibv_cmd_create_qp, for ibv_create_qp_ex's attributes. */
int ibv_cmd_create_qp_ex(struct ibv_context* context, struct verbs_qp* qp,
                         struct ibv_qp_init_attr_ex* attr_ex, struct ibv_create_qp* cmd,
                         size_t cmd_size, struct ib_uverbs_create_qp_resp* resp, size_t resp_size);
int ibv_cmd_query_qp(struct ibv_qp* qp, struct ibv_qp_attr* qp_attr, int attr_mask,
                     struct ibv_qp_init_attr* qp_init_attr, struct ibv_query_qp* cmd,
                     size_t cmd_size);
int ibv_cmd_modify_qp(struct ibv_qp* qp, struct ibv_qp_attr* attr, int attr_mask,
                      struct ibv_modify_qp* cmd, size_t cmd_size);
int ibv_cmd_destroy_qp(struct ibv_qp* qp);
/*
 * Passes the work requests through the kernel's post_send. With wr NULL it
 * sends an empty command (wr_count 0): the doorbell of a ring-based QP.
 */
int ibv_cmd_post_send(struct ibv_qp* ibqp, struct ibv_send_wr* wr, struct ibv_send_wr** bad_wr);

int ibv_cmd_create_srq(struct ibv_pd* pd, struct ibv_srq* srq, struct ibv_srq_init_attr* attr,
                       struct ibv_create_srq* cmd, size_t cmd_size,
                       struct ib_uverbs_create_srq_resp* resp, size_t resp_size);
int ibv_cmd_modify_srq(struct ibv_srq* srq, struct ibv_srq_attr* srq_attr, int srq_attr_mask,
                       struct ibv_modify_srq* cmd, size_t cmd_size);
int ibv_cmd_query_srq(struct ibv_srq* srq, struct ibv_srq_attr* srq_attr, struct ibv_query_srq* cmd,
                      size_t cmd_size);
int ibv_cmd_destroy_srq(struct ibv_srq* srq);

int ibv_cmd_reg_mr(struct ibv_pd* pd, void* addr, size_t length, uint64_t hca_va, int access,
                   struct verbs_mr* vmr, struct ibv_reg_mr* cmd, size_t cmd_size,
                   struct ib_uverbs_reg_mr_resp* resp, size_t resp_size);
int ibv_cmd_dereg_mr(struct verbs_mr* vmr);

int ibv_cmd_create_ah(struct ibv_pd* pd, struct ibv_ah* ah, struct ibv_ah_attr* attr,
                      struct ib_uverbs_create_ah_resp* resp, size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah* ah);

#ifdef __cplusplus
}
#endif

/* Layout checks against facts the public headers let us verify. */
static_assert(sizeof(struct verbs_match_ent) == 24, "verbs_match_ent layout");
static_assert(offsetof(struct verbs_match_ent, kind) == 20, "verbs_match_ent.kind");
static_assert(sizeof(int) == 4, "refcount stands in for a 4-byte atomic_int");
static_assert(offsetof(struct verbs_device, device) == 0, "ibv_device must lead verbs_device");
static_assert(offsetof(struct verbs_device, ops) == sizeof(struct ibv_device), "verbs_device.ops");
static_assert(offsetof(struct verbs_device, entry) == sizeof(struct ibv_device) + 16,
              "verbs_device.entry");
static_assert(sizeof(struct verbs_device) == sizeof(struct ibv_device) + 48, "verbs_device size");
static_assert(sizeof(struct verbs_device_ops) == 9 * sizeof(void*), "verbs_device_ops size");
/* 76 verbs; Debian's verbs_set_ops() reads exactly offsets 0..600. */
static_assert(sizeof(struct verbs_context_ops) == 76 * sizeof(void*), "verbs_context_ops size");
static_assert(offsetof(struct verbs_context_ops, alloc_pd) == 5 * sizeof(void*),
              "verbs_context_ops.alloc_pd");
static_assert(offsetof(struct verbs_context_ops, dealloc_pd) == 26 * sizeof(void*),
              "verbs_context_ops.dealloc_pd");
static_assert(offsetof(struct verbs_context_ops, alloc_mw) == 2 * sizeof(void*),
              "verbs_context_ops.alloc_mw");
static_assert(offsetof(struct verbs_context_ops, bind_mw) == 10 * sizeof(void*),
              "verbs_context_ops.bind_mw");
static_assert(offsetof(struct verbs_context_ops, dealloc_mw) == 25 * sizeof(void*),
              "verbs_context_ops.dealloc_mw");
static_assert(offsetof(struct verbs_context_ops, free_context) == 39 * sizeof(void*),
              "verbs_context_ops.free_context");
static_assert(offsetof(struct verbs_context_ops, query_device_ex) == 58 * sizeof(void*),
              "verbs_context_ops.query_device_ex");
static_assert(offsetof(struct verbs_context_ops, query_port) == 60 * sizeof(void*),
              "verbs_context_ops.query_port");
static_assert(sizeof(struct ibv_get_context) ==
                  sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_get_context),
              "ibv_get_context");
static_assert(sizeof(struct ibv_alloc_pd) ==
                  sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_alloc_pd),
              "ibv_alloc_pd");
static_assert(sizeof(struct ibv_alloc_mw) ==
                  sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_alloc_mw),
              "ibv_alloc_mw");
static_assert(sizeof(struct ibv_query_port) ==
                  sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_query_port),
              "ibv_query_port");
static_assert(offsetof(struct ibv_query_port, port_num) ==
                  sizeof(struct ib_uverbs_cmd_hdr) +
                      offsetof(struct ib_uverbs_query_port, port_num),
              "ibv_query_port.port_num");
static_assert(offsetof(struct verbs_context_ops, create_cq) == 15 * sizeof(void*),
              "verbs_context_ops.create_cq");
static_assert(offsetof(struct verbs_context_ops, create_qp) == 19 * sizeof(void*),
              "verbs_context_ops.create_qp");
static_assert(offsetof(struct verbs_context_ops, dereg_mr) == 28 * sizeof(void*),
              "verbs_context_ops.dereg_mr");
static_assert(offsetof(struct verbs_context_ops, poll_cq) == 53 * sizeof(void*),
              "verbs_context_ops.poll_cq");
static_assert(offsetof(struct verbs_context_ops, post_send) == 55 * sizeof(void*),
              "verbs_context_ops.post_send");
static_assert(offsetof(struct verbs_context_ops, reg_mr) == 68 * sizeof(void*),
              "verbs_context_ops.reg_mr");
static_assert(offsetof(struct verbs_context_ops, resize_cq) == 71 * sizeof(void*),
              "verbs_context_ops.resize_cq");

static_assert(offsetof(struct verbs_mr, ibv_mr) == 0, "ibv_mr must lead verbs_mr");
static_assert(offsetof(struct verbs_mr, mr_type) == sizeof(struct ibv_mr), "verbs_mr.mr_type");
static_assert(sizeof(struct verbs_mr) == sizeof(struct ibv_mr) + 8, "verbs_mr size");
static_assert(offsetof(struct ibv_qp_ex, qp_base) == 0, "ibv_qp must lead ibv_qp_ex");
static_assert(offsetof(struct verbs_qp, qp) == 0, "ibv_qp must lead verbs_qp");
static_assert(offsetof(struct verbs_qp, comp_mask) == sizeof(struct ibv_qp_ex),
              "verbs_qp.comp_mask");
static_assert(sizeof(struct verbs_qp) == sizeof(struct ibv_qp_ex) + 16, "verbs_qp size");

/*
 * Each command is the header followed by the kernel's payload, member for
 * member: check sizes and every offset against <rdma/ib_user_verbs.h>.
 */
#define MRC_CMD_SIZE(cmd, kabi)                                                                 \
    static_assert(sizeof(struct cmd) == sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct kabi), \
                  #cmd " size")
#define MRC_CMD_FIELD(cmd, kabi, field)                                                \
    static_assert(offsetof(struct cmd, field) ==                                       \
                      sizeof(struct ib_uverbs_cmd_hdr) + offsetof(struct kabi, field), \
                  #cmd "." #field)

MRC_CMD_SIZE(ibv_create_cq, ib_uverbs_create_cq);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, response);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, user_handle);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, cqe);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, comp_vector);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, comp_channel);
MRC_CMD_FIELD(ibv_create_cq, ib_uverbs_create_cq, reserved);

static_assert(sizeof(struct ibv_create_cq_ex) == sizeof(struct ib_uverbs_cmd_hdr) +
                                                     sizeof(struct ib_uverbs_ex_cmd_hdr) +
                                                     sizeof(struct ib_uverbs_ex_create_cq),
              "ibv_create_cq_ex size");
static_assert(offsetof(struct ibv_create_cq_ex, flags) ==
                  sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_ex_cmd_hdr) +
                      offsetof(struct ib_uverbs_ex_create_cq, flags),
              "ibv_create_cq_ex.flags");
static_assert(offsetof(struct verbs_cq, cq) == 0 && offsetof(struct verbs_cq, cq_ex) == 0,
              "verbs_cq layout");

MRC_CMD_SIZE(ibv_resize_cq, ib_uverbs_resize_cq);
MRC_CMD_FIELD(ibv_resize_cq, ib_uverbs_resize_cq, response);
MRC_CMD_FIELD(ibv_resize_cq, ib_uverbs_resize_cq, cq_handle);
MRC_CMD_FIELD(ibv_resize_cq, ib_uverbs_resize_cq, cqe);

MRC_CMD_SIZE(ibv_create_qp, ib_uverbs_create_qp);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, response);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, user_handle);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, pd_handle);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, send_cq_handle);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, recv_cq_handle);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, srq_handle);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, max_send_wr);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, max_recv_wr);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, max_send_sge);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, max_recv_sge);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, max_inline_data);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, sq_sig_all);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, qp_type);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, is_srq);
MRC_CMD_FIELD(ibv_create_qp, ib_uverbs_create_qp, reserved);

MRC_CMD_SIZE(ibv_query_qp, ib_uverbs_query_qp);
MRC_CMD_FIELD(ibv_query_qp, ib_uverbs_query_qp, response);
MRC_CMD_FIELD(ibv_query_qp, ib_uverbs_query_qp, qp_handle);
MRC_CMD_FIELD(ibv_query_qp, ib_uverbs_query_qp, attr_mask);

MRC_CMD_SIZE(ibv_modify_qp, ib_uverbs_modify_qp);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, dest);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, alt_dest);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, qp_handle);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, attr_mask);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, qkey);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, rq_psn);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, sq_psn);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, dest_qp_num);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, qp_access_flags);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, pkey_index);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, alt_pkey_index);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, qp_state);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, cur_qp_state);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, path_mtu);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, path_mig_state);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, en_sqd_async_notify);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, max_rd_atomic);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, max_dest_rd_atomic);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, min_rnr_timer);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, port_num);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, timeout);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, retry_cnt);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, rnr_retry);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, alt_port_num);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, alt_timeout);
MRC_CMD_FIELD(ibv_modify_qp, ib_uverbs_modify_qp, reserved);

MRC_CMD_SIZE(ibv_create_srq, ib_uverbs_create_srq);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, response);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, user_handle);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, pd_handle);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, max_wr);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, max_sge);
MRC_CMD_FIELD(ibv_create_srq, ib_uverbs_create_srq, srq_limit);

MRC_CMD_SIZE(ibv_modify_srq, ib_uverbs_modify_srq);
MRC_CMD_FIELD(ibv_modify_srq, ib_uverbs_modify_srq, srq_handle);
MRC_CMD_FIELD(ibv_modify_srq, ib_uverbs_modify_srq, attr_mask);
MRC_CMD_FIELD(ibv_modify_srq, ib_uverbs_modify_srq, max_wr);
MRC_CMD_FIELD(ibv_modify_srq, ib_uverbs_modify_srq, srq_limit);

MRC_CMD_SIZE(ibv_query_srq, ib_uverbs_query_srq);
MRC_CMD_FIELD(ibv_query_srq, ib_uverbs_query_srq, response);
MRC_CMD_FIELD(ibv_query_srq, ib_uverbs_query_srq, srq_handle);
MRC_CMD_FIELD(ibv_query_srq, ib_uverbs_query_srq, reserved);

MRC_CMD_SIZE(ibv_reg_mr, ib_uverbs_reg_mr);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, response);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, start);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, length);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, hca_va);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, pd_handle);
MRC_CMD_FIELD(ibv_reg_mr, ib_uverbs_reg_mr, access_flags);

#undef MRC_CMD_FIELD
#undef MRC_CMD_SIZE

/* The context a provider embeds must end with the public ibv_context. */
static_assert(offsetof(struct verbs_context, context) + sizeof(struct ibv_context) ==
                  sizeof(struct verbs_context),
              "verbs_context layout");

#endif /* MRC_VERBS_PROVIDER_ABI_H */
