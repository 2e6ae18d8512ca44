// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PROBE: endpoint probes (OCP's EV probe operation). A batch of 1..64
 * requests, each a destination GID and one EV (a wire value, or an EV of
 * an ONLINE EV profile), is checked whole, then sent; the caller sleeps
 * until every reply came or the timeout passed, and gets each request's
 * RTT or a timeout. Nothing is kept: the engine's table holds the probes
 * only while the call waits.
 */
#include <linux/genetlink.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "core/mrc_ev.h"
#include "core/mrc_evgen.h"
#include "engine/mrc_ep_probe.h"
#include "net/mrc_net.h"

#define MRC_PROBES_MAX		64
#define MRC_PROBE_TIMEOUT_DFLT	1000000000ULL		/* 1 s */
#define MRC_PROBE_FLOW_LABEL_MASK	0xfffff		/* IPv6: 20 bits */

const struct nla_policy mrc_probe_entry_policy[MRC_PROBE_MAX + 1] = {
	[MRC_PROBE_REQ_ID] = { .type = NLA_U16 },
	[MRC_PROBE_SGID_INDEX] = NLA_POLICY_MAX(NLA_U32, MRC_GID_TABLE_LEN - 1),
	[MRC_PROBE_DGID] = NLA_POLICY_EXACT_LEN(16),
	[MRC_PROBE_FMT_MODE] = NLA_POLICY_MAX(NLA_U8, MRC_FMT_UDP),
	[MRC_PROBE_EV_VALUE] = { .type = NLA_BINARY, .len = 32 },
	[MRC_PROBE_PROF_ID] = { .type = NLA_U64 },
	[MRC_PROBE_EV_INDEX] = { .type = NLA_U32 },
	[MRC_PROBE_RTT_NS] = { .type = NLA_REJECT },
	[MRC_PROBE_PORT] = { .type = NLA_REJECT },
	[MRC_PROBE_TIMED_OUT] = { .type = NLA_REJECT },
};

/**
 * struct mrc_genl_probe - one request of the batch
 * @req_id: the caller's id, echoed in the reply
 * @path: where it goes: addresses, the EV's source port and flow label,
 *	and an SRv6 EV's route (in @routes)
 * @routes: for an SRv6 EV, a reference on its profile's routes, which a
 *	change of the profile may replace while the probe waits
 * @ep: the engine's record while it waits
 */
struct mrc_genl_probe {
	u16 req_id;
	struct mrc_path path;
	struct mrc_srv6_routes *routes;
	struct mrc_ep_probe ep;
};

/*
 * An SRV6 value: one or two IPv6 addresses, checked as a profile's EV
 * is, and kept in a table of one route that the probe holds.
 */
static int mrc_probe_ev_route(struct mrc_dev *mdev, struct nlattr **tb,
			      struct mrc_genl_probe *p,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *value = tb[MRC_PROBE_EV_VALUE];
	struct mrc_srv6_route *r;
	enum mrc_srv6_bad why;

	if (p->path.v4) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_DGID],
				    "an SRv6 EV carries IPv6 only: give an IPv6 GID");
		return -EINVAL;
	}
	/* Held by the probe from here: the caller puts it on any return. */
	p->routes = mrc_srv6_routes_alloc(1);
	if (!p->routes)
		return -ENOMEM;
	r = &p->routes->r[0];
	if (mrc_srv6_route_parse(r, nla_data(value), nla_len(value), &why)) {
		if (why == MRC_SRV6_OK)
			NL_SET_ERR_MSG_ATTR(extack, value,
					    "an SRV6 EV value is one or two IPv6 addresses (16 or 32 bytes)");
		else
			mrc_genl_set_why(extack, value,
					 mrc_evprof_bad_segment(why));
		return -EINVAL;
	}
	if (ipv6_chk_addr(dev_net(mdev->ndev), &r->seg[0], mdev->ndev, 0)) {
		NL_SET_ERR_MSG_ATTR(extack, value,
				    "the first SRv6 segment is this host's own address");
		return -EINVAL;
	}
	p->path.srv6 = r;
	p->path.sport = htons(MRC_EV_SPORT_BASE);
	/* Any ECMP left on the way tells paths apart by the outer label. */
	p->path.flow_label = (jhash(r->seg, r->nsegs * sizeof(r->seg[0]), 0) &
			      MRC_PROBE_FLOW_LABEL_MASK) ?: 1;
	return 0;
}

