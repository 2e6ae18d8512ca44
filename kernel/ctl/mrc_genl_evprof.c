// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The netlink side of EV profiles: their policies, a request's
 * configuration and EV list parsed into what mrc_evprof.c takes, its
 * refusals turned into extack naming the attribute at fault, and a
 * profile and its EVs put into replies. The model itself knows no netlink.
 */
#include <linux/slab.h>

#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "core/mrc_ev.h"
#include "core/mrc_srv6.h"
#include "net/mrc_net.h"

static const struct nla_policy mrc_evfield_policy[MRC_EVFIELD_MAX_ATTR + 1] = {
	[MRC_EVFIELD_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 32),
	[MRC_EVFIELD_INIT] = { .type = NLA_U32 },
	[MRC_EVFIELD_MIN] = { .type = NLA_U32 },
	[MRC_EVFIELD_MAX] = { .type = NLA_U32 },
	[MRC_EVFIELD_MASK] = { .type = NLA_U32 },
};

static const struct nla_policy mrc_evfields_policy[MRC_EVPROF_MAX + 1] = {
	[MRC_EVPROF_FIELD] = NLA_POLICY_NESTED(mrc_evfield_policy),
};

const struct nla_policy mrc_evprof_policy[MRC_EVPROF_MAX + 1] = {
	[MRC_EVPROF_MODE] = NLA_POLICY_RANGE(NLA_U8, MRC_EV_MODE_EXPLICIT,
					     MRC_EV_MODE_GENERATED),
	[MRC_EVPROF_FMT_ID] = { .type = NLA_U64 },
	[MRC_EVPROF_COUNT] = NLA_POLICY_MAX(NLA_U32, MRC_EV_COUNT_MAX),
	[MRC_EVPROF_MIN_ACTIVE] = NLA_POLICY_MAX(NLA_U32, MRC_EV_COUNT_MAX),
	[MRC_EVPROF_EVENT_MASK] =
		NLA_POLICY_MASK(NLA_U32, BIT(MRC_GENL_EV_GOOD) |
					 BIT(MRC_GENL_EV_ASSUMED_BAD)),
	[MRC_EVPROF_FIELDS] = NLA_POLICY_NESTED(mrc_evfields_policy),
};

const struct nla_policy mrc_ev_entry_policy[MRC_EV_MAX + 1] = {
	[MRC_EV_INDEX] = NLA_POLICY_MAX(NLA_U32, MRC_EV_COUNT_MAX - 1),
	/* 4 bytes, or 16 or 32 for SRV6 (mrc_genl_evprof_value()) */
	[MRC_EV_VALUE] = { .type = NLA_BINARY, .len = 32 },
	[MRC_EV_PORT] = NLA_POLICY_RANGE(NLA_U8, 1, 1),
	[MRC_EV_NEW_VALUE] = NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[MRC_EV_NEW_PORT] = NLA_POLICY_RANGE(NLA_U8, 1, 1),
	[MRC_EV_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_GENL_EV_DENIED),
	[MRC_EV_FLAGS] = NLA_POLICY_MASK(NLA_U32, MRC_EV_F_ALL_COPIES),
};

static u32 mrc_nla_u32_or(const struct nlattr *attr, u32 dflt)
{
	return attr ? nla_get_u32(attr) : dflt;
}

static int mrc_genl_evprof_field(struct mrc_evgen_field *f,
				 const struct nlattr *nest,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_EVFIELD_MAX_ATTR + 1];
	int err;

	err = nla_parse_nested(tb, MRC_EVFIELD_MAX_ATTR, nest,
			       mrc_evfield_policy, extack);
	if (err)
		return err;
	if (!tb[MRC_EVFIELD_WIDTH]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "an EV field needs a width");
		return -EINVAL;
	}
	*f = (struct mrc_evgen_field) {
		.width = nla_get_u32(tb[MRC_EVFIELD_WIDTH]),
		.init_val = mrc_nla_u32_or(tb[MRC_EVFIELD_INIT], 0),
		.min_val = mrc_nla_u32_or(tb[MRC_EVFIELD_MIN], 0),
		.max_val = mrc_nla_u32_or(tb[MRC_EVFIELD_MAX], 0),
		.mask = mrc_nla_u32_or(tb[MRC_EVFIELD_MASK], 0),
	};
	return 0;
}

