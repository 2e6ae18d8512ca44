// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the responder's use of the core: request packets from the wire
 * are decoded (kernel/core/mrc_wire.c) and run through the receive window
 * (mrc_rxwin.c), the RNR gate (mrc_rnr.c) and the atomic cache
 * (mrc_atomic_cache.c) in the order mrc_resp_rx() calls them; every
 * ACK, SACK, NACK and ATOMIC_RESP built from that state must pass the
 * encoder's validation and decode back to the same headers, and each
 * SACK bit must agree with the window.
 *
 * Input: window size (1 byte), start PSN (4 bytes), RNR timer (1 byte),
 * then records: a control byte (bit 0: no receive WQE, so a SEND gets
 * an RNR NACK; bit 1: the R_Key check fails; 0xff: the QP is reset to
 * the PSN in the next 4 bytes) and a frame (2-byte length, a datagram).
 */
#include <string.h>

#include <linux/kernel.h>

#include "fuzz_util.h"
#include "mrc_atomic_cache.h"
#include "mrc_psn.h"
#include "mrc_rnr.h"
#include "mrc_rxwin.h"
#include "mrc_wire.h"

#define FUZZ_MTU	4096	/* what mrc_rx.c decodes with */
#define QP_MTU		1024	/* the QP's path MTU */
#define ATOMIC_LOG	256	/* executed atomics remembered by the harness */

#define CTL_RNR		0x01
#define CTL_ACCESS	0x02
#define CTL_RESET	0xff

struct resp {
	struct mrc_rxwin win;
	struct mrc_rnr_gate gate;
	struct mrc_atomic_cache cache;
	u8 rnr_timer;
	u32 now;
	bool error;
	struct {
		u32 psn;
		u64 orig;
		bool valid;
	} log[ATOMIC_LOG];
	unsigned int nlog;
};

/* Every SACK bit against the window's own verdict for that PSN. */
static void check_sack(const struct resp *r, const struct mrc_pkt *ack)
{
	u32 cum = mrc_rxwin_cum_psn(&r->win), size = mrc_rxwin_size(&r->win);
	unsigned int w, i;

	FUZZ_CHECK(ack->sack.base_psn == cum, "SACK base %u, cum %u",
		   ack->sack.base_psn, cum);
	FUZZ_CHECK(!(ack->sack.bitmap[0] & 1), "cum %u SACKed", cum);
	for (w = 0; w < ack->sack.nwords; w++)
		for (i = 0; i < 64; i++) {
			u32 psn = cum + 64 * w + i;
			bool bit = (ack->sack.bitmap[w] >> i) & 1;

			if (64 * w + i >= size) {
				FUZZ_CHECK(!bit, "psn %u beyond window SACKed",
					   psn);
				continue;
			}
			FUZZ_CHECK(bit == (mrc_rxwin_check(&r->win, psn) ==
					   MRC_RX_DUPLICATE),
				   "SACK bit %u of psn %u disagrees", bit, psn);
		}
	if (ack->sack.nwords > 1)
		FUZZ_CHECK(ack->sack.bitmap[ack->sack.nwords - 1],
			   "SACK with an empty last word (%u words)",
			   ack->sack.nwords);
}

/* Encode @pkt as the transmit path does, decode it as the peer will. */
static void send_pkt(const struct mrc_pkt *pkt)
{
	unsigned int len = mrc_wire_hdr_len(pkt), hl;
	struct mrc_pkt back;
	enum mrc_wire_err err;
	u8 *buf = malloc(len);

	err = mrc_wire_encode(pkt, QP_MTU, buf, len, &hl);
	FUZZ_CHECK(err == MRC_WIRE_OK, "%s refused: %s",
		   mrc_wire_opcode_name(pkt->opcode), mrc_wire_err_name(err));
	err = mrc_wire_decode(buf, hl, FUZZ_MTU, &back);
	FUZZ_CHECK(err == MRC_WIRE_OK, "peer rejects our %s: %s",
		   mrc_wire_opcode_name(pkt->opcode), mrc_wire_err_name(err));
	FUZZ_CHECK(back.psn == pkt->psn && back.aeth.cum_psn == pkt->aeth.cum_psn &&
		   back.aeth.syndrome == pkt->aeth.syndrome &&
		   back.aeth.rnr_timer == pkt->aeth.rnr_timer &&
		   back.sack.nwords == pkt->sack.nwords &&
		   !memcmp(back.sack.bitmap, pkt->sack.bitmap,
			   sizeof(back.sack.bitmap)) &&
		   back.atomic_orig == pkt->atomic_orig,
		   "%s changed on the wire", mrc_wire_opcode_name(pkt->opcode));
	free(buf);
}

