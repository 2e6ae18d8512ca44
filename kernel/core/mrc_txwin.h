/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC send window: the requester's record of outstanding PSNs.
 *
 * PSNs in [una, nxt) are outstanding: sent and not yet covered by a
 * cumulative ACK. Each has an entry in a ring of roundup_pow_of_two(size)
 * entries indexed by psn & (ring - 1) (a power of two divides 2^32, so
 * the ring stays contiguous across the PSN wrap). An entry is SACKED
 * once a SACK reported it, LOST while its retransmission is pending.
 *
 * Loss inference (RFC 6675 "DupThresh", per PSN rather than per byte):
 * an outstanding PSN that is not SACKED is lost once at least dupthresh
 * PSNs after it are SACKED. mrc_txwin_detect_losses() examines each PSN
 * at most once, in PSN order, behind a scan point: a retransmission is
 * never inferred lost again from SACKs of packets sent before it (that
 * would retransmit on every SACK); its loss is left to the timer or to
 * per-EV gap detection, which call mrc_txwin_mark_lost(). SACK state is
 * never reneged: the responder placed a SACKed packet in memory.
 *
 * No locking inside: the caller serialises all calls on a window.
 */
#ifndef MRC_TXWIN_H
#define MRC_TXWIN_H

#include <linux/types.h>

#include "mrc_psn.h"

#define MRC_TXWIN_MAX		8192	/* most outstanding PSNs */

#define MRC_TXE_SACKED		0x01	/* reported received by a SACK */
#define MRC_TXE_LOST		0x02	/* retransmission pending */
#define MRC_TXE_CONT		0x04	/* sent in the PSN before's transmission */
#define MRC_TXE_TRIMMED		0x08	/* lost to a trim: resend on another EV */
#define MRC_TXE_ECHOED		0x10	/* an answer echoed the last transmission */
#define MRC_TXE_RTO		0x20	/* LOST only because a timeout fired */

/**
 * struct mrc_tx_entry - per-PSN send state
 * @ts: time of the last transmission, 1.024 us units
 * @ev: EV index of the last transmission
 * @flags: %MRC_TXE_SACKED, %MRC_TXE_LOST, %MRC_TXE_CONT, %MRC_TXE_TRIMMED,
 *	%MRC_TXE_ECHOED, %MRC_TXE_RTO
 * @tx_count: transmissions so far (1 after the first), saturating
 * @ev_seq: per-EV sequence number of the last transmission
 */
struct mrc_tx_entry {
	u32 ts;
	u16 ev;
	u8 flags;
	u8 tx_count;
	u32 ev_seq;
};

/**
 * struct mrc_txwin - send window state
 * @ent: entry ring
 * @mask: ring size minus one (the ring is a power of two)
 * @size: most outstanding PSNs
 * @una: oldest unacknowledged PSN
 * @nxt: PSN the next new packet gets
 * @nsacked: SACKED entries in [@una, @nxt)
 * @nlost: LOST entries in [@una, @nxt)
 * @scan: loss detection has examined [@una, @scan)
 * @scan_sacked: SACKED entries in [@scan, @nxt)
 * @retx_hint: no LOST entry lies in [@una, @retx_hint)
 * @sacked_ts: newest send time among the entries SACKed so far
 *	(meaningful while @nsacked is not zero)
 * @hold: acknowledgments retire no PSN from here on (while @held)
 * @held: @hold holds a value
 */
struct mrc_txwin {
	struct mrc_tx_entry *ent;
	u32 mask;
	u32 size;
	u32 una;
	u32 nxt;
	u32 nsacked;
	u32 nlost;
	u32 scan;
	u32 scan_sacked;
	u32 retx_hint;
	u32 sacked_ts;
	u32 hold;
	bool held;
};

/**
 * mrc_txwin_init() - allocate a send window
 * @win: window to set up
 * @start_psn: PSN of the first packet
 * @size: most outstanding PSNs, 1..%MRC_TXWIN_MAX (a power of two uses
 *        the ring fully; other sizes, such as an MPR of 3 * 128, work too)
 *
 * Context: process context; allocates with GFP_KERNEL_ACCOUNT (the
 * window is charged to the memory cgroup of the QP's creator).
 * Return: 0, -EINVAL for a bad @size or -ENOMEM.
 */
int mrc_txwin_init(struct mrc_txwin *win, u32 start_psn, u32 size);

/**
 * mrc_txwin_destroy() - free a send window
 * @win: window set up by mrc_txwin_init(), or zeroed; may be called twice
 */
