// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV profiles: the EVs (paths) QPs spray over. EXPLICIT profiles list
 * their EVs; GENERATED ones describe fields whose combinations are the
 * EVs (core/mrc_evgen.c does the arithmetic). Either way each EV is
 * expanded through the profile's fields and its format into the UDP
 * source port and flow label it is sent with, once, when the profile is
 * configured: binding a QP then only copies. The built-in profile 0 is
 * AUTO: each QP picks its own block of source ports, as before profiles.
 */
#include <linux/slab.h>
#include <net/addrconf.h>

#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "core/mrc_ev.h"
#include "core/mrc_srv6.h"
#include "engine/mrc_dev.h"
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
	/* 4 bytes, or 16 or 32 for SRV6 (mrc_evprof_parse_value()) */
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

static int mrc_evprof_parse_field(struct mrc_evgen_field *f,
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

static int mrc_evprof_parse_fields(struct mrc_evprof *evp,
				   const struct nlattr *fields,
				   struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	int err, rem, n = 0;

	nla_for_each_nested(attr, fields, rem) {
		if (n == MRC_EVFMT_FIELDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "more than 16 EV fields");
			return -E2BIG;
		}
		err = mrc_evprof_parse_field(&evp->field[n++], attr, extack);
		if (err)
			return err;
	}
	evp->nfields = n;
	return 0;
}

/**
 * mrc_evprof_bad_segment() - say why an SRv6 EV's address was refused
 * @extack: the request's (it keeps the literal)
 * @attr: the value
 * @why: from mrc_srv6_route_parse(), not MRC_SRV6_OK
 */
void mrc_evprof_bad_segment(struct netlink_ext_ack *extack,
			    const struct nlattr *attr, enum mrc_srv6_bad why)
{
	if (why == MRC_SRV6_UNSPECIFIED)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "SRv6 EV value: a segment is the unspecified address");
	else if (why == MRC_SRV6_LOOPBACK)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "SRv6 EV value: a segment is the loopback address");
	else if (why == MRC_SRV6_MULTICAST)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "SRv6 EV value: a segment is a multicast address");
	else if (why == MRC_SRV6_V4MAPPED)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "SRv6 EV value: a segment is an IPv4-mapped address");
	else
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "SRv6 EV value: a segment is a link-local address");
}

/*
 * One EXPLICIT EV's value: 4 bytes (STEV, UDP: the compact EV) or one or
 * two IPv6 addresses (SRV6: its route, kept in @rs); the format decides
 * later which is right (mrc_evprof_check_srv6()).
 */
static int mrc_evprof_parse_value(struct mrc_evprof_ev *ev,
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
	mrc_evprof_bad_segment(extack, value, why);
	return -EINVAL;
}

/* EXPLICIT EVs from MRC_ATTR_EVS: each entry a value and a port. */
static int mrc_evprof_parse_evs(struct mrc_evprof *evp,
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
		err = mrc_evprof_parse_value(&ev[n], &rs, n, total,
					     tb[MRC_EV_VALUE], extack);
		if (err)
			goto err_free;
		ev[n++].port = 1;	/* the only port; the policy allows no other */
	}
	mrc_evprof_set_evs(evp, ev, n);
	evp->srv6 = rs;
	return 0;

err_free:
	mrc_srv6_routes_put(rs);
	kvfree(ev);
	return err;
}