/* As mrc_ack_send() and mrc_ack_fill_aeth() build it. */
static void send_ack(struct resp *r, const struct mrc_pkt *req, u8 syndrome)
{
	struct mrc_pkt pkt = {};

	pkt.opcode = syndrome ? MRC_OP_NACK : MRC_OP_ACK;
	pkt.psn = req->psn;
	pkt.timestamp = r->now;
	pkt.aeth.cum_psn = mrc_rxwin_cum_psn(&r->win);
	pkt.aeth.ev = req->ev;
	pkt.aeth.syndrome = syndrome;
	if (syndrome == MRC_SYN_RNR)
		pkt.aeth.rnr_timer = r->rnr_timer;
	pkt.aeth.ev_seq = req->ev_seq;
	pkt.aeth.timestamp = req->timestamp;
	FUZZ_CHECK(mrc_rxwin_held(&r->win) < mrc_rxwin_size(&r->win),
		   "held %u of %u", mrc_rxwin_held(&r->win),
		   mrc_rxwin_size(&r->win));
	pkt.aeth.window = mrc_rxwin_size(&r->win) - mrc_rxwin_held(&r->win);
	if (!syndrome && mrc_rxwin_held(&r->win)) {
		pkt.opcode = MRC_OP_SACK;
		pkt.sack.nwords = mrc_rxwin_fill_sack(&r->win, &pkt.sack.base_psn,
						      MRC_SACK_MAX_WORDS,
						      pkt.sack.bitmap);
		check_sack(r, &pkt);
	}
	send_pkt(&pkt);
}

static void log_atomic(struct resp *r, u32 psn, u64 orig)
{
	r->log[r->nlog % ATOMIC_LOG].psn = psn;
	r->log[r->nlog % ATOMIC_LOG].orig = orig;
	r->log[r->nlog % ATOMIC_LOG].valid = true;
	r->nlog++;
}

/* A remembered result must be the one stored for that PSN. */
static void check_atomic(const struct resp *r, u32 psn)
{
	const struct mrc_atomic_result *res = mrc_atomic_cache_find(&r->cache,
								    psn);
	unsigned int i;

	if (!res)
		return;
	FUZZ_CHECK(res->valid && res->psn == psn, "found psn %u for %u",
		   res->psn, psn);
	for (i = r->nlog; i-- > 0 && r->nlog - i <= ATOMIC_LOG;) {
		if (!r->log[i % ATOMIC_LOG].valid ||
		    r->log[i % ATOMIC_LOG].psn != psn)
			continue;
		FUZZ_CHECK(res->orig == r->log[i % ATOMIC_LOG].orig,
			   "atomic psn %u: %llx, executed with %llx", psn,
			   (unsigned long long)res->orig,
			   (unsigned long long)r->log[i % ATOMIC_LOG].orig);
		return;
	}
}

static void send_atomic_resp(struct resp *r, const struct mrc_pkt *req,
			     u64 orig)
{
	struct mrc_pkt pkt = {};

	pkt.opcode = MRC_OP_ATOMIC_RESP;
	pkt.psn = req->psn;
	pkt.timestamp = r->now;
	pkt.aeth.cum_psn = mrc_rxwin_cum_psn(&r->win);
	pkt.aeth.ev = req->ev;
	pkt.aeth.ev_seq = req->ev_seq;
	pkt.atomic_orig = orig;
	send_pkt(&pkt);
}

/* A new request; returns 0 or a NACK syndrome. */
static u8 execute(struct resp *r, const struct mrc_pkt *pkt, u8 ctl)
{
	const struct mrc_atomic_result *res;
	u32 npkts, i;
	u64 orig;

	if (ctl & CTL_ACCESS && pkt->opcode != MRC_OP_SEND &&
	    pkt->opcode != MRC_OP_SEND_IMM)
		return MRC_SYN_REMOTE_ACCESS;
	switch (pkt->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_WRITE_IMM:
		return ctl & CTL_RNR ? MRC_SYN_RNR : 0;
	case MRC_OP_READ_REQ:
		npkts = max_t(u32, 1, DIV_ROUND_UP(pkt->reth.len, QP_MTU));
		/* The kernel's bound, MRC_QP_WINDOW / 2, is half its window. */
		if (npkts > mrc_rxwin_size(&r->win) / 2)
			return MRC_SYN_INVALID_REQ;
		for (i = 0; i < npkts; i++)
			mrc_rxwin_accept(&r->win, pkt->psn + i);
		return 0;
	case MRC_OP_CMP_SWP:
	case MRC_OP_FETCH_ADD:
		orig = pkt->atomic.swap_add ^ ((u64)r->now << 32) ^ pkt->psn;
		mrc_atomic_cache_store(&r->cache, pkt->psn, orig);
		log_atomic(r, pkt->psn, orig);
		res = mrc_atomic_cache_find(&r->cache, pkt->psn);
		FUZZ_CHECK(res && res->orig == orig, "atomic %u not kept",
			   pkt->psn);
		mrc_rxwin_accept(&r->win, pkt->psn);
		send_atomic_resp(r, pkt, orig);
		return 0;
	default:
		return 0;
	}
}

