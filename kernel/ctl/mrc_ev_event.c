// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV state events: every change an EV profile's event mask selects (and
 * every administrative DENY and un-DENY) goes to the family's "events"
 * multicast group in the device's namespace.
 *
 * The engine reports a change where it happens, with the QP's lock held
 * in softirq, timer or process context. The hook there only appends a
 * fixed-size record to the device's ring and queues a high-priority work
 * item, which builds and sends the messages with GFP_KERNEL. A full ring
 * drops the record and counts it; the next message sent tells exactly
 * how many were lost (MRC_ATTR_EV_DROPPED). Nothing is recorded while
 * nobody listens.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"
#include "core/mrc_srv6.h"

#define MRC_EV_RING_SIZE	1024	/* a path cut on 16 QPs of 64 EVs */

static_assert(MRC_EV_WHY_UNDENY == (int)MRC_EV_REASON_ADMIN_UNDENY);
static_assert(MRC_EV_WHY_LOSS_UNDONE == (int)MRC_EV_REASON_LOSS_UNDONE);
static_assert(MRC_EV_WHY_LOSS_PROBE == (int)MRC_EV_REASON_LOSS_PROBE);

/*
 * One change, as the engine saw it, with the EV's value as its profile
 * names it: the compact EV (4 bytes, big-endian), or an SRv6 EV's
 * addresses (16 or 32 bytes); none (0 bytes) for the AUTO profile.
 */
struct mrc_ev_record {
	u64 time_ns;
	u64 prof_id;
	u32 qpn;
	u32 flow_label;
	u16 idx;
	u16 sport;
	u8 old_state;
	u8 new_state;
	u8 why;
	u8 value_len;
	u8 value[MRC_SRV6_SEGS_MAX * sizeof(struct in6_addr)];
};

/**
 * struct mrc_ev_events - a device's events waiting to be sent
 * @lock: guards the ring; taken in any context, with interrupts off
 * @head: oldest record
 * @len: records queued
 * @dropped: records lost to a full ring since the last one sent
 * @work: sends them
 * @mdev: the device
 * @ring: MRC_EV_RING_SIZE records
 */
struct mrc_ev_events {
	spinlock_t lock;	/* see @lock above */
	u32 head;
	u32 len;
	u32 dropped;
	struct work_struct work;
	struct mrc_dev *mdev;
	struct mrc_ev_record ring[MRC_EV_RING_SIZE];
};

static const u8 mrc_ev_genl_state[] = {
	[MRC_EV_GOOD] = MRC_GENL_EV_GOOD,
	[MRC_EV_ASSUMED_BAD] = MRC_GENL_EV_ASSUMED_BAD,
	[MRC_EV_DENIED] = MRC_GENL_EV_DENIED,
};

static int mrc_ev_event_fill(struct sk_buff *skb, struct mrc_dev *mdev,
			     const struct mrc_ev_record *r, u32 dropped)
{
	struct nlattr *entry;
	void *hdr;

	hdr = mrc_genlmsg_put(skb, 0, 0, 0, MRC_CMD_EV_EVENT);
	if (!hdr)
		return -EMSGSIZE;
	if (mrc_genl_put_dev(skb, mdev) ||
	    nla_put_u32(skb, MRC_ATTR_QPN, r->qpn) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_PROF_ID, r->prof_id, MRC_ATTR_PAD) ||
	    nla_put_u8(skb, MRC_ATTR_EV_OLD_STATE, r->old_state) ||
	    nla_put_u8(skb, MRC_ATTR_EV_REASON, r->why) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_EV_TIME, r->time_ns, MRC_ATTR_PAD) ||
	    (dropped && nla_put_u32(skb, MRC_ATTR_EV_DROPPED, dropped)))
		goto cancel;
	entry = nla_nest_start(skb, MRC_ATTR_EV_ENTRY);
	if (!entry || nla_put_u32(skb, MRC_EV_INDEX, r->idx) ||
	    nla_put_u8(skb, MRC_EV_STATE, r->new_state) ||
	    nla_put_u16(skb, MRC_EV_WIRE_SPORT, r->sport) ||
	    nla_put_u32(skb, MRC_EV_WIRE_FLOW_LABEL, r->flow_label) ||
	    (r->value_len && nla_put(skb, MRC_EV_VALUE, r->value_len, r->value)))
		goto cancel;
	nla_nest_end(skb, entry);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void mrc_ev_events_work(struct work_struct *work)
{
	struct mrc_ev_events *e = container_of(work, struct mrc_ev_events, work);
	struct net *net = dev_net(e->mdev->ndev);
	struct mrc_ev_record r;
	struct sk_buff *skb;
	u32 dropped;

	for (;;) {
		spin_lock_irq(&e->lock);
		if (!e->len) {
			spin_unlock_irq(&e->lock);
			return;
		}
		r = e->ring[e->head];
		e->head = (e->head + 1) % MRC_EV_RING_SIZE;
		e->len--;
		dropped = e->dropped;
		e->dropped = 0;
		spin_unlock_irq(&e->lock);

		skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
		if (!skb || mrc_ev_event_fill(skb, e->mdev, &r, dropped)) {
			nlmsg_free(skb);
			/* Told with the next one. */
			spin_lock_irq(&e->lock);
			e->dropped += dropped + 1;
			spin_unlock_irq(&e->lock);
			continue;
		}
		mrc_genl_multicast(net, skb);
	}
}

