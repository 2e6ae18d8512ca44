/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Receiver not ready (RNR): the timer code an RNR NACK carries, the
 * requester's retry accounting and the responder's gate. Pure logic with
 * no ib_core dependency, so KUnit drives it directly.
 *
 * Timer code. The responder's min_rnr_timer attribute is the IB 5-bit
 * code c (0..31). From c = 2 on, the wait doubles every second code, the
 * odd codes lying halfway (times 1.5) between their even neighbours:
 *
 *   c = 1:       0.01 ms
 *   c = 2k:      0.01 ms * 2^k          (k = 1..15: 0.02 ms .. 327.68 ms)
 *   c = 2k + 1:  0.01 ms * 2^k * 1.5    (k = 1..15: 0.03 ms .. 491.52 ms)
 *   c = 0:       655.36 ms (0.01 ms * 2^16, the longest)
 *
 * Requester. An RNR NACK for PSN p stops transmission for the decoded
 * time, after which everything outstanding and not SACKed is sent again,
 * from p on. RNR NACKs for the same p count retries against rnr_retry
 * (0..6; 7 retries without limit); one more than allowed fails the WQE
 * with IB_WC_RNR_RETRY_EXC_ERR. An RNR NACK for another PSN starts a new
 * count. NACKs arriving during a wait are ignored, and so are NACKs of p
 * whose echoed timestamp predates the last resume: the resume already
 * sent p again, and counting a late NACK would keep two copies of p
 * cycling and spend retries twice as fast. (Every answer echoes the
 * timestamp of the copy it answers, a retransmission's too.)
 *
 * Responder. After answering PSN p with an RNR NACK the responder drops
 * every new PSN after p, without executing or acknowledging it, until p
 * itself executes; PSNs before p (holes) and duplicates are handled as
 * usual. So nothing after a SEND that found no receive WQE takes effect
 * before that SEND, and each arrival of p costs one NACK, not one per
 * packet in flight. The requester's resend of everything outstanding
 * matches this: the PSNs after p that were dropped are sent again.
 *
 * No locking inside: the caller serialises all calls on a structure.
 */
#ifndef MRC_RNR_H
#define MRC_RNR_H

#include <linux/types.h>

#define MRC_RNR_TIMER_MAX	31	/* largest timer code */
#define MRC_RNR_RETRY_INFINITE	7	/* rnr_retry: retry without limit */

/**
 * mrc_rnr_timer_ns() - decode an IB RNR timer code
 * @code: the 5-bit code, 0..31
 *
 * Return: the wait in nanoseconds; 655.36 ms (the longest) for codes
 * over 31, which the wire format never delivers.
 */
u64 mrc_rnr_timer_ns(u8 code);

/**
 * struct mrc_rnr - requester state of receiver-not-ready retries
 * @psn: PSN of the RNR NACK being retried
 * @resume_ts: when the last wait for @psn ended, 1.024 us units
 * @retries: RNR retries of @psn so far
 * @active: @psn and @retries are valid
 * @resumed: @resume_ts is valid
 * @waiting: transmission is stopped until the wait ends
 */
struct mrc_rnr {
	u32 psn;
	u32 resume_ts;
	u8 retries;
	bool active;
	bool resumed;
	bool waiting;
};

/**
 * enum mrc_rnr_verdict - what to do about an RNR NACK
 * @MRC_RNR_IGNORE: already waiting, or a late NACK; nothing changes
 * @MRC_RNR_WAIT: stop sending, wait, then resend from the PSN
 * @MRC_RNR_EXCEEDED: retries are exhausted: fail the WQE
 */
enum mrc_rnr_verdict {
	MRC_RNR_IGNORE,
	MRC_RNR_WAIT,
	MRC_RNR_EXCEEDED,
};

/**
 * mrc_rnr_on_nack() - account for an RNR NACK of an outstanding PSN
 * @rnr: requester state
 * @psn: the PSN the NACK names
 * @echo_ts: the timestamp the NACK echoes (0: none)
 * @rnr_retry: the QP attribute, 0..7 (7: without limit; larger counts as 7)
 *
 * Return: the verdict; on %MRC_RNR_WAIT @rnr is waiting.
 */
enum mrc_rnr_verdict mrc_rnr_on_nack(struct mrc_rnr *rnr, u32 psn,
				     u32 echo_ts, u8 rnr_retry);

/**
 * mrc_rnr_resume() - the wait ended
 * @rnr: requester state
 * @now_ts: the time, 1.024 us units
 *
 * Return: true when a wait was running (the caller resends now).
 */
bool mrc_rnr_resume(struct mrc_rnr *rnr, u32 now_ts);

/**
 * mrc_rnr_reset() - forget all RNR state
 * @rnr: requester state
 */
static inline void mrc_rnr_reset(struct mrc_rnr *rnr)
{
	*rnr = (struct mrc_rnr){};
}

/**
 * struct mrc_rnr_gate - responder state after an RNR NACK
 * @psn: the PSN answered with an RNR NACK
 * @closed: new PSNs after @psn are dropped
 */
struct mrc_rnr_gate {
	u32 psn;
	bool closed;
};

/**
 * mrc_rnr_gate_drops() - whether a new PSN must be dropped
 * @gate: responder state
 * @psn: PSN of an arriving packet that is not a duplicate
 *
 * Return: true when the gate is closed and @psn comes after its PSN.
 */
bool mrc_rnr_gate_drops(const struct mrc_rnr_gate *gate, u32 psn);

/**
 * mrc_rnr_gate_close() - an RNR NACK answered a PSN
 * @gate: responder state
 * @psn: the PSN; the gate keeps the earliest of those NACKed
 */
void mrc_rnr_gate_close(struct mrc_rnr_gate *gate, u32 psn);

/**
 * mrc_rnr_gate_executed() - a PSN executed
 * @gate: responder state
 * @psn: the PSN; opens the gate when it is the gate's PSN
 */
void mrc_rnr_gate_executed(struct mrc_rnr_gate *gate, u32 psn);

/**
 * mrc_rnr_gate_reset() - open the gate and forget its PSN
 * @gate: responder state
 */
static inline void mrc_rnr_gate_reset(struct mrc_rnr_gate *gate)
{
	*gate = (struct mrc_rnr_gate){};
}

#endif /* MRC_RNR_H */
