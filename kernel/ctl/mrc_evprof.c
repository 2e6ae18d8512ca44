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

#include "ctl/mrc_prof.h"
#include "core/mrc_ev.h"
#include "core/mrc_srv6.h"
#include "engine/mrc_dev.h"

/**
 * mrc_evprof_bad_segment() - why an SRv6 EV's address is refused
 * @why: from mrc_srv6_route_parse(), not MRC_SRV6_OK
 *
 * Return: the message for the requester, a string literal.
 */
const char *mrc_evprof_bad_segment(enum mrc_srv6_bad why)
{
	switch (why) {
	case MRC_SRV6_UNSPECIFIED:
		return "SRv6 EV value: a segment is the unspecified address";
	case MRC_SRV6_LOOPBACK:
		return "SRv6 EV value: a segment is the loopback address";
	case MRC_SRV6_MULTICAST:
		return "SRv6 EV value: a segment is a multicast address";
	case MRC_SRV6_V4MAPPED:
		return "SRv6 EV value: a segment is an IPv4-mapped address";
	default:
		return "SRv6 EV value: a segment is a link-local address";
	}
}

/**
 * mrc_evprof_configure() - apply a request's settings to an EV profile
 * @evp: a private copy of the profile
 * @spec: what the request sets
 * @why: set to why it is refused
 *
 * The first step of a change: the fields and EXPLICIT EVs follow
 * (mrc_evprof_set_fields(), mrc_evprof_set_explicit()), then
 * mrc_evprof_derive(). Giving a mode is what leaves INIT.
 *
 * Return: 0; -EINVAL for the built-in AUTO profile or a profile without
 * a mode; -EBUSY when @evp is ONLINE.
 */
int mrc_evprof_configure(struct mrc_evprof *evp,
			 const struct mrc_evprof_spec *spec, const char **why)
{
	struct mrc_prof *prof = &evp->p;
	bool any = spec->config || (spec->set & MRC_EVPROF_SET_EVS);

	if (prof->id == 0 && prof->state != MRC_PROF_INIT &&
	    evp->mode == MRC_EV_MODE_AUTO && any) {
		*why = "the built-in AUTO profile 0 has no configuration";
		return -EINVAL;
	}
	if (prof->state == MRC_PROF_ONLINE && spec->set) {
		*why = "EV profile is ONLINE: take it offline to change it";
		return -EBUSY;
	}
	if (spec->set & MRC_EVPROF_SET_MODE) {
		evp->mode = spec->mode;
		if (prof->state == MRC_PROF_INIT)
			prof->state = MRC_PROF_OFFLINE;
	}
	if (prof->state == MRC_PROF_INIT && any) {
		*why = "an EV profile needs a mode first";
		return -EINVAL;
	}
	if (spec->set & MRC_EVPROF_SET_FMT)
		evp->fmt_id = spec->fmt_id;
	if (spec->set & MRC_EVPROF_SET_COUNT)
		evp->count = spec->count;
	if (spec->set & MRC_EVPROF_SET_MIN_ACTIVE)
		evp->min_active = spec->min_active;
	if (spec->set & MRC_EVPROF_SET_EVENT_MASK)
		evp->event_mask = spec->event_mask;
	return 0;
}

/**
 * mrc_evprof_set_fields() - give a profile the fields its EVs expand by
 * @evp: the profile
 * @f: @n fields, checked against the format by mrc_evprof_derive()
 * @n: at most MRC_EVFMT_FIELDS_MAX
 */
void mrc_evprof_set_fields(struct mrc_evprof *evp,
			   const struct mrc_evgen_field *f, unsigned int n)
{
	memcpy(evp->field, f, n * sizeof(*f));
	evp->nfields = n;
}

/**
 * mrc_evprof_set_explicit() - give a profile the EVs a request listed
 * @evp: the profile
 * @ev: @nev EVs with their compact value and port (taken over)
 * @nev: their number
 * @rs: the routes of SRv6 EVs (taken over), or NULL
 *
 * mrc_evprof_derive() then checks them against the format and expands
 * them.
 */