static int mrc_evprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			    struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);
	struct nlattr *tb[MRC_EVPROF_MAX + 1] = {};
	struct nlattr *nest = attrs[MRC_ATTR_EVPROF];
	int err;

	if (nest) {
		err = nla_parse_nested(tb, MRC_EVPROF_MAX, nest,
				       mrc_evprof_policy, extack);
		if (err)
			return err;
	}
	if (prof->id == 0 && prof->state != MRC_PROF_INIT &&
	    evp->mode == MRC_EV_MODE_AUTO && (nest || attrs[MRC_ATTR_EVS])) {
		NL_SET_ERR_MSG_ATTR(extack, nest ? nest : attrs[MRC_ATTR_EVS],
				    "the built-in AUTO profile 0 has no configuration");
		return -EINVAL;
	}
	if (prof->state == MRC_PROF_ONLINE &&
	    (tb[MRC_EVPROF_MODE] || tb[MRC_EVPROF_FMT_ID] ||
	     tb[MRC_EVPROF_COUNT] || tb[MRC_EVPROF_FIELDS] ||
	     tb[MRC_EVPROF_MIN_ACTIVE] || tb[MRC_EVPROF_EVENT_MASK] ||
	     attrs[MRC_ATTR_EVS])) {
		NL_SET_ERR_MSG_ATTR(extack, nest ? nest : attrs[MRC_ATTR_EVS],
				    "EV profile is ONLINE: take it offline to change it");
		return -EBUSY;
	}
	if (tb[MRC_EVPROF_MODE]) {
		evp->mode = nla_get_u8(tb[MRC_EVPROF_MODE]);
		if (prof->state == MRC_PROF_INIT)
			prof->state = MRC_PROF_OFFLINE;
	}
	if (prof->state == MRC_PROF_INIT && (nest || attrs[MRC_ATTR_EVS])) {
		NL_SET_ERR_MSG_ATTR(extack, nest ? nest : attrs[MRC_ATTR_EVS],
				    "an EV profile needs a mode first");
		return -EINVAL;
	}
	if (tb[MRC_EVPROF_FMT_ID])
		evp->fmt_id = nla_get_u64(tb[MRC_EVPROF_FMT_ID]);
	if (tb[MRC_EVPROF_COUNT])
		evp->count = nla_get_u32(tb[MRC_EVPROF_COUNT]);
	if (tb[MRC_EVPROF_MIN_ACTIVE])
		evp->min_active = nla_get_u32(tb[MRC_EVPROF_MIN_ACTIVE]);
	if (tb[MRC_EVPROF_EVENT_MASK])
		evp->event_mask = nla_get_u32(tb[MRC_EVPROF_EVENT_MASK]);
	if (tb[MRC_EVPROF_FIELDS]) {
		err = mrc_evprof_parse_fields(evp, tb[MRC_EVPROF_FIELDS],
					      extack);
		if (err)
			return err;
	}
	if (attrs[MRC_ATTR_EVS])
		return mrc_evprof_parse_evs(evp, attrs[MRC_ATTR_EVS], extack);
	return 0;
}

/* The nest of field @i in the request, for extack; else @fallback. */
static const struct nlattr *mrc_evprof_nth_attr(const struct nlattr *list,
						int i,
						const struct nlattr *fallback)
{
	const struct nlattr *attr;
	int rem;

	if (list)
		nla_for_each_nested(attr, list, rem)
			if (i-- == 0)
				return attr;
	return fallback;
}

/* The request's attribute naming EV @i: its MRC_ATTR_EVS entry if any. */
static const struct nlattr *mrc_evprof_ev_attr(struct nlattr **attrs, u32 i)
{
	return mrc_evprof_nth_attr(attrs[MRC_ATTR_EVS], i,
				   attrs[MRC_ATTR_EVPROF]);
}

/* An EXPLICIT profile without fields takes each EV as the wire value. */
static unsigned int mrc_evprof_fields(const struct mrc_evprof *evp,
				      const struct mrc_evfmt *fmt,
				      struct mrc_evgen_field *f)
{
	unsigned int i;

	if (evp->nfields) {
		memcpy(f, evp->field, sizeof(evp->field));
		return evp->nfields;
	}
	for (i = 0; i < fmt->f.nfields; i++) {
		u32 w = min_t(u32, fmt->f.width[i], 32);

		f[i] = (struct mrc_evgen_field) {
			.width = w, .mask = (u32)GENMASK_ULL(w - 1, 0),
			.max_val = (u32)GENMASK_ULL(w - 1, 0),
		};
	}
	return fmt->f.nfields;
}

/* Generate a GENERATED profile's compact EVs. */
static int mrc_evprof_generate(struct mrc_evprof *evp,
			       const struct mrc_evgen_field *f, unsigned int n,
			       const struct nlattr *nest,
			       struct netlink_ext_ack *extack)
{
	struct mrc_evprof_ev *ev;
	u32 count, i;
	int err;

