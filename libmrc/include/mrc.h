/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC for Linux: the OCP MRC application API (version 1.0.1).
 *
 * Written for MRC for Linux from the published interface of the OCP MRC API
 * (opencomputeproject/OCP-Multipath-Reliable-Connection, commit 662a150).
 * Names, prototypes, structure layouts and constants are the interface and
 * match it exactly, so that a program built against the published headers
 * runs on libmrc and one built against these runs on another
 * implementation; libmrc's test suite pins every size, offset and value.
 * The comments are ours and describe what libmrc does.
 *
 * The API is shaped like libibverbs, and relies on it: devices are opened,
 * protection domains allocated and memory registered with ibv_* calls; the
 * MRC objects (context, completion channel, CQ, QP, QP hint) come from here.
 * An MRC QP carries RDMA WRITE and RDMA WRITE with immediate only.
 *
 * Error reporting follows the API text, which is not uniform: each
 * prototype below says what its failures look like. "Like ibv_X()" means
 * the value ibv_X() would return; libmrc then also leaves that error in
 * errno.
 */
#ifndef MRC_H
#define MRC_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include "mrc_api_ver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Size of every opaque vendor_cfg byte array. */
#define MRC_MAX_VENDOR_CFG_SIZE 128

/*
 * Wire protocol versions, one bit each. A device reports the set it speaks
 * (mrc_device_attr.mrc_protocol_version); a QP asks for one bit, or for
 * MRC_PROTOCOL_VERSION_0, "the provider's choice".
 */
enum mrc_protocol_version {
	MRC_PROTOCOL_VERSION_0 = 0,
	MRC_PROTOCOL_VERSION_1 = 1 << 0,
};

/* Handles; their contents belong to the library. */
struct mrc_context;
struct mrc_qp_hint;
struct mrc_qp;
struct mrc_cq;
struct mrc_comp_channel;

/* Optional device features (mrc_device_attr.cap). */
enum mrc_device_cap {
	MRC_DEVICE_CAP_TRIM_NACK = 1 << 0,   /* responder sends trim NACKs */
	MRC_DEVICE_CAP_DYNAMIC_MPR = 1 << 1, /* MPR may change at run time */
	MRC_DEVICE_CAP_SVC_TIME = 1 << 2,    /* responder reports service time */
};

/* What mrc_query_device() and mrc_query_device_ex() report. */
struct mrc_device_attr {
	uint32_t mrc_protocol_version; /* bits of enum mrc_protocol_version */
	struct {
		uint16_t max_wimm;      /* most WRITE_IMMs in flight, sending */
		uint16_t max_wimm_dest; /* most WRITE_IMMs in flight, receiving */
	} wimm_attr;
	struct {
		uint8_t max_mpr;        /* largest MPR, in units of 128 PSNs */
		uint8_t mpr_resolution; /* MPR step, in units of 128 PSNs */
	} mpr_attr;
	struct {
		uint32_t max_qp_hint; /* most QP hints at once */
	} qp_attr;
	uint32_t cap; /* bits of enum mrc_device_cap */
};

/*
 * mrc_query_device_ex() - whether a verbs device speaks MRC, and its limits.
 * @context:   an ibv_context from ibv_open_device()
 * @mcontext:  the MRC context made on @context, or NULL
 * @attr:      filled in when the device speaks MRC
 * @supported: set non-zero when the device speaks MRC, 0 otherwise
 *
 * Returns 0, or -1 with errno set. Declared for programs that select API
 * 1.0.1 or newer; mrc_query_device() is the 1.0.0 form without a context.
 */
#if MRC_API_VER_USED >= MRC_API_VER(1, 0, 1)
int mrc_query_device_ex(struct ibv_context *context, struct mrc_context *mcontext,
			struct mrc_device_attr *attr, int *supported);
#endif
int mrc_query_device(struct ibv_context *context, struct mrc_device_attr *attr,
		     int *supported);

/*
 * mrc_query_version() - the API versions this library implements.
 *
 * Stores the current and oldest accepted MRC API versions and the current
 * and oldest vendor API versions (MRC_API_VER() encoding). Any pointer may
 * be NULL. Needs no device and may be called first.
 */
