// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for EV generation: OCP's examples recomputed by hand,
 * every validation rule at its boundary and one past it, the order of a
 * truncated GENERATED enumeration and the STEV/UDP split.
 */
#include <kunit/test.h>

#include "../core/mrc_ev.h"
#include "../core/mrc_evgen.h"

/* OCP's 3-tier STEV example (examples/mrc_ctl_gen_ev.md): 8/4/4 bits. */
static const struct mrc_evgen_fmt tier_fmt = {
	.mode = MRC_EVFMT_STEV, .nfields = 3, .width = { 8, 4, 4 },
};

static const struct mrc_evgen_field tier_fields[] = {
	{ .width = 8, .max_val = 255, .mask = 0xff },
	{ .width = 4, .max_val = 15, .mask = 0xf },
	{ .width = 4, .max_val = 15, .mask = 0xf },
};

/* Two 16-bit format fields: the STEV split's flow label and port. */
static const struct mrc_evgen_fmt fmt_16_16 = {
	.mode = MRC_EVFMT_STEV, .nfields = 2, .width = { 16, 16 },
};

static void expect_wire(struct kunit *test, const struct mrc_evgen_fmt *fmt,
			const struct mrc_evgen_field *f, unsigned int n,
			u32 compact, u32 wire)
{
	u32 got = 0;

	KUNIT_ASSERT_EQ(test, mrc_evgen_expand(fmt, f, n, compact, &got), 0);
	KUNIT_EXPECT_EQ(test, got, wire);
}

static void expect_nth(struct kunit *test, const struct mrc_evgen_field *f,
		       unsigned int nf, u32 n, u32 compact)
{
	u32 got = 0;

	KUNIT_ASSERT_EQ(test, mrc_evgen_nth(f, nf, n, &got), 0);
	KUNIT_EXPECT_EQ(test, got, compact);
}

static void ocp_three_tiers(struct kunit *test)
{
	u32 count = 0, c;
	int bad = 0;
	u16 sport;
	u32 fl;

	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fmt(&tier_fmt, &bad), 0);
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&tier_fmt, tier_fields, 3,
						     &bad), 0);
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(tier_fields, 3), 65536ULL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(tier_fields, 3, 0, &count), 0);
	KUNIT_EXPECT_EQ(test, count, 4096U);

	/* First EV: every tier 0, compact 0, wire 0: source port 0. */
	expect_nth(test, tier_fields, 3, 0, 0);
	expect_wire(test, &tier_fmt, tier_fields, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_STEV, 0, &sport, &fl),
			-EINVAL);
	/* T0 = 1: compact bit 24 (left-aligned), wire 0x0100. */
	expect_nth(test, tier_fields, 3, 1, 0x01000000);
	expect_wire(test, &tier_fmt, tier_fields, 3, 0x01000000, 0x0100);
	/* T1 = 1 after all 256 values of T0. */
	expect_nth(test, tier_fields, 3, 256, 0x00100000);
	expect_wire(test, &tier_fmt, tier_fields, 3, 0x00100000, 0x0010);
	/* Last of the first 4096: T0 = 255, T1 = 15, T2 = 0. */
	expect_nth(test, tier_fields, 3, 4095, 0xfff00000);
	expect_wire(test, &tier_fmt, tier_fields, 3, 0xfff00000, 0xfff0);
	/* Last of all 65536: every tier at its maximum. */
	expect_nth(test, tier_fields, 3, 65535, 0xffff0000);
	expect_wire(test, &tier_fmt, tier_fields, 3, 0xffff0000, 0xffff);
	KUNIT_EXPECT_EQ(test, mrc_evgen_nth(tier_fields, 3, 65536, &c),
			-ERANGE);
	/* T2's last bit is bit 16 of the compact EV; bit 15 is left over. */
	expect_wire(test, &tier_fmt, tier_fields, 3, 0x00010000, 0x0001);
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand(&tier_fmt, tier_fields, 3,
					       0x00008000, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand(&tier_fmt, tier_fields, 3,
					       0x00000001, &c), -EINVAL);
}