	err = mrc_evgen_count(f, n, evp->count, &count);
	if (err) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "count is above what the fields generate or the maximum (4096)");
		return err;
	}
	ev = kvcalloc(count, sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		err = mrc_evgen_nth(f, n, i, &ev[i].compact);
		if (err) {
			kvfree(ev);
			NL_SET_ERR_MSG_ATTR(extack, nest, "cannot generate the EVs");
			return err;
		}
		ev[i].port = 1;
	}
	mrc_evprof_set_evs(evp, ev, count);
	return 0;
}

/* Each EV's source port and flow label, from its compact value. */
static int mrc_evprof_expand(struct mrc_evprof *evp,
			     const struct mrc_evfmt *fmt,
			     const struct mrc_evgen_field *f, unsigned int n,
			     struct nlattr **attrs,
			     struct netlink_ext_ack *extack)
{
	u32 i, wire;
	int err;

	for (i = 0; i < evp->nev; i++) {
		struct mrc_evprof_ev *ev = &evp->ev[i];

		err = mrc_evgen_expand(&fmt->f, f, n, ev->compact, &wire);
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_ev_attr(attrs, i),
					    "EV has bits the fields do not use");
			return err;
		}
		err = mrc_evgen_split(fmt->f.mode, wire, &ev->sport,
				      &ev->flow_label);
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_ev_attr(attrs, i),
					    "an EV expands to UDP source port 0: start generated ranges at 1 or set init_val");
			return err;
		}
	}
	return 0;
}

/*
 * A GENERATED SRV6 profile's routes: each compact EV expanded through the
 * fields into its address (a uSID program: block, a uSID per tier, the
 * receiver's) or two. The EVs are generated, so extack names the profile.
 */
static int mrc_evprof_routes(struct mrc_evprof *evp,
			     const struct mrc_evfmt *fmt,
			     const struct mrc_evgen_field *f, unsigned int n,
			     const struct nlattr *nest,
			     struct netlink_ext_ack *extack)
{
	u8 val[MRC_EVGEN_SRV6_BYTES_MAX];
	struct mrc_srv6_routes *rs;
	enum mrc_srv6_bad why;
	unsigned int len;
	u32 i;

	rs = mrc_srv6_routes_alloc(evp->nev);
	if (!rs)
		return -ENOMEM;
	for (i = 0; i < evp->nev; i++) {
		if (mrc_evgen_expand_srv6(&fmt->f, f, n, evp->ev[i].compact,
					  val, &len)) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "EV has bits the fields do not use");
			goto err;
		}
		if (mrc_srv6_route_parse(&rs->r[i], val, len, &why)) {
			mrc_evprof_bad_segment(extack, nest, why);
			goto err;
		}
	}
	mrc_srv6_routes_put(evp->srv6);
	evp->srv6 = rs;
	return 0;

err:
	mrc_srv6_routes_put(rs);
	return -EINVAL;
}

/*
 * An SRV6 format takes routes, the others compact values (each EV
 * named in extack when it has the wrong kind). An SRv6 EV is sent with
 * its own inner source port and outer flow label, so that the peer's
 * replies and any ECMP the operator keeps tell the EVs apart.
 */
static int mrc_evprof_check_srv6(struct mrc_ctl_dev *ctl,
				 struct mrc_evprof *evp, bool srv6,
				 struct nlattr **attrs,
				 struct netlink_ext_ack *extack)
{
	struct net_device *ndev = ctl->mdev->ndev;
	const struct mrc_srv6_route *r;
	u32 i;

	for (i = 0; i < evp->nev; i++) {
		r = mrc_evprof_route(evp, i);
		if (!srv6 && r) {
			NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_ev_attr(attrs, i),
					    "EV value: a STEV or UDP EV is 4 bytes, not IPv6 addresses");
			return -EINVAL;
		}
		if (!srv6)
			continue;
		if (!r) {
			NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_ev_attr(attrs, i),
					    "EV value: an SRV6 EV is one or two IPv6 addresses (16 or 32 bytes)");
			return -EINVAL;
		}
		if (ipv6_chk_addr(dev_net(ndev), &r->seg[0], ndev, 0)) {
			NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_ev_attr(attrs, i),
					    "EV value: the first SRv6 segment is the device's own address");
			return -EINVAL;
		}
		evp->ev[i].sport = MRC_EV_SPORT_BASE | (i & MRC_EV_SPORT_MASK);
		evp->ev[i].flow_label = i + 1;
	}
	return 0;
}

