// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Responder: place incoming SEND and WRITE packets the moment they arrive,
 * answer READ and ATOMIC requests, complete receive WQEs in order, and
 * acknowledge with cumulative ACKs and SACKs.
 */
#include "engine/mrc_qp.h"

/* Internal verdicts besides the wire syndromes. */
#define MRC_RESP_DROP	0xff

/* Every atomic a requester may still retry must fit in the cache. */
static_assert(MRC_MAX_RD_ATOMIC <= MRC_ATOMIC_CACHE_SIZE);

/*
 * A duplicate READ request re-serves at most MRC_DUP_READ_PKTS responses
 * (the requester asks again for one PSN, or repeats a chunk of 16), and
 * a QP re-serves at most MRC_DUP_READ_BURST at once and one more every
 * MRC_DUP_READ_COST_TS (~8 us): duplicates, which anyone can replay,
 * cannot make the responder resend megabytes each.
 */
#define MRC_DUP_READ_PKTS	MRC_GSO_MAX_PKTS
#define MRC_DUP_READ_BURST	MRC_QP_WINDOW
#define MRC_DUP_READ_COST_TS	8

/* Scatter @len bytes of @src at @offset of a receive WQE's buffers. */
static int mrc_resp_scatter(struct mrc_qp *qp, const struct mrc_sge *sge,
			    u32 num_sge, u32 offset,
			    const struct mrc_payload *src, u32 len)
{
	u32 i, done = 0;

	for (i = 0; i < num_sge && len; i++) {
		struct mrc_mr *mr;
		int status;
		u32 n;

		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		n = min(len, sge[i].length - offset);
		mr = mrc_mr_get(qp->mdev, sge[i].lkey, qp->ibqp.pd,
				qp->ibqp.qp_num, IB_ACCESS_LOCAL_WRITE,
				sge[i].addr + offset, n, &status);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		mrc_mr_place(mr, sge[i].addr + offset, src, done, n);
		mrc_mr_put(mr);
		done += n;
		len -= n;
		offset = 0;
	}
	return len ? IB_WC_LOC_LEN_ERR : IB_WC_SUCCESS;
}

/*
 * The receive WQE of message @rsn: from the RQ slot it names, or taken
 * from the SRQ when the message's first packet (in arrival order) came.
 */
static int mrc_resp_rwqe(struct mrc_qp *qp, struct mrc_rmsg *m, u32 rsn,
			 struct mrc_recv_wqe *wqe, struct mrc_sge *sge)
{
	struct mrc_sge *keep = qp->srq ? qp->resp.rmsg_sge +
			       (size_t)(rsn & (MRC_QP_WINDOW - 1)) *
			       qp->srq->max_sge : NULL;
	const struct mrc_recv_wqe *slot;
	u32 idx, posted;
	int avail, err;

	if (qp->srq) {
		if (!m->has_srq_wqe) {
			err = mrc_srq_take(qp->srq, wqe, keep, 0);
			if (err == -EAGAIN)
				return MRC_SYN_RNR;
			if (err == -EBADMSG)
				mrc_srq_fail(&qp->ibqp, wqe->wr_id);
			if (err)
				return MRC_SYN_REMOTE_OP;
			m->has_srq_wqe = true;
			m->srq_wr_id = wqe->wr_id;
			m->num_sge = wqe->num_sge;
		}
		wqe->wr_id = m->srq_wr_id;
		wqe->num_sge = m->num_sge;
		memcpy(sge, keep, m->num_sge * sizeof(*sge));
		return 0;
	}

	avail = mrc_ring_avail(&qp->rq);
	if (avail < 0)
		return MRC_SYN_REMOTE_OP;
	posted = avail;
	idx = rsn - qp->resp.rsn_complete;
	if (idx >= posted)
		return MRC_SYN_RNR;
	slot = mrc_ring_slot(&qp->rq, qp->rq.own + idx);
	memcpy(wqe, slot, sizeof(*wqe));
	if (wqe->num_sge > qp->rq_max_sge || wqe->reserved)
		return MRC_SYN_REMOTE_OP;
	memcpy(sge, slot + 1, wqe->num_sge * sizeof(*sge));
	return 0;
}

