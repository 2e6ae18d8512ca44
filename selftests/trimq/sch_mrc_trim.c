// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_trim: a test-only qdisc that trims as NDP and UET switches do, so
 * that MRC's trimming path can be tested in network namespaces, where
 * no Linux switch trims.
 *
 * A FIFO of at most @limit packets. A packet that finds it full is, if it
 * is MRC data (a UDP datagram to @port whose MRC headers say SEND, WRITE
 * or a READ response, plain or inside SRv6 encapsulation), cut to its
 * MRC headers, given DSCP @dscp on its outermost IP header, its lengths
 * and UDP checksum made right, and queued in a second FIFO that is sent
 * first (strict priority); anything else is dropped. MRC's control
 * packets (acknowledgments, NACKs, probes, atomic responses) always take
 * the second FIFO, as UET's control class does: a NACK for a trim must
 * not be lost to the queue the trim came from. The receiver knows a
 * trimmed packet by its DSCP (mrc's trim_dscp parameter).
 *
 * Configured by module parameters (tc has no parser for a qdisc outside
 * iproute2): every instance takes them when created. Counters: tc -s
 * shows trimmed packets as "overlimits" and what could not be trimmed as
 * "dropped". Documentation/testing.rst says how to build fabrics with it.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "../../kernel/core/mrc_wire.h"

#define MRC_TRIM_LIMIT_MAX	65536
/* Trimmed headers are about a tenth of a packet: room for many more. */
#define MRC_TRIM_PRIO_FACTOR	64
#define MRC_TRIM_NEXTHDR_ROUTING 43

static unsigned int mrc_trim_limit = 16;
static int mrc_trim_dscp = 11;
static unsigned int mrc_trim_port = 4792;

static int mrc_trim_set_limit(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || !v || v > MRC_TRIM_LIMIT_MAX) {
		pr_err("sch_mrc_trim: limit '%s' is not 1..%u packets\n", val,
		       MRC_TRIM_LIMIT_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(mrc_trim_limit, v);
	return 0;
}

static int mrc_trim_set_dscp(const char *val, const struct kernel_param *kp)
{
	int v;

	if (kstrtoint(val, 0, &v) || v < 0 || v > 63) {
		pr_err("sch_mrc_trim: dscp '%s' is not a DSCP (0..63)\n", val);
		return -EINVAL;
	}
	WRITE_ONCE(mrc_trim_dscp, v);
	return 0;
}

static int mrc_trim_set_port(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || !v || v > 65535) {
		pr_err("sch_mrc_trim: port '%s' is not a UDP port (1..65535)\n",
		       val);
		return -EINVAL;
	}
	WRITE_ONCE(mrc_trim_port, v);
	return 0;
}

static const struct kernel_param_ops mrc_trim_limit_ops = {
	.set = mrc_trim_set_limit, .get = param_get_uint,
};

static const struct kernel_param_ops mrc_trim_dscp_ops = {
	.set = mrc_trim_set_dscp, .get = param_get_int,
};

static const struct kernel_param_ops mrc_trim_port_ops = {
	.set = mrc_trim_set_port, .get = param_get_uint,
};

module_param_cb(limit, &mrc_trim_limit_ops, &mrc_trim_limit, 0644);
MODULE_PARM_DESC(limit, "packets queued before data is trimmed (1..65536, default 16)");
module_param_cb(dscp, &mrc_trim_dscp_ops, &mrc_trim_dscp, 0644);
MODULE_PARM_DESC(dscp, "DSCP of trimmed packets (0..63, default 11)");
module_param_cb(port, &mrc_trim_port_ops, &mrc_trim_port, 0644);
MODULE_PARM_DESC(port, "MRC's UDP port (default 4792)");

/**
 * struct mrc_trim_sched - one instance
 * @main: what arrives while there is room
 * @prio: trimmed packets, sent first
 * @limit: packets in @main before data is trimmed
 * @dscp: DSCP given to what is trimmed
 * @port: MRC's UDP destination port, host order
 *
 * sch->q counts both queues' packets; its list is not used.
 */
struct mrc_trim_sched {
	struct qdisc_skb_head main;
	struct qdisc_skb_head prio;
	u32 limit;
	u8 dscp;
	u16 port;
};

enum mrc_trim_kind {
	MRC_TRIM_OTHER,		/* not MRC, or not to be trimmed */
	MRC_TRIM_DATA,		/* MRC data: trimmed when the queue is full */
	MRC_TRIM_CONTROL,	/* MRC control: sent first */
};

/*
 * What the UDP datagram at @udp_off is; for MRC data, where its MRC
 * headers end (@cut).
 */
static enum mrc_trim_kind mrc_trim_classify(struct sk_buff *skb,
					    unsigned int udp_off, u16 port,
					    unsigned int *cut)
{
	const struct udphdr *uh;
	const u8 *bth;
	unsigned int hdr_len, ulen;
	u8 op;

	if (!pskb_may_pull(skb, udp_off + sizeof(*uh) + MRC_BTH_LEN))
		return MRC_TRIM_OTHER;
	uh = (const struct udphdr *)(skb->data + udp_off);
	bth = (const u8 *)(uh + 1);
	if (ntohs(uh->dest) != port || bth[0] != MRC_WIRE_VERSION << 4)
		return MRC_TRIM_OTHER;
	op = bth[1];
	switch (op) {
	case MRC_OP_ACK:
	case MRC_OP_SACK:
	case MRC_OP_NACK:
	case MRC_OP_PROBE:
	case MRC_OP_PROBE_REPLY:
	case MRC_OP_ATOMIC_RESP:
		return MRC_TRIM_CONTROL;
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_READ_RESP:
		break;
	default:
		return MRC_TRIM_OTHER;
	}
	hdr_len = 4 * get_unaligned_be16(bth + 14);
	ulen = ntohs(uh->len);
	if (hdr_len < MRC_BTH_LEN || ulen <= sizeof(*uh) + hdr_len ||
	    udp_off + ulen > skb->len)
		return MRC_TRIM_OTHER;
	*cut = udp_off + sizeof(*uh) + hdr_len;
	return MRC_TRIM_DATA;
}

/*
 * The offset of the UDP header of an IP packet at @off, the transport
 * header found through at most one SRH and one encapsulated IP packet.
 * @inner is set to the offset of the IP header the UDP header belongs to.
 */
static bool mrc_trim_find_udp(struct sk_buff *skb, unsigned int off,
			      unsigned int *inner, unsigned int *udp_off)
{
	unsigned int depth;
	u8 nh;

	for (depth = 0; depth < 2; depth++) {
		if (!pskb_may_pull(skb, off + 1))
			return false;
		*inner = off;
		if (skb->data[off] >> 4 == 4) {
			const struct iphdr *iph;

			if (!pskb_may_pull(skb, off + sizeof(*iph)))
				return false;
			iph = (const struct iphdr *)(skb->data + off);
			if (iph->ihl < 5 || ip_is_fragment(iph))
				return false;
			nh = iph->protocol;
			off += iph->ihl * 4;
		} else if (skb->data[off] >> 4 == 6) {
			const struct ipv6hdr *ip6h;

			if (!pskb_may_pull(skb, off + sizeof(*ip6h)))
				return false;
			ip6h = (const struct ipv6hdr *)(skb->data + off);
			nh = ip6h->nexthdr;
			off += sizeof(*ip6h);
			if (nh == MRC_TRIM_NEXTHDR_ROUTING) {
				if (!pskb_may_pull(skb, off + 2))
					return false;
				nh = skb->data[off];
				off += 8 * (skb->data[off + 1] + 1);
			}
		} else {
			return false;
		}
		if (nh == IPPROTO_UDP) {
			*udp_off = off;
			return true;
		}
		if (nh != IPPROTO_IPV6 && nh != IPPROTO_IPIP)
			return false;
	}
	return false;
}

static void mrc_trim_fix_udp(struct sk_buff *skb, unsigned int ip_off,
			     unsigned int udp_off, unsigned int ulen)
{
	struct udphdr *uh = (struct udphdr *)(skb->data + udp_off);
	__wsum csum;

	uh->len = htons(ulen);
	uh->check = 0;
	csum = csum_partial(uh, ulen, 0);
	if (skb->data[ip_off] >> 4 == 4) {
		struct iphdr *iph = (struct iphdr *)(skb->data + ip_off);

		iph->tot_len = htons(udp_off - ip_off + ulen);
		ip_send_check(iph);
		uh->check = csum_tcpudp_magic(iph->saddr, iph->daddr, ulen,
					      IPPROTO_UDP, csum);
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)(skb->data + ip_off);

		ip6h->payload_len = htons(udp_off - ip_off - sizeof(*ip6h) +
					  ulen);
		uh->check = csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr, ulen,
					    IPPROTO_UDP, csum);
	}
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
}

