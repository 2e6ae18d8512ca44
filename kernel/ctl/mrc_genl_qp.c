// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QP_BIND: the OCP API names a QP's EV and CC profiles at its move to
 * INIT, after the QP was created with others, and its PSN ranges (MPR) on
 * the way to RTR and RTS; libmrc sends this request before each move.
 * The request's side lives here (who may ask, which attribute a refusal
 * is about, the reply); mrc_ctl_qp.c checks and swaps the binding,
 * mrc_ctl_qp_mpr.c the ranges.
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "uapi/mrc-abi.h"

/* The attribute a refusal of mrc_ctl_qp_rebind() is about. */
static const struct nlattr *mrc_genl_qp_bind_attr(struct nlattr **attrs,
						  u8 kind)
{
	switch (kind) {
	case MRC_PROF_QP_EV:
		return attrs[MRC_ATTR_QP_EVPROF];
	case MRC_PROF_QP_CC:
		return attrs[MRC_ATTR_QP_CCPROF];
	}
	return attrs[MRC_ATTR_QPN];
}

static int mrc_genl_qp_bind_fill(struct sk_buff *msg, struct genl_info *info,
				 struct mrc_dev *mdev, struct mrc_qp *qp,
				 const struct mrc_qp_profile_cmd *prev)
{
	u32 mpr, mpr_dest;
	u64 ev, cc;
	void *hdr;

	spin_lock_bh(&qp->lock);
	ev = qp->ev_profile_id;
	cc = qp->cc_profile_id;
	mpr = qp->req.txwin.size / MRC_QP_MPR_UNIT;
	mpr_dest = mrc_rxwin_size(&qp->resp.rxwin) / MRC_QP_MPR_UNIT;
	spin_unlock_bh(&qp->lock);
	hdr = mrc_genlmsg_put(msg, info->snd_portid, info->snd_seq, 0,
			      MRC_CMD_QP_BIND);
	if (!hdr)
		return -EMSGSIZE;
	if (mrc_genl_put_dev(msg, mdev) ||
	    nla_put_u32(msg, MRC_ATTR_QPN, qp->ibqp.qp_num) ||
	    nla_put_u64_64bit(msg, MRC_ATTR_QP_EVPROF, ev, MRC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, MRC_ATTR_QP_CCPROF, cc, MRC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, MRC_ATTR_QP_EVPROF_PREV, prev->ev_profile_id,
			      MRC_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, MRC_ATTR_QP_CCPROF_PREV, prev->cc_profile_id,
			      MRC_ATTR_PAD) ||
	    nla_put_u8(msg, MRC_ATTR_QP_MPR, mpr) ||
	    nla_put_u8(msg, MRC_ATTR_QP_MPR_DEST, mpr_dest)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/*
 * The QP a QP_BIND names, if the sender may change it: its owner (the
 * uid of the request's credentials against the QP creator's effective
 * uid, as QP_EV_GET reads) or CAP_NET_ADMIN over the device's namespace.
 * Anyone else learns only that the QPN is not one of theirs, whether it
 * exists or not: QPNs are the owner's and the administrator's to know.
 */
static struct mrc_qp *mrc_genl_qp_bindable(struct sk_buff *skb,
					   struct genl_info *info,
					   struct mrc_dev *mdev, int *err)
{
	struct nlattr *qpn = info->attrs[MRC_ATTR_QPN];
	struct mrc_genl_reader rd;
	struct mrc_qp *qp;

	mrc_genl_reader_init(&rd, skb, mdev);
	qp = mrc_qp_get(mdev, nla_get_u32(qpn));
	if (!rd.admin && (!qp || !mrc_genl_reader_sees(&rd, qp))) {
		if (qp)
			mrc_qp_put(qp);
		NL_SET_ERR_MSG_ATTR(info->extack, qpn,
				    "not a QP of the caller's: only its owner or CAP_NET_ADMIN may bind it to profiles");
		*err = -EPERM;
		return NULL;
	}
	if (!qp) {
		NL_SET_ERR_MSG_ATTR(info->extack, qpn,
				    "no QP with this number on the device");
		*err = -ENOENT;
	}
	return qp;
}

/* The profiles a QP_BIND names; false if it names none. */
static bool mrc_genl_qp_bind_ids(struct nlattr **attrs,
				 struct mrc_qp_profile_cmd *ids)
{
	if (attrs[MRC_ATTR_QP_EVPROF]) {
		ids->flags |= MRC_QP_F_EV_PROFILE;
		ids->ev_profile_id = nla_get_u64(attrs[MRC_ATTR_QP_EVPROF]);
	}
	if (attrs[MRC_ATTR_QP_CCPROF]) {
		ids->flags |= MRC_QP_F_CC_PROFILE;
		ids->cc_profile_id = nla_get_u64(attrs[MRC_ATTR_QP_CCPROF]);
	}
	return ids->flags;
}

/* The PSN ranges a QP_BIND names, in PSNs; false if it names none. */
static bool mrc_genl_qp_bind_mpr(struct nlattr **attrs, struct mrc_qp_mpr *mpr)
{
	if (attrs[MRC_ATTR_QP_MPR])
		mpr->req = nla_get_u8(attrs[MRC_ATTR_QP_MPR]) * MRC_QP_MPR_UNIT;
	if (attrs[MRC_ATTR_QP_MPR_DEST])
		mpr->dest = nla_get_u8(attrs[MRC_ATTR_QP_MPR_DEST]) *
			    MRC_QP_MPR_UNIT;
	return mpr->req || mpr->dest;
}

/* Binds @qp to the profiles of @ids, or sets the ranges of @mpr. */
static int mrc_genl_qp_bind_apply(struct genl_info *info, struct mrc_dev *mdev,
				  struct mrc_qp *qp,
				  const struct mrc_qp_profile_cmd *ids,
				  const struct mrc_qp_mpr *mpr,
				  struct mrc_qp_profile_cmd *prev)
{
	struct nlattr **attrs = info->attrs;
	struct mrc_ctl_bind_why why = {};
	struct mrc_qp_mpr now;
	const char *msg;
	bool dest;
	int err;

	if (ids->flags) {
		err = mrc_ctl_qp_rebind(mdev, qp, ids, prev, &why);
		if (err)
			mrc_genl_set_why(info->extack,
					 mrc_genl_qp_bind_attr(attrs, why.kind),
					 why.msg);
		return err;
	}
	spin_lock_bh(&qp->lock);
	prev->ev_profile_id = qp->ev_profile_id;
	prev->cc_profile_id = qp->cc_profile_id;
	spin_unlock_bh(&qp->lock);
	err = mrc_ctl_qp_set_mpr(qp, mpr, &now, &msg, &dest);
	if (err)
		mrc_genl_set_why(info->extack,
				 attrs[dest ? MRC_ATTR_QP_MPR_DEST : MRC_ATTR_QP_MPR] ?:
				 attrs[MRC_ATTR_QPN], msg);
	return err;
}

/**
 * mrc_genl_qp_bind_doit() - QP_BIND: bind a QP in RESET or INIT to other
 *	profiles, or set its PSN ranges
 * @skb: the request
 * @info: a device, MRC_ATTR_QPN, and MRC_ATTR_QP_EVPROF and/or
 *	MRC_ATTR_QP_CCPROF (the QP keeps the profile not named), or
 *	MRC_ATTR_QP_MPR and/or MRC_ATTR_QP_MPR_DEST
 *
 * The OCP API sets profiles and ranges on different transitions: a
 * request names one kind, so that a refusal never leaves half of it done.
 * The profile checks are create's (mrc_ctl_qp_prepare()), with the same
 * errors, against the sender; the extack names the attribute at fault.
 *
 * Return: 0 and a reply (the QP's ids now and before, its ranges now),
 * -EPERM for a QP that is not the sender's, -ENOENT for no such QP (to
 * CAP_NET_ADMIN), -EBUSY in a state that may not change what is named,
 * or what the binding is refused with.
 */
int mrc_genl_qp_bind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct mrc_qp_profile_cmd ids = {}, prev = {};
	struct mrc_qp_mpr mpr = {};
	struct sk_buff *msg;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	bool named_ids, named_mpr;
	int err = 0;

	if (GENL_REQ_ATTR_CHECK(info, MRC_ATTR_QPN))
		return -EINVAL;
	named_ids = mrc_genl_qp_bind_ids(attrs, &ids);
	named_mpr = mrc_genl_qp_bind_mpr(attrs, &mpr);
	if (named_ids && named_mpr) {
		NL_SET_ERR_MSG(info->extack,
			       "profile ids and PSN ranges are set on different transitions: name one kind");
		return -EINVAL;
	}
	if (!named_ids && !named_mpr) {
		NL_SET_ERR_MSG(info->extack,
			       "an EV profile id, a CC profile id or PSN ranges (MPR) are required");
		return -EINVAL;
	}
	mdev = mrc_genl_dev_get(attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	qp = mrc_genl_qp_bindable(skb, info, mdev, &err);
	if (!qp)
		goto put_dev;
	/* Before the change, so that a change made is always answered. */
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto put_qp;
	}
	err = mrc_genl_qp_bind_apply(info, mdev, qp, &ids, &mpr, &prev);
	if (err) {
		nlmsg_free(msg);
		goto put_qp;
	}
	mrc_genl_gen_bump();
	err = mrc_genl_qp_bind_fill(msg, info, mdev, qp, &prev);
	if (err)
		nlmsg_free(msg);
	else
		err = genlmsg_reply(msg, info);
put_qp:
	mrc_qp_put(qp);
put_dev:
	ib_device_put(&mdev->ib_dev);
	return err;
}
