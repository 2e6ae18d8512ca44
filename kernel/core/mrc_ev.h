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

/* Why an EV changed state; the order of enum mrc_genl_ev_reason. */
enum mrc_ev_why {
	MRC_EV_WHY_LOSS_GAP,	/* a later packet on the EV arrived first */
	MRC_EV_WHY_LOSS_SACK,	/* SACK holes past the reordering window */
	MRC_EV_WHY_LOSS_READ,	/* a READ response missing */
	MRC_EV_WHY_LOSS_TIMEOUT, /* the retransmission timer */
	MRC_EV_WHY_PROBE_OK,	/* MRC_EV_PROBES_TO_GOOD probes answered */
	MRC_EV_WHY_READMIT,	/* brought back to keep min_active */
	MRC_EV_WHY_DENY,	/* administrative */
	MRC_EV_WHY_UNDENY,
	MRC_EV_WHY_LOSS_UNDONE,	/* the loss was spurious: the packet came */
	MRC_EV_WHY_LOSS_PROBE,	/* a tail loss probe answered, not the original */
};

/*
 * Per-EV counters, in the order of enum mrc_genl_stat from
 * MRC_STAT_A_TX_PKTS, so that netlink reports them by index. The first
 * four losses are in enum mrc_ev_why's order; the probe's came later and
 * is last, where it keeps the uapi's numbers.
 */
enum mrc_ev_stat {
	MRC_EVS_TX_PKTS,	/* every packet sent on the EV */
	MRC_EVS_TX_BYTES,	/* their IP bytes */
	MRC_EVS_TX_DATA_BYTES,	/* payload of first transmissions */
	MRC_EVS_RETX_PKTS,
	MRC_EVS_RETX_BYTES,
	MRC_EVS_TX_ACKS,	/* acknowledgments sent on it */
	MRC_EVS_TX_PROBES,
	MRC_EVS_PROBE_REPLIES,	/* replies to our probes */
	MRC_EVS_RX_PKTS,	/* received carrying this EV index */
	MRC_EVS_RX_BYTES,
	MRC_EVS_DELIVERED,	/* acknowledgments crediting it */
	MRC_EVS_LOSS_GAP,
	MRC_EVS_LOSS_SACK,
	MRC_EVS_LOSS_READ,
	MRC_EVS_LOSS_TIMEOUT,
	MRC_EVS_ECN_MARKS,	/* CE marks the peer echoed */
	MRC_EVS_TRIMS,		/* trim NACKs: a switch cut the payload */
	MRC_EVS_QDELAY_PENALTIES, /* skipped for a queue on its path */
	MRC_EVS_STATE_CHANGES,
	MRC_EVS_LOSS_PROBE,	/* found by a tail loss probe's answer */
	MRC_EVS_NR
};

/**
 * struct mrc_ev_stats - what happened on one EV
 * @c: counters, by enum mrc_ev_stat
 * @state_ns: CLOCK_REALTIME of the last state change (0: none)
 */
struct mrc_ev_stats {
	u64 c[MRC_EVS_NR];
	u64 state_ns;
};

/**
 * struct mrc_ev_wire - what an EV puts in the packet headers
 * @flow_label: IPv6 flow label, 20 bits (host order)
 * @sport: UDP source port (host order), never 0
 * @value: the EV as its profile names it (the compact EV), for events
 */
struct mrc_ev_wire {
	u32 flow_label;
	u16 sport;
	u32 value;
};

/**
 * struct mrc_ev - one entropy value
 * @sport: UDP source port (host order)
 * @state: enum mrc_ev_state
 * @penalty: selection turns still to skip (ECN marks)
 * @probe_ok: consecutive probes answered while ASSUMED_BAD
 * @recycled: queued in the recycle FIFO
 * @delivered: @del_seq is valid
 * @flow_label: IPv6 flow label (host order; 0: the QP's own)
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
 * @value: the EV as its profile names it (0 for the AUTO profile's)
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
	u32 value;
};

/**
 * struct mrc_ev_table - the EVs of one QP
 * @ev: @count entries
 * @st: @count counter blocks, parallel to @ev (kept across resets)
 * @changed: called on every state change (may be NULL); the caller of
 *	the function that changed it holds whatever lock guards the table
 * @recycle: FIFO of EV indexes that recently delivered cleanly
 * @count: entries in @ev
 * @min_active: GOOD EVs the table never drops below (while it can)
 * @ngood: EVs in state GOOD
 * @ndenied: EVs in state DENIED, always below @count: the last EV not
 *	denied cannot be denied, so every choice is an EV the
 *	administrator allows
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
 * @undone: ASSUMED_BAD -> GOOD because the loss was spurious
 */
struct mrc_ev_table {
	struct mrc_ev *ev;
	struct mrc_ev_stats *st;
	void (*changed)(struct mrc_ev_table *t, u16 idx, u8 old_state,
			enum mrc_ev_why why);
	u16 *recycle;
	u16 count;
	u16 min_active;
	u16 ngood;
	u16 ndenied;
	u16 cursor;
	u16 probe_cursor;
	u16 rc_head;
	u16 rc_len;
	u16 last_delivered;
	u32 next_probe_id;
	u64 marked_bad;
	u64 recovered;
	u64 readmitted;
	u64 undone;
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
u16 mrc_ev_choose_other(struct mrc_ev_table *t, u16 avoid);
u16 mrc_ev_choose_spread(struct mrc_ev_table *t);
u32 mrc_ev_on_send(struct mrc_ev_table *t, u16 idx);
void mrc_ev_on_delivered(struct mrc_ev_table *t, u16 idx, bool ce,
			 u32 rtt_ts);
bool mrc_ev_on_loss(struct mrc_ev_table *t, u16 idx, u32 now_ts,
		    enum mrc_ev_why why);
u32 mrc_ev_queue_delay(struct mrc_ev_table *t, u16 idx, u32 rtt_ts,
		       u32 now_ts);
bool mrc_ev_next_probe(struct mrc_ev_table *t, u32 now_ts, u32 interval_ts,
		       u16 *idx, u32 *probe_id);
bool mrc_ev_on_probe_reply(struct mrc_ev_table *t, u16 idx, u32 probe_id);
bool mrc_ev_undo_loss(struct mrc_ev_table *t, u16 idx, u32 bad_ts);
bool mrc_ev_limit_room(u32 held, u32 own, u32 nev, u32 limit);
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
