// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The netlink side of EV formats: their policy, a request's MRC_ATTR_EVFMT
 * applied through mrc_evfmt.c's functions with extack on the attribute at
 * fault, and a format put into replies.
 */
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"

static const struct nla_policy mrc_evfmt_fields_policy[MRC_EVFMT_MAX + 1] = {
	[MRC_EVFMT_FIELD_WIDTH] = NLA_POLICY_RANGE(NLA_U8, 1, 128),
};

const struct nla_policy mrc_evfmt_policy[MRC_EVFMT_MAX + 1] = {
	[MRC_EVFMT_MODE] = NLA_POLICY_MAX(NLA_U8, MRC_FMT_UDP),
	[MRC_EVFMT_FIELDS] = NLA_POLICY_NESTED(mrc_evfmt_fields_policy),
};

static int mrc_genl_evfmt_fields(struct mrc_evfmt *fmt,
				 const struct nlattr *fields,
				 struct netlink_ext_ack *extack)
{
	u8 width[MRC_EVFMT_FIELDS_MAX];
	const struct nlattr *attr;
	const char *why = NULL;
	int err, rem, bad, n = 0;

	err = mrc_evfmt_may_set_fields(fmt, &why);
	if (err) {
		mrc_genl_set_why(extack, fields, why);
		return err;
	}
	nla_for_each_nested(attr, fields, rem) {
		if (nla_type(attr) != MRC_EVFMT_FIELD_WIDTH) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "fields hold only field widths");
			return -EINVAL;
		}
		if (n == MRC_EVFMT_FIELDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "more than 16 format fields");
			return -E2BIG;
		}
		width[n++] = nla_get_u8(attr);
	}
	err = mrc_evfmt_set_widths(fmt, width, n, &bad, &why);
	if (err)
		mrc_genl_set_why(extack, mrc_genl_nth_attr(fields, bad, fields), why);
	return err;
}

/**
 * mrc_genl_evfmt_parse() - apply a request's MRC_ATTR_EVFMT
 * @ctl: the device's control state, locked
 * @prof: a private copy of the format
 * @attrs: the request's top-level attributes
 * @extack: names the attribute at fault
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_evfmt_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			 struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);
	struct nlattr *tb[MRC_EVFMT_MAX + 1];
	struct nlattr *nest = attrs[MRC_ATTR_EVFMT];
	const char *why = NULL;
	int err, bad;

	if (!nest)
		return 0;
	err = nla_parse_nested(tb, MRC_EVFMT_MAX, nest, mrc_evfmt_policy,
			       extack);
	if (err)
		return err;
	if (tb[MRC_EVFMT_MODE] || tb[MRC_EVFMT_FIELDS]) {
		err = mrc_evfmt_may_change(fmt, &why);
		if (err) {
			mrc_genl_set_why(extack, nest, why);
			return err;
		}
	}
	if (tb[MRC_EVFMT_MODE])
		mrc_evfmt_set_mode(fmt, nla_get_u8(tb[MRC_EVFMT_MODE]));
	if (tb[MRC_EVFMT_FIELDS])
		return mrc_genl_evfmt_fields(fmt, tb[MRC_EVFMT_FIELDS], extack);
	/* A new mode must still hold the fields already set. */
	if (tb[MRC_EVFMT_MODE] && fmt->f.nfields) {
		err = mrc_evfmt_check(&fmt->f, &bad, &why);
		if (err)
			mrc_genl_set_why(extack, NULL, why);
	}
	return err;
}

/**
 * mrc_genl_evfmt_fill() - put an EV format's MRC_ATTR_EVFMT nest
 * @skb: the reply
 * @ctl: the device's control state, locked
 * @prof: the format
 *
 * Return: 0 or -EMSGSIZE. A format in INIT has no nest.
 */
int mrc_genl_evfmt_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			const struct mrc_prof *prof)
{
	const struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);
	struct nlattr *nest, *fields;
	int i;

	if (prof->state == MRC_PROF_INIT)
		return 0;
	nest = nla_nest_start(skb, MRC_ATTR_EVFMT);
	if (!nest || nla_put_u8(skb, MRC_EVFMT_MODE, fmt->f.mode))
		return -EMSGSIZE;
	if (fmt->f.nfields) {
		fields = nla_nest_start(skb, MRC_EVFMT_FIELDS);
		if (!fields)
			return -EMSGSIZE;
		for (i = 0; i < fmt->f.nfields; i++)
			if (nla_put_u8(skb, MRC_EVFMT_FIELD_WIDTH,
				       fmt->f.width[i]))
				return -EMSGSIZE;
		nla_nest_end(skb, fields);
	}
	nla_nest_end(skb, nest);
	return 0;
}
