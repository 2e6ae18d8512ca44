/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC for Linux: the OCP MRC controller API (version 1.0.1).
 *
 * Written for MRC for Linux from the published interface of the OCP MRC API
 * (opencomputeproject/OCP-Multipath-Reliable-Connection, commit 662a150);
 * names, prototypes, layouts and constants match it, the text is ours.
 *
 * A controller (one per node, with CAP_NET_ADMIN) configures what
 * application QPs later refer to by id: EV format profiles, EV profiles
 * (the paths a QP sprays over) and CC profiles. It also watches EV state
 * changes and probes paths. On MRC for Linux these profiles are the kernel
 * objects that mrc-ip manages (Documentation/control-plane.rst). Unless
 * said otherwise, calls return 0, or -1 with errno set.
 */
#ifndef MRC_CTL_H
#define MRC_CTL_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include "mrc.h"
#include "mrc_ctl_api_ver.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_CTL_MAX_VENDOR_CFG_SIZE 128

/* An EV entry with no value and no port (a C99 compound literal). */
#define MRC_CTL_EV_UNPOPULATED ((struct mrc_ctl_ev){ .val = { 0 }, .port = 0 })

/* Bytes of an EV value. */
#define MRC_CTL_EV_MAX_BYTES 32

/* Control protocol versions, one bit each (0: the provider's choice). */
enum mrc_ctl_protocol_version {
	MRC_CTL_PROTOCOL_VERSION_0 = 0,
	MRC_CTL_PROTOCOL_VERSION_1 = 1 << 0,
};

/* Life cycle shared by all profiles: INIT -> OFFLINE -> ONLINE and back. */
enum mrc_ctl_profile_state {
	MRC_CTL_PROFILE_INIT,    /* exists, not configured */
	MRC_CTL_PROFILE_OFFLINE, /* configured, not in use */
	MRC_CTL_PROFILE_ONLINE,  /* usable by QPs */
};

/* ---- The device ---- */

/* Optional controller features (mrc_ctl_device_attr.opt_attr). */
enum mrc_ctl_attr_opt {
	MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE = 1 << 0,
	MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE = 1 << 1,
	MRC_CTL_OPT_CAP_EV_EVENT = 1 << 2,
	/* explicit EV arrays must be base, base + 1, ... */
	MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE = 1 << 3,
	/* mrc_ctl_ev_event.drop_count counts, rather than flags, drops */
	MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT = 1 << 4,
	MRC_CTL_OPT_CAP_EP_OP_EV_PROBE = 1 << 5,
};

struct mrc_ctl_device_attr {
	uint32_t mrc_ctl_protocol_version; /* bits of mrc_ctl_protocol_version */
	struct {
		uint32_t ev_max_fmt_profiles;  /* EV format profiles */
		uint32_t ev_max_profiles;      /* EV profiles */
		uint32_t ev_max_count;         /* EVs, all profiles together */
		uint32_t ev_free_count;        /* EVs still available */
		uint32_t ev_max_count_profile; /* EVs in one profile */
		uint32_t ev_count_align;       /* explicit arrays: a multiple of this */
		uint32_t ev_max_width;         /* valid bits of an EV value */
		uint32_t ev_fmt_mode_mask;     /* bits of enum mrc_ctl_ev_fmt_mode */
		uint32_t ev_mode_mask;         /* bits of enum mrc_ctl_ev_mode */
		uint32_t ev_op_max_entries;    /* entries in one EV op; 0: no limit */
	} ev;
	struct {
		uint32_t cc_max_profiles;
		/* NULL-terminated names, owned by the library, e.g. "uet-1.0-nscc" */
		const char **algorithms;
	} cc;
	uint32_t phy_port_mask; /* bit N: port N (1-based) belongs to us */
	uint32_t opt_attr;      /* bits of enum mrc_ctl_attr_opt */
};

/* The 1.0.1 form takes the MRC context and reports MRC support. */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
int mrc_ctl_query_device_ex(struct ibv_context *context, struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr, int *supported);
#endif
int mrc_ctl_query_device(struct ibv_context *context, struct mrc_ctl_device_attr *ctl_attr);

/* Like mrc_query_version(), for the separately numbered controller API. */
void mrc_ctl_query_version(uint32_t *current_version, uint32_t *last_supported_version,
			   uint32_t *vendor_version, uint32_t *last_supported_vendor_version);

/* ---- Ports ---- */