/* The EV an entry names as a wire value and format mode. */
static int mrc_probe_ev_value(struct mrc_dev *mdev, struct nlattr **tb,
			      struct mrc_genl_probe *p,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *value = tb[MRC_PROBE_EV_VALUE];
	u8 mode = tb[MRC_PROBE_FMT_MODE] ?
		  nla_get_u8(tb[MRC_PROBE_FMT_MODE]) : MRC_FMT_UDP;
	struct mrc_path *path = &p->path;
	u32 wire, label;
	u16 sport;

	if (mode == MRC_FMT_SRV6)
		return mrc_probe_ev_route(mdev, tb, p, extack);
	if (nla_len(value) != sizeof(wire)) {
		NL_SET_ERR_MSG_ATTR(extack, value,
				    "a STEV or UDP EV value is 4 bytes (SRV6: give the format mode)");
		return -EINVAL;
	}
	wire = be32_to_cpu(nla_get_be32(value));
	if (mrc_evgen_split(mode, wire, &sport, &label)) {
		NL_SET_ERR_MSG_ATTR(extack, value,
				    "EV value gives source port 0 or is wider than the format");
		return -EINVAL;
	}
	path->sport = htons(sport);
	path->flow_label = label;
	return 0;
}

/* The EV an entry names as an EV profile's entry; under ctl->lock. */
static int mrc_probe_ev_prof(struct mrc_ctl_dev *ctl, struct nlattr **tb,
			     struct mrc_genl_probe *p,
			     struct netlink_ext_ack *extack)
{
	u32 index = nla_get_u32(tb[MRC_PROBE_EV_INDEX]);
	const struct mrc_srv6_route *route;
	struct mrc_path *path = &p->path;
	struct mrc_evprof *evp;
	struct mrc_prof *prof;

	prof = mrc_prof_find(&mrc_evprof_kind, ctl,
			     nla_get_u64(tb[MRC_PROBE_PROF_ID]));
	if (!prof) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_PROF_ID],
				    "no EV profile with this id");
		return -ENOENT;
	}
	if (prof->state != MRC_PROF_ONLINE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_PROF_ID],
				    "the EV profile is not ONLINE");
		return -EINVAL;
	}
	evp = container_of(prof, struct mrc_evprof, p);
	if (index >= evp->nev) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_EV_INDEX],
				    "EV index past the profile's EV count");
		return -ERANGE;
	}
	route = mrc_evprof_route(evp, index);
	if (route && path->v4) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_DGID],
				    "an SRv6 EV carries IPv6 only: give an IPv6 GID");
		return -EINVAL;
	}
	if (route) {
		p->routes = mrc_srv6_routes_get(evp->srv6);
		path->srv6 = route;
	}
	path->sport = htons(evp->ev[index].sport);
	path->flow_label = evp->ev[index].flow_label;
	return 0;
}

/* The EV of an entry: exactly one way of naming it. */
static int mrc_probe_parse_ev(struct mrc_dev *mdev, struct nlattr **tb,
			      const struct nlattr *entry,
			      struct mrc_genl_probe *p,
			      struct netlink_ext_ack *extack)
{
	bool by_value = tb[MRC_PROBE_EV_VALUE];
	bool by_prof = tb[MRC_PROBE_PROF_ID] || tb[MRC_PROBE_EV_INDEX];
	int err;

	if (by_value == by_prof) {
		NL_SET_ERR_MSG_ATTR(extack, entry,
				    "a probe needs an EV value, or an EV profile id and index");
		return -EINVAL;
	}
	if (by_value)
		return mrc_probe_ev_value(mdev, tb, p, extack);
	if (tb[MRC_PROBE_FMT_MODE]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_FMT_MODE],
				    "a format mode goes with an EV value, not a profile");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(extack, entry, tb, MRC_PROBE_PROF_ID) ||
	    NL_REQ_ATTR_CHECK(extack, entry, tb, MRC_PROBE_EV_INDEX))
		return -EINVAL;
	mutex_lock(&mdev->ctl->lock);
	err = mrc_probe_ev_prof(mdev->ctl, tb, p, extack);
	mutex_unlock(&mdev->ctl->lock);
	return err;
}

