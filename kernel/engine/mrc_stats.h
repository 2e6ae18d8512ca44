/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Device packet counters, shown by `rdma statistic show link DEV/1`: what
 * was sent and received, and why a received packet was dropped, so that
 * a loss seen by a sender can be found on the receiving host.
 *
 * Each CPU counts in its own copy: the packets a device sends and
 * receives are counted on every CPU that handles them, and one shared
 * line of atomics moved between those CPUs with every packet. A read
 * adds the copies up; on a 32-bit kernel it may catch one count
 * mid-update.
 */
#ifndef MRC_STATS_H
#define MRC_STATS_H

#include <linux/gfp.h>
#include <linux/percpu.h>

enum mrc_stat {
	MRC_STAT_SENT_PKTS,
	MRC_STAT_RCVD_PKTS,
	MRC_STAT_RCVD_MALFORMED,	/* bad UDP length or MRC headers */
	MRC_STAT_RCVD_UNKNOWN_QP,	/* no such destination QP */
	MRC_STAT_RCVD_WRONG_PEER,	/* not from the QP's peer, or too long */
	MRC_STAT_RCVD_NOT_READY,	/* QP state does not take packets */
	MRC_STAT_RCVD_OUT_OF_WINDOW,	/* PSN beyond the receive window */
	MRC_STAT_RCVD_DUPLICATE,	/* PSN already received */
	MRC_STAT_RCVD_RNR_GATED,	/* behind a message waiting for a RWQE */
	MRC_STAT_RCVD_NO_STATE,		/* no room to track the message */
	MRC_STAT_TX_NO_ROUTE,		/* no route to the peer */
	MRC_STAT_SENT_ACKS_CARRIED,	/* ACKs that rode on a request */
	MRC_STAT_RCVD_UD_TOO_LONG,	/* datagram longer than the receive */
	MRC_STAT_RCVD_TRIMMED,		/* data packet whose payload was cut */
	MRC_STAT_RCVD_UD_NO_RECV,	/* datagram with no receive posted */
	MRC_STAT_RCVD_SHORT_MSG,	/* message whose packets lack bytes */
	MRC_STAT_RCVD_GSI_COPY,		/* second copy of a QP1 datagram */
	MRC_STAT_TX_PORT_DISABLED,	/* not sent: port administratively down */
	MRC_STAT_RCVD_PROBE_LIMITED,	/* endpoint probe not answered: rate */
	MRC_STAT_EP_PROBES_SENT,	/* endpoint probes we sent */
	MRC_STAT_EP_PROBES_ANSWERED,	/* ... whose reply came back in time */
	MRC_STAT_RCVD_EP_UNMATCHED,	/* endpoint reply to no probe of ours */
	MRC_STAT_RCVD_BAD_ENCAP,	/* stripped outer header or SRH malformed */
	MRC_STAT_RCVD_ENCAP_SRC,	/* outer source not the inner source */
	MRC_STAT_RCVD_TRAINS,		/* skbs received: datagrams, GSO trains */
	MRC_STAT_RCVD_STEERED,		/* ... moved to their QP's home CPU */
	MRC_STAT_SENT_ZEROCOPY,		/* sent without copying the payload */
	MRC_STAT_MR_FAST_REG,		/* IB_WR_REG_MR executed */
	MRC_STAT_MR_LOCAL_INV,		/* IB_WR_LOCAL_INV executed */
	MRC_STAT_MW_BIND,		/* IB_WR_BIND_MW executed */
	MRC_STAT_MR_REMOTE_INV,		/* MRs a peer's SEND_WITH_INV invalidated */
	MRC_STAT_RCVD_UC_DROPPED,	/* UC messages dropped: gap, no RWQE */
	MRC_STAT_COUNT
};

struct mrc_stats_cpu {
	u64 count[MRC_STAT_COUNT];
};

struct mrc_stats {
	struct mrc_stats_cpu __percpu *cpu;
};

static inline int mrc_stats_alloc(struct mrc_stats *stats)
{
	stats->cpu = alloc_percpu_gfp(struct mrc_stats_cpu, GFP_KERNEL_ACCOUNT);
	return stats->cpu ? 0 : -ENOMEM;
}

static inline void mrc_stats_free(struct mrc_stats *stats)
{
	free_percpu(stats->cpu);
	stats->cpu = NULL;
}

static inline void mrc_stats_inc(struct mrc_stats *stats, enum mrc_stat s)
{
	this_cpu_inc(stats->cpu->count[s]);
}

static inline void mrc_stats_add(struct mrc_stats *stats, enum mrc_stat s,
				 u64 n)
{
	this_cpu_add(stats->cpu->count[s], n);
}

/* Counter @s: every CPU's count added up. */
static inline u64 mrc_stats_read(const struct mrc_stats *stats,
				 enum mrc_stat s)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(stats->cpu, cpu)->count[s]);
	return sum;
}

#endif /* MRC_STATS_H */
