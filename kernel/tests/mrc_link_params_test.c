// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the link parameters MRC derives from its netdev.
 */
#include <kunit/test.h>

#include "../core/mrc_link_params.h"

/*
 * Bytes in front of every payload byte, worst case, written out from the
 * documents rather than taken from the constant under test: IPv6 header
 * 40, one-segment SRH 8 + 16 (wire-format.rst "Encapsulation"), UDP 8,
 * and the 64 bytes of MRC headers the payload MTU leaves room for
 * (wire-format.rst "Acknowledgments carried on requests").
 */
#define WANT_OVERHEAD (40 + 24 + 8 + 64)

static void path_overhead_matches_documents(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MRC_PATH_OVERHEAD, WANT_OVERHEAD);
}

static void payload_mtu_standard_ethernet(struct kunit *test)
{
	/* 1500 - 136 bytes of headers leaves 1364: the largest fit is 1024. */
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(1500), 1024U);
}

static void payload_mtu_jumbo(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(9000), 4096U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(65535), 4096U);
}

static void payload_mtu_exact_boundaries(struct kunit *test)
{
	unsigned int mtu;

	for (mtu = 256; mtu <= 4096; mtu <<= 1) {
		KUNIT_EXPECT_EQ(test, mrc_payload_mtu(mtu + WANT_OVERHEAD), mtu);
		if (mtu > 256)
			KUNIT_EXPECT_EQ(test,
					mrc_payload_mtu(mtu + WANT_OVERHEAD - 1),
					mtu / 2);
	}
	/* The same boundaries as literal netdev MTUs. */
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(392), 256U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(647), 256U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(648), 512U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(1159), 512U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(1160), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(2183), 1024U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(2184), 2048U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(4231), 2048U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(4232), 4096U);
}

static void payload_mtu_too_small(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(0), 0U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(68), 0U);
	KUNIT_EXPECT_EQ(test, mrc_payload_mtu(391), 0U);
}

/* IPv4 20 + UDP 8, and IPv6 40 + UDP 8, in front of the MRC headers. */
#define FRONT_V4 (20 + 8)
#define FRONT_V6 (40 + 8)

static void link_seg_fills_standard_ethernet(struct kunit *test)
{
	/* 1500 - 28 - 64 = 1408, a multiple of 64 already. */
	KUNIT_EXPECT_EQ(test, mrc_link_seg(1500, FRONT_V4), 1408U);
	/* 1500 - 48 - 64 = 1388, down to 1344. */
	KUNIT_EXPECT_EQ(test, mrc_link_seg(1500, FRONT_V6), 1344U);
	/* An SRv6 EV with an SRH of two segments: outer 40 + SRH 40. */
	KUNIT_EXPECT_EQ(test, mrc_link_seg(1500, FRONT_V6 + 80), 1280U);
	/* Never less than the path MTU the same netdev gives READs. */
	KUNIT_EXPECT_GE(test, mrc_link_seg(1500, FRONT_V6 + 40),
			mrc_payload_mtu(1500));
}

static void link_seg_jumbo_and_cap(struct kunit *test)
{
	/* 9000 - 28 - 64 = 8908, down to 8896. */
	KUNIT_EXPECT_EQ(test, mrc_link_seg(9000, FRONT_V4), 8896U);
	KUNIT_EXPECT_EQ(test, mrc_link_seg(65535, FRONT_V4), 9216U);
	KUNIT_EXPECT_EQ(test, mrc_link_seg(9216 + FRONT_V4 + 64, FRONT_V4),
			9216U);
}

static void link_seg_aligned_at_every_mtu(struct kunit *test)
{
	unsigned int mtu, seg;

	for (mtu = 348; mtu <= 9400; mtu++) {
		seg = mrc_link_seg(mtu, FRONT_V4);
		KUNIT_EXPECT_EQ(test, seg % 64, 0U);
		KUNIT_EXPECT_LE(test, seg + FRONT_V4 + 64, mtu);
		KUNIT_EXPECT_GT(test, seg + FRONT_V4 + 64 + 64,
				min(mtu, 9216U + FRONT_V4 + 64 + 1));
	}
}

static void link_seg_too_small(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_link_seg(0, FRONT_V4), 0U);
	KUNIT_EXPECT_EQ(test, mrc_link_seg(FRONT_V4 + 64 + 255, FRONT_V4), 0U);
	KUNIT_EXPECT_EQ(test, mrc_link_seg(FRONT_V4 + 64 + 256, FRONT_V4),
			256U);
	/* A front larger than the MTU must not wrap around. */
	KUNIT_EXPECT_EQ(test, mrc_link_seg(100, 200), 0U);
}

static void guid_is_modified_eui64(struct kunit *test)
{
	static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	static const u8 want[8] = { 0x50, 0x54, 0x00, 0xff,
				    0xfe, 0x12, 0x34, 0x56 };
	__be64 guid = mrc_guid_from_mac(mac);

	KUNIT_EXPECT_EQ(test, memcmp(&guid, want, sizeof(want)), 0);
}

static void guid_flips_universal_local_bit(struct kunit *test)
{
	static const u8 mac[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	__be64 guid = mrc_guid_from_mac(mac);
	const u8 *b = (const u8 *)&guid;

	KUNIT_EXPECT_EQ(test, b[0], 0x02);
	KUNIT_EXPECT_EQ(test, b[3], 0xff);
	KUNIT_EXPECT_EQ(test, b[4], 0xfe);
	KUNIT_EXPECT_EQ(test, b[7], 0x55);
}

static void port_state_needs_admin_and_oper_up(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_port_state_from_netdev(true, true),
			MRC_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, mrc_port_state_from_netdev(true, false),
			MRC_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, mrc_port_state_from_netdev(false, true),
			MRC_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, mrc_port_state_from_netdev(false, false),
			MRC_PORT_DOWN);
}

static struct kunit_case mrc_link_params_cases[] = {
	KUNIT_CASE(path_overhead_matches_documents),
	KUNIT_CASE(payload_mtu_standard_ethernet),
	KUNIT_CASE(payload_mtu_jumbo),
	KUNIT_CASE(payload_mtu_exact_boundaries),
	KUNIT_CASE(payload_mtu_too_small),
	KUNIT_CASE(link_seg_fills_standard_ethernet),
	KUNIT_CASE(link_seg_jumbo_and_cap),
	KUNIT_CASE(link_seg_aligned_at_every_mtu),
	KUNIT_CASE(link_seg_too_small),
	KUNIT_CASE(guid_is_modified_eui64),
	KUNIT_CASE(guid_flips_universal_local_bit),
	KUNIT_CASE(port_state_needs_admin_and_oper_up),
	{}
};

static struct kunit_suite mrc_link_params_suite = {
	.name = "mrc_link_params",
	.test_cases = mrc_link_params_cases,
};

kunit_test_suite(mrc_link_params_suite);

MODULE_LICENSE("Dual BSD/GPL");
