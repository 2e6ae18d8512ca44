// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device packet counters for the RDMA core's hw_stats interface
 * (`rdma statistic show`, /sys/class/infiniband/DEV/ports/1/hw_counters).
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "engine/mrc_dev.h"
#include "engine/mrc_stats.h"

static const struct rdma_stat_desc mrc_stat_descs[MRC_STAT_COUNT] = {
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
};

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
	return rdma_alloc_hw_stats_struct(mrc_stat_descs, MRC_STAT_COUNT, 0);
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
	int i;

	for (i = 0; i < MRC_STAT_COUNT; i++)
		stats->value[i] = atomic64_read(&mdev->stats.count[i]);
	return MRC_STAT_COUNT;
}
