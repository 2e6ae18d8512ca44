// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A device's control-plane state: made when the device is created, with
 * the built-in objects that reproduce the behaviour of a device nobody
 * configures, and freed with the device (every QP is gone by then).
 */
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"

static int mrc_ctl_add_builtins(struct mrc_ctl_dev *ctl)
{
	struct mrc_evfmt *fmt;
	struct mrc_ccprof *cc;
	int err;

	fmt = kzalloc(sizeof(*fmt), GFP_KERNEL);
	cc = kzalloc(sizeof(*cc), GFP_KERNEL);
	if (!fmt || !cc) {
		err = -ENOMEM;
		goto err_free;
	}
	mrc_evfmt_builtin(fmt);
	mrc_ccprof_builtin(cc);
	err = xa_insert(&ctl->fmt_xa, 0, &fmt->p, GFP_KERNEL);
	if (err)
		goto err_free;
	err = xa_insert(&ctl->ccp_xa, 0, &cc->p, GFP_KERNEL);
	if (err) {
		xa_erase(&ctl->fmt_xa, 0);
		goto err_free;
	}
	ctl->default_ccp = 0;
	return 0;

err_free:
	kfree(fmt);
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
	xa_init(&ctl->fmt_xa);
	xa_init(&ctl->ccp_xa);
	ctl->port_admin = MRC_PORT_ADMIN_ENABLED;
	err = mrc_ctl_add_builtins(ctl);
	if (err) {
		mutex_destroy(&ctl->lock);
		kfree(ctl);
		return err;
	}
	mdev->ctl = ctl;
	return 0;
}

static void mrc_ctl_free_table(struct xarray *xa)
{
	struct mrc_prof *prof;
	unsigned long id;

	xa_for_each(xa, id, prof)
		kfree(prof);
	xa_destroy(xa);
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
	mrc_ctl_free_table(&ctl->fmt_xa);
	mrc_ctl_free_table(&ctl->ccp_xa);
	mutex_destroy(&ctl->lock);
	kfree(ctl);
	mdev->ctl = NULL;
}
