// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for SRv6 EVs: which addresses may be segments, how a
 * netlink value becomes a route, and what encapsulation costs the MTU.
 */
#include <kunit/test.h>

#include "../core/mrc_link_params.h"
#include "../core/mrc_srv6.h"

/* An address from its 8 groups. */
static struct in6_addr a6(u16 g0, u16 g1, u16 g2, u16 g3, u16 g4, u16 g5,
			  u16 g6, u16 g7)
{
	u16 g[8] = { g0, g1, g2, g3, g4, g5, g6, g7 };
	struct in6_addr a;
	int i;

	for (i = 0; i < 8; i++)
		a.s6_addr16[i] = cpu_to_be16(g[i]);
	return a;
}

/*
 * Which addresses may be segments: the refused ranges, and their
 * neighbours, which are segments.
 */
static void addr_check(struct kunit *test)
{
	static const struct {
		u16 g[8];
		enum mrc_srv6_bad want;
	} cases[] = {
		{ { 0xfcbb, 0xbb00, 0x1002, 0xd00b }, MRC_SRV6_OK },
		{ { 0xfc00, 0x1002, 0, 0, 0, 0, 0, 0xe }, MRC_SRV6_OK },
		{ { 0, 0, 0, 0, 0, 0, 0, 2 }, MRC_SRV6_OK },
		{ { 0xfec0, 0, 0, 0, 0, 0, 0, 1 }, MRC_SRV6_OK },
		{ { 0, 0, 0, 0, 0, 0xfffe, 0x0a00, 1 }, MRC_SRV6_OK },
		{ { 0 }, MRC_SRV6_UNSPECIFIED },
		{ { 0, 0, 0, 0, 0, 0, 0, 1 }, MRC_SRV6_LOOPBACK },
		{ { 0xff02, 0, 0, 0, 0, 0, 0, 1 }, MRC_SRV6_MULTICAST },
		{ { 0, 0, 0, 0, 0, 0xffff, 0x0a00, 1 }, MRC_SRV6_V4MAPPED },
		{ { 0xfe80, 0, 0, 0, 0, 0, 0, 1 }, MRC_SRV6_LINKLOCAL },
		{ { 0xfebf, 0xffff, 0, 0, 0, 0, 0, 1 }, MRC_SRV6_LINKLOCAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const u16 *g = cases[i].g;
		struct in6_addr a = a6(g[0], g[1], g[2], g[3], g[4], g[5],
				       g[6], g[7]);

		KUNIT_EXPECT_EQ_MSG(test, mrc_srv6_addr_check(&a),
				    cases[i].want, "%pI6c", &a);
	}
}

static void route_parse_lengths(struct kunit *test)
{
	struct in6_addr v[2] = {
		a6(0xfc00, 0x1002, 0, 0, 0, 0, 0, 0xe),
		a6(0xfc00, 0xd00b, 0, 0, 0, 0, 0, 0xd6),
	};
	struct mrc_srv6_route r;
	enum mrc_srv6_bad why;

	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 16, &why), 0);
	KUNIT_EXPECT_EQ(test, r.nsegs, 1);
	KUNIT_EXPECT_EQ(test, memcmp(&r.seg[0], &v[0], 16), 0);
	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 32, &why), 0);
	KUNIT_EXPECT_EQ(test, r.nsegs, 2);
	KUNIT_EXPECT_EQ(test, memcmp(&r.seg[1], &v[1], 16), 0);
	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 4, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, MRC_SRV6_OK);
	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 48, &why), -EINVAL);
	/* A bad second segment is found too. */
	v[1] = a6(0xff02, 0, 0, 0, 0, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 32, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, MRC_SRV6_MULTICAST);
	KUNIT_EXPECT_EQ(test, mrc_srv6_route_parse(&r, v, 16, &why), 0);
}

static void encap_len(struct kunit *test)
{
	/* Outer IPv6 only; outer IPv6 + SRH of 8 + 2 * 16 bytes. */
	KUNIT_EXPECT_EQ(test, mrc_srv6_encap_len(1), 40U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_encap_len(2), 80U);
}

static void payload_mtu(struct kunit *test)
{
	/*
	 * 1024 needs 1160 without SRv6, which reserves a one-segment SRH
	 * (24): the outer header alone adds 40 - 24 = 16, the outer header
	 * and an SRH of two segments 40 + 40 - 24 = 56.
	 */
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1160, 0), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1160, 1), 512U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1176, 1), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1175, 1), 512U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1216, 2), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1215, 2), 512U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(1500, 2), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(40, 1), 0U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(407, 1), 0U);
	KUNIT_EXPECT_EQ(test, mrc_srv6_payload_mtu(408, 1), 256U);
}

static void routes_refcount(struct kunit *test)
{
	struct mrc_srv6_routes *rs = mrc_srv6_routes_alloc(3);

	KUNIT_ASSERT_NOT_NULL(test, rs);
	KUNIT_EXPECT_EQ(test, rs->n, 3U);
	KUNIT_EXPECT_EQ(test, rs->r[2].nsegs, 0);
	KUNIT_EXPECT_PTR_EQ(test, mrc_srv6_routes_get(rs), rs);
	KUNIT_EXPECT_EQ(test, refcount_read(&rs->ref), 2U);
	mrc_srv6_routes_put(rs);
	KUNIT_EXPECT_EQ(test, refcount_read(&rs->ref), 1U);
	mrc_srv6_routes_put(rs);
	mrc_srv6_routes_put(NULL);
	KUNIT_EXPECT_NULL(test, mrc_srv6_routes_get(NULL));
}

static struct kunit_case mrc_srv6_cases[] = {
	KUNIT_CASE(addr_check),
	KUNIT_CASE(route_parse_lengths),
	KUNIT_CASE(encap_len),
	KUNIT_CASE(payload_mtu),
	KUNIT_CASE(routes_refcount),
	{}
};

static struct kunit_suite mrc_srv6_suite = {
	.name = "mrc_srv6",
	.test_cases = mrc_srv6_cases,
};

kunit_test_suite(mrc_srv6_suite);
MODULE_LICENSE("Dual BSD/GPL");