void mrc_txwin_destroy(struct mrc_txwin *win);

/**
 * mrc_txwin_reset() - drop every outstanding PSN and restart at a PSN
 * @win: an initialised window
 * @start_psn: PSN of the next packet
 */
void mrc_txwin_reset(struct mrc_txwin *win, u32 start_psn);

/**
 * mrc_txwin_set_size() - change the most outstanding PSNs (the MPR)
 * @win: an initialised window with nothing outstanding
 * @size: the new limit, 1 up to the ring allocated at init
 *
 * The ring keeps its size: a smaller limit leaves part of it unused, and
 * a limit can grow back up to the ring.
 *
 * Return: 0, -EINVAL for a bad @size, -EBUSY while a PSN is outstanding.
 */
int mrc_txwin_set_size(struct mrc_txwin *win, u32 size);

/**
 * mrc_txwin_push() - assign the next PSN to a new packet
 * @win: the window
 * @ev: EV index the packet is sent on
 * @ts: send time, 1.024 us units
 * @psn: set to the PSN assigned
 *
 * Return: 0, or -ENOSPC when @size PSNs are already outstanding.
 */
int mrc_txwin_push(struct mrc_txwin *win, u16 ev, u32 ts, u32 *psn);

/**
 * mrc_txwin_hold() - keep PSNs outstanding whatever acknowledges them
 * @win: the window
 * @held: whether to hold
 * @psn: the first PSN kept, when @held
 *
 * A PSN may be acknowledged before what it stands for arrived: the
 * responder acknowledges a READ request's PSNs as it sends their
 * responses. Held PSNs stay in the window, with the EV and time that
 * loss detection needs, until the hold moves past them.
 */
static inline void mrc_txwin_hold(struct mrc_txwin *win, bool held, u32 psn)
{
	win->held = held;
	win->hold = psn;
}

/**
 * mrc_txwin_on_ack() - apply a cumulative acknowledgment
 * @win: the window
 * @cum_psn: every PSN before it was received
 *
 * A stale @cum_psn (before una) or one beyond nxt is ignored: una never
 * moves backwards nor past PSNs not sent yet, nor past a hold
 * (mrc_txwin_hold()).
 *
 * Return: the number of PSNs newly acknowledged (0 if ignored).
 */
u32 mrc_txwin_on_ack(struct mrc_txwin *win, u32 cum_psn);

/**
 * mrc_txwin_on_sack() - apply a SACK bitmap
 * @win: the window
 * @base: PSN of bit 0 of word 0
 * @nwords: words in @bitmap
 * @bitmap: bit i of word w set means PSN @base + 64 * w + i was received
 *
 * Marks outstanding PSNs SACKED (cancelling a pending retransmission);
 * bits for PSNs outside [una, nxt) are ignored.
 *
 * Return: the number of PSNs newly SACKED.
 */
u32 mrc_txwin_on_sack(struct mrc_txwin *win, u32 base, unsigned int nwords,
		      const u64 *bitmap);

/**
 * mrc_txwin_ack_acceptable() - the acceptable-ACK rule
 * @win: the window, before the acknowledgment is applied
 * @cum_psn: its cumulative PSN
 * @base: PSN of bit 0 of its SACK bitmap
 * @nwords: words in @bitmap (0: no SACK)
 * @bitmap: the SACK bitmap, as for mrc_txwin_on_sack()
 *
 * Only an acknowledgment that tells something new may move the
 * congestion window, take an RTT sample or credit an EV: one whose
 * cumulative PSN lies in (una, nxt], or whose SACK reports an outstanding
 * PSN not SACKED yet. A stale, duplicated, replayed or blindly spoofed
 * ACK (whose PSNs fall outside [una, nxt]) tells nothing: its CE count,
 * echoed timestamp and EV are ignored.
 *
 * Return: true when the acknowledgment is acceptable.
 */
bool mrc_txwin_ack_acceptable(const struct mrc_txwin *win, u32 cum_psn,
			      u32 base, unsigned int nwords,
			      const u64 *bitmap);

/**
 * mrc_txwin_nack_acceptable() - may a sequence-error NACK mark a PSN lost
 * @win: the window
 * @cum_psn: the NACK's cumulative PSN, the PSN the responder expects
 *
 * A PSN sequence error names one hole, the responder's cumulative point:
 * only that PSN is marked lost, and only when it is outstanding and not
 * SACKED (a NACK whose cumulative PSN is stale or beyond nxt says
 * nothing about this window).
 *
 * Return: true when mrc_txwin_mark_lost(@win, @cum_psn) may be applied.
 */