static struct mrc_rmsg *mrc_resp_rmsg(struct mrc_qp *qp, u32 rsn)
{
	struct mrc_rmsg *m = &qp->resp.rmsg[rsn & qp->resp.rmsg_mask];

	if (!m->valid || m->rsn != rsn) {
		memset(m, 0, sizeof(*m));
		m->rsn = rsn;
	}
	return m;
}

/* SEND, SEND_IMM and WRITE_IMM: record the message for in-order completion. */
static int mrc_resp_recv_msg(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     const struct mrc_payload *payload)
{
	struct mrc_sge sge[MRC_MAX_SGE];
	struct mrc_recv_wqe wqe;
	struct mrc_rmsg *m;
	u32 rsn = pkt->dph.msn;
	int err;

	if (rsn - qp->resp.rsn_complete >= MRC_QP_WINDOW)
		return MRC_RESP_DROP;
	/* No WQE is posted that far ahead (struct mrc_resp_info). */
	if (rsn - qp->resp.rsn_complete > qp->resp.rmsg_mask)
		return MRC_SYN_RNR;
	m = mrc_resp_rmsg(qp, rsn);
	err = mrc_resp_rwqe(qp, m, rsn, &wqe, sge);
	if (err)
		return err;
	/* Every packet of a message states the same length. */
	if (m->valid && m->len != pkt->dph.msg_len) {
		m->status = IB_WC_LOC_LEN_ERR;
		return MRC_SYN_INVALID_REQ;
	}

	if (pkt->opcode != MRC_OP_WRITE_IMM) {
		u32 total = 0, i;

		for (i = 0; i < wqe.num_sge; i++)
			total += sge[i].length;
		if (pkt->dph.msg_len > total) {
			m->status = IB_WC_LOC_LEN_ERR;
			return MRC_SYN_INVALID_REQ;
		}
		err = mrc_resp_scatter(qp, sge, wqe.num_sge, pkt->dph.offset,
				       payload, pkt->payload_len);
		if (err) {
			m->status = err;
			return MRC_SYN_REMOTE_OP;
		}
	}
	m->valid = true;
	m->len = pkt->dph.msg_len;
	m->got += pkt->payload_len;
	m->opcode = pkt->opcode;
	m->imm = pkt->dph.imm;
	if (pkt->flags & MRC_FLAG_LAST) {
		m->last_seen = true;
		m->last_psn = pkt->psn;
		m->solicited = pkt->flags & MRC_FLAG_SE;
	}
	return 0;
}

static int mrc_resp_write(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			  const struct mrc_payload *payload)
{
	return mrc_mr_write_remote(qp, pkt, payload) ? MRC_SYN_REMOTE_ACCESS : 0;
}

/*
 * Headers of response @k (0-based) of the @npkts that answer READ @req,
 * stamped @now.
 */
static void mrc_resp_read_pkt(struct mrc_qp *qp, const struct mrc_pkt *req,
			      u32 k, u32 npkts, u32 now, struct mrc_pkt *pkt)
{
	u32 len = req->reth.len, off = k * qp->mtu;

	memset(pkt, 0, sizeof(*pkt));
	pkt->opcode = MRC_OP_READ_RESP;
	pkt->psn = req->psn + k;
	pkt->timestamp = now;
	pkt->payload_len = min(qp->mtu, len - off);
	pkt->dph.msn = qp->resp.rsn_complete;
	pkt->dph.offset = off;
	pkt->dph.msg_len = len;
	pkt->flags = (k == 0 ? MRC_FLAG_FIRST : 0) |
		     (k == npkts - 1 ? MRC_FLAG_LAST : 0);
	pkt->ev = req->ev;
	pkt->ev_seq = req->ev_seq;
}

/*
 * Queue responses @k..@k+@n-1 of the @npkts that answer READ @req: one
 * skb, a GSO one for several (they all travel on the request's EV, and
 * leave together: one clock read stamps them all).
 * Return: false when memory is short; the requester asks again.
 */