static int mrc_genl_evprof_fields(struct mrc_evprof *evp,
				  const struct nlattr *fields,
				  struct netlink_ext_ack *extack)
{
	struct mrc_evgen_field f[MRC_EVFMT_FIELDS_MAX];
	const struct nlattr *attr;
	int err, rem, n = 0;

	nla_for_each_nested(attr, fields, rem) {
		if (n == MRC_EVFMT_FIELDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "more than 16 EV fields");
			return -E2BIG;
		}
		err = mrc_genl_evprof_field(&f[n++], attr, extack);
		if (err)
			return err;
	}
	mrc_evprof_set_fields(evp, f, n);
	return 0;
}

/*
 * One EXPLICIT EV's value: 4 bytes (STEV, UDP: the compact EV) or one or
 * two IPv6 addresses (SRV6: its route, kept in @rs); the format decides
 * later which is right (mrc_evprof_derive()).
 */
static int mrc_genl_evprof_value(struct mrc_evprof_ev *ev,
				 struct mrc_srv6_routes **rs, u32 i, u32 n,
				 const struct nlattr *value,
				 struct netlink_ext_ack *extack)
{
	enum mrc_srv6_bad why;
	int len = nla_len(value);

	if (len == sizeof(__be32)) {
		ev->compact = be32_to_cpu(nla_get_be32(value));
		return 0;
	}
	if (len != 16 && len != 32) {
		NL_SET_ERR_MSG_ATTR(extack, value,
				    "an EV value is 4 bytes (STEV, UDP) or 16 or 32 (SRV6: one or two IPv6 addresses)");
		return -EINVAL;
	}
	if (!*rs) {
		*rs = mrc_srv6_routes_alloc(n);
		if (!*rs)
			return -ENOMEM;
	}
	if (!mrc_srv6_route_parse(&(*rs)->r[i], nla_data(value), len, &why))
		return 0;
	mrc_genl_set_why(extack, value, mrc_evprof_bad_segment(why));
	return -EINVAL;
}

/* EXPLICIT EVs from MRC_ATTR_EVS: each entry a value and a port. */
static int mrc_genl_evprof_evs(struct mrc_evprof *evp,
			       const struct nlattr *evs,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_EV_MAX + 1];
	struct mrc_srv6_routes *rs = NULL;
	struct mrc_evprof_ev *ev;
	const struct nlattr *attr;
	int err, rem, n = 0, total;

	total = mrc_ev_list_count(evs, extack);
	if (total < 0)
		return total;
	ev = kvcalloc(max(total, 1), sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	nla_for_each_nested(attr, evs, rem) {
		err = nla_parse_nested(tb, MRC_EV_MAX, attr,
				       mrc_ev_entry_policy, extack);
		if (err)
			goto err_free;
		err = -EINVAL;
		if (!tb[MRC_EV_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "an EV needs a value");
			goto err_free;
		}
		err = mrc_genl_evprof_value(&ev[n], &rs, n, total,
					    tb[MRC_EV_VALUE], extack);
		if (err)
			goto err_free;
		ev[n++].port = 1;	/* the only port; the policy allows no other */
	}
	mrc_evprof_set_explicit(evp, ev, n, rs);
	return 0;

err_free:
	mrc_srv6_routes_put(rs);
	kvfree(ev);
	return err;
}

/*
 * The attribute a refusal of the model is about: the EV's MRC_ATTR_EVS
 * entry, the field's nest in the configuration, else the configuration.
 */
static const struct nlattr *mrc_genl_evprof_why_attr(struct nlattr **attrs,
						     const struct mrc_evprof_why *why)
{
	const struct nlattr *nest = attrs[MRC_ATTR_EVPROF];

	if (why->ev >= 0)
		return mrc_genl_nth_attr(attrs[MRC_ATTR_EVS], why->ev, nest);
	if (why->field >= 0)
		return mrc_genl_nth_attr(nest ? nla_find_nested(nest, MRC_EVPROF_FIELDS) :
					 NULL, why->field, nest);
	return nest;
}

