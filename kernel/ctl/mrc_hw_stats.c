// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device packet counters for the RDMA core's hw_stats interface
 * (`rdma statistic show`, /sys/class/infiniband/DEV/ports/1/hw_counters),
 * then the device's totals of the per-path counters: every QP's EVs,
 * live or gone.
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_dev.h"
#include "engine/mrc_qp.h"
#include "engine/mrc_stats.h"

/* The per-path counters reported as device totals, and their names. */
static const u8 mrc_path_stats[] = {
	MRC_EVS_TX_BYTES, MRC_EVS_TX_DATA_BYTES, MRC_EVS_RETX_PKTS,
	MRC_EVS_RETX_BYTES, MRC_EVS_TX_ACKS, MRC_EVS_TX_PROBES,
	MRC_EVS_PROBE_REPLIES, MRC_EVS_LOSS_GAP, MRC_EVS_LOSS_SACK,
	MRC_EVS_LOSS_READ, MRC_EVS_LOSS_TIMEOUT, MRC_EVS_ECN_MARKS,
	MRC_EVS_TRIMS, MRC_EVS_STATE_CHANGES, MRC_EVS_TX_PKTS,
	MRC_EVS_LOSS_PROBE,
};

#define MRC_PATH_STAT(i) (MRC_STAT_COUNT + (i))
#define MRC_HW_STATS (MRC_STAT_COUNT + ARRAY_SIZE(mrc_path_stats))

static const struct rdma_stat_desc mrc_stat_descs[MRC_HW_STATS] = {
	[MRC_STAT_SENT_PKTS].name		= "sent_pkts",
	[MRC_STAT_RCVD_PKTS].name		= "rcvd_pkts",
	[MRC_STAT_RCVD_MALFORMED].name		= "rcvd_malformed",
	[MRC_STAT_RCVD_UNKNOWN_QP].name		= "rcvd_unknown_qp",
	[MRC_STAT_RCVD_WRONG_PEER].name		= "rcvd_wrong_peer",
	[MRC_STAT_RCVD_NOT_READY].name		= "rcvd_qp_not_ready",
	[MRC_STAT_RCVD_OUT_OF_WINDOW].name	= "rcvd_out_of_window",
	[MRC_STAT_RCVD_DUPLICATE].name		= "rcvd_duplicate",
	[MRC_STAT_RCVD_RNR_GATED].name		= "rcvd_rnr_gated",
	[MRC_STAT_RCVD_NO_STATE].name		= "rcvd_no_state",
	[MRC_STAT_TX_NO_ROUTE].name		= "tx_no_route",
	[MRC_STAT_SENT_ACKS_CARRIED].name	= "sent_acks_carried",
	[MRC_STAT_RCVD_UD_TOO_LONG].name	= "rcvd_ud_too_long",
	[MRC_STAT_RCVD_TRIMMED].name		= "rcvd_trimmed",
	[MRC_STAT_RCVD_UD_NO_RECV].name	= "rcvd_ud_no_recv",
	[MRC_STAT_RCVD_SHORT_MSG].name	= "rcvd_short_msg",
	[MRC_STAT_RCVD_GSI_COPY].name		= "rcvd_gsi_copies",
	[MRC_STAT_TX_PORT_DISABLED].name	= "tx_port_disabled",
	[MRC_STAT_RCVD_PROBE_LIMITED].name	= "rcvd_probe_limited",
	[MRC_STAT_EP_PROBES_SENT].name		= "ep_probes_sent",
	[MRC_STAT_EP_PROBES_ANSWERED].name	= "ep_probes_answered",
	[MRC_STAT_RCVD_EP_UNMATCHED].name	= "rcvd_ep_unmatched",
	[MRC_STAT_RCVD_BAD_ENCAP].name		= "rcvd_bad_encap",
	[MRC_STAT_RCVD_ENCAP_SRC].name		= "rcvd_encap_src",
	[MRC_STAT_RCVD_TRAINS].name		= "rcvd_trains",
	[MRC_STAT_RCVD_STEERED].name		= "rcvd_steered",
	[MRC_STAT_SENT_ZEROCOPY].name		= "sent_zerocopy",
	[MRC_STAT_MR_FAST_REG].name		= "mr_fast_reg",
	[MRC_STAT_MR_LOCAL_INV].name		= "mr_local_inv",
	[MRC_STAT_MW_BIND].name			= "mw_bind",
	[MRC_STAT_MR_REMOTE_INV].name		= "mr_remote_inv",
	[MRC_STAT_RCVD_UC_DROPPED].name	= "rcvd_uc_dropped",
	[MRC_PATH_STAT(0)].name			= "path_tx_bytes",
	[MRC_PATH_STAT(1)].name			= "path_tx_data_bytes",
	[MRC_PATH_STAT(2)].name			= "path_retx_pkts",
	[MRC_PATH_STAT(3)].name			= "path_retx_bytes",
	[MRC_PATH_STAT(4)].name			= "path_tx_acks",
	[MRC_PATH_STAT(5)].name			= "path_probes",
	[MRC_PATH_STAT(6)].name			= "path_probe_replies",
	[MRC_PATH_STAT(7)].name			= "path_loss_gap",
	[MRC_PATH_STAT(8)].name			= "path_loss_sack",
	[MRC_PATH_STAT(9)].name			= "path_loss_read",
	[MRC_PATH_STAT(10)].name		= "path_loss_timeout",
	[MRC_PATH_STAT(11)].name		= "path_ecn_marks",
	[MRC_PATH_STAT(12)].name		= "path_trims",
	[MRC_PATH_STAT(13)].name		= "path_state_changes",
	[MRC_PATH_STAT(14)].name		= "path_tx_pkts",
	[MRC_PATH_STAT(15)].name		= "path_loss_probe",
};

