// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The profile commands, one set of handlers for every kind: GET (one or
 * a dump), NEW, SET (all of a request or none of it) and DEL. Each runs
 * under the device's ctl->lock; a change works on a private copy that
 * replaces the stored profile only when every check has passed.
 */
#include <linux/cred.h>
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"

/* QPs a profile's GET names; MRC_ATTR_PROF_USERS_MORE says there are more. */
#define MRC_GENL_USERS_MAX	64

/*
 * What the commands do differently for each kind on the netlink side;
 * struct mrc_prof_kind holds the rest.
 */
struct mrc_genl_kind {
	const struct mrc_prof_kind *kind;
	u8 get_cmd;		/* the GET command, which replies carry */
	int nest;		/* the attribute holding the configuration */
	/* apply a request's configuration to a private copy */
	int (*parse)(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		     struct nlattr **attrs, struct netlink_ext_ack *extack);
	/* put the configuration nest into a reply; ctl->lock held */
	int (*fill)(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
		    const struct mrc_prof *prof);
};

static const struct mrc_genl_kind mrc_genl_evfmt = {
	.kind = &mrc_evfmt_kind,
	.get_cmd = MRC_CMD_EVFMT_GET,
	.nest = MRC_ATTR_EVFMT,
	.parse = mrc_genl_evfmt_parse,
	.fill = mrc_genl_evfmt_fill,
};

static const struct mrc_genl_kind mrc_genl_evprof = {
	.kind = &mrc_evprof_kind,
	.get_cmd = MRC_CMD_EVPROF_GET,
	.nest = MRC_ATTR_EVPROF,
	.parse = mrc_genl_evprof_parse,
	.fill = mrc_genl_evprof_fill,
};

static const struct mrc_genl_kind mrc_genl_ccprof = {
	.kind = &mrc_ccprof_kind,
	.get_cmd = MRC_CMD_CCPROF_GET,
	.nest = MRC_ATTR_CCPROF,
	.parse = mrc_genl_ccprof_parse,
	.fill = mrc_genl_ccprof_fill,
};

static const struct mrc_genl_kind *mrc_genl_kind(u8 cmd)
{
	switch (cmd) {
	case MRC_CMD_EVFMT_GET:
	case MRC_CMD_EVFMT_NEW:
	case MRC_CMD_EVFMT_DEL:
	case MRC_CMD_EVFMT_SET:
		return &mrc_genl_evfmt;
	case MRC_CMD_EVPROF_GET:
	case MRC_CMD_EVPROF_NEW:
	case MRC_CMD_EVPROF_DEL:
	case MRC_CMD_EVPROF_SET:
		return &mrc_genl_evprof;
	default:
		return &mrc_genl_ccprof;
	}
}

/*
 * The QPs bound to @prof that @rd may see, up to 64 of them, for "in use
 * by" messages; MRC_ATTR_PROF_NUSERS counts them all.
 */
static int mrc_genl_put_users(struct sk_buff *skb,
			      const struct mrc_genl_kind *gk,
			      struct mrc_ctl_dev *ctl,
			      const struct mrc_prof *prof,
			      const struct mrc_genl_reader *rd)
{
	struct nlattr *nest;
	struct mrc_qp *qp;
	int n = 0;

	if (gk->kind->qp_users == MRC_PROF_QP_NONE || !prof->nusers)
		return 0;
	nest = nla_nest_start(skb, MRC_ATTR_PROF_USERS);
	if (!nest)
		return -EMSGSIZE;
	list_for_each_entry(qp, &ctl->qps, ctl_node) {
		u64 id = gk->kind->qp_users == MRC_PROF_QP_EV ? qp->ev_profile_id :
							    qp->cc_profile_id;

		if (id != prof->id || !mrc_genl_reader_sees(rd, qp))
			continue;
		if (n++ == MRC_GENL_USERS_MAX) {
			nla_nest_end(skb, nest);
			return nla_put_flag(skb, MRC_ATTR_PROF_USERS_MORE);
		}
		if (nla_put_u32(skb, MRC_ATTR_QPN, qp->ibqp.qp_num))
			return -EMSGSIZE;
	}
	if (n)
		nla_nest_end(skb, nest);
	else
		nla_nest_cancel(skb, nest);
	return 0;
}

/*
 * An EV or CC profile's access rule, and its group as a gid of the
 * reader's user namespace (the overflow gid when it has no mapping there).
 */