/**
 * mrc_genl_evprof_parse() - apply a request's EV profile configuration
 * @ctl: the device's control state, locked
 * @prof: a private copy of the profile
 * @attrs: the request's top-level attributes: MRC_ATTR_EVPROF and
 *	MRC_ATTR_EVS
 * @extack: names the attribute at fault
 *
 * Parses into a struct mrc_evprof_spec for mrc_evprof_configure(), then
 * the fields and EVs, then has mrc_evprof_derive() check the whole and
 * expand the EVs, in the order the checks always ran.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_evprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			  struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);
	struct nlattr *tb[MRC_EVPROF_MAX + 1] = {};
	struct nlattr *nest = attrs[MRC_ATTR_EVPROF];
	struct mrc_evprof_spec spec = { .config = !!nest };
	struct mrc_evprof_why why = { .ev = -1, .field = -1 };
	int err;

	if (nest) {
		err = nla_parse_nested(tb, MRC_EVPROF_MAX, nest,
				       mrc_evprof_policy, extack);
		if (err)
			return err;
	}
	if (tb[MRC_EVPROF_MODE]) {
		spec.set |= MRC_EVPROF_SET_MODE;
		spec.mode = nla_get_u8(tb[MRC_EVPROF_MODE]);
	}
	if (tb[MRC_EVPROF_FMT_ID]) {
		spec.set |= MRC_EVPROF_SET_FMT;
		spec.fmt_id = nla_get_u64(tb[MRC_EVPROF_FMT_ID]);
	}
	if (tb[MRC_EVPROF_COUNT]) {
		spec.set |= MRC_EVPROF_SET_COUNT;
		spec.count = nla_get_u32(tb[MRC_EVPROF_COUNT]);
	}
	if (tb[MRC_EVPROF_MIN_ACTIVE]) {
		spec.set |= MRC_EVPROF_SET_MIN_ACTIVE;
		spec.min_active = nla_get_u32(tb[MRC_EVPROF_MIN_ACTIVE]);
	}
	if (tb[MRC_EVPROF_EVENT_MASK]) {
		spec.set |= MRC_EVPROF_SET_EVENT_MASK;
		spec.event_mask = nla_get_u32(tb[MRC_EVPROF_EVENT_MASK]);
	}
	if (tb[MRC_EVPROF_FIELDS])
		spec.set |= MRC_EVPROF_SET_FIELDS;
	if (attrs[MRC_ATTR_EVS])
		spec.set |= MRC_EVPROF_SET_EVS;

	err = mrc_evprof_configure(evp, &spec, &why.msg);
	if (err) {
		mrc_genl_set_why(extack, nest ? nest : attrs[MRC_ATTR_EVS],
				 why.msg);
		return err;
	}
	if (tb[MRC_EVPROF_FIELDS]) {
		err = mrc_genl_evprof_fields(evp, tb[MRC_EVPROF_FIELDS], extack);
		if (err)
			return err;
	}
	if (attrs[MRC_ATTR_EVS]) {
		err = mrc_genl_evprof_evs(evp, attrs[MRC_ATTR_EVS], extack);
		if (err)
			return err;
	}
	/* Only a change of configuration recomputes (and un-denies) EVs. */
	if (!nest && !attrs[MRC_ATTR_EVS])
		return 0;
	err = mrc_evprof_derive(ctl, evp, &why);
	if (err)
		mrc_genl_set_why(extack, mrc_genl_evprof_why_attr(attrs, &why),
				 why.msg);
	return err;
}

static int mrc_genl_evprof_fill_fields(struct sk_buff *skb,
				       const struct mrc_evprof *evp)
{
	struct nlattr *fields, *field;
	unsigned int i;

	fields = nla_nest_start(skb, MRC_EVPROF_FIELDS);
	if (!fields)
		return -EMSGSIZE;
	for (i = 0; i < evp->nfields; i++) {
		const struct mrc_evgen_field *f = &evp->field[i];

		field = nla_nest_start(skb, MRC_EVPROF_FIELD);
		if (!field ||
		    nla_put_u32(skb, MRC_EVFIELD_WIDTH, f->width) ||
		    nla_put_u32(skb, MRC_EVFIELD_INIT, f->init_val) ||
		    nla_put_u32(skb, MRC_EVFIELD_MIN, f->min_val) ||
		    nla_put_u32(skb, MRC_EVFIELD_MAX, f->max_val) ||
		    nla_put_u32(skb, MRC_EVFIELD_MASK, f->mask))
			return -EMSGSIZE;
		nla_nest_end(skb, field);
	}
	nla_nest_end(skb, fields);
	return 0;
}

