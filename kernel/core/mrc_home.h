/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP's home CPU: the one CPU that runs its work, so that its lock,
 * windows and packets stay in one CPU's cache and the work of two QPs
 * (or of the two ends of one QP in one host) can run on two CPUs at once.
 *
 * The home follows whoever posts to the QP, but only once the poster has
 * stayed away: a program the scheduler moved for good moves its QP with
 * it, while threads that share a QP from several CPUs do not bounce it,
 * each move reordering the packets already queued for the old home.
 */
#ifndef MRC_HOME_H
#define MRC_HOME_H

#include <linux/compiler.h>
#include <linux/types.h>

/* Consecutive doorbells from one other CPU that move the home there. */
#define MRC_HOME_MOVE_AFTER	64

/**
 * struct mrc_home - where a QP's work runs
 * @cpu: the home CPU; read without a lock by the receive path
 * @away_cpu: the CPU the last doorbells rang on, if not @cpu
 * @away: how many doorbells in a row rang on @away_cpu
 *
 * Doorbells on several CPUs may race on @away_cpu and @away: a lost
 * count only delays a move, so no lock is taken for them.
 */
struct mrc_home {
	int cpu;
	int away_cpu;
	unsigned int away;
};

static inline void mrc_home_init(struct mrc_home *h, int cpu)
{
	WRITE_ONCE(h->cpu, cpu);
	h->away_cpu = -1;
	h->away = 0;
}

static inline int mrc_home_cpu(const struct mrc_home *h)
{
	return READ_ONCE(h->cpu);
}

/**
 * mrc_home_doorbell() - a poster rang the QP's doorbell on @cpu
 * @h: the QP's home
 * @cpu: the CPU the doorbell rang on
 *
 * Return: true if the QP's work may run right here, on its home (which
 * may have just moved to @cpu); false if it is to be run at home.
 */
static inline bool mrc_home_doorbell(struct mrc_home *h, int cpu)
{
	unsigned int away;

	if (cpu == READ_ONCE(h->cpu)) {
		WRITE_ONCE(h->away, 0);
		return true;
	}
	if (READ_ONCE(h->away_cpu) != cpu) {
		WRITE_ONCE(h->away_cpu, cpu);
		WRITE_ONCE(h->away, 1);
		return false;
	}
	away = READ_ONCE(h->away) + 1;
	if (away < MRC_HOME_MOVE_AFTER) {
		WRITE_ONCE(h->away, away);
		return false;
	}
	WRITE_ONCE(h->away, 0);
	WRITE_ONCE(h->away_cpu, -1);
	WRITE_ONCE(h->cpu, cpu);
	return true;
}

#endif /* MRC_HOME_H */