static int mrc_evprof_finish(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			     struct nlattr **attrs,
			     struct netlink_ext_ack *extack)
{
	struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);
	struct nlattr *nest = attrs[MRC_ATTR_EVPROF];
	struct mrc_evgen_field f[MRC_EVFMT_FIELDS_MAX];
	struct mrc_prof *fprof;
	struct mrc_evfmt *fmt;
	int err, bad;
	unsigned int n;

	/* Only a change of configuration recomputes (and un-denies) EVs. */
	if (prof->state == MRC_PROF_INIT || evp->mode == MRC_EV_MODE_AUTO ||
	    (!nest && !attrs[MRC_ATTR_EVS]))
		return 0;
	fprof = mrc_prof_find(&mrc_evfmt_kind, ctl, evp->fmt_id);
	if (!fprof || fprof->state != MRC_PROF_ONLINE) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "the EV format profile (fmt, default 0) must exist and be ONLINE");
		return fprof ? -EINVAL : -ENOENT;
	}
	fmt = container_of(fprof, struct mrc_evfmt, p);
	if (evp->mode == MRC_EV_MODE_GENERATED && !evp->nfields) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a GENERATED profile needs fields");
		return -EINVAL;
	}
	n = mrc_evprof_fields(evp, fmt, f);
	err = mrc_evgen_check_fields(&fmt->f, f, n, &bad);
	if (err) {
		const struct nlattr *list = NULL;

		if (nest)
			list = nla_find_nested(nest, MRC_EVPROF_FIELDS);
		NL_SET_ERR_MSG_ATTR(extack, mrc_evprof_nth_attr(list, bad, nest),
				    "EV field does not fit its format field (width, init_val, mask, min/max)");
		return err;
	}
	if (evp->mode == MRC_EV_MODE_GENERATED) {
		err = mrc_evprof_generate(evp, f, n, nest, extack);
		if (!err && fmt->f.mode == MRC_FMT_SRV6)
			err = mrc_evprof_routes(evp, fmt, f, n, nest, extack);
		if (err)
			return err;
	}
	if (evp->min_active > evp->nev) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "min_active is above the EV count");
		return -EINVAL;
	}
	err = mrc_evprof_check_srv6(ctl, evp, fmt->f.mode == MRC_FMT_SRV6,
				    attrs, extack);
	if (err || fmt->f.mode == MRC_FMT_SRV6)
		return err;
	return mrc_evprof_expand(evp, fmt, f, n, attrs, extack);
}

static int mrc_evprof_can_online(const struct mrc_prof *prof,
				 const char **why)
{
	const struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);

	if (evp->mode != MRC_EV_MODE_AUTO && !evp->nev) {
		*why = "EV profile has no EVs: give them before online";
		return -EINVAL;
	}
	return 0;
}

static void mrc_evprof_reset(struct mrc_prof *prof)
{
	struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);

	mrc_evprof_set_evs(evp, NULL, 0);
	evp->mode = 0;
	evp->fmt_id = 0;
	evp->count = 0;
	evp->min_active = 0;
	evp->event_mask = 0;
	evp->nfields = 0;
	memset(evp->field, 0, sizeof(evp->field));
}