static bool mrc_resp_read_run(struct mrc_qp *qp, const struct mrc_pkt *req,
			      struct mrc_mr *mr, u32 k, u32 n, u32 npkts)
{
	u32 pkt_len = 0, data = 0, now = mrc_now_ts(), i;
	struct mrc_pkt pkt, last;
	struct sk_buff *skb;
	void *payload;

	mrc_resp_read_pkt(qp, req, k, npkts, now, &pkt);
	if (n == 1) {
		skb = mrc_tx_alloc(qp, &pkt, &payload);
	} else {
		mrc_resp_read_pkt(qp, req, k + n - 1, npkts, now, &last);
		pkt_len = mrc_wire_hdr_len(&pkt) + qp->mtu;
		skb = mrc_tx_alloc_gso(qp, pkt_len, (n - 1) * pkt_len +
				       mrc_wire_hdr_len(&last) +
				       last.payload_len, n);
	}
	if (!skb)
		return false;
	for (i = 0; i < n; i++) {
		if (n > 1) {
			if (i)
				mrc_resp_read_pkt(qp, req, k + i, npkts, now,
						  &pkt);
			payload = mrc_tx_put_gso(qp, skb, i * pkt_len, &pkt);
			if (!payload) {
				kfree_skb(skb);
				return false;
			}
		}
		if (pkt.payload_len)
			mrc_mr_copy(mr, req->reth.va + pkt.dph.offset, payload,
				    pkt.payload_len, false);
		data += pkt.payload_len;
	}
	mrc_ev_acct_answer(qp, req->ev, skb, MRC_EV_TX_DATA, data);
	mrc_tx_queue_answer(qp, skb, req, true);
	return true;
}

/*
 * Responses a duplicate READ request may have again: only for PSNs this
 * responder did receive (before the cumulative point or held), counted
 * from the first, at most MRC_DUP_READ_PKTS and what the QP's bucket
 * holds. A request's later PSNs it never received were never executed:
 * they belong to packets still to come.
 */
static u32 mrc_resp_dup_read_pkts(struct mrc_qp *qp, const struct mrc_pkt *req,
				  u32 npkts)
{
	u32 now = mrc_now_ts(), refill, n;

	refill = (now - qp->resp.dup_read_ts) / MRC_DUP_READ_COST_TS;
	if (refill >= MRC_DUP_READ_BURST) {
		qp->resp.dup_read_tokens = MRC_DUP_READ_BURST;
		qp->resp.dup_read_ts = now;
	} else if (refill) {
		qp->resp.dup_read_tokens =
			min_t(u32, MRC_DUP_READ_BURST,
			      qp->resp.dup_read_tokens + refill);
		qp->resp.dup_read_ts += refill * MRC_DUP_READ_COST_TS;
	}
	n = mrc_rxwin_received_run(&qp->resp.rxwin, req->psn,
				   min3(npkts, (u32)MRC_DUP_READ_PKTS,
					qp->resp.dup_read_tokens));
	qp->resp.dup_read_tokens -= n;
	return n;
}

/*
 * Answer a READ request. A new one records its PSNs as received, run by
 * run as they are queued; a duplicate (reads are idempotent) re-serves
 * what mrc_resp_dup_read_pkts() allows and records nothing.
 */
