/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The responder's memory of executed ATOMIC requests: a retransmitted
 * atomic must get the original value of its first execution, never run
 * twice.
 *
 * Which results to keep. The requester completes READ/ATOMIC WQEs in
 * order and has at most max_rd_atomic (<= MRC_ATOMIC_CACHE_SIZE) of them
 * uncompleted, so every result it may still ask for again has a higher
 * PSN than every result it can no longer ask for. Storing therefore
 * replaces the result with the lowest PSN, not the oldest execution:
 * with multipath reordering or a retransmitted hole, a low PSN executes
 * after higher ones, and evicting in execution order would drop a result
 * still outstanding (the requester then retries it until retry_cnt runs
 * out).
 *
 * No locking inside: the caller serialises all calls on a cache.
 */
#ifndef MRC_ATOMIC_CACHE_H
#define MRC_ATOMIC_CACHE_H

#include <linux/types.h>

#define MRC_ATOMIC_CACHE_SIZE	16

struct mrc_atomic_result {
	u32 psn;
	bool valid;
	u64 orig;
};

struct mrc_atomic_cache {
	struct mrc_atomic_result ent[MRC_ATOMIC_CACHE_SIZE];
};

/* Forget every result (QP reset). */
void mrc_atomic_cache_reset(struct mrc_atomic_cache *cache);

/**
 * mrc_atomic_cache_find() - the result of an executed atomic
 * @cache: the cache
 * @psn: the request's PSN
 *
 * Return: the result, or NULL when @psn's result is not (or no longer)
 * held.
 */
const struct mrc_atomic_result *
mrc_atomic_cache_find(const struct mrc_atomic_cache *cache, u32 psn);

/**
 * mrc_atomic_cache_store() - remember the result of a new execution
 * @cache: the cache
 * @psn: the request's PSN, not held yet
 * @orig: the value the target held before the operation
 *
 * Takes a free entry, else replaces the one with the lowest PSN.
 */
void mrc_atomic_cache_store(struct mrc_atomic_cache *cache, u32 psn, u64 orig);

#endif /* MRC_ATOMIC_CACHE_H */
