// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receiver not ready: timer decoding, retry accounting, responder gate.
 * The rules are in mrc_rnr.h.
 */
#include <linux/kernel.h>

#include "mrc_psn.h"
#include "mrc_rnr.h"

#define MRC_RNR_UNIT_NS	10000ULL	/* 0.01 ms */

/* The IB RNR timer table in units of 0.01 ms, indexed by code. */
static const u32 mrc_rnr_timer_units[MRC_RNR_TIMER_MAX + 1] = {
	65536,	1,	2,	3,	4,	6,	8,	12,
	16,	24,	32,	48,	64,	96,	128,	192,
	256,	384,	512,	768,	1024,	1536,	2048,	3072,
	4096,	6144,	8192,	12288,	16384,	24576,	32768,	49152,
};

u64 mrc_rnr_timer_ns(u8 code)
{
	if (code > MRC_RNR_TIMER_MAX)
		code = 0;
	return mrc_rnr_timer_units[code] * MRC_RNR_UNIT_NS;
}

/* The NACK answers a copy of the episode's PSN sent before the resume. */
static bool mrc_rnr_late(const struct mrc_rnr *rnr, u32 psn, u32 echo_ts)
{
	return rnr->active && rnr->resumed && rnr->psn == psn && echo_ts &&
	       (s32)(echo_ts - rnr->resume_ts) < 0;
}

enum mrc_rnr_verdict mrc_rnr_on_nack(struct mrc_rnr *rnr, u32 psn,
				     u32 echo_ts, u8 rnr_retry)
{
	if (rnr->waiting || mrc_rnr_late(rnr, psn, echo_ts))
		return MRC_RNR_IGNORE;
	if (!rnr->active || rnr->psn != psn) {
		rnr->psn = psn;
		rnr->retries = 0;
		rnr->active = true;
		rnr->resumed = false;
	}
	if (rnr_retry < MRC_RNR_RETRY_INFINITE && rnr->retries >= rnr_retry)
		return MRC_RNR_EXCEEDED;
	if (rnr->retries < U8_MAX)
		rnr->retries++;
	rnr->waiting = true;
	return MRC_RNR_WAIT;
}

bool mrc_rnr_resume(struct mrc_rnr *rnr, u32 now_ts)
{
	if (!rnr->waiting)
		return false;
	rnr->waiting = false;
	rnr->resume_ts = now_ts;
	rnr->resumed = true;
	return true;
}

bool mrc_rnr_gate_drops(const struct mrc_rnr_gate *gate, u32 psn)
{
	return gate->closed && mrc_psn_after(psn, gate->psn);
}

void mrc_rnr_gate_close(struct mrc_rnr_gate *gate, u32 psn)
{
	if (!gate->closed || mrc_psn_before(psn, gate->psn))
		gate->psn = psn;
	gate->closed = true;
}

void mrc_rnr_gate_executed(struct mrc_rnr_gate *gate, u32 psn)
{
	if (gate->closed && psn == gate->psn)
		gate->closed = false;
}
