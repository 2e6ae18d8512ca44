/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PSN serial-number arithmetic (RFC 1982 style, modulo 2^32).
 *
 * PSNs are 32-bit and wrap. Two PSNs compare by the sign of their
 * difference taken as a signed 32-bit number, so every comparison is
 * correct across the wrap as long as the two PSNs are less than 2^31
 * apart. Exactly 2^31 apart the order is undefined (both mrc_psn_before()
 * calls return true); MRC windows are at most 8192 PSNs wide, far from it.
 */
#ifndef MRC_PSN_H
#define MRC_PSN_H

#include <linux/types.h>

/**
 * mrc_psn_diff() - signed distance from one PSN to another
 * @a: a PSN
 * @b: another PSN
 *
 * Return: @a - @b as a signed number, modulo 2^32: positive when @a is
 * after @b.
 */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

/**
 * mrc_psn_before() - whether a PSN comes before another
 * @a: a PSN
 * @b: another PSN
 *
 * Return: true when @a precedes @b in serial order.
 */
static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) < 0;
}

/**
 * mrc_psn_after() - whether a PSN comes after another
 * @a: a PSN
 * @b: another PSN
 *
 * Return: true when @a follows @b in serial order.
 */
static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_before(b, a);
}

/**
 * mrc_psn_in_range() - whether a PSN lies in a half-open range
 * @psn: the PSN to test
 * @lo: first PSN of the range
 * @hi: first PSN after the range
 *
 * The range [@lo, @hi) is taken modulo 2^32 and may cross the wrap; it is
 * empty when @lo == @hi.
 *
 * Return: true when @lo <= @psn < @hi in serial order.
 */
static inline bool mrc_psn_in_range(u32 psn, u32 lo, u32 hi)
{
	return psn - lo < hi - lo;
}

#endif /* MRC_PSN_H */