/* The destination and source of an entry. */
static int mrc_probe_parse_addr(struct mrc_dev *mdev, struct nlattr **tb,
				struct mrc_path *path,
				struct netlink_ext_ack *extack)
{
	struct nlattr *sgid = tb[MRC_PROBE_SGID_INDEX];
	int err;

	if (mrc_ep_probe_dst(nla_data(tb[MRC_PROBE_DGID]), path)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_DGID],
				    "the destination GID is not a unicast address");
		return -EINVAL;
	}
	err = mrc_ep_probe_src(mdev, sgid ? nla_get_u32(sgid) : -1, path);
	if (err == -EAFNOSUPPORT) {
		NL_SET_ERR_MSG_ATTR(extack, sgid,
				    "source and destination GIDs are of different families");
		return -EINVAL;
	}
	if (err && sgid) {
		NL_SET_ERR_MSG_ATTR(extack, sgid, "no RoCE v2 GID at this index");
		return err;
	}
	if (err) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_DGID],
				    "no source GID of this family and scope");
		return err;
	}
	return 0;
}

/* One entry of the batch; @prev entries before it, for unique ids. */
static int mrc_probe_parse_one(struct mrc_dev *mdev, struct nlattr *entry,
			       struct mrc_genl_probe *probes,
			       unsigned int prev, struct netlink_ext_ack *extack)
{
	struct mrc_genl_probe *p = &probes[prev];
	struct nlattr *tb[MRC_PROBE_MAX + 1];
	unsigned int i;
	int err;

	if (nla_type(entry) != MRC_ATTR_PROBE_ENTRY) {
		NL_SET_ERR_MSG_ATTR(extack, entry,
				    "the list holds MRC_ATTR_PROBE_ENTRY nests only");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, MRC_PROBE_MAX, entry,
			       mrc_probe_entry_policy, extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, entry, tb, MRC_PROBE_REQ_ID) ||
	    NL_REQ_ATTR_CHECK(extack, entry, tb, MRC_PROBE_DGID))
		return -EINVAL;
	p->req_id = nla_get_u16(tb[MRC_PROBE_REQ_ID]);
	for (i = 0; i < prev; i++) {
		if (probes[i].req_id == p->req_id) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PROBE_REQ_ID],
					    "request id used twice in one call");
			return -EINVAL;
		}
	}
	err = mrc_probe_parse_addr(mdev, tb, &p->path, extack);
	if (!err)
		err = mrc_probe_parse_ev(mdev, tb, entry, p, extack);
	return err;
}

/* Every entry, checked before anything is sent; returns the count. */
static int mrc_probe_parse(struct mrc_dev *mdev, struct genl_info *info,
			   struct mrc_genl_probe *probes)
{
	struct nlattr *list = info->attrs[MRC_ATTR_PROBES];
	u8 tclass = 0;
	struct nlattr *entry;
	int n = 0, rem, err;

	if (info->attrs[MRC_ATTR_PROBE_TCLASS])
		tclass = nla_get_u8(info->attrs[MRC_ATTR_PROBE_TCLASS]);
	nla_for_each_nested(entry, list, rem) {
		if (n == MRC_PROBES_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, list,
					    "at most 64 probes in one request");
			return -E2BIG;
		}
		err = mrc_probe_parse_one(mdev, entry, probes, n, info->extack);
		if (err)
			return err;
		probes[n++].path.tclass = tclass;
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(info->extack, list, "no probe in the list");
		return -EINVAL;
	}
	return n;
}

/* Send them all, wait for the replies or the deadline, stop waiting. */
static int mrc_probe_run(struct mrc_dev *mdev, struct mrc_genl_probe *probes,
			 int n, u64 timeout_ns)
{
	unsigned long deadline = jiffies + nsecs_to_jiffies(timeout_ns);
	int i, sent, err = 0;
	long left;

	for (sent = 0; sent < n; sent++) {
		err = mrc_ep_probe_send(mdev, &probes[sent].ep,
					&probes[sent].path);
		if (err)
			break;
	}
	/* No lock is held here: the family is parallel_ops (mrc_genl.c). */
	for (i = 0; i < sent && !err; i++) {
		left = (long)(deadline - jiffies);
		if (left <= 0)
			break;
		if (wait_for_completion_killable_timeout(&probes[i].ep.done,
							 left) < 0)
			err = -EINTR;
	}
	for (i = 0; i < sent; i++)
		mrc_ep_probe_cancel(mdev, &probes[i].ep);
	return err;
}