/* The first 4096 of 65536: T0 runs fastest, T2 never leaves 0. */
static void truncated_order_field_0_fastest(struct kunit *test)
{
	u32 n, c = 0, wire = 0, prev = 0;
	bool in_order = true;

	for (n = 0; n < 4096; n++) {
		KUNIT_ASSERT_EQ(test, mrc_evgen_nth(tier_fields, 3, n, &c), 0);
		KUNIT_ASSERT_EQ(test, mrc_evgen_expand(&tier_fmt, tier_fields,
						       3, c, &wire), 0);
		/* wire = T0 << 8 | T1 << 4 | T2 */
		if (wire >> 8 != n % 256 || ((wire >> 4) & 0xf) != n / 256 ||
		    (wire & 0xf) || (n && wire == prev))
			in_order = false;
		prev = wire;
	}
	KUNIT_EXPECT_TRUE(test, in_order);
}

/* OCP's "generated with fixed" example: 0x100 | part, 0x200 | part. */
static void ocp_fixed_bits_and_min(struct kunit *test)
{
	static const struct mrc_evgen_field f[] = {
		{ .width = 16, .init_val = 0x100, .min_val = 1, .max_val = 0xf,
		  .mask = 0xf },
		{ .width = 16, .init_val = 0x200, .min_val = 1, .max_val = 0xf,
		  .mask = 0xf },
	};
	u32 count = 0, c;

	expect_wire(test, &fmt_16_16, f, 2, 0x3e000000, 0x0103020e);
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(f, 2), 225ULL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(f, 2, 0, &count), 0);
	KUNIT_EXPECT_EQ(test, count, 225U);
	/* Digits count from min_val = 1. */
	expect_nth(test, f, 2, 0, 0x11000000);
	expect_nth(test, f, 2, 14, 0xf1000000);
	expect_nth(test, f, 2, 15, 0x12000000);
	expect_nth(test, f, 2, 224, 0xff000000);
	KUNIT_EXPECT_EQ(test, mrc_evgen_nth(f, 2, 225, &c), -ERANGE);
}

/* OCP's "weird mask" 0x0f0f: high nibble of the part to bits 11..8. */
static void init_val_with_partial_masks(struct kunit *test)
{
	static const struct mrc_evgen_field f[] = {
		{ .width = 16, .init_val = 0x1000, .min_val = 1, .max_val = 0xff,
		  .mask = 0x0f0f },
		{ .width = 16, .init_val = 0x2000, .min_val = 1, .max_val = 0xff,
		  .mask = 0x0f0f },
	};
	/* init_val bits under the mask are replaced, the others kept. */
	static const struct mrc_evgen_field g[] = {
		{ .width = 16, .init_val = 0xffff, .max_val = 3, .mask = 0x8001 },
	};
	u16 sport = 0;
	u32 fl = 0;
	int bad;

	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, f, 2, &bad),
			0);
	expect_wire(test, &fmt_16_16, f, 2, 0xa53c0000, 0x1a05230c);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_STEV, 0x1a05230c,
					      &sport, &fl), 0);
	KUNIT_EXPECT_EQ(test, sport, 0x230c);
	KUNIT_EXPECT_EQ(test, fl, 0x1a05U);

	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, g, 1, &bad),
			0);
	expect_wire(test, &fmt_16_16, g, 1, 0x00000000, 0x7ffe0000);
	expect_wire(test, &fmt_16_16, g, 1, 0x80000000, 0xfffe0000);
	expect_wire(test, &fmt_16_16, g, 1, 0x40000000, 0x7fff0000);
	expect_wire(test, &fmt_16_16, g, 1, 0xc0000000, 0xffff0000);
}

/* A fixed field: init_val alone, no bit of the compact EV. */
static void fixed_field(struct kunit *test)
{
	static const struct mrc_evgen_field f[] = {
		{ .width = 16, .init_val = 0xbeef },
		{ .width = 16, .min_val = 1, .max_val = 0xffff, .mask = 0xffff },
	};
	u32 c = 0;
	int bad;

	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, f, 2, &bad),
			0);
	expect_wire(test, &fmt_16_16, f, 2, 0x12340000, 0xbeef1234);
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand(&fmt_16_16, f, 2, 0x12340001,
					       &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(f, 2), 65535ULL);
	expect_nth(test, f, 2, 0, 0x00010000);
	expect_nth(test, f, 2, 65534, 0xffff0000);
}