static int mrc_evprof_fill_fields(struct sk_buff *skb,
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

static u32 mrc_evprof_ndenied(const struct mrc_evprof *evp)
{
	u32 i, n = 0;

	for (i = 0; i < evp->nev; i++)
		n += evp->ev[i].denied;
	return n;
}

/**
 * mrc_evprof_nallowed() - how many of a profile's EVs are not denied
 * @evp: the profile
 *
 * A profile with EVs keeps at least one allowed (mrc_ev_set_denied() says
 * why), so a DENY that would take the last one is refused.
 *
 * Return: the count.
 */
u32 mrc_evprof_nallowed(const struct mrc_evprof *evp)
{
	return evp->nev - mrc_evprof_ndenied(evp);
}

static int mrc_evprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
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
	    nla_put_u32(skb, MRC_EVPROF_NDENIED, mrc_evprof_ndenied(evp)) ||
	    (nbad >= 0 && nla_put_u32(skb, MRC_EVPROF_NBAD, nbad)))
		return -EMSGSIZE;
	if (evp->nfields && mrc_evprof_fill_fields(skb, evp))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_evprof_busy(struct mrc_ctl_dev *ctl, const struct mrc_prof *prof,
			   const char **why)
{
	if (ctl->default_evp == prof->id) {
		*why = "EV profile is the device default: make another the default first";
		return -EBUSY;
	}
	if (prof->nusers) {
		*why = "EV profile is in use by QPs";
		return -EBUSY;
	}
	return 0;
}

/* A configured EV profile holds its format, so the format stays ONLINE. */
static void mrc_evprof_commit(struct mrc_ctl_dev *ctl,
			      const struct mrc_prof *old,
			      const struct mrc_prof *new)
{
	const struct mrc_prof *p[2] = { old, new };
	struct mrc_prof *fmt;
	int i;

	for (i = 0; i < 2; i++) {
		const struct mrc_evprof *evp;

		if (!p[i] || p[i]->state == MRC_PROF_INIT)
			continue;
		evp = container_of(p[i], struct mrc_evprof, p);
		fmt = mrc_prof_find(&mrc_evfmt_kind, ctl, evp->fmt_id);
		if (WARN_ON_ONCE(!fmt))
			continue;
		if (i == 0)
			fmt->nusers--;
		else
			fmt->nusers++;
	}
}

static int mrc_evprof_dup(struct mrc_prof *copy, const struct mrc_prof *prof)
{
	const struct mrc_evprof *evp = container_of(prof, struct mrc_evprof, p);
	struct mrc_evprof *c = container_of(copy, struct mrc_evprof, p);

	c->ev = NULL;
	c->retired = NULL;
	/* The routes never change: the copy shares them. */
	c->srv6 = mrc_srv6_routes_get(evp->srv6);
	if (!evp->nev)
		return 0;
	c->ev = kvcalloc(evp->nev, sizeof(*c->ev), GFP_KERNEL);
	if (evp->retired)
		c->retired = kvcalloc(evp->nev, sizeof(*c->retired), GFP_KERNEL);
	if (!c->ev || (evp->retired && !c->retired)) {
		mrc_evprof_set_evs(c, NULL, 0);
		return -ENOMEM;
	}
	memcpy(c->ev, evp->ev, evp->nev * sizeof(*c->ev));
	if (evp->retired)
		memcpy(c->retired, evp->retired, evp->nev * sizeof(*c->retired));
	return 0;
}

static void mrc_evprof_release(struct mrc_prof *prof)
{
	mrc_evprof_set_evs(container_of(prof, struct mrc_evprof, p), NULL, 0);
}

/**
 * mrc_evprof_set_evs() - give a profile new EVs
 * @evp: the profile
 * @ev: @nev EVs (taken over), or NULL
 * @nev: their number
 *
 * The old EVs go, and with them the counters of QPs that used them.
 */
void mrc_evprof_set_evs(struct mrc_evprof *evp, struct mrc_evprof_ev *ev,
			u32 nev)
{
	kvfree(evp->ev);
	kvfree(evp->retired);
	mrc_srv6_routes_put(evp->srv6);
	evp->ev = ev;
	evp->nev = nev;
	evp->retired = NULL;
	evp->srv6 = NULL;
}

/**
 * mrc_evprof_route() - EV @i's SRv6 route
 * @evp: the profile
 * @i: an EV index
 *
 * Return: the route, or NULL when EV @i has none (not SRV6, or no EV).
 */
const struct mrc_srv6_route *mrc_evprof_route(const struct mrc_evprof *evp,
					      u32 i)
{
	if (evp->srv6 && i < evp->srv6->n && evp->srv6->r[i].nsegs)
		return &evp->srv6->r[i];
	return NULL;
}