enum mrc_ctl_port_admin_state {
	MRC_CTL_PORT_ADMIN_DISABLED = 0,
	MRC_CTL_PORT_ADMIN_ENABLED = 1,
};

enum mrc_ctl_port_attr_mask {
	MRC_CTL_PORT_ADMIN_STATE = 1 << 0,
};

struct mrc_ctl_port_attr {
	/* a disabled port reads IBV_PORT_DOWN in ibv_query_port() */
	enum mrc_ctl_port_admin_state port_admin_state;
};

int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask);
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask);

/* ---- EV format profiles: how an EV is laid out in a packet ---- */

enum mrc_ctl_ev_fmt_mode {
	MRC_CTL_EV_FMT_MODE_STEV = 1 << 0, /* IPv6 flow label + UDP source port */
	MRC_CTL_EV_FMT_MODE_SRV6 = 1 << 1, /* SRv6 uSID address, optional SRH */
	MRC_CTL_EV_FMT_MODE_UDP = 1 << 2,  /* UDP source port only */
};

enum mrc_ctl_ev_fmt_op {
	MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_fmt_profile_attr_mask {
	MRC_CTL_EV_FMT_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_FMT_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_FMT_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_FMT_PROFILE_OP = 1 << 3,
	MRC_CTL_EV_FMT_VENDOR_CFG = INT32_MIN, /* bit 31 */
};

struct mrc_ctl_ev_fmt_field {
	uint8_t width; /* bits */
};

struct mrc_ctl_ev_fmt_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* is in */
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct {
		enum mrc_ctl_ev_fmt_op op;
		struct mrc_ctl_ev_fmt_field *fmt_fields;
		int fmt_field_count; /* in: array length; out: fields needed */
	} ev_fmt_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx, uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr, int attr_mask);
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx, uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr, int attr_mask);

/* ---- EVs ---- */

/*
 * An EV value: STEV and UDP use the first 4 bytes; SRv6 the first 16 (the
 * destination address) and the next 16 (the one-segment SRH's address).
 */
typedef uint8_t mrc_ctl_ev_t[MRC_CTL_EV_MAX_BYTES];

struct mrc_ctl_ev {
	mrc_ctl_ev_t val;
	uint8_t port; /* 1-based */
};

enum mrc_ctl_ev_state {
	MRC_CTL_EV_GOOD = 1 << 0,
	MRC_CTL_EV_ASSUMED_BAD = 1 << 1,
	MRC_CTL_EV_DENIED = 1 << 2,
	MRC_CTL_EV_UNKNOWN = INT32_MIN, /* bit 31 */
};

/* ---- EV profiles: the set of EVs QPs spray over ---- */

enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_AUTO = 1 << 0, /* the provider picks (ECMP) */
	MRC_CTL_EV_MODE_EXP = 1 << 1,  /* the controller lists the EVs */
	MRC_CTL_EV_MODE_GEN = 1 << 2,  /* the provider generates them from fields */
};

enum mrc_ctl_ev_op {
	MRC_CTL_EV_OP_REPLACE_EV,
	MRC_CTL_EV_OP_MODIFY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_ARRAY,
};

enum mrc_ctl_ev_fields_op {
	MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_profile_attr_mask {
	MRC_CTL_EV_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_PROFILE_FMT_ID = 1 << 3,
	MRC_CTL_EV_PROFILE_COUNT = 1 << 4,
	MRC_CTL_EV_PROFILE_MIN_ACTIVE = 1 << 5,
	MRC_CTL_EV_PROFILE_EVENT_MASK = 1 << 6,
	MRC_CTL_EV_PROFILE_EV_OP = 1 << 7,
	MRC_CTL_EV_PROFILE_EV_FIELDS_OP = 1 << 8,
	MRC_CTL_EV_PROFILE_VENDOR_CFG = INT32_MIN, /* bit 31 */
};

/*
 * One field of a generated or explicit EV: start from init_val, then put
 * the EV's bits, most significant first, where mask has ones.
 */
struct mrc_ctl_ev_field {
	uint32_t width;
	uint32_t init_val;
	uint32_t min_val; /* generated EVs: range of the generated bits */
	uint32_t max_val;
	uint32_t mask;
};

enum mrc_ctl_ev_op_flags {
	MRC_CTL_EV_OP_F_ALL_COPIES = 1 << 0, /* REPLACE_EV: every occurrence */
};

/* One entry of an EV operation (which members count depends on the op). */
struct mrc_ctl_ev_op_entry {
	struct mrc_ctl_ev ev;
	struct mrc_ctl_ev ev_new;
	enum mrc_ctl_ev_state state;
	uint32_t flags; /* bits of enum mrc_ctl_ev_op_flags */
};

struct mrc_ctl_ev_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* is in */
	enum mrc_ctl_ev_mode ev_mode;
	uint64_t ev_fmt_profile_id;
	uint32_t ev_count;      /* EVs in the profile, as adjusted by the device */
	uint32_t ev_min_active; /* never mark more bad than leaves this many */
	int ev_event_mask;      /* MRC_CTL_EV_GOOD and/or MRC_CTL_EV_ASSUMED_BAD */
	struct {
		enum mrc_ctl_ev_op op;
		struct mrc_ctl_ev_op_entry *entries;
		int entry_count; /* in: array length; out: entries needed */
	} ev_op;
	struct {
		enum mrc_ctl_ev_fields_op op;
		struct mrc_ctl_ev_field *fields;
		int field_count; /* in: array length; out: fields needed */
	} ev_fields_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx, uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr, int attr_mask);
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx, uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr, int attr_mask);