/* EV fields narrower than their format fields are zero-extended. */
static void format_field_wider_than_ev_field(struct kunit *test)
{
	static const struct mrc_evgen_fmt fmt = {
		.mode = MRC_EVFMT_STEV, .nfields = 2, .width = { 12, 20 },
	};
	static const struct mrc_evgen_field f[] = {
		{ .width = 4, .max_val = 15, .mask = 0xf },
		{ .width = 8, .max_val = 255, .mask = 0xff },
	};
	/* A format field without an EV field is zero. */
	static const struct mrc_evgen_fmt udp = {
		.mode = MRC_EVFMT_UDP, .nfields = 2, .width = { 8, 8 },
	};
	u16 sport = 0;
	u32 fl = 1;
	int bad;

	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt, f, 2, &bad), 0);
	expect_wire(test, &fmt, f, 2, 0xabc00000, 0x00a000bc);
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&udp, &f[1], 1, &bad), 0);
	expect_wire(test, &udp, &f[1], 1, 0x7f000000, 0x7f00);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_UDP, 0x7f00, &sport,
					      &fl), 0);
	KUNIT_EXPECT_EQ(test, sport, 0x7f00);
	KUNIT_EXPECT_EQ(test, fl, 0U);
}

static int check_fmt(u8 mode, unsigned int n, const u8 *w, int *bad)
{
	struct mrc_evgen_fmt fmt = { .mode = mode, .nfields = n };

	memcpy(fmt.width, w, min_t(unsigned int, n, MRC_EVFMT_FIELDS_MAX));
	return mrc_evgen_check_fmt(&fmt, bad);
}

static void fmt_rules_at_their_boundaries(struct kunit *test)
{
	static const u8 w16[MRC_EVFMT_FIELDS_MAX] = {
		16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	};
	static const u8 w16_17[MRC_EVFMT_FIELDS_MAX] = {
		16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17,
	};
	int bad = 0;

	/* Modes. */
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_UDP, 1, w16, &bad), 0);
	KUNIT_EXPECT_EQ(test, check_fmt(3, 1, w16, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, MRC_EVGEN_NO_FIELD);
	/* Field count: 1..16. */
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 0, w16, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bad, MRC_EVGEN_NO_FIELD);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_SRV6, 16, w16, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, MRC_EVGEN_NO_FIELD);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_SRV6, 17, w16, &bad),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, bad, MRC_EVFMT_FIELDS_MAX);
	/* Widths: at least 1. */
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 3,
					(const u8[]){ 1, 1, 1 }, &bad), 0);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 3,
					(const u8[]){ 1, 1, 0 }, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 2);
	/* Totals per mode: STEV 32, UDP 16, SRV6 256. */
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 2, w16, &bad), 0);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 2,
					(const u8[]){ 17, 16 }, &bad), -E2BIG);
	KUNIT_EXPECT_EQ(test, bad, 1);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_STEV, 1,
					(const u8[]){ 33 }, &bad), -E2BIG);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_UDP, 1, w16, &bad), 0);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_UDP, 2,
					(const u8[]){ 8, 9 }, &bad), -E2BIG);
	KUNIT_EXPECT_EQ(test, bad, 1);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_SRV6, 2,
					(const u8[]){ 128, 128 }, &bad), 0);
	KUNIT_EXPECT_EQ(test, check_fmt(MRC_EVFMT_SRV6, 16, w16_17, &bad),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, bad, 15);
}

/* One field, checked against a one-field format of width @fw. */
static int check_one(struct mrc_evgen_field f, u8 fw, int *bad)
{
	struct mrc_evgen_fmt fmt = {
		.mode = MRC_EVFMT_STEV, .nfields = 1, .width = { fw },
	};

	return mrc_evgen_check_fields(&fmt, &f, 1, bad);
}

