// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the three kinds of profile share: lookup by id, OCP's life
 * cycle, INIT -> OFFLINE -> ONLINE and back, one step at a time, and
 * who may create QPs on an EV or CC profile.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/slab.h>

#include "ctl/mrc_prof.h"

static const char mrc_prof_unconfigured[] =
	"profile is not configured: set its mode or algorithm before offline";

/**
 * mrc_prof_dup() - a private copy of a profile, to change
 * @kind: its kind
 * @prof: the profile
 *
 * Return: the copy (free it with mrc_prof_free()), or NULL.
 */
struct mrc_prof *mrc_prof_dup(const struct mrc_prof_kind *kind,
			      const struct mrc_prof *prof)
{
	struct mrc_prof *copy = kmemdup(prof, kind->size, GFP_KERNEL);

	if (copy && kind->dup && kind->dup(copy, prof)) {
		kfree(copy);
		return NULL;
	}
	return copy;
}

/**
 * mrc_prof_free() - free a profile and what it points to
 * @kind: its kind
 * @prof: the profile, or NULL
 */
void mrc_prof_free(const struct mrc_prof_kind *kind, struct mrc_prof *prof)
{
	if (prof && kind->release)
		kind->release(prof);
	kfree(prof);
}

/**
 * mrc_prof_find() - a device's profile of one kind, by id
 * @kind: which table
 * @ctl: the device's control state; the caller holds @ctl->lock
 * @id: the profile id
 *
 * Return: the profile, or NULL.
 */
struct mrc_prof *mrc_prof_find(const struct mrc_prof_kind *kind,
			       struct mrc_ctl_dev *ctl, u64 id)
{
	lockdep_assert_held(&ctl->lock);
	if ((unsigned long)id != id)
		return NULL;
	return xa_load(kind->xa(ctl), id);
}

/**
 * mrc_prof_set_state() - move a profile to @state, one step at a time
 * @kind: the profile's kind
 * @ctl: the device's control state; the caller holds @ctl->lock
 * @prof: the profile (the caller's private copy when it is a change)
 * @state: enum mrc_genl_prof_state
 * @why: set to why a move is refused
 *
 * Return: 0, -EINVAL for a move OCP does not allow or a profile not
 * configured enough, -EBUSY when something depends on the profile, or
 * what @kind refuses ONLINE with.
 */
int mrc_prof_set_state(const struct mrc_prof_kind *kind,
		       struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		       u8 state, const char **why)
{
	int err;

	lockdep_assert_held(&ctl->lock);
	if (state == prof->state)
		return 0;
	if (state > MRC_PROF_ONLINE || abs(state - prof->state) != 1) {
		*why = "profile state moves one step at a time: init, offline, online";
		return -EINVAL;
	}

	switch (state) {
	case MRC_PROF_OFFLINE:
		/* Configuring (a mode, an algorithm) is what leaves INIT. */
		if (prof->state == MRC_PROF_INIT) {
			*why = mrc_prof_unconfigured;
			return -EINVAL;
		}
		if (prof->state == MRC_PROF_ONLINE) {
			err = kind->busy(ctl, prof, why);
			if (err)
				return err;
		}
		break;
	case MRC_PROF_ONLINE:
		err = kind->can_online(prof, why);
		if (err)
			return err;
		break;
	case MRC_PROF_INIT:
		kind->reset(prof);
		break;
	}
	prof->state = state;
	return 0;
}

/**
 * mrc_prof_may_bind() - whether the current task may create a QP on @prof
 * @prof: an EV or CC profile
 * @is_default: @prof is the device's default of its kind
 * @ns: the user namespace owning the device's network namespace
 *
 * The task's effective credentials decide: CAP_NET_ADMIN in @ns passes
 * every rule; IF_DEFAULT is OPEN while @prof is the default (a QP that
 * names no profile gets it anyway), else ADMIN; GROUP also passes a
 * member of the group (effective or supplementary gid).
 *
 * Return: true if the QP may use @prof.
 */
bool mrc_prof_may_bind(const struct mrc_prof *prof, bool is_default,
		       struct user_namespace *ns)
{
	switch (prof->access.rule) {
	case MRC_PROF_ACCESS_OPEN:
		return true;
	case MRC_PROF_ACCESS_IF_DEFAULT:
		if (is_default)
			return true;
		break;
	case MRC_PROF_ACCESS_GROUP:
		if (in_egroup_p(prof->access.gid))
			return true;
		break;
	}
	return ns_capable(ns, CAP_NET_ADMIN);
}

/**
 * mrc_prof_access_name() - an access rule's name, as mrc-ip writes it
 * @rule: enum mrc_genl_prof_access
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *mrc_prof_access_name(u8 rule)
{
	static const char *const names[] = {
		[MRC_PROF_ACCESS_IF_DEFAULT] = "if-default",
		[MRC_PROF_ACCESS_OPEN] = "open",
		[MRC_PROF_ACCESS_ADMIN] = "admin",
		[MRC_PROF_ACCESS_GROUP] = "group",
	};

	return rule < ARRAY_SIZE(names) ? names[rule] : "?";
}
