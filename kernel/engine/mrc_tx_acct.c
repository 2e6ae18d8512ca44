// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Accounting of a QP's packets while the local stack holds them.
 *
 * Every packet is counted until the stack frees it, and the requester
 * sends no more while too many sit in local queues (qdisc, device ring),
 * as TCP Small Queues does: a full qdisc drops what it cannot take and
 * udp_tunnel_xmit_skb() does not say so, and a bounded local queue keeps
 * fq_codel, which serves each EV (UDP source port) as a flow of its own,
 * from reordering the QP's packets by more than MRC_TX_LOCAL_MAX.
 *
 * The count lives in an object of its own that each packet holds, not in
 * the QP: a queue that does not drain (a stuck or very slow qdisc) would
 * otherwise keep the QP's destroy, and the process that owns it, waiting
 * for as long as the queue holds the packets. Destroy detaches the QP
 * from the object; the last packet freed frees the object. The packets'
 * destructor is this module's code, so unloading waits for all of them.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

struct mrc_tx_acct {
	refcount_t ref;			/* the QP's, plus one per packet */
	atomic_t local;			/* packets the stack has not freed */
	bool throttled;			/* the requester waits for @local */
	struct mrc_qp_handle __rcu *qp;	/* NULL once the QP is destroyed */
	struct rcu_head rcu;
};

/* Objects not yet freed, each possibly held by packets in a queue. */
static atomic_t mrc_tx_accts = ATOMIC_INIT(0);

/**
 * mrc_tx_acct_create() - the accounting object of a new QP
 * @qp: the QP's handle: the QP is kicked when its packets leave the local
 *	queues
 *
 * Return: the object holding the QP's reference, or NULL.
 */
struct mrc_tx_acct *mrc_tx_acct_create(struct mrc_qp_handle *qp)
{
	struct mrc_tx_acct *acct;

	acct = kzalloc(sizeof(*acct), GFP_KERNEL_ACCOUNT);
	if (!acct)
		return NULL;
	refcount_set(&acct->ref, 1);
	RCU_INIT_POINTER(acct->qp, qp);
	atomic_inc(&mrc_tx_accts);
	return acct;
}

/**
 * mrc_tx_acct_detach() - stop kicking a QP that is being destroyed
 * @acct: its object
 *
 * A destructor that found the QP before holds a reference, which destroy
 * waits for; the handle is freed a grace period after the QP.
 */
void mrc_tx_acct_detach(struct mrc_tx_acct *acct)
{
	RCU_INIT_POINTER(acct->qp, NULL);
}

static void mrc_tx_acct_free(struct rcu_head *head)
{
	kfree(container_of(head, struct mrc_tx_acct, rcu));
	if (atomic_dec_and_test(&mrc_tx_accts))
		wake_up_var(&mrc_tx_accts);
}

/**
 * mrc_tx_acct_put() - drop a reference
 * @acct: the object; may be NULL
 */
void mrc_tx_acct_put(struct mrc_tx_acct *acct)
{
	if (acct && refcount_dec_and_test(&acct->ref))
		call_rcu(&acct->rcu, mrc_tx_acct_free);
}

static void mrc_tx_acct_destructor(struct sk_buff *skb)
{
	struct mrc_tx_acct *acct = skb_shinfo(skb)->destructor_arg;
	struct mrc_qp_handle *h;
	struct mrc_qp *qp;

	/*
	 * Inside the read section, the grace periods that free the object
	 * and the QP's handle (and let the module go) cannot end before this
	 * code is left.
	 */
	rcu_read_lock();
	if (atomic_sub_return(mrc_tx_skb_npkts(skb), &acct->local) <=
	    MRC_TX_LOCAL_LOW && READ_ONCE(acct->throttled)) {
		WRITE_ONCE(acct->throttled, false);
		h = rcu_dereference(acct->qp);
		qp = h ? mrc_qp_handle_get(h) : NULL;
		if (qp) {
			mrc_req_kick(qp);
			mrc_qp_put(qp);
		}
	}
	mrc_tx_acct_put(acct);
	rcu_read_unlock();
}

/**
 * mrc_tx_acct_charge() - count @skb's packets until the stack frees it
 * @acct: the sending QP's object
 * @skb: a new skb, without a destructor
 * @npkts: the packets it carries
 */
void mrc_tx_acct_charge(struct mrc_tx_acct *acct, struct sk_buff *skb,
			u16 npkts)
{
	refcount_inc(&acct->ref);
	atomic_add(npkts, &acct->local);
	skb_shinfo(skb)->destructor_arg = acct;
	skb->destructor = mrc_tx_acct_destructor;
}

/**
 * mrc_tx_acct_room() - packets the QP may still hand to the local stack
 * @acct: the QP's object
 *
 * Return: how many; at 0 the QP is marked throttled, and the packet
 * whose release brings the count down to %MRC_TX_LOCAL_LOW kicks the
 * requester.
 */
u32 mrc_tx_acct_room(struct mrc_tx_acct *acct)
{
	int queued = atomic_read(&acct->local);

	if (queued < MRC_TX_LOCAL_MAX)
		return MRC_TX_LOCAL_MAX - queued;
	WRITE_ONCE(acct->throttled, true);
	/* Pairs with atomic_sub_return() in the destructor. */
	smp_mb();
	queued = atomic_read(&acct->local);
	return queued < MRC_TX_LOCAL_MAX ? MRC_TX_LOCAL_MAX - queued : 0;
}

/**
 * mrc_tx_acct_wait_idle() - wait until no packet of ours is left anywhere
 *
 * For module unload, after every QP is gone: packets still in a queue
 * run our destructor when freed.
 */
void mrc_tx_acct_wait_idle(void)
{
	if (atomic_read(&mrc_tx_accts))
		pr_info("mrc: waiting for packets still in local queues\n");
	wait_var_event(&mrc_tx_accts, !atomic_read(&mrc_tx_accts));
	/* The last free may still be running its last lines. */
	rcu_barrier();
}