/* What @skb is, for MRC data where it would be cut (mrc_trim_cut()). */
static enum mrc_trim_kind mrc_trim_kind_of(const struct mrc_trim_sched *q,
					   struct sk_buff *skb,
					   unsigned int *inner,
					   unsigned int *udp_off,
					   unsigned int *cut)
{
	if (!mrc_trim_find_udp(skb, skb_network_offset(skb), inner, udp_off))
		return MRC_TRIM_OTHER;
	return mrc_trim_classify(skb, *udp_off, q->port, cut);
}

/*
 * Cut MRC data @skb at @cut, the end of its MRC headers, and re-mark it.
 * Return: false when it could not be written (it is then dropped).
 */
static bool mrc_trim_cut(const struct mrc_trim_sched *q, struct sk_buff *skb,
			 unsigned int inner, unsigned int udp_off,
			 unsigned int cut)
{
	unsigned int off = skb_network_offset(skb);

	if (skb_ensure_writable(skb, cut) || pskb_trim(skb, cut))
		return false;
	mrc_trim_fix_udp(skb, inner, udp_off, cut - udp_off);
	if (skb->data[off] >> 4 == 4) {
		struct iphdr *iph = (struct iphdr *)(skb->data + off);

		/* An encapsulating outer header's length shrank too. */
		if (inner != off) {
			iph->tot_len = htons(cut - off);
			ip_send_check(iph);
		}
		ipv4_change_dsfield(iph, INET_ECN_MASK, q->dscp << 2);
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)(skb->data + off);

		if (inner != off)
			ip6h->payload_len = htons(cut - off - sizeof(*ip6h));
		ipv6_change_dsfield(ip6h, INET_ECN_MASK, q->dscp << 2);
	}
	skb->ip_summed = CHECKSUM_NONE;
	return true;
}

