// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What every object's creation uses: the per-device count of each kind of
 * object against the limits ib_query_device reports, and ids drawn at
 * random so that they cannot be guessed.
 */
#include <linux/random.h>

#include "verbs/mrc_verbs.h"

static const int mrc_res_max[MRC_RES_COUNT] = {
	[MRC_RES_PD] = MRC_MAX_PD,
	[MRC_RES_CQ] = MRC_MAX_CQ,
	[MRC_RES_QP] = MRC_MAX_QP,
	[MRC_RES_SRQ] = MRC_MAX_SRQ,
	[MRC_RES_MR] = MRC_MAX_MR,
	[MRC_RES_MW] = MRC_MAX_MW,
};

/**
 * mrc_res_get() - count one more object against the device's limit
 * @mdev: the device
 * @res: kind of object
 *
 * The limits are those ib_query_device reports. Per-user shares of them
 * are the rdma cgroup controller's job (the core charges every object).
 *
 * Return: 0, or -ENOMEM when the device has as many as it allows.
 */
int mrc_res_get(struct mrc_dev *mdev, enum mrc_res res)
{
	if (atomic_inc_return(&mdev->nres[res]) > mrc_res_max[res]) {
		atomic_dec(&mdev->nres[res]);
		return -ENOMEM;
	}
	return 0;
}

/**
 * mrc_res_put() - undo mrc_res_get()
 * @mdev: the device
 * @res: kind of object
 */
void mrc_res_put(struct mrc_dev *mdev, enum mrc_res res)
{
	atomic_dec(&mdev->nres[res]);
}

/**
 * mrc_xa_insert_random() - store an entry at an unpredictable free index
 * @xa: the array
 * @entry: what to store
 * @min: lowest index to use
 * @max: highest index to use
 * @id: set to the index chosen
 *
 * QPNs and memory keys are what an off-path host must guess to inject
 * packets; sequential ones are guessed at once.
 *
 * Return: 0, or a negative errno (-ENOMEM when no free index was found).
 */
int mrc_xa_insert_random(struct xarray *xa, void *entry, u32 min, u32 max,
			 u32 *id)
{
	int tries, err;

	for (tries = 0; tries < 16; tries++) {
		*id = get_random_u32_inclusive(min, max);
		err = xa_insert(xa, *id, entry, GFP_KERNEL_ACCOUNT);
		if (err != -EBUSY)
			return err;
	}
	/* A nearly full range: take any free index rather than fail. */
	err = xa_alloc(xa, id, entry, XA_LIMIT(min, max), GFP_KERNEL_ACCOUNT);
	return err == -EBUSY ? -ENOMEM : err;
}