/* Adds @qp's per-EV counters to @tot. */
static void mrc_path_add_qp(struct mrc_qp *qp, u64 *tot)
{
	u32 i, k;

	spin_lock_bh(&qp->lock);
	for (i = 0; i < qp->mp.evs.count; i++)
		for (k = 0; k < MRC_EVS_NR; k++)
			tot[k] += qp->mp.evs.st[i].c[k];
	spin_unlock_bh(&qp->lock);
}

/*
 * Totals of every QP's per-EV counters, the departed ones included.
 *
 * The device's QPs may hold millions of EVs (qp_ev_limit), and QPs are
 * created under ctl->lock: the walk drops it after each QP, so that a
 * creation waits for one QP's EVs at most. ctl->walk_next keeps the
 * place (mrc_ctl_qp_unbind() moves it past a QP that goes), and a QP
 * that goes before the walk reached it leaves its counters in
 * ctl->walk_missed as well as in ctl->retired (taken at the start): each
 * QP is counted once, live or departed, so the totals never go back.
 */
static void mrc_path_totals(struct mrc_ctl_dev *ctl, u64 *tot)
{
	struct mrc_qp *qp;
	u32 k;

	mutex_lock(&ctl->walk_lock);
	mutex_lock(&ctl->lock);
	memcpy(tot, ctl->retired, sizeof(ctl->retired));
	memset(ctl->walk_missed, 0, sizeof(ctl->walk_missed));
	ctl->walk_gen++;
	ctl->walking = true;
	ctl->walk_next = list_first_entry_or_null(&ctl->qps, struct mrc_qp,
						  ctl_node);
	while ((qp = ctl->walk_next)) {
		ctl->walk_next = mrc_ctl_qp_next(ctl, qp);
		qp->ctl_walk_gen = ctl->walk_gen;
		mrc_path_add_qp(qp, tot);
		mutex_unlock(&ctl->lock);
		cond_resched();
		mutex_lock(&ctl->lock);
	}
	for (k = 0; k < MRC_EVS_NR; k++)
		tot[k] += ctl->walk_missed[k];
	ctl->walking = false;
	mutex_unlock(&ctl->lock);
	mutex_unlock(&ctl->walk_lock);
}

/**
 * mrc_alloc_hw_port_stats() - ib_device_ops.alloc_hw_port_stats
 * @ibdev: the device
 * @port_num: its only port
 *
 * Return: the counter set, or NULL when memory is short.
 */
struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num)
{
	/* Counters are cheap to read: no caching by the core. */
	return rdma_alloc_hw_stats_struct(mrc_stat_descs, MRC_HW_STATS, 0);
}

/**
 * mrc_get_hw_stats() - ib_device_ops.get_hw_stats
 * @ibdev: the device
 * @stats: filled with the current values
 * @port: its port
 * @index: which counter was asked for (all are filled)
 *
 * Return: the number of counters filled.
 */
int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);
	u64 tot[MRC_EVS_NR];
	int i;

	for (i = 0; i < MRC_STAT_COUNT; i++)
		stats->value[i] = mrc_stats_read(&mdev->stats, i);
	mrc_path_totals(mdev->ctl, tot);
	for (i = 0; i < ARRAY_SIZE(mrc_path_stats); i++)
		stats->value[MRC_PATH_STAT(i)] = tot[mrc_path_stats[i]];
	return MRC_HW_STATS;
}