static int mrc_genl_put_access(struct sk_buff *skb,
			       const struct mrc_genl_kind *gk,
			       const struct mrc_prof *prof)
{
	const struct mrc_prof_access *a = &prof->access;

	if (gk->kind->qp_users == MRC_PROF_QP_NONE)
		return 0;
	if (nla_put_u8(skb, MRC_ATTR_PROF_ACCESS, a->rule))
		return -EMSGSIZE;
	if (a->rule != MRC_PROF_ACCESS_GROUP)
		return 0;
	return nla_put_u32(skb, MRC_ATTR_PROF_ACCESS_GID,
			   from_kgid_munged(current_user_ns(), a->gid));
}

static int mrc_genl_fill_prof(struct sk_buff *skb,
			      const struct mrc_genl_kind *gk,
			      struct mrc_dev *mdev, const struct mrc_prof *prof,
			      const struct mrc_genl_reader *rd,
			      u32 portid, u32 seq, int flags,
			      struct netlink_callback *cb)
{
	void *hdr;

	hdr = mrc_genlmsg_put(skb, portid, seq, flags, gk->get_cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (mrc_genl_put_dev(skb, mdev) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_PROF_ID, prof->id, MRC_ATTR_PAD) ||
	    nla_put_u8(skb, MRC_ATTR_PROF_STATE, prof->state) ||
	    nla_put_u32(skb, MRC_ATTR_PROF_NUSERS, prof->nusers) ||
	    mrc_genl_put_users(skb, gk, mdev->ctl, prof, rd) ||
	    mrc_genl_put_access(skb, gk, prof) ||
	    gk->fill(skb, mdev->ctl, prof)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int mrc_genl_reply_prof(struct sk_buff *skb, struct genl_info *info,
			       const struct mrc_genl_kind *gk,
			       struct mrc_dev *mdev,
			       const struct mrc_prof *prof)
{
	struct mrc_genl_reader rd;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mrc_genl_reader_init(&rd, skb, mdev);
	err = mrc_genl_fill_prof(msg, gk, mdev, prof, &rd, info->snd_portid,
				 info->snd_seq, 0, NULL);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* The profile a request names by MRC_ATTR_PROF_ID; ctl->lock is held. */
static struct mrc_prof *mrc_genl_prof_lookup(const struct mrc_genl_kind *gk,
					     struct mrc_ctl_dev *ctl,
					     struct genl_info *info)
{
	struct nlattr *id = info->attrs[MRC_ATTR_PROF_ID];
	struct mrc_prof *prof;

	prof = mrc_prof_find(gk->kind, ctl, nla_get_u64(id));
	if (!prof)
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "no profile of this kind with this id on the device");
	return prof;
}

/* A doit's work on the device the request names, under its ctl->lock. */
typedef int (*mrc_genl_prof_fn)(const struct mrc_genl_kind *gk,
				struct mrc_dev *mdev, struct sk_buff *skb,
				struct genl_info *info);

static int mrc_genl_prof_do(struct sk_buff *skb, struct genl_info *info,
			    bool needs_id, mrc_genl_prof_fn fn)
{
	const struct mrc_genl_kind *gk = mrc_genl_kind(info->genlhdr->cmd);
	struct mrc_dev *mdev;
	int err;

	if (needs_id && GENL_REQ_ATTR_CHECK(info, MRC_ATTR_PROF_ID))
		return -EINVAL;
	mdev = mrc_genl_dev_get(info->attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	mutex_lock(&mdev->ctl->lock);
	err = fn(gk, mdev, skb, info);
	mutex_unlock(&mdev->ctl->lock);
	ib_device_put(&mdev->ib_dev);
	return err;
}

static int mrc_genl_prof_get_locked(const struct mrc_genl_kind *gk,
				    struct mrc_dev *mdev, struct sk_buff *skb,
				    struct genl_info *info)
{
	struct mrc_prof *prof = mrc_genl_prof_lookup(gk, mdev->ctl, info);

	return prof ? mrc_genl_reply_prof(skb, info, gk, mdev, prof) : -ENOENT;
}

/**
 * mrc_genl_prof_get_doit() - *_GET of one profile
 * @skb: the request
 * @info: its attributes: a device and MRC_ATTR_PROF_ID
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_prof_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_genl_prof_do(skb, info, true, mrc_genl_prof_get_locked);
}

struct mrc_genl_prof_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	const struct mrc_genl_kind *gk;
};

/* One device's profiles from id cb->args[1] on; resumable. */
static int mrc_genl_prof_dump_dev(struct mrc_dev *mdev, void *arg)
{
	struct mrc_genl_prof_dump *d = arg;
	struct netlink_callback *cb = d->cb;
	unsigned long id = cb->args[1];
	struct mrc_genl_reader rd;
	struct mrc_prof *prof;
	int err = 0;

	mrc_genl_reader_init(&rd, cb->skb, mdev);
	mutex_lock(&mdev->ctl->lock);
	cb->seq = mrc_genl_gen();
	xa_for_each_start(d->gk->kind->xa(mdev->ctl), id, prof, id) {
		err = mrc_genl_fill_prof(d->skb, d->gk, mdev, prof, &rd,
					 NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
	}
	mutex_unlock(&mdev->ctl->lock);
	/* Resume at the profile that did not fit, or the next device. */
	cb->args[1] = err ? id : 0;
	return err;
}

/**
 * mrc_genl_prof_get_dumpit() - dump the profiles of one kind
 * @skb: the message being filled
 * @cb: args[0] is the device position, args[1] the next profile id
 *
 * Walks the devices of the caller's namespace, or only the one the
 * request names.
 *
 * Return: the length filled, 0 when done, or a negative errno.
 */
int mrc_genl_prof_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct mrc_genl_prof_dump d = {
		.skb = skb, .cb = cb,
		.gk = mrc_genl_kind(info->op.cmd),
	};
	struct nlattr **attrs = info->attrs;
	struct mrc_dev *mdev;
	long pos = cb->args[0];
	int err;

	if (attrs[MRC_ATTR_DEV_NAME] || attrs[MRC_ATTR_DEV_INDEX]) {
		if (cb->args[2])
			return 0;	/* that device is done */
		mdev = mrc_genl_dev_get(attrs, sock_net(skb->sk), cb->extack);
		if (IS_ERR(mdev))
			return PTR_ERR(mdev);
		err = mrc_genl_prof_dump_dev(mdev, &d);
		ib_device_put(&mdev->ib_dev);
		if (!err)
			cb->args[2] = 1;
	} else {
		err = mrc_dev_for_each(sock_net(skb->sk), &pos,
				       mrc_genl_prof_dump_dev, &d);
		cb->args[0] = pos;
	}
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

/* The lowest free id >= 1, for NEW without MRC_ATTR_PROF_ID. */
static u64 mrc_genl_prof_free_id(struct xarray *xa)
{
	u64 id = 1;

	while (xa_load(xa, id))
		id++;
	return id;
}

static int mrc_genl_prof_count(struct xarray *xa)
{
	struct mrc_prof *prof;
	unsigned long id;
	int n = 0;

	xa_for_each(xa, id, prof)
		n++;
	return n;
}

/*
 * MRC_ATTR_PROF_ACCESS (and the gid of GROUP) into @prof. Only the EV
 * and CC profile commands' policies have them. The gid is read in the
 * requester's user namespace, as chown(2) reads one.
 */
static int mrc_genl_prof_access(struct mrc_prof *prof, struct genl_info *info)
{
	struct nlattr *rule = info->attrs[MRC_ATTR_PROF_ACCESS];
	struct nlattr *gid = info->attrs[MRC_ATTR_PROF_ACCESS_GID];
	struct mrc_prof_access a = { .gid = INVALID_GID };

	if (!rule && !gid)
		return 0;
	if (!rule || (nla_get_u8(rule) == MRC_PROF_ACCESS_GROUP) != !!gid) {
		NL_SET_ERR_MSG_ATTR(info->extack, rule ? rule : gid,
				    "a gid goes with access group, and access group needs one");
		return -EINVAL;
	}
	a.rule = nla_get_u8(rule);
	if (gid) {
		a.gid = make_kgid(current_user_ns(), nla_get_u32(gid));
		if (!gid_valid(a.gid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, gid,
					    "gid has no mapping in the requester's user namespace");
			return -EINVAL;
		}
	}
	prof->access = a;
	return 0;
}

/* Apply a request's configuration and state to @prof; nothing stored. */
static int mrc_genl_prof_apply(const struct mrc_genl_kind *gk,
			       struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			       struct genl_info *info)
{
	struct nlattr *state = info->attrs[MRC_ATTR_PROF_STATE];
	const char *why = NULL;
	int err;

	err = mrc_genl_prof_access(prof, info);
	if (!err)
		err = gk->parse(ctl, prof, info->attrs, info->extack);
	if (err)
		return err;
	if (!state)
		return 0;
	err = mrc_prof_set_state(gk->kind, ctl, prof, nla_get_u8(state), &why);
	if (err)
		mrc_genl_set_why(info->extack, NULL, why);
	return err;
}

static int mrc_genl_prof_new_locked(const struct mrc_genl_kind *gk,
				    struct mrc_dev *mdev, struct sk_buff *skb,
				    struct genl_info *info)
{
	struct nlattr *id_attr = info->attrs[MRC_ATTR_PROF_ID];
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct xarray *xa = gk->kind->xa(ctl);
	struct mrc_prof *prof;
	u64 id;
	int err;

	if (mrc_genl_prof_count(xa) >= gk->kind->max) {
		NL_SET_ERR_MSG(info->extack,
			       "the device holds the most profiles of this kind it can");
		return -ENOSPC;
	}
	id = id_attr ? nla_get_u64(id_attr) : mrc_genl_prof_free_id(xa);
	if ((unsigned long)id != id) {
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr, "id out of range");
		return -ERANGE;
	}
	if (xa_load(xa, id)) {
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr,
				    "a profile with this id exists");
		return -EEXIST;
	}
	prof = kzalloc(gk->kind->size, GFP_KERNEL);
	if (!prof)
		return -ENOMEM;
	prof->id = id;
	prof->state = MRC_PROF_INIT;
	err = mrc_genl_prof_apply(gk, ctl, prof, info);
	if (!err)
		err = xa_insert(xa, id, prof, GFP_KERNEL);
	if (err) {
		mrc_prof_free(gk->kind, prof);
		return err;
	}
	if (gk->kind->commit)
		gk->kind->commit(ctl, NULL, prof);
	mrc_genl_gen_bump();
	/* The profile exists now even if the reply cannot be sent. */
	mrc_genl_reply_prof(skb, info, gk, mdev, prof);
	return 0;
}

/**
 * mrc_genl_prof_new_doit() - *_NEW
 * @skb: the request
 * @info: a device, optionally an id, a configuration and a state
 *
 * Return: 0 (the new profile is the reply) or a negative errno.
 */
int mrc_genl_prof_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_genl_prof_do(skb, info, false, mrc_genl_prof_new_locked);
}

static int mrc_genl_prof_set_locked(const struct mrc_genl_kind *gk,
				    struct mrc_dev *mdev, struct sk_buff *skb,
				    struct genl_info *info)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_prof *old, *copy;
	int err;

