// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV generation: validation of EV formats and EV fields, expansion of a
 * compact EV into the value sent, the n-th EV of a GENERATED profile and
 * the STEV/UDP split. mrc_evgen.h defines the bit layouts.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "mrc_ev.h"
#include "mrc_evgen.h"

/* The low @k bits set, 0 <= @k <= 32. */
static u32 mrc_evgen_low(unsigned int k)
{
	return (u32)(BIT_ULL(k) - 1);
}

static unsigned int mrc_evgen_width_max(u8 mode)
{
	switch (mode) {
	case MRC_EVFMT_STEV:
		return MRC_EVGEN_STEV_WIDTH_MAX;
	case MRC_EVFMT_SRV6:
		return MRC_EVGEN_SRV6_WIDTH_MAX;
	case MRC_EVFMT_UDP:
		return MRC_EVGEN_UDP_WIDTH_MAX;
	}
	return 0;
}

/**
 * mrc_evgen_check_fmt() - validate an EV format
 * @fmt: the format
 * @bad_field: set to the index of the offending field, or to
 *	MRC_EVGEN_NO_FIELD when the error is the mode or the field count
 *	(MRC_EVFMT_FIELDS_MAX for too many fields); MRC_EVGEN_NO_FIELD on
 *	success
 *
 * Rules: a known mode; 1..MRC_EVFMT_FIELDS_MAX fields; every width at
 * least 1; the total width at most 32 (STEV), 16 (UDP) or 256 (SRV6).
 * With a total too wide, the field named is the first that crosses the
 * limit.
 *
 * Return: 0, -EINVAL (mode, no field, zero width) or -E2BIG (too many
 * fields, too wide).
 */
int mrc_evgen_check_fmt(const struct mrc_evgen_fmt *fmt, int *bad_field)
{
	unsigned int i, total = 0, limit = mrc_evgen_width_max(fmt->mode);

	*bad_field = MRC_EVGEN_NO_FIELD;
	if (!limit || !fmt->nfields)
		return -EINVAL;
	if (fmt->nfields > MRC_EVFMT_FIELDS_MAX) {
		*bad_field = MRC_EVFMT_FIELDS_MAX;
		return -E2BIG;
	}
	for (i = 0; i < fmt->nfields; i++) {
		total += fmt->width[i];
		if (!fmt->width[i] || total > limit) {
			*bad_field = i;
			return fmt->width[i] ? -E2BIG : -EINVAL;
		}
	}
	return 0;
}

/**
 * mrc_evgen_check_fields() - validate the EV fields of an EV profile
 * @fmt: the profile's format, already valid (mrc_evgen_check_fmt())
 * @f: the fields, field 0 first
 * @nfields: entries in @f
 * @bad_field: set to the index of the offending field, or to
 *	MRC_EVGEN_NO_FIELD (no field given, or success); @fmt->nfields when
 *	there are more fields than the format has
 *
 * Rules (OCP's, with the per-field width rule that makes packing lossless):
 * 1..@fmt->nfields fields; each 1..32 bits wide and no wider than its
 * format field; init_val and mask inside the width; max_val below
 * 2^popcount(mask); min_val <= max_val. A fixed field (mask 0) therefore
 * has min_val = max_val = 0. The sum of the widths cannot exceed the
 * format's, since each field fits its format field.
 *
 * Return: 0, -E2BIG (more fields than the format) or -EINVAL.
 */
int mrc_evgen_check_fields(const struct mrc_evgen_fmt *fmt,
			   const struct mrc_evgen_field *f,
			   unsigned int nfields, int *bad_field)
{
	unsigned int i;

	*bad_field = MRC_EVGEN_NO_FIELD;
	if (!nfields)
		return -EINVAL;
	if (nfields > fmt->nfields) {
		*bad_field = fmt->nfields;
		return -E2BIG;
	}
	for (i = 0; i < nfields; i++) {
		const struct mrc_evgen_field *fi = &f[i];

		*bad_field = i;
		if (!fi->width || fi->width > MRC_EVGEN_FIELD_WIDTH_MAX ||
		    fi->width > fmt->width[i])
			return -EINVAL;
		if ((fi->init_val | fi->mask) & ~mrc_evgen_low(fi->width))
			return -EINVAL;
		if (fi->max_val & ~mrc_evgen_low(hweight32(fi->mask)))
			return -EINVAL;
		if (fi->min_val > fi->max_val)
			return -EINVAL;
	}
	*bad_field = MRC_EVGEN_NO_FIELD;
	return 0;
}

/* Spread the low popcount(@mask) bits of @part over @mask's set bits. */
static u32 mrc_evgen_deposit(u32 part, u32 mask)
{
	u32 out = 0;

	for (; mask; mask &= mask - 1, part >>= 1)
		if (part & 1)
			out |= mask & -mask;
	return out;
}

