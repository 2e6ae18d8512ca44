// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the check of a decapsulated packet's outer headers
 * (kernel/core/mrc_encap_check.c) with the bytes mrc_net_rx_encap_ok()
 * hands it: the first input byte picks the inner IP version (its low
 * bit: 4 or 6) and, with bit 3 set, takes the next 16 bytes as the inner
 * source every outer source must equal (encap_src_check on); the rest are
 * the outer headers. Beyond reading only what it was given (ASan), the
 * check must hold to what it promises:
 *
 * - NONE exactly when there is no IPv6 header to judge (too few bytes
 *   for one, or another version);
 * - an accepted chain ends exactly where the inner packet starts, so one
 *   byte more or one byte less is refused;
 * - an accepted chain names the inner protocol, so the other version is
 *   refused;
 * - the source only turns an accepted chain into WRONG_SRC, never a
 *   verdict on the structure into another: a chain accepted with a
 *   source starts with a header from it, around an IPv6 packet, and a
 *   single header is accepted exactly when it is from that source.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "mrc_encap_check.h"

static enum mrc_encap_verdict check_copy(const u8 *p, size_t len, u8 ver,
					 const u8 *src)
{
	enum mrc_encap_verdict v;
	u8 *copy = malloc(len ? len : 1);
	u8 *src_copy = NULL;

	/* Exactly @len bytes on the heap: ASan sees any read past them. */
	memcpy(copy, p, len);
	if (src) {
		/* An IPv4 source has 4 bytes: ASan sees a read of more. */
		src_copy = malloc(ver == 4 ? 4 : 16);
		memcpy(src_copy, src, ver == 4 ? 4 : 16);
	}
	v = mrc_encap_check(copy, len, ver, src_copy);
	free(src_copy);
	free(copy);
	return v;
}

/* The source's promises (see the top), @v the verdict with @src. */
static void check_source(const u8 *p, size_t len, u8 ver, const u8 *src,
			 enum mrc_encap_verdict v)
{
	enum mrc_encap_verdict any = check_copy(p, len, ver, NULL);

	FUZZ_CHECK(any != MRC_ENCAP_WRONG_SRC, "WRONG_SRC without a source");
	if (!src) {
		FUZZ_CHECK(v == any, "verdict %d, then %d", v, any);
		return;
	}
	if (any != MRC_ENCAP_OK) {
		FUZZ_CHECK(v == any, "verdict %d with a source, %d without",
			   v, any);
		return;
	}
	FUZZ_CHECK(v == MRC_ENCAP_OK || v == MRC_ENCAP_WRONG_SRC,
		   "accepted chain judged %d with a source", v);
	if (v == MRC_ENCAP_OK)
		FUZZ_CHECK(ver == 6 && !memcmp(p + 8, src, 16),
			   "accepted from another source (inner IPv%u)", ver);
	if (len == 40)
		FUZZ_CHECK((v == MRC_ENCAP_OK) ==
			   (ver == 6 && !memcmp(p + 8, src, 16)),
			   "one header from %s source judged %d",
			   memcmp(p + 8, src, 16) ? "another" : "the", v);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	enum mrc_encap_verdict v;
	const u8 *p = data + 1, *src = NULL;
	size_t len;
	u8 ver, more[4096 + 1];

	if (!size || size > sizeof(more))
		return 0;
	ver = data[0] & 1 ? 4 : 6;
	len = size - 1;
	if (data[0] & 8) {
		if (len < 16)
			return 0;
		src = p;
		p += 16;
		len -= 16;
	}
	v = check_copy(p, len, ver, src);
	FUZZ_CHECK(v == MRC_ENCAP_NONE || v == MRC_ENCAP_OK ||
		   v == MRC_ENCAP_BAD || v == MRC_ENCAP_WRONG_SRC,
		   "verdict %d", v);
	FUZZ_CHECK((v == MRC_ENCAP_NONE) == (len < 40 || (p[0] >> 4) != 6),
		   "verdict %d with %zu bytes, first %#x", v, len,
		   len ? p[0] : 0);
	check_source(p, len, ver, src, v);
	if (v != MRC_ENCAP_OK && v != MRC_ENCAP_WRONG_SRC)
		return 0;
	/* The structure's promises hold whatever the sources. */
	v = check_copy(p, len - 1, ver, src);
	FUZZ_CHECK(v != MRC_ENCAP_OK && v != MRC_ENCAP_WRONG_SRC,
		   "accepted with its last byte cut (%zu bytes)", len);
	memcpy(more, p, len);
	more[len] = 0;
	FUZZ_CHECK(check_copy(more, len + 1, ver, src) == MRC_ENCAP_BAD,
		   "accepted with a byte more (%zu bytes)", len);
	FUZZ_CHECK(check_copy(p, len, ver == 4 ? 6 : 4, src) == MRC_ENCAP_BAD,
		   "accepted for both inner versions");
	return 0;
}
