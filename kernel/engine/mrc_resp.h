/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP's responder: the receive window, the messages being received,
 * executed atomics and the ACKs it owes (mrc_resp.c, mrc_dack.c). struct
 * mrc_qp holds its state as @resp.
 */
#ifndef MRC_RESP_H
#define MRC_RESP_H

#include "engine/mrc_dack.h"
#include "engine/mrc_obj.h"
#include "core/mrc_atomic_cache.h"
#include "core/mrc_rnr.h"
#include "core/mrc_rxwin.h"
#include "core/mrc_wire.h"

struct mrc_qp;

/**
 * struct mrc_rmsg - responder state of one incoming receive-consuming
 * message (SEND, SEND_IMM, WRITE_IMM), indexed by its RSN
 * @srq_wr_id: for SRQ QPs, the wr_id of the receive WQE it took
 * @rsn: receive sequence number
 * @last_psn: PSN of the message's last packet
 * @len: message length
 * @got: payload bytes its packets brought, each PSN counted once
 * @imm: immediate data (network order as sent)
 * @num_sge: the SGEs of that WQE (in the QP's rmsg_sge)
 * @opcode: wire opcode of the message
 * @status: IB_WC_SUCCESS or the error that ends the QP
 * @valid: slot in use for @rsn
 * @last_seen: the LAST packet arrived; @last_psn is known
 * @solicited: SE flag of the last packet
 * @has_srq_wqe: for SRQ QPs, a receive WQE was taken for this message
 *
 * Ordered so that it packs into 40 bytes: a QP holds one per receive
 * WQE its messages may use at once (struct mrc_resp_info.rmsg_mask).
 */
struct mrc_rmsg {
	u64 srq_wr_id;
	u32 rsn;
	u32 last_psn;
	u32 len;
	u32 got;
	u32 imm;
	u32 num_sge;
	u8 opcode;
	u8 status;
	bool valid;
	bool last_seen;
	bool solicited;
	bool has_srq_wqe;
};

/**
 * struct mrc_resp_info - a QP's responder
 * @rxwin: the receive window
 * @rmsg: incoming messages, @rmsg_mask + 1 entries by RSN
 * @rmsg_mask: @rmsg's entries less one. With an RQ, a power of two no
 *	smaller than its slots: a message further ahead than the WQEs
 *	posted is refused RNR (mrc_resp_rwqe()), so those in progress fit.
 *	With an SRQ, %MRC_QP_WINDOW less one: messages take its WQEs as
 *	they come, as many as PSNs in flight.
 * @rmsg_sge: SRQ QPs: the SGEs of each @rmsg entry
 * @rsn_complete: next RSN to complete
 * @rnr_gate: drops new PSNs after an RNR NACK until it executes
 * @atomic_cache: results of executed atomics, for repeated requests
 * @train_mr: the MR the WRITEs of the train being received placed into,
 *	referenced until the train is done with the QP (mrc_mr_train_done())
 * @dup_read_tokens: READ responses duplicate requests may still re-serve
 * @dup_read_ts: when @dup_read_tokens was last refilled
 * @unacked: packets received since the last ACK
 * @acked_cum: the cumulative point the last ACK carried
 * @edge_ts: the timestamp of the copy of @acked_cum that arrived, if
 *	any: the request that first moved the cumulative point since the
 *	last ACK (0: none did)
 * @trim_psn: the PSN last NACKed as trimmed
 * @trim_missing: @trim_psn has not arrived since: acknowledge every request
 * @ce_count: CE-marked packets received since the last ACK
 * @dack: an ACK held for an answer to carry
 *
 * All of it is under the QP's lock.
 */
struct mrc_resp_info {
	/* messages and memory */
	struct mrc_rxwin rxwin;
	struct mrc_rmsg *rmsg;
	u32 rmsg_mask;
	struct mrc_sge *rmsg_sge;
	u32 rsn_complete;
	struct mrc_rnr_gate rnr_gate;
	struct mrc_atomic_cache atomic_cache;
	struct mrc_mr *train_mr;
	u32 dup_read_tokens;
	u32 dup_read_ts;

	/* what the next ACK says */
	u32 unacked;
	u32 acked_cum;
	u32 edge_ts;
	u32 trim_psn;
	bool trim_missing;
	u32 ce_count;
	struct mrc_dack dack;
};

void mrc_resp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce);
void mrc_resp_flush(struct mrc_qp *qp);
void mrc_resp_clear_msgs(struct mrc_qp *qp);

#endif /* MRC_RESP_H */