/*
 * The value of EV field @f for @compact, whose first @used bits earlier
 * fields consumed: the next popcount(mask) bits from the top deposited
 * into the mask over init_val. Advances @used; -EINVAL past 32 bits.
 */
static int mrc_evgen_field_value(const struct mrc_evgen_field *f,
				 u32 compact, unsigned int *used, u32 *val)
{
	unsigned int k = hweight32(f->mask);
	u32 part = 0;

	if (*used + k > 32)
		return -EINVAL;
	if (k)
		part = (compact >> (32 - *used - k)) & mrc_evgen_low(k);
	*used += k;
	*val = (f->init_val & ~f->mask) | mrc_evgen_deposit(part, f->mask);
	return 0;
}

/* Sum of the format's field widths. */
static unsigned int mrc_evgen_fmt_width(const struct mrc_evgen_fmt *fmt)
{
	unsigned int i, w = 0;

	for (i = 0; i < fmt->nfields && i < MRC_EVFMT_FIELDS_MAX; i++)
		w += fmt->width[i];
	return w;
}

/**
 * mrc_evgen_expand() - the wire value of a compact EV
 * @fmt: a valid format of mode STEV or UDP
 * @f: valid fields for @fmt (mrc_evgen_check_fields())
 * @nfields: entries in @f
 * @compact: the compact EV, left-aligned (see mrc_evgen.h)
 * @wire: set to the wire value, right-aligned in the format's width
 *
 * Each field takes the next popcount(mask) bits of @compact from the top
 * and deposits them into its mask over init_val; the field values are
 * packed field 0 first. Bits of @compact that no mask consumes must be 0.
 *
 * Return: 0, -EINVAL (bits left over, or fields not fitting the format)
 * or -EOPNOTSUPP for SRV6 (wider than 32 bits: mrc_evgen_expand_srv6()).
 */
int mrc_evgen_expand(const struct mrc_evgen_fmt *fmt,
		     const struct mrc_evgen_field *f, unsigned int nfields,
		     u32 compact, u32 *wire)
{
	unsigned int i, used = 0, shift;
	u64 val = 0;
	u32 v;

	if (fmt->mode == MRC_EVFMT_SRV6)
		return -EOPNOTSUPP;
	shift = mrc_evgen_fmt_width(fmt);
	if (nfields > fmt->nfields || shift > 32)
		return -EINVAL;
	for (i = 0; i < nfields; i++) {
		if (mrc_evgen_field_value(&f[i], compact, &used, &v))
			return -EINVAL;
		shift -= fmt->width[i];
		val |= (u64)v << shift;
	}
	if (compact & mrc_evgen_low(32 - used))
		return -EINVAL;
	*wire = (u32)val;
	return 0;
}

/* Write @val right-aligned into bits [@end - 32, @end) of @out (MSB first). */
static void mrc_evgen_put_bits(u8 *out, unsigned int end, u32 val)
{
	unsigned int bit;

	for (bit = end; val && bit; val >>= 1) {
		bit--;
		if (val & 1)
			out[bit / 8] |= 0x80 >> (bit % 8);
	}
}

/**
 * mrc_evgen_expand_srv6() - the addresses an SRV6 compact EV stands for
 * @fmt: a valid format of mode SRV6
 * @f: valid fields for @fmt (mrc_evgen_check_fields())
 * @nfields: entries in @f
 * @compact: the compact EV, left-aligned (see mrc_evgen.h)
 * @out: set to the wire value: MRC_EVGEN_SRV6_BYTES_MAX bytes, field 0
 *	from the first bit on (LEFT-aligned, as an address is written),
 *	each field's value right-aligned in its format field; bits past
 *	the format's width are zero
 * @len: set to the bytes of @out the EV uses: 16 (one IPv6 address)
 *	for a format up to 128 bits wide, else 32 (two)
 *
 * As mrc_evgen_expand() otherwise: the fields deposit the compact EV's
 * bits into their masks over init_val. This is how a GENERATED uSID
 * program (block, one uSID per tier, the receiver's uSID) expands into
 * one container per path.
 *
 * Return: 0 or -EINVAL (not SRV6, bits left over, fields not fitting).
 */
int mrc_evgen_expand_srv6(const struct mrc_evgen_fmt *fmt,
			  const struct mrc_evgen_field *f,
			  unsigned int nfields, u32 compact,
			  u8 out[MRC_EVGEN_SRV6_BYTES_MAX], unsigned int *len)
{
	unsigned int i, used = 0, end = 0, width = mrc_evgen_fmt_width(fmt);
	u32 v;

	if (fmt->mode != MRC_EVFMT_SRV6 || nfields > fmt->nfields ||
	    width > MRC_EVGEN_SRV6_WIDTH_MAX)
		return -EINVAL;
	memset(out, 0, MRC_EVGEN_SRV6_BYTES_MAX);
	for (i = 0; i < nfields; i++) {
		if (mrc_evgen_field_value(&f[i], compact, &used, &v))
			return -EINVAL;
		end += fmt->width[i];
		mrc_evgen_put_bits(out, end, v);
	}
	if (compact & mrc_evgen_low(32 - used))
		return -EINVAL;
	*len = width > 128 ? 32 : 16;
	return 0;
}