static int mrc_resp_read(struct mrc_qp *qp, const struct mrc_pkt *req,
			 bool dup)
{
	u32 len = req->reth.len;
	u32 npkts = max_t(u32, 1, DIV_ROUND_UP(len, qp->mtu));
	u32 per_skb = min_t(u32, MRC_GSO_MAX_PKTS, MRC_GSO_MAX_BYTES /
			    (qp->mtu + MRC_WIRE_MAX_HDR_LEN));
	u32 serve = npkts, i, k, n;
	struct mrc_mr *mr = NULL;
	int status;

	if (!(qp->access & IB_ACCESS_REMOTE_READ))
		return MRC_SYN_REMOTE_ACCESS;
	if (npkts > MRC_QP_WINDOW / 2)
		return MRC_SYN_INVALID_REQ;
	if (dup) {
		serve = mrc_resp_dup_read_pkts(qp, req, npkts);
		if (!serve)
			return 0;
	}
	if (len) {
		mr = mrc_mr_get(qp->mdev, req->reth.rkey, qp->ibqp.pd,
				qp->ibqp.qp_num, IB_ACCESS_REMOTE_READ,
				req->reth.va, len, &status);
		if (!mr)
			return MRC_SYN_REMOTE_ACCESS;
	}
	for (k = 0; k < serve; k += n) {
		n = min(serve - k, per_skb);
		if (!mrc_resp_read_run(qp, req, mr, k, n, npkts))
			break;
		for (i = 0; !dup && i < n; i++)
			mrc_rxwin_accept(&qp->resp.rxwin, req->psn + k + i);
	}
	if (mr)
		mrc_mr_put(mr);
	return 0;
}

/* Execute an atomic once; a repeated request gets the remembered result. */
static int mrc_resp_atomic(struct mrc_qp *qp, const struct mrc_pkt *req,
			   bool dup)
{
	const struct mrc_atomic_result *res;
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	struct mrc_mr *mr;
	void *payload;
	int status;
	u64 orig;

	if (dup) {
		/* Only a requester breaking max_rd_atomic asks for more. */
		res = mrc_atomic_cache_find(&qp->resp.atomic_cache, req->psn);
		if (!res)
			return MRC_RESP_DROP;
		orig = res->orig;
	} else {
		if (!(qp->access & IB_ACCESS_REMOTE_ATOMIC))
			return MRC_SYN_REMOTE_ACCESS;
		mr = mrc_mr_get(qp->mdev, req->atomic.rkey, qp->ibqp.pd,
				qp->ibqp.qp_num, IB_ACCESS_REMOTE_ATOMIC,
				req->atomic.va, 8, &status);
		if (!mr)
			return MRC_SYN_REMOTE_ACCESS;
		status = mrc_mr_atomic(mr, req->atomic.va,
				       req->opcode == MRC_OP_CMP_SWP,
				       req->atomic.compare, req->atomic.swap_add,
				       &orig);
		mrc_mr_put(mr);
		if (status)
			return MRC_SYN_INVALID_REQ;
		mrc_atomic_cache_store(&qp->resp.atomic_cache, req->psn, orig);
		mrc_rxwin_accept(&qp->resp.rxwin, req->psn);
	}

	pkt.opcode = MRC_OP_ATOMIC_RESP;
	pkt.psn = req->psn;
	pkt.timestamp = mrc_now_ts();
	pkt.aeth.cum_psn = mrc_rxwin_cum_psn(&qp->resp.rxwin);
	pkt.aeth.msn = qp->resp.rsn_complete;
	pkt.aeth.ev = req->ev;
	pkt.aeth.ev_seq = req->ev_seq;
	pkt.atomic_orig = orig;
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (skb) {
		mrc_ev_acct_answer(qp, req->ev, skb, MRC_EV_TX_ACK, 0);
		mrc_tx_queue_answer(qp, skb, req, true);
	}
	return 0;
}

static void mrc_resp_post_recv_cqe(struct mrc_qp *qp, struct mrc_rmsg *m,
				   u64 wr_id, int status)
{
	struct mrc_cqe cqe = {
		.wr_id = wr_id,
		.status = status,
		.opcode = m->opcode == MRC_OP_WRITE_IMM ?
			  IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV,
		.byte_len = m->len,
		.qp_num = qp->ibqp.qp_num,
		.src_qp = qp->dest_qpn,
	};

	if (m->opcode == MRC_OP_SEND_IMM || m->opcode == MRC_OP_WRITE_IMM) {
		cqe.imm_data = m->imm;
		cqe.wc_flags = IB_WC_WITH_IMM;
	} else if (m->opcode == MRC_OP_SEND_INV && !status) {
		cqe.imm_data = m->imm;
		cqe.wc_flags = MRC_WC_WITH_INV;
	}
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &cqe, &qp->ibqp, m->solicited);
}

