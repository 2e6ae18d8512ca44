// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV format profiles: how an EV's bits are laid out in a packet. STEV
 * (IPv6 flow label and UDP source port, up to 32 bits), UDP (source port,
 * up to 16 bits) and SRV6 (an SRv6 address and optionally one SRH
 * segment, up to 256 bits; accepted now, sent once net/ speaks SRv6).
 * A format is only a mode and the widths of its fields.
 */
#include "ctl/mrc_prof.h"

/* core/ cannot include the uapi header; its modes carry the same values. */
static_assert((int)MRC_EVFMT_STEV == (int)MRC_FMT_STEV);
static_assert((int)MRC_EVFMT_SRV6 == (int)MRC_FMT_SRV6);
static_assert((int)MRC_EVFMT_UDP == (int)MRC_FMT_UDP);
static_assert(MRC_EVFMT_FIELDS_MAX == MRC_CTL_FMT_FIELDS_MAX);

static const struct nla_policy mrc_evfmt_fields_policy[MRC_EVFMT_MAX + 1] = {
	[MRC_EVFMT_FIELD_WIDTH] = NLA_POLICY_RANGE(NLA_U8, 1, 128),
};

const struct nla_policy mrc_evfmt_policy[MRC_EVFMT_MAX + 1] = {
	[MRC_EVFMT_MODE] = NLA_POLICY_MAX(NLA_U8, MRC_FMT_UDP),
	[MRC_EVFMT_FIELDS] = NLA_POLICY_NESTED(mrc_evfmt_fields_policy),
};

/* Check the format in @f, pointing extack at @fields' bad member. */
static int mrc_evfmt_check(const struct mrc_evgen_fmt *f,
			   const struct nlattr *fields,
			   struct netlink_ext_ack *extack)
{
	const struct nlattr *attr, *bad = fields;
	int err, bad_field, rem, i = 0;

	err = mrc_evgen_check_fmt(f, &bad_field);
	if (!err)
		return 0;
	if (fields)
		nla_for_each_nested(attr, fields, rem)
			if (i++ == bad_field)
				bad = attr;
	if (!f->nfields)
		NL_SET_ERR_MSG_ATTR(extack, bad, "a format needs a field");
	else if (err == -E2BIG && bad_field == MRC_EVFMT_FIELDS_MAX)
		NL_SET_ERR_MSG_ATTR(extack, bad, "more than 16 format fields");
	else
		NL_SET_ERR_MSG_ATTR(extack, bad,
				    "fields are wider than the mode allows (stev 32, udp 16, srv6 256 bits)");
	return err;
}

static int mrc_evfmt_parse_fields(struct mrc_evfmt *fmt,
				  const struct nlattr *fields,
				  struct netlink_ext_ack *extack)
{
	struct mrc_evgen_fmt f = { .mode = fmt->f.mode };
	const struct nlattr *attr;
	int err, rem;

	nla_for_each_nested(attr, fields, rem) {
		if (nla_type(attr) != MRC_EVFMT_FIELD_WIDTH) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "fields hold only field widths");
			return -EINVAL;
		}
		if (f.nfields == MRC_EVFMT_FIELDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "more than 16 format fields");
			return -E2BIG;
		}
		f.width[f.nfields++] = nla_get_u8(attr);
	}
	err = mrc_evfmt_check(&f, fields, extack);
	if (!err)
		fmt->f = f;
	return err;
}

/**
 * mrc_evfmt_parse() - apply a request's MRC_ATTR_EVFMT to an EV format
 * @ctl: the device's control state, locked
 * @prof: a private copy of the format
 * @attrs: the request's top-level attributes
 * @extack: names the attribute at fault
 *
 * Return: 0 or a negative errno.
 */
int mrc_evfmt_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		    struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);
	struct nlattr *tb[MRC_EVFMT_MAX + 1];
	struct nlattr *nest = attrs[MRC_ATTR_EVFMT];
	int err;

	if (!nest)
		return 0;
	err = nla_parse_nested(tb, MRC_EVFMT_MAX, nest, mrc_evfmt_policy,
			       extack);
	if (err)
		return err;
	if (prof->state == MRC_PROF_ONLINE &&
	    (tb[MRC_EVFMT_MODE] || tb[MRC_EVFMT_FIELDS])) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "EV format is ONLINE: take it offline to change it");
		return -EBUSY;
	}
	if (tb[MRC_EVFMT_MODE]) {
		fmt->f.mode = nla_get_u8(tb[MRC_EVFMT_MODE]);
		if (prof->state == MRC_PROF_INIT)
			prof->state = MRC_PROF_OFFLINE;
	}
	if (tb[MRC_EVFMT_FIELDS]) {
		if (prof->state == MRC_PROF_INIT) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EVFMT_FIELDS],
					    "fields need a mode: set mode first");
			return -EINVAL;
		}
		err = mrc_evfmt_parse_fields(fmt, tb[MRC_EVFMT_FIELDS], extack);
	} else if (tb[MRC_EVFMT_MODE] && fmt->f.nfields) {
		/* A new mode must still hold the fields already set. */
		err = mrc_evfmt_check(&fmt->f, NULL, extack);
	}
	return err;
}

static int mrc_evfmt_can_online(const struct mrc_prof *prof, const char **why)
{
	const struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);

	if (!fmt->f.nfields) {
		*why = "EV format has no fields: set them before online";
		return -EINVAL;
	}
	return 0;
}

static void mrc_evfmt_reset(struct mrc_prof *prof)
{
	struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);

	memset(&fmt->f, 0, sizeof(fmt->f));
}

/**
 * mrc_evfmt_fill() - put an EV format's MRC_ATTR_EVFMT nest into a reply
 * @skb: the reply
 * @ctl: the device's control state, locked
 * @prof: the format
 *
 * Return: 0 or -EMSGSIZE. A format in INIT has no nest.
 */
int mrc_evfmt_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
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

static int mrc_evfmt_busy(struct mrc_ctl_dev *ctl, const struct mrc_prof *prof,
			  const char **why)
{
	if (prof->nusers) {
		*why = "EV format is used by EV profiles";
		return -EBUSY;
	}
	return 0;
}

static struct xarray *mrc_evfmt_xa(struct mrc_ctl_dev *ctl)
{
	return &ctl->fmt_xa;
}

const struct mrc_prof_kind mrc_evfmt_kind = {
	.name = "EV format",
	.max = MRC_FMT_PROFILES_MAX,
	.size = sizeof(struct mrc_evfmt),
	.xa = mrc_evfmt_xa,
	.can_online = mrc_evfmt_can_online,
	.reset = mrc_evfmt_reset,
	.busy = mrc_evfmt_busy,
};

/**
 * mrc_evfmt_builtin() - make format 0: UDP, one 16-bit field, ONLINE
 * @fmt: a zeroed profile
 *
 * The format of the built-in AUTO EV profile: EVs are UDP source ports.
 */
void mrc_evfmt_builtin(struct mrc_evfmt *fmt)
{
	fmt->p.id = 0;
	fmt->f.mode = MRC_FMT_UDP;
	fmt->f.nfields = 1;
	fmt->f.width[0] = 16;
	fmt->p.state = MRC_PROF_ONLINE;
}
