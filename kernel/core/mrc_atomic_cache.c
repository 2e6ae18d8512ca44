// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Executed ATOMIC results kept for retransmitted requests; the eviction
 * rule is explained in mrc_atomic_cache.h.
 */
#include <linux/string.h>

#include "mrc_atomic_cache.h"
#include "mrc_psn.h"

void mrc_atomic_cache_reset(struct mrc_atomic_cache *cache)
{
	memset(cache, 0, sizeof(*cache));
}

const struct mrc_atomic_result *
mrc_atomic_cache_find(const struct mrc_atomic_cache *cache, u32 psn)
{
	unsigned int i;

	for (i = 0; i < MRC_ATOMIC_CACHE_SIZE; i++)
		if (cache->ent[i].valid && cache->ent[i].psn == psn)
			return &cache->ent[i];
	return NULL;
}

void mrc_atomic_cache_store(struct mrc_atomic_cache *cache, u32 psn, u64 orig)
{
	struct mrc_atomic_result *victim = &cache->ent[0];
	unsigned int i;

	for (i = 0; i < MRC_ATOMIC_CACHE_SIZE; i++) {
		struct mrc_atomic_result *e = &cache->ent[i];

		if (!e->valid) {
			victim = e;
			break;
		}
		if (mrc_psn_before(e->psn, victim->psn))
			victim = e;
	}
	victim->psn = psn;
	victim->orig = orig;
	victim->valid = true;
}