bool mrc_txwin_nack_acceptable(const struct mrc_txwin *win, u32 cum_psn);

/**
 * mrc_txwin_ack_sacked_prefix() - acknowledge the SACKED PSNs at una
 * @win: the window
 *
 * A response (READ or atomic) proves its PSN executed and is recorded
 * as SACKED; such PSNs from una on without a gap count as acknowledged,
 * so that an outstanding PSN never outlives the work request it belongs
 * to when the cumulative ACK covering it is lost or stale.
 *
 * Return: the number of PSNs newly acknowledged.
 */
u32 mrc_txwin_ack_sacked_prefix(struct mrc_txwin *win);

/**
 * mrc_txwin_mark_lost() - mark one PSN for retransmission
 * @win: the window
 * @psn: the PSN (from a NACK, a per-EV gap or a timer)
 *
 * A PSN a timeout marked is now known lost by other means: a spurious
 * timeout no longer takes its mark back (mrc_txwin_clear_lost()).
 *
 * Return: true if @psn was outstanding, not SACKED and not already LOST.
 */
bool mrc_txwin_mark_lost(struct mrc_txwin *win, u32 psn);

/**
 * mrc_txwin_mark_trimmed() - mark one PSN lost to a trim
 * @win: the window
 * @psn: the PSN a trim NACK names
 * @ev: the EV of the copy the switch cut (echoed; untrusted)
 * @ev_seq: that copy's sequence number on @ev (echoed; untrusted)
 *
 * As mrc_txwin_mark_lost(), and the entry says MRC_TXE_TRIMMED until the
 * PSN is sent again: its path is congested, not failed, and the resend
 * should take another. Only the PSN's latest copy counts: when it was
 * sent again since the cut one (a timeout, a probe, another trim's
 * NACK), the newer copy is still on its way, and resending for the old
 * one would only add a copy to the queue that cut it.
 *
 * Return: true if @psn was outstanding, not SACKED, not already LOST,
 * and its latest copy is the one cut.
 */
bool mrc_txwin_mark_trimmed(struct mrc_txwin *win, u32 psn, u16 ev,
			    u32 ev_seq);

/**
 * mrc_txwin_mark_all_lost() - mark every outstanding, un-SACKED PSN lost
 * @win: the window
 *
 * What a retransmission timeout does (RFC 6675 section 5.1). Costs a
 * walk over the outstanding PSNs.
 *
 * Return: the number of PSNs newly marked.
 */
u32 mrc_txwin_mark_all_lost(struct mrc_txwin *win);

/**
 * mrc_txwin_clear_lost() - forget the retransmissions timeouts asked for
 * @win: the window
 *
 * For a timeout found spurious: the packets it marked are still on
 * their way, or already arrived. A PSN known lost otherwise (a trim or
 * sequence NACK, a SACK or per-EV gap inference), before the timeout or
 * after it, stays marked: taking it back left a trimmed packet to wait
 * for the next timeout.
 *
 * Return: the number of PSNs unmarked.
 */
u32 mrc_txwin_clear_lost(struct mrc_txwin *win);

/**
 * struct mrc_loss_clock - the time rule of loss inference
 * @now: the time now, 1.024 us units
 * @wait: how long after its transmission a packet sent on EV @ev counts
 *	as lost once a packet sent after it was SACKed, 1.024 us units: that
 *	EV's round trip plus the reordering window (RACK, RFC 8985). Called
 *	with the @ctx given to mrc_txwin_detect_losses().
 * @due: set when the scan stopped at a PSN that is not overdue yet: when
 *	it will be, unless a SACK or an acknowledgment comes first
 * @pending: @due is set
 */
struct mrc_loss_clock {
	u32 now;
	u32 (*wait)(void *ctx, u16 ev);
	u32 due;
	bool pending;
};

/**
 * mrc_txwin_detect_losses() - infer losses from SACKs
 * @win: the window
 * @dupthresh: SACKED PSNs after a hole that prove it lost (0 counts as 1)
 * @clk: if not NULL, a hole must also have been sent before the newest
 *	SACKed packet and be overdue by @clk's rule: reordering across paths
 *	of different delay is not mistaken for loss. The caller runs the
 *	scan again at @clk->due when @clk->pending.
 * @lost: if not NULL, told each PSN newly marked, before anything else
 *	changes its entry (to blame its EV)
 * @ctx: passed to @lost and to @clk's wait
 *
 * Marks LOST every outstanding, un-SACKED PSN followed by at least
 * @dupthresh SACKED PSNs, examining each PSN once (see the file comment).
 * Amortised O(1) per PSN. A transmission that covers several PSNs (a
 * READ request: its responses come back one after another) is judged by
 * its first PSN, whose response leaves first: when that is lost, its
 * other un-SACKED PSNs are marked too (but not passed to @lost); when it
 * arrived, they are left to the READ response hole check.
 *
 * Return: the number of PSNs newly marked.
 */
