/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * EV generation: the arithmetic of OCP's EV format profiles and EV
 * profiles (Documentation/control-plane.rst, "EV profile" and "Our
 * choices where OCP is silent"). Pure functions on plain arrays: no
 * locks, no allocation, no profile objects (those are ctl/'s).
 *
 * Format. An ordered list of 1..MRC_EVFMT_FIELDS_MAX field widths (bits)
 * and a mode; the widths add up to W, the width of the EV as sent:
 * at most 32 for STEV, 16 for UDP, 256 for SRV6.
 *
 * EV fields. At most as many as the format has, field i no wider than
 * format field i; each has init_val, min_val, max_val and a mask, all
 * inside its width. popcount(mask) bits of the compact EV are its
 * generated part, so max_val < 2^popcount(mask) and min_val <= max_val;
 * a fixed field has mask 0, hence min_val = max_val = 0.
 *
 * Compact EV (what a controller names and GENERATED enumerates): the
 * generated parts of fields 0, 1, ... concatenated, most significant
 * first. As a u32 it is LEFT-aligned, as OCP's byte array is: its first
 * bit is bit 31, so the u32 is the first four bytes of OCP's EV read
 * big-endian (MRC_EV_VALUE on netlink carries exactly those bytes). A
 * compact EV of C < 32 bits has its low 32 - C bits zero.
 *
 * Wire value (what the EV expands to): each field's value is init_val
 * with the mask's bit positions replaced by the field's generated part
 * (highest generated bit into the highest mask bit), zero-extended to
 * the width of the format field; the fields are packed one after the
 * other, field 0 most significant. As a u32 it is RIGHT-aligned: a
 * format of W bits gives a W-bit number (format fields without an EV
 * field are zero). For STEV it is then split into UDP source port (low
 * 16 bits) and IPv6 flow label (the high 16 bits as the flow label's low
 * 16 bits); for UDP it is the source port. For W = 32 the wire value is
 * OCP's expanded byte array read big-endian, as the compact EV is.
 * SRV6 (up to 256 bits) is a byte array instead, LEFT-aligned as an
 * address is written: field 0 from the first bit on, zero after the
 * format's width; one IPv6 address (16 bytes) up to 128 bits, two after.
 *
 * GENERATED: the n-th EV is n in mixed radix, field 0 the fastest digit,
 * digit i counting max_i - min_i + 1 values from min_i.
 */
#ifndef MRC_EVGEN_H
#define MRC_EVGEN_H

#include <linux/types.h>

#define MRC_EVFMT_FIELDS_MAX	16
#define MRC_EVGEN_FIELD_WIDTH_MAX 32	/* EV fields: u32 values */
#define MRC_EVGEN_STEV_WIDTH_MAX 32
#define MRC_EVGEN_UDP_WIDTH_MAX	16
#define MRC_EVGEN_SRV6_WIDTH_MAX 256	/* address + one SRH segment */
#define MRC_EVGEN_SRV6_BYTES_MAX (MRC_EVGEN_SRV6_WIDTH_MAX / 8)
#define MRC_EVGEN_NO_FIELD	(-1)	/* error not about one field */

/*
 * Format modes. The values are those of enum mrc_genl_fmt_mode in
 * uapi/mrc-genl.h (core/ cannot include it): ctl/ asserts the equality.
 */
enum mrc_evfmt_mode {
	MRC_EVFMT_STEV = 0,
	MRC_EVFMT_SRV6 = 1,
	MRC_EVFMT_UDP = 2,
};

/**
 * struct mrc_evgen_fmt - an EV format: mode and field widths
 * @mode: enum mrc_evfmt_mode
 * @nfields: fields in @width
 * @width: field widths in bits, field 0 first (most significant)
 */
struct mrc_evgen_fmt {
	u8 mode;
	u8 nfields;
	u8 width[MRC_EVFMT_FIELDS_MAX];
};

/**
 * struct mrc_evgen_field - one EV field (OCP's mrc_ctl_ev_field)
 * @width: bits, 1..32 and at most the format field's width
 * @init_val: value of the bits the mask does not generate
 * @min_val: lowest generated part (GENERATED)
 * @max_val: highest generated part (GENERATED)
 * @mask: bit positions that carry the generated part
 */
struct mrc_evgen_field {
	u32 width;
	u32 init_val;
	u32 min_val;
	u32 max_val;
	u32 mask;
};

int mrc_evgen_check_fmt(const struct mrc_evgen_fmt *fmt, int *bad_field);
int mrc_evgen_check_fields(const struct mrc_evgen_fmt *fmt,
			   const struct mrc_evgen_field *f,
			   unsigned int nfields, int *bad_field);
int mrc_evgen_expand(const struct mrc_evgen_fmt *fmt,
		     const struct mrc_evgen_field *f, unsigned int nfields,
		     u32 compact, u32 *wire);
int mrc_evgen_expand_srv6(const struct mrc_evgen_fmt *fmt,
			  const struct mrc_evgen_field *f,
			  unsigned int nfields, u32 compact,
			  u8 out[MRC_EVGEN_SRV6_BYTES_MAX], unsigned int *len);
u64 mrc_evgen_product(const struct mrc_evgen_field *f, unsigned int nfields);
int mrc_evgen_count(const struct mrc_evgen_field *f, unsigned int nfields,
		    u32 requested, u32 *count);
int mrc_evgen_nth(const struct mrc_evgen_field *f, unsigned int nfields,
		  u32 n, u32 *compact);
int mrc_evgen_split(u8 mode, u32 wire, u16 *sport, u32 *flow_label);

#endif /* MRC_EVGEN_H */
