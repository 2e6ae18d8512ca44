// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the checks of stripped outer headers: which header
 * chains deliver their inner packet, which SRHs are malformed, which
 * outer sources may wrap an inner packet, and the outer CE mark.
 */
#include <kunit/test.h>

#include "../core/mrc_encap_check.h"

#define NH_HOP		0
#define NH_IPV4		4
#define NH_UDP		17
#define NH_IPV6		41
#define NH_ROUTING	43
#define NH_DEST		60

/* A chain of headers under construction. */
struct chain {
	u8 b[512];
	unsigned int len;
};

/* An IPv6 header from source ::; returns it. */
static u8 *put_ipv6(struct chain *c, u8 nh)
{
	u8 *h = c->b + c->len;

	memset(h, 0, 40);
	h[0] = 0x60;
	h[6] = nh;
	h[7] = 64;
	c->len += 40;
	return h;
}

/* An IPv6 header from source @src (16 bytes). */
static void put_ipv6_from(struct chain *c, u8 nh, const u8 *src)
{
	memcpy(put_ipv6(c, nh) + 8, src, 16);
}

/* An SRH of @segs segments (Last Entry @le) and @tlv trailing bytes. */
static u8 *put_srh(struct chain *c, u8 nh, u8 sl, u8 le, unsigned int segs,
		   const u8 *tlv, unsigned int tlv_len)
{
	unsigned int len = 8 + 16 * segs + tlv_len;
	u8 *h = c->b + c->len;

	memset(h, 0, len);
	h[0] = nh;
	h[1] = len / 8 - 1;
	h[2] = 4;
	h[3] = sl;
	h[4] = le;
	memset(h + 8, 0xfc, 16 * segs);
	if (tlv_len)
		memcpy(h + 8 + 16 * segs, tlv, tlv_len);
	c->len += len;
	return h;
}

static void put_opts(struct chain *c, u8 nh)
{
	u8 *h = c->b + c->len;

	memset(h, 0, 8);
	h[0] = nh;
	h[2] = 1;	/* PadN over the rest */
	h[3] = 4;
	c->len += 8;
}

static enum mrc_encap_verdict check6(const struct chain *c)
{
	return mrc_encap_check(c->b, c->len, 6, NULL);
}

/* As check6(), every outer source to be @src. */
static enum mrc_encap_verdict check6_from(const struct chain *c,
					  const u8 *src)
{
	return mrc_encap_check(c->b, c->len, 6, src);
}

/*
 * No outer header, one of a kind this check does not know, or fewer
 * bytes than an IPv6 header (xfrm's rebuilt MAC header, which may start
 * with a 6).
 */
static void not_ipv6(struct kunit *test)
{
	static const u8 ipv4[20] = { 0x45 };
	static const u8 mac[14] = { 0x62, 0, 0, 0, 0, 1, 0x62, 0, 0, 0, 0, 2,
				    0x86, 0xdd };

	KUNIT_EXPECT_EQ(test, mrc_encap_check(ipv4, 0, 6, NULL), MRC_ENCAP_NONE);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(ipv4, sizeof(ipv4), 6, NULL),
			MRC_ENCAP_NONE);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(ipv4, sizeof(ipv4), 4, ipv4 + 12),
			MRC_ENCAP_NONE);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(mac, sizeof(mac), 6, NULL),
			MRC_ENCAP_NONE);
}

/* Reduced encapsulation: one IPv6 header, naming the inner protocol. */
static void container(struct kunit *test)
{
	struct chain c = {};

	put_ipv6(&c, NH_IPV6);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(c.b, c.len, 4, NULL), MRC_ENCAP_BAD);
	c.b[6] = NH_IPV4;
	KUNIT_EXPECT_EQ(test, mrc_encap_check(c.b, c.len, 4, NULL), MRC_ENCAP_OK);
	c.b[6] = NH_UDP;
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_BAD);
	c.b[6] = NH_IPV6;
	c.b[0] = 0x40 | (c.b[0] & 0x0f);	/* only the first nibble tells */
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_NONE);
}