/**
 * mrc_genl_evprof_fill() - put an EV profile's MRC_ATTR_EVPROF nest
 * @skb: the reply
 * @ctl: the device's control state, locked
 * @prof: the profile
 *
 * Return: 0 or -EMSGSIZE. A profile in INIT has no nest.
 */
int mrc_genl_evprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			 const struct mrc_prof *prof)
{
	const struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);
	int nbad = mrc_ctl_evprof_nbad(ctl, evp);
	struct nlattr *nest;

	if (prof->state == MRC_PROF_INIT)
		return 0;
	nest = nla_nest_start(skb, MRC_ATTR_EVPROF);
	/* No padding attribute in this space: x86-64 needs none. */
	if (!nest || nla_put_u8(skb, MRC_EVPROF_MODE, evp->mode) ||
	    nla_put_u64_64bit(skb, MRC_EVPROF_FMT_ID, evp->fmt_id,
			      MRC_EVPROF_UNSPEC) ||
	    nla_put_u32(skb, MRC_EVPROF_COUNT, evp->nev) ||
	    nla_put_u32(skb, MRC_EVPROF_MIN_ACTIVE, evp->min_active) ||
	    nla_put_u32(skb, MRC_EVPROF_EVENT_MASK, evp->event_mask) ||
	    nla_put_u32(skb, MRC_EVPROF_NDENIED,
			evp->nev - mrc_evprof_nallowed(evp)) ||
	    (nbad >= 0 && nla_put_u32(skb, MRC_EVPROF_NBAD, nbad)))
		return -EMSGSIZE;
	if (evp->nfields && mrc_genl_evprof_fill_fields(skb, evp))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * mrc_genl_evprof_put_route() - put an SRv6 route into a reply as MRC_EV_VALUE
 * @skb: the reply
 * @r: the route
 *
 * Return: 0 or -EMSGSIZE. The value is the addresses, as requests give it.
 */
int mrc_genl_evprof_put_route(struct sk_buff *skb, const struct mrc_srv6_route *r)
{
	return nla_put(skb, MRC_EV_VALUE, r->nsegs * sizeof(r->seg[0]), r->seg);
}

/**
 * mrc_genl_evprof_put_uplink() - put the interface an SRv6 EV leaves by
 * @skb: the reply
 * @ndev: the device's netdev
 * @r: the EV's route, or NULL (then nothing is put)
 *
 * Return: 0 or -EMSGSIZE. Nothing either when no route leaves now.
 */
int mrc_genl_evprof_put_uplink(struct sk_buff *skb, struct net_device *ndev,
			       const struct mrc_srv6_route *r)
{
	int ifindex = r ? mrc_net_srv6_uplink(ndev, r) : 0;

	return ifindex ? nla_put_u32(skb, MRC_EV_WIRE_IFINDEX, ifindex) : 0;
}

/**
 * mrc_genl_evprof_put_value() - put EV @i's value into a reply
 * @skb: the reply
 * @evp: the profile
 * @i: below @evp->nev
 *
 * Return: 0 or -EMSGSIZE. An SRv6 EV's value is its route's addresses.
 */
int mrc_genl_evprof_put_value(struct sk_buff *skb,
			      const struct mrc_evprof *evp, u32 i)
{
	const struct mrc_srv6_route *r = mrc_evprof_route(evp, i);

	if (r)
		return mrc_genl_evprof_put_route(skb, r);
	return nla_put_be32(skb, MRC_EV_VALUE, cpu_to_be32(evp->ev[i].compact));
}

/**
 * mrc_genl_evprof_value_is() - whether EV @i has the value a request names
 * @evp: the profile
 * @i: below @evp->nev
 * @value: an MRC_EV_VALUE attribute (4, 16 or 32 bytes)
 *
 * Return: true when it names EV @i.
 */
bool mrc_genl_evprof_value_is(const struct mrc_evprof *evp, u32 i,
			      const struct nlattr *value)
{
	const struct mrc_srv6_route *r = mrc_evprof_route(evp, i);

	if (r)
		return nla_len(value) == r->nsegs * sizeof(r->seg[0]) &&
		       !memcmp(nla_data(value), r->seg, nla_len(value));
	return nla_len(value) == sizeof(__be32) &&
	       be32_to_cpu(nla_get_be32(value)) == evp->ev[i].compact;
}
