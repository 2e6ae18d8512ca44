// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive steering: a received train is handled on the CPU the layers
 * above name for it (its QP's home), not on whichever CPU the softirq
 * ran. The rx handler names it once it has looked up the QP, and hands
 * the train over here. One QP's work then runs on one CPU, and the two
 * ends of a connection within one host, or two QPs, on two: steering
 * per UDP flow (RPS) cannot do that, since a QP's packets come on many
 * flows (EVs).
 *
 * Each CPU has a backlog, drained in order by a high-priority worker
 * bound to that CPU. A train for the CPU it arrived on is handled at
 * once unless that CPU's backlog still holds trains, which it must not
 * overtake. A queued train keeps its socket referenced; its netdev is
 * looked up again by index when it is handled, as it may have gone.
 */
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "net/mrc_net.h"

/*
 * Trains a CPU's backlog holds; past this they are dropped, as a full
 * socket queue drops them. About as many as a netdev backlog.
 */
#define MRC_STEER_BACKLOG_MAX	1024

/* Trains handled between two chances for the scheduler. */
#define MRC_STEER_BATCH		16

/**
 * struct mrc_steer_backlog - the trains waiting for one CPU
 * @q: the trains, in arrival order
 * @work: drains @q on its CPU
 */
struct mrc_steer_backlog {
	struct sk_buff_head q;
	struct work_struct work;
};

/* What a queued train keeps in skb->cb: the UDP layer is done with it. */
struct mrc_steer_cb {
	struct sock *sk;
};

#define MRC_STEER_CB(skb)	((struct mrc_steer_cb *)(skb)->cb)

static DEFINE_PER_CPU(struct mrc_steer_backlog, mrc_steer_backlog);
static struct workqueue_struct *mrc_steer_wq;
static const struct mrc_net_handlers *mrc_steer_up;

static void mrc_steer_work(struct work_struct *work)
{
	struct mrc_steer_backlog *b =
		container_of(work, struct mrc_steer_backlog, work);
	unsigned int n = 0;
	struct sk_buff *skb;
	struct sock *sk;

	for (;;) {
		/*
		 * Taken off with softirqs off, so that one arriving here now
		 * finds either the backlog non-empty or this train handled.
		 */
		local_bh_disable();
		skb = skb_dequeue(&b->q);
		if (!skb) {
			local_bh_enable();
			return;
		}
		sk = MRC_STEER_CB(skb)->sk;
		rcu_read_lock();
		skb->dev = dev_get_by_index_rcu(sock_net(sk), skb->skb_iif);
		if (skb->dev)
			mrc_steer_up->rx(sk, skb, true);
		else
			kfree_skb(skb);
		rcu_read_unlock();
		local_bh_enable();
		sock_put(sk);
		if (++n % MRC_STEER_BATCH == 0)
			cond_resched();
	}
}

/**
 * mrc_net_steer() - hand a received train to @cpu if it is not this one
 * @sk: the MRC socket it came on
 * @skb: the train, as the rx handler takes it; under RCU, softirqs off
 * @cpu: where the layers above want it handled (-1: anywhere)
 *
 * A train for this CPU is queued too while this CPU's backlog holds
 * trains it must not overtake.
 *
 * Return: MRC_STEER_HERE if the caller is to handle @skb now, else
 * MRC_STEER_QUEUED or MRC_STEER_DROPPED (@cpu's backlog was full; @skb
 * is freed and the socket's drops count it).
 */
enum mrc_steer_verdict mrc_net_steer(struct sock *sk, struct sk_buff *skb,
				     int cpu)
{
	struct mrc_steer_backlog *b;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return MRC_STEER_HERE;
	b = per_cpu_ptr(&mrc_steer_backlog, cpu);
	if (cpu == raw_smp_processor_id() && skb_queue_empty_lockless(&b->q))
		return MRC_STEER_HERE;
	if (skb_queue_len_lockless(&b->q) >= MRC_STEER_BACKLOG_MAX) {
		atomic_inc(&sk->sk_drops);
		kfree_skb(skb);
		return MRC_STEER_DROPPED;
	}
	skb->dev = NULL;
	sock_hold(sk);
	MRC_STEER_CB(skb)->sk = sk;
	skb_queue_tail(&b->q, skb);
	queue_work_on(cpu, mrc_steer_wq, &b->work);
	return MRC_STEER_QUEUED;
}

/**
 * mrc_net_steer_flush() - wait until every train queued so far is handled
 *
 * A socket being released may still have trains queued: they hold it,
 * but not its namespace.
 */
void mrc_net_steer_flush(void)
{
	flush_workqueue(mrc_steer_wq);
}

/**
 * mrc_net_steer_init() - set up every possible CPU's backlog
 * @handlers: the upper layers' handlers, whose @rx takes steered trains
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_net_steer_init(const struct mrc_net_handlers *handlers)
{
	int cpu;

	mrc_steer_up = handlers;

	/*
	 * Bound and high-priority: a program busy-polling its CQ on the home
	 * CPU must not starve the work that fills it. Memory reclaim may
	 * wait on this queue when a storage protocol runs over MRC.
	 */
	mrc_steer_wq = alloc_workqueue("mrc_rx", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!mrc_steer_wq)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct mrc_steer_backlog *b = per_cpu_ptr(&mrc_steer_backlog, cpu);

		skb_queue_head_init(&b->q);
		INIT_WORK(&b->work, mrc_steer_work);
	}
	return 0;
}

/**
 * mrc_net_steer_exit() - drain and free the backlogs; no socket is left
 */
void mrc_net_steer_exit(void)
{
	destroy_workqueue(mrc_steer_wq);
}