	if (!info->attrs[gk->nest] && !info->attrs[MRC_ATTR_PROF_STATE] &&
	    !info->attrs[MRC_ATTR_EVS] && !info->attrs[MRC_ATTR_PROF_ACCESS] &&
	    !info->attrs[MRC_ATTR_PROF_ACCESS_GID]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to change: give a configuration, a state or an access rule");
		return -EINVAL;
	}
	old = mrc_genl_prof_lookup(gk, ctl, info);
	if (!old)
		return -ENOENT;
	copy = mrc_prof_dup(gk->kind, old);
	if (!copy)
		return -ENOMEM;
	err = mrc_genl_prof_apply(gk, ctl, copy, info);
	if (err) {
		mrc_prof_free(gk->kind, copy);
		return err;
	}
	/* Replacing an existing entry allocates nothing and cannot fail. */
	xa_store(gk->kind->xa(ctl), old->id, copy, GFP_KERNEL);
	if (gk->kind->commit)
		gk->kind->commit(ctl, old, copy);
	mrc_prof_free(gk->kind, old);
	mrc_genl_gen_bump();
	return 0;
}

/**
 * mrc_genl_prof_set_doit() - *_SET
 * @skb: the request
 * @info: a device, the id, a configuration and/or a state
 *
 * Return: 0 or a negative errno; on error the profile is unchanged.
 */
int mrc_genl_prof_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_genl_prof_do(skb, info, true, mrc_genl_prof_set_locked);
}

static int mrc_genl_prof_del_locked(const struct mrc_genl_kind *gk,
				    struct mrc_dev *mdev, struct sk_buff *skb,
				    struct genl_info *info)
{
	struct mrc_prof *prof = mrc_genl_prof_lookup(gk, mdev->ctl, info);
	const char *why = NULL;
	int err;

	if (!prof)
		return -ENOENT;
	err = gk->kind->busy(mdev->ctl, prof, &why);
	if (err) {
		mrc_genl_set_why(info->extack, NULL, why);
		return err;
	}
	xa_erase(gk->kind->xa(mdev->ctl), prof->id);
	if (gk->kind->commit)
		gk->kind->commit(mdev->ctl, prof, NULL);
	mrc_prof_free(gk->kind, prof);
	mrc_genl_gen_bump();
	return 0;
}

/**
 * mrc_genl_prof_del_doit() - *_DEL
 * @skb: the request
 * @info: a device and the id
 *
 * Refused with -EBUSY while the profile is in use or a device default.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_prof_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_genl_prof_do(skb, info, true, mrc_genl_prof_del_locked);
}