void mrc_evprof_set_explicit(struct mrc_evprof *evp, struct mrc_evprof_ev *ev,
			     u32 nev, struct mrc_srv6_routes *rs)
{
	mrc_evprof_set_evs(evp, ev, nev);
	evp->srv6 = rs;
}

/* Refuse with @msg: about the whole configuration unless @why names more. */
static int mrc_evprof_refuse(struct mrc_evprof_why *why, const char *msg,
			     int err)
{
	why->msg = msg;
	return err;
}

/* Refuse with @msg, about EV @i. */
static int mrc_evprof_refuse_ev(struct mrc_evprof_why *why, u32 i,
				const char *msg)
{
	why->ev = i;
	return mrc_evprof_refuse(why, msg, -EINVAL);
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
			       struct mrc_evprof_why *why)
{
	struct mrc_evprof_ev *ev;
	u32 count, i;
	int err;

	err = mrc_evgen_count(f, n, evp->count, &count);
	if (err)
		return mrc_evprof_refuse(why,
					 "count is above what the fields generate or the maximum (4096)",
					 err);
	ev = kvcalloc(count, sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		err = mrc_evgen_nth(f, n, i, &ev[i].compact);
		if (err) {
			kvfree(ev);
			return mrc_evprof_refuse(why, "cannot generate the EVs",
						 err);
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
			     struct mrc_evprof_why *why)
{
	u32 i, wire;
	int err;

	for (i = 0; i < evp->nev; i++) {
		struct mrc_evprof_ev *ev = &evp->ev[i];

		err = mrc_evgen_expand(&fmt->f, f, n, ev->compact, &wire);
		if (err) {
			why->ev = i;
			return mrc_evprof_refuse(why, "EV has bits the fields do not use",
						 err);
		}
		err = mrc_evgen_split(fmt->f.mode, wire, &ev->sport,
				      &ev->flow_label);
		if (err) {
			why->ev = i;
			return mrc_evprof_refuse(why,
						 "an EV expands to UDP source port 0: start generated ranges at 1 or set init_val",
						 err);
		}
	}
	return 0;
}

/*
 * A GENERATED SRV6 profile's routes: each compact EV expanded through the
 * fields into its address (a uSID program: block, a uSID per tier, the
 * receiver's) or two. The EVs are generated, so a refusal names the profile.
 */
static int mrc_evprof_routes(struct mrc_evprof *evp,
			     const struct mrc_evfmt *fmt,
			     const struct mrc_evgen_field *f, unsigned int n,
			     struct mrc_evprof_why *why)
{
	u8 val[MRC_EVGEN_SRV6_BYTES_MAX];
	struct mrc_srv6_routes *rs;
	enum mrc_srv6_bad bad;
	unsigned int len;
	u32 i;

	rs = mrc_srv6_routes_alloc(evp->nev);
	if (!rs)
		return -ENOMEM;
	for (i = 0; i < evp->nev; i++) {
		if (mrc_evgen_expand_srv6(&fmt->f, f, n, evp->ev[i].compact,
					  val, &len)) {
			why->msg = "EV has bits the fields do not use";
			goto err;
		}
		if (mrc_srv6_route_parse(&rs->r[i], val, len, &bad)) {
			why->msg = mrc_evprof_bad_segment(bad);
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
 * named in @why when it has the wrong kind). An SRv6 EV is sent with
 * its own inner source port and outer flow label, so that the peer's
 * replies and any ECMP the operator keeps tell the EVs apart.
 */
static int mrc_evprof_check_srv6(struct mrc_ctl_dev *ctl,
				 struct mrc_evprof *evp, bool srv6,
				 struct mrc_evprof_why *why)
{
	struct net_device *ndev = ctl->mdev->ndev;
	const struct mrc_srv6_route *r;
	u32 i;

	for (i = 0; i < evp->nev; i++) {
		r = mrc_evprof_route(evp, i);
		if (!srv6 && r)
			return mrc_evprof_refuse_ev(why, i,
						    "EV value: a STEV or UDP EV is 4 bytes, not IPv6 addresses");
		if (!srv6)
			continue;
		if (!r)
			return mrc_evprof_refuse_ev(why, i,
						    "EV value: an SRV6 EV is one or two IPv6 addresses (16 or 32 bytes)");
		if (ipv6_chk_addr(dev_net(ndev), &r->seg[0], ndev, 0))
			return mrc_evprof_refuse_ev(why, i,
						    "EV value: the first SRv6 segment is the device's own address");
		evp->ev[i].sport = MRC_EV_SPORT_BASE | (i & MRC_EV_SPORT_MASK);
		evp->ev[i].flow_label = i + 1;
	}
	return 0;
}

/**
 * mrc_evprof_derive() - check a changed EV profile whole and make its EVs
 * @ctl: the device's control state, locked
 * @evp: a private copy of the profile, after mrc_evprof_configure() and
 *	the request's fields and EVs
 * @why: set to why it is refused, and which EV or field it is about
 *	(@why->ev, @why->field: -1 for none, set so by the caller)
 *
 * Called only when a request changed the configuration: it recomputes
 * (and so un-denies) the EVs. GENERATED profiles get their EVs here; every
 * EV gets the source port and flow label it is sent with.
 *
 * Return: 0, -ENOENT when the format does not exist, -ENOMEM, or -EINVAL
 * or what core/mrc_evgen.c refuses with when the configuration is wrong.
 */
int mrc_evprof_derive(struct mrc_ctl_dev *ctl, struct mrc_evprof *evp,
		      struct mrc_evprof_why *why)
{
	struct mrc_evgen_field f[MRC_EVFMT_FIELDS_MAX];
	struct mrc_prof *fprof;
	struct mrc_evfmt *fmt;
	int err, bad;
	unsigned int n;

	if (evp->p.state == MRC_PROF_INIT || evp->mode == MRC_EV_MODE_AUTO)
		return 0;
	fprof = mrc_prof_find(&mrc_evfmt_kind, ctl, evp->fmt_id);
	if (!fprof || fprof->state != MRC_PROF_ONLINE)
		return mrc_evprof_refuse(why,
					 "the EV format profile (fmt, default 0) must exist and be ONLINE",
					 fprof ? -EINVAL : -ENOENT);
	fmt = container_of(fprof, struct mrc_evfmt, p);
	if (evp->mode == MRC_EV_MODE_GENERATED && !evp->nfields)
		return mrc_evprof_refuse(why, "a GENERATED profile needs fields",
					 -EINVAL);
	n = mrc_evprof_fields(evp, fmt, f);
	err = mrc_evgen_check_fields(&fmt->f, f, n, &bad);
	if (err) {
		why->field = bad;
		return mrc_evprof_refuse(why,
					 "EV field does not fit its format field (width, init_val, mask, min/max)",
					 err);
	}
	if (evp->mode == MRC_EV_MODE_GENERATED) {
		err = mrc_evprof_generate(evp, f, n, why);
		if (!err && fmt->f.mode == MRC_FMT_SRV6)
			err = mrc_evprof_routes(evp, fmt, f, n, why);
		if (err)
			return err;
	}
	if (evp->min_active > evp->nev)
		return mrc_evprof_refuse(why, "min_active is above the EV count",
					 -EINVAL);
	err = mrc_evprof_check_srv6(ctl, evp, fmt->f.mode == MRC_FMT_SRV6, why);
	if (err || fmt->f.mode == MRC_FMT_SRV6)
		return err;
	return mrc_evprof_expand(evp, fmt, f, n, why);
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

static struct xarray *mrc_evprof_xa(struct mrc_ctl_dev *ctl)
{
	return &ctl->evp_xa;
}

const struct mrc_prof_kind mrc_evprof_kind = {
	.name = "EV profile",
	.max = MRC_EV_PROFILES_MAX,
	.size = sizeof(struct mrc_evprof),
	.xa = mrc_evprof_xa,
	.commit = mrc_evprof_commit,
	.dup = mrc_evprof_dup,
	.release = mrc_evprof_release,
	.can_online = mrc_evprof_can_online,
	.reset = mrc_evprof_reset,
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