/*
 * EV @idx's value into @r, as EVPROF_EV_GET gives it: an SRv6 EV's
 * addresses from the QP's routes, else the compact EV, unless the QP
 * runs the AUTO profile (0), whose EVs have none. The QP's lock is held:
 * its EV table and routes cannot change meanwhile.
 */
static void mrc_ev_record_value(struct mrc_ev_record *r,
				const struct mrc_qp *qp, u16 idx)
{
	const struct mrc_srv6_route *route;
	__be32 compact;

	r->value_len = 0;
	if (qp->mp.srv6 && idx < qp->mp.srv6->n) {
		route = &qp->mp.srv6->r[idx];
		r->value_len = route->nsegs * sizeof(route->seg[0]);
		memcpy(r->value, route->seg, r->value_len);
	} else if (qp->ev_profile_id) {
		compact = cpu_to_be32(qp->mp.evs.ev[idx].value);
		r->value_len = sizeof(compact);
		memcpy(r->value, &compact, sizeof(compact));
	}
}

/*
 * The engine's hook (mrc_ev_event_fn): record a change if the QP's
 * profile asks for it and somebody listens.
 */
static void mrc_ev_event(struct mrc_qp *qp, u16 idx, u8 old_state,
			 enum mrc_ev_why why)
{
	const struct mrc_ev *ev = &qp->mp.evs.ev[idx];
	struct mrc_ctl_dev *ctl = qp->mdev->ctl;
	struct mrc_ev_events *e = ctl ? ctl->events : NULL;
	bool admin = why == MRC_EV_WHY_DENY || why == MRC_EV_WHY_UNDENY;
	struct mrc_ev_record *r;
	unsigned long flags;

	if (!e || (!admin && !(qp->mp.ev_event_mask & BIT(ev->state))) ||
	    ev->state >= ARRAY_SIZE(mrc_ev_genl_state) ||
	    old_state >= ARRAY_SIZE(mrc_ev_genl_state) ||
	    !mrc_genl_has_listeners(dev_net(qp->mdev->ndev)))
		return;
	spin_lock_irqsave(&e->lock, flags);
	if (e->len == MRC_EV_RING_SIZE) {
		e->dropped++;
	} else {
		r = &e->ring[(e->head + e->len++) % MRC_EV_RING_SIZE];
		r->time_ns = qp->mp.evs.st[idx].state_ns;
		r->prof_id = qp->ev_profile_id;
		r->qpn = qp->ibqp.qp_num;
		r->flow_label = ev->flow_label;
		r->idx = idx;
		r->sport = ev->sport;
		r->old_state = mrc_ev_genl_state[old_state];
		r->new_state = mrc_ev_genl_state[ev->state];
		r->why = why;
		mrc_ev_record_value(r, qp, idx);
	}
	spin_unlock_irqrestore(&e->lock, flags);
	queue_work(system_highpri_wq, &e->work);
}

/**
 * mrc_ev_events_alloc() - a device's event ring
 * @mdev: the device
 *
 * Return: the ring, or NULL when memory is short.
 */
struct mrc_ev_events *mrc_ev_events_alloc(struct mrc_dev *mdev)
{
	struct mrc_ev_events *e = kvzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	spin_lock_init(&e->lock);
	INIT_WORK(&e->work, mrc_ev_events_work);
	e->mdev = mdev;
	return e;
}

/**
 * mrc_ev_events_free() - free the ring once no QP can add to it
 * @e: the ring, or NULL
 */
void mrc_ev_events_free(struct mrc_ev_events *e)
{
	if (!e)
		return;
	cancel_work_sync(&e->work);
	kvfree(e);
}

/**
 * mrc_ev_events_init() - have the engine report EV changes here
 */
void mrc_ev_events_init(void)
{
	mrc_ev_acct_set_event_fn(mrc_ev_event);
}

/**
 * mrc_ev_events_exit() - stop it; no report is under way on return
 */
void mrc_ev_events_exit(void)
{
	mrc_ev_acct_set_event_fn(NULL);
}