/* The reply: each request's RTT and port, or that it timed out. */
static int mrc_probe_fill(struct sk_buff *msg, struct mrc_dev *mdev,
			  const struct mrc_genl_probe *probes, int n)
{
	struct nlattr *list, *entry;
	int i;

	if (mrc_genl_put_dev(msg, mdev))
		return -EMSGSIZE;
	list = nla_nest_start(msg, MRC_ATTR_PROBES);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		const struct mrc_ep_probe *ep = &probes[i].ep;

		entry = nla_nest_start(msg, MRC_ATTR_PROBE_ENTRY);
		if (!entry ||
		    nla_put_u16(msg, MRC_PROBE_REQ_ID, probes[i].req_id))
			return -EMSGSIZE;
		if (!ep->answered) {
			if (nla_put_flag(msg, MRC_PROBE_TIMED_OUT))
				return -EMSGSIZE;
		} else if (nla_put_u64_64bit(msg, MRC_PROBE_RTT_NS, ep->rtt_ns,
					     MRC_PROBE_UNSPEC) ||
			   nla_put_u8(msg, MRC_PROBE_PORT, MRC_PORT_NUM)) {
			return -EMSGSIZE;
		}
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, list);
	return 0;
}

static int mrc_probe_reply(struct genl_info *info, struct mrc_dev *mdev,
			   const struct mrc_genl_probe *probes, int n)
{
	struct sk_buff *msg;
	void *hdr;
	int i;

	for (i = 0; i < n && !probes[i].ep.answered; i++)
		;
	if (i == n) {
		NL_SET_ERR_MSG(info->extack,
			       "no probe was answered within the timeout");
		return -ETIMEDOUT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = mrc_genlmsg_put(msg, info->snd_portid, info->snd_seq, 0,
			      MRC_CMD_PROBE);
	if (!hdr || mrc_probe_fill(msg, mdev, probes, n)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/**
 * mrc_genl_probe_doit() - PROBE: send endpoint probes and report their RTTs
 * @skb: the request
 * @info: a device, MRC_ATTR_PROBES, optionally a timeout and traffic class
 *
 * Sleeps (killable) up to the timeout, without any lock held: the family
 * is parallel_ops, so other requests are served meanwhile.
 *
 * Return: 0 with a reply listing every request; -ETIMEDOUT when no probe
 * was answered; -ENODEV when the device is removed meanwhile (the wait
 * ends then); another negative errno, with extack naming the attribute,
 * when the request is wrong (then nothing was sent).
 */
int mrc_genl_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *timeout = info->attrs[MRC_ATTR_PROBE_TIMEOUT_NS];
	struct mrc_genl_probe *probes;
	struct mrc_dev *mdev;
	int n, err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_ATTR_PROBES))
		return -EINVAL;
	mdev = mrc_genl_dev_get(info->attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	probes = kcalloc(MRC_PROBES_MAX, sizeof(*probes), GFP_KERNEL);
	if (!probes) {
		err = -ENOMEM;
		goto put_dev;
	}
	n = mrc_probe_parse(mdev, info, probes);
	if (n < 0) {
		err = n;
		goto free;
	}
	if (READ_ONCE(mdev->port_disabled)) {
		NL_SET_ERR_MSG(info->extack, "the port is administratively disabled");
		err = -ENETDOWN;
		goto free;
	}
	err = mrc_probe_run(mdev, probes, n, timeout ? nla_get_u64(timeout) :
			    MRC_PROBE_TIMEOUT_DFLT);
	/* Removal woke the wait (mrc_ep_probe_close()): no answer counts. */
	if (!err && mrc_ep_probe_closed(mdev))
		err = -ENODEV;
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "too many probes outstanding on this device");
	else if (err == -ENODEV)
		NL_SET_ERR_MSG(info->extack, "the device is being removed");
	if (!err)
		err = mrc_probe_reply(info, mdev, probes, n);
free:
	for (n = 0; n < MRC_PROBES_MAX; n++)
		mrc_srv6_routes_put(probes[n].routes);
	kfree(probes);
put_dev:
	ib_device_put(&mdev->ib_dev);
	return err;
}