/* ---- CC profiles ---- */

enum mrc_ctl_cc_profile_attr_mask {
	MRC_CTL_CC_PROFILE_STATE = 1 << 0,
	MRC_CTL_CC_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_CC_PROFILE_ALGORITHM = 1 << 2,
	MRC_CTL_CC_PROFILE_CONFIG = 1 << 3,
	MRC_CTL_CC_PROFILE_VENDOR_CFG = INT32_MIN, /* bit 31 */
};

struct mrc_ctl_cc_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* is in */
	const char *algorithm; /* one of mrc_ctl_device_attr.cc.algorithms; NULL: no CC */
	const void *cc_config; /* e.g. struct mrc_ctl_cc_nscc_cfg */
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* Parameters of "uet-1.0-nscc". Times in ns, sizes in bytes. */
struct mrc_ctl_cc_nscc_cfg {
	uint8_t disable_qa; /* non-zero: no QuickAdapt */
	uint32_t adjust_bytes_threshold;
	uint32_t adjust_period_threshold;
	uint32_t base_rtt;
	float eta;
	float fi;
	float fi_scale;
	float gamma;
	float max_md_jump;
	uint32_t max_cwnd;
	uint8_t qa_gate;
	uint32_t qa_threshold;
	uint32_t target_delay;
};

int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx, uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr, int attr_mask);
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx, uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr, int attr_mask);

/* ---- EV events ---- */

/* An EV of a profile changed to a state the profile's event mask selects. */
struct mrc_ctl_ev_event {
	uint64_t profile_id;
	struct mrc_ctl_ev ev;
	uint32_t drop_count; /* events lost before this one (or 1 if any) */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	enum mrc_ctl_ev_state state; /* the new state (API 1.0.1 and newer) */
#endif
};

/* A CQ of EV events; it never overruns. NULL with errno set on failure. */
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx, int cqe,
					  void *cq_context, struct mrc_comp_channel *channel,
					  int comp_vector);

/* Up to @num_entries events: their count, or a negative errno. */
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event);

/* ---- Endpoint requests (EV probes) ---- */

enum mrc_ctl_ep_op_type {
	MRC_CTL_EP_OP_EV_PROBE,
	MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
};

struct mrc_ctl_ep_req {
	uint16_t req_id;     /* unique among outstanding requests */
	union ibv_gid sgid;  /* RoCEv2 GIDs */
	union ibv_gid dgid;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct mrc_ctl_ev req_ev; /* the EV (path) and port to use */
	union {
		struct {
			uint32_t port_status; /* bit N: port N (1-based) */
		} port_status_update;
	} op;
};

struct mrc_ctl_ep_rsp {
	uint16_t req_id;
	uint8_t port;         /* where the response arrived (1-based) */
	unsigned int rtt;     /* ns */
	uint8_t adj_svc_time; /* non-zero: rtt excludes the responder's service time */
};

/*
 * mrc_ctl_ep_batch_send_wait() - sends @num_req requests of one type with
 * traffic class @req_tc and waits up to @rsp_timeout ns for the responses,
 * which are stored in arrival order in @rsp (room for @num_req) and counted
 * in @num_rsp. ETIMEDOUT when some never came.
 */
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type, struct mrc_ctl_ep_req *req,
			       int num_req, uint32_t rsp_timeout, struct mrc_ctl_ep_rsp *rsp,
			       int *num_rsp);

#ifdef __cplusplus
}
#endif

#endif /* MRC_CTL_H */