u32 mrc_txwin_detect_losses(struct mrc_txwin *win, u32 dupthresh,
			    struct mrc_loss_clock *clk,
			    void (*lost)(void *ctx, u32 psn), void *ctx);

/**
 * mrc_txwin_mark_ev_lost() - mark lost every PSN last sent on an EV
 * @win: the window
 * @ev: the EV that failed
 *
 * Return: the number of PSNs newly marked (SACKED ones are left alone).
 */
u32 mrc_txwin_mark_ev_lost(struct mrc_txwin *win, u16 ev);

/* Later responses of one READ request that prove an earlier one lost. */
#define MRC_TXWIN_READ_DUPTHRESH	3

/**
 * mrc_txwin_read_hole_lost() - whether a missing READ response was lost
 * @win: the window
 * @hole: a response PSN not received
 * @psn: a later response PSN that arrived
 * @ev: the EV of the request that response answers (echoed; untrusted)
 * @ev_seq: that request's sequence number on @ev (echoed; untrusted)
 * @reo: the reordering window, 1.024 us units
 *
 * Responses to one request travel in order on its EV, but a responder's
 * CPUs may send them slightly out of order: MRC_TXWIN_READ_DUPTHRESH
 * later ones of the same request prove the hole lost. One of a later
 * request on the same EV proves it on its own when that request went
 * more than @reo after the hole's (a tail loss probe's does): the
 * responder may serve two requests from two CPUs, and their responses
 * cross.
 *
 * Only an answer to @psn's latest request proves anything: the window
 * knows the EV and time of that request alone. An answer to an earlier
 * one (the re-request was spurious; the first answer was only late)
 * says nothing about the EV the re-request took.
 *
 * Return: true when @hole is lost.
 */
bool mrc_txwin_read_hole_lost(const struct mrc_txwin *win, u32 hole, u32 psn,
			      u16 ev, u32 ev_seq, u32 reo);

/**
 * mrc_txwin_next_retransmit() - find the next PSN to retransmit
 * @win: the window
 * @psn: in: where to start looking (una or earlier for the first);
 *       out: the lowest LOST PSN at or after that point
 *
 * Iterate with ``psn = mrc_txwin_oldest_unacked(win); while
 * (mrc_txwin_next_retransmit(win, &psn)) { ...; psn++; }``, or call it
 * from una after each mrc_txwin_on_retransmit(), which clears LOST.
 *
 * Return: true when a LOST PSN was found.
 */
bool mrc_txwin_next_retransmit(struct mrc_txwin *win, u32 *psn);

/**
 * mrc_txwin_on_retransmit() - record a retransmission
 * @win: the window
 * @psn: the PSN sent again
 * @ev: EV index it went out on
 * @ts: send time, 1.024 us units
 *
 * Clears LOST, stores @ev and @ts and counts the transmission.
 *
 * Return: 0, or -ERANGE when @psn is not outstanding.
 */
int mrc_txwin_on_retransmit(struct mrc_txwin *win, u32 psn, u16 ev, u32 ts);

/**
 * mrc_txwin_set_ev() - record the EV an outstanding PSN was last sent on
 * @win: the window
 * @psn: the PSN (ignored when not outstanding)
 * @ev: EV index
 * @ev_seq: per-EV sequence number it was sent with
 */
static inline void mrc_txwin_set_ev(struct mrc_txwin *win, u32 psn, u16 ev,
				    u32 ev_seq)
{
	if (mrc_psn_in_range(psn, win->una, win->nxt)) {
		win->ent[psn & win->mask].ev = ev;
		win->ent[psn & win->mask].ev_seq = ev_seq;
	}
}

/**
 * mrc_txwin_set_cont() - record a PSN sent in its predecessor's transmission
 * @win: the window
 * @psn: the PSN (ignored when not outstanding)
 * @ev: that transmission's EV index
 * @ev_seq: its per-EV sequence number
 *
 * A READ request covers several response PSNs; mrc_txwin_on_retransmit()
 * makes the PSN a transmission of its own again.
 */