void mrc_query_version(uint32_t *current_version, uint32_t *last_supported_version,
		       uint32_t *vendor_version, uint32_t *last_supported_vendor_version);

/*
 * The API a program was written for; 0 in a field means "not said", and
 * the library then assumes its current version.
 */
struct mrc_context_attr {
	uint32_t mrc_api_version_used;
	uint32_t mrc_vendor_api_version_used;
};

/*
 * mrc_create_context() - one instance of the library on a verbs device.
 * @vcontext:     an open MRC verbs device
 * @context_attr: the versions the program uses, or NULL for the defaults
 *
 * Every other MRC object hangs off a context. Returns NULL with errno set
 * on failure.
 */
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr);

/* Returns 0, or -1 with errno set (EBUSY while objects remain). */
int mrc_destroy_context(struct mrc_context *mrc_ctx);

/* Completion channels: 0, or an error like ibv_create_comp_channel(). */
int mrc_create_comp_channel(struct mrc_context *mrc_ctx, struct mrc_comp_channel **channel);
/* 0, or -1 with errno set. */
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd);
/* 0, or an error like ibv_destroy_comp_channel(). */
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel);

/*
 * mrc_create_cq() - a completion queue of at least @cqe entries, reporting
 * events on @channel (may be NULL) and handing @cq_context back with them.
 * NULL with errno set on failure, as ibv_create_cq().
 */
struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe, void *cq_context,
			     struct mrc_comp_channel *channel, int comp_vector);

/* Up to @num_entries completions: their count, or -1 on error. */
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc);

/* 0, or an error like ibv_destroy_cq(). */
int mrc_destroy_cq(struct mrc_cq *cq);

/*
 * QP hints describe how a group of QPs will be used, so the provider can
 * size its resources. Optional.
 */
struct mrc_qp_hint_attr {
	int num_qps_per_peer;      /* QPs of the group sending to one peer */
	int num_send_peers;        /* peers the group sends to at once */
	int num_remote_recv_peers; /* remote QPs sending to the same peer */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/* Which fields of mrc_qp_hint_attr a call reads or writes. */
enum mrc_qp_hint_attr_mask {
	MRC_QP_HINT_NUM_QPS_PER_PEER = 1 << 0,
	MRC_QP_HINT_NUM_SEND_PEERS = 1 << 1,
	MRC_QP_HINT_NUM_REMOTE_RECV_PEERS = 1 << 2,
	MRC_QP_HINT_VENDOR_CFG = INT32_MIN, /* bit 31 */
};

struct mrc_qp_hint_init_attr {
	struct mrc_qp_hint_attr attr;
};

/* NULL with errno set on failure. */
struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr);
/* 0, or -1 with errno set: EINVAL, or EBUSY while a QP uses the hint. */
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint);
/* 0, or -1 with errno EINVAL. */
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint, struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask);
/* 0, or -1 with errno EINVAL. */
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint, struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask);

/* What an MRC QP is created with; mirrors struct ibv_qp_init_attr. */
struct mrc_qp_init_attr {
	void *qp_context;
	struct mrc_cq *send_cq;
	struct mrc_cq *recv_cq;
	struct ibv_qp_cap cap;
	int sq_sig_all;
	struct ibv_pd *pd;
	uint64_t send_ops_flags; /* enum ibv_qp_create_send_ops_flags */
	enum mrc_protocol_version protocol_version; /* 0: provider's choice */
};

/* NULL with errno set on failure, as ibv_create_qp(). */
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx, struct mrc_qp_init_attr *mrc_qp_attr);

/* 0, or an error like ibv_destroy_qp(). */
int mrc_destroy_qp(struct mrc_qp *qp);

/*
 * Which fields of struct mrc_qp_attr a call reads or writes. The API groups
 * them by the transition that sets them: the hint and the profiles on the
 * way to INIT; the responder's WIMM and MPR (and dynamic MPR, through
 * MRC_QP_CAP) on the way to RTR; the requester's WIMM, MPR, retry counts
 * and ACK timeout on the way to RTS.
 */