/* Complete, in RSN order, messages whose every PSN has arrived. */
static void mrc_resp_complete(struct mrc_qp *qp)
{
	u32 cum = mrc_rxwin_cum_psn(&qp->resp.rxwin);

	for (;;) {
		struct mrc_rmsg *m = &qp->resp.rmsg[qp->resp.rsn_complete &
						    qp->resp.rmsg_mask];
		bool fail;
		u64 wr_id;

		if (!m->valid || m->rsn != qp->resp.rsn_complete || !m->last_seen ||
		    !mrc_psn_before(m->last_psn, cum))
			break;
		/*
		 * Every PSN arrived, yet the packets did not bring the length
		 * they state: report no data as delivered that never came.
		 */
		fail = m->got != m->len && !m->status;
		if (fail) {
			m->status = IB_WC_LOC_LEN_ERR;
			mrc_stats_inc(&qp->mdev->stats, MRC_STAT_RCVD_SHORT_MSG);
		}
		/*
		 * The data is in place before the MR goes: the consumer that
		 * sees the completion finds it invalid. A key naming no valid
		 * MR of the QP's PD fails the receive, as IB's class J error.
		 */
		if (m->opcode == MRC_OP_SEND_INV && !m->status) {
			if (mrc_mr_invalidate(qp->mdev, qp->ibqp.pd, m->imm,
					      qp->ibqp.qp_num)) {
				m->status = IB_WC_REM_INV_REQ_ERR;
				fail = true;
			} else {
				mrc_stats_inc(&qp->mdev->stats,
					      MRC_STAT_MR_REMOTE_INV);
			}
		}
		if (qp->srq) {
			wr_id = m->srq_wr_id;
		} else {
			const struct mrc_recv_wqe *slot =
				mrc_ring_slot(&qp->rq, qp->rq.own);

			wr_id = READ_ONCE(slot->wr_id);
			/* Free the slot before the completion is visible. */
			mrc_ring_consume(&qp->rq);
		}
		mrc_resp_post_recv_cqe(qp, m, wr_id, m->status);
		m->valid = false;
		qp->resp.rsn_complete++;
		if (fail) {
			/* Flushes what follows and clears the messages. */
			mrc_qp_error_locked(qp);
			break;
		}
	}
}

/* Run a new request; returns 0, a NACK syndrome or MRC_RESP_DROP. */
static int mrc_resp_execute(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			    const struct mrc_payload *payload)
{
	int err;

	switch (pkt->opcode) {
	case MRC_OP_WRITE:
		return mrc_resp_write(qp, pkt, payload);
	case MRC_OP_WRITE_IMM:
		err = mrc_resp_write(qp, pkt, payload);
		return err ? err : mrc_resp_recv_msg(qp, pkt, payload);
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
		return mrc_resp_recv_msg(qp, pkt, payload);
	case MRC_OP_READ_REQ:
		return mrc_resp_read(qp, pkt, false);
	default:
		return mrc_resp_atomic(qp, pkt, false);
	}
}

/*
 * Whether the request just accepted is acknowledged now. While PSNs are
 * held out of order the cumulative point stands still and the sender
 * learns from SACKs which PSNs it must resend. The first PSN held, the
 * one that opens a hole, is SACKed at once: the sender times its loss
 * inference from it (mrc_loss.c), and a small window may send nothing
 * after it to carry a later SACK. Then every MRC_SACK_EVERY packets is
 * soon enough. A SACK for every packet would cost, until a lost one is
 * resent, an ACK and a scan of the sender's window per packet: a dead
 * path turned into a storm that delayed the very ACKs the other paths'
 * health is judged by. A PSN that closes a hole is acknowledged at once:
 * the cumulative point then jumps, and the sender's window opens by as
 * much. So is every request while the PSN last trimmed is missing: the
 * sender's window holds it and the packets already in flight, none of
 * which may have asked for an ACK (the one that did may be the trimmed
 * one), and the resend waits for their ACKs to make room
 * (mrc_req_retransmit()). @held_before is the count of held PSNs before
 * the request ran.
 */