static void field_rules_at_their_boundaries(struct kunit *test)
{
	struct mrc_evgen_field ok16 = { .width = 16, .mask = 0xffff,
					.max_val = 0xffff };
	struct mrc_evgen_field two[3] = { ok16, ok16, ok16 };
	struct mrc_evgen_field f;
	int bad = 0;

	/* Count: 1..the format's. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, two, 0, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bad, MRC_EVGEN_NO_FIELD);
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, two, 2, &bad),
			0);
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, two, 3, &bad),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, bad, 2);
	/* The index names the offending field. */
	two[1].min_val = 1;
	two[1].max_val = 0;
	KUNIT_EXPECT_EQ(test, mrc_evgen_check_fields(&fmt_16_16, two, 2, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 1);

	/* Width: 1..32 and at most the format field's. */
	f = (struct mrc_evgen_field){ .width = 1 };
	KUNIT_EXPECT_EQ(test, check_one(f, 1, &bad), 0);
	f.width = 0;
	KUNIT_EXPECT_EQ(test, check_one(f, 1, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 0);
	f.width = 16;
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), 0);
	f.width = 17;
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), -EINVAL);
	f.width = 32;
	KUNIT_EXPECT_EQ(test, check_one(f, 32, &bad), 0);
	f.width = 33;
	KUNIT_EXPECT_EQ(test, check_one(f, 64, &bad), -EINVAL);

	/* init_val and mask inside the width. */
	f = (struct mrc_evgen_field){ .width = 16, .init_val = 0xffff };
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), 0);
	f.init_val = 0x10000;
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), -EINVAL);
	f = (struct mrc_evgen_field){ .width = 16, .mask = 0xffff };
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), 0);
	f.mask = 0x1ffff;
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), -EINVAL);

	/* max_val below 2^popcount(mask), wherever the mask bits lie. */
	f = (struct mrc_evgen_field){ .width = 16, .mask = 0x0f0f,
				      .max_val = 0xff };
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), 0);
	f.max_val = 0x100;
	KUNIT_EXPECT_EQ(test, check_one(f, 16, &bad), -EINVAL);
	f = (struct mrc_evgen_field){ .width = 32, .mask = 0xffffffff,
				      .max_val = 0xffffffff };
	KUNIT_EXPECT_EQ(test, check_one(f, 32, &bad), 0);

	/* min_val <= max_val. */
	f = (struct mrc_evgen_field){ .width = 8, .mask = 0xff, .min_val = 9,
				      .max_val = 9 };
	KUNIT_EXPECT_EQ(test, check_one(f, 8, &bad), 0);
	f.min_val = 10;
	KUNIT_EXPECT_EQ(test, check_one(f, 8, &bad), -EINVAL);

	/* Fixed (mask 0): min_val = max_val = 0 only. */
	f = (struct mrc_evgen_field){ .width = 8, .init_val = 0xff };
	KUNIT_EXPECT_EQ(test, check_one(f, 8, &bad), 0);
	f.max_val = 1;
	KUNIT_EXPECT_EQ(test, check_one(f, 8, &bad), -EINVAL);
	f.max_val = 0;
	f.min_val = 1;
	KUNIT_EXPECT_EQ(test, check_one(f, 8, &bad), -EINVAL);
}