enum mrc_qp_attr_mask {
	MRC_QP_MAX_WIMM = 1 << 0,
	MRC_QP_MAX_WIMM_DEST = 1 << 1,
	MRC_QP_MPR = 1 << 2,
	MRC_QP_MPR_DEST = 1 << 3,
	MRC_QP_TIMEOUT = 1 << 4,
	MRC_QP_EV_PROFILE_ID = 1 << 5,
	MRC_QP_CC_PROFILE_ID = 1 << 6,
	MRC_QP_HINT = 1 << 7,
	MRC_QP_RETRY_CNT = 1 << 8,
	MRC_QP_CAP = 1 << 9,
	MRC_QP_VENDOR_CFG = INT32_MIN, /* bit 31 */
};

/* Per-QP feature switches (mrc_qp_attr.cap). */
enum mrc_qp_cap {
	MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED = 1 << 0, /* peer cannot take trim NACKs */
	MRC_QP_CAP_DYNAMIC_MPR = 1 << 1,                /* both roles, if both peers agree */
	MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED = 1 << 2,  /* peer reports no service time */
};

/* The MRC attributes of a QP, beside its verbs ones. */
struct mrc_qp_attr {
	struct {
		uint8_t mpr;      /* as requester, units of 128 PSNs */
		uint8_t mpr_dest; /* as responder, units of 128 PSNs */
	} mpr;
	struct {
		uint16_t max_wimm;      /* WRITE_IMMs in flight as requester */
		uint16_t max_wimm_dest; /* WRITE_IMMs in flight as responder */
	} wimm;
	uint8_t timeout; /* ACK timeout 1.024 us * 2^timeout, at most 24 */
	struct {
		uint64_t ev_profile_id; /* profiles a controller made */
		uint64_t cc_profile_id;
	} profile;
	struct {
		uint8_t linear_cnt; /* retries at a fixed interval, at most 7 */
		uint8_t exp_cnt;    /* then with backoff, at most 25 (= forever) */
	} retry;
	struct mrc_qp_hint *qp_hint; /* NULL: none */
	uint32_t cap;                /* bits of enum mrc_qp_cap */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/*
 * mrc_query_qp() - the verbs attributes in @vattr_mask and the MRC ones in
 * @mrc_attr_mask, and the creation attributes in @init_attr. 0, or an
 * error like ibv_query_qp().
 */
int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr);

/*
 * mrc_modify_qp() - moves a QP through RESET, INIT, RTR and RTS, setting
 * verbs and MRC attributes on the way. The path's source GID comes from
 * the verbs context under the MRC context. 0, or an error like
 * ibv_modify_qp(). See Documentation/libmrc.rst for the verbs attributes
 * the library sets itself.
 */
int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask);

/* The QP number: 0, or -1 with errno set. */
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn);

/*
 * mrc_post_recv() - receive buffers for WRITE with immediate, posted before
 * the peer sends (MRC has no RNR). 0, or -1 with errno set.
 */
int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

/*
 * mrc_post_send() - RDMA WRITE and RDMA WRITE with immediate; any other
 * opcode fails with EINVAL. 0, or an error like ibv_post_send().
 */
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);

/* An asynchronous event and the object it concerns. */
struct mrc_async_event {
	union {
		struct mrc_cq *cq;
		struct mrc_qp *qp;
		int port_num;
	} element;
	enum ibv_event_type event_type;
};

/* Blocks for the next event: 0, or -1 like ibv_get_async_event(). */
int mrc_get_async_event(struct mrc_context *mrc_ctx, struct mrc_async_event *event);
/* Every event obtained must be acknowledged once. */
void mrc_ack_async_event(struct mrc_async_event *event);

/* Arms @cq: 0, or an error like ibv_req_notify_cq(). */
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only);
/* Blocks for the next CQ event on @channel: 0, or -1 with errno set. */
int mrc_get_cq_event(struct mrc_comp_channel *channel, struct mrc_cq **cq, void **cq_context);
/* Acknowledges @nevents events of @cq; mrc_destroy_cq() waits for them. */
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents);

#ifdef __cplusplus
}
#endif

#endif /* MRC_H */