/**
 * mrc_evgen_product() - how many EVs a GENERATED profile's fields make
 * @f: valid fields
 * @nfields: entries in @f
 *
 * Return: the product over the fields of max_val - min_val + 1 (1 for a
 * fixed field), U64_MAX if it overflows, 0 for a field with min > max.
 */
u64 mrc_evgen_product(const struct mrc_evgen_field *f, unsigned int nfields)
{
	unsigned int i;
	u64 p = 1;

	for (i = 0; i < nfields; i++) {
		u64 d;

		if (f[i].min_val > f[i].max_val)
			return 0;
		d = (u64)f[i].max_val - f[i].min_val + 1;
		if (p > U64_MAX / d)
			return U64_MAX;
		p *= d;
	}
	return p;
}

/**
 * mrc_evgen_count() - the EV count of a GENERATED profile
 * @f: valid fields
 * @nfields: entries in @f
 * @requested: the count asked for; 0 means "all of them"
 * @count: set to the count to use
 *
 * 0 gives the product clamped to MRC_EV_COUNT_MAX; the first @count EVs
 * of the enumeration (mrc_evgen_nth()) are then the profile's.
 *
 * Return: 0, -E2BIG (@requested above MRC_EV_COUNT_MAX) or -EINVAL
 * (@requested above the product, or invalid fields).
 */
int mrc_evgen_count(const struct mrc_evgen_field *f, unsigned int nfields,
		    u32 requested, u32 *count)
{
	u64 p = mrc_evgen_product(f, nfields);

	if (requested > MRC_EV_COUNT_MAX)
		return -E2BIG;
	if (!p || requested > p)
		return -EINVAL;
	*count = requested ? requested : min_t(u64, p, MRC_EV_COUNT_MAX);
	return 0;
}

/**
 * mrc_evgen_nth() - the compact EV number @n of a GENERATED profile
 * @f: valid fields
 * @nfields: entries in @f
 * @n: the EV's number, below mrc_evgen_product()
 * @compact: set to the compact EV, left-aligned
 *
 * @n is written in mixed radix, field 0 the fastest digit: digit i counts
 * max_i - min_i + 1 values and the field's generated part is min_i plus
 * the digit. A truncated enumeration therefore takes every value of
 * field 0 before field 1 changes.
 *
 * Return: 0, -ERANGE (@n not below the product), -EINVAL (a field with
 * min > max) or -EOPNOTSUPP (generated parts wider than 32 bits, SRV6).
 */
int mrc_evgen_nth(const struct mrc_evgen_field *f, unsigned int nfields,
		  u32 n, u32 *compact)
{
	unsigned int i, used = 0;
	u32 c = 0;

	for (i = 0; i < nfields; i++) {
		unsigned int k = hweight32(f[i].mask);
		u32 span, digit;

		if (f[i].min_val > f[i].max_val)
			return -EINVAL;
		if (used + k > 32)
			return -EOPNOTSUPP;
		span = f[i].max_val - f[i].min_val;	/* digits - 1 */
		if (n <= span) {
			digit = n;
			n = 0;
		} else {
			digit = n % (span + 1);
			n /= span + 1;
		}
		if (k)
			c |= (f[i].min_val + digit) << (32 - used - k);
		used += k;
	}
	if (n)
		return -ERANGE;
	*compact = c;
	return 0;
}

/**
 * mrc_evgen_split() - the UDP source port and flow label of a wire value
 * @mode: the format's enum mrc_evfmt_mode
 * @wire: the wire value (mrc_evgen_expand())
 * @sport: set to the UDP source port
 * @flow_label: set to the IPv6 flow label
 *
 * STEV: the low 16 bits are the source port, the high 16 bits the low 16
 * bits of the flow label (its top 4 bits stay 0). UDP: the value is the
 * source port, flow label 0. Outputs are written only on success.
 *
 * Return: 0, -EINVAL (source port 0, a UDP value above 16 bits, unknown
 * mode) or -EOPNOTSUPP (SRV6).
 */
int mrc_evgen_split(u8 mode, u32 wire, u16 *sport, u32 *flow_label)
{
	u32 fl;

	switch (mode) {
	case MRC_EVFMT_STEV:
		fl = wire >> 16;
		break;
	case MRC_EVFMT_UDP:
		if (wire > U16_MAX)
			return -EINVAL;
		fl = 0;
		break;
	case MRC_EVFMT_SRV6:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
	if (!(wire & U16_MAX))
		return -EINVAL;
	*sport = wire & U16_MAX;
	*flow_label = fl;
	return 0;
}