/* Outer header, SRH of two segments at SL 0, and chains around it. */
static void srh_chains(struct kunit *test)
{
	struct chain c = {};

	put_ipv6(&c, NH_ROUTING);
	put_srh(&c, NH_IPV6, 0, 1, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);

	/* Two encapsulations, the outer one reduced. */
	c.len = 0;
	put_ipv6(&c, NH_IPV6);
	put_ipv6(&c, NH_ROUTING);
	put_srh(&c, NH_IPV6, 0, 0, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);

	/* Options before the SRH. */
	c.len = 0;
	put_ipv6(&c, NH_HOP);
	put_opts(&c, NH_DEST);
	put_opts(&c, NH_ROUTING);
	put_srh(&c, NH_IPV6, 0, 0, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);

	/* Bytes left after the last header, or a header cut short. */
	c.len = 0;
	put_ipv6(&c, NH_IPV6);
	c.len += 8;
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_BAD);
	c.len = 0;
	put_ipv6(&c, NH_ROUTING);
	put_srh(&c, NH_IPV6, 0, 1, 2, NULL, 0);
	c.len -= 8;
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_BAD);
	c.len = 0;
	put_ipv6(&c, NH_DEST);
	c.len += 4;
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_BAD);
}

/* More headers than MRC_ENCAP_MAX_HDRS: refused, however well formed. */
static void header_limit(struct kunit *test)
{
	struct chain c = {};
	int i;

	put_ipv6(&c, NH_DEST);
	for (i = 0; i < MRC_ENCAP_MAX_HDRS - 2; i++)
		put_opts(&c, NH_DEST);
	put_opts(&c, NH_IPV6);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);
	c.len = 0;
	put_ipv6(&c, NH_DEST);
	for (i = 0; i < MRC_ENCAP_MAX_HDRS - 1; i++)
		put_opts(&c, NH_DEST);
	put_opts(&c, NH_IPV6);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_BAD);
}

/* Each malformation of an otherwise good SRH, alone. */
static void srh_malformed(struct kunit *test)
{
	static const u8 padn[8] = { 4, 6 };
	static const u8 pads[8] = { 0, 0, 4, 4 };
	static const u8 overrun[8] = { 4, 7 };
	static const u8 cut[8] = { 0, 0, 0, 0, 0, 0, 0, 5 };
	struct chain c = {};
	u8 *h;

	h = put_srh(&c, NH_IPV6, 0, 0, 1, padn, sizeof(padn));
	KUNIT_EXPECT_TRUE(test, mrc_encap_srh_ok(h, c.len));
	c.len = 0;
	h = put_srh(&c, NH_IPV6, 0, 0, 1, pads, sizeof(pads));
	KUNIT_EXPECT_TRUE(test, mrc_encap_srh_ok(h, c.len));
	c.len = 0;
	h = put_srh(&c, NH_IPV6, 0, 0, 1, overrun, sizeof(overrun));
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len));
	c.len = 0;
	h = put_srh(&c, NH_IPV6, 0, 0, 1, cut, sizeof(cut));
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len));

	c.len = 0;
	h = put_srh(&c, NH_IPV6, 1, 1, 2, NULL, 0);	/* a segment left */
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len));
	h[3] = 0;
	KUNIT_EXPECT_TRUE(test, mrc_encap_srh_ok(h, c.len));
	h[4] = 2;		/* Last Entry past the header */
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len));
	h[4] = 1;
	h[2] = 0;		/* routing type 0 */
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len));
	h[2] = 4;
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, c.len - 8));
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, 4));
	h[1] = 0;		/* Hdr Ext Len below one segment */
	KUNIT_EXPECT_FALSE(test, mrc_encap_srh_ok(h, 8));
}

/*
 * Every outer source must be the inner packet's, when asked: the inner
 * source is what the QP checks, the outer one what the network filters.
 */