static void count_rules_at_their_boundaries(struct kunit *test)
{
	static const struct mrc_evgen_field small[] = {
		{ .width = 4, .min_val = 1, .max_val = 15, .mask = 0xf },
		{ .width = 4, .min_val = 1, .max_val = 15, .mask = 0xf },
	};
	static const struct mrc_evgen_field huge[] = {
		{ .width = 32, .max_val = 0xffffffff, .mask = 0xffffffff },
		{ .width = 32, .max_val = 0xffffffff, .mask = 0xffffffff },
		{ .width = 32, .max_val = 0xffffffff, .mask = 0xffffffff },
	};
	u32 count = 0, c;

	KUNIT_EXPECT_EQ(test, mrc_evgen_count(small, 2, 225, &count), 0);
	KUNIT_EXPECT_EQ(test, count, 225U);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(small, 2, 226, &count), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(small, 2, 1, &count), 0);
	KUNIT_EXPECT_EQ(test, count, 1U);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(tier_fields, 3, MRC_EV_COUNT_MAX,
					      &count), 0);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(tier_fields, 3,
					      MRC_EV_COUNT_MAX + 1, &count),
			-E2BIG);
	/* Products beyond 64 bits saturate; 0 still means the maximum. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(huge, 1), 1ULL << 32);
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(huge, 2), U64_MAX);
	KUNIT_EXPECT_EQ(test, mrc_evgen_product(huge, 3), U64_MAX);
	KUNIT_EXPECT_EQ(test, mrc_evgen_count(huge, 3, 0, &count), 0);
	KUNIT_EXPECT_EQ(test, count, (u32)MRC_EV_COUNT_MAX);
	/* One full 32-bit field enumerates to its end; two do not fit. */
	expect_nth(test, huge, 1, 0xffffffff, 0xffffffff);
	KUNIT_EXPECT_EQ(test, mrc_evgen_nth(huge, 2, 0, &c), -EOPNOTSUPP);
}

static void split_rules(struct kunit *test)
{
	u16 sport = 7;
	u32 fl = 7;

	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_STEV, 0xabcd1234,
					      &sport, &fl), 0);
	KUNIT_EXPECT_EQ(test, sport, 0x1234);
	KUNIT_EXPECT_EQ(test, fl, 0xabcdU);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_STEV, 0x00000001,
					      &sport, &fl), 0);
	KUNIT_EXPECT_EQ(test, sport, 1);
	KUNIT_EXPECT_EQ(test, fl, 0U);
	/* Source port 0 is refused, whatever the flow label; outputs kept. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_STEV, 0xffff0000,
					      &sport, &fl), -EINVAL);
	KUNIT_EXPECT_EQ(test, sport, 1);
	KUNIT_EXPECT_EQ(test, fl, 0U);
	/* UDP: 16 bits, flow label 0. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_UDP, 0xffff, &sport,
					      &fl), 0);
	KUNIT_EXPECT_EQ(test, sport, 0xffff);
	KUNIT_EXPECT_EQ(test, fl, 0U);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_UDP, 0x10000, &sport,
					      &fl), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_UDP, 0, &sport, &fl),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(MRC_EVFMT_SRV6, 1, &sport, &fl),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mrc_evgen_split(3, 1, &sport, &fl), -EINVAL);
}

/*
 * A GENERATED uSID program as the SRv6 fabric uses: block fcbb:bb00,
 * one spine uSID 0x1000 | plane << 8 | spine (mask 0x0103: 2 planes x
 * 4 spines), the receiver's decapsulating uSID d00b. Each of the 8 EVs is
 * one container, and each spine of each plane is named once.
 */