static void receive(struct resp *r, const u8 *buf, size_t len, u8 ctl)
{
	enum mrc_rx_verdict verdict;
	struct mrc_pkt pkt;
	u8 syn;

	if (mrc_wire_decode(buf, len, FUZZ_MTU, &pkt) != MRC_WIRE_OK ||
	    pkt.opcode > MRC_OP_FETCH_ADD || pkt.opcode == MRC_OP_READ_RESP)
		return;
	verdict = mrc_rxwin_check(&r->win, pkt.psn);
	if (verdict == MRC_RX_OUT_OF_WINDOW)
		return;
	if (verdict == MRC_RX_DUPLICATE) {
		if (pkt.opcode == MRC_OP_CMP_SWP || pkt.opcode == MRC_OP_FETCH_ADD)
			check_atomic(r, pkt.psn);
		send_ack(r, &pkt, 0);
		return;
	}
	if (mrc_rnr_gate_drops(&r->gate, pkt.psn)) {
		FUZZ_CHECK(mrc_psn_after(pkt.psn, r->gate.psn),
			   "gate at %u drops %u", r->gate.psn, pkt.psn);
		return;
	}
	syn = execute(r, &pkt, ctl);
	if (syn) {
		send_ack(r, &pkt, syn);
		if (syn == MRC_SYN_RNR) {
			mrc_rnr_gate_close(&r->gate, pkt.psn);
			FUZZ_CHECK(r->gate.closed &&
				   !mrc_psn_after(r->gate.psn, pkt.psn),
				   "gate %u after RNR of %u", r->gate.psn,
				   pkt.psn);
		} else {
			r->error = true;
		}
		return;
	}
	mrc_rnr_gate_executed(&r->gate, pkt.psn);
	FUZZ_CHECK(!r->gate.closed || r->gate.psn != pkt.psn,
		   "gate still closed on executed %u", pkt.psn);
	if (pkt.opcode != MRC_OP_READ_REQ && pkt.opcode != MRC_OP_CMP_SWP &&
	    pkt.opcode != MRC_OP_FETCH_ADD)
		FUZZ_CHECK(mrc_rxwin_accept(&r->win, pkt.psn) == MRC_RX_NEW,
			   "checked new, accepted otherwise: %u", pkt.psn);
	FUZZ_CHECK(mrc_rxwin_check(&r->win, pkt.psn) == MRC_RX_DUPLICATE,
		   "executed psn %u not recorded", pkt.psn);
	send_ack(r, &pkt, 0);
}

static void reset(struct resp *r, u32 psn)
{
	mrc_rxwin_reset(&r->win, psn);
	mrc_rnr_gate_reset(&r->gate);
	mrc_atomic_cache_reset(&r->cache);
	memset(r->log, 0, sizeof(r->log));
	r->error = false;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	static struct resp r;
	u32 wsize = (fin_u8(&in) % (MRC_RXWIN_MAX / MRC_RXWIN_UNIT) + 1) *
		    MRC_RXWIN_UNIT;
	const u8 *buf;
	size_t len;
	u8 ctl;

	memset(&r, 0, sizeof(r));
	FUZZ_CHECK(!mrc_rxwin_init(&r.win, fin_u32(&in), wsize), "init");
	r.rnr_timer = fin_u8(&in) % (MRC_RNR_TIMER_MAX + 1);
	while (in.n) {
		ctl = fin_u8(&in);
		if (ctl == CTL_RESET) {
			reset(&r, fin_u32(&in));
			continue;
		}
		len = fin_frame(&in, &buf);
		r.now += 7;
		/* The QP went to error: nothing more is received. */
		if (!r.error)
			receive(&r, buf, len, ctl);
	}
	mrc_rxwin_destroy(&r.win);
	return 0;
}
