/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP's congestion control: the algorithm its CC profile names (the
 * AIMD window, counted in PSNs, or NSCC, counted in bytes) behind one set
 * of calls in PSNs. NSCC counts every PSN as a full MTU: a message's short
 * last packet is charged as full, which errs on the safe side.
 */
#ifndef MRC_CC_H
#define MRC_CC_H

#include "core/mrc_cwnd.h"
#include "core/mrc_nscc.h"

struct mrc_qp;

enum mrc_qp_cc_alg {
	MRC_QP_CC_WINDOW,
	MRC_QP_CC_NSCC,
};

/**
 * struct mrc_qp_cc - a QP's congestion control
 * @alg: enum mrc_qp_cc_alg
 * @win_params: the window's parameters, from the CC profile
 * @nscc_params: NSCC's parameters, from the CC profile
 * @win: the window's state, when @alg is MRC_QP_CC_WINDOW
 * @nscc: NSCC's state, when @alg is MRC_QP_CC_NSCC
 */
struct mrc_qp_cc {
	u8 alg;
	struct mrc_cwnd_params win_params;
	struct mrc_nscc_params nscc_params;
	struct mrc_cwnd win;
	struct mrc_nscc nscc;
};

/**
 * struct mrc_cc_report - a snapshot of a QP's congestion control
 * @nscc: the QP runs NSCC; the fields below @srtt_ns are NSCC's
 * @cwnd_pkts: the window in packets
 * @cwnd_bytes: the window in bytes
 * @srtt_ns: the timer's smoothed RTT
 * @base_rtt_ns: NSCC's lowest RTT seen
 * @delay_ns: NSCC's last queueing delay sample
 * @avg_delay_ns: their moving average
 * @acked_bytes: bytes acknowledged
 * @ecn_bytes: of them, acknowledged with a CE mark
 * @qa_cuts: QuickAdapt cuts
 * @md_cuts: multiplicative decreases
 */
struct mrc_cc_report {
	bool nscc;
	u32 cwnd_pkts;
	u32 cwnd_bytes;
	u64 srtt_ns;
	u32 base_rtt_ns;
	u32 delay_ns;
	u32 avg_delay_ns;
	u64 acked_bytes;
	u64 ecn_bytes;
	u32 qa_cuts;
	u32 md_cuts;
};

void mrc_cc_report(const struct mrc_qp *qp, struct mrc_cc_report *r);
void mrc_cc_use_window(struct mrc_qp *qp, const struct mrc_cwnd_params *p);
void mrc_cc_use_nscc(struct mrc_qp *qp, const struct mrc_nscc_params *p);
void mrc_cc_restart(struct mrc_qp *qp, u32 next_psn);
u32 mrc_cc_cwnd(const struct mrc_qp *qp);
u32 mrc_cc_room(const struct mrc_qp *qp, u32 outstanding);
void mrc_cc_on_ack(struct mrc_qp *qp, u32 acked, u32 marked, u64 rtt_ns);
bool mrc_cc_on_delay(struct mrc_qp *qp, u32 qdelay_ts);
void mrc_cc_on_loss(struct mrc_qp *qp, u32 lost);
bool mrc_cc_on_trim(struct mrc_qp *qp);
void mrc_cc_on_timeout(struct mrc_qp *qp);
void mrc_cc_undo(struct mrc_qp *qp);

#endif /* MRC_CC_H */