static void srv6_usid_program(struct kunit *test)
{
	static const struct mrc_evgen_fmt fmt = {
		.mode = MRC_EVFMT_SRV6, .nfields = 3, .width = { 32, 16, 16 },
	};
	static const struct mrc_evgen_field f[] = {
		{ .width = 32, .init_val = 0xfcbbbb00 },
		{ .width = 16, .init_val = 0x1000, .mask = 0x0103, .max_val = 7 },
		{ .width = 16, .init_val = 0xd00b },
	};
	u8 out[MRC_EVGEN_SRV6_BYTES_MAX], want[MRC_EVGEN_SRV6_BYTES_MAX] = {
		0xfc, 0xbb, 0xbb, 0x00, 0x10, 0x00, 0xd0, 0x0b,
	};
	unsigned int len, seen = 0;
	u32 n, compact, count;
	int bad;
	u16 usid;

	KUNIT_ASSERT_EQ(test, mrc_evgen_check_fmt(&fmt, &bad), 0);
	KUNIT_ASSERT_EQ(test, mrc_evgen_check_fields(&fmt, f, 3, &bad), 0);
	KUNIT_ASSERT_EQ(test, mrc_evgen_count(f, 3, 0, &count), 0);
	KUNIT_ASSERT_EQ(test, count, 8U);
	for (n = 0; n < count; n++) {
		KUNIT_ASSERT_EQ(test, mrc_evgen_nth(f, 3, n, &compact), 0);
		memset(out, 0xa5, sizeof(out));
		KUNIT_ASSERT_EQ(test, mrc_evgen_expand_srv6(&fmt, f, 3, compact,
							    out, &len), 0);
		KUNIT_EXPECT_EQ(test, len, 16U);
		usid = 0x1000 | (n >> 2) << 8 | (n & 3);
		want[4] = usid >> 8;
		want[5] = usid & 0xff;
		KUNIT_EXPECT_EQ(test, memcmp(out, want, sizeof(want)), 0);
		seen |= BIT((usid >> 8 & 1) << 2 | (usid & 3));
	}
	KUNIT_EXPECT_EQ(test, seen, 0xffU);
	/* Bits of the compact EV no mask takes are refused. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand_srv6(&fmt, f, 3, BIT(28), out,
						    &len), -EINVAL);
	/* The u32 expansion is for STEV and UDP only, and this for SRV6. */
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand(&fmt, f, 3, 0, &n), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mrc_evgen_expand_srv6(&tier_fmt, tier_fields, 3,
						    0, out, &len), -EINVAL);
}

/*
 * Wider than one address: two segments (fc00::1xx, then fc00::d6). A
 * field narrower than its format field ends where the format field ends.
 */
static void srv6_two_segments(struct kunit *test)
{
	static const struct mrc_evgen_fmt fmt = {
		.mode = MRC_EVFMT_SRV6, .nfields = 4,
		.width = { 16, 112, 16, 112 },
	};
	static const struct mrc_evgen_field f[] = {
		{ .width = 16, .init_val = 0xfc00 },
		{ .width = 16, .init_val = 0x0100, .mask = 0x3, .max_val = 3 },
		{ .width = 16, .init_val = 0xfc00 },
		{ .width = 16, .init_val = 0xd6 },
	};
	u8 out[MRC_EVGEN_SRV6_BYTES_MAX], want[MRC_EVGEN_SRV6_BYTES_MAX] = {
		[0] = 0xfc, [14] = 0x01, [15] = 0x02,
		[16] = 0xfc, [31] = 0xd6,
	};
	unsigned int len;
	u32 compact;
	int bad;

	KUNIT_ASSERT_EQ(test, mrc_evgen_check_fields(&fmt, f, 4, &bad), 0);
	KUNIT_ASSERT_EQ(test, mrc_evgen_nth(f, 4, 2, &compact), 0);
	KUNIT_ASSERT_EQ(test, mrc_evgen_expand_srv6(&fmt, f, 4, compact, out,
						    &len), 0);
	KUNIT_EXPECT_EQ(test, len, 32U);
	KUNIT_EXPECT_EQ(test, memcmp(out, want, sizeof(want)), 0);
}

static struct kunit_case mrc_evgen_cases[] = {
	KUNIT_CASE(ocp_three_tiers),
	KUNIT_CASE(truncated_order_field_0_fastest),
	KUNIT_CASE(ocp_fixed_bits_and_min),
	KUNIT_CASE(init_val_with_partial_masks),
	KUNIT_CASE(fixed_field),
	KUNIT_CASE(format_field_wider_than_ev_field),
	KUNIT_CASE(fmt_rules_at_their_boundaries),
	KUNIT_CASE(field_rules_at_their_boundaries),
	KUNIT_CASE(count_rules_at_their_boundaries),
	KUNIT_CASE(split_rules),
	KUNIT_CASE(srv6_usid_program),
	KUNIT_CASE(srv6_two_segments),
	{}
};

static struct kunit_suite mrc_evgen_suite = {
	.name = "mrc_evgen",
	.test_cases = mrc_evgen_cases,
};

kunit_test_suite(mrc_evgen_suite);

MODULE_LICENSE("Dual BSD/GPL");