static bool mrc_resp_ack_due(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     u32 held_before)
{
	u32 held = mrc_rxwin_held(&qp->resp.rxwin);

	if (qp->resp.trim_missing &&
	    mrc_rxwin_check(&qp->resp.rxwin, qp->resp.trim_psn) == MRC_RX_DUPLICATE)
		qp->resp.trim_missing = false;
	if (held < held_before || (held && !held_before) || qp->resp.trim_missing)
		return true;
	if (++qp->resp.unacked >= (held ? MRC_SACK_EVERY : MRC_ACK_EVERY))
		return true;
	if (!(pkt->flags & MRC_FLAG_AR))
		return false;
	/* An ACK asked for may wait for the program's answer to carry it. */
	return held || !mrc_dack_hold(qp, pkt);
}

/*
 * A duplicate is answered at once: its sender is recovering. When the
 * copy that arrived first is not acknowledged yet, the ACK echoes that
 * copy's time, not the duplicate's, as TCP's timestamps echo the segment
 * that moved the left edge (RFC 7323 section 4.3): the sender's first
 * ACK after a timeout then tells that the timeout was spurious (Eifel),
 * and gives back the EV it blamed. Such an echo times nothing it could
 * sample (the wait before it is unknown): its service time says so.
 */
static void mrc_resp_ack_duplicate(struct mrc_qp *qp,
				   const struct mrc_pkt *pkt)
{
	if (qp->resp.edge_ts && !mrc_psn_before(pkt->psn, qp->resp.acked_cum))
		mrc_ack_send_echo(qp, pkt, qp->resp.edge_ts);
	else
		mrc_ack_send(qp, pkt, 0);
}

/**
 * mrc_resp_rx() - a request packet for this QP
 * @qp: the QP
 * @pkt: validated headers
 * @payload: where its payload lies
 * @ce: the packet arrived CE-marked
 */
void mrc_resp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce)
{
	struct mrc_stats *stats = &qp->mdev->stats;
	enum mrc_rx_verdict verdict;
	int syn = 0;
	u32 held;

	spin_lock(&qp->lock);
	if (!mrc_qp_receives(qp)) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_NOT_READY);
		goto out;
	}
	mrc_ev_acct_rx(qp, pkt);
	if (ce)
		qp->resp.ce_count++;

	verdict = mrc_rxwin_check(&qp->resp.rxwin, pkt->psn);
	if (verdict == MRC_RX_OUT_OF_WINDOW) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_OUT_OF_WINDOW);
		goto out;
	}
	if (verdict == MRC_RX_DUPLICATE) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_DUPLICATE);
		if (pkt->opcode == MRC_OP_READ_REQ)
			mrc_resp_read(qp, pkt, true);
		else if (pkt->opcode == MRC_OP_CMP_SWP ||
			 pkt->opcode == MRC_OP_FETCH_ADD)
			mrc_resp_atomic(qp, pkt, true);
		mrc_resp_ack_duplicate(qp, pkt);
		goto out;
	}
	/*
	 * A switch cut the payload off: the path works but the data is not
	 * here. Ask for this PSN again; it stays unreceived.
	 */
	if (pkt->flags & MRC_FLAG_TRIM) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_TRIMMED);
		mrc_ack_send(qp, pkt, MRC_SYN_TRIMMED);
		qp->resp.trim_psn = pkt->psn;
		qp->resp.trim_missing = true;
		goto out;
	}
	/* Nothing after an RNR'd message runs before it (mrc_rnr.h). */
	if (mrc_rnr_gate_drops(&qp->resp.rnr_gate, pkt->psn)) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_RNR_GATED);
		goto out;
	}

	/* Before it runs: READ and ATOMIC record their PSN as they do. */
	held = mrc_rxwin_held(&qp->resp.rxwin);
	syn = mrc_resp_execute(qp, pkt, payload);
	if (syn == MRC_RESP_DROP) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_NO_STATE);
		goto out;
	}
	if (syn) {
		pr_debug("mrc: qp %u nack %u for %s psn %u\n", qp->ibqp.qp_num,
			 syn, mrc_wire_opcode_name(pkt->opcode), pkt->psn);
		mrc_ack_send(qp, pkt, syn);
		if (syn == MRC_SYN_RNR)
			mrc_rnr_gate_close(&qp->resp.rnr_gate, pkt->psn);
		else
			mrc_qp_error_locked(qp);
		goto out;
	}
	mrc_rnr_gate_executed(&qp->resp.rnr_gate, pkt->psn);
	/* READ and ATOMIC record their PSNs themselves. */
	if (pkt->opcode != MRC_OP_READ_REQ && pkt->opcode != MRC_OP_CMP_SWP &&
	    pkt->opcode != MRC_OP_FETCH_ADD)
		mrc_rxwin_accept(&qp->resp.rxwin, pkt->psn);
	if (!qp->resp.edge_ts && mrc_rxwin_cum_psn(&qp->resp.rxwin) != qp->resp.acked_cum)
		qp->resp.edge_ts = pkt->timestamp;
	mrc_resp_complete(qp);
	if (mrc_resp_ack_due(qp, pkt, held))
		mrc_ack_send(qp, pkt, 0);