/*
 * Queue one packet, trimmed when the main queue is full. Its length in
 * the qdisc's accounting (qdisc_pkt_len()) becomes what is queued; the
 * caller tells the parents.
 */
static int mrc_trim_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
				struct sk_buff **to_free)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	unsigned int inner = 0, udp_off = 0, cut = 0;
	enum mrc_trim_kind kind;

	kind = mrc_trim_kind_of(q, skb, &inner, &udp_off, &cut);
	if (kind != MRC_TRIM_CONTROL && q->main.qlen < q->limit) {
		__qdisc_enqueue_tail(skb, &q->main);
	} else {
		if (kind == MRC_TRIM_OTHER ||
		    q->prio.qlen >= q->limit * MRC_TRIM_PRIO_FACTOR)
			return qdisc_drop(skb, sch, to_free);
		if (kind == MRC_TRIM_DATA) {
			if (!mrc_trim_cut(q, skb, inner, udp_off, cut))
				return qdisc_drop(skb, sch, to_free);
			qdisc_skb_cb(skb)->pkt_len = skb->len;
			qdisc_qstats_overlimit(sch);
		}
		__qdisc_enqueue_tail(skb, &q->prio);
	}
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/*
 * A GSO packet is queued (and trimmed) segment by segment, as a switch
 * sees them. The parents counted one packet of the length that arrived.
 */
static int mrc_trim_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	unsigned int arrived = qdisc_pkt_len(skb), queued = 0, n = 0;
	struct sk_buff *segs, *next;
	int ret;

	if (!skb_is_gso(skb)) {
		ret = mrc_trim_enqueue_one(skb, sch, to_free);
		if (ret == NET_XMIT_SUCCESS && qdisc_pkt_len(skb) != arrived)
			qdisc_tree_reduce_backlog(sch, 0,
						  arrived - qdisc_pkt_len(skb));
		return ret;
	}
	segs = skb_gso_segment(skb, netif_skb_features(skb) &
				    ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);
	skb_list_walk_safe(segs, segs, next) {
		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = segs->len;
		if (mrc_trim_enqueue_one(segs, sch, to_free) ==
		    NET_XMIT_SUCCESS) {
			queued += qdisc_pkt_len(segs);
			n++;
		}
	}
	qdisc_tree_reduce_backlog(sch, 1 - n, arrived - queued);
	consume_skb(skb);
	return n ? NET_XMIT_SUCCESS : NET_XMIT_DROP;
}

static struct sk_buff *mrc_trim_dequeue(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct sk_buff *skb = __qdisc_dequeue_head(&q->prio);

	if (!skb)
		skb = __qdisc_dequeue_head(&q->main);
	if (!skb)
		return NULL;
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);
	return skb;
}

static struct sk_buff *mrc_trim_peek(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	return q->prio.head ? q->prio.head : q->main.head;
}

static void mrc_trim_reset(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	__qdisc_reset_queue(&q->prio);
	__qdisc_reset_queue(&q->main);
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
}

static int mrc_trim_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	if (opt) {
		NL_SET_ERR_MSG(extack,
			       "mrc_trim takes no options: set the module parameters limit, dscp and port");
		return -EINVAL;
	}
	/* The queues start empty: the private area comes zeroed. */
	q->limit = READ_ONCE(mrc_trim_limit);
	q->dscp = READ_ONCE(mrc_trim_dscp);
	q->port = READ_ONCE(mrc_trim_port);
	sch->limit = q->limit;
	return 0;
}

static struct Qdisc_ops mrc_trim_qdisc_ops __read_mostly = {
	.id = "mrc_trim",
	.priv_size = sizeof(struct mrc_trim_sched),
	.enqueue = mrc_trim_enqueue,
	.dequeue = mrc_trim_dequeue,
	.peek = mrc_trim_peek,
	.init = mrc_trim_init,
	.reset = mrc_trim_reset,
	.owner = THIS_MODULE,
};

static int __init mrc_trim_module_init(void)
{
	return register_qdisc(&mrc_trim_qdisc_ops);
}

static void __exit mrc_trim_module_exit(void)
{
	unregister_qdisc(&mrc_trim_qdisc_ops);
}

module_init(mrc_trim_module_init);
module_exit(mrc_trim_module_exit);
MODULE_DESCRIPTION("Test-only qdisc that trims MRC data to its headers");
MODULE_LICENSE("Dual BSD/GPL");
