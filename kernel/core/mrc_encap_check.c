// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The outer headers of a decapsulated packet. Linux checks an SRH only
 * where it acts on one: End.DT6 decapsulates a packet whose SRH fails
 * the kernel's own validation as if it had none, and an SRH whose last
 * segment is the host's address is not read at all. MRC checks each one
 * itself (RFC 8754 section 2), so that a malformed SRH never delivers
 * an inner packet to a QP.
 *
 * Nor does Linux tie the inner packet to the outer one: whoever may send
 * to a decapsulating SID can wrap a packet from any source, which the
 * network's source filters never see. MRC's sender puts its own address
 * in both headers, so unless a router encapsulates, every outer source
 * must be the inner one.
 */
#include <linux/string.h>

#include "mrc_encap_check.h"

#define MRC_NH_HOP	0	/* IPv6 next-header values (RFC 8200) */
#define MRC_NH_IPV4	4
#define MRC_NH_IPV6	41
#define MRC_NH_ROUTING	43
#define MRC_NH_DEST	60
#define MRC_IPV6_LEN	40
#define MRC_IPV6_SADDR	8	/* offset of the source address */
#define MRC_SRH_TYPE	4
#define MRC_TLV_PAD1	0

/* An extension header's length from its Hdr Ext Len byte, in octets. */
static unsigned int mrc_ext_len(const u8 *h)
{
	return (h[1] + 1u) * 8;
}

/**
 * mrc_encap_srh_ok() - whether an SRH is well formed and fully used
 * @srh: the header, @len bytes
 * @len: the bytes its Hdr Ext Len claims, all present
 *
 * Type 4; Segments Left 0 (the kernel decapsulated it, so no segment may
 * remain); the list (Last Entry + 1 segments) inside the header; the
 * TLVs after it (Pad1 one byte, the others type, length, value) ending
 * exactly at the header's end.
 *
 * Return: true if so.
 */
bool mrc_encap_srh_ok(const u8 *srh, unsigned int len)
{
	unsigned int off;

	if (len < 8 || mrc_ext_len(srh) != len)
		return false;
	if (srh[2] != MRC_SRH_TYPE || srh[3] != 0)
		return false;
	off = 8 + (srh[4] + 1u) * 16;
	if (off > len)
		return false;
	while (off < len) {
		if (srh[off] == MRC_TLV_PAD1) {
			off++;
			continue;
		}
		if (len - off < 2 || len - off - 2 < srh[off + 1])
			return false;
		off += 2 + srh[off + 1];
	}
	return true;
}

/**
 * mrc_encap_check() - judge the headers between the link header and the
 *	inner packet
 * @p: @len bytes, the first outer header first
 * @len: 0 when the packet came in unencapsulated
 * @inner_version: 4 or 6, the inner packet's IP version
 * @inner_src: NULL to accept any outer source; else the inner packet's
 *	source address (16 bytes for IPv6, 4 for IPv4), which every outer
 *	IPv6 header's source must equal (never true around IPv4)
 *
 * Accepted: IPv6 headers, each followed by Hop-by-Hop or Destination
 * options or a well-formed SRH (mrc_encap_srh_ok()), the last of them
 * naming the inner packet's protocol and ending where it starts.
 *
 * Return: MRC_ENCAP_NONE when @p does not start with an IPv6 header (a
 * tunnel this check does not know, or fewer bytes than one: the link
 * header that xfrm rebuilds in front of the packet it delivers),
 * MRC_ENCAP_BAD for a malformed chain,
 * else MRC_ENCAP_WRONG_SRC when an outer source differs from @inner_src,
 * else MRC_ENCAP_OK.
 */
enum mrc_encap_verdict mrc_encap_check(const u8 *p, unsigned int len,
				       u8 inner_version, const u8 *inner_src)
{
	u8 inner_nh = inner_version == 4 ? MRC_NH_IPV4 : MRC_NH_IPV6;
	unsigned int off = 0, hdrs, hl;
	u8 nh = MRC_NH_IPV6;
	bool other_src = false;

	if (len < MRC_IPV6_LEN || (p[0] >> 4) != 6)
		return MRC_ENCAP_NONE;
	for (hdrs = 0; hdrs < MRC_ENCAP_MAX_HDRS && off < len; hdrs++) {
		switch (nh) {
		case MRC_NH_IPV6:
			if (len - off < MRC_IPV6_LEN || (p[off] >> 4) != 6)
				return MRC_ENCAP_BAD;
			if (inner_src &&
			    (inner_version != 6 ||
			     memcmp(p + off + MRC_IPV6_SADDR, inner_src, 16)))
				other_src = true;
			nh = p[off + 6];
			off += MRC_IPV6_LEN;
			break;
		case MRC_NH_HOP:
		case MRC_NH_DEST:
		case MRC_NH_ROUTING:
			if (len - off < 8)
				return MRC_ENCAP_BAD;
			hl = mrc_ext_len(p + off);
			if (hl > len - off)
				return MRC_ENCAP_BAD;
			if (nh == MRC_NH_ROUTING &&
			    !mrc_encap_srh_ok(p + off, hl))
				return MRC_ENCAP_BAD;
			nh = p[off];
			off += hl;
			break;
		default:
			return MRC_ENCAP_BAD;
		}
	}
	if (off != len || nh != inner_nh)
		return MRC_ENCAP_BAD;
	return other_src ? MRC_ENCAP_WRONG_SRC : MRC_ENCAP_OK;
}

/**
 * mrc_encap_tclass() - the outermost header's traffic class
 * @p: the outer headers (as for mrc_encap_check())
 * @len: their length in bytes
 *
 * Routers mark the header they forward by, the outermost: CE, and the
 * DSCP a trimming switch gives what it cut. Linux's SRv6 decapsulation
 * carries neither to the inner header (no seg6 path of 6.1 does): the
 * receiver reads them here.
 *
 * Return: the traffic class (DSCP << 2 | ECN), or -1 when @p does not
 * start with an IPv6 header.
 */
int mrc_encap_tclass(const u8 *p, unsigned int len)
{
	if (len < MRC_IPV6_LEN || (p[0] >> 4) != 6)
		return -1;
	/* The low nibble of byte 0, the high one of byte 1. */
	return ((p[0] & 0x0f) << 4) | (p[1] >> 4);
}