/**
 * mrc_evprof_put_route() - put an SRv6 route into a reply as MRC_EV_VALUE
 * @skb: the reply
 * @r: the route
 *
 * Return: 0 or -EMSGSIZE. The value is the addresses, as requests give it.
 */
int mrc_evprof_put_route(struct sk_buff *skb, const struct mrc_srv6_route *r)
{
	return nla_put(skb, MRC_EV_VALUE, r->nsegs * sizeof(r->seg[0]), r->seg);
}

/**
 * mrc_evprof_put_uplink() - put the interface an SRv6 EV leaves by
 * @skb: the reply
 * @ndev: the device's netdev
 * @r: the EV's route, or NULL (then nothing is put)
 *
 * Return: 0 or -EMSGSIZE. Nothing either when no route leaves now.
 */
int mrc_evprof_put_uplink(struct sk_buff *skb, struct net_device *ndev,
			  const struct mrc_srv6_route *r)
{
	int ifindex = r ? mrc_net_srv6_uplink(ndev, r) : 0;

	return ifindex ? nla_put_u32(skb, MRC_EV_WIRE_IFINDEX, ifindex) : 0;
}

/**
 * mrc_evprof_put_value() - put EV @i's value into a reply
 * @skb: the reply
 * @evp: the profile
 * @i: below @evp->nev
 *
 * Return: 0 or -EMSGSIZE. An SRv6 EV's value is its route's addresses.
 */
int mrc_evprof_put_value(struct sk_buff *skb, const struct mrc_evprof *evp,
			 u32 i)
{
	const struct mrc_srv6_route *r = mrc_evprof_route(evp, i);

	if (r)
		return mrc_evprof_put_route(skb, r);
	return nla_put_be32(skb, MRC_EV_VALUE, cpu_to_be32(evp->ev[i].compact));
}

/**
 * mrc_evprof_value_is() - whether EV @i has the value a request names
 * @evp: the profile
 * @i: below @evp->nev
 * @value: an MRC_EV_VALUE attribute (4, 16 or 32 bytes)
 *
 * Return: true when it names EV @i.
 */
bool mrc_evprof_value_is(const struct mrc_evprof *evp, u32 i,
			 const struct nlattr *value)
{
	const struct mrc_srv6_route *r = mrc_evprof_route(evp, i);

	if (r)
		return nla_len(value) == r->nsegs * sizeof(r->seg[0]) &&
		       !memcmp(nla_data(value), r->seg, nla_len(value));
	return nla_len(value) == sizeof(__be32) &&
	       be32_to_cpu(nla_get_be32(value)) == evp->ev[i].compact;
}

static struct xarray *mrc_evprof_xa(struct mrc_ctl_dev *ctl)
{
	return &ctl->evp_xa;
}

const struct mrc_prof_kind mrc_evprof_kind = {
	.name = "EV profile",
	.get_cmd = MRC_CMD_EVPROF_GET,
	.nest = MRC_ATTR_EVPROF,
	.max = MRC_EV_PROFILES_MAX,
	.size = sizeof(struct mrc_evprof),
	.xa = mrc_evprof_xa,
	.parse = mrc_evprof_parse,
	.finish = mrc_evprof_finish,
	.commit = mrc_evprof_commit,
	.dup = mrc_evprof_dup,
	.release = mrc_evprof_release,
	.can_online = mrc_evprof_can_online,
	.reset = mrc_evprof_reset,
	.fill = mrc_evprof_fill,
	.qp_users = MRC_PROF_QP_EV,
	.busy = mrc_evprof_busy,
};

/**
 * mrc_evprof_builtin() - make profile 0: AUTO over format 0, ONLINE
 * @evp: a zeroed profile
 *
 * AUTO: each QP sprays over its own random block of UDP source ports,
 * as many as the ev_count module parameter says (count reads 0 here).
 */
void mrc_evprof_builtin(struct mrc_evprof *evp)
{
	evp->p.id = 0;
	evp->mode = MRC_EV_MODE_AUTO;
	/* The default profile tells every health change. */
	evp->event_mask = BIT(MRC_GENL_EV_GOOD) | BIT(MRC_GENL_EV_ASSUMED_BAD);
	evp->fmt_id = 0;
	evp->p.state = MRC_PROF_ONLINE;
}
