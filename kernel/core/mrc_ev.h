/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Entropy values (EVs): the paths one QP sprays its packets over. Each EV
 * is the UDP source port and IPv6 flow label its packets carry (struct
 * mrc_ev_wire), which ECMP hashes onto one path of the fabric. An EV
 * profile (ctl/, core/mrc_evgen.h) gives the values; the AUTO profile
 * takes a block of consecutive source ports (mrc_ev_auto_wire()).
 * This file keeps the table's health and picks the EV of every packet;
 * it is pure bookkeeping (no locking, no packets), so KUnit tests it
 * directly. Documentation/multipath.rst describes the algorithm.
 */
#ifndef MRC_EV_H
#define MRC_EV_H

#include <linux/types.h>

#define MRC_EV_COUNT_DEFAULT	64
#define MRC_EV_COUNT_MAX	4096
#define MRC_EV_MIN_ACTIVE_DEFAULT 8
#define MRC_EV_PROBES_TO_GOOD	3	/* consecutive probe replies */
#define MRC_EV_CE_PENALTY	4	/* turns skipped after an ECN mark */
#define MRC_EV_SPORT_BASE	0xc000	/* RoCE v2 source port range */
#define MRC_EV_SPORT_MASK	0x3fff
#define MRC_EV_MIN_RTT_TS	10000000	/* ~10 s: min RTT forgotten */

enum mrc_ev_state {
	MRC_EV_GOOD,		/* carries traffic */
	MRC_EV_ASSUMED_BAD,	/* lost a packet: only probes until it answers */
	MRC_EV_DENIED,		/* never used (administrative) */
};

/**
 * struct mrc_ev_wire - what an EV puts in the packet headers
 * @flow_label: IPv6 flow label, 20 bits (host order)
 * @sport: UDP source port (host order), never 0
 */
struct mrc_ev_wire {
	u32 flow_label;
	u16 sport;
};

/**
 * struct mrc_ev - one entropy value
 * @sport: UDP source port (host order)
 * @state: enum mrc_ev_state
 * @penalty: selection turns still to skip (ECN marks)
 * @probe_ok: consecutive probes answered while ASSUMED_BAD
 * @recycled: queued in the recycle FIFO
 * @delivered: @del_seq is valid
 * @flow_label: IPv6 flow label (host order; not sent yet)
 * @tx_seq: per-EV sequence of the next packet sent on it
 * @del_seq: one past the highest per-EV sequence known delivered (the
 *	multipath glue keeps it: packets before it on this EV were lost)
 * @del_ts: send time of that packet, 1.024 us units
 * @probe_id: id of the unanswered probe (0: none)
 * @probe_ts: when the last probe went out
 * @bad_ts: when it became ASSUMED_BAD
 * @srtt: smoothed RTT, 1.024 us units scaled by 8 (0: no sample)
 * @min_rtt: lowest RTT seen lately, 1.024 us units (0: no sample)
 * @min_rtt_ts: when @min_rtt was taken
 * @tx_pkts: packets sent on it
 * @losses: losses blamed on it
 */
struct mrc_ev {
	u16 sport;
	u8 state;
	u8 penalty;
	u8 probe_ok;
	bool recycled;
	bool delivered;
	u32 flow_label;
	u32 tx_seq;
	u32 del_seq;
	u32 del_ts;
	u32 probe_id;
	u32 probe_ts;
	u32 bad_ts;
	u32 srtt;
	u32 min_rtt;
	u32 min_rtt_ts;
	u64 tx_pkts;
	u64 losses;
};

/**
 * struct mrc_ev_table - the EVs of one QP
 * @ev: @count entries
 * @recycle: FIFO of EV indexes that recently delivered cleanly
 * @count: entries in @ev
 * @min_active: GOOD EVs the table never drops below (while it can)
 * @ngood: EVs in state GOOD
 * @cursor: next EV the round robin looks at
 * @probe_cursor: next EV mrc_ev_next_probe() looks at
 * @rc_head: first FIFO slot
 * @rc_len: FIFO length
 * @last_delivered: the GOOD EV an acknowledgment credited last
 *	(@count: none)
 * @next_probe_id: id source for probes (never 0)
 * @marked_bad: GOOD -> ASSUMED_BAD transitions
 * @recovered: ASSUMED_BAD -> GOOD transitions by probing
 * @readmitted: ASSUMED_BAD -> GOOD to keep @min_active
 */
struct mrc_ev_table {
	struct mrc_ev *ev;
	u16 *recycle;
	u16 count;
	u16 min_active;
	u16 ngood;
	u16 cursor;
	u16 probe_cursor;
	u16 rc_head;
	u16 rc_len;
	u16 last_delivered;
	u32 next_probe_id;
	u64 marked_bad;
	u64 recovered;
	u64 readmitted;
};

int mrc_ev_init(struct mrc_ev_table *t, u16 count, u16 min_active,
		const struct mrc_ev_wire *wire);
void mrc_ev_auto_wire(struct mrc_ev_wire *wire, u16 count, u16 seed);
int mrc_ev_init_auto(struct mrc_ev_table *t, u16 count, u16 min_active,
		     u16 seed);
void mrc_ev_destroy(struct mrc_ev_table *t);
void mrc_ev_reset(struct mrc_ev_table *t);
u16 mrc_ev_choose(struct mrc_ev_table *t);
u16 mrc_ev_choose_retx(struct mrc_ev_table *t);
u16 mrc_ev_choose_spread(struct mrc_ev_table *t);
u32 mrc_ev_on_send(struct mrc_ev_table *t, u16 idx);
void mrc_ev_on_delivered(struct mrc_ev_table *t, u16 idx, bool ce,
			 u32 rtt_ts);
bool mrc_ev_on_loss(struct mrc_ev_table *t, u16 idx, u32 now_ts);
u32 mrc_ev_queue_delay(struct mrc_ev_table *t, u16 idx, u32 rtt_ts,
		       u32 now_ts);
bool mrc_ev_next_probe(struct mrc_ev_table *t, u32 now_ts, u32 interval_ts,
		       u16 *idx, u32 *probe_id);
bool mrc_ev_on_probe_reply(struct mrc_ev_table *t, u16 idx, u32 probe_id);
int mrc_ev_set_denied(struct mrc_ev_table *t, u16 idx, bool denied);

/* The EV's UDP source port; @idx must be below @t->count. */
static inline u16 mrc_ev_sport(const struct mrc_ev_table *t, u16 idx)
{
	return t->ev[idx].sport;
}

/* The EV's IPv6 flow label; @idx must be below @t->count. */
static inline u32 mrc_ev_flow_label(const struct mrc_ev_table *t, u16 idx)
{
	return t->ev[idx].flow_label;
}

/* Whether an EV credited lately is still GOOD (mrc_ev_choose_retx()). */
static inline bool mrc_ev_has_proven(const struct mrc_ev_table *t)
{
	return t->last_delivered < t->count &&
	       t->ev[t->last_delivered].state == MRC_EV_GOOD;
}

/* EVs waiting for probes. */
static inline u16 mrc_ev_nbad(const struct mrc_ev_table *t)
{
	u16 n = 0, i;

	for (i = 0; i < t->count; i++)
		n += t->ev[i].state == MRC_EV_ASSUMED_BAD;
	return n;
}

#endif /* MRC_EV_H */
