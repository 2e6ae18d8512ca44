/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Endpoint probes (Documentation/wire-format.rst, "Endpoint probes"): a
 * PROBE to QPN 0xffffff that any MRC device answers without a QP, so a
 * controller can time one path (EV) to a peer. The device keeps the
 * probes it is waiting for in a small table; the receive path completes
 * them. No call goes up to ctl/: the waiter owns a completion.
 */
#ifndef MRC_EP_PROBE_H
#define MRC_EP_PROBE_H

#include <linux/completion.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>

#include "core/mrc_src_limit.h"
#include "core/mrc_tbucket.h"

struct mrc_dev;
struct mrc_path;
struct mrc_pkt;
struct sk_buff;

/* Probes a device waits for at once, over all callers. */
#define MRC_EP_PROBE_MAX_WAITING	1024
/*
 * Answers to peers' probes. Each source address has a token bucket (in a
 * table of fixed size, core/mrc_src_limit.h): one PROBE request's worth
 * at once (64 entries), then 250 a second, so that one address, whoever
 * forged it, receives at most that. An answer its source allows also
 * needs a token of the device's bucket, which bounds what all sources
 * together receive; a flood from one address takes its own tokens only.
 */
#define MRC_EP_SRC_RATE			250	/* per second */
#define MRC_EP_SRC_BURST		64
#define MRC_EP_DEV_RATE			2000	/* per second */
#define MRC_EP_DEV_BURST		256

/**
 * struct mrc_ep_table - a device's endpoint probe state
 * @lock: guards everything below; taken in softirq (receive)
 * @waiting: the outstanding probes (struct mrc_ep_probe.node)
 * @nwaiting: entries in @waiting
 * @closed: the device is being removed: no probe is sent or waited for
 * @answers: the device's limit of answers to peers' probes (ktime ns)
 * @sources: each source address's limit of answers (ktime ns)
 * @src_key: the key of the hash that places an address in @sources,
 *	random per device so that no sender can pick colliding addresses
 */
struct mrc_ep_table {
	spinlock_t lock; /* guards the table and the token buckets */
	struct list_head waiting;
	u32 nwaiting;
	bool closed;
	struct mrc_tbucket answers;
	struct mrc_src_limit sources;
	siphash_key_t src_key;
};

/**
 * struct mrc_ep_probe - one outstanding endpoint probe, owned by its caller
 * @node: entry in &struct mrc_ep_table.waiting while outstanding
 * @id: the probe id on the wire (random, unique per peer address)
 * @daddr: the address the reply must come from (the probed GID)
 * @sent_ns: when it was sent (ktime ns)
 * @rtt_ns: round-trip time, once @answered
 * @answered: a matching reply arrived
 * @done: completed when the reply arrives
 */
struct mrc_ep_probe {
	struct list_head node;
	u32 id;
	struct in6_addr daddr;
	u64 sent_ns;
	u64 rtt_ns;
	bool answered;
	struct completion done;
};

void mrc_ep_probe_init(struct mrc_dev *mdev);
int mrc_ep_probe_dst(const u8 *dgid, struct mrc_path *path);
int mrc_ep_probe_src(struct mrc_dev *mdev, int sgid_index,
		     struct mrc_path *path);
int mrc_ep_probe_send(struct mrc_dev *mdev, struct mrc_ep_probe *probe,
		      const struct mrc_path *path);
void mrc_ep_probe_cancel(struct mrc_dev *mdev, struct mrc_ep_probe *probe);
void mrc_ep_probe_open(struct mrc_dev *mdev);
void mrc_ep_probe_close(struct mrc_dev *mdev);
bool mrc_ep_probe_closed(struct mrc_dev *mdev);
void mrc_ep_probe_rx(struct mrc_dev *mdev, struct sk_buff *skb,
		     const struct mrc_pkt *pkt, const struct in6_addr *saddr);

#endif /* MRC_EP_PROBE_H */