static inline void mrc_txwin_set_cont(struct mrc_txwin *win, u32 psn, u16 ev,
				      u32 ev_seq)
{
	if (mrc_psn_in_range(psn, win->una, win->nxt)) {
		mrc_txwin_set_ev(win, psn, ev, ev_seq);
		win->ent[psn & win->mask].flags |= MRC_TXE_CONT;
	}
}

/**
 * mrc_txwin_note_echo() - an answer echoed one transmission of a PSN
 * @win: the window
 * @psn: the PSN answered (ignored when not outstanding)
 * @ev: the EV of the transmission answered (echoed; untrusted)
 * @ev_seq: its sequence number on @ev (echoed; untrusted)
 *
 * When the echo names the PSN's last transmission, that copy is known to
 * have arrived (MRC_TXE_ECHOED, until the PSN is sent again).
 */
void mrc_txwin_note_echo(struct mrc_txwin *win, u32 psn, u16 ev, u32 ev_seq);

/**
 * mrc_txwin_last_copy_arrived() - whether a PSN's last transmission arrived
 * @e: its entry
 *
 * A SACK says a PSN arrived, not which copy: a PSN sent once arrived with
 * that copy, one sent again is known to have arrived with its last copy
 * only when an answer echoed it. Rules that read the time and EV of the
 * last copy as those of a packet delivered need this.
 *
 * Return: true when the entry's EV, sequence and time are those of a
 * packet that arrived.
 */
static inline bool mrc_txwin_last_copy_arrived(const struct mrc_tx_entry *e)
{
	return (e->flags & MRC_TXE_SACKED) &&
	       (e->tx_count == 1 || (e->flags & MRC_TXE_ECHOED));
}

/**
 * mrc_txwin_entry() - per-PSN state of an outstanding PSN
 * @win: the window
 * @psn: the PSN
 *
 * Return: the entry, or NULL when @psn is not outstanding. Valid until
 * the next call that moves una.
 */
static inline const struct mrc_tx_entry *
mrc_txwin_entry(const struct mrc_txwin *win, u32 psn)
{
	if (!mrc_psn_in_range(psn, win->una, win->nxt))
		return NULL;
	return &win->ent[psn & win->mask];
}

/**
 * mrc_txwin_oldest_unacked() - oldest unacknowledged PSN
 * @win: the window
 *
 * Return: una; equal to mrc_txwin_next_psn() when nothing is outstanding.
 */
static inline u32 mrc_txwin_oldest_unacked(const struct mrc_txwin *win)
{
	return win->una;
}

/**
 * mrc_txwin_next_psn() - PSN the next new packet will get
 * @win: the window
 *
 * Return: nxt.
 */
static inline u32 mrc_txwin_next_psn(const struct mrc_txwin *win)
{
	return win->nxt;
}

/**
 * mrc_txwin_outstanding() - PSNs sent and not cumulatively acknowledged
 * @win: the window
 *
 * Return: nxt - una.
 */
static inline u32 mrc_txwin_outstanding(const struct mrc_txwin *win)
{
	return win->nxt - win->una;
}

/**
 * mrc_txwin_in_flight() - PSNs presumed in the network
 * @win: the window
 *
 * RFC 6675 "pipe" in packets: outstanding PSNs neither SACKED nor waiting
 * for retransmission. A retransmitted PSN counts again.
 *
 * Return: the number of PSNs in flight.
 */
static inline u32 mrc_txwin_in_flight(const struct mrc_txwin *win)
{
	return win->nxt - win->una - win->nsacked - win->nlost;
}

/**
 * mrc_txwin_delivered() - a running count of PSNs known delivered
 * @win: the window
 *
 * It grows by one for each PSN newly acknowledged or SACKed (a PSN the
 * cumulative point passes after its SACK leaves nsacked as una passes it).
 *
 * Return: una + nsacked, modulo 2^32.
 */
static inline u32 mrc_txwin_delivered(const struct mrc_txwin *win)
{
	return win->una + win->nsacked;
}

/**
 * mrc_txwin_lost() - PSNs waiting for retransmission
 * @win: the window
 *
 * Return: the number of LOST PSNs.
 */
static inline u32 mrc_txwin_lost(const struct mrc_txwin *win)
{
	return win->nlost;
}

/**
 * mrc_txwin_sacked() - outstanding PSNs already SACKED
 * @win: the window
 *
 * Return: the number of SACKED PSNs.
 */
static inline u32 mrc_txwin_sacked(const struct mrc_txwin *win)
{
	return win->nsacked;
}

#endif /* MRC_TXWIN_H */
