/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NSCC, UEC 1.0's network-signal congestion control (OCP's CC profile
 * "uet-1.0-nscc"): a window in bytes steered by ECN and by queueing delay
 * (RTT less the lowest RTT seen, less the responder's service time).
 * Pure arithmetic in bytes and nanoseconds; the engine feeds it and asks
 * it for room. Documentation/multipath.rst says where MRC for Linux
 * departs from UEC and why.
 */
#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include <linux/types.h>

/*
 * Defaults for a software transport, whose round trip is hundreds of
 * microseconds and whose CPUs stall for milliseconds (UEC's assume a
 * 12 us hardware fabric): set them for the fabric with mrc-ip ccprofile.
 */
#define MRC_NSCC_BASE_RTT_NS		1000000U
#define MRC_NSCC_MAX_CWND		262144U
#define MRC_NSCC_NOMINAL_MTU		4096U

/* UEC's reference BDP for the scaling of gains: 100 Gb/s x 12 us. */
#define MRC_NSCC_REF_BDP		150000U

/* Q16 fixed point: 1.0 */
#define MRC_NSCC_ONE_Q16		65536U

/**
 * struct mrc_nscc_params - what a CC profile of NSCC sets
 * @base_rtt_ns: the fabric's longest idle RTT; the lowest RTT starts here
 * @target_ns: queueing delay NSCC steers to
 * @max_cwnd: the window never grows past this, bytes; it starts here
 * @adjust_bytes: acknowledged bytes between two adjustments
 * @adjust_period_ns: time between two adjustments (and two eta additions)
 * @qa_threshold_ns: delay above which QuickAdapt may cut; 0: only after a
 *	loss or a trim
 * @fi: fair increase, bytes per window acknowledged over the target
 * @eta: bytes added at most once per adjustment period
 * @fi_scale_q16: fast increase, the part of each acknowledgment added
 * @gamma_q16: multiplicative decrease's gain
 * @max_md_jump_q16: the lowest factor one decrease applies
 * @qa_gate: QuickAdapt only fires when the last period delivered less
 *	than @max_cwnd >> @qa_gate
 * @disable_qa: no QuickAdapt: trims and losses cut by their size
 */
struct mrc_nscc_params {
	u32 base_rtt_ns;
	u32 target_ns;
	u32 max_cwnd;
	u32 adjust_bytes;
	u32 adjust_period_ns;
	u32 qa_threshold_ns;
	u32 fi;
	u32 eta;
	u32 fi_scale_q16;
	u32 gamma_q16;
	u32 max_md_jump_q16;
	u8 qa_gate;
	bool disable_qa;
};

/**
 * struct mrc_nscc - one QP's NSCC state
 * @p: parameters
 * @mtu: bytes per packet: the smallest window
 * @pi_gain: proportional increase, bytes per window at zero delay
 * @cwnd: bytes that may be outstanding
 * @base_rtt_ns: lowest RTT seen, at most @p.base_rtt_ns
 * @last_delay_ns: the last delay sample
 * @avg_delay_ns: moving average of the delay samples
 * @inc: increases accumulated since the last adjustment, bytes^2 (the
 *	adjustment divides by @cwnd)
 * @received: bytes acknowledged since the last adjustment
 * @achieved: bytes acknowledged in the current QuickAdapt period
 * @fi_count: bytes acknowledged in a row at near-zero delay
 * @fast: in fast increase
 * @trigger_qa: a trim asks QuickAdapt to act at its next period's end
 * @to_ignore: marks on this many bytes follow a QuickAdapt cut, unheeded
 * @ignored: bytes of them acknowledged so far
 * @qa_end_ns: the current QuickAdapt period ends; 0 before the first
 * @last_adjust_ns: last adjustment that added eta
 * @last_dec_ns: last multiplicative decrease
 * @acked_bytes: bytes acknowledged, all time, for reports
 * @marked_bytes: of them, acknowledged with a CE mark
 * @qa_cuts: QuickAdapt cuts, all time
 * @md_cuts: multiplicative decreases, all time
 */
struct mrc_nscc {
	struct mrc_nscc_params p;
	u32 mtu;
	u32 pi_gain;

	u32 cwnd;
	u32 base_rtt_ns;
	u32 last_delay_ns;
	u32 avg_delay_ns;

	u64 inc;
	u32 received;
	u32 achieved;
	u32 fi_count;
	bool fast;

	bool trigger_qa;
	u32 to_ignore;
	u32 ignored;
	u64 qa_end_ns;
	u64 last_adjust_ns;
	u64 last_dec_ns;

	u64 acked_bytes;
	u64 marked_bytes;
	u32 qa_cuts;
	u32 md_cuts;
};

/**
 * struct mrc_nscc_ack - what one acknowledgment tells NSCC
 * @bytes: bytes it acknowledged for the first time
 * @ce: a CE mark came with them
 * @rtt_ns: its RTT sample, service time removed; 0 for none
 * @inflight: bytes outstanding after it
 * @now_ns: its arrival
 */
struct mrc_nscc_ack {
	u32 bytes;
	bool ce;
	u32 rtt_ns;
	u32 inflight;
	u64 now_ns;
};

void mrc_nscc_default_params(struct mrc_nscc_params *p);
int mrc_nscc_check_params(const struct mrc_nscc_params *p, const char **why);
void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
		   u32 mtu, u64 now_ns);
void mrc_nscc_on_ack(struct mrc_nscc *cc, const struct mrc_nscc_ack *ack);
void mrc_nscc_on_trim(struct mrc_nscc *cc, u32 bytes, u32 inflight,
		      u64 now_ns);
void mrc_nscc_on_loss(struct mrc_nscc *cc, u32 bytes);

/* Bytes that may be sent now with @inflight already outstanding. */
static inline u32 mrc_nscc_room(const struct mrc_nscc *cc, u32 inflight)
{
	return inflight >= cc->cwnd ? 0 : cc->cwnd - inflight;
}

#endif /* MRC_NSCC_H */