out:
	spin_unlock(&qp->lock);
}

/**
 * mrc_resp_clear_msgs() - forget every message being received
 * @qp: the QP, with @qp->lock held or not yet receiving
 */
void mrc_resp_clear_msgs(struct mrc_qp *qp)
{
	memset(qp->resp.rmsg, 0,
	       (qp->resp.rmsg_mask + 1) * sizeof(*qp->resp.rmsg));
}

/*
 * SRQ WQEs that messages still under way took: they left the SRQ, so
 * only this QP can give them back, as flushed, in RSN order.
 */
static void mrc_resp_flush_srq_taken(struct mrc_qp *qp)
{
	u32 rsn = qp->resp.rsn_complete, end = rsn + qp->resp.rmsg_mask + 1;

	for (; rsn != end; rsn++) {
		struct mrc_rmsg *m = &qp->resp.rmsg[rsn & qp->resp.rmsg_mask];

		if (m->rsn == rsn && m->has_srq_wqe)
			mrc_resp_post_recv_cqe(qp, m, m->srq_wr_id,
					       m->status ?: IB_WC_WR_FLUSH_ERR);
	}
}

/**
 * mrc_resp_flush() - complete every posted receive WQE: flushed, or the
 *                    error of the message that ended the QP
 * @qp: the QP in the error state, with @qp->lock held
 */
void mrc_resp_flush(struct mrc_qp *qp)
{
	struct mrc_rmsg m = { .opcode = MRC_OP_SEND };
	u32 rsn = qp->resp.rsn_complete;
	int avail;

	if (qp->srq) {
		mrc_resp_flush_srq_taken(qp);
		mrc_uc_flush_held(qp);
		mrc_resp_clear_msgs(qp);
		return;
	}
	/*
	 * Receive WQEs are used in RSN order: the one whose message ended
	 * the QP (say, too small for it) reports that error, the others
	 * are flushed.
	 */
	avail = mrc_ring_avail(&qp->rq);
	for (; avail > 0; avail--, rsn++) {
		const struct mrc_recv_wqe *slot =
			mrc_ring_slot(&qp->rq, qp->rq.own);
		const struct mrc_rmsg *r =
			&qp->resp.rmsg[rsn & qp->resp.rmsg_mask];
		u64 wr_id = READ_ONCE(slot->wr_id);
		int status = IB_WC_WR_FLUSH_ERR;

		if (rsn - qp->resp.rsn_complete <= qp->resp.rmsg_mask &&
		    r->rsn == rsn && r->status)
			status = r->status;
		mrc_ring_consume(&qp->rq);
		mrc_resp_post_recv_cqe(qp, &m, wr_id, status);
	}
	mrc_resp_clear_msgs(qp);
	qp->resp.rsn_complete = 0;
	qp->req.next_rsn = 0;
}
