// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A device's control-plane state: made when the device is created, with
 * the built-in objects that reproduce the behaviour of a device nobody
 * configures, and freed with the device (every QP is gone by then).
 */
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"

static void mrc_ctl_free_table(const struct mrc_prof_kind *kind,
			       struct xarray *xa)
{
	struct mrc_prof *prof;
	unsigned long id;

	xa_for_each(xa, id, prof)
		mrc_prof_free(kind, prof);
	xa_destroy(xa);
}

static void mrc_ctl_free_tables(struct mrc_ctl_dev *ctl)
{
	mrc_ctl_free_table(&mrc_evprof_kind, &ctl->evp_xa);
	mrc_ctl_free_table(&mrc_evfmt_kind, &ctl->fmt_xa);
	mrc_ctl_free_table(&mrc_ccprof_kind, &ctl->ccp_xa);
}

/* Profiles 0, the defaults: a device nobody configures works as before. */
static int mrc_ctl_add_builtins(struct mrc_ctl_dev *ctl)
{
	struct mrc_evfmt *fmt = kzalloc(sizeof(*fmt), GFP_KERNEL);
	struct mrc_evprof *evp = kzalloc(sizeof(*evp), GFP_KERNEL);
	struct mrc_ccprof *cc = kzalloc(sizeof(*cc), GFP_KERNEL);
	int err = -ENOMEM;

	if (!fmt || !evp || !cc)
		goto err_free;
	mrc_evfmt_builtin(fmt);
	mrc_evprof_builtin(evp);
	mrc_ccprof_builtin(cc);
	err = xa_insert(&ctl->fmt_xa, 0, &fmt->p, GFP_KERNEL);
	if (err)
		goto err_free;
	fmt = NULL;
	err = xa_insert(&ctl->evp_xa, 0, &evp->p, GFP_KERNEL);
	if (err)
		goto err_free;
	mrc_evprof_kind.commit(ctl, NULL, &evp->p);
	evp = NULL;
	err = xa_insert(&ctl->ccp_xa, 0, &cc->p, GFP_KERNEL);
	if (err)
		goto err_free;
	ctl->default_evp = 0;
	ctl->default_ccp = 0;
	return 0;

err_free:
	kfree(fmt);
	kfree(evp);
	kfree(cc);
	return err;
}

/**
 * mrc_ctl_dev_alloc() - give a new device its control-plane state
 * @mdev: the device, not yet registered
 *
 * Return: 0 or -ENOMEM; on success mrc_ctl_dev_free() releases it.
 */
int mrc_ctl_dev_alloc(struct mrc_dev *mdev)
{
	struct mrc_ctl_dev *ctl;
	int err;

	ctl = kzalloc(sizeof(*ctl), GFP_KERNEL);
	if (!ctl)
		return -ENOMEM;
	mutex_init(&ctl->lock);
	mutex_init(&ctl->walk_lock);
	ctl->mdev = mdev;
	xa_init(&ctl->fmt_xa);
	xa_init(&ctl->evp_xa);
	xa_init(&ctl->ccp_xa);
	INIT_LIST_HEAD(&ctl->qps);
	ctl->port_admin = MRC_PORT_ADMIN_ENABLED;
	ctl->events = mrc_ev_events_alloc(mdev);
	err = ctl->events ? mrc_ctl_add_builtins(ctl) : -ENOMEM;
	if (err) {
		mrc_ev_events_free(ctl->events);
		mrc_ctl_free_tables(ctl);
		mutex_destroy(&ctl->walk_lock);
		mutex_destroy(&ctl->lock);
		kfree(ctl);
		return err;
	}
	mdev->ctl = ctl;
	return 0;
}

/**
 * mrc_ctl_dev_free() - free a device's profiles and control state
 * @mdev: the device; no QP may use a profile any more. Safe if never
 *	allocated.
 */
void mrc_ctl_dev_free(struct mrc_dev *mdev)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;

	if (!ctl)
		return;
	mrc_ev_events_free(ctl->events);
	mrc_ctl_free_tables(ctl);
	mutex_destroy(&ctl->walk_lock);
	mutex_destroy(&ctl->lock);
	kfree(ctl);
	mdev->ctl = NULL;
}