static void outer_source(struct kunit *test)
{
	static const u8 peer[16] = { 0xfd, 0, 0, 0xa, [15] = 1 };
	static const u8 other[16] = { 0xfd, 0, 0, 0xa, [15] = 0x99 };
	static const u8 peer4[4] = { 10, 0, 0, 1 };
	struct chain c = {};

	/* Reduced encapsulation: the one outer source decides. */
	put_ipv6_from(&c, NH_IPV6, peer);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_OK);
	KUNIT_EXPECT_EQ(test, check6_from(&c, other), MRC_ENCAP_WRONG_SRC);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);
	c.b[8 + 15] ^= 1;	/* one bit of it */
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_WRONG_SRC);

	/* With an SRH, as the kernel's seg6 encapsulation builds it. */
	c.len = 0;
	put_ipv6_from(&c, NH_ROUTING, peer);
	put_srh(&c, NH_IPV6, 0, 1, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_OK);
	KUNIT_EXPECT_EQ(test, check6_from(&c, other), MRC_ENCAP_WRONG_SRC);

	/* Nested: each outer header, not only the first or the last. */
	c.len = 0;
	put_ipv6_from(&c, NH_IPV6, peer);
	put_ipv6_from(&c, NH_IPV6, peer);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_OK);
	c.len = 0;
	put_ipv6_from(&c, NH_IPV6, other);
	put_ipv6_from(&c, NH_IPV6, peer);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_WRONG_SRC);
	c.len = 0;
	put_ipv6_from(&c, NH_IPV6, peer);
	put_ipv6_from(&c, NH_IPV6, other);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_WRONG_SRC);
	KUNIT_EXPECT_EQ(test, check6(&c), MRC_ENCAP_OK);

	/* A malformed chain is BAD, whatever its sources. */
	c.len = 0;
	put_ipv6_from(&c, NH_ROUTING, other);
	put_srh(&c, NH_IPV6, 1, 1, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, check6_from(&c, peer), MRC_ENCAP_BAD);

	/* No IPv6 source equals an IPv4 one: only a router wraps IPv4. */
	c.len = 0;
	put_ipv6_from(&c, NH_IPV4, peer);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(c.b, c.len, 4, peer4),
			MRC_ENCAP_WRONG_SRC);
	KUNIT_EXPECT_EQ(test, mrc_encap_check(c.b, c.len, 4, NULL),
			MRC_ENCAP_OK);
}

/* The traffic class spans bytes 0 and 1: 0x6T TC.. with ECN its low bits. */
static void set_tclass(u8 *h, u8 tclass)
{
	h[0] = 0x60 | (tclass >> 4);
	h[1] = (h[1] & 0x0f) | (tclass << 4);
}

static void outer_tclass(struct kunit *test)
{
	struct chain c = {};
	u8 *outer, *inner;

	outer = put_ipv6(&c, NH_IPV6);
	inner = put_ipv6(&c, NH_IPV6);
	/*
	 * The outermost header's whole class, ECN and DSCP, whatever the
	 * inner one says: routers mark that one.
	 */
	set_tclass(outer, 0x02);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0x02);
	set_tclass(outer, 0x01);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0x01);
	set_tclass(outer, 0xb8);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0xb8);
	set_tclass(outer, 0xbb);
	set_tclass(inner, 0x02);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0xbb);
	set_tclass(outer, 0x03);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0x03);
	set_tclass(outer, 0x02);
	set_tclass(inner, 0x03);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), 0x02);
	/* Too short, or not IPv6: none. */
	set_tclass(outer, 0x03);
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, 39), -1);
	outer[0] = 0x45;
	KUNIT_EXPECT_EQ(test, mrc_encap_tclass(c.b, c.len), -1);
}

static struct kunit_case mrc_encap_check_cases[] = {
	KUNIT_CASE(not_ipv6),
	KUNIT_CASE(container),
	KUNIT_CASE(srh_chains),
	KUNIT_CASE(header_limit),
	KUNIT_CASE(srh_malformed),
	KUNIT_CASE(outer_source),
	KUNIT_CASE(outer_tclass),
	{}
};

static struct kunit_suite mrc_encap_check_suite = {
	.name = "mrc_encap_check",
	.test_cases = mrc_encap_check_cases,
};

kunit_test_suite(mrc_encap_check_suite);
MODULE_LICENSE("Dual BSD/GPL");
